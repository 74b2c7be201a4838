//! Small scenarios for the rule tests: a mission's setup with the armies and terrain a test
//! names, units put where the test says (in sticks), and the turn order settled.
#![allow(dead_code)]

use battlemat_core::Ruleset;
use battlemat_core::testing::{act, roll};
use battlemat_core::{Game, GameOptions};
use battlemat_geom::table::{Outline, Piece, Point};
use battlemat_sd_era::data::{Catalog, STICK, Setup};
use battlemat_sd_era::state::Phase;
use battlemat_sd_era::{Options, SdEra};
use std::collections::BTreeMap;

pub fn ticks(s: f64) -> i64 {
    (s * STICK as f64).round() as i64
}

pub fn pt(x: f64, y: f64) -> Point {
    Point::new(ticks(x), ticks(y))
}

/// A wall: an axis-aligned box from (x0, y0) to (x1, y1), in sticks.
pub fn wall(x0: f64, y0: f64, x1: f64, y1: f64) -> Piece {
    Piece {
        outline: Outline::Polygon {
            corners: vec![pt(x0, y0), pt(x1, y0), pt(x1, y1), pt(x0, y1)],
        },
        height: STICK,
        blocks_sight: true,
        holds: 0,
    }
}

/// A round hill at (x, y) of radius r that holds `holds` units.
pub fn hill(x: f64, y: f64, r: f64, holds: u8) -> Piece {
    Piece {
        outline: Outline::Circle {
            centre: pt(x, y),
            radius: ticks(r),
        },
        height: STICK,
        blocks_sight: true,
        holds,
    }
}

pub fn options(pairs: &[(&str, &str)]) -> Options {
    let map: BTreeMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Options::from_pairs(&map).unwrap()
}

/// The setup of `mission` with these armies (chart keys), terrain and options.
pub fn setup(
    mission: &str,
    armies: &[&[&str]],
    terrain: Vec<Piece>,
    opts: &[(&str, &str)],
) -> Setup {
    let mut s = Catalog::builtin()
        .setup(mission, armies.len() as u8, options(opts))
        .unwrap();
    s.armies = armies
        .iter()
        .map(|a| a.iter().map(|k| k.to_string()).collect())
        .collect();
    s.mission.terrain_names = terrain.iter().map(|_| "piece".to_string()).collect();
    s.mission.table.pieces = terrain;
    s
}

pub fn game(
    mission: &str,
    armies: &[&[&str]],
    terrain: Vec<Piece>,
    opts: &[(&str, &str)],
) -> SdEra {
    SdEra::new_game(&setup(mission, armies, terrain, opts)).unwrap_or_else(|e| panic!("{e}"))
}

/// An open 6 x 6 table (King of the Hill's, with nothing on it: no hill, no tokens).
pub fn open(armies: &[&[&str]]) -> SdEra {
    game("king_of_the_hill", armies, vec![], &[])
}

/// Settle the start: nobody hides, and `first` wins the turn-order roll (sixes against ones).
pub fn begin(g: &mut SdEra, first: u8) {
    loop {
        match g.now.phase.clone() {
            Phase::StartHidden { .. } => {
                act(g, "done");
            }
            Phase::TurnOrder { seat, .. } => {
                roll(g, &[if seat == first { 6 } else { 1 }]);
            }
            Phase::Deploy { .. } => {
                // RING BATTLE: each unit at the first spot offered (in the ring).
                let a = g.legal_actions()[0].to_string();
                act(g, &a);
            }
            Phase::Turn => {
                assert_eq!(g.now.active, first);
                return;
            }
            p => panic!("not at the start: {p:?}"),
        }
    }
}

/// Put a unit at (x, y) sticks.
pub fn put(g: &mut SdEra, u: u8, x: f64, y: f64) {
    g.now.units[u as usize].at = pt(x, y);
}

pub fn at(g: &SdEra, u: u8) -> Point {
    g.now.units[u as usize].at
}

/// Two units facing each other across an open table: u0 (seat 0) at (3, 1), u1 (seat 1)
/// at (3, 2).
pub fn duel(a: &str, d: &str) -> SdEra {
    let mut g = open(&[&[a], &[d]]);
    begin(&mut g, 0);
    put(&mut g, 0, 3.0, 1.0);
    put(&mut g, 1, 3.0, 2.0);
    g
}
