//! The AIs' evaluation while an attack is under way (D20-3, D20-3D, D20-3H): an attack's
//! damage comes several steps after the decision, so a look-ahead that stops at the
//! defender's choice must already see what the attack is expected to do.

mod common;

use battlemat_core::Seat;
use battlemat_core::testing::{act, roll};
use battlemat_ms_d20::state::Phase;
use common::*;

const FED: Seat = 0;

#[test]
fn d20_3d_an_attack_awaiting_the_defence_counts_at_its_expected_damage() {
    // The GM's beam rifle at the Zaku: at the Zaku's choice (D20-3D) nothing is hurt yet,
    // but the Federation's value has risen by what the strike is expected to do against
    // the Zaku's best defence; a higher strike (harder to dodge) is worth more.
    let before = started(&["gm@c3"], &["zaku@c6"], &[15, 5]);
    assert_eq!(turn_of(&before), 0);
    let value_at = |face: u32| {
        let mut g = before.clone();
        act(&mut g, "attack u1 w0");
        strike(&mut g, face);
        assert!(
            matches!(g.now.phase, Phase::Defend { .. }),
            "{:?}",
            g.now.phase
        );
        assert_eq!(
            g.unit(1).sections,
            before.unit(1).sections,
            "nothing hurt yet"
        );
        let (target, loss) = g.pending_loss().expect("an attack under way");
        assert_eq!(target, 1);
        assert!(loss > 0.0);
        g.evaluation(FED)
    };
    let (low, high) = (value_at(6), value_at(17));
    assert!(
        low > before.evaluation(FED),
        "{low} vs {}",
        before.evaluation(FED)
    );
    assert!(high > low, "a strike of 19 ({high}) beats one of 8 ({low})");
    // Zero-sum between the sides, as everywhere else.
    let mut g = before.clone();
    act(&mut g, "attack u1 w0");
    strike(&mut g, 12);
    assert!((g.evaluation(FED) + g.evaluation(1)).abs() < 1e-9);
}

#[test]
fn d20_3d_a_critical_counts_double_and_a_dodge_chosen_counts_its_chance() {
    // D20-3: a natural 20 is a critical (double damage) that only a natural 20 defends.
    let before = started(&["gm@c3"], &["zaku@c6"], &[15, 5]);
    let loss_at = |face: u32| {
        let mut g = before.clone();
        act(&mut g, "attack u1 w0");
        strike(&mut g, face);
        g.pending_loss().unwrap().1
    };
    assert!(loss_at(20) > loss_at(19));
    // Once the defender has chosen a dodge, its die decides: the value is the dodge's,
    // at least what the best choice would have been.
    let mut g = before.clone();
    act(&mut g, "attack u1 w0");
    strike(&mut g, 14);
    let best = g.pending_loss().unwrap().1;
    act(&mut g, "dodge");
    assert!(matches!(g.now.phase, Phase::DefenceDie { .. }));
    assert!(g.pending_loss().unwrap().1 >= best - 1e-12);
}

#[test]
fn d20_3h_damage_dice_rolled_so_far_count() {
    // D20-3H c): the damage dice one at a time; a high first die means more damage to come.
    // The Zaku's machine gun (projectile, 2d4x10: no save) at the GM, taken.
    let before = started(&["gm@c3"], &["zaku@c6"], &[5, 15]);
    assert_eq!(turn_of(&before), 1);
    let loss_after_first = |first: u32| {
        let mut g = before.clone();
        act(&mut g, "attack u0 w0");
        strike(&mut g, 15);
        act(&mut g, "take");
        assert!(
            matches!(g.now.phase, Phase::Damage { .. }),
            "{:?}",
            g.now.phase
        );
        let whole = g.pending_loss().unwrap().1;
        roll(&mut g, &[first]);
        (whole, g.pending_loss().unwrap().1)
    };
    let (whole, low) = loss_after_first(1);
    let (_, high) = loss_after_first(4);
    assert!(low < whole && whole < high, "{low} < {whole} < {high}");
}

#[test]
fn d20_6b_a_beam_save_still_to_roll_counts_its_chance_of_losing_the_section() {
    // D20-6B: "if failed the beam destroys the section hit regardless of remaining
    // durability". Before the save the loss is more than the damage dice alone; a failed
    // save on the main body takes the whole combatant.
    let before = started(&["gm@c3"], &["zaku@c6"], &[15, 5]);
    let mut g = before.clone();
    act(&mut g, "attack u1 w0");
    strike(&mut g, 15);
    act(&mut g, "take");
    assert!(matches!(g.now.phase, Phase::BeamSave { .. }));
    let with_save = g.pending_loss().unwrap().1;
    roll(&mut g, &[20]); // saved
    let dice_only = g.pending_loss().unwrap().1;
    assert!(with_save > dice_only, "{with_save} > {dice_only}");
}
