//! Actions in the short text players type (`move u2 3.25,1.5`, `shoot u1 u4`, `push ne`):
//! `Display` writes it, `FromStr` reads it back (the conformance kit round-trips every
//! listed action).

use crate::data::STICK;
use crate::events::{
    Action, Aim, Aims, Cargo, Drop, Target, WINDS, parse_point, parse_sticks, point_text,
    unit_label,
};
use crate::setup::EDGE_NAMES;
use crate::state::UnitId;
use std::fmt;

/// A table edge's name (`near`, `left`, `far`, `right`).
pub fn edge_name(edge: u8) -> &'static str {
    EDGE_NAMES.get(edge as usize).copied().unwrap_or("?")
}
use std::str::FromStr;

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let u = |x: &UnitId| unit_label(*x);
        match self {
            Action::Move { unit, to, cargo } => {
                let (load, drop) = Cargo::parts(cargo);
                write!(f, "move {} {to}", u(unit))?;
                if !load.is_empty() {
                    let l: Vec<String> = load.iter().map(u).collect();
                    write!(f, " load {}", l.join(","))?;
                }
                for d in drop {
                    write!(f, " drop {}@{}", u(&d.unit), point_text(d.at))?;
                }
                Ok(())
            }
            Action::Shoot { unit, aims, from } => {
                write!(f, "shoot {}", u(unit))?;
                for a in aims.iter() {
                    write!(f, " {}", u(&a.target))?;
                    if a.dice > 0 {
                        write!(f, ":{}", a.dice)?;
                    }
                }
                if let Some(p) = from {
                    write!(f, " from {}", point_text(*p))?;
                }
                Ok(())
            }
            Action::Melee { unit, target } => write!(f, "melee {} {}", u(unit), u(target)),
            Action::Recover { unit } => write!(f, "recover {}", u(unit)),
            Action::Hide { unit } => write!(f, "hide {}", u(unit)),
            Action::Collect { unit } => write!(f, "collect {}", u(unit)),
            Action::Cheer { unit, target } => write!(f, "cheer {} {}", u(unit), u(target)),
            Action::BreakIn { unit } => write!(f, "breakin {}", u(unit)),
            Action::End => f.write_str("end"),
            Action::Pick { kind } => write!(f, "pick {kind}"),
            Action::Done => f.write_str("done"),
            Action::Reroll { face } => write!(f, "reroll {face}"),
            Action::Keep => f.write_str("keep"),
            Action::AddCheer { dice } => write!(f, "add {dice}"),
            Action::Push { toward } => write!(f, "push {toward}"),
            Action::Pass => f.write_str("pass"),
            Action::Take => f.write_str("take"),
            Action::Stay => f.write_str("stay"),
            Action::Place { target } => write!(f, "place {}", u(target)),
            Action::Edge { edge } => write!(f, "edge {}", edge_name(*edge)),
            Action::Deploy { unit, at } => write!(f, "deploy {} {}", u(unit), point_text(*at)),
            Action::PickUp { unit, animal } => write!(f, "pickup {} {}", u(unit), u(animal)),
            Action::Draw { count } => write!(f, "draw {count}"),
            Action::GiveUp { unit } => write!(f, "giveup {}", u(unit)),
        }
    }
}

fn parse_unit(s: &str) -> Result<UnitId, String> {
    s.strip_prefix('u')
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("{s:?} is not a unit (u0, u1, ...)"))
}

fn parse_target(words: &[&str]) -> Result<(Target, usize), String> {
    let Some(first) = words.first() else {
        return Err("where to? a point (3.25,1.5) or a wind and a distance (ne 1)".into());
    };
    if let Some(w) = WINDS.iter().position(|w| w.eq_ignore_ascii_case(first)) {
        let dist = match words.get(1) {
            Some(d) if d.parse::<f64>().is_ok() => (parse_sticks(d)?, 2),
            _ => (STICK, 1),
        };
        return Ok((
            Target::Heading {
                wind: w as u8,
                dist: dist.0,
            },
            dist.1,
        ));
    }
    Ok((Target::Point(parse_point(first)?), 1))
}

impl FromStr for Action {
    type Err = String;
    fn from_str(s: &str) -> Result<Action, String> {
        let words = Words {
            s,
            w: s.split_whitespace().collect(),
        };
        let w = &words.w;
        let arg = |i: usize| words.arg(i);
        let none_after = |n: usize| words.none_after(n);
        let a = match w.first().copied().unwrap_or("") {
            "move" | "m" => parse_move(&words)?,
            "shoot" | "s" => parse_shoot(&words)?,
            "melee" => {
                none_after(3)?;
                Action::Melee {
                    unit: parse_unit(arg(1)?)?,
                    target: parse_unit(arg(2)?)?,
                }
            }
            "recover" => {
                none_after(2)?;
                Action::Recover {
                    unit: parse_unit(arg(1)?)?,
                }
            }
            "hide" => {
                none_after(2)?;
                Action::Hide {
                    unit: parse_unit(arg(1)?)?,
                }
            }
            "collect" => {
                none_after(2)?;
                Action::Collect {
                    unit: parse_unit(arg(1)?)?,
                }
            }
            "cheer" => {
                none_after(3)?;
                Action::Cheer {
                    unit: parse_unit(arg(1)?)?,
                    target: parse_unit(arg(2)?)?,
                }
            }
            "breakin" => {
                none_after(2)?;
                Action::BreakIn {
                    unit: parse_unit(arg(1)?)?,
                }
            }
            "end" => {
                none_after(1)?;
                Action::End
            }
            "pick" => {
                none_after(2)?;
                Action::Pick {
                    kind: arg(1)?.to_string(),
                }
            }
            "done" => {
                none_after(1)?;
                Action::Done
            }
            "reroll" => {
                none_after(2)?;
                Action::Reroll {
                    face: arg(1)?
                        .parse()
                        .map_err(|_| "reroll a face: reroll 2".to_string())?,
                }
            }
            "keep" => {
                none_after(1)?;
                Action::Keep
            }
            "add" => {
                none_after(2)?;
                Action::AddCheer {
                    dice: arg(1)?
                        .parse()
                        .map_err(|_| "add how many cheer dice: add 1".to_string())?,
                }
            }
            "push" => {
                let (toward, used) = parse_target(&w[1..])?;
                none_after(1 + used)?;
                Action::Push { toward }
            }
            "pass" => {
                none_after(1)?;
                Action::Pass
            }
            "take" => {
                none_after(1)?;
                Action::Take
            }
            "stay" => {
                none_after(1)?;
                Action::Stay
            }
            "pickup" => {
                none_after(3)?;
                Action::PickUp {
                    unit: parse_unit(arg(1)?)?,
                    animal: parse_unit(arg(2)?)?,
                }
            }
            "draw" => {
                none_after(2)?;
                Action::Draw {
                    count: arg(1)?
                        .parse()
                        .map_err(|_| format!("{s:?}: draw 0, 1 or 2"))?,
                }
            }
            "giveup" => {
                none_after(2)?;
                Action::GiveUp {
                    unit: parse_unit(arg(1)?)?,
                }
            }
            "deploy" => {
                none_after(3)?;
                Action::Deploy {
                    unit: parse_unit(arg(1)?)?,
                    at: parse_point(arg(2)?)?,
                }
            }
            "edge" => {
                none_after(2)?;
                Action::Edge {
                    edge: parse_edge(arg(1)?)?,
                }
            }
            "place" => {
                none_after(2)?;
                Action::Place {
                    target: parse_unit(arg(1)?)?,
                }
            }
            other => {
                return Err(format!(
                    "{other:?} is not an action: move, shoot, melee, recover, hide, collect, \
                     cheer, breakin, end, pick, done, reroll, keep, add, push, pass, take, \
                     stay, place, edge, deploy, pickup"
                ));
            }
        };
        Ok(a)
    }
}

/// A table edge by name (`near`, `left`, `far`, `right`).
fn parse_edge(name: &str) -> Result<u8, String> {
    EDGE_NAMES
        .iter()
        .position(|e| e.eq_ignore_ascii_case(name))
        .map(|e| e as u8)
        .ok_or_else(|| format!("{name:?} is not a table edge: edge near, left, far or right"))
}

/// An action's words, and its text for the errors.
struct Words<'a> {
    s: &'a str,
    w: Vec<&'a str>,
}

impl<'a> Words<'a> {
    /// The `i`th word, or what is missing.
    fn arg(&self, i: usize) -> Result<&'a str, String> {
        self.w
            .get(i)
            .copied()
            .ok_or_else(|| format!("{:?}: something is missing", self.s))
    }

    /// Nothing after the first `n` words.
    fn none_after(&self, n: usize) -> Result<(), String> {
        if self.w.len() > n {
            Err(format!("{:?}: unexpected {:?}", self.s, self.w[n]))
        } else {
            Ok(())
        }
    }
}

/// `move u2 3.25,1.5 [load u1,u3] [drop u1@x,y]…` (SDE-MOVE, SDE-T).
fn parse_move(words: &Words<'_>) -> Result<Action, String> {
    let unit = parse_unit(words.arg(1)?)?;
    let (to, used) = parse_target(&words.w[2..])?;
    let mut load = Vec::new();
    let mut drop = Vec::new();
    let mut i = 2 + used;
    while i < words.w.len() {
        match words.w[i] {
            "load" => {
                for x in words.arg(i + 1)?.split(',') {
                    load.push(parse_unit(x)?);
                }
            }
            "drop" => {
                let (x, p) = words
                    .arg(i + 1)?
                    .split_once('@')
                    .ok_or_else(|| "drop u3@x,y".to_string())?;
                drop.push(Drop {
                    unit: parse_unit(x)?,
                    at: parse_point(p)?,
                });
            }
            other => return Err(format!("{:?}: unexpected {other:?}", words.s)),
        }
        i += 2;
    }
    Ok(Action::Move {
        unit,
        to,
        cargo: Cargo::new(load, drop),
    })
}

/// `shoot u1 u4[:dice] … [from x,y]` (SDE-SHOOT, SDE-S, SDE-B).
fn parse_shoot(words: &Words<'_>) -> Result<Action, String> {
    let unit = parse_unit(words.arg(1)?)?;
    let mut aims = Vec::new();
    let mut from = None;
    let mut i = 2;
    while i < words.w.len() {
        if words.w[i] == "from" {
            from = Some(parse_point(words.arg(i + 1)?)?);
            i += 2;
            continue;
        }
        let (t, d) = match words.w[i].split_once(':') {
            Some((t, d)) => (
                t,
                d.parse::<u8>()
                    .map_err(|_| format!("{:?}: dice after the colon", words.w[i]))?,
            ),
            None => (words.w[i], 0),
        };
        if d == 0 && words.w[i].contains(':') {
            return Err(format!("{:?}: a share of at least 1 die", words.w[i]));
        }
        aims.push(Aim {
            target: parse_unit(t)?,
            dice: d,
        });
        i += 1;
    }
    if aims.is_empty() {
        return Err(format!("{:?}: shoot at whom?", words.s));
    }
    Ok(Action::Shoot {
        unit,
        aims: Aims::from_vec(aims),
        from,
    })
}
