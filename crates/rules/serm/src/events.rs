//! Actions and events: the stable JSON and the words players type.

use crate::state::{Heading, SoldierId};
use crate::turn::WINDS;
use battlemat_geom::table::Point;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// SERM-SHOOT: turn to face the target (free) and shoot.
    Shoot {
        soldier: SoldierId,
        target: SoldierId,
    },
    /// The Demolitions Expert's Shoot: a blast along a wind.
    Blast { soldier: SoldierId, wind: u8 },
    /// SERM-MOVE: along a wind or toward a soldier; the Assault Commando declares nothing.
    Move {
        soldier: SoldierId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        toward: Option<Heading>,
    },
    /// The Assault Commando's direction, after its roll.
    Aim { toward: Heading },
    /// SERM-REACT: react with this soldier …
    React { soldier: SoldierId },
    /// … or not at all.
    Pass,
    /// Stop the mover this many ticks (240 an inch) along its path.
    Stop { at: i64 },
}

fn heading_text(h: &Heading) -> String {
    match h {
        Heading::Wind(w) => WINDS[*w as usize % 16].to_string(),
        Heading::Soldier(s) => format!("u{s}"),
    }
}

fn parse_heading(s: &str) -> Result<Heading, String> {
    if let Some(w) = WINDS.iter().position(|w| w.eq_ignore_ascii_case(s)) {
        return Ok(Heading::Wind(w as u8));
    }
    Ok(Heading::Soldier(parse_soldier(s).map_err(|_| {
        format!("{s:?} is not a direction: a wind (n, nne, ne, … nnw) or a soldier (u3)")
    })?))
}

pub fn parse_soldier(s: &str) -> Result<SoldierId, String> {
    s.strip_prefix('u')
        .unwrap_or(s)
        .parse()
        .map_err(|_| format!("{s:?} is not a soldier: u and its number, e.g. u3"))
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Shoot { soldier, target } => write!(f, "shoot u{soldier} u{target}"),
            Action::Blast { soldier, wind } => {
                write!(f, "blast u{soldier} {}", WINDS[*wind as usize % 16])
            }
            Action::Move {
                soldier,
                toward: None,
            } => write!(f, "move u{soldier}"),
            Action::Move {
                soldier,
                toward: Some(h),
            } => write!(f, "move u{soldier} {}", heading_text(h)),
            Action::Aim { toward } => write!(f, "aim {}", heading_text(toward)),
            Action::React { soldier } => write!(f, "react u{soldier}"),
            Action::Pass => write!(f, "pass"),
            Action::Stop { at } => {
                let inches = *at as f64 / crate::data::INCH as f64;
                write!(
                    f,
                    "stop {}",
                    format!("{inches:.6}")
                        .trim_end_matches('0')
                        .trim_end_matches('.')
                )
            }
        }
    }
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
            "shoot" => (
                Action::Shoot {
                    soldier: parse_soldier(arg(1)?)?,
                    target: parse_soldier(arg(2)?)?,
                },
                3,
            ),
            "blast" => {
                let h = parse_heading(arg(2)?)?;
                let Heading::Wind(wind) = h else {
                    return Err("a blast goes along a wind (n, nne, … nnw)".into());
                };
                (
                    Action::Blast {
                        soldier: parse_soldier(arg(1)?)?,
                        wind,
                    },
                    3,
                )
            }
            "move" => match w.get(2) {
                Some(h) => (
                    Action::Move {
                        soldier: parse_soldier(arg(1)?)?,
                        toward: Some(parse_heading(h)?),
                    },
                    3,
                ),
                None => (
                    Action::Move {
                        soldier: parse_soldier(arg(1)?)?,
                        toward: None,
                    },
                    2,
                ),
            },
            "aim" => (
                Action::Aim {
                    toward: parse_heading(arg(1)?)?,
                },
                2,
            ),
            "react" => (
                Action::React {
                    soldier: parse_soldier(arg(1)?)?,
                },
                2,
            ),
            "pass" => (Action::Pass, 1),
            "stop" => {
                let v: f64 = arg(1)?
                    .parse()
                    .map_err(|_| format!("{s:?}: stop INCHES along the path"))?;
                if !v.is_finite() || !(0.0..=1000.0).contains(&v) {
                    return Err(format!("{s:?}: stop INCHES along the path, 0 or more"));
                }
                (
                    Action::Stop {
                        at: (v * crate::data::INCH as f64).round() as i64,
                    },
                    2,
                )
            }
            x => {
                return Err(format!(
                    "{x:?} is not an action: shoot, blast, move, aim, react, pass, stop"
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
    Initiative {
        side: String,
    },
    Shoots {
        soldier: SoldierId,
        target: SoldierId,
    },
    Pool {
        soldier: SoldierId,
        what: String,
        total: u32,
    },
    Eliminated {
        soldier: SoldierId,
    },
    Survives {
        soldier: SoldierId,
    },
    Blast {
        soldier: SoldierId,
        centre: Point,
    },
    BlastFails {
        soldier: SoldierId,
    },
    Moves {
        soldier: SoldierId,
    },
    Reacts {
        soldier: SoldierId,
    },
    Stopped {
        soldier: SoldierId,
        at: Point,
    },
    Moved {
        soldier: SoldierId,
        at: Point,
    },
    GameOver {
        reason: String,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inch = |p: &Point| format!("{:.2},{:.2}", p.x as f64 / 240.0, p.y as f64 / 240.0);
        match self {
            Event::Initiative { side } => write!(f, "{side} has the initiative"),
            Event::Shoots { soldier, target } => {
                write!(f, "u{soldier} turns and shoots at u{target}")
            }
            Event::Pool {
                soldier,
                what,
                total,
            } => write!(f, "u{soldier}'s {what} roll: {total}"),
            Event::Eliminated { soldier } => write!(f, "u{soldier} is eliminated"),
            Event::Survives { soldier } => write!(f, "u{soldier} endures"),
            Event::Blast { soldier, centre } => {
                write!(f, "u{soldier}'s blast lands at {}", inch(centre))
            }
            Event::BlastFails { soldier } => write!(f, "u{soldier}'s charge goes off in its hands"),
            Event::Moves { soldier } => write!(f, "u{soldier} moves"),
            Event::Reacts { soldier } => write!(f, "u{soldier} reacts"),
            Event::Stopped { soldier, at } => write!(f, "u{soldier} is stopped at {}", inch(at)),
            Event::Moved { soldier, at } => write!(f, "u{soldier} ends its move at {}", inch(at)),
            Event::GameOver { reason } => write!(f, "Game over: {reason}"),
        }
    }
}
