//! The position's value for AIs that stop searching before the end
//! ([`battlemat_core::Game::evaluate`]): the share of the armies' worth left, a little for
//! closing in, and the scenario's goal.
//!
//! - Worth: each unit's cost, and a share more where it stands better: in cover ([`COVER`],
//!   SWTB-4: "cannot shoot through obstructions (other figures, walls, hills, vehicles)" —
//!   no enemy ground unit with a blaster has a clear line to it, and none is in contact) or
//!   defending from a fortified cell ([`FORTIFIED`], SWTB-O7, with the option on). Fliers
//!   ignore obstructions and are never in cover; the cover counted is the terrain's, against
//!   the enemy's ground units (a flier can reach any ground unit, cover or not). Both are
//!   less than a unit, so a kill always outweighs hiding.
//! - The goal (the scenarios' `[goal]`): for `reach`, how near the goal side's nearest
//!   ground unit is to the cells; for `hold`, the same, and who stands on the cells (the
//!   goal side wins after the last round with a ground unit there and none of the enemy's),
//!   weighed more as the last round nears. The other side counts the same with the sign
//!   turned.
//!
//! One pass over the units per side, and a sight line traced (the topology's bitset test)
//! only for the enemy blasters of each ground unit.

use crate::data::{Goal, Weapon};
use crate::movement::Occupancy;
use crate::state::{Place, Swtb, UnitId, other};
use battlemat_geom::Cell;

/// What cover adds to a unit's worth (a share of its cost).
pub const COVER: f64 = 0.15;
/// What a fortified position adds to a unit's worth (SWTB-O7: +1d6 defending).
pub const FORTIFIED: f64 = 0.15;

impl Swtb {
    /// A heuristic for AIs, for `side` (a seat's side: seats of one side share it): mostly
    /// the share of worth left, plus a little for closing in and the goal.
    pub fn heuristic(&self, side: u8) -> f64 {
        let occ = self.occupancy();
        let mine = self.worth(side, &occ);
        let theirs = self.worth(other(side), &occ);
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
        let goal = match &self.fixed.setup.scenario.goal {
            Some(Goal::Reach { side: s, cells }) => {
                let v = self.nearness(*s, cells);
                if *s == side { v } else { -v }
            }
            Some(Goal::Hold { side: s, cells }) => {
                // The goal side wins with a ground unit on the cells and none of the enemy's
                // after the last round (turn.rs, `end_by_round_limit`).
                let on = |t: u8| f64::from(u8::from(self.on_cells(t, cells)));
                let rounds = f64::from(self.fixed.setup.scenario.max_rounds.max(1));
                let late = 0.5 + 0.5 * (f64::from(self.now.round) / rounds).min(1.0);
                let v =
                    late * (0.4 * self.nearness(*s, cells) + 0.3 * on(*s) - 0.3 * on(other(*s)));
                if *s == side { v } else { -v }
            }
            None => 0.0,
        };
        (0.8 * material + 0.05 * (approach(other(side)) - approach(side)) + 0.15 * goal)
            .clamp(-0.99, 0.99)
    }

    /// `side`'s units' worth: their costs, each a share more in cover or fortified.
    fn worth(&self, side: u8, occ: &Occupancy) -> f64 {
        self.ids()
            .filter(|&u| self.now.units[u as usize].side == side && self.alive(u))
            .map(|u| {
                let mut share = 1.0;
                if self.cover_on(u, occ) {
                    share += COVER;
                }
                if self.fortified_defender(u) {
                    share += FORTIFIED;
                }
                self.ty(u).cost as f64 * share
            })
            .sum()
    }

    /// 1 with a ground unit of `side` on one of `cells`, falling to 0 as its nearest one is
    /// a board's length away.
    fn nearness(&self, side: u8, cells: &[Cell]) -> f64 {
        let g = &self.fixed.grid;
        let best = self
            .ids()
            .filter(|&u| self.now.units[u as usize].side == side && !self.ty(u).flies())
            .filter_map(|u| self.cell_of(u))
            .map(|c| cells.iter().map(|t| g.distance(c, *t)).min().unwrap_or(0))
            .min()
            .unwrap_or(99) as f64;
        1.0 - (best / (g.width.max(g.height) as f64)).min(1.0)
    }

    /// A ground unit of `side` stands on one of `cells`.
    fn on_cells(&self, side: u8, cells: &[Cell]) -> bool {
        self.ids().any(|u| {
            let x = &self.now.units[u as usize];
            x.side == side
                && matches!(x.place, Place::Field(c) if cells.contains(&c))
                && !self.ty(u).flies()
        })
    }

    /// SWTB-4: is `u` (a ground unit on the battlefield) out of every enemy ground unit's
    /// reach where it stands — no enemy blaster with a clear line to it, no enemy in contact?
    pub fn in_cover(&self, u: UnitId) -> bool {
        self.cover_on(u, &self.occupancy())
    }

    fn cover_on(&self, u: UnitId, occ: &Occupancy) -> bool {
        if self.ty(u).flies() {
            return false;
        }
        let Some(at) = self.cell_of(u) else {
            return false;
        };
        let side = self.now.units[u as usize].side;
        let g = &self.fixed.grid;
        self.ids().all(|e| {
            if self.now.units[e as usize].side == side {
                return true;
            }
            let t = self.ty(e);
            if t.flies() || t.weapon == Weapon::None || !t.attacks_ground {
                return true;
            }
            let Some(from) = self.cell_of(e) else {
                return true;
            };
            if g.distance(at, from) <= 1 {
                return false;
            }
            t.weapon != Weapon::Blaster || !self.clear_line(from, at, occ)
        })
    }
}
