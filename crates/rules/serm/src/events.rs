//! Actions and events: the stable JSON and the words players type.

use crate::state::{Heading, SoldierId, Spot, Turn};
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
    /// … or toward a soldier or a point of the table (`blast_aim = anywhere`).
    BlastAt { soldier: SoldierId, toward: Spot },
    /// SERM-MOVE: along a wind or toward a soldier; the Assault Commando declares nothing.
    Move {
        soldier: SoldierId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        toward: Option<Heading>,
    },
    /// The Assault Commando's direction, after its roll (with `commando_turn = turn_once`,
    /// maybe a turn on the way).
    Aim {
        toward: Heading,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn: Option<Turn>,
    },
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

fn inches_text(ticks: i64) -> String {
    let inches = ticks as f64 / crate::data::INCH as f64;
    format!("{inches:.6}")
        .trim_end_matches('0')
        .trim_end_matches('.')
        .to_string()
}

fn parse_inches(s: &str, what: &str) -> Result<i64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("{s:?}: {what} in inches, e.g. 2.5"))?;
    if !v.is_finite() || !(0.0..=1000.0).contains(&v) {
        return Err(format!("{s:?}: {what} in inches, 0 to 1000"));
    }
    Ok((v * crate::data::INCH as f64).round() as i64)
}

/// `12,30.5`: a point of the table in inches.
fn parse_point(s: &str) -> Option<Point> {
    let (x, y) = s.split_once(',')?;
    let x = parse_inches(x.trim(), "x").ok()?;
    let y = parse_inches(y.trim(), "y").ok()?;
    Some(Point::new(x, y))
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
            Action::BlastAt {
                soldier,
                toward: Spot::Soldier(t),
            } => write!(f, "blast u{soldier} u{t}"),
            Action::BlastAt {
                soldier,
                toward: Spot::Point(p),
            } => write!(
                f,
                "blast u{soldier} {},{}",
                inches_text(p.x),
                inches_text(p.y)
            ),
            Action::Move {
                soldier,
                toward: None,
            } => write!(f, "move u{soldier}"),
            Action::Move {
                soldier,
                toward: Some(h),
            } => write!(f, "move u{soldier} {}", heading_text(h)),
            Action::Aim { toward, turn: None } => write!(f, "aim {}", heading_text(toward)),
            Action::Aim {
                toward,
                turn: Some(t),
            } => write!(
                f,
                "aim {} turn {} {}",
                heading_text(toward),
                inches_text(t.at),
                heading_text(&t.toward)
            ),
            Action::React { soldier } => write!(f, "react u{soldier}"),
            Action::Pass => write!(f, "pass"),
            Action::Stop { at } => write!(f, "stop {}", inches_text(*at)),
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
                let soldier = parse_soldier(arg(1)?)?;
                let to = arg(2)?;
                let a = if let Some(p) = parse_point(to) {
                    Action::BlastAt {
                        soldier,
                        toward: Spot::Point(p),
                    }
                } else {
                    match parse_heading(to).map_err(|_| {
                        format!(
                            "{to:?}: blast along a wind (n, nne, … nnw), or toward a soldier (u3) or a point (12,30.5)"
                        )
                    })? {
                        Heading::Wind(wind) => Action::Blast { soldier, wind },
                        Heading::Soldier(t) => Action::BlastAt {
                            soldier,
                            toward: Spot::Soldier(t),
                        },
                    }
                };
                (a, 3)
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
            "aim" => match w.get(2) {
                Some(t) if t.eq_ignore_ascii_case("turn") => (
                    Action::Aim {
                        toward: parse_heading(arg(1)?)?,
                        turn: Some(Turn {
                            at: parse_inches(arg(3)?, "turn after")?,
                            toward: parse_heading(arg(4)?)?,
                        }),
                    },
                    5,
                ),
                _ => (
                    Action::Aim {
                        toward: parse_heading(arg(1)?)?,
                        turn: None,
                    },
                    2,
                ),
            },
            "react" => (
                Action::React {
                    soldier: parse_soldier(arg(1)?)?,
                },
                2,
            ),
            "pass" => (Action::Pass, 1),
            "stop" => (
                Action::Stop {
                    at: parse_inches(arg(1)?, "stop INCHES along the path")?,
                },
                2,
            ),
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
        /// The die that gave the first initiative (odd: the first side).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        die: Option<u8>,
    },
    Shoots {
        soldier: SoldierId,
        target: SoldierId,
    },
    /// A pool rolled (SERM-POOL): each die's throws (a six and the throws it added), the
    /// total.
    Pool {
        soldier: SoldierId,
        what: String,
        #[serde(default)]
        dice: Vec<Vec<u8>>,
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
        /// The blast die: the centre lands twice its face in inches away.
        die: u8,
        centre: Point,
    },
    BlastFails {
        soldier: SoldierId,
        die: u8,
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
            Event::Initiative { side, die: None } => write!(f, "{side} has the initiative"),
            Event::Initiative { side, die: Some(d) } => write!(
                f,
                "first initiative die: {d} ({}) — {side} has the initiative",
                if d % 2 == 1 { "odd" } else { "even" }
            ),
            Event::Shoots { soldier, target } => {
                write!(f, "u{soldier} turns and shoots at u{target}")
            }
            Event::Pool {
                soldier,
                what,
                dice,
                total,
            } => write!(
                f,
                "u{soldier}'s {what} roll: {}",
                crate::pools::dice_text(dice, *total)
            ),
            Event::Eliminated { soldier } => write!(f, "u{soldier} is eliminated"),
            Event::Survives { soldier } => write!(f, "u{soldier} endures"),
            Event::Blast {
                soldier,
                die,
                centre,
            } => write!(
                f,
                "u{soldier}'s blast die: {die} — the blast lands {} inches away, at {}",
                2 * u32::from(*die),
                inch(centre)
            ),
            Event::BlastFails { soldier, die } => {
                write!(
                    f,
                    "u{soldier}'s blast die: {die} — the charge goes off in its hands"
                )
            }
            Event::Moves { soldier } => write!(f, "u{soldier} moves"),
            Event::Reacts { soldier } => write!(f, "u{soldier} reacts"),
            Event::Stopped { soldier, at } => write!(f, "u{soldier} is stopped at {}", inch(at)),
            Event::Moved { soldier, at } => write!(f, "u{soldier} ends its move at {}", inch(at)),
            Event::GameOver { reason } => write!(f, "Game over: {reason}"),
        }
    }
}
