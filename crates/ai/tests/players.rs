use battlemat_ai::{PlayerKind, play};
use battlemat_core::Ruleset;
use battlemat_core::{Game, Step, ToAct};
use battlemat_dice::Roller;
use battlemat_swtb::{Action, Swtb};
use std::collections::BTreeMap;

fn opts(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Probability that `pred` holds when the next decision comes, weighing every chance
/// point the referee rolls with its exact weights.
fn chance_probability(s: &Swtb, pred: &dyn Fn(&Swtb) -> bool) -> f64 {
    match s.to_act() {
        ToAct::Chance(c) => {
            let t = c.total_weight() as f64;
            c.outcomes
                .iter()
                .map(|o| {
                    let mut n = s.clone();
                    n.apply(&Step::Roll { value: o.value }).unwrap();
                    o.weight as f64 / t * chance_probability(&n, pred)
                })
                .sum()
        }
        _ => f64::from(u8::from(pred(s))),
    }
}

/// The odds shown before an attack (from battlemat-dice distributions) equal what the
/// referee's own dice, weighed one chance point at a time, produce. SWTB-3, SWTB-O7, SWTB-O9.
#[test]
fn swtb_3_shown_odds_match_the_referees_dice() {
    for o in [
        opts(&[]),
        opts(&[("thermal_detonators", "true"), ("fortified", "true")]),
        opts(&[("contest", "highest"), ("thermal_detonators", "true")]),
    ] {
        let setup = Swtb::setup("outpost", &o).unwrap();
        let mut g = Swtb::new_game(&setup).unwrap();
        let mut roller = Roller::new(3, 0);
        let mut checked = 0;
        // Play random games; at every attack, compare.
        for _ in 0..4000 {
            match g.to_act() {
                ToAct::Over(_) => g = Swtb::new_game(&setup).unwrap(),
                ToAct::Chance(c) => {
                    g.apply(&Step::Roll {
                        value: c.roll(&mut roller),
                    })
                    .unwrap();
                }
                ToAct::Decide { seat, .. } => {
                    let legal = g.legal_actions();
                    for a in &legal {
                        if let (Action::Attack { target, .. }, Some(odds)) = (a, g.odds(a)) {
                            let mut n = g.clone();
                            n.apply(&Step::Act {
                                seat,
                                action: a.clone(),
                            })
                            .unwrap();
                            let t = *target as usize;
                            let p = chance_probability(&n, &|s| {
                                s.now.units[t].hits > g.now.units[t].hits || !s.alive(*target)
                            });
                            let shown: f64 = odds
                                .outcomes
                                .iter()
                                .filter(|(k, _)| k.starts_with("defender"))
                                .map(|(_, v)| v)
                                .sum();
                            assert!((p - shown).abs() < 1e-12, "{a}: referee {p} shown {shown}");
                            checked += 1;
                        }
                    }
                    let i = roller.pick(&vec![1; legal.len()]).unwrap();
                    g.apply(&Step::Act {
                        seat,
                        action: legal[i].clone(),
                    })
                    .unwrap();
                }
            }
            if checked > 40 {
                break;
            }
        }
        assert!(checked > 10, "too few attacks seen: {checked}");
    }
}

#[test]
fn greedy_beats_random() {
    let setup = Swtb::setup("outpost", &BTreeMap::new()).unwrap();
    let mut greedy_wins = 0;
    let mut random_wins = 0;
    for g in 0..30u64 {
        let mut roller = Roller::new(11, g);
        // Alternate seats so neither side's advantage decides it.
        let (players, greedy_seat) = if g % 2 == 0 {
            ([PlayerKind::Greedy, PlayerKind::Random], 0)
        } else {
            ([PlayerKind::Random, PlayerKind::Greedy], 1)
        };
        let r = play::<Swtb>(&setup, &players, &mut roller, 100_000).unwrap();
        match r.result.winners().as_slice() {
            [w] if *w == greedy_seat => greedy_wins += 1,
            [_] => random_wins += 1,
            _ => {}
        }
    }
    assert!(
        greedy_wins >= 3 * random_wins.max(1),
        "greedy {greedy_wins} random {random_wins}"
    );
}

#[test]
fn same_seed_same_game() {
    let setup = Swtb::setup("skies", &BTreeMap::new()).unwrap();
    let a = play::<Swtb>(
        &setup,
        &[PlayerKind::Greedy, PlayerKind::Random],
        &mut Roller::new(5, 2),
        100_000,
    )
    .unwrap();
    let b = play::<Swtb>(
        &setup,
        &[PlayerKind::Greedy, PlayerKind::Random],
        &mut Roller::new(5, 2),
        100_000,
    )
    .unwrap();
    assert_eq!(a, b);
}
