//! ABQ-10-1 … ABQ-10-4: morale recovery, and what a result does to a unit's morale
//! (ABQ-2-C: the C and D markers; rulings.md: a C result on a confused unit makes it
//! panic, any result on a panicked unit destroys it).

use crate::data::Hit;
use crate::events::Event;
use crate::state::{AbaoAqu, Morale, Place, UnitId};

/// ABQ-10-3: "A number less than 5 is required for recovery from confused state and a
/// number less than 4 is required for recovery from a panicked state."
pub fn recovers(m: Morale, face: u8) -> bool {
    face < recovery_under(m)
}

/// The number the recovery die must be under (ABQ-10-3): 5 confused, 4 panicked.
pub fn recovery_under(m: Morale) -> u8 {
    match m {
        Morale::Confused => 5,
        Morale::Panic => 4,
        Morale::Normal => 7,
    }
}

/// A result on a unit in morale `m`: its new morale, or None if destroyed.
pub fn after_hit(m: Morale, hit: Hit) -> Option<Morale> {
    match (hit, m) {
        (Hit::None, m) => Some(m),
        (Hit::Destroyed, _) | (_, Morale::Panic) => None,
        (Hit::Confused, Morale::Normal) => Some(Morale::Confused),
        (Hit::Confused, Morale::Confused) | (Hit::Panic, _) => Some(Morale::Panic),
    }
}

/// ABQ-7-6, ABQ-9-6: the die is raised by 1 against a confused unit, 2 against a panicked one.
pub fn die_modifier(m: Morale) -> u8 {
    match m {
        Morale::Normal => 0,
        Morale::Confused => 1,
        Morale::Panic => 2,
    }
}

/// How a result was read: the die, what the target's morale added, the column, the table.
#[derive(Clone, Copy, Debug)]
pub struct Roll {
    pub die: u8,
    pub modifier: u8,
    pub column: u8,
    pub close: bool,
}

impl AbaoAqu {
    /// The next unit of either side (roster order, from `from`) that is confused or
    /// panicked rolls; when none is left, the movement phase.
    pub fn next_recovery(&mut self, from: UnitId) {
        match (from..self.now.units.len() as UnitId).find(|&u| {
            let x = self.unit(u);
            x.morale != Morale::Normal && matches!(x.at, Place::Hex(_))
        }) {
            Some(unit) => self.now.phase = crate::state::Phase::Recovery { unit },
            None => self.begin_movement(),
        }
    }

    /// ABQ-10-2, 10-4: a success restores the unit; a failure changes nothing.
    pub fn roll_recovery(&mut self, unit: UnitId, face: u8, ev: &mut Vec<Event>) {
        let m = self.unit(unit).morale;
        let under = recovery_under(m);
        if recovers(m, face) {
            self.unit_mut(unit).morale = Morale::Normal;
            ev.push(Event::Recovered {
                unit,
                die: face,
                under,
            });
        } else {
            ev.push(Event::StillShaken {
                unit,
                die: face,
                under,
            });
        }
        self.next_recovery(unit + 1);
    }

    /// Apply one result to a unit.
    /// `roll`: the die, its modifier, the column and the table, for the event's words.
    pub fn apply_hit(&mut self, unit: UnitId, hit: Hit, roll: Roll, ev: &mut Vec<Event>) {
        let now = after_hit(self.unit(unit).morale, hit);
        match now {
            Some(m) => self.unit_mut(unit).morale = m,
            None => self.unit_mut(unit).at = Place::Gone,
        }
        ev.push(Event::Result {
            unit,
            hit,
            now,
            die: roll.die,
            modifier: roll.modifier,
            column: crate::combat::COLUMNS[roll.column as usize].to_string(),
            close: roll.close,
        });
    }
}
