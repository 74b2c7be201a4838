//! Where things go on the open table (SDE-MOVE, SDE-KB1, SDE-KB3): lengths in sticks,
//! points, the sixteen compass winds, and a move's or knockback's target. Points are written
//! in sticks (`3.25,1.5`, to 1/2400 stick: the nearest tick) and printed with up to six
//! decimals, which reads back as the same tick.

use crate::data::STICK;
use battlemat_geom::table::{Point, Ticks};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The sixteen compass winds and their vectors: the open table's, shared with SERM.
pub use battlemat_geom::table::{WIND_VECTORS, WINDS};

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
