//! Morale (SWTB-O10, with the `morale` option) and the end of a side: after anything
//! resolves, a side with no units left loses, and a side that lost a Force User or half its
//! army rolls for morale.
//!
//! Rule ids owned here: SWTB-O10 (roll 1d6 for every figure or vehicle remaining; more ones
//! than sixes and the force surrenders).

use crate::data::Class;
use crate::events::{DieFor, Event, Roller};
use crate::state::{Phase, Swtb, UnitId, other};

impl Swtb {
    /// Units in play that count for the army (fixed guns are neither figures nor vehicles).
    pub(crate) fn army_count(&self, side: u8) -> u8 {
        self.ids()
            .filter(|&u| {
                self.now.units[u as usize].side == side
                    && self.alive(u)
                    && self.ty(u).class != Class::Gun
            })
            .count() as u8
    }

    /// SWTB-O10: losing a Force User, or being reduced to half, calls for a morale roll.
    pub(crate) fn note_loss(&mut self, u: UnitId, side: u8) {
        if !self.options().morale {
            return;
        }
        if self.ty(u).force_user {
            self.now.morale_due |= 1 << side;
        }
        let s = side as usize;
        if !self.now.halved[s]
            && 2 * u16::from(self.army_count(side)) <= u16::from(self.fixed.start_count[s])
        {
            self.now.halved[s] = true;
            self.now.morale_due |= 1 << side;
        }
    }

    /// After anything resolves: has a side been wiped out, does a side owe a morale roll?
    pub(crate) fn after_resolution(&mut self, ev: &mut Vec<Event>) {
        if matches!(self.now.phase, Phase::Over { .. }) {
            return;
        }
        let (a, b) = (self.army_count(0), self.army_count(1));
        if a == 0 || b == 0 {
            let (w, reason) = match (a, b) {
                (0, 0) => (None, "both sides eliminated".to_string()),
                (0, _) => (Some(1), format!("{} eliminated", self.side_name(0))),
                _ => (Some(0), format!("{} eliminated", self.side_name(1))),
            };
            self.game_over(w, reason, ev);
            return;
        }
        for side in 0..2u8 {
            if self.now.morale_due & (1 << side) != 0 {
                self.now.morale_due &= !(1 << side);
                // "roll 1d6 for every figure/vehicle remaining": fixed guns are neither.
                let left = self.army_count(side);
                self.now.phase = Phase::Morale {
                    side,
                    left,
                    ones: 0,
                    sixes: 0,
                };
                return;
            }
        }
        self.now.phase = Phase::Turn;
    }

    pub(crate) fn roll_morale(
        &mut self,
        side: u8,
        left: u8,
        ones: u8,
        sixes: u8,
        f: u8,
        ev: &mut Vec<Event>,
    ) {
        let left = left - 1;
        let ones = ones + u8::from(f == 1);
        let sixes = sixes + u8::from(f == 6);
        ev.push(Event::Die {
            roller: Roller {
                who: self.side_name_of(side),
                why: DieFor::Morale,
            },
            face: f,
        });
        if left > 0 {
            self.now.phase = Phase::Morale {
                side,
                left,
                ones,
                sixes,
            };
            return;
        }
        // SWTB-O10: more ones than sixes and the force surrenders.
        let surrendered = ones > sixes;
        ev.push(Event::Morale {
            side: self.side_name_of(side),
            ones,
            sixes,
            surrendered,
        });
        if surrendered {
            let reason = format!("{} surrendered", self.side_name(side));
            self.game_over(Some(other(side)), reason, ev);
        } else {
            self.after_resolution(ev);
        }
    }
}
