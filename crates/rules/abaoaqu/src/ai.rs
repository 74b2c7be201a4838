//! A heuristic value of a position for the AIs that stop searching before the end: the
//! counters each side has left, weighted by their values and morale, and the fortress
//! held.

use crate::state::{AbaoAqu, Morale, Place};
use battlemat_core::{Game, Seat, result_value};

impl AbaoAqu {
    pub fn evaluation(&self, seat: Seat) -> f64 {
        if let Some(r) = self.result() {
            return result_value(&r, seat);
        }
        let mine = self.fixed.seating.side_of(seat);
        let mut strength = [0.0f64; 2];
        for (u, x) in self.now.units.iter().enumerate() {
            if !x.alive() {
                continue;
            }
            let u = u as u16;
            let v =
                (self.anti_ms(u) as f64 + self.anti_ship(u) as f64) / 2.0 + self.defence(u) as f64;
            let m = match x.morale {
                Morale::Normal => 1.0,
                Morale::Confused => 0.7,
                Morale::Panic => 0.4,
            };
            let on = matches!(x.at, Place::Hex(h) if self.fixed.layout.on_fortress(h));
            let holder = self.fixed.hold[x.side as usize].is_some();
            strength[x.side as usize] += v * m * if on && holder { 1.5 } else { 1.0 };
        }
        let (a, b) = (strength[mine as usize], strength[1 - mine as usize]);
        let held = self.now.held[mine as usize] as f64 - self.now.held[1 - mine as usize] as f64;
        (((a - b) / (a + b).max(1.0)) * 0.8 + held * 0.06).clamp(-0.95, 0.95)
    }
}
