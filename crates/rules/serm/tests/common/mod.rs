//! Small scenarios for the rule tests: soldiers from the built-in cards at points of a
//! 36 × 36 inch table (in the tests' piece notation, `ranger@10,5` in inches), optional
//! walls, Blue (side 0) first; the first die gives Blue the initiative.
#![allow(dead_code)]

use battlemat_core::Ruleset;
use battlemat_core::testing::{piece, roll};
use battlemat_serm::Serm;
use battlemat_serm::data::{Catalog, ScenarioFile, SideSpec, SoldierSpec, TerrainSpec};

fn soldiers(list: &[&str]) -> Vec<SoldierSpec> {
    list.iter()
        .map(|s| {
            let p = piece(s);
            let (x, y) = p.at.unwrap().split_once(',').unwrap();
            SoldierSpec {
                card: p.kind.to_string(),
                at: [x.parse().unwrap(), y.parse().unwrap()],
            }
        })
        .collect()
}

/// A game: Blue's soldiers, Red's, walls as [x0, y0, x1, y1] boxes in inches; Blue to act.
pub fn game(blue: &[&str], red: &[&str], walls: &[[f64; 4]]) -> Serm {
    game_with(blue, red, walls, &[])
}

/// [`game`] with options (`("turning", "free")`).
pub fn game_with(
    blue: &[&str],
    red: &[&str],
    walls: &[[f64; 4]],
    options: &[(&str, &str)],
) -> Serm {
    let f = ScenarioFile {
        id: "test".into(),
        name: "Test".into(),
        summary: String::new(),
        ours: true,
        width: 36.0,
        depth: 36.0,
        points: None,
        terrain: walls
            .iter()
            .map(|w| TerrainSpec {
                corners: vec![[w[0], w[1]], [w[2], w[1]], [w[2], w[3]], [w[0], w[3]]],
            })
            .collect(),
        sides: vec![
            SideSpec {
                name: "Blue".into(),
                soldiers: soldiers(blue),
            },
            SideSpec {
                name: "Red".into(),
                soldiers: soldiers(red),
            },
        ],
    };
    let cat = Catalog::builtin();
    let setup = battlemat_serm::Setup {
        cards: cat.cards.clone(),
        scenario: f.to_scenario().unwrap(),
        options: battlemat_core::GameOptions::from_pairs(
            &options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
        .unwrap(),
        seating: battlemat_core::Seating::one_per_side(2),
    };
    let mut g = Serm::new_game(&setup).unwrap();
    roll(&mut g, &[1]);
    g
}

pub fn inches(g: &Serm, s: u8) -> (f64, f64) {
    let p = g.soldier(s).at;
    (p.x as f64 / 240.0, p.y as f64 / 240.0)
}
