//! A heuristic value for AIs that stop before the end: the share of each side's durability
//! left, combatants out counting double.

use crate::state::MsD20;
use battlemat_core::{Game, Seat, result_value};

impl MsD20 {
    pub fn evaluation(&self, seat: Seat) -> f64 {
        if let Some(r) = self.result() {
            return result_value(&r, seat);
        }
        let mine = self.fixed.seating.side_of(seat);
        let mut share = [0.0f64; 2];
        for u in self.ids() {
            let x = self.unit(u);
            let d = self.data(u);
            let full: u32 = d.sections.iter().map(|s| s.durability).sum::<u32>().max(1);
            let left: u32 = if x.out { 0 } else { x.sections.iter().sum() };
            share[x.side as usize] += left as f64 / full as f64 + if x.out { 0.0 } else { 1.0 };
        }
        let (a, b) = (share[mine as usize], share[1 - mine as usize]);
        ((a - b) / (a + b).max(1.0)).clamp(-0.95, 0.95)
    }
}
