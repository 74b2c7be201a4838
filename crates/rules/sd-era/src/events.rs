//! Actions and events: plain data with a stable JSON form and a short text form that
//! players type (`move u2 3.25,1.5`, `shoot u1 u4`, `push ne`).
//!
//! Points are written in sticks (`3.25,1.5`, to 1/2400 stick: the nearest tick) and printed
//! with up to six decimals, which reads back as the same tick.

use crate::data::STICK;
use crate::state::UnitId;
use battlemat_geom::table::{Point, Ticks};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// "u3".
pub fn unit_label(u: UnitId) -> String {
    format!("u{u}")
}

/// The sixteen compass winds, north (the far edge) first, clockwise.
pub const WINDS: [&str; 16] = [
    "n", "nne", "ne", "ene", "e", "ese", "se", "sse", "s", "ssw", "sw", "wsw", "w", "wnw", "nw",
    "nnw",
];

/// Each wind as a vector of length 10,000 (rounded): (east, north).
pub const WIND_VECTORS: [(Ticks, Ticks); 16] = [
    (0, 10000),
    (3827, 9239),
    (7071, 7071),
    (9239, 3827),
    (10000, 0),
    (9239, -3827),
    (7071, -7071),
    (3827, -9239),
    (0, -10000),
    (-3827, -9239),
    (-7071, -7071),
    (-9239, -3827),
    (-10000, 0),
    (-9239, 3827),
    (-7071, 7071),
    (-3827, 9239),
];

/// Where a move or knockback goes: a point, or a wind and a distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// To this point (a move), or toward it (a knockback).
    Point(Point),
    /// This far along a wind (0 = north, clockwise in sixteenths).
    Heading { wind: u8, dist: Ticks },
}

impl Target {
    /// The point a unit at `from` ends at (for a heading, `dist` along the wind), or, for
    /// a direction, a point along it.
    pub fn resolve(self, from: Point) -> Point {
        match self {
            Target::Point(p) => p,
            Target::Heading { wind, dist } => {
                let (dx, dy) = WIND_VECTORS[wind as usize % 16];
                battlemat_geom::table::toward(from, Point::new(from.x + dx, from.y + dy), dist)
            }
        }
    }
}

/// A length in ticks as sticks: up to six decimals, reading back as the same tick.
pub fn sticks(t: Ticks) -> String {
    let neg = t < 0;
    let a = t.unsigned_abs();
    let whole = a / STICK as u64;
    let frac = a % STICK as u64;
    let mut s = format!("{}{whole}", if neg { "-" } else { "" });
    if frac != 0 {
        // Six decimals, rounded to nearest.
        let micro = (frac * 1_000_000 + STICK as u64 / 2) / STICK as u64;
        let d = format!("{micro:06}");
        s.push('.');
        s.push_str(d.trim_end_matches('0'));
    }
    s
}

/// Sticks as ticks, to the nearest tick.
pub fn parse_sticks(s: &str) -> Result<Ticks, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a length in sticks (like 1 or 0.5)"))?;
    let t = (v * STICK as f64).round();
    if !t.is_finite() || t.abs() > battlemat_geom::table::MAX_COORD as f64 {
        return Err(format!("{s:?} is too far"));
    }
    Ok(t as Ticks)
}

pub fn point_text(p: Point) -> String {
    format!("{},{}", sticks(p.x), sticks(p.y))
}

pub fn parse_point(s: &str) -> Result<Point, String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("{s:?} is not a point: write x,y in sticks (3.25,1.5)"))?;
    Ok(Point::new(parse_sticks(x)?, parse_sticks(y)?))
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Point(p) => f.write_str(&point_text(*p)),
            Target::Heading { wind, dist } => {
                write!(f, "{} {}", WINDS[*wind as usize % 16], sticks(*dist))
            }
        }
    }
}

/// One share of an attack: a target and how many of the dice (0: all of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Aim {
    pub target: UnitId,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dice: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A shot's targets and shares: one (the usual shot, kept inline, so listing shots allocates
/// nothing), or several (SPRAY). Reads as a slice; its JSON is a list either way.
#[derive(Clone, Debug)]
pub enum Aims {
    One(Aim),
    Many(Box<[Aim]>),
}

impl Aims {
    /// From a list: one target inline, several boxed.
    pub fn from_vec(v: Vec<Aim>) -> Aims {
        match v.as_slice() {
            [one] => Aims::One(*one),
            _ => Aims::Many(v.into()),
        }
    }
}

impl std::ops::Deref for Aims {
    type Target = [Aim];
    fn deref(&self) -> &[Aim] {
        match self {
            Aims::One(a) => std::slice::from_ref(a),
            Aims::Many(b) => b,
        }
    }
}

impl PartialEq for Aims {
    fn eq(&self, o: &Aims) -> bool {
        **self == **o
    }
}
impl Eq for Aims {}
impl std::hash::Hash for Aims {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (**self).hash(h)
    }
}

impl Serialize for Aims {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Aims {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Aims, D::Error> {
        Ok(Aims::from_vec(Vec::<Aim>::deserialize(d)?))
    }
}

/// A transport's passenger set down at the end of its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Drop {
    pub unit: UnitId,
    pub at: Point,
}

/// What a transport loads before its move and sets down after it (SDE-T); never both
/// empty (no cargo is `None`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cargo {
    pub load: Box<[UnitId]>,
    pub drop: Box<[Drop]>,
}

impl Cargo {
    /// `None` when there is nothing to carry.
    pub fn new(load: Vec<UnitId>, drop: Vec<Drop>) -> Option<Box<Cargo>> {
        (!load.is_empty() || !drop.is_empty()).then(|| {
            Box::new(Cargo {
                load: load.into(),
                drop: drop.into(),
            })
        })
    }

    /// The units loaded and the units set down (empty for no cargo).
    pub fn parts(c: &Option<Box<Cargo>>) -> (&[UnitId], &[Drop]) {
        match c {
            Some(c) => (&c.load, &c.drop),
            None => (&[], &[]),
        }
    }
}

/// `Action::Move` as JSON: `{"unit": 2, "to": …, "load": [..], "drop": [..]}`, the lists
/// left out when empty.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveJson {
    unit: UnitId,
    to: Target,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    load: Vec<UnitId>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    drop: Vec<Drop>,
}

impl MoveJson {
    fn write<S: serde::Serializer>(
        unit: &UnitId,
        to: &Target,
        cargo: &Option<Box<Cargo>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let (load, drop) = Cargo::parts(cargo);
        MoveJson {
            unit: *unit,
            to: *to,
            load: load.to_vec(),
            drop: drop.to_vec(),
        }
        .serialize(s)
    }

    #[allow(clippy::type_complexity)]
    fn read<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<(UnitId, Target, Option<Box<Cargo>>), D::Error> {
        let m = MoveJson::deserialize(d)?;
        Ok((m.unit, m.to, Cargo::new(m.load, m.drop)))
    }
}

/// EGG HUNT: what an egg held (SDE-EGG.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EggContent {
    /// A cheap unit of this seat's army.
    Unit {
        seat: u8,
    },
    Bomb,
    Candy,
    Credits,
    Boss,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// MOVE (SDE-MOVE); a transport may load units next to it first and drop them next to
    /// it after (SDE-T).
    // One optional box for what a transport carries: a move is listed dozens of times a
    // decision and almost none carry anything, so the action stays small. The JSON keeps
    // `load` and `drop` as plain optional lists (see `MoveJson`).
    #[serde(
        serialize_with = "MoveJson::write",
        deserialize_with = "MoveJson::read"
    )]
    Move {
        unit: UnitId,
        to: Target,
        cargo: Option<Box<Cargo>>,
    },
    /// A shooting attack (SDE-SHOOT): one target, or SPRAY's shares (SDE-S); BITS may shoot
    /// from a point within 1 stick (SDE-B).
    Shoot {
        unit: UnitId,
        aims: Aims,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<Point>,
    },
    /// A melee attack on a unit next to it (SDE-MELEE): free right after a charge.
    Melee {
        unit: UnitId,
        target: UnitId,
    },
    Recover {
        unit: UnitId,
    },
    Hide {
        unit: UnitId,
    },
    /// KING OF THE HILL: take a token.
    Collect {
        unit: UnitId,
    },
    /// RING BATTLE: a unit outside places a cheer die by a unit in the ring.
    Cheer {
        unit: UnitId,
        target: UnitId,
    },
    /// RING BATTLE: a unit outside tries to break in.
    BreakIn {
        unit: UnitId,
    },
    /// End the turn (or the end-of-turn free moves).
    End,
    /// Draft: take this unit from the chart.
    Pick {
        kind: String,
    },
    /// Done drafting, or done hiding at the start.
    Done,
    /// VETERAN: re-roll one die showing this face.
    Reroll {
        face: u8,
    },
    /// VETERAN: keep the dice.
    Keep,
    /// RING BATTLE: add this many of the unit's cheer dice to its roll.
    AddCheer {
        dice: u8,
    },
    /// Melee knockback's direction (SDE-KB1).
    Push {
        toward: Target,
    },
    /// Decline an optional knockback.
    Pass,
    /// KING OF THE HILL: take the hill, or stay.
    Take,
    Stay,
    /// RING BATTLE: place an earned cheer die.
    Place {
        target: UnitId,
    },
    /// RING BATTLE: put a unit on the table before play, in the ring or outside it near the
    /// player's table edge.
    Deploy {
        unit: UnitId,
        at: Point,
    },
    /// SAFARI: pick up a stunned animal next to the unit.
    PickUp {
        unit: UnitId,
        animal: UnitId,
    },
    /// CONVOY: draw and place this many enemy units (none, one or two).
    Draw {
        count: u8,
    },
    /// CONVOY: give up this captured enemy unit (back to the pool).
    GiveUp {
        unit: UnitId,
    },
}

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
        let w: Vec<&str> = s.split_whitespace().collect();
        let arg = |i: usize| -> Result<&str, String> {
            w.get(i)
                .copied()
                .ok_or_else(|| format!("{s:?}: something is missing"))
        };
        let none_after = |n: usize| -> Result<(), String> {
            if w.len() > n {
                Err(format!("{s:?}: unexpected {:?}", w[n]))
            } else {
                Ok(())
            }
        };
        let a = match w.first().copied().unwrap_or("") {
            "move" | "m" => {
                let unit = parse_unit(arg(1)?)?;
                let (to, used) = parse_target(&w[2..])?;
                let mut load = Vec::new();
                let mut drop = Vec::new();
                let mut i = 2 + used;
                while i < w.len() {
                    match w[i] {
                        "load" => {
                            for x in arg(i + 1)?.split(',') {
                                load.push(parse_unit(x)?);
                            }
                        }
                        "drop" => {
                            let (x, p) = arg(i + 1)?
                                .split_once('@')
                                .ok_or_else(|| "drop u3@x,y".to_string())?;
                            drop.push(Drop {
                                unit: parse_unit(x)?,
                                at: parse_point(p)?,
                            });
                        }
                        other => return Err(format!("{s:?}: unexpected {other:?}")),
                    }
                    i += 2;
                }
                Action::Move {
                    unit,
                    to,
                    cargo: Cargo::new(load, drop),
                }
            }
            "shoot" | "s" => {
                let unit = parse_unit(arg(1)?)?;
                let mut aims = Vec::new();
                let mut from = None;
                let mut i = 2;
                while i < w.len() {
                    if w[i] == "from" {
                        from = Some(parse_point(arg(i + 1)?)?);
                        i += 2;
                        continue;
                    }
                    let (t, d) = match w[i].split_once(':') {
                        Some((t, d)) => (
                            t,
                            d.parse::<u8>()
                                .map_err(|_| format!("{:?}: dice after the colon", w[i]))?,
                        ),
                        None => (w[i], 0),
                    };
                    if d == 0 && w[i].contains(':') {
                        return Err(format!("{:?}: a share of at least 1 die", w[i]));
                    }
                    aims.push(Aim {
                        target: parse_unit(t)?,
                        dice: d,
                    });
                    i += 1;
                }
                if aims.is_empty() {
                    return Err(format!("{s:?}: shoot at whom?"));
                }
                Action::Shoot {
                    unit,
                    aims: Aims::from_vec(aims),
                    from,
                }
            }
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
                     stay, place, deploy, pickup"
                ));
            }
        };
        Ok(a)
    }
}

/// Who won an opposed roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    Attacker,
    Defender,
    Tie,
}

/// What happened, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    Picked {
        seat: u8,
        unit: UnitId,
        name: String,
    },
    Hid {
        unit: UnitId,
    },
    Unhidden {
        unit: UnitId,
    },
    TurnOrder {
        first: u8,
    },
    TurnBegins {
        seat: u8,
        round: u16,
    },
    Moved {
        unit: UnitId,
        from: Point,
        to: Point,
    },
    Loaded {
        transport: UnitId,
        unit: UnitId,
    },
    Dropped {
        transport: UnitId,
        unit: UnitId,
        at: Point,
    },
    Attacks {
        unit: Option<UnitId>,
        target: UnitId,
        melee: bool,
        att_dice: u8,
        def_dice: u8,
    },
    Rerolled {
        unit: Option<UnitId>,
        face: u8,
    },
    Cheered {
        unit: UnitId,
        dice: u8,
    },
    Fight {
        target: UnitId,
        winner: Winner,
        overkill: u8,
        att: [u8; 6],
        def: [u8; 6],
    },
    Knocked {
        unit: UnitId,
        from: Point,
        to: Point,
    },
    Bounced {
        ball: UnitId,
    },
    Stunned {
        unit: UnitId,
    },
    Recovered {
        unit: UnitId,
    },
    Token {
        seat: u8,
        tokens: u8,
    },
    TokenLost {
        seat: u8,
        tokens: u8,
    },
    Goal {
        seat: Option<u8>,
        ball: UnitId,
        goal: u8,
    },
    ReturnedToCentre {
        ball: UnitId,
    },
    BombGrows {
        bomb: UnitId,
        dice: u8,
    },
    BombExplodes {
        bomb: UnitId,
        hit: Vec<UnitId>,
    },
    CheerDie {
        unit: UnitId,
        cheer: u8,
    },
    BrokeIn {
        unit: UnitId,
    },
    FailedBreakIn {
        unit: UnitId,
    },
    KnockedOut {
        unit: UnitId,
        at: Point,
    },
    Deployed {
        unit: UnitId,
        at: Point,
        outside: bool,
    },
    PickedUp {
        unit: UnitId,
        animal: UnitId,
    },
    AnimalDropped {
        animal: UnitId,
        at: Point,
    },
    Captured {
        seat: u8,
        animal: UnitId,
        points: u8,
    },
    AnimalRecovers {
        animal: UnitId,
    },
    AnimalCharges {
        animal: UnitId,
        target: UnitId,
    },
    AnimalRunsAway {
        animal: UnitId,
        to: Point,
    },
    /// BATTLE ZONES: a zone entered for the first time shows its card.
    ZoneCardDrawn {
        zone: u8,
        card: crate::state::ZoneCard,
    },
    /// BATTLE ZONES: a blip touched by `unit` turns out to be `kind`.
    BlipRevealed {
        blip: UnitId,
        kind: crate::state::BlipKind,
        unit: UnitId,
    },
    /// BATTLE ZONES: an enemy or target beaten; `by` earns the blip.
    Defeated {
        unit: UnitId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<u8>,
    },
    /// BATTLE ZONES: a zone is cleared: units may move on into the next.
    ZoneCleared {
        zone: u8,
    },
    /// CONVOY: the ship moves forward.
    ShipMoves {
        ship: UnitId,
        to: Point,
    },
    /// CONVOY: an enemy unit drawn from the pool and placed behind an asteroid.
    EnemyArrives {
        unit: UnitId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<u8>,
    },
    /// CONVOY: a player captures a stunned enemy unit (its value in points).
    EnemyCaptured {
        seat: u8,
        unit: UnitId,
        points: u8,
    },
    /// CONVOY: the ship is damaged.
    ShipDamaged,
    /// CONVOY: a player gives a captured unit back to the pool.
    GaveUp {
        seat: u8,
        unit: UnitId,
    },
    /// CONVOY: the players' order this round.
    PlayerOrder {
        order: Vec<u8>,
    },
    /// CONVOY: a stunned enemy recovers instead of acting.
    EnemyRecovers {
        unit: UnitId,
    },
    /// EGG HUNT: an egg breaks open and shows what it held.
    EggOpens {
        egg: UnitId,
        content: EggContent,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<u8>,
    },
    /// EGG HUNT: the unit out of an egg (it joins its army on its owner's next turn).
    Hatched {
        unit: UnitId,
    },
    /// EGG HUNT: credits picked up; the player's credits now.
    CreditsTaken {
        unit: UnitId,
        credits: UnitId,
        tokens: u8,
    },
    /// EGG HUNT: the boss is stunned and removed; `by` earns 3 credits.
    BossBeaten {
        boss: UnitId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<u8>,
    },
    TookHill {
        unit: UnitId,
    },
    TurnEnds {
        seat: u8,
    },
    Resigned {
        seat: u8,
    },
    GameOver {
        reason: String,
    },
}
