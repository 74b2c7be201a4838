//! The MCTS player through the Game API: reproducible, legal, and stronger than chance.

use battlemat_ai::{Backup, Budget, Mcts, MctsConfig, PlayerKind, play};
use battlemat_core::Ruleset;
use battlemat_core::{Game, Next, Step};
use battlemat_dice::Roller;
use battlemat_swtb::Swtb;
use std::collections::BTreeMap;

#[path = "common/first_decision.rs"]
mod first;
use first::first_decision;

#[test]
fn a_search_reports_legal_actions_and_counts_its_iterations() {
    let g: Swtb = first_decision("outpost");
    let mut m = Mcts::<Swtb>::new(MctsConfig::new(Budget::Iterations(200)));
    let report = m.search(&g, &mut Roller::new(1, 0)).unwrap();
    assert_eq!(report.iterations, 200);
    let visits: u64 = report.actions.iter().map(|a| a.visits).sum();
    assert!(visits > 0 && visits <= 200, "{visits}");
    for a in &report.actions {
        g.check(&a.action).unwrap();
        assert!((-1.0..=1.0).contains(&a.value));
    }
}

/// Seeded: the same budget and seed give the same answer on one thread or two.
#[test]
fn an_iteration_budget_is_reproducible_whatever_the_thread_count() {
    let g: Swtb = first_decision("outpost");
    let search = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut m = Mcts::<Swtb>::new(MctsConfig::new(Budget::Iterations(2_000)));
            m.search(&g, &mut Roller::new(42, 0)).unwrap()
        })
    };
    let one = search(1);
    assert_eq!(one, search(2));
    assert_eq!(one.iterations, 2_000);
    // Another seed searches differently (the statistics differ somewhere).
    let mut m = Mcts::<Swtb>::new(MctsConfig::new(Budget::Iterations(2_000)));
    assert_ne!(one, m.search(&g, &mut Roller::new(43, 0)).unwrap());
}

/// The tree is kept between moves: after the chosen action and the dice that follow,
/// the next search starts from what the last one learnt there.
#[test]
fn the_tree_is_reused_for_the_next_move() {
    let mut g: Swtb = first_decision("outpost");
    let mut config = MctsConfig::new(Budget::Iterations(3_000));
    config.trees = 1;
    let mut m = Mcts::<Swtb>::new(config);
    let mut r = Roller::new(5, 0);
    let mut reused = false;
    // Play a few moves for both seats with the same searcher; somewhere the position it is
    // asked about was in its tree, and its root then has visits before the new budget.
    for _ in 0..40 {
        match g.next() {
            Next::Over => break,
            Next::Chance(o) => {
                g.apply(&Step::Roll {
                    value: o.roll(&mut r),
                })
                .unwrap();
            }
            Next::Decide(seat) => {
                let report = m.search(&g, &mut r).unwrap();
                let visits: u64 = report.actions.iter().map(|a| a.visits).sum();
                reused |= visits > 3_000;
                let action = report.actions[0].action.clone();
                g.apply(&Step::Act { seat, action }).unwrap();
            }
        }
    }
    assert!(reused, "no search started from a kept subtree");
}

/// MCTS beats a random player in every game's first scenario (a few games each, small
/// budget: this checks the search works through each game's API, not its strength).
#[test]
fn mcts_beats_random_in_every_game() {
    fn wins<G: Game>(scenario: &str, games: u64) -> (u64, u64) {
        let setup = G::setup(scenario, &BTreeMap::new()).unwrap();
        let kinds = [
            PlayerKind::Mcts(Budget::Iterations(1000)),
            PlayerKind::Random,
        ];
        let mut won = 0;
        for i in 0..games {
            // Seats swapped every other game.
            let (players, me) = if i % 2 == 0 {
                ([kinds[0], kinds[1]], 0)
            } else {
                ([kinds[1], kinds[0]], 1)
            };
            let p = play::<G>(&setup, &players, &mut Roller::new(i, 0), 1_000_000).unwrap();
            won += u64::from(p.result.winners() == vec![me]);
        }
        (won, games)
    }
    for (id, (won, games)) in [
        ("swtb", wins::<Swtb>("outpost", 6)),
        ("ms-d20", wins::<battlemat_ms_d20::MsD20>("duel", 8)),
        ("serm", wins::<battlemat_serm::Serm>("skirmish", 4)),
        (
            "sd-era",
            wins::<battlemat_sd_era::SdEra>("king_of_the_hill", 4),
        ),
    ] {
        assert!(
            won * 2 > games,
            "{id}: MCTS won {won} of {games} against random"
        );
    }
}

/// However short the time, a search chooses an action (each tree runs one iteration at
/// least): a budget already spent when the search starts (a paused process) still moves.
#[test]
fn a_tiny_time_budget_still_chooses() {
    let setup = battlemat_ms_d20::MsD20::setup("duel", &BTreeMap::new()).unwrap();
    let p = play::<battlemat_ms_d20::MsD20>(
        &setup,
        &[PlayerKind::Mcts(Budget::Millis(0)), PlayerKind::Random],
        &mut Roller::new(3, 0),
        1_000_000,
    );
    assert!(p.is_ok(), "{p:?}");
}

/// However many iterations, the trees stop growing at the cap their memory budget gives
/// (issue 21: `mcts:100000000` took 4.45 GB in 20 s); the search still runs every iteration.
#[test]
fn the_trees_are_bounded_by_the_memory_budget() {
    let g: Swtb = first_decision("outpost");
    let mut config = MctsConfig::new(Budget::Iterations(6_000));
    config.trees = 2;
    config.memory_budget = 1; // the floor: 1,000 nodes a tree
    assert_eq!(battlemat_ai::mcts::node_cap(&g, 2, 1), 1_000);
    let mut m = Mcts::<Swtb>::new(config);
    let report = m.search(&g, &mut Roller::new(1, 0)).unwrap();
    assert_eq!(report.iterations, 6_000);
    assert!(report.nodes <= 2 * 1_000, "{} nodes", report.nodes);
    assert!(
        report.nodes > 1_000,
        "both trees grew to their cap: {}",
        report.nodes
    );
    // The default budget: a gigabyte over four trees, far more nodes than that.
    let cap = battlemat_ai::mcts::node_cap(&g, 4, battlemat_ai::mcts::MEMORY_BUDGET);
    assert!(
        (50_000..=battlemat_ai::mcts::MAX_NODES).contains(&cap),
        "{cap}"
    );
}

/// `mcts:Nw` names a work budget, and a work budget is shown that way.
#[test]
fn a_work_budget_parses_and_displays_round_trip() {
    let kind: PlayerKind = "mcts:300w".parse().unwrap();
    assert_eq!(kind, PlayerKind::Mcts(Budget::Work(300)));
    assert_eq!(kind.to_string(), "mcts:300w");
    assert_eq!(kind.to_string().parse::<PlayerKind>().unwrap(), kind);
    // The default is a work budget, shown as plain `mcts`.
    let default: PlayerKind = "mcts".parse().unwrap();
    assert_eq!(default, PlayerKind::Mcts(battlemat_ai::DEFAULT_MCTS));
    assert!(matches!(battlemat_ai::DEFAULT_MCTS, Budget::Work(_)));
    assert_eq!(default.to_string(), "mcts");
    // Iterations and time stay as they were.
    for name in ["mcts:5000", "mcts:2s", "mcts:500ms"] {
        assert_eq!(name.parse::<PlayerKind>().unwrap().to_string(), name);
    }
}

/// A bad work budget is refused in words that say what a budget may be.
#[test]
fn a_bad_work_budget_is_refused_clearly() {
    let err = "mcts:0w".parse::<PlayerKind>().unwrap_err();
    assert!(err.contains("units of work are 1 to"), "{err}");
    assert!(err.contains("mcts:Nw"), "{err}");
    let err = "mcts:xw".parse::<PlayerKind>().unwrap_err();
    assert!(err.contains("\"x\" is not a whole number"), "{err}");
    let err = "mcts:99999999999w".parse::<PlayerKind>().unwrap_err();
    assert!(err.contains("units of work are 1 to"), "{err}");
}

/// The same seed and work budget choose the same action (and spend the same work, on one
/// thread or two); the search stops once its work is spent.
#[test]
fn a_work_budget_is_reproducible() {
    let g: Swtb = first_decision("outpost");
    let search = |threads: usize, seed: u64| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut m = Mcts::<Swtb>::new(MctsConfig::new(Budget::Work(40_000)));
            m.search(&g, &mut Roller::new(seed, 0)).unwrap()
        })
    };
    let one = search(1, 42);
    let again = search(2, 42);
    assert_eq!(one, again);
    assert_eq!(one.actions[0].action, again.actions[0].action);
    assert!(one.iterations > 4, "{}", one.iterations);
    // Spent: at least the budget, and past it by no more than each tree's last iteration.
    let units = one.work.units();
    assert!(
        (40_000..80_000).contains(&units),
        "{units} units in {} iterations",
        one.iterations
    );
    // The chosen action through `choose` is the report's first.
    let mut m = Mcts::<Swtb>::new(MctsConfig::new(Budget::Work(40_000)));
    assert_eq!(
        m.choose(&g, &mut Roller::new(42, 0)),
        Some(one.actions[0].action.clone())
    );
    // A bigger budget does more iterations.
    let mut m = Mcts::<Swtb>::new(MctsConfig::new(Budget::Work(160_000)));
    assert!(m.search(&g, &mut Roller::new(42, 0)).unwrap().iterations > one.iterations);
}

/// At a game's last decision the tree soon knows every way the game ends, and iterations
/// that end on a known end spend no steps, listings or evaluations: the work budget still
/// runs out (each iteration pays for its path), the search does not spin.
#[test]
fn a_work_budget_ends_at_the_last_decision_of_a_game() {
    fn last_decision<G: Game>(scenario: &str, seed: u64) -> G {
        let setup = G::setup(scenario, &BTreeMap::new()).unwrap();
        let mut g = G::new_game(&setup).unwrap();
        let mut r = Roller::new(seed, 0);
        let mut last = None;
        loop {
            let step = match g.next() {
                Next::Over => break,
                Next::Chance(o) => Step::Roll {
                    value: o.roll(&mut r),
                },
                Next::Decide(seat) => {
                    last = Some(g.clone());
                    let action = battlemat_ai::Random.choose(&g, &mut r).unwrap();
                    Step::Act { seat, action }
                }
            };
            g.apply(&step).unwrap();
        }
        last.unwrap()
    }
    for seed in 0..3 {
        let g: Swtb = last_decision("outpost", seed);
        let mut m = Mcts::<Swtb>::new(MctsConfig::new(Budget::Work(200_000)));
        let report = m.search(&g, &mut Roller::new(seed, 0)).unwrap();
        assert!(report.work.units() >= 200_000 || report.iterations == 0);
        let g: battlemat_ms_d20::MsD20 = last_decision("duel", seed);
        let mut m = Mcts::<battlemat_ms_d20::MsD20>::new(MctsConfig::new(Budget::Work(200_000)));
        let report = m.search(&g, &mut Roller::new(seed, 0)).unwrap();
        assert!(report.work.units() >= 200_000 || report.iterations == 0);
    }
}

/// Greedy's prior orders the root best-first: a one-iteration search tries, and so
/// chooses, an action greedy values most (its exact one-ply value, every die weighed).
#[test]
fn greedys_prior_decides_a_search_of_one_iteration() {
    fn check<G: Game>(scenario: &str) {
        let g: G = first_decision(scenario);
        let mut config = MctsConfig::new(Budget::Iterations(1));
        config.trees = 1;
        assert!(config.greedy_prior > 0, "the default has a prior");
        let mut m = Mcts::<G>::new(config);
        let chosen = m.choose(&g, &mut Roller::new(3, 0)).unwrap();
        let (values, _) = battlemat_ai::Greedy::default().values(&g, &mut Roller::new(3, 1));
        let best = values.iter().map(|(_, v)| *v).fold(f64::MIN, f64::max);
        let mine = values.iter().find(|(a, _)| *a == chosen).unwrap().1;
        // The prior's pass and this one may sample a big action's dice differently.
        assert!(mine >= best - 0.02, "{scenario}: chose {mine}, best {best}");
    }
    check::<Swtb>("outpost");
    check::<battlemat_sd_era::SdEra>("king_of_the_hill");
    check::<battlemat_serm::Serm>("skirmish");
}

/// Without the prior the root's actions are tried in a shuffled order: the same
/// one-iteration search is then not tied to greedy's choice (in SD ERA's first decision,
/// with a few dozen candidates, some seed chooses another).
#[test]
fn without_the_prior_the_root_is_tried_in_shuffled_order() {
    let g: battlemat_sd_era::SdEra = first_decision("king_of_the_hill");
    let choices: std::collections::HashSet<_> = (0..8)
        .map(|seed| {
            let mut config = MctsConfig::new(Budget::Iterations(1));
            config.trees = 1;
            config.greedy_prior = 0;
            Mcts::new(config)
                .choose(&g, &mut Roller::new(seed, 0))
                .unwrap()
        })
        .collect();
    assert!(choices.len() > 1, "{choices:?}");
}

/// The variants kept to measure against (greedy's prior below the root, values rescaled for
/// UCT, no tree kept between moves, values backed up from the most visited or the best
/// child) search legally and reproducibly; without reuse, a
/// second search of the same position by the same player learns nothing from the first.
#[test]
fn the_measured_variants_search_legally_and_reproducibly() {
    fn check<G: Game>(scenario: &str) {
        let g: G = first_decision(scenario);
        for variant in 0..5 {
            let config = || {
                let mut c = MctsConfig::new(Budget::Iterations(300));
                match variant {
                    0 => c.inner_prior = 50,
                    1 => c.normalize = true,
                    3 => c.backup = Backup::MostVisited,
                    4 => c.backup = Backup::Best,
                    _ => c.reuse_trees = false,
                }
                c
            };
            let one = Mcts::<G>::new(config())
                .search(&g, &mut Roller::new(5, 0))
                .unwrap();
            assert_eq!(one.iterations, 300, "{scenario} variant {variant}");
            for a in &one.actions {
                g.check(&a.action).unwrap();
                assert!((-1.0..=1.0).contains(&a.value), "{scenario}: {}", a.value);
            }
            let mut m = Mcts::<G>::new(config());
            let two = m.search(&g, &mut Roller::new(5, 0)).unwrap();
            assert_eq!(one, two, "{scenario} variant {variant}");
            if variant == 2 {
                let again = m.search(&g, &mut Roller::new(5, 0)).unwrap();
                assert_eq!(one, again, "{scenario}: a fresh tree every move");
            }
        }
    }
    check::<Swtb>("outpost");
    check::<battlemat_abaoaqu::AbaoAqu>("s_field_reduced");
    check::<battlemat_serm::Serm>("skirmish");
}

/// Where greedy's values tie (A-Bao-A-Qu's first decision: Zeon placing a counter, every
/// hex of its zone alike), four trees of one iteration each try their own of the tied
/// actions, and the one made is drawn among them at random, not the first listed: over
/// many seeds the choices spread over the list as a uniform draw's would (the first listed
/// of four tried would sit near a fifth of the way down it).
#[test]
fn tied_actions_are_chosen_among_at_random_not_by_their_place_in_the_list() {
    let g: battlemat_abaoaqu::AbaoAqu = first_decision("s_field");
    let legal = g.legal_actions();
    assert!(legal.len() >= 20, "{} placements", legal.len());
    let (values, _) = battlemat_ai::Greedy::default().values(&g, &mut Roller::new(1, 0));
    assert!(
        values.iter().all(|(_, v)| (v - values[0].1).abs() < 1e-12),
        "all tied"
    );
    let seeds = 200;
    let mean: f64 = (0..seeds)
        .map(|seed| {
            let mut config = MctsConfig::new(Budget::Iterations(4));
            config.trees = 4;
            let chosen = Mcts::new(config)
                .choose(&g, &mut Roller::new(seed, 0))
                .unwrap();
            legal.iter().position(|a| *a == chosen).unwrap() as f64
        })
        .sum::<f64>()
        / seeds as f64;
    let n = legal.len() as f64;
    // A uniform draw's mean place is (n - 1) / 2, give or take n / sqrt(12 · 200) or so.
    assert!(
        (mean - (n - 1.0) / 2.0).abs() < 0.1 * n,
        "mean place {mean:.1} of {n}"
    );
}

/// The `mcts` player starts from what a game says its search needs (`Game::SEARCH`): the
/// general settings where it says nothing, A-Bao-A-Qu's one candidate a tree and no kept
/// trees where it does, SD ERA's four times the default work. A player built from a name and
/// `MctsConfig::for_game` agree.
#[test]
fn the_mcts_player_follows_the_games_search_defaults() {
    use battlemat_abaoaqu::AbaoAqu;
    use battlemat_ai::Player;
    use battlemat_core::SearchDefaults;
    use battlemat_sd_era::SdEra;
    fn config<G: Game>(p: &Player<G>) -> MctsConfig {
        match p {
            Player::Mcts(m) => m.config.clone(),
            _ => panic!("not an MCTS player"),
        }
    }
    let kind: PlayerKind = "mcts".parse().unwrap();
    let swtb = config(&Player::<Swtb>::new(kind));
    assert_eq!(Swtb::SEARCH, SearchDefaults::GENERAL);
    assert_eq!(swtb, MctsConfig::new(battlemat_ai::DEFAULT_MCTS));
    assert_eq!(swtb.root_candidates, 0);
    assert!(swtb.reuse_trees);
    let abq = config(&Player::<AbaoAqu>::new(kind));
    assert_eq!(
        abq,
        MctsConfig::for_game::<AbaoAqu>(battlemat_ai::DEFAULT_MCTS)
    );
    assert_eq!(abq.root_candidates, AbaoAqu::SEARCH.root_candidates);
    assert_eq!(abq.root_candidates, 1);
    assert!(!abq.reuse_trees);
    // Only what the game says differs from the general settings.
    let mut general = abq.clone();
    general.follow(SearchDefaults::GENERAL);
    assert_eq!(general, MctsConfig::new(battlemat_ai::DEFAULT_MCTS));
    // SD ERA asks for more work a decision: the default budget times its effort, and a
    // budget asked for by name is kept as asked.
    let sd = config(&Player::<SdEra>::new(kind));
    assert_eq!(SdEra::SEARCH.effort, 4);
    assert_eq!(
        sd.budget,
        Budget::Work(battlemat_ai::DEFAULT_MCTS_WORK * SdEra::SEARCH.effort)
    );
    assert_eq!(sd.budget, battlemat_ai::default_budget::<SdEra>());
    assert_eq!(abq.budget, battlemat_ai::DEFAULT_MCTS);
    let asked = config(&Player::<SdEra>::new("mcts:2000000w".parse().unwrap()));
    assert_eq!(asked.budget, Budget::Work(2_000_000));
    let timed = config(&Player::<SdEra>::new("mcts:30ms".parse().unwrap()));
    assert_eq!(timed.budget, Budget::Millis(30));
    // SERM asks for longer playouts (its own draw plays them as a player would); the
    // general number stays where a game says nothing, and following the general settings
    // again gives it back.
    let serm = config(&Player::<battlemat_serm::Serm>::new(kind));
    assert_eq!(battlemat_serm::Serm::SEARCH.playout_decisions, 8);
    assert_eq!(serm.playout_decisions, 8);
    assert_ne!(swtb.playout_decisions, 8);
    // SERM's `mcts` plays greedy's six best actions out, racing them, at four times the
    // general work; every other game's is the tree.
    assert_eq!(serm.rollout_candidates, 6);
    assert!(serm.rollout_race > 0.0);
    assert_eq!(
        serm.budget,
        Budget::Work(battlemat_ai::DEFAULT_MCTS_WORK * 4)
    );
    assert_eq!(swtb.rollout_candidates, 0);
    assert_eq!(sd.rollout_candidates, 0);
    assert_eq!(abq.rollout_candidates, 0);
    let mut general = serm.clone();
    general.follow(SearchDefaults::GENERAL);
    // The budget is the player's, chosen by the game's effort where none was asked for.
    general.budget = battlemat_ai::DEFAULT_MCTS;
    assert_eq!(general, MctsConfig::new(battlemat_ai::DEFAULT_MCTS));
}
