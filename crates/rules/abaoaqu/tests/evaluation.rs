//! The evaluation the AIs use (`Game::evaluate`): attacks fixed but not yet rolled count at
//! their exact expected results, a declaration under way at its best completion, and a side
//! that must hold the fortress values its counters nearer it; and the game's other hints to
//! a search: which steps continue a move begun (`Game::continues_move`) and how a playout
//! draws (`Game::playout_action`).

mod common;

use battlemat_abaoaqu::AbaoAqu;
use battlemat_abaoaqu::data::{Catalog, Hit};
use battlemat_abaoaqu::state::{Declaring, Phase, Place, Stage};
use battlemat_core::testing::act;
use battlemat_core::{Game, Next};
use common::*;

/// ABQ-3-3: "the damage of the lead-off side's attacks is determined" in the damage check,
/// and ABQ-7-4 the table: a lead-off attack just fired counts at the table's outcomes at
/// its column, a die's six faces, before any die is rolled; the attack ready to fire is
/// worth as much, and more than no attack.
#[test]
fn abq_3_3_a_fired_attack_counts_at_its_expected_result() {
    let mut g = game(&["GM@1110"], &["ZK@1010"]);
    skip_moves(&mut g);
    assert_eq!(g.now.stage, Stage::LeadCombat);
    let before = g.evaluate(0);
    let attack = declare(&mut g, "1110", &[0], "1010", "shoot u1");
    let ready = g.evaluate(0);
    act(&mut g, "fire");
    assert!(matches!(g.next(), Next::Decide(_)), "nothing rolled yet");
    assert_eq!(g.now.pending.len(), 1);
    let fired = g.evaluate(0);
    assert!(fired > before, "{before} -> {fired}");
    assert!((ready - fired).abs() < 1e-12, "{ready} vs {fired}");
    assert!(
        (g.evaluate(1) + fired).abs() < 1e-12,
        "zero-sum: {}",
        g.evaluate(1)
    );
    // The target's chances: one sixth a face, read off the table at the column.
    let odds = g.expected_morale().expect("an attack waits")[1];
    let t = &Catalog::builtin().tables;
    let col = attack.column.expect("an attack with an effect");
    let share = |h: Hit| (1..=6u8).filter(|&d| t.hit(d, col, false) == h).count() as f64 / 6.0;
    assert!((odds[0] - share(Hit::None)).abs() < 1e-12, "{odds:?}");
    assert!((odds[1] - share(Hit::Confused)).abs() < 1e-12, "{odds:?}");
    assert!((odds[2] - share(Hit::Panic)).abs() < 1e-12, "{odds:?}");
    assert!((odds[3] - share(Hit::Destroyed)).abs() < 1e-12, "{odds:?}");
    assert!((odds.iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

/// ABQ-8-1, 8-2 (an attack declared step by step): a declaration begun from a hex with an
/// enemy in reach is worth its best completion; a cancelled one costs its seat until the
/// phase ends (so it is not begun again).
#[test]
fn abq_8_1_a_declaration_under_way_is_worth_its_best_completion() {
    let mut g = game(&["GM@1110"], &["ZK@1010"]);
    skip_moves(&mut g);
    let idle = g.evaluate(0);
    act(&mut g, "from 1110");
    assert!(matches!(
        g.now.phase,
        Phase::Combat {
            declaring: Declaring::Picking { .. },
            ..
        }
    ));
    let picking = g.evaluate(0);
    let mut best = g.clone();
    act(&mut best, "with u0");
    act(&mut best, "target 1010");
    act(&mut best, "shoot u1");
    assert!(picking > idle, "{idle} -> {picking}");
    assert!((picking - best.evaluate(0)).abs() < 1e-12);
    act(&mut g, "cancel");
    assert!(g.evaluate(0) < idle, "a cancelled declaration costs");
}

/// ABQ-8-1 (declarations step by step) and our limit on cancelling (`combat::MAX_CANCELS`):
/// once a seat has given up a declaration in a combat phase, beginning another it would give
/// up (nothing it could fire) is stalling, valued at the floor, below ending the phase; a
/// declaration worth firing is still worth its best completion, and before any cancel an
/// idle declaration costs only a little.
#[test]
fn abq_8_1_a_second_declaration_the_seat_would_give_up_is_stalling() {
    let mut g = game(&["GM@1110", "GM@3010"], &["ZK@1010"]);
    skip_moves(&mut g);
    let Place::Hex(far) = g.now.units[1].at else {
        panic!("u1 on the map")
    };
    let idle_from = |g: &AbaoAqu| {
        let mut h = g.clone();
        h.now.phase = Phase::Combat {
            seat: 0,
            declaring: Declaring::Picking {
                from: far,
                with: vec![],
            },
        };
        h.evaluate(0)
    };
    // No cancel yet: a declaration with nothing to fire costs a little.
    let fresh = idle_from(&g);
    assert!(fresh > -0.9 && fresh < g.evaluate(0), "{fresh}");
    act(&mut g, "from 1110");
    act(&mut g, "cancel");
    assert_eq!(g.now.cancels, 1);
    // After a cancel: the same idle declaration is stalling.
    assert_eq!(idle_from(&g), -1.0);
    let mut done = g.clone();
    act(&mut done, "done");
    assert!(done.evaluate(0) > -1.0);
    // A declaration worth firing is not.
    let idle = g.evaluate(0);
    act(&mut g, "from 1110");
    assert!(g.evaluate(0) > idle, "{idle} -> {}", g.evaluate(0));
}

/// ABQ-S1 ("keep 10 units on the fortress itself at all times for 3 turns"): for the side
/// that must hold the fortress, a counter nearer it (the bottom two rows) is worth more; for
/// a side with nothing to hold, where a counter stands does not matter.
#[test]
fn abq_s1_nearer_the_fortress_evaluates_higher_for_the_side_that_must_hold_it() {
    let at = |hex: &str| game_with(&[&format!("GM@{hex}")], &["ZK@6010"], Some(1), &[]);
    let far = at("1005").evaluate(0);
    let near = at("1015").evaluate(0);
    let on = at("1020").evaluate(0);
    assert!(far < near && near < on, "{far} {near} {on}");
    let free = |hex: &str| game(&[&format!("GM@{hex}")], &["ZK@6010"]).evaluate(0);
    assert_eq!(free("1005"), free("1020"));
}

/// The evaluation is a value for a seat: the two seats' sum to zero in a two-sided game
/// away from the clamp, whatever the phase.
#[test]
fn the_evaluation_is_zero_sum_between_the_sides() {
    let g: AbaoAqu = game(&["GM@1110", "GM@1111"], &["ZK@1010"]);
    assert!((g.evaluate(0) + g.evaluate(1)).abs() < 1e-12);
}

/// ABQ-S1 ("keep 10 units on the fortress itself at all times for 3 turns"): the hold under
/// way counts in the evaluation, for both sides — the holding side's counters on the
/// fortress against the number it needs, and each turn held — so the side that must stop
/// it sees it coming and fights the counters on the fortress before the third turn.
#[test]
fn abq_s1_the_hold_under_way_counts_for_both_sides() {
    use battlemat_abaoaqu::{HOLD_NEAR, HOLD_TURN};
    let need_two = |feds: &[&str]| game_with(feds, &["ZK@6010"], Some(2), &[]);
    let one = need_two(&["GM@1020", "GM@1015"]);
    let two = need_two(&["GM@1020", "GM@1120"]);
    assert_eq!((one.on_fortress(0), two.on_fortress(0)), (1, 2));
    assert!((one.hold_progress(0) - HOLD_NEAR / 2.0).abs() < 1e-12);
    assert!((two.hold_progress(0) - HOLD_NEAR).abs() < 1e-12);
    // Zeon, with nothing to hold, has no progress of its own; the Federation's counts
    // against it.
    assert_eq!(two.hold_progress(1), 0.0);
    assert!(two.evaluate(1) < one.evaluate(1) - HOLD_NEAR / 4.0);
    // Each turn held is worth more again, to the holder and against the other side.
    let mut held = need_two(&["GM@1020", "GM@1120"]);
    held.now.held[0] = 2;
    assert!((held.hold_progress(0) - (HOLD_NEAR + 2.0 * HOLD_TURN)).abs() < 1e-12);
    assert!((two.evaluate(1) - held.evaluate(1) - 2.0 * HOLD_TURN).abs() < 1e-9);
}

/// ABQ-5-5 ("the stack limit does not apply while movements are being completed"), 5-6
/// ("the player's offending units are removed ... decided by the offending player"): while
/// a side moves, a counter it moves into a hex already at the limit counts for nothing, as
/// it will be removed when the movement ends; the side's value waiting to remove is its
/// value after removing the least worth.
#[test]
fn abq_5_6_counters_over_the_stacking_limit_count_for_nothing_while_moving() {
    let mut g: AbaoAqu = game(
        &["GM@1010", "GM@1010", "GM@1010", "GM@1010", "GM@1210"],
        &["ZK@3010"],
    );
    for _ in 0..4 {
        act(&mut g, "hold");
    }
    let mut held = g.clone();
    act(&mut held, "hold");
    assert_eq!(held.now.stage, Stage::LeadCombat);
    act(&mut g, "move 1010");
    assert!(matches!(g.now.phase, Phase::Remove { side: 0, .. }));
    let waiting = g.evaluate(0);
    assert!(
        waiting < held.evaluate(0) - 0.02,
        "{waiting} vs {}",
        held.evaluate(0)
    );
    assert!((g.evaluate(1) + waiting).abs() < 1e-12, "zero-sum");
    act(&mut g, "remove u4");
    assert!(
        (g.evaluate(0) - waiting).abs() < 1e-12,
        "{} vs {waiting}",
        g.evaluate(0)
    );
}

/// ABQ-8-1, 8-2 (an attack declared step by step: the hex attacked from, the attackers, the
/// target hex, the aim, fire): every step after `from` continues one move
/// (`Game::continues_move`), so a search branches where a declaration begins and compares
/// whole attacks; a movement step, the start of a declaration and the phase after `fire`
/// or `cancel` each begin a move.
#[test]
fn abq_8_1_every_step_after_from_continues_the_declaration() {
    let mut g = game(&["GM@1110", "GM@1110"], &["ZK@1010"]);
    assert!(matches!(g.now.phase, Phase::Move { .. }));
    assert!(!g.continues_move(), "a counter's move is a move of its own");
    skip_moves(&mut g);
    assert!(
        !g.continues_move(),
        "choosing where to attack from begins a move"
    );
    act(&mut g, "from 1110");
    assert!(g.continues_move(), "picking the attackers");
    act(&mut g, "with u0");
    assert!(g.continues_move(), "picking more, or the target");
    act(&mut g, "target 1010");
    assert!(g.continues_move(), "aiming");
    act(&mut g, "shoot u2");
    assert!(g.continues_move(), "fire or cancel");
    let mut cancelled = g.clone();
    act(&mut g, "fire");
    assert!(!g.continues_move(), "the next attack, or done");
    act(&mut cancelled, "cancel");
    assert!(!cancelled.continues_move(), "the next attack, or done");
}

/// ABQ-5-2, 5-6: a search's random playout draws a move into a hex with no room for the
/// counter (it would be removed when the movement ends) again, up to
/// `OVERSTACKED_REDRAWS` times, so such moves are drawn far less often than the others —
/// but every listed action can still be drawn.
#[test]
fn abq_5_6_playouts_seldom_move_a_counter_where_it_would_be_removed() {
    use battlemat_abaoaqu::Action;
    use battlemat_core::Roller;
    // Four GMs fill 1010 (ABQ-5-2: four MS units a hex); the fifth, asked next, has no
    // room there.
    let mut g: AbaoAqu = game(
        &["GM@1010", "GM@1010", "GM@1010", "GM@1010", "GM@1210"],
        &["ZK@3010"],
    );
    for _ in 0..4 {
        act(&mut g, "hold");
    }
    let listed = g.legal_actions();
    let full: Action = "move 1010".parse().unwrap();
    assert!(listed.contains(&full), "{listed:?}");
    let mut roller = Roller::new(7, 0);
    let mut buf = Vec::new();
    let draws = 20_000;
    let mut count: std::collections::HashMap<Action, u32> = Default::default();
    for _ in 0..draws {
        let a = g.playout_action(&mut roller, &mut buf).unwrap();
        assert!(listed.contains(&a), "{a} is listed");
        *count.entry(a).or_default() += 1;
    }
    let uniform = draws as f64 / listed.len() as f64;
    let into_full = f64::from(count.get(&full).copied().unwrap_or(0));
    // Drawn only if each of four draws falls on a full hex: about (1/n)^4 of the draws with
    // n actions listed (92 here), so never in practice, though it stays possible.
    assert!(into_full < uniform / 10.0, "{into_full} vs {uniform}");
    let hold = f64::from(count[&Action::Hold]);
    assert!(hold > uniform * 0.9, "{hold} vs {uniform}");
}
