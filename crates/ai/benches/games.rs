//! Complete games per second on one core, SWTB's default scenario ("outpost").
//!
//! - `random_game`: a whole game between two random players, dice from a seeded roller
//!   (legal-action generation, applying on the trusted path, rolling). Target: median
//!   at most 100 µs (10,000 games a second on one core).
//! - `replay_game`: the same games replayed from their records — the peer in the same run:
//!   the cost of the rules alone, without choosing actions.
//! - `legal_actions`: one call at a decision, cycling through every decision of 64 games.
//! - `apply_step`: one checked `apply` (on a clone of the state before it), cycling through
//!   every step of those games; `clone_state` is the clone alone, the peer to subtract.
//! - `greedy_decision`: one greedy choice (exact expectimax over every legal action) in the
//!   opening position.
use battlemat_ai::{Budget, Greedy, Mcts, MctsConfig, PlayerKind, play};
use battlemat_core::Ruleset;
use battlemat_core::{Game, Record, Step, ToAct};
use battlemat_dice::Roller;
use battlemat_swtb::Swtb;
use criterion::{Criterion, criterion_group, criterion_main};
use std::collections::BTreeMap;
use std::hint::black_box;

fn games(c: &mut Criterion) {
    let setup = Swtb::setup("outpost", &BTreeMap::new()).unwrap();
    let mut seed = 0u64;
    c.bench_function("swtb/random_game", |b| {
        b.iter(|| {
            seed += 1;
            let mut r = Roller::new(seed, 0);
            black_box(play::<Swtb>(&setup, &[PlayerKind::Random], &mut r, 1_000_000).unwrap())
        })
    });
    let records: Vec<Record<Swtb>> = (0..64).map(|s| record_of_any::<Swtb>(&setup, s)).collect();
    // Every state along those games, with the step taken there: `legal_actions` at each
    // decision, and one `apply` per step (on a clone of the state before it; the clone is
    // measured alone as the peer, `clone_state`).
    let mut states: Vec<(Swtb, Step<battlemat_swtb::Action>)> = Vec::new();
    for rec in &records {
        let mut g = Swtb::new_game(&setup).unwrap();
        for step in &rec.steps {
            states.push((g.clone(), step.clone()));
            g.apply(step).unwrap();
        }
    }
    let decisions: Vec<&Swtb> = states
        .iter()
        .filter(|(g, _)| matches!(g.to_act(), ToAct::Decide { .. }))
        .map(|(g, _)| g)
        .collect();
    let mut k = 0;
    c.bench_function("swtb/legal_actions", |b| {
        b.iter(|| {
            k = (k + 1) % decisions.len();
            black_box(decisions[k].legal_actions())
        })
    });
    let mut k = 0;
    c.bench_function("swtb/clone_state", |b| {
        b.iter(|| {
            k = (k + 1) % states.len();
            black_box(states[k].0.clone())
        })
    });
    let mut k = 0;
    c.bench_function("swtb/apply_step", |b| {
        b.iter(|| {
            k = (k + 1) % states.len();
            let (g, step) = &states[k];
            let mut g = g.clone();
            black_box(g.apply(step).unwrap())
        })
    });
    let mut i = 0;
    c.bench_function("swtb/replay_game", |b| {
        b.iter(|| {
            i = (i + 1) % records.len();
            black_box(records[i].replay().unwrap())
        })
    });
    // The opening decision of the first side to act.
    let mut g2 = Swtb::new_game(&setup).unwrap();
    let mut r = Roller::new(9, 0);
    while !matches!(g2.now.phase, battlemat_swtb::state::Phase::Turn) {
        let step = match g2.to_act() {
            ToAct::Chance(c) => Step::Roll {
                value: c.roll(&mut r),
            },
            ToAct::Decide { seat, .. } => Step::Act {
                seat,
                action: battlemat_swtb::Action::First { side: seat },
            },
            ToAct::Over(_) => unreachable!(),
        };
        g2.apply(&step).unwrap();
    }
    // The exact odds shown before an attack (building both distributions).
    let attack = g2
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, battlemat_swtb::Action::Attack { .. }))
        .expect("an attack in the opening position");
    c.bench_function("swtb/odds_query", |b| {
        b.iter(|| black_box(g2.odds(&attack)))
    });
    c.bench_function("swtb/greedy_decision", |b| {
        b.iter(|| black_box(Greedy::default().choose(&g2, &mut Roller::new(1, 0))))
    });
}

/// SD ERA: a complete game between two random players on each mission, default options
/// (target: at least 1,000 a second on one core, a median of at most 1 ms). The peer in the
/// same run is `sd-era/replay/MISSION`: the same games replayed from their records (the
/// rules alone, without listing candidates).
fn sd_era(c: &mut Criterion) {
    use battlemat_sd_era::SdEra;
    for m in SdEra::info().scenarios {
        let setup = SdEra::setup(&m.id, &BTreeMap::new()).unwrap();
        let mut seed = 0u64;
        c.bench_function(&format!("sd-era/random_game/{}", m.id), |b| {
            b.iter(|| {
                seed += 1;
                let mut r = Roller::new(seed, 0);
                black_box(play::<SdEra>(&setup, &[PlayerKind::Random], &mut r, 1_000_000).unwrap())
            })
        });
        let records: Vec<Record<SdEra>> =
            (0..32).map(|s| record_of_any::<SdEra>(&setup, s)).collect();
        // One `legal_actions` at a decision, cycling through every decision of those games.
        let mut decisions: Vec<SdEra> = Vec::new();
        for rec in &records {
            let mut g = SdEra::new_game(&setup).unwrap();
            for step in &rec.steps {
                if matches!(g.to_act(), ToAct::Decide { .. }) {
                    decisions.push(g.clone());
                }
                g.apply(step).unwrap();
            }
        }
        let mut d = 0;
        c.bench_function(&format!("sd-era/legal_actions/{}", m.id), |b| {
            b.iter(|| {
                d = (d + 1) % decisions.len();
                black_box(decisions[d].legal_actions())
            })
        });
        let mut k = 0;
        c.bench_function(&format!("sd-era/replay/{}", m.id), |b| {
            b.iter(|| {
                k = (k + 1) % records.len();
                black_box(records[k].replay().unwrap())
            })
        });
    }
}

/// Battle for A-Bao-A-Qu: a complete game between two random players on each scenario,
/// default options (target for scenario 3, a few hundred counters: at least 100 a second on
/// one core), the peer `abaoaqu/replay/SCENARIO` (the same games from their records); and
/// `abaoaqu/legal_actions/N`: one listing at the decisions of random games with N counters
/// (10 to 1,000, half a side each, set up anywhere on a "1234" map), which grows linearly
/// with N.
fn abaoaqu(c: &mut Criterion) {
    use battlemat_abaoaqu::AbaoAqu;
    use battlemat_abaoaqu::data::{Catalog, Force, LeadOff, Scenario, Setup, SideSpec};
    for s in AbaoAqu::info().scenarios {
        let setup = AbaoAqu::setup(&s.id, &BTreeMap::new()).unwrap();
        let mut seed = 0u64;
        c.bench_function(&format!("abaoaqu/random_game/{}", s.id), |b| {
            b.iter(|| {
                seed += 1;
                let mut r = Roller::new(seed, 0);
                black_box(
                    play::<AbaoAqu>(&setup, &[PlayerKind::Random], &mut r, 10_000_000).unwrap(),
                )
            })
        });
        if s.id == "a_bao_a_qu" {
            let records: Vec<Record<AbaoAqu>> = (0..8)
                .map(|k| record_of_any::<AbaoAqu>(&setup, k))
                .collect();
            let mut k = 0;
            c.bench_function(&format!("abaoaqu/replay/{}", s.id), |b| {
                b.iter(|| {
                    k = (k + 1) % records.len();
                    black_box(records[k].replay().unwrap())
                })
            });
        }
    }
    let cat = Catalog::builtin();
    let counters_setup = |n: usize| {
        let side = |name: &str, kinds: &[&str]| SideSpec {
            name: name.into(),
            hold: None,
            wins_at_limit: name == "Zeon",
            forces: vec![Force {
                name: "all".into(),
                units: kinds
                    .iter()
                    .map(|k| format!("{k} x{}", n / 2 / kinds.len()))
                    .collect(),
                enter: None,
                turn: None,
                turn_by_die: false,
                deploy: None,
                deploy_rows: Some((1, 21)),
            }],
        };
        Setup {
            units: cat.units.clone(),
            tables: cat.tables.clone(),
            scenario: Scenario {
                id: format!("n{n}"),
                number: 0,
                name: format!("{n} counters"),
                seats: (2, 2),
                layout: "1234".into(),
                lead_off: LeadOff::Federation,
                ours: true,
                summary: String::new(),
                sides: vec![
                    side("Federation", &["GM", "BL", "SA", "GD", "PA"]),
                    side("Zeon", &["ZK", "RD", "MU", "GE", "JI"]),
                ],
            },
            options: Default::default(),
            seating: battlemat_core::Seating::one_per_side(2),
        }
    };
    // One random game's cost from 10 to 1,000 counters: criterion draws the curve
    // (target/criterion/abaoaqu_random_game_by_counters/report/lines.svg).
    let mut group = c.benchmark_group("abaoaqu/random_game_by_counters");
    group.sample_size(10);
    for n in [10usize, 30, 100, 300, 1000] {
        let setup = counters_setup(n);
        let mut seed = 0u64;
        group.bench_with_input(
            criterion::BenchmarkId::from_parameter(n),
            &setup,
            |b, setup| {
                b.iter(|| {
                    seed += 1;
                    let mut r = Roller::new(seed, 0);
                    black_box(
                        play::<AbaoAqu>(setup, &[PlayerKind::Random], &mut r, 100_000_000).unwrap(),
                    )
                })
            },
        );
    }
    group.finish();
    for n in [10usize, 100, 1000] {
        let setup = counters_setup(n);
        // The decisions of two random games, from the first turn on (set-up excluded).
        let mut decisions: Vec<AbaoAqu> = Vec::new();
        for seed in 0..2 {
            let rec = record_of_any::<AbaoAqu>(&setup, seed);
            let mut g = AbaoAqu::new_game(&setup).unwrap();
            for step in rec.steps.iter().take(3000) {
                if g.now.turn >= 1 && matches!(g.to_act(), ToAct::Decide { .. }) {
                    decisions.push(g.clone());
                }
                g.apply(step).unwrap();
            }
        }
        let mut d = 0;
        c.bench_function(&format!("abaoaqu/legal_actions/{n}"), |b| {
            b.iter(|| {
                d = (d + 1) % decisions.len();
                black_box(decisions[d].legal_actions())
            })
        });
    }
}

/// Mobile-suit d20 combat: a complete game between two random players on each scenario;
/// the peer in the same run, `ms-d20/replay/SCENARIO`, replays the same kind of game from
/// its record.
fn ms_d20(c: &mut Criterion) {
    use battlemat_ms_d20::MsD20;
    for s in MsD20::info().scenarios {
        let setup = MsD20::setup(&s.id, &BTreeMap::new()).unwrap();
        let mut seed = 0u64;
        c.bench_function(&format!("ms-d20/random_game/{}", s.id), |b| {
            b.iter(|| {
                seed += 1;
                let mut r = Roller::new(seed, 0);
                black_box(play::<MsD20>(&setup, &[PlayerKind::Random], &mut r, 1_000_000).unwrap())
            })
        });
        let records: Vec<Record<MsD20>> =
            (0..32).map(|k| record_of_any::<MsD20>(&setup, k)).collect();
        let mut k = 0;
        c.bench_function(&format!("ms-d20/replay/{}", s.id), |b| {
            b.iter(|| {
                k = (k + 1) % records.len();
                black_box(records[k].replay().unwrap())
            })
        });
    }
}

/// SERM: a complete game between two random players on each scenario (target: at least
/// 1,000 a second on one core); the peer, `serm/replay/SCENARIO`, replays such games.
fn serm(c: &mut Criterion) {
    use battlemat_serm::Serm;
    for s in Serm::info().scenarios {
        let setup = Serm::setup(&s.id, &BTreeMap::new()).unwrap();
        let mut seed = 0u64;
        c.bench_function(&format!("serm/random_game/{}", s.id), |b| {
            b.iter(|| {
                seed += 1;
                let mut r = Roller::new(seed, 0);
                black_box(play::<Serm>(&setup, &[PlayerKind::Random], &mut r, 1_000_000).unwrap())
            })
        });
        let records: Vec<Record<Serm>> =
            (0..32).map(|k| record_of_any::<Serm>(&setup, k)).collect();
        let mut k = 0;
        c.bench_function(&format!("serm/replay/{}", s.id), |b| {
            b.iter(|| {
                k = (k + 1) % records.len();
                black_box(records[k].replay().unwrap())
            })
        });
    }
}

fn record_of_any<G: Game>(setup: &G::Setup, seed: u64) -> Record<G> {
    let mut g = G::new_game(setup).unwrap();
    let mut r = Roller::new(seed, 0);
    let mut rec = Record::new(setup.clone());
    loop {
        let step = match g.to_act() {
            ToAct::Over(_) => return rec,
            ToAct::Chance(c) => Step::Roll {
                value: c.roll(&mut r),
            },
            ToAct::Decide { seat, .. } => {
                let l = g.legal_actions();
                let i = r.pick(&vec![1; l.len()]).unwrap();
                Step::Act {
                    seat,
                    action: l[i].clone(),
                }
            }
        };
        g.apply(&step).unwrap();
        rec.steps.push(step);
    }
}

/// MCTS iterations a second on one core (one tree, 1,000 iterations a search) in each
/// game's default scenario, searched from the first decision of a random game: criterion
/// reports the throughput in iterations (elements) a second. Target on SWTB: 50,000.
fn mcts(c: &mut Criterion) {
    fn one<G: Game>(c: &mut Criterion, scenario: &str) {
        let setup = G::setup(scenario, &BTreeMap::new()).unwrap();
        // The first decision, past any opening dice.
        let mut g = G::new_game(&setup).unwrap();
        let mut r = Roller::new(7, 0);
        while let battlemat_core::Next::Chance(o) = g.next() {
            g.apply(&Step::Roll {
                value: o.roll(&mut r),
            })
            .unwrap();
        }
        let id = G::info().id;
        let mut group = c.benchmark_group(format!("mcts/{id}"));
        const N: u32 = 1000;
        group.throughput(criterion::Throughput::Elements(u64::from(N)));
        group.sample_size(10);
        let mut seed = 0;
        group.bench_function(scenario, |b| {
            b.iter(|| {
                seed += 1;
                let mut config = MctsConfig::new(Budget::Iterations(N));
                config.trees = 1;
                let mut m = Mcts::<G>::new(config);
                black_box(m.search(&g, &mut Roller::new(seed, 0)))
            })
        });
        group.finish();
    }
    one::<Swtb>(c, "outpost");
    one::<battlemat_sd_era::SdEra>(c, "king_of_the_hill");
    one::<battlemat_abaoaqu::AbaoAqu>(c, "a_bao_a_qu");
    one::<battlemat_ms_d20::MsD20>(c, "duel");
    one::<battlemat_serm::Serm>(c, "skirmish");
}

criterion_group!(benches, games, sd_era, abaoaqu, ms_d20, serm, mcts);
criterion_main!(benches);
