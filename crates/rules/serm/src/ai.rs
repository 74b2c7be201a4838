//! A heuristic value for AIs: soldiers left, weighted by their dice, and cover — and a Move
//! the other side may still React to, at what it is expected to come to.
//!
//! A Move's roll comes before the other side's choice to React (SERM-REACT), so a player that
//! looks one decision ahead stops there, with the mover still where it began: valued as it
//! stands, every Move that can be reacted to would be worth no more than standing still,
//! and a Move into contact (which kills) nothing. So while a React may come, the position is
//! valued as the Move completed and as stopped (the mover where it began: the reactor's side
//! then chooses where along the path, which this does not look into), weighed by the React
//! pool's chance to beat the Move roll.
//!
//! SERM-SHOOT: "any enemy the shooter can see may be shot", and terrain blocks the line
//! (rulings.md). A soldier no enemy with a Shoot has a clear line to cannot be shot where it
//! stands, so it counts [`COVER`] more than one in the open: the AIs move into cover, and out
//! of the lines of the enemy's guns, where the table has any.

use crate::pools::p_react_stops;
use crate::state::{Fixed, Phase, Serm};
use battlemat_core::{Game, Seat, result_value};
use battlemat_geom::table::Point;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// What cover adds to a soldier's worth (a share of it): less than a soldier, so a shot that
/// kills always beats hiding.
pub const COVER: f64 = 0.2;

/// A soldier as the evaluation counts it: one, and a tenth for each of its dice.
pub fn soldier_worth(c: &crate::data::Card) -> f64 {
    1.0 + f64::from(c.shoot + c.endure + c.react + c.movement) / 10.0
}

impl Serm {
    pub fn evaluation(&self, seat: Seat) -> f64 {
        if let Some(r) = self.result() {
            return result_value(&r, seat);
        }
        let here = self.standing(seat);
        // SERM-REACT: a Move the other side may still stop. The mover is still where it
        // started; if it moves on, it ends where its path does and kills the enemy it
        // contacts. Valued here at both, weighed by the react's chance (the reactor's side
        // reacting with its likeliest soldier only if stopping the Move suits it).
        let (moving, p_stop, chosen) = match &self.now.phase {
            Phase::ReactChoice { moving } => {
                // The most React dice among those who may react.
                let most = self
                    .reactors(moving)
                    .into_iter()
                    .map(|r| self.card(r).react)
                    .max();
                (
                    *moving,
                    p_react_stops(most.unwrap_or(0), moving.total),
                    false,
                )
            }
            Phase::Reacting {
                moving, reactor, ..
            } => (
                *moving,
                p_react_stops(self.card(*reactor).react, moving.total),
                true,
            ),
            _ => return here,
        };
        let mut done = self.clone();
        done.complete_move(moving, &mut Vec::new());
        let moved = done.evaluation(seat);
        let mover_is_mine = self.fixed.seating.side_of(seat) == self.soldier(moving.mover).side;
        // The reactor's side wants the lower value for the mover's side.
        let stop_suits_reactor = if mover_is_mine {
            here < moved
        } else {
            here > moved
        };
        let p = if chosen || stop_suits_reactor {
            p_stop
        } else {
            0.0
        };
        p * here + (1.0 - p) * moved
    }

    /// The value of the soldiers as they stand: see the module's words.
    fn standing(&self, seat: Seat) -> f64 {
        let mine = self.fixed.seating.side_of(seat);
        let mut v = [0.0f64; 2];
        for s in self.ids() {
            let x = self.soldier(s);
            if x.alive {
                let c = self.card(s);
                let worth = soldier_worth(c);
                let cover = if self.in_cover(s) { 1.0 + COVER } else { 1.0 };
                v[x.side as usize] += worth * cover;
            }
        }
        let (a, b) = (v[mine as usize], v[1 - mine as usize]);
        ((a - b) / (a + b).max(1.0)).clamp(-0.95, 0.95)
    }

    /// SERM-SHOOT: no living enemy that can shoot has a clear line to `s` (turning is free
    /// for a Shoot, so the arc does not matter; terrain blocks, soldiers do not).
    pub fn in_cover(&self, s: crate::state::SoldierId) -> bool {
        let side = self.soldier(s).side;
        self.ids().all(|e| {
            let y = self.soldier(e);
            !y.alive || y.side == side || self.card(e).shoot == 0 || !self.clear_line_seen(e, s)
        })
    }

    /// [`Serm::clear_line`], remembered for this thread: an AI asks about the same two
    /// places thousands of times in one decision (every die of a shot leaves the soldiers
    /// where they stand), and tracing a line through the terrain is most of an evaluation.
    /// A line depends only on the two places and the table, so the answers are kept while
    /// the thread asks about one scenario's table (its `Fixed`, held so it cannot be
    /// another's), at most [`SIGHT_CACHE`] of them.
    fn clear_line_seen(&self, a: crate::state::SoldierId, b: crate::state::SoldierId) -> bool {
        let key = (self.soldier(a).at, self.soldier(b).at);
        SIGHT.with(|c| {
            let mut c = c.borrow_mut();
            if !c.0.as_ref().is_some_and(|f| Arc::ptr_eq(f, &self.fixed))
                || c.1.len() >= SIGHT_CACHE
            {
                c.0 = Some(Arc::clone(&self.fixed));
                c.1.clear();
            }
            *c.1.entry(key).or_insert_with(|| self.clear_line(a, b))
        })
    }
}

/// The most lines one thread remembers ([`Serm::clear_line_seen`]); past it they are
/// forgotten and traced again.
pub const SIGHT_CACHE: usize = 1 << 16;

type SightCache = (
    Option<Arc<Fixed>>,
    HashMap<(Point, Point), bool, foldhash::fast::FixedState>,
);

thread_local! {
    static SIGHT: RefCell<SightCache> = RefCell::new((None, HashMap::default()));
}
