//! A heuristic value for AIs: soldiers left, weighted by their dice.

use crate::state::Serm;
use battlemat_core::{Game, Seat, result_value};

impl Serm {
    pub fn evaluation(&self, seat: Seat) -> f64 {
        if let Some(r) = self.result() {
            return result_value(&r, seat);
        }
        let mine = self.fixed.seating.side_of(seat);
        let mut v = [0.0f64; 2];
        for s in self.ids() {
            let x = self.soldier(s);
            if x.alive {
                let c = self.card(s);
                v[x.side as usize] +=
                    1.0 + (c.shoot + c.endure + c.react + c.movement) as f64 / 10.0;
            }
        }
        let (a, b) = (v[mine as usize], v[1 - mine as usize]);
        ((a - b) / (a + b).max(1.0)).clamp(-0.95, 0.95)
    }
}
