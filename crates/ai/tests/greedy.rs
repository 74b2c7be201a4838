//! The greedy player: exact where an action's dice are few, sampled (and bounded) where
//! they are many, and the same choice from the same roller.

use battlemat_ai::Greedy;
use battlemat_core::Game;
use battlemat_dice::Roller;
use std::collections::BTreeMap;

/// Decision states along a random game of `scenario`.
fn decisions<G: Game>(scenario: &str, seed: u64) -> Vec<G> {
    let setup = G::setup(scenario, &BTreeMap::new()).unwrap();
    battlemat_ai::random_decisions(G::new_game(&setup).unwrap(), seed, 20_000)
}

/// Where every action's dice fit in the exact limit, the default player's values are the
/// exhaustive player's to the last bit, and it draws nothing from the roller.
#[test]
fn small_trees_are_weighed_exactly() {
    let states = decisions::<battlemat_swtb::Swtb>("outpost", 3);
    let mut exact_decisions = 0;
    for g in states.iter().take(40) {
        let mut r1 = Roller::new(9, 0);
        let (values, stats) = Greedy::default().values(g, &mut r1);
        if stats.sampled_actions > 0 {
            continue;
        }
        exact_decisions += 1;
        let (old, _) = Greedy::exhaustive().values(g, &mut Roller::new(9, 0));
        assert_eq!(values, old);
        assert_eq!(
            r1.position(),
            Roller::new(9, 0).position(),
            "an exact decision drew dice"
        );
    }
    assert!(
        exact_decisions > 10,
        "only {exact_decisions} exact decisions"
    );
}

/// Where dice chain into dice (SD ERA's egg hunt, SERM's exploding pools), the memo never
/// holds more than the exact limit, big trees are sampled, and the same roller gives the
/// same values.
#[test]
fn big_trees_are_sampled_within_the_limit() {
    let greedy = Greedy::default();
    let mut sampled = 0;
    let mut states = decisions::<battlemat_sd_era::SdEra>("egg_hunt", 1);
    states.truncate(60);
    for (i, g) in states.iter().enumerate().step_by(6) {
        let (values, stats) = greedy.values(g, &mut Roller::new(5, i as u64));
        assert!(stats.peak_memo <= greedy.exact_limit, "{stats:?}");
        sampled += stats.sampled_actions;
        let (again, _) = greedy.values(g, &mut Roller::new(5, i as u64));
        assert_eq!(values, again, "not deterministic");
    }
    for g in decisions::<battlemat_serm::Serm>("skirmish", 2)
        .iter()
        .take(40)
        .step_by(8)
    {
        let (_, stats) = greedy.values(g, &mut Roller::new(5, 0));
        assert!(stats.peak_memo <= greedy.exact_limit, "{stats:?}");
        sampled += stats.sampled_actions;
    }
    assert!(sampled > 0, "no action was big enough to sample");
}

/// The tails of exploding dice (SERM's pools: a six rolled again and again) are cut where
/// what reaches them is negligible: every action's value within two millionths of the value
/// with nothing cut, for fewer chance states weighed and, at the default exact limit, fewer
/// dice applied.
#[test]
fn negligible_tails_are_cut_within_two_millionths() {
    let cut = Greedy {
        exact_limit: 20_000,
        samples: 0,
        cut_tails: true,
    };
    let whole = Greedy {
        cut_tails: false,
        ..cut
    };
    let (mut weighed_cut, mut weighed_whole, mut compared) = (0, 0, 0);
    let (mut steps_cut, mut steps_whole) = (0, 0);
    for g in decisions::<battlemat_serm::Serm>("skirmish", 2)
        .iter()
        .take(24)
        .step_by(4)
    {
        let (a, sa) = cut.values(g, &mut Roller::new(5, 0));
        let (b, sb) = whole.values(g, &mut Roller::new(5, 0));
        assert_eq!(a.len(), b.len());
        for ((x, va), (y, vb)) in a.iter().zip(&b) {
            assert_eq!(x, y);
            assert!((va - vb).abs() <= 2e-6, "{x:?}: {va} cut, {vb} whole");
            compared += 1;
        }
        weighed_cut += sa.exact_states;
        weighed_whole += sb.exact_states;
        let default = Greedy::default();
        let untrimmed = Greedy {
            cut_tails: false,
            ..default
        };
        steps_cut += default.values(g, &mut Roller::new(5, 0)).1.steps;
        steps_whole += untrimmed.values(g, &mut Roller::new(5, 0)).1.steps;
    }
    assert!(compared > 20, "only {compared} actions compared");
    assert!(
        weighed_cut * 4 < weighed_whole * 3,
        "{weighed_cut} chance states weighed with the tails cut, {weighed_whole} without"
    );
    assert!(
        steps_cut * 2 < steps_whole,
        "{steps_cut} steps at the default limit with the tails cut, {steps_whole} without"
    );
}
