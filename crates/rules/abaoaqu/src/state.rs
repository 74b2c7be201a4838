//! The state: the fixed part of a game (derived once from the setup, shared by `Arc`) and its
//! progress (everything that changes: one struct deriving `Eq`, `Hash` and serde).

use crate::data::{Class, Edge, Flag, Kind, Pilot, Setup, Weapon};
use crate::map::Layout;
use battlemat_core::{Seat, Seating};
use battlemat_geom::hexmap::HexId;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A counter's number in the game (`u0`, `u1`, … in roster order, Federation first).
pub type UnitId = u16;

pub const FEDERATION: u8 = 0;
pub const ZEON: u8 = 1;

/// ABQ-2-C, ABQ-10: a unit's morale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Morale {
    #[default]
    Normal,
    /// C: confused.
    Confused,
    /// D: panic.
    Panic,
}

/// Where a counter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// Not yet set up (a force deployed before play).
    ToDeploy,
    /// Off the map until its force's turn, then entering from its edge.
    ToEnter,
    /// On the map.
    Hex(HexId),
    /// Destroyed, removed for over-stacking, or a spent satellite missile.
    Gone,
}

/// One counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unit {
    /// Index into `Fixed::kinds`.
    pub kind: u16,
    pub pilot: Pilot,
    pub side: u8,
    pub seat: Seat,
    /// Index into `Fixed::forces`.
    pub force: u8,
    pub at: Place,
    pub morale: Morale,
    /// ABQ-15-3: showing its back.
    pub flipped: bool,
    /// Moved (or held) in this movement phase.
    pub moved: bool,
    /// Shot in this combat phase.
    pub fired: bool,
    /// Made a close attack in this combat phase.
    pub closed: bool,
    /// ABQ-16-2: a satellite missile that has made its one move.
    pub used: bool,
}

impl Unit {
    pub fn hex(&self) -> Option<HexId> {
        match self.at {
            Place::Hex(h) => Some(h),
            _ => None,
        }
    }

    pub fn alive(&self) -> bool {
        self.at != Place::Gone
    }
}

/// A force as the game uses it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ForceInfo {
    pub side: u8,
    pub name: String,
    pub enter: Option<Edge>,
    /// The turn it may enter (None: set by a die, ABQ-S7).
    pub turn: Option<u16>,
    /// Set-up rows (from, to), or None for a force that enters.
    pub rows: Option<(u8, u8)>,
}

/// What every state of one game shares.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Fixed {
    pub setup: Setup,
    pub seating: Seating,
    pub layout: Layout,
    pub kinds: Vec<(String, Kind)>,
    pub forces: Vec<ForceInfo>,
    pub side_names: [String; 2],
    /// Units on the fortress a side must keep for three turns (ABQ-S*).
    pub hold: [Option<u16>; 2],
    pub wins_at_limit: [bool; 2],
    pub turn_limit: Option<u16>,
}

/// One attack, declared (ABQ-6 … ABQ-9), with everything its die needs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Attack {
    pub attackers: Vec<UnitId>,
    pub targets: Vec<UnitId>,
    pub close: bool,
    /// The column after rounding and rank shifts (0 = 1:3 … 8 = 7:1), or None: worse than
    /// 1:3, no effect.
    pub column: Option<u8>,
}

/// The declaration of one attack, step by step (ABQ-8-1, ABQ-8-2).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Declaring {
    /// Choosing the hex to attack from, a screen to launch, or done.
    Idle,
    /// Attackers chosen so far from `from`.
    Picking { from: HexId, with: Vec<UnitId> },
    /// The target hex chosen: now the unit or group, shooting or close.
    Aiming {
        from: HexId,
        with: Vec<UnitId>,
        target: HexId,
    },
    /// Ready: `fire` or `cancel`.
    Ready { attack: Attack },
    /// ABQ-18-3: a BD Public chosen; now its target hex.
    Launching { unit: UnitId },
}

/// Where the game is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// ABQ-S6: a die for the lead-off side (odd: the Federation).
    LeadOffDie,
    /// Setting up: the next counter to place.
    Deploy {
        unit: UnitId,
    },
    /// ABQ-10-3: a recovery die for this unit.
    Recovery {
        unit: UnitId,
    },
    /// ABQ-4: `seat` moves its counters one at a time; `unit` is asked next.
    Move {
        seat: Seat,
        unit: UnitId,
    },
    /// ABQ-5-6: `side` is over the stacking limit in `hex` and removes a unit.
    Remove {
        side: u8,
        hex: HexId,
    },
    /// ABQ-6: `seat` declares attacks.
    Combat {
        seat: Seat,
        declaring: Declaring,
    },
    /// A follow-up attack's die, applied at once (ABQ-3-3 (4)); a satellite missile's
    /// strike is one attack on each unit in its hex, each with its own die.
    Resolve {
        attacks: Vec<Attack>,
        seat: Seat,
    },
    /// ABQ-3-3 (5): the lead-off attacks' dice, in the order they were declared.
    DamageCheck,
    /// ABQ-18-3: the BD missile's die (1-4 hits).
    Screen {
        unit: UnitId,
        hex: HexId,
        seat: Seat,
    },
    /// ABQ-S7: the reinforcements' die, after the first turn.
    ReinforcementDie,
    Over,
}

/// Which of the five phases of a half-turn (ABQ-3-3) the game is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Recovery,
    Movement,
    LeadCombat,
    FollowCombat,
    DamageCheck,
}

impl Stage {
    /// The phase in the text's words (ABQ-3-3).
    pub fn words(self) -> &'static str {
        match self {
            Stage::Recovery => "recovery",
            Stage::Movement => "lead-off movement",
            Stage::LeadCombat => "lead-off combat",
            Stage::FollowCombat => "follow-up combat",
            Stage::DamageCheck => "follow-up damage check",
        }
    }
}

/// ABQ-18-4: a beam-disruption screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Screen {
    pub hex: HexId,
    /// The turn it was placed; removed at the start of turn `placed + 5` (ABQ-18-6).
    pub placed: u16,
    /// Placed in a lead-off combat under `lead_off_screen=after_battle`: it works from the
    /// end of that half's damage check (ABQ-3-3: "a single battle").
    #[serde(default)]
    pub after_battle: bool,
}

/// The result, once over (the one two-sided outcome of `battlemat_core`).
pub use battlemat_core::seating::Outcome;

/// Everything that changes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Progress {
    pub units: Vec<Unit>,
    pub turn: u16,
    /// 0: the first half of the turn, 1: the second (the sides swapped, ABQ-3-3).
    pub half: u8,
    /// The side that leads off the turn.
    pub first: u8,
    pub stage: Stage,
    pub phase: Phase,
    /// The lead-off side's attacks, rolled in the damage check.
    pub pending: Vec<Attack>,
    pub screens: Vec<Screen>,
    /// Turn ends in a row each side has held the fortress with enough units.
    pub held: [u8; 2],
    /// `hold_count=whole_turns`: the side was short of the fortress's number as this turn
    /// began or at the end of its first half, so the turn does not count.
    #[serde(default)]
    pub short: [bool; 2],
    /// ABQ-S7: the turn the reinforcements arrive, once rolled.
    pub reinforcements: Option<u16>,
    /// Attacks the deciding seat has cancelled in this combat phase (see
    /// `combat::MAX_CANCELS`).
    pub cancels: u8,
    pub outcome: Option<Outcome>,
}

/// A game of Battle for A-Bao-A-Qu.
#[derive(Clone, Debug)]
pub struct AbaoAqu {
    pub fixed: Arc<Fixed>,
    pub now: Progress,
}

battlemat_core::state_identity!(AbaoAqu);

impl AbaoAqu {
    pub fn unit(&self, u: UnitId) -> &Unit {
        &self.now.units[u as usize]
    }

    pub fn unit_mut(&mut self, u: UnitId) -> &mut Unit {
        &mut self.now.units[u as usize]
    }

    pub fn ids(&self) -> impl Iterator<Item = UnitId> + use<> {
        0..self.now.units.len() as UnitId
    }

    pub fn kind(&self, u: UnitId) -> &Kind {
        &self.fixed.kinds[self.unit(u).kind as usize].1
    }

    pub fn code(&self, u: UnitId) -> &str {
        &self.fixed.kinds[self.unit(u).kind as usize].0
    }

    pub fn class(&self, u: UnitId) -> Class {
        self.kind(u).class
    }

    pub fn has(&self, u: UnitId, f: Flag) -> bool {
        self.kind(u).has(f)
    }

    /// Attacked as a ship (ships, and ABQ-17-2's Bigzam).
    pub fn target_is_ship(&self, u: UnitId) -> bool {
        self.class(u) == Class::Ship || self.has(u, Flag::TargetAsShip)
    }

    /// The values showing (ABQ-15-3: the back once flipped).
    pub fn anti_ms(&self, u: UnitId) -> u8 {
        let k = self.kind(u);
        match (&k.back, self.unit(u).flipped) {
            (Some(b), true) => b.anti_ms.unwrap_or(k.anti_ms),
            _ => k.anti_ms,
        }
    }

    pub fn anti_ship(&self, u: UnitId) -> u8 {
        let k = self.kind(u);
        match (&k.back, self.unit(u).flipped) {
            (Some(b), true) => b.anti_ship.unwrap_or(k.anti_ship),
            _ => k.anti_ship,
        }
    }

    pub fn defence(&self, u: UnitId) -> u8 {
        let k = self.kind(u);
        match (&k.back, self.unit(u).flipped) {
            (Some(b), true) => b.defence.unwrap_or(k.defence),
            _ => k.defence,
        }
    }

    pub fn weapon(&self, u: UnitId) -> Weapon {
        let k = self.kind(u);
        match (&k.back, self.unit(u).flipped) {
            (Some(b), true) => b.weapon.unwrap_or(k.weapon),
            _ => k.weapon,
        }
    }

    /// A double-sided counter still on its front (it flips after firing, ABQ-15-3).
    pub fn on_front(&self, u: UnitId) -> bool {
        self.kind(u).back.is_some() && !self.unit(u).flipped
    }

    pub fn name(&self, u: UnitId) -> String {
        let x = self.unit(u);
        let p = if x.pilot == Pilot::Regular {
            String::new()
        } else {
            format!("({})", x.pilot.label())
        };
        format!("{}{} u{}", self.code(u), p, u)
    }

    pub fn side_name(&self, side: u8) -> &str {
        &self.fixed.side_names[side as usize]
    }

    pub fn hex_name(&self, h: HexId) -> String {
        self.fixed.layout.map.name(h)
    }

    /// The units in a hex, in roster order.
    pub fn in_hex(&self, h: HexId) -> impl Iterator<Item = UnitId> + '_ {
        self.ids()
            .filter(move |&u| self.unit(u).at == Place::Hex(h))
    }

    /// The side whose half-turn it is: it moves, and leads off the combat.
    pub fn lead(&self) -> u8 {
        self.now.first ^ self.now.half
    }

    /// Is the unit in good order (ABQ-10-2: confused and panicked units neither move nor
    /// attack until they recover; rulings.md)?
    pub fn steady(&self, u: UnitId) -> bool {
        self.unit(u).morale == Morale::Normal
    }

    pub fn fixed_seat_order(&self, side: u8) -> Vec<Seat> {
        self.fixed.seating.seats_of(side).collect()
    }
}
