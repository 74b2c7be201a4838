//! The evaluation the AIs use (`Game::evaluate`): soldiers left, and cover.

mod common;

use battlemat_core::Game;
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
