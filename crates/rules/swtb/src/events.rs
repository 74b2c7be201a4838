//! What a seat may do ([`Action`]) and everything that happens ([`Event`]): plain data with a
//! stable JSON form (`docs/json.md`). Names in events are shared, not copied
//! ([`Name`]); their sentences are in [`crate::text`].

use crate::data::Power;
use crate::state::{AttackKind, Name, UnitId};
use battlemat_geom::Cell;
use serde::{Deserialize, Serialize};

/// A move's destination: a cell, or (for fliers) back to the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dest {
    Cell(Cell),
    Line,
}

/// What a seat may do.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// The initiative winner names the side that acts first (SWTB-1).
    First {
        side: u8,
    },
    /// Choose a Force User's power before the first round (SWTB-O1..O4).
    ChoosePower {
        unit: UnitId,
        power: Power,
    },
    Move {
        unit: UnitId,
        to: Dest,
    },
    /// `land` is where a flier ends up beside its ground target (SWTB-F1, SWTB-F5); other
    /// attacks leave it out.
    Attack {
        unit: UnitId,
        target: UnitId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        land: Option<Cell>,
    },
    /// A fixed gun fires, crewed by an adjacent trooper (SWTB-O8).
    Fire {
        gun: UnitId,
        target: UnitId,
        crew: UnitId,
    },
    Choke {
        unit: UnitId,
        target: UnitId,
    },
    MindTrick {
        unit: UnitId,
        target: UnitId,
    },
    Revive {
        unit: UnitId,
        fallen: UnitId,
    },
    EndTurn,
}

/// Everything that happens, for narration and animation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    PowerChosen {
        unit: UnitId,
        name: Name,
        power: Power,
    },
    RoundStarted {
        round: u16,
    },
    InitiativeDie {
        side: Name,
        face: u8,
    },
    InitiativeTied,
    InitiativeWon {
        side: Name,
    },
    ActsFirst {
        side: Name,
    },
    TurnStarted {
        side: Name,
    },
    Moved {
        unit: UnitId,
        name: Name,
        to: Dest,
    },
    ReturnedToLine {
        unit: UnitId,
        name: Name,
    },
    Attack {
        unit: UnitId,
        name: Name,
        target: UnitId,
        target_name: Name,
        kind: AttackKind,
        attack_dice: u8,
        defence_dice: u8,
    },
    Die {
        roller: Roller,
        face: u8,
    },
    Compared {
        attack: u16,
        defence: u16,
        result: std::borrow::Cow<'static, str>,
    },
    Hit {
        unit: UnitId,
        name: Name,
        hits: u8,
        toughness: u8,
    },
    Eliminated {
        unit: UnitId,
        name: Name,
    },
    Power {
        unit: UnitId,
        name: Name,
        power: Power,
        target: UnitId,
        target_name: Name,
    },
    PowerFailed {
        name: Name,
    },
    Defected {
        unit: UnitId,
        name: Name,
        side: Name,
    },
    Revived {
        unit: UnitId,
        name: Name,
    },
    ReviveFailed {
        name: Name,
    },
    Morale {
        side: Name,
        ones: u8,
        sixes: u8,
        surrendered: bool,
    },
    /// A seat resigned: its side concedes.
    Resigned {
        seat: u8,
        side: Name,
    },
    GameOver {
        reason: String,
    },
}

/// Who rolls a die and for what: written `Han (attack)`, in events and their JSON. Held
/// as a shared name and a word, so rolling a die formats nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Roller {
    pub who: Name,
    pub why: DieFor,
}

/// What a die is rolled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DieFor {
    Attack,
    ThermalDetonator,
    Defence,
    Power(Power),
    Revive,
    Morale,
}

impl DieFor {
    const ALL: [DieFor; 9] = [
        DieFor::Attack,
        DieFor::ThermalDetonator,
        DieFor::Defence,
        DieFor::Power(Power::LightSaberThrow),
        DieFor::Power(Power::ForceChoke),
        DieFor::Power(Power::MindTrick),
        DieFor::Power(Power::DeflectBlasters),
        DieFor::Revive,
        DieFor::Morale,
    ];

    fn word(self) -> &'static str {
        match self {
            DieFor::Attack => "attack",
            DieFor::ThermalDetonator => "thermal detonator",
            DieFor::Defence => "defence",
            DieFor::Power(Power::LightSaberThrow) => "LightSaberThrow",
            DieFor::Power(Power::ForceChoke) => "ForceChoke",
            DieFor::Power(Power::MindTrick) => "MindTrick",
            DieFor::Power(Power::DeflectBlasters) => "DeflectBlasters",
            DieFor::Revive => "revive",
            DieFor::Morale => "morale",
        }
    }
}

impl std::fmt::Display for Roller {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.who, self.why.word())
    }
}

impl From<Roller> for String {
    fn from(r: Roller) -> String {
        r.to_string()
    }
}

impl TryFrom<String> for Roller {
    type Error = String;
    fn try_from(s: String) -> Result<Roller, String> {
        let bad = || format!("expected a roller like \"Han (attack)\", found {s:?}");
        let (who, rest) = s.rsplit_once(" (").ok_or_else(bad)?;
        let word = rest.strip_suffix(')').ok_or_else(bad)?;
        let why = DieFor::ALL
            .into_iter()
            .find(|d| d.word() == word)
            .ok_or_else(bad)?;
        Ok(Roller {
            who: who.into(),
            why,
        })
    }
}
