//! The rollout search (`MctsConfig::rollout_candidates`, `src/mcts/rollouts.rs`, SERM's
//! `mcts`): greedy's best actions played out round after round on common dice, those clearly
//! behind dropped from the race. Reproducible whatever the thread count, within its budget,
//! legal, and it plays better than chance.

use battlemat_ai::{Budget, Mcts, MctsConfig, Player};
use battlemat_core::{Game, Next, Step};
use battlemat_dice::Roller;
use battlemat_serm::Serm;
use battlemat_swtb::Swtb;
use std::collections::BTreeMap;

#[path = "common/first_decision.rs"]
mod first;
use first::first_decision;

/// Rollouts of `k` candidates with every candidate played out every round (no race).
fn rollouts(budget: Budget, k: u32) -> MctsConfig {
    let mut c = racing(budget, k);
    c.rollout_race = 0.0;
    c
}

/// Rollouts of `k` candidates, racing as SERM's `mcts` does.
fn racing(budget: Budget, k: u32) -> MctsConfig {
    let mut c = MctsConfig::for_game::<Serm>(budget);
    assert!(c.rollout_race > 0.0);
    c.rollout_candidates = k;
    // Exact, so the test can rank the actions as the search's greedy did (the default
    // greedy samples the dice of SERM's big pools).
    c.prior_greedy = battlemat_ai::Greedy::exhaustive();
    c
}

/// Every candidate is played out in every round (the same number of playouts each), the
/// candidates are greedy's best and legal, and an iteration budget is that many playouts.
#[test]
fn each_of_greedys_best_actions_is_played_out_every_round() {
    let g: Serm = first_decision("skirmish");
    let legal = g.legal_actions();
    assert!(legal.len() > 6, "{} actions", legal.len());
    let mut m = Mcts::<Serm>::new(rollouts(Budget::Iterations(600), 6));
    let report = m.search(&g, &mut Roller::new(3, 0)).unwrap();
    assert_eq!(report.actions.len(), 6);
    assert_eq!(report.iterations, 600);
    assert!(report.actions.iter().all(|a| a.visits == 100));
    for a in &report.actions {
        g.check(&a.action).unwrap();
        assert!((-1.0..=1.0).contains(&a.value));
    }
    // The best mean first: that is the choice.
    assert!(report.actions.windows(2).all(|w| w[0].value >= w[1].value));
    let (values, _) = battlemat_ai::Greedy::exhaustive().values(&g, &mut Roller::new(1, 0));
    let mut best: Vec<f64> = values.iter().map(|(_, v)| *v).collect();
    best.sort_by(|a, b| b.total_cmp(a));
    let sixth = best[5];
    for a in &report.actions {
        let v = values.iter().find(|(b, _)| *b == a.action).unwrap().1;
        assert!(
            v >= sixth - 1e-9,
            "{} is not among greedy's six best",
            a.action
        );
    }
}

/// A work budget gives the same search on one thread or four (rounds run in parallel
/// batches, those past the budget dropped), spends at least its budget, and more of it
/// plays more rounds; another seed rolls other dice.
#[test]
fn a_work_budget_is_reproducible_whatever_the_thread_count() {
    let g: Serm = first_decision("skirmish");
    let search = |threads: usize, seed: u64, work: u32| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut m = Mcts::<Serm>::new(rollouts(Budget::Work(work), 4));
            m.search(&g, &mut Roller::new(seed, 0)).unwrap()
        })
    };
    let one = search(1, 42, 3_000_000);
    assert_eq!(one, search(4, 42, 3_000_000));
    // The rounds' work is the budget; greedy's look before them is on top.
    assert!(one.work.units() >= 3_000_000);
    assert!(one.iterations >= 8, "{} playouts", one.iterations);
    assert!(search(1, 42, 6_000_000).iterations > one.iterations);
    assert_ne!(one, search(1, 43, 3_000_000));
    // A time budget chooses too.
    let mut m = Mcts::<Serm>::new(rollouts(Budget::Millis(5), 4));
    assert!(m.choose(&g, &mut Roller::new(1, 0)).is_some());
}

/// A race drops the candidates that fall clearly behind, round for round, and plays the rest
/// on: the leader is played out longest and reported first, every candidate dropped trails
/// it, an iteration budget is still that many playouts, and the search is the same on one
/// thread or four (a batch of rounds never runs past the race's next look).
#[test]
fn a_race_plays_out_the_leaders_longest() {
    let g: Serm = first_decision("skirmish");
    let search = |threads: usize, budget: Budget| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut m = Mcts::<Serm>::new(racing(budget, 6));
            m.search(&g, &mut Roller::new(5, 0)).unwrap()
        })
    };
    let report = search(1, Budget::Iterations(1200));
    assert_eq!(report.actions.len(), 6);
    assert!(report.iterations >= 1200 && report.iterations < 1206);
    let played: u64 = report.actions.iter().map(|a| a.visits).sum();
    assert_eq!(played, report.iterations);
    let most = report.actions[0].visits;
    assert!(report.actions.iter().all(|a| a.visits <= most));
    // Without a race each would have had 200; the race dropped some after its first look.
    assert!(most > 200, "the leader played {most} rounds");
    assert!(
        report.actions.iter().any(|a| a.visits < most),
        "nothing dropped"
    );
    for a in report.actions.iter().filter(|a| a.visits < most) {
        assert!(a.visits >= battlemat_ai::RACE_FROM);
        assert!(
            a.visits % battlemat_ai::RACE_EVERY == 0,
            "{} rounds",
            a.visits
        );
        assert!(
            a.value < report.actions[0].value,
            "{a:?} dropped ahead of the leader"
        );
    }
    // Among the candidates left in the race, the best mean first.
    let left: Vec<_> = report.actions.iter().filter(|a| a.visits == most).collect();
    assert!(left.windows(2).all(|w| w[0].value >= w[1].value));
    assert_eq!(report, search(4, Budget::Iterations(1200)));
    let work = search(1, Budget::Work(3_000_000));
    assert_eq!(work, search(4, Budget::Work(3_000_000)));
    assert!(work.work.units() >= 3_000_000);
}

/// With one candidate the search is greedy's choice.
#[test]
fn one_candidate_is_greedys_best() {
    let g: Serm = first_decision("skirmish");
    let mut m = Mcts::<Serm>::new(rollouts(Budget::Iterations(10), 1));
    let report = m.search(&g, &mut Roller::new(9, 0)).unwrap();
    assert_eq!(report.actions.len(), 1);
    let (values, _) = battlemat_ai::Greedy::exhaustive().values(&g, &mut Roller::new(1, 0));
    let top = values.iter().map(|(_, v)| *v).fold(f64::MIN, f64::max);
    let v = values
        .iter()
        .find(|(a, _)| *a == report.actions[0].action)
        .unwrap()
        .1;
    assert!((v - top).abs() < 1e-9);
}

/// It plays: whole games against the random player, in SERM's skirmish and SWTB's outpost
/// (whose playouts are random), legal to the end, and it wins most.
#[test]
fn the_rollout_search_beats_random() {
    fn games<G: Game>(scenario: &str) -> u32 {
        let setup = G::setup(scenario, &BTreeMap::new()).unwrap();
        let mut won = 0;
        for i in 0..6u64 {
            let me = (i % 2) as u8;
            let mut players: Vec<Player<G>> = (0..2)
                .map(|s| {
                    if s == me {
                        let mut c = MctsConfig::for_game::<G>(Budget::Iterations(120));
                        c.rollout_candidates = 4;
                        Player::with_mcts(c)
                    } else {
                        Player::new("random".parse().unwrap())
                    }
                })
                .collect();
            let mut g = G::new_game(&setup).unwrap();
            let mut r = Roller::new(11, i);
            for _ in 0..20_000 {
                let step = match g.next() {
                    Next::Over => break,
                    Next::Chance(o) => Step::Roll {
                        value: o.roll(&mut r),
                    },
                    Next::Decide(seat) => Step::Act {
                        seat,
                        action: players[seat as usize].choose(&g, &mut r).unwrap(),
                    },
                };
                g.apply(&step).unwrap();
            }
            let result = g.result().expect("the game ends");
            if result.winners() == [me] {
                won += 1;
            }
        }
        won
    }
    assert!(games::<Serm>("skirmish") >= 5);
    assert!(games::<Swtb>("outpost") >= 5);
}
