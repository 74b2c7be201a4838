//! A search's playout (`Game::playout_action`, `src/playout.rs`): the activation a player
//! would most likely make, and now and then any listed one.

mod common;

use battlemat_core::{Game, Roller};
use battlemat_serm::Action;
use common::*;
use std::collections::HashMap;

/// Draws `n` playout actions from `g` and counts them, checking each is listed.
fn draws(g: &battlemat_serm::Serm, n: usize) -> HashMap<String, usize> {
    let listed = g.legal_actions();
    let mut roller = Roller::new(3, 0);
    let mut buf = Vec::new();
    let mut out = HashMap::new();
    for _ in 0..n {
        let a = g.playout_action(&mut roller, &mut buf).expect("an action");
        assert!(listed.contains(&a), "{a:?} is not listed");
        *out.entry(format!("{a:?}")).or_default() += 1;
    }
    out
}

/// SERM-SHOOT ("A higher Shoot total eliminates the target soldier"; E0 endures with no
/// dice): Blue's Machine Gunner sees Red's Assault Commando (Endure 0: any Shoot total
/// above 0 eliminates it) and Red's Armor Plated (Endure 2). The playout shoots the sure
/// kill four times in five and more; the rest of its draws spread over the listing.
#[test]
fn serm_shoot_a_playout_shoots_the_likeliest_kill() {
    let g = game(
        &["machine_gunner@10,5"],
        &["assault_commando@10,30", "armor_plated@20,30"],
        &[],
    );
    let sure = Action::Shoot {
        soldier: 0,
        target: 1,
    };
    let harder = Action::Shoot {
        soldier: 0,
        target: 2,
    };
    assert!(g.playout_worth(&sure) > g.playout_worth(&harder));
    let n = 2000;
    let seen = draws(&g, n);
    let shot = seen[&format!("{sure:?}")];
    assert!(shot >= n * 4 / 5, "{shot} of {n}: {seen:?}");
    assert!(seen.len() > 3, "other listed actions drawn too: {seen:?}");
}

/// SERM-MOVE ("If an enemy soldier is contacted during a Move, it is automatically killed")
/// and SERM-REACT (only the soldier a Move targets may React to it): a Move toward a soldier
/// is worth the chance the roll reaches it and the target's React does not stop it. Blue's
/// Assault Commando (Move 2) charges Red's Armor Plated (React 0) 3 inches away, which it
/// reaches unless its two dice total under 3; the one 30 inches off it seldom reaches.
#[test]
fn serm_move_a_playout_charges_the_soldier_its_move_likely_reaches() {
    let g = game(
        &["assault_commando@10,5"],
        &["armor_plated@10,9", "armor_plated@30,30"],
        &[],
    );
    let near = g.playout_worth(&Action::Move {
        soldier: 0,
        toward: Some(battlemat_serm::state::Heading::Soldier(1)),
    });
    let far = g.playout_worth(&Action::Move {
        soldier: 0,
        toward: Some(battlemat_serm::state::Heading::Soldier(2)),
    });
    let wind = g.playout_worth(&Action::Move {
        soldier: 0,
        toward: Some(battlemat_serm::state::Heading::Wind(0)),
    });
    // Armor Plated is worth 1.4 soldiers; two dice total 3 or more but for (1,1).
    assert!((near - 1.4 * 35.0 / 36.0).abs() < 1e-9, "{near}");
    assert!(far < near / 10.0, "{far} {near}");
    assert!(wind < near, "{wind} {near}");
}
