//! Actions and events: the stable JSON and the words players type.
//!
//! A hex in an action or event is its printed number (`"0712"`), so an action means the same
//! on any map and reads as the map prints it.

use crate::data::Hit;
use crate::state::{Morale, UnitId};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A hex by its printed number: column and row from 1, written `CCRR`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct HexNo {
    pub col: u8,
    pub row: u8,
}

impl fmt::Display for HexNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}", self.col, self.row)
    }
}

impl From<HexNo> for String {
    fn from(h: HexNo) -> String {
        h.to_string()
    }
}

impl TryFrom<String> for HexNo {
    type Error = String;
    fn try_from(s: String) -> Result<HexNo, String> {
        s.parse()
    }
}

impl FromStr for HexNo {
    type Err = String;
    fn from_str(s: &str) -> Result<HexNo, String> {
        let (col, row) = battlemat_geom::hexmap::parse_number(s)?;
        Ok(HexNo { col, row })
    }
}

/// Which units of a hex a group attack takes (ABQ-8-2): the MS units (anti-MS values) or
/// the ships (anti-ship values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    Ms,
    Ships,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Set up the counter being placed on this hex.
    Place { hex: HexNo },
    /// ABQ-4-2: move the counter being asked about to this hex.
    Move { to: HexNo },
    /// It stays where it is (or off the map).
    Hold,
    /// End this part of the phase (the rest of your counters hold; no more attacks).
    Done,
    /// ABQ-5-6: remove this counter from an over-stacked hex.
    Remove { unit: UnitId },
    /// Attack from this hex.
    From { hex: HexNo },
    /// Add this counter to the attack.
    With { unit: UnitId },
    /// Attack this hex.
    Target { hex: HexNo },
    /// Shoot at one unit (ABQ-7).
    Shoot { unit: UnitId },
    /// Shoot at every unit of a kind in the hex, friends included (ABQ-8-2, 8-4).
    ShootGroup { group: Group },
    /// Close combat with one unit (ABQ-9).
    Close { unit: UnitId },
    /// Roll it (or, leading off, let it stand for the damage check).
    Fire,
    /// Give up this attack.
    Cancel,
    /// ABQ-18-3: fire a Public's beam-disruption missiles …
    Launch { unit: UnitId },
    /// … at this hex.
    At { hex: HexNo },
    /// ABQ-16: a satellite missile strikes its hex.
    Detonate { unit: UnitId },
}

fn u(id: &UnitId) -> String {
    format!("u{id}")
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place { hex } => write!(f, "place {hex}"),
            Action::Move { to } => write!(f, "move {to}"),
            Action::Hold => write!(f, "hold"),
            Action::Done => write!(f, "done"),
            Action::Remove { unit } => write!(f, "remove {}", u(unit)),
            Action::From { hex } => write!(f, "from {hex}"),
            Action::With { unit } => write!(f, "with {}", u(unit)),
            Action::Target { hex } => write!(f, "target {hex}"),
            Action::Shoot { unit } => write!(f, "shoot {}", u(unit)),
            Action::ShootGroup { group: Group::Ms } => write!(f, "shoot ms"),
            Action::ShootGroup {
                group: Group::Ships,
            } => write!(f, "shoot ships"),
            Action::Close { unit } => write!(f, "close {}", u(unit)),
            Action::Fire => write!(f, "fire"),
            Action::Cancel => write!(f, "cancel"),
            Action::Launch { unit } => write!(f, "launch {}", u(unit)),
            Action::At { hex } => write!(f, "at {hex}"),
            Action::Detonate { unit } => write!(f, "detonate {}", u(unit)),
        }
    }
}

pub fn parse_unit(s: &str) -> Result<UnitId, String> {
    let t = s.trim();
    let digits = t
        .strip_prefix('u')
        .or_else(|| t.strip_prefix('U'))
        .unwrap_or(t);
    digits
        .parse()
        .map_err(|_| format!("{s:?} is not a unit: u and its number, e.g. u12"))
}

impl FromStr for Action {
    type Err = String;
    fn from_str(s: &str) -> Result<Action, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let arg = |i: usize| -> Result<&str, String> {
            words
                .get(i)
                .copied()
                .ok_or_else(|| format!("{s:?}: {} needs more", words[0]))
        };
        let Some(first) = words.first() else {
            return Err("an empty action".into());
        };
        let a = match first.to_ascii_lowercase().as_str() {
            "place" | "p" => Action::Place {
                hex: arg(1)?.parse()?,
            },
            "move" | "m" => Action::Move {
                to: arg(1)?.parse()?,
            },
            "hold" | "h" | "stay" => Action::Hold,
            "done" | "d" | "end" => Action::Done,
            "remove" => Action::Remove {
                unit: parse_unit(arg(1)?)?,
            },
            "from" => Action::From {
                hex: arg(1)?.parse()?,
            },
            "with" | "w" => Action::With {
                unit: parse_unit(arg(1)?)?,
            },
            "target" | "t" => Action::Target {
                hex: arg(1)?.parse()?,
            },
            "shoot" | "s" => match arg(1)?.to_ascii_lowercase().as_str() {
                "ms" => Action::ShootGroup { group: Group::Ms },
                "ships" => Action::ShootGroup {
                    group: Group::Ships,
                },
                w => Action::Shoot {
                    unit: parse_unit(w)?,
                },
            },
            "close" | "c" => Action::Close {
                unit: parse_unit(arg(1)?)?,
            },
            "fire" | "f" => Action::Fire,
            "cancel" => Action::Cancel,
            "launch" => Action::Launch {
                unit: parse_unit(arg(1)?)?,
            },
            "at" => Action::At {
                hex: arg(1)?.parse()?,
            },
            "detonate" => Action::Detonate {
                unit: parse_unit(arg(1)?)?,
            },
            w => {
                return Err(format!(
                    "{w:?} is not an action: place, move, hold, done, remove, from, with, \
                     target, shoot, close, fire, cancel, launch, at, detonate"
                ));
            }
        };
        let used = match a {
            Action::Hold | Action::Done | Action::Fire | Action::Cancel => 1,
            _ => 2,
        };
        if words.len() > used {
            return Err(format!("{s:?}: unexpected {:?}", words[used]));
        }
        Ok(a)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    LeadOff {
        side: String,
    },
    TurnBegins {
        turn: u16,
    },
    HalfBegins {
        side: String,
    },
    Placed {
        unit: UnitId,
        hex: HexNo,
    },
    Moved {
        unit: UnitId,
        to: HexNo,
    },
    Entered {
        unit: UnitId,
        to: HexNo,
    },
    Removed {
        unit: UnitId,
        hex: HexNo,
    },
    /// ABQ-10-3: the recovery die and the number it had to be under.
    Recovered {
        unit: UnitId,
        #[serde(default)]
        die: u8,
        #[serde(default)]
        under: u8,
    },
    StillShaken {
        unit: UnitId,
        #[serde(default)]
        die: u8,
        #[serde(default)]
        under: u8,
    },
    Declared {
        attackers: Vec<UnitId>,
        targets: Vec<UnitId>,
        close: bool,
        column: Option<String>,
    },
    /// One target's result: the die, what its morale added (ABQ-7-6, 9-6), the column and
    /// the table read (ABQ-7-4, 9-5).
    Result {
        unit: UnitId,
        hit: Hit,
        now: Option<Morale>,
        #[serde(default)]
        die: u8,
        #[serde(default)]
        modifier: u8,
        #[serde(default)]
        column: String,
        #[serde(default)]
        close: bool,
    },
    Flipped {
        unit: UnitId,
    },
    /// ABQ-18-3: the BD die (under 5 hits).
    ScreenPlaced {
        hex: HexNo,
        #[serde(default)]
        die: u8,
    },
    ScreenMissed {
        hex: HexNo,
        #[serde(default)]
        die: u8,
    },
    ScreenLifted {
        hex: HexNo,
    },
    Detonated {
        unit: UnitId,
    },
    Spent {
        unit: UnitId,
    },
    Reinforcements {
        turn: u16,
    },
    FortressHeld {
        side: String,
        units: u16,
        turns: u8,
    },
    GameOver {
        reason: String,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::LeadOff { side } => write!(f, "{side} leads off"),
            Event::TurnBegins { turn } => write!(f, "Turn {turn} begins"),
            Event::HalfBegins { side } => write!(f, "{side} leads off this half of the turn"),
            Event::Placed { unit, hex } => write!(f, "u{unit} is set up in {hex}"),
            Event::Moved { unit, to } => write!(f, "u{unit} moves to {to}"),
            Event::Entered { unit, to } => write!(f, "u{unit} enters the map at {to}"),
            Event::Removed { unit, hex } => {
                write!(f, "u{unit} is removed from over-stacked {hex} (ABQ-5-6)")
            }
            Event::Recovered { unit, die, under } => write!(
                f,
                "u{unit} recovers its morale (recovery die {die}, under {under} needed)"
            ),
            Event::StillShaken { unit, die, under } => write!(
                f,
                "u{unit} fails to recover (recovery die {die}, under {under} needed)"
            ),
            Event::Declared {
                attackers,
                targets,
                close,
                column,
            } => {
                let a: Vec<String> = attackers.iter().map(|x| format!("u{x}")).collect();
                let t: Vec<String> = targets.iter().map(|x| format!("u{x}")).collect();
                write!(
                    f,
                    "{} {} {} at {}",
                    a.join("+"),
                    // One attacker "shoots", several "shoot".
                    match (*close, attackers.len() == 1) {
                        (true, true) => "closes with",
                        (true, false) => "close with",
                        (false, true) => "shoots at",
                        (false, false) => "shoot at",
                    },
                    t.join("+"),
                    column.as_deref().unwrap_or("worse than 1:3 (no effect)")
                )
            }
            Event::Result {
                unit,
                hit,
                now,
                die,
                modifier,
                column,
                close,
            } => {
                match (hit, now) {
                    (Hit::None, _) | (_, Some(Morale::Normal)) => write!(f, "u{unit}: no effect"),
                    (_, None) => write!(f, "u{unit} is destroyed"),
                    (_, Some(Morale::Confused)) => write!(f, "u{unit} is confused (C)"),
                    (_, Some(Morale::Panic)) => write!(f, "u{unit} panics (D)"),
                }?;
                let table = if *close { "close combat" } else { "shooting" };
                match modifier {
                    0 => write!(f, " — die {die}"),
                    m => write!(
                        f,
                        " — die {die} + {m} ({}) = {}",
                        if *m == 1 {
                            "it was confused"
                        } else {
                            "it was panicked"
                        },
                        die + m
                    ),
                }?;
                write!(f, " on the {column} column of the {table} table")
            }
            Event::Flipped { unit } => write!(f, "u{unit} has fired its missiles and is flipped"),
            Event::ScreenPlaced { hex, die } => write!(
                f,
                "a beam-disruption screen covers {hex} (BD die {die}, under 5 needed)"
            ),
            Event::ScreenMissed { hex, die } => {
                write!(
                    f,
                    "the BD missiles miss {hex} (BD die {die}, under 5 needed)"
                )
            }
            Event::ScreenLifted { hex } => write!(f, "the screen at {hex} is gone"),
            Event::Detonated { unit } => write!(f, "satellite missile u{unit} strikes"),
            Event::Spent { unit } => write!(f, "satellite missile u{unit} is spent"),
            Event::Reinforcements { turn } => {
                write!(f, "the reinforcements will arrive in turn {turn}")
            }
            Event::FortressHeld { side, units, turns } => write!(
                f,
                "{side} holds the fortress with {units} units ({turns} turn(s) running)"
            ),
            Event::GameOver { reason } => write!(f, "Game over: {reason}"),
        }
    }
}
