//! The state of a game: what is fixed by the setup ([`Fixed`], shared by every state of one
//! game) and what changes ([`Progress`], one plain struct that derives its equality, hash and
//! JSON). The rules that change it live in the modules named after the rules they enforce.

use crate::data::{Options, Power, Setup, UnitType};
use battlemat_core::{Seat, Seating};
use battlemat_geom::{Cell, CellSet, Grid, Topology};
use serde::{Deserialize, Serialize};
use std::hash::Hash;
use std::sync::Arc;

pub type UnitId = u8;

/// A name shared by every event that mentions it (no copy per event).
pub type Name = Arc<str>;

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// On the battlefield.
    Field(Cell),
    /// A flying unit lined up off the battlefield on its side (SWTB-F1).
    Line,
    /// Eliminated where it stood; a droid may revive it (SWTB-U2).
    Fallen(Cell),
    /// Eliminated for good.
    Gone,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unit {
    /// Index into the game's unit types.
    pub kind: u8,
    pub side: u8,
    /// The seat that commands it (one of its side's seats); none for a fixed gun, which
    /// whichever of its side's seats crews it fires (SWTB-O8).
    pub owner: Option<Seat>,
    pub place: Place,
    pub hits: u8,
    /// Has moved or attacked this turn (SWTB-2).
    pub acted: bool,
    /// Moved into contact with an enemy this turn, so may still attack (SWTB-2).
    pub may_attack: bool,
    /// Its force power, when force powers are in play (SWTB-O1..O4): set by the scenario
    /// or chosen by its side before the first round.
    pub power: Option<Power>,
    /// Its once-only force power is spent (SWTB-O2, SWTB-O3).
    pub power_used: bool,
    /// A flier that made a ground attack: back to its line when the opponent's next turn
    /// ends (SWTB-F1).
    pub back_to_line: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    /// A blaster at any range with a clear line (SWTB-4), a gun, or a ground vehicle.
    Shot,
    /// A light saber in contact (SWTB-5), or any attack after moving into contact.
    Melee,
    /// Flier against a flier off the battlefield (SWTB-F3).
    Dogfight,
    /// Flier against a flier on the battlefield (SWTB-F4).
    Intercept,
    /// Flier against a ground unit (SWTB-F5).
    GroundAttack,
}

/// An attack whose dice are being rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Combat {
    pub kind: AttackKind,
    pub attacker: UnitId,
    pub target: UnitId,
    pub att_dice: u8,
    pub def_dice: u8,
    /// Attack dice rolled so far, thermal detonator dice still owed, defence dice rolled.
    pub att_rolled: u8,
    pub extra_owed: u8,
    pub def_rolled: u8,
    /// Running totals (or best die, under `contest = highest`).
    pub att: u16,
    pub def: u16,
    pub thermal: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Each side rolls 1d6 per Force User (SWTB-1); `best` is each side's best die, or the
    /// sum of its dice under `initiative = sum`.
    Initiative {
        left: [u8; 2],
        best: [u8; 2],
    },
    /// Before the first round, a side chooses a Force User's power (SWTB-O1..O4).
    ChoosePower {
        unit: UnitId,
    },
    /// The winner chooses who acts first (SWTB-1).
    ChooseFirst {
        winner: u8,
    },
    /// The active side moves and attacks with its units.
    Turn,
    Combat(Combat),
    /// A force power's die (SWTB-O2, SWTB-O3).
    PowerDie {
        user: UnitId,
        target: UnitId,
        power: Power,
        need: u8,
    },
    /// A droid's revival die (SWTB-U2).
    ReviveDie {
        droid: UnitId,
        fallen: UnitId,
    },
    /// A morale roll (SWTB-O10): one die per remaining unit.
    Morale {
        side: u8,
        left: u8,
        ones: u8,
        sixes: u8,
    },
    Over {
        winner: Option<u8>,
        reason: String,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Open,
    Wall,
    Hill,
    Fortified,
}

/// What does not change during a game, derived once from the setup ([`crate::setup`]).
#[derive(Debug, PartialEq, Eq)]
pub struct Fixed {
    pub setup: Setup,
    pub seating: Seating,
    pub grid: Grid,
    /// The grid's neighbour and sight tables, shared by every game on a grid of its shape.
    pub topology: Arc<Topology>,
    /// The cells that are not walls (for the topology's set operations).
    pub open: CellSet,
    /// The cells whose terrain blocks sight: walls and hills (SWTB-4).
    pub terrain_blocking: CellSet,
    pub terrain: Vec<Terrain>,
    pub types: Vec<UnitType>,
    pub type_keys: Vec<String>,
    pub names: Vec<Name>,
    pub side_names: [Name; 2],
    /// Every unit as it starts the game.
    pub start: Vec<Unit>,
    /// Units (guns not counted) each side started with, for morale (SWTB-O10).
    pub start_count: [u8; 2],
}

/// Everything that changes during a game. Equality, hashing and JSON are derived: a field
/// added here is compared, hashed and saved without another line.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Progress {
    pub units: Vec<Unit>,
    pub round: u16,
    pub first: u8,
    /// The side whose turn it is.
    pub active: u8,
    /// The seat of the active side that is acting (a side's seats act one after another).
    pub seat: Seat,
    /// The second side of the round is acting.
    pub second_half: bool,
    pub phase: Phase,
    /// Sides owing a morale roll (bit per side).
    pub morale_due: u8,
    /// Sides that already rolled for being reduced by half.
    pub halved: [bool; 2],
}

/// A game of Star Wars Table Top Battles: the fixed part (shared) and the progress. Saved
/// as the setup (from which the fixed part is rebuilt and checked) and the progress,
/// checked against it ([`crate::setup::check_progress`]) — core's `saved_state!`; equal
/// and hashed by the progress — core's `state_identity!`.
#[derive(Clone, Debug)]
pub struct Swtb {
    pub fixed: Arc<Fixed>,
    pub now: Progress,
}

battlemat_core::state_identity!(Swtb);

battlemat_core::saved_state!(Swtb, Setup, Progress, |setup: &Setup, now: &Progress| {
    let fixed = crate::setup::check_setup(setup).map_err(|e| e.to_string())?;
    crate::setup::check_progress(&fixed, now)?;
    Ok::<Fixed, String>(fixed)
});

pub(crate) fn other(side: u8) -> u8 {
    1 - side
}

/// Lookups every rule uses.
impl Swtb {
    pub fn options(&self) -> &Options {
        &self.fixed.setup.options
    }
    pub fn ty(&self, u: UnitId) -> &UnitType {
        &self.fixed.types[self.now.units[u as usize].kind as usize]
    }
    pub fn name(&self, u: UnitId) -> &str {
        &self.fixed.names[u as usize]
    }
    pub(crate) fn name_of(&self, u: UnitId) -> Name {
        self.fixed.names[u as usize].clone()
    }
    pub fn side_name(&self, side: u8) -> &str {
        &self.fixed.side_names[side as usize]
    }
    pub(crate) fn side_name_of(&self, side: u8) -> Name {
        self.fixed.side_names[side as usize].clone()
    }
    pub(crate) fn unit(&self, u: UnitId) -> Option<&Unit> {
        self.now.units.get(u as usize)
    }
    pub(crate) fn ids(&self) -> impl Iterator<Item = UnitId> + use<> {
        0..self.now.units.len() as u8
    }
    pub fn cell_of(&self, u: UnitId) -> Option<Cell> {
        match self.now.units[u as usize].place {
            Place::Field(c) => Some(c),
            _ => None,
        }
    }
    /// In play: on the battlefield or lined up.
    pub fn alive(&self, u: UnitId) -> bool {
        matches!(
            self.now.units[u as usize].place,
            Place::Field(_) | Place::Line
        )
    }
    pub(crate) fn terrain(&self, c: Cell) -> Terrain {
        self.fixed.terrain[self.fixed.grid.index(c)]
    }
    /// The unit on `c`, if any (fliers on the battlefield included).
    pub fn unit_at(&self, c: Cell) -> Option<UnitId> {
        self.ids()
            .find(|&u| self.now.units[u as usize].place == Place::Field(c))
    }
    pub(crate) fn adjacent_units(&self, a: UnitId, b: UnitId) -> bool {
        matches!((self.cell_of(a), self.cell_of(b)), (Some(x), Some(y)) if self.fixed.grid.adjacent(x, y))
    }
    pub(crate) fn has_power(&self, u: UnitId, p: Power) -> bool {
        self.now.units[u as usize].power == Some(p)
    }
    pub fn points_left(&self, side: u8) -> i64 {
        self.ids()
            .filter(|&u| self.now.units[u as usize].side == side && self.alive(u))
            .map(|u| self.ty(u).cost as i64)
            .sum()
    }
}
