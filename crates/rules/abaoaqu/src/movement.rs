//! ABQ-4-1 … ABQ-4-6 (movement) and ABQ-5-1 … ABQ-5-6 (stacking).
//!
//! A unit moves up to its movement points in hexes, one point a hex (4-2), in any direction:
//! the map has no terrain and the text no zones of control, so any hex within that distance
//! is a legal end, and a hex with enemies in it may be entered (4-6, 5-3). The stacking limit
//! does not apply while moving (5-5), so the order units move in changes nothing: the seat is
//! asked about its counters one at a time, in roster order (`move HEX`, `hold`, or `done`
//! for the rest), which keeps every list short — a few hundred counters never make a list of
//! a few hundred thousand moves. At the end of its side's movement phase a side over the
//! limit in a hex (4 MS units and 2 ships per side, 5-2) removes units of its choice (5-6).

use crate::data::{Class, Flag};
use crate::events::Event;
use crate::state::{AbaoAqu, Phase, Place, Stage, UnitId};
use battlemat_core::Seat;
use battlemat_geom::hexmap::HexId;

/// ABQ-5-2: four friendly MS units and two friendly ships to a hex.
pub const MS_PER_HEX: u8 = 4;
pub const SHIPS_PER_HEX: u8 = 2;

/// ABQ-5-2: how many of a side's ships (or MS units) a hex may hold.
pub fn stack_limit(ship: bool) -> u8 {
    if ship { SHIPS_PER_HEX } else { MS_PER_HEX }
}

/// Is there room for one more (a ship, or an MS unit) beside `count` (MS units, ships)?
pub fn has_room(count: (u8, u8), ship: bool) -> bool {
    (if ship { count.1 } else { count.0 }) < stack_limit(ship)
}

impl AbaoAqu {
    /// ABQ-5-2: per hex, `side`'s MS units and ships on it.
    pub fn stack_counts(&self, side: u8) -> Vec<(u8, u8)> {
        let mut c = vec![(0u8, 0u8); self.fixed.layout.map.len()];
        for x in &self.now.units {
            if x.side == side
                && let Place::Hex(h) = x.at
            {
                let e = &mut c[h as usize];
                if self.fixed.kinds[x.kind as usize].1.class == Class::Ship {
                    e.1 += 1;
                } else {
                    e.0 += 1;
                }
            }
        }
        c
    }

    /// Room for `u` in `h` beside its own side's units there (ABQ-5-2, 5-3).
    pub fn room_for(&self, u: UnitId, h: HexId) -> bool {
        let side = self.unit(u).side;
        let mut count = (0u8, 0u8);
        for v in self.in_hex(h) {
            if v != u && self.unit(v).side == side {
                if self.class(v) == Class::Ship {
                    count.1 += 1;
                } else {
                    count.0 += 1;
                }
            }
        }
        has_room(count, self.class(u) == Class::Ship)
    }

    /// May `u` move in this movement phase (ABQ-4-1, 4-4; confused and panicked units stay,
    /// rulings.md; ABQ-16-2: a satellite missile moves once)?
    pub fn can_move(&self, u: UnitId, seat: Seat) -> bool {
        let x = self.unit(u);
        if x.seat != seat || x.moved || !self.steady(u) || self.kind(u).movement == 0 {
            return false;
        }
        if self.has(u, Flag::Satellite) && x.used {
            return false;
        }
        match x.at {
            Place::Hex(_) => true,
            Place::ToEnter => self.force_may_enter(x.force),
            _ => false,
        }
    }

    /// Has this force's turn to enter come (ABQ-S*: "enter ... in the first turn", S3's fifth
    /// turn, S7's die)?
    pub fn force_may_enter(&self, force: u8) -> bool {
        let f = &self.fixed.forces[force as usize];
        match f.turn {
            Some(t) => self.now.turn >= t,
            None => self.now.reinforcements.is_some_and(|t| self.now.turn >= t),
        }
    }

    /// Every hex `u` may move to, in map order: within its movement of where it is, or, off
    /// the map, within its movement of its force's edge (the edge hex is the first hex moved
    /// into).
    pub fn destinations(&self, u: UnitId, out: &mut Vec<HexId>) {
        let x = self.unit(u);
        let mp = self.kind(u).movement;
        let lay = &self.fixed.layout;
        match x.at {
            Place::Hex(h) => {
                lay.map.within(h, mp as u32, out);
                out.retain(|&d| d != h);
            }
            Place::ToEnter => {
                if let Some(edge) = &self.fixed.forces[x.force as usize].enter {
                    for d in 0..lay.map.len() as HexId {
                        if lay.depth_from(edge, d) <= mp {
                            out.push(d);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// May `u` move to `to` now?
    pub fn reaches(&self, u: UnitId, to: HexId) -> bool {
        let x = self.unit(u);
        let mp = self.kind(u).movement;
        let lay = &self.fixed.layout;
        match x.at {
            Place::Hex(h) => h != to && lay.map.distance(h, to) <= mp as u32,
            Place::ToEnter => self.fixed.forces[x.force as usize]
                .enter
                .as_ref()
                .is_some_and(|e| lay.depth_from(e, to) <= mp),
            _ => false,
        }
    }

    /// Move (or enter) and mark it moved.
    pub fn do_move(&mut self, u: UnitId, to: HexId, ev: &mut Vec<Event>) {
        let entering = self.unit(u).at == Place::ToEnter;
        let satellite = self.has(u, Flag::Satellite);
        let hex = self.fixed.layout.map.col_row(to);
        let x = self.unit_mut(u);
        x.at = Place::Hex(to);
        x.moved = true;
        if satellite {
            x.used = true;
        }
        let to = crate::events::HexNo {
            col: hex.0,
            row: hex.1,
        };
        ev.push(if entering {
            Event::Entered { unit: u, to }
        } else {
            Event::Moved { unit: u, to }
        });
    }

    /// The movement phase: `seat`'s next counter that may move from `from` on, else the next
    /// seat of the side, else the stacking check.
    pub fn next_mover(&mut self, seat: Seat, from: UnitId) {
        if let Some(unit) = (from..self.now.units.len() as UnitId).find(|&u| self.can_move(u, seat))
        {
            self.now.phase = Phase::Move { seat, unit };
            return;
        }
        let side = self.lead();
        let seats = self.fixed_seat_order(side);
        match seats
            .iter()
            .position(|&s| s == seat)
            .and_then(|i| seats.get(i + 1))
        {
            Some(&next) => self.next_mover(next, 0),
            None => self.check_stacks(),
        }
    }

    /// ABQ-5-5, 5-6: after the side's movement, the first over-stacked hex (map order), if
    /// any, waits for the side to remove a unit; else the lead-off combat.
    pub fn check_stacks(&mut self) {
        let side = self.lead();
        let counts = self.stack_counts(side);
        if let Some(h) = counts
            .iter()
            .position(|&(m, s)| m > MS_PER_HEX || s > SHIPS_PER_HEX)
        {
            self.now.phase = Phase::Remove {
                side,
                hex: h as HexId,
            };
            return;
        }
        self.begin_combat(Stage::LeadCombat);
    }

    /// The units `side` may remove from an over-stacked `hex`: those of the class over the
    /// limit.
    pub fn removable(&self, side: u8, hex: HexId) -> Vec<UnitId> {
        let counts = {
            let mut c = (0u8, 0u8);
            for v in self.in_hex(hex) {
                if self.unit(v).side == side {
                    if self.class(v) == Class::Ship {
                        c.1 += 1
                    } else {
                        c.0 += 1
                    }
                }
            }
            c
        };
        self.in_hex(hex)
            .filter(|&v| {
                self.unit(v).side == side
                    && if self.class(v) == Class::Ship {
                        counts.1 > SHIPS_PER_HEX
                    } else {
                        counts.0 > MS_PER_HEX
                    }
            })
            .collect()
    }

    pub fn remove_unit(&mut self, u: UnitId, ev: &mut Vec<Event>) {
        let h = self.unit(u).hex();
        self.unit_mut(u).at = Place::Gone;
        if let Some(h) = h {
            let (col, row) = self.fixed.layout.map.col_row(h);
            ev.push(Event::Removed {
                unit: u,
                hex: crate::events::HexNo { col, row },
            });
        }
        self.check_destroyed(ev);
        if self.now.outcome.is_none() {
            self.check_stacks();
        }
    }
}
