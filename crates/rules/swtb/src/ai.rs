//! The position's value for AIs that stop searching before the end ([`battlemat_core::Game::evaluate`]).

use crate::data::Goal;
use crate::state::{Swtb, other};

impl Swtb {
    /// A heuristic for AIs, for `side` (a seat's side: seats of one side share it): mostly
    /// the share of points left, plus a little for closing in.
    pub fn heuristic(&self, side: u8) -> f64 {
        let mine = self.points_left(side) as f64;
        let theirs = self.points_left(other(side)) as f64;
        let material = if mine + theirs > 0.0 {
            (mine - theirs) / (mine + theirs)
        } else {
            0.0
        };
        let g = &self.fixed.grid;
        let approach = |s: u8| -> f64 {
            let mut total = 0.0;
            let mut n = 0.0;
            for u in self.ids().filter(|&u| self.now.units[u as usize].side == s) {
                let Some(c) = self.cell_of(u) else { continue };
                let d = self
                    .ids()
                    .filter(|&e| self.now.units[e as usize].side != s)
                    .filter_map(|e| self.cell_of(e))
                    .map(|e| g.distance(c, e))
                    .min()
                    .unwrap_or(0);
                total += d as f64;
                n += 1.0;
            }
            if n > 0.0 {
                total / n / (g.width.max(g.height) as f64)
            } else {
                0.0
            }
        };
        let mut goal = 0.0;
        if let Some(
            Goal::Reach {
                side: goal_side,
                cells,
            }
            | Goal::Hold {
                side: goal_side,
                cells,
            },
        ) = &self.fixed.setup.scenario.goal
        {
            let best = self
                .ids()
                .filter(|&u| self.now.units[u as usize].side == *goal_side && !self.ty(u).flies())
                .filter_map(|u| self.cell_of(u))
                .map(|c| cells.iter().map(|t| g.distance(c, *t)).min().unwrap_or(0))
                .min()
                .unwrap_or(99) as f64;
            let v = 1.0 - (best / (g.width.max(g.height) as f64)).min(1.0);
            goal = if *goal_side == side { v } else { -v };
        }
        (0.8 * material + 0.05 * (approach(other(side)) - approach(side)) + 0.1 * goal)
            .clamp(-0.99, 0.99)
    }
}
