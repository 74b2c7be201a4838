//! Actions and events: the stable JSON and the words players type.

use crate::state::{Defence, UnitId};
use battlemat_geom::Cell;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// D20-2: this combatant fights this melee …
    Fight,
    /// … or flees.
    Flee,
    /// D20-3: move (once a turn, up to its speed).
    Move {
        to: Cell,
    },
    /// D20-3 a)–c): attack `target` with weapon `weapon`, aimed at section `at` (a called
    /// shot) or the main body, with the Newtype power "insight" or not.
    Attack {
        target: UnitId,
        weapon: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<u8>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        insight: bool,
    },
    /// End the turn without attacking (it costs an APM).
    Pass,
    /// End the turn after attacking.
    End,
    /// D20-3D: let it hit; dodge; leap dodge; parry with a section; roll with it.
    Take,
    Dodge,
    Leap,
    Parry {
        section: u8,
    },
    Roll,
}

impl Action {
    pub fn of_defence(d: Defence) -> Action {
        match d {
            Defence::Take => Action::Take,
            Defence::Dodge => Action::Dodge,
            Defence::Leap => Action::Leap,
            Defence::Parry(s) => Action::Parry { section: s },
            Defence::Roll => Action::Roll,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Fight => write!(f, "fight"),
            Action::Flee => write!(f, "flee"),
            Action::Move { to } => write!(f, "move {to}"),
            Action::Attack {
                target,
                weapon,
                at,
                insight,
            } => {
                write!(f, "attack u{target} w{weapon}")?;
                if let Some(s) = at {
                    write!(f, " at s{s}")?;
                }
                if *insight {
                    write!(f, " insight")?;
                }
                Ok(())
            }
            Action::Pass => write!(f, "pass"),
            Action::End => write!(f, "end"),
            Action::Take => write!(f, "take"),
            Action::Dodge => write!(f, "dodge"),
            Action::Leap => write!(f, "leap"),
            Action::Parry { section } => write!(f, "parry s{section}"),
            Action::Roll => write!(f, "roll"),
        }
    }
}

fn num(s: &str, prefix: char, what: &str) -> Result<u8, String> {
    s.strip_prefix(prefix)
        .unwrap_or(s)
        .parse()
        .map_err(|_| format!("{s:?} is not a {what}: {prefix} and its number, e.g. {prefix}1"))
}

impl FromStr for Action {
    type Err = String;
    fn from_str(s: &str) -> Result<Action, String> {
        let w: Vec<&str> = s.split_whitespace().collect();
        let Some(first) = w.first() else {
            return Err("an empty action".into());
        };
        let arg = |i: usize| -> Result<&str, String> {
            w.get(i)
                .copied()
                .ok_or_else(|| format!("{s:?}: {first} needs more"))
        };
        let (a, used) = match first.to_ascii_lowercase().as_str() {
            "fight" => (Action::Fight, 1),
            "flee" => (Action::Flee, 1),
            "move" | "m" => (
                Action::Move {
                    to: arg(1)?.parse()?,
                },
                2,
            ),
            "attack" | "a" => {
                let target = num(arg(1)?, 'u', "combatant")?;
                let weapon = num(arg(2)?, 'w', "weapon")?;
                let mut i = 3;
                let mut at = None;
                let mut insight = false;
                if w.get(i).is_some_and(|x| x.eq_ignore_ascii_case("at")) {
                    at = Some(num(arg(i + 1)?, 's', "section")?);
                    i += 2;
                }
                if w.get(i).is_some_and(|x| x.eq_ignore_ascii_case("insight")) {
                    insight = true;
                    i += 1;
                }
                (
                    Action::Attack {
                        target,
                        weapon,
                        at,
                        insight,
                    },
                    i,
                )
            }
            "pass" => (Action::Pass, 1),
            "end" => (Action::End, 1),
            "take" => (Action::Take, 1),
            "dodge" => (Action::Dodge, 1),
            "leap" => (Action::Leap, 1),
            "parry" => (
                Action::Parry {
                    section: num(arg(1)?, 's', "section")?,
                },
                2,
            ),
            "roll" => (Action::Roll, 1),
            x => {
                return Err(format!(
                    "{x:?} is not an action: fight, flee, move, attack, pass, end, take, dodge, leap, parry, roll"
                ));
            }
        };
        if w.len() > used {
            return Err(format!("{s:?}: unexpected {:?}", w[used]));
        }
        Ok(a)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    MeleeBegins {
        melee: u16,
    },
    /// D20-1: the Newtype Initiative save — the die, the total with the Newtype level and
    /// save bonus, and the number it had to reach.
    NewtypeSave {
        unit: UnitId,
        natural: u8,
        total: i16,
        need: i16,
        saved: bool,
    },
    /// D20-1: an initiative roll — the die and the total (a tie's re-roll has no bonus).
    Initiative {
        unit: UnitId,
        natural: u8,
        total: i16,
    },
    Order {
        order: Vec<UnitId>,
    },
    Flees {
        unit: UnitId,
    },
    Moves {
        unit: UnitId,
        to: Cell,
    },
    Attacks {
        unit: UnitId,
        target: UnitId,
        weapon: String,
        at: String,
    },
    Strike {
        unit: UnitId,
        natural: u8,
        total: i16,
        miss: bool,
    },
    Defence {
        unit: UnitId,
        defence: Defence,
        natural: u8,
        total: i16,
        success: bool,
    },
    Hit {
        unit: UnitId,
        critical: bool,
    },
    /// D20-6B/6S: a beam or stun save — the die, the total with the pilot's save bonus,
    /// and the number it had to reach.
    Save {
        unit: UnitId,
        save: String,
        natural: u8,
        total: i16,
        need: i16,
        saved: bool,
    },
    Stunned {
        unit: UnitId,
    },
    StunEnds {
        unit: UnitId,
    },
    /// D20-3H c): the damage dice as rolled (`roll`: the weapon's notation, or how hand
    /// damage is worked out) and the damage they make, before doubling, halving and armour.
    DamageRolled {
        unit: UnitId,
        roll: String,
        faces: Vec<u8>,
        raw: u32,
    },
    /// A section's damage: what reached it (`dealt`, after doubling and halving), its
    /// armour (D20-4), what it took and what is left.
    Damage {
        unit: UnitId,
        section: String,
        damage: u32,
        left: u32,
        #[serde(default)]
        dealt: u32,
        #[serde(default)]
        armour: u32,
        #[serde(default)]
        why: String,
    },
    SectionDestroyed {
        unit: UnitId,
        section: String,
    },
    Destroyed {
        unit: UnitId,
    },
    KnockedOver {
        unit: UnitId,
    },
    BeamGoesOn {
        unit: UnitId,
    },
    TurnLost {
        unit: UnitId,
        why: String,
    },
    GameOver {
        reason: String,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::MeleeBegins { melee } => write!(f, "Melee round {melee} begins"),
            Event::NewtypeSave {
                unit,
                natural,
                total,
                need,
                saved,
            } => write!(
                f,
                "u{unit} saves against Newtype Initiative: {natural} on the die, {total} against {need}, {}",
                if *saved { "saved" } else { "failed" }
            ),
            Event::Initiative {
                unit,
                natural,
                total,
            } => write!(f, "u{unit} rolls initiative: {natural} on the die, {total}"),
            Event::Order { order } => {
                let o: Vec<String> = order.iter().map(|u| format!("u{u}")).collect();
                write!(f, "order of turns: {}", o.join(", "))
            }
            Event::Flees { unit } => write!(f, "u{unit} will not attack this melee"),
            Event::Moves { unit, to } => write!(f, "u{unit} moves to {to}"),
            Event::Attacks {
                unit,
                target,
                weapon,
                at,
            } => {
                write!(f, "u{unit} attacks u{target} with its {weapon} at the {at}")
            }
            Event::Strike {
                unit,
                natural,
                total,
                miss,
            } => write!(
                f,
                "u{unit} strikes: {natural} on the die, {total}{}",
                if *miss { " — a miss" } else { "" }
            ),
            Event::Defence {
                unit,
                defence,
                natural,
                total,
                success,
            } => write!(
                f,
                "u{unit} tries to {defence:?}: {natural} on the die, {total} — {}",
                if *success { "success" } else { "failure" }
            ),
            Event::Hit { unit, critical } => {
                write!(
                    f,
                    "u{unit} is hit{}",
                    if *critical {
                        " (critical: double damage)"
                    } else {
                        ""
                    }
                )
            }
            Event::Save {
                unit,
                save,
                natural,
                total,
                need,
                saved,
            } => write!(
                f,
                "u{unit}'s {save} save: {natural} on the die, {total} against {need}, {}",
                if *saved { "saved" } else { "failed" }
            ),
            Event::Stunned { unit } => write!(f, "u{unit} is stunned"),
            Event::StunEnds { unit } => write!(f, "u{unit} is no longer stunned"),
            Event::DamageRolled {
                unit,
                roll,
                faces,
                raw,
            } => {
                if faces.is_empty() {
                    write!(f, "damage to u{unit}: {roll} = {raw}")
                } else {
                    let dice: Vec<String> = faces.iter().map(|d| d.to_string()).collect();
                    let sum: u32 = faces.iter().map(|&d| d as u32).sum();
                    write!(f, "damage to u{unit}: {roll}, dice {}", dice.join(" + "))?;
                    if faces.len() > 1 {
                        write!(f, " = {sum}")?;
                    }
                    if *raw != sum {
                        write!(f, " → {raw}")?;
                    }
                    Ok(())
                }
            }
            Event::Damage {
                unit,
                section,
                damage,
                left,
                dealt,
                armour,
                why,
            } => {
                write!(f, "u{unit}'s {section} takes {damage}")?;
                if !why.is_empty() || *armour > 0 {
                    let mut inner = if why.is_empty() {
                        dealt.to_string()
                    } else {
                        format!("{why}: {dealt}")
                    };
                    if *armour > 0 {
                        inner += &format!(" less {armour} armour");
                    }
                    write!(f, " ({inner})")?;
                }
                write!(f, ", {left} left")
            }
            Event::SectionDestroyed { unit, section } => {
                write!(f, "u{unit}'s {section} is destroyed")
            }
            Event::Destroyed { unit } => write!(f, "u{unit} is out of the fight"),
            Event::KnockedOver { unit } => write!(f, "u{unit} is knocked over"),
            Event::BeamGoesOn { unit } => write!(f, "the beam goes on toward u{unit}"),
            Event::TurnLost { unit, why } => write!(f, "u{unit} loses its turn ({why})"),
            Event::GameOver { reason } => write!(f, "Game over: {reason}"),
        }
    }
}
