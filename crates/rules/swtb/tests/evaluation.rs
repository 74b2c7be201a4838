//! The evaluation the AIs use (`Game::evaluate`, `src/ai.rs`): worth left, cover, fortified
//! positions and the scenarios' goals. Each test compares the same armies with one unit in
//! two places, the distances between the sides kept equal, so the difference is the
//! position's alone.

mod common;

use battlemat_core::{Game, Ruleset};
use battlemat_swtb::Swtb;
use common::setup_sized;

fn game(extra: &str, a: &[&str], b: &[&str], opts: &[(&str, &str)]) -> Swtb {
    Swtb::new_game(&setup_sized(8, 8, 8, extra, a, b, opts)).unwrap_or_else(|e| panic!("{e}"))
}

// SWTB-4: "Blaster armed figures … cannot shoot through obstructions (other figures, walls,
// hills, vehicles etc.)": a trooper behind a wall from the enemy's only blaster is better
// placed than the same trooper in its line, four cells away in both.
#[test]
fn swtb_4_a_unit_out_of_every_enemy_blasters_line_evaluates_higher() {
    let walls = "walls = [\"d4\"]";
    // The second Rebel trooper keeps the Imperial one in its sights either way.
    let hidden = game(walls, &["trooper@d2", "trooper@h6"], &["trooper@d6"], &[]);
    let open = game(walls, &["trooper@f2", "trooper@h6"], &["trooper@d6"], &[]);
    assert!(hidden.in_cover(0) && !open.in_cover(0));
    assert!(!hidden.in_cover(1) && !hidden.in_cover(2));
    assert!(hidden.evaluate(0) > open.evaluate(0));
    assert!(hidden.evaluate(1) < open.evaluate(1));
    // In contact there is no cover.
    let contact = game(walls, &["trooper@d5", "trooper@h6"], &["trooper@d6"], &[]);
    assert!(!contact.in_cover(0));
}

// SWTB-O7: "Units defending from fortified positions add 1d6 to defense rolls": with the
// option, a trooper on a fortified cell is better placed than beside it; without, the same.
#[test]
fn swtb_o7_a_unit_on_a_fortified_cell_evaluates_higher_with_the_option() {
    let fort = "fortified = [\"d2\"]";
    let on = [("fortified", "true")];
    let inside = game(fort, &["trooper@d2"], &["trooper@d8"], &on);
    let beside = game(fort, &["trooper@c2"], &["trooper@d8"], &on);
    assert!(inside.evaluate(0) > beside.evaluate(0));
    assert!(inside.evaluate(1) < beside.evaluate(1));
    let inside = game(fort, &["trooper@d2"], &["trooper@d8"], &[]);
    let beside = game(fort, &["trooper@c2"], &["trooper@d8"], &[]);
    assert_eq!(inside.evaluate(0), beside.evaluate(0));
}

// Hold goal (ours, docs/rules/swtb.md "Goals"): after the last round the goal side wins with a
// ground unit on the cells and none of the enemy's there. The defender standing on the
// cells is worth something to it, and more as the last round nears; the attacker on the cells
// is worth more to the attacker than beside them.
#[test]
fn scenario_hold_goal_the_evaluation_counts_who_stands_on_the_cells() {
    let goal = "[goal]\nkind = \"hold\"\nside = 0\ncells = [\"d4\", \"e4\"]";
    // The Rebel trooper three cells from the goal, in the Imperial one's line, in both.
    let held = game(goal, &["trooper@d1"], &["trooper@d4"], &[]);
    let left = game(goal, &["trooper@d1"], &["trooper@d6"], &[]);
    assert!(held.evaluate(1) > left.evaluate(1));
    assert!(held.evaluate(0) < left.evaluate(0));
    let mut early = held.clone();
    let mut late = held.clone();
    early.now.round = 1;
    late.now.round = 8;
    assert!(late.evaluate(1) > early.evaluate(1), "the last round nears");
    let taken = game(goal, &["trooper@d4"], &["trooper@d1"], &[]);
    let short = game(goal, &["trooper@d5"], &["trooper@d2"], &[]);
    assert!(taken.evaluate(0) > short.evaluate(0));
}

// Reach goal (ours): the goal side's nearest ground unit to the cells counts; a flier's does
// not (it never reaches them: only ground units end a move there).
#[test]
fn scenario_reach_goal_the_evaluation_counts_the_nearest_ground_unit() {
    let goal = "[goal]\nkind = \"reach\"\nside = 0\ncells = [\"a8\", \"b8\", \"c8\", \"d8\", \"e8\", \"f8\", \"g8\", \"h8\"]";
    let near = game(goal, &["trooper@a6", "trooper@h2"], &["trooper@h4"], &[]);
    let back = game(goal, &["trooper@a2", "trooper@h2"], &["trooper@h4"], &[]);
    assert!(near.evaluate(0) > back.evaluate(0));
    assert!(near.evaluate(1) < back.evaluate(1));
}
