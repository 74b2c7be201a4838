//! Small scenarios for the rule tests: counters put on hexes of a "1234" map, in the tests'
//! piece notation (`GM@0710:S` — a GM with a Student pilot in hex 0710; no `@`: the counter
//! enters from its side's edge, the Federation's the top, Zeon's the bottom).
#![allow(dead_code)]

use battlemat_abaoaqu::data::{Catalog, Edge, Force, LeadOff, Scenario, Setup, SideSpec};
use battlemat_abaoaqu::state::{Attack, Declaring, Phase};
use battlemat_abaoaqu::{AbaoAqu, Options};
use battlemat_core::Ruleset;
use battlemat_core::testing::{act, piece};
use battlemat_core::{GameOptions, Seating};
use std::collections::BTreeMap;

pub fn options(pairs: &[(&str, &str)]) -> Options {
    let map: BTreeMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Options::from_pairs(&map).unwrap()
}

fn roster(p: &battlemat_core::testing::Piece) -> String {
    match p.tag {
        Some(t) => format!("{}({t})", p.kind),
        None => p.kind.to_string(),
    }
}

fn side(name: &str, pieces: &[&str], edge: Edge, hold: Option<u16>, at_limit: bool) -> SideSpec {
    let placed: Vec<String> = pieces
        .iter()
        .map(|s| piece(s))
        .filter(|p| p.at.is_some())
        .map(|p| roster(&p))
        .collect();
    let entering: Vec<String> = pieces
        .iter()
        .map(|s| piece(s))
        .filter(|p| p.at.is_none())
        .map(|p| roster(&p))
        .collect();
    let mut forces = Vec::new();
    if !placed.is_empty() {
        forces.push(Force {
            name: "placed".into(),
            units: placed,
            enter: None,
            turn: None,
            turn_by_die: false,
            deploy: None,
            deploy_rows: Some((1, 21)),
        });
    }
    if !entering.is_empty() {
        forces.push(Force {
            name: "entering".into(),
            units: entering,
            enter: Some(edge),
            turn: Some(1),
            turn_by_die: false,
            deploy: None,
            deploy_rows: None,
        });
    }
    SideSpec {
        name: name.into(),
        hold,
        wins_at_limit: at_limit,
        forces,
    }
}

/// The setup: the Federation's pieces, then Zeon's; the Federation leads off and holds the
/// fortress with `hold` units (S1's condition) when given.
pub fn setup_with(fed: &[&str], zeon: &[&str], hold: Option<u16>, opts: &[(&str, &str)]) -> Setup {
    let cat = Catalog::builtin();
    let scenario = Scenario {
        id: "test".into(),
        number: 0,
        name: "Test".into(),
        seats: (2, 6),
        layout: "1234".into(),
        lead_off: LeadOff::Federation,
        ours: true,
        summary: String::new(),
        sides: vec![
            side("Federation", fed, Edge::Top, hold, false),
            side("Zeon", zeon, Edge::Bottom, None, true),
        ],
    };
    Setup {
        units: cat.units.clone(),
        tables: cat.tables.clone(),
        scenario,
        options: options(opts),
        seating: Seating::one_per_side(2),
    }
}

/// A game with the placed counters set up where the pieces say (unit numbers: the
/// Federation's placed pieces, its entering ones, then Zeon's the same way), at the
/// Federation's first movement.
pub fn game(fed: &[&str], zeon: &[&str]) -> AbaoAqu {
    game_with(fed, zeon, None, &[])
}

pub fn game_with(fed: &[&str], zeon: &[&str], hold: Option<u16>, opts: &[(&str, &str)]) -> AbaoAqu {
    let mut g = AbaoAqu::new_game(&setup_with(fed, zeon, hold, opts)).unwrap();
    let hexes: Vec<&str> = fed.iter().chain(zeon).filter_map(|s| piece(s).at).collect();
    // Placed pieces come first in each side's roster: the same order as `hexes` once the
    // entering ones are skipped.
    let mut k = 0;
    while let Phase::Deploy { .. } = g.now.phase {
        act(&mut g, &format!("place {}", hexes[k]));
        k += 1;
    }
    g
}

/// Every remaining counter of the deciding side holds (the movement phase ends).
pub fn skip_moves(g: &mut AbaoAqu) {
    while let Phase::Move { .. } = g.now.phase {
        act(g, "done");
    }
}

/// The deciding seat is done attacking.
pub fn done(g: &mut AbaoAqu) {
    act(g, "done");
}

/// Declare an attack: from `from` with `with`, at `target`, aimed `aim` ("shoot u3",
/// "shoot ms", "close u3"); the attack ready to fire.
pub fn declare(g: &mut AbaoAqu, from: &str, with: &[u16], target: &str, aim: &str) -> Attack {
    act(g, &format!("from {from}"));
    for u in with {
        act(g, &format!("with u{u}"));
    }
    act(g, &format!("target {target}"));
    act(g, aim);
    match &g.now.phase {
        Phase::Combat {
            declaring: Declaring::Ready { attack },
            ..
        } => attack.clone(),
        p => panic!("not ready to fire: {p:?}"),
    }
}

/// The column an attack is fought on, by name ("1:1"), or "none".
pub fn column(a: &Attack) -> &'static str {
    match a.column {
        Some(c) => battlemat_abaoaqu::combat::COLUMNS[c as usize],
        None => "none",
    }
}
