//! Small scenarios for the rule tests: combatants from the built-in data put on cells of a
//! 14 × 14 grid, in the tests' piece notation (`gm@c3`, `zaku@d3:airborne` — kind, cell,
//! terrain), the Federation's first; and drivers for the start of a melee.
#![allow(dead_code)]

use battlemat_core::Ruleset;
use battlemat_core::testing::{act, piece, roll};
use battlemat_core::{Game, Next, Seating};
use battlemat_ms_d20::MsD20;
use battlemat_ms_d20::data::{Catalog, Placed, Scenario, Setup, SideSpec, Terrain};
use battlemat_ms_d20::state::{Phase, UnitId};
use std::collections::BTreeMap;

fn placed(s: &str) -> Placed {
    let p = piece(s);
    Placed {
        kind: p.kind.to_string(),
        at: p.at.expect("a cell").parse().unwrap(),
        terrain: match p.tag {
            None | Some("ground") => Terrain::Ground,
            Some("airborne") => Terrain::Airborne,
            Some("space") => Terrain::Space,
            Some("space_surface") => Terrain::SpaceSurface,
            Some("submerged") => Terrain::Submerged,
            Some(t) => panic!("terrain {t}"),
        },
    }
}

pub fn setup_with(fed: &[&str], zeon: &[&str], opts: &[(&str, &str)]) -> Setup {
    let cat = Catalog::builtin();
    let map: BTreeMap<String, String> = opts
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    use battlemat_core::GameOptions;
    Setup {
        combatants: cat.combatants.clone(),
        scenario: Scenario {
            id: "test".into(),
            name: "Test".into(),
            seats: (2, 4),
            width: 14,
            height: 14,
            summary: String::new(),
            ours: true,
            goal: None,
            sides: vec![
                SideSpec {
                    name: "Federation".into(),
                    combatants: fed.iter().map(|s| placed(s)).collect(),
                },
                SideSpec {
                    name: "Zeon".into(),
                    combatants: zeon.iter().map(|s| placed(s)).collect(),
                },
            ],
        },
        options: battlemat_ms_d20::Options::from_pairs(&map).unwrap(),
        seating: Seating::one_per_side(2),
    }
}

pub fn new(fed: &[&str], zeon: &[&str]) -> MsD20 {
    MsD20::new_game(&setup_with(fed, zeon, &[])).unwrap()
}

/// A game at its first turn: every die of the Newtype saves and initiative from `faces` (in
/// order), everyone fights.
pub fn started(fed: &[&str], zeon: &[&str], faces: &[u32]) -> MsD20 {
    started_with(fed, zeon, faces, &[])
}

/// [`started`] with house-rule options.
pub fn started_with(fed: &[&str], zeon: &[&str], faces: &[u32], opts: &[(&str, &str)]) -> MsD20 {
    let mut g = MsD20::new_game(&setup_with(fed, zeon, opts)).unwrap();
    roll(&mut g, faces);
    while let Phase::FightOrFlight { .. } = g.now.phase {
        act(&mut g, "fight");
    }
    g
}

/// Whose turn it is.
pub fn turn_of(g: &MsD20) -> UnitId {
    match g.now.phase {
        Phase::Turn { unit, .. } => unit,
        ref p => panic!("not a turn: {p:?}"),
    }
}

/// Roll the strike with `face`; the game then waits for the defender (or for more dice).
pub fn strike(g: &mut MsD20, face: u32) {
    assert!(matches!(g.next(), Next::Chance(_)));
    roll(g, &[face]);
}
