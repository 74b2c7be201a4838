//! ABQ-11-1 … ABQ-14-3: Newtype, Elite and Student pilots, and how they move the combat
//! ratio.
//!
//! One rule fits every example of the text and the 14-3 table (rulings.md): the ratio moves
//! rank(attackers) − rank(defenders) columns toward the attacker, where a Newtype of level
//! k has rank k, an Elite 1, a regular 0 and a Student −1, and a stack's rank is its best
//! Newtype or Elite rank, less 1 if it holds any Student (N3+E = 3, N2+S = 1, E+S = 0,
//! S+S = −1). 11-2 leaves it "up to the player" whether a Newtype raises or lowers the
//! ratio: each side uses its rank in its own favour, which this formula always does, so it
//! is not asked; where that can hurt its own side (a group target holding the firing side's
//! own counters) the `group_ranks` option lets the firing side leave them unused (combat). 11-3: White Base's N2 counts only in defence (a counter flag).

use crate::data::{Flag, Pilot};
use crate::state::{AbaoAqu, UnitId};

/// A pilot's own rank.
pub fn pilot_rank(p: Pilot) -> i32 {
    match p {
        Pilot::N1 | Pilot::E => 1,
        Pilot::N2 => 2,
        Pilot::N3 => 3,
        Pilot::Regular => 0,
        Pilot::S => -1,
    }
}

/// A group's rank (ABQ-14-1, 14-3) from its pilots.
pub fn group_rank(pilots: impl IntoIterator<Item = Pilot>) -> i32 {
    let mut best = 0;
    let mut student = false;
    for p in pilots {
        match p {
            Pilot::S => student = true,
            p => best = best.max(pilot_rank(p)),
        }
    }
    best - i32::from(student)
}

impl AbaoAqu {
    /// The rank of `units` attacking (`attacking`) or defending.
    pub fn rank_of(&self, units: &[UnitId], attacking: bool) -> i32 {
        group_rank(units.iter().map(|&u| {
            if attacking && self.has(u, Flag::RankInDefenceOnly) {
                Pilot::Regular
            } else {
                self.unit(u).pilot
            }
        }))
    }
}
