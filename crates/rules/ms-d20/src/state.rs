//! The state: the fixed part (derived once from the setup, shared by `Arc`) and the
//! progress (everything that changes).

use crate::data::{Combatant, Roll, Setup, Terrain};
use battlemat_core::{Seat, Seating};
use battlemat_geom::{Cell, Grid};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A combatant's number (`u0`, `u1`, … in scenario order).
pub type UnitId = u8;

/// D20-6S: a stun — "until the end of the attackers next turn. If on the attackers next turn
/// the defender makes a successful save or the attacker misses or does not attack with the
/// stunning weapon, the defender is no longer stunned."
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stun {
    /// The attacker.
    pub by: UnitId,
    /// The stunning weapon (the attacker's weapon number).
    pub weapon: u8,
    /// The attacker's turn number (`turns_total`) whose end the stun lasts to: its next turn.
    pub until: u16,
}

impl Stun {
    /// Is the attacker, having taken `turns_total` turns, in its next turn (the one the stun
    /// lasts to)?
    pub fn in_next_turn(&self, turns_total: u16) -> bool {
        turns_total + 1 == self.until
    }
}

/// One combatant in play.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unit {
    /// Index into `Fixed::kinds`.
    pub kind: u16,
    pub side: u8,
    pub seat: Seat,
    pub at: Cell,
    pub terrain: Terrain,
    /// Durability left, section by section (0: destroyed).
    pub sections: Vec<u32>,
    /// Attacks per melee left.
    pub apm: u8,
    /// D20-2: fleeing this melee.
    pub flee: bool,
    /// Turns taken this melee (a fleeing combatant spends an APM every second one).
    pub turns: u8,
    /// Turns taken in the whole game (a stun lasts to the end of its attacker's next turn).
    pub turns_total: u16,
    /// D20-1: this melee's initiative roll, then each re-roll of a tie it was in; compared
    /// in order (lexicographically), so a re-roll only orders those it was tied with.
    pub initiative: Vec<i16>,
    /// D20-1: failed the save against Newtype Initiative this melee.
    pub ni_failed: bool,
    /// D20-6S: stunned, by whom and until when.
    pub stunned: Option<Stun>,
    /// D20-6O: knocked over; spends its next turn getting up.
    pub knocked: bool,
    /// D20-3D: sections that parried since this combatant's last turn (a bit each).
    pub parried: u32,
    /// Destroyed (its main section gone).
    pub out: bool,
}

/// What every state of one game shares.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Fixed {
    pub setup: Setup,
    pub seating: Seating,
    pub grid: Grid,
    pub kinds: Vec<(String, Combatant)>,
    /// Each kind's weapons' damage rolls (None: a hand attack).
    pub rolls: Vec<Vec<Option<Roll>>>,
    pub side_names: [String; 2],
    pub goal: Option<UnitId>,
    pub melee_limit: Option<u16>,
}

/// D20-3D: the defences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Defence {
    Take,
    Dodge,
    Leap,
    /// With this section (an arm).
    Parry(u8),
    Roll,
}

/// One attack in progress (D20-3).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Attack {
    pub attacker: UnitId,
    pub target: UnitId,
    pub weapon: u8,
    /// The section aimed at (the main body unless a called shot).
    pub aimed: u8,
    pub called: bool,
    pub insight: bool,
    /// The strike: the die and the total.
    pub natural: u8,
    pub total: i16,
    /// The section that takes the hit (the aimed one, or the parrying arm).
    pub onto: u8,
    pub rolled: bool,
    pub halved: bool,
    pub critical: bool,
    /// A beam going on past a destroyed section (D20-6B): its strike is not rolled again.
    pub continued: bool,
    /// Targets this beam has already passed through.
    pub passed: Vec<UnitId>,
    /// The attacker had moved this turn before attacking (it may still move after).
    pub moved: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// D20-1: this combatant's save against Newtype Initiative.
    NewtypeSave {
        unit: UnitId,
    },
    /// D20-1: initiative dice still to roll, in order (ties rolled again).
    Initiative {
        left: Vec<UnitId>,
    },
    /// D20-2: this combatant's seat says fight or flee.
    FightOrFlight {
        unit: UnitId,
    },
    /// D20-3: this combatant's turn.
    Turn {
        unit: UnitId,
        moved: bool,
        acted: bool,
    },
    /// D20-3 d): the strike die.
    Strike {
        attack: Attack,
    },
    /// D20-3D: the defender chooses, seeing the strike.
    Defend {
        attack: Attack,
    },
    /// The defence die.
    DefenceDie {
        attack: Attack,
        defence: Defence,
    },
    /// D20-3H a): hit, the defender may still roll with it.
    MayRoll {
        attack: Attack,
    },
    /// D20-6B, 6S: a save die.
    BeamSave {
        attack: Attack,
    },
    StunSave {
        attack: Attack,
    },
    /// D20-3H c): damage dice, one at a time.
    Damage {
        attack: Attack,
        left: u8,
        sum: u32,
        /// The damage dice rolled so far, for the words (D20-3H c).
        #[serde(default)]
        faces: Vec<u8>,
    },
    Over,
}

/// The result, once over (the one two-sided outcome of `battlemat_core`).
pub use battlemat_core::seating::Outcome;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Progress {
    pub units: Vec<Unit>,
    /// The melee round (from 1).
    pub melee: u16,
    /// This melee's order of turns (D20-1).
    pub order: Vec<UnitId>,
    /// Whose turn in `order`.
    pub cursor: u8,
    pub phase: Phase,
    pub outcome: Option<Outcome>,
}

#[derive(Clone, Debug)]
pub struct MsD20 {
    pub fixed: Arc<Fixed>,
    pub now: Progress,
}

battlemat_core::state_identity!(MsD20);

impl MsD20 {
    pub fn unit(&self, u: UnitId) -> &Unit {
        &self.now.units[u as usize]
    }
    pub fn unit_mut(&mut self, u: UnitId) -> &mut Unit {
        &mut self.now.units[u as usize]
    }
    pub fn ids(&self) -> impl Iterator<Item = UnitId> + use<> {
        0..self.now.units.len() as UnitId
    }
    pub fn data(&self, u: UnitId) -> &Combatant {
        &self.fixed.kinds[self.unit(u).kind as usize].1
    }
    pub fn name(&self, u: UnitId) -> String {
        format!("{} u{u}", self.data(u).name)
    }
    pub fn side_name(&self, s: u8) -> &str {
        &self.fixed.side_names[s as usize]
    }
    pub fn in_play(&self, u: UnitId) -> bool {
        !self.unit(u).out
    }
    pub fn section_ok(&self, u: UnitId, s: u8) -> bool {
        self.unit(u)
            .sections
            .get(s as usize)
            .is_some_and(|&d| d > 0)
    }
    /// A weapon is usable while the section it is mounted on stands.
    pub fn weapon_ok(&self, u: UnitId, w: u8) -> bool {
        let d = self.data(u);
        d.weapons.get(w as usize).is_some_and(|wp| {
            d.sections
                .iter()
                .position(|s| s.name == wp.on)
                .is_some_and(|s| self.section_ok(u, s as u8))
        })
    }
    /// The main section (the first flagged `main`).
    pub fn main_section(&self, u: UnitId) -> u8 {
        self.data(u)
            .sections
            .iter()
            .position(|s| s.has(crate::data::SectionFlag::Main))
            .unwrap_or(0) as u8
    }
    pub fn has_power(&self, u: UnitId, p: &str) -> bool {
        self.data(u).pilot.powers.iter().any(|x| x == p)
    }
    pub fn occupied(&self, c: Cell) -> Option<UnitId> {
        self.ids()
            .find(|&u| self.in_play(u) && self.unit(u).at == c)
    }
}
