//! The initiative and activations, the end, resigning, who decides. The text: a soldier's
//! Shoot or Move is one activation; "In either case, the initiative passes to the opponent"
//! (SERM-SHOOT), after a Move too (SERM-MOVE), unless a React takes it (SERM-REACT).

use crate::events::Event;
use crate::state::{Phase, Serm, SoldierId};
use battlemat_core::Seat;
use battlemat_core::TwoSided;

/// The sixteen compass winds and their vectors: the open table's, shared with SD ERA.
pub use battlemat_geom::table::{WIND_VECTORS, WINDS};

impl Serm {
    /// The side with the initiative activates one of its soldiers.
    pub fn give_initiative(&mut self, side: u8, only: Option<Vec<SoldierId>>, ev: &mut Vec<Event>) {
        self.initiative_to(side, only, None, ev)
    }

    /// The initiative to `side`, saying the die that gave it, if one did.
    fn initiative_to(
        &mut self,
        side: u8,
        only: Option<Vec<SoldierId>>,
        die: Option<u8>,
        ev: &mut Vec<Event>,
    ) {
        self.check_end(ev);
        if self.now.outcome.is_some() {
            return;
        }
        if self.fixed.limit.is_some_and(|l| self.now.activations >= l) {
            let count = |s: u8| {
                self.now
                    .soldiers
                    .iter()
                    .filter(|x| x.alive && x.side == s)
                    .count()
            };
            let (a, b) = (count(0), count(1));
            let winner = match a.cmp(&b) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            };
            let n = self.now.activations;
            self.finish_at_limit(
                winner,
                format!(
                    "{n} activations with no winner: {a} soldiers against {b} (activation limit)"
                ),
                ev,
            );
            return;
        }
        ev.push(Event::Initiative {
            side: self.fixed.side_names[side as usize].clone(),
            die,
        });
        self.now.phase = Phase::Activate { side, only };
    }

    /// "odd: the first side" (ours: the text does not say who starts).
    pub fn roll_first(&mut self, face: u8, ev: &mut Vec<Event>) {
        let side = if face % 2 == 1 { 0 } else { 1 };
        self.initiative_to(side, None, Some(face), ev);
    }

    /// The initiative passes to the opponent of `side`.
    pub fn pass_initiative(&mut self, side: u8, ev: &mut Vec<Event>) {
        self.now.activations += 1;
        self.give_initiative(1 - side, None, ev);
    }

    /// The last side with soldiers wins (rulings.md).
    pub fn check_end(&mut self, ev: &mut Vec<Event>) {
        if self.now.outcome.is_some() {
            return;
        }
        let alive = |s: u8| self.now.soldiers.iter().any(|x| x.alive && x.side == s);
        match (alive(0), alive(1)) {
            (true, true) => {}
            (false, false) => self.finish(None, "both sides are wiped out".into(), ev),
            (a, _) => {
                let w = if a { 0 } else { 1 };
                self.finish(
                    Some(w),
                    format!(
                        "{} has no soldiers left",
                        self.fixed.side_names[1 - w as usize]
                    ),
                    ev,
                );
            }
        }
    }

    pub fn deciding_side(&self) -> Option<u8> {
        match &self.now.phase {
            Phase::Activate { side, .. } => Some(*side),
            Phase::Aim { mover, .. } => Some(self.soldier(*mover).side),
            Phase::ReactChoice { moving } => Some(1 - self.soldier(moving.mover).side),
            Phase::StopWhere { reactor, .. } => Some(self.soldier(*reactor).side),
            _ => None,
        }
    }

    pub fn deciding_seat(&self) -> Option<Seat> {
        self.deciding_side().map(|s| self.fixed.seating.captain(s))
    }
}
