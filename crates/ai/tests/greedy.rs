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
