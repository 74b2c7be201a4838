//! The evaluation the AIs use (`Game::evaluate`): soldiers left, and cover.

mod common;

use battlemat_core::Game;
use battlemat_core::testing::{act, roll};
use battlemat_serm::state::Phase;
use common::*;

/// SERM-SHOOT ("any enemy the shooter can see may be shot"; terrain blocks the line,
/// rulings.md): a soldier behind a wall, out of every enemy's line, is better placed than
/// the same soldier in the open.
#[test]
fn serm_shoot_a_soldier_in_cover_evaluates_higher() {
    let wall = [[5.0, 15.0, 15.0, 17.0]];
    // A second Blue soldier in the open keeps Red in sight either way.
    let hidden = game(
        &["machine_gunner@10,5", "machine_gunner@30,5"],
        &["machine_gunner@10,30"],
        &wall,
    );
    let open = game(
        &["machine_gunner@25,5", "machine_gunner@30,5"],
        &["machine_gunner@10,30"],
        &wall,
    );
    assert!(!hidden.in_cover(2) && !open.in_cover(2));
    assert!(hidden.in_cover(0) && !open.in_cover(0));
    assert!(hidden.evaluate(0) > open.evaluate(0));
    assert!(hidden.evaluate(1) < open.evaluate(1));
}

/// SERM-REACT ("if the React roll is greater than the Move roll, the moving soldier is
/// stopped"): a Move the other side may still React to is valued at what it is expected to
/// come to, not as if the mover had stayed put. Blue's Armor Plated rolls a Move of 5 north
/// into Red's Machine Gunner (contact kills, SERM-MOVE); Red may React with one die, which
/// beats 5 only on a six.
#[test]
fn serm_react_a_move_awaiting_the_react_counts_at_its_expected_result() {
    let before = game(&["armor_plated@10,5"], &["machine_gunner@10,9"], &[]);
    let mut g = before.clone();
    act(&mut g, "move u0 n");
    roll(&mut g, &[5]);
    assert!(
        matches!(g.now.phase, Phase::ReactChoice { moving } if moving.contact == Some(1)),
        "{:?}",
        g.now.phase
    );
    assert_eq!(g.soldier(0).at, before.soldier(0).at, "not moved yet");
    assert!(
        g.evaluate(0) > before.evaluate(0) + 0.3,
        "the kill to come {} against standing still {}",
        g.evaluate(0),
        before.evaluate(0)
    );
    assert!((g.evaluate(0) + g.evaluate(1)).abs() < 1e-9, "zero-sum");
    // Once Red has chosen to React, its die's chance counts: the kill is still likelier.
    act(&mut g, "react u1");
    assert!(matches!(g.now.phase, Phase::Reacting { .. }));
    assert!(g.evaluate(0) > before.evaluate(0));
}
