//! The odds the crate shows (`odds::contest`, `odds::matchup`, `Swtb::action_odds`) against
//! values computed here independently: by enumerating every face of every die, and by
//! walking the referee's own chance points from the attack to the result.

use battlemat_core::Ruleset;
use battlemat_core::{Game, Odds, Step, ToAct};
use battlemat_swtb::data::{Contest, Options, Ties};
use battlemat_swtb::odds;
use battlemat_swtb::state::{Phase, Place};
use battlemat_swtb::{Action, Swtb};
use std::collections::BTreeMap;

mod common;

const EPS: f64 = 1e-12;

// ----- brute force ------------------------------------------------------------------------

/// Every value of one side's roll with its probability: `n` d6, totalled or the best die;
/// with thermal detonators, one more d6 for each six among the `n`, added to the roll.
fn brute_roll(n: u32, thermal: bool, highest: bool) -> BTreeMap<u32, f64> {
    let mut out = BTreeMap::new();
    for idx in 0..6u32.pow(n) {
        let faces: Vec<u32> = (0..n).map(|i| idx / 6u32.pow(i) % 6 + 1).collect();
        let base = if highest {
            *faces.iter().max().unwrap()
        } else {
            faces.iter().sum()
        };
        let sixes = if thermal {
            faces.iter().filter(|&&f| f == 6).count() as u32
        } else {
            0
        };
        let p = 1.0 / 6f64.powi(n as i32);
        for e in 0..6u32.pow(sixes) {
            let extra: u32 = (0..sixes).map(|i| e / 6u32.pow(i) % 6 + 1).sum();
            *out.entry(base + extra).or_insert(0.0) += p / 6f64.powi(sixes as i32);
        }
    }
    out
}

/// (attacker wins, tie, defender wins) by brute force, with the tie rule applied.
fn brute(att: u32, thermal: bool, def: u32, highest: bool, reroll: bool) -> (f64, f64, f64) {
    let a = brute_roll(att, thermal, highest);
    let d = brute_roll(def, false, highest);
    let (mut w, mut t, mut l) = (0.0, 0.0, 0.0);
    for (x, px) in &a {
        for (y, py) in &d {
            match x.cmp(y) {
                std::cmp::Ordering::Greater => w += px * py,
                std::cmp::Ordering::Equal => t += px * py,
                std::cmp::Ordering::Less => l += px * py,
            }
        }
    }
    if reroll {
        (w / (w + l), 0.0, l / (w + l))
    } else {
        (w, t, l)
    }
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < EPS, "{what}: {a} != {b}");
}

fn sums_to_one(o: &Odds) {
    let s: f64 = o.outcomes.values().sum();
    close(s, 1.0, &format!("sum of {:?}", o.outcomes));
    assert!(o.outcomes.values().all(|p| (0.0..=1.0).contains(p)));
}

fn get(o: &Odds, k: &str) -> f64 {
    o.outcomes.get(k).copied().unwrap_or(0.0)
}

fn opts(contest: Contest, ties: Ties) -> Options {
    Options {
        contest,
        ties,
        ..Options::default()
    }
}

// ----- brute force sanity ----------------------------------------------------------------

#[test]
fn brute_force_is_sane() {
    // 1d6 against 1d6: 15/36 each way, 6/36 ties.
    let (w, t, l) = brute(1, false, 1, false, false);
    close(w, 15.0 / 36.0, "w");
    close(t, 6.0 / 36.0, "t");
    close(l, 15.0 / 36.0, "l");
    // A trooper with a thermal detonator: faces 1-5 at 1/6, 7-12 at 1/36.
    let r = brute_roll(1, true, false);
    close(r[&5], 1.0 / 6.0, "5");
    close(r[&12], 1.0 / 36.0, "12");
    assert!(!r.contains_key(&6));
    // The best of 2d6 is 6 with probability 11/36.
    close(brute_roll(2, false, true)[&6], 11.0 / 36.0, "best 6");
}

// ----- odds::contest -----------------------------------------------------------------------

// SWTB-3 (totals, ties to the defender), SWTB-O7 (+1d6), SWTB-O9 (thermal), house rules
// `contest = highest` and `ties = reroll`: every combination against brute force.
#[test]
fn contest_matches_brute_force() {
    let cases: [(u8, bool, u8); 10] = [
        (3, false, 2), // Force User against a hero (SWTB-3)
        (3, false, 3), // ... a fortified hero (SWTB-O7)
        (1, false, 1), // trooper against trooper
        (1, true, 2),  // trooper with thermal detonators against a hero (SWTB-O9)
        (2, true, 1),  // hero with thermal detonators against a trooper
        (2, true, 3),  // ... against a fortified hero
        (1, true, 4),  // ... a trooper against a hero ship
        (4, false, 3), // hero ship against a fighter
        (2, false, 2), // artillery (2d6) against a hero
        (3, true, 3),  // three thermal dice
    ];
    for (att, thermal, def) in cases {
        for contest in [Contest::Total, Contest::Highest] {
            for ties in [Ties::Defender, Ties::Reroll] {
                let o = opts(contest, ties);
                let got = odds::contest(att, thermal, def, &o);
                let want = brute(
                    att as u32,
                    thermal,
                    def as u32,
                    contest == Contest::Highest,
                    ties == Ties::Reroll,
                );
                let what = format!("{att}d6 thermal={thermal} vs {def}d6 {contest:?} {ties:?}");
                close(got.0, want.0, &what);
                close(got.1, want.1, &what);
                close(got.2, want.2, &what);
                close(got.0 + got.1 + got.2, 1.0, &what);
            }
        }
    }
}

// Known values: 3d6 against 2d6 totals (SWTB-3 with our DEFAULT of ties to the defender).
#[test]
fn contest_3d6_against_2d6_exact_fractions() {
    // Counted over all 6^5 = 7776 rolls.
    let (mut w, mut t) = (0u32, 0u32);
    for a in 0..216u32 {
        let x = a % 6 + a / 6 % 6 + a / 36 + 3;
        for d in 0..36u32 {
            let y = d % 6 + d / 6 + 2;
            w += u32::from(x > y);
            t += u32::from(x == y);
        }
    }
    let (gw, gt, gl) = odds::contest(3, false, 2, &Options::default());
    close(gw, w as f64 / 7776.0, "win");
    close(gt, t as f64 / 7776.0, "tie");
    close(gl, (7776 - w - t) as f64 / 7776.0, "lose");
}

// ----- odds::matchup ---------------------------------------------------------------------

fn matchup(pairs: &[(&str, &str)]) -> Result<Odds, String> {
    let p: BTreeMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    odds::matchup(&p)
}

#[test]
fn matchup_matches_brute_force() {
    // (params, attack dice, thermal, defence dice, highest, reroll)
    type Case<'a> = (&'a [(&'a str, &'a str)], u32, bool, u32, bool, bool);
    let cases: [Case; 9] = [
        (
            &[("attacker", "force_user"), ("defender", "hero")],
            3,
            false,
            2,
            false,
            false,
        ),
        (
            &[
                ("attacker", "Force User"),
                ("defender", "hero"),
                ("fortified", "true"),
            ],
            3,
            false,
            3,
            false,
            false,
        ),
        (
            &[
                ("attacker", "trooper"),
                ("defender", "hero"),
                ("thermal_detonators", "true"),
            ],
            1,
            true,
            2,
            false,
            false,
        ),
        (
            &[
                ("attacker", "hero"),
                ("defender", "trooper"),
                ("thermal-detonators", "true"),
            ],
            2,
            true,
            1,
            false,
            false,
        ),
        // A Force User has no thermal detonators even with the flag.
        (
            &[
                ("attacker", "force_user"),
                ("defender", "trooper"),
                ("thermal_detonators", "true"),
            ],
            3,
            false,
            1,
            false,
            false,
        ),
        (
            &[
                ("attacker", "force_user"),
                ("defender", "hero"),
                ("contest", "highest"),
            ],
            3,
            false,
            2,
            true,
            false,
        ),
        (
            &[
                ("attacker", "hero"),
                ("defender", "hero"),
                ("thermal_detonators", "true"),
                ("contest", "highest"),
                ("ties", "reroll"),
            ],
            2,
            true,
            2,
            true,
            true,
        ),
        (
            &[
                ("attacker", "fighter"),
                ("defender", "speeder"),
                ("ties", "reroll"),
            ],
            3,
            false,
            2,
            false,
            true,
        ),
        (
            &[("attacker", "artillery"), ("defender", "hero")],
            2,
            false,
            2,
            false,
            false,
        ),
    ];
    for (params, a, th, d, hi, rr) in cases {
        let o = matchup(params).unwrap_or_else(|e| panic!("{params:?}: {e}"));
        sums_to_one(&o);
        let (w, t, l) = brute(a, th, d, hi, rr);
        let what = format!("{params:?}");
        close(get(&o, "attacker_wins"), w, &what);
        close(get(&o, "tie"), t, &what);
        close(get(&o, "defender_wins"), l, &what);
        assert_eq!(o.details["attack_dice"], serde_json::json!(a), "{what}");
        assert_eq!(o.details["defence_dice"], serde_json::json!(d), "{what}");
        assert_eq!(
            o.details["thermal_detonators"],
            serde_json::json!(th),
            "{what}"
        );
        if rr {
            assert!(!o.outcomes.contains_key("tie"), "{what}");
        }
    }
    assert!(matchup(&[("attacker", "walker"), ("defender", "hero")]).is_err());
    assert!(matchup(&[("attacker", "hero")]).is_err());
    assert!(
        matchup(&[
            ("attacker", "hero"),
            ("defender", "hero"),
            ("ties", "never")
        ])
        .is_err()
    );
}

// ----- Swtb::action_odds, checked against the referee's own dice ---------------------------

fn game(extra: &str, a: &[&str], b: &[&str], o: &[(&str, &str)]) -> Swtb {
    let setup = common::setup_sized(8, 8, 20, extra, a, b, o);
    let mut g = Swtb::new_game(&setup).unwrap();
    settle(&mut g);
    g
}

/// Settle the initiative so that side 0 acts first (side 0 rolls sixes, side 1 ones).
fn settle(g: &mut Swtb) {
    while g.now.phase != Phase::Turn {
        match g.to_act() {
            ToAct::Chance(_) => {
                let s0 = matches!(g.now.phase, Phase::Initiative { left, .. } if left[0] > 0);
                g.apply(&Step::Roll {
                    value: if s0 { 6 } else { 1 },
                })
                .unwrap();
            }
            ToAct::Decide { seat, .. } => {
                // A force power to choose (SWTB-O1..O4): the last one offered (Deflect
                // Blasters); then side 0 acts first.
                let action = match g.now.phase {
                    Phase::ChoosePower { .. } => g.legal_actions().pop().unwrap(),
                    _ => Action::First { side: 0 },
                };
                g.apply(&Step::Act { seat, action }).unwrap();
            }
            ToAct::Over(_) => panic!("over"),
        }
    }
    assert_eq!(g.now.active, 0);
}

fn act(g: &mut Swtb, a: &str) {
    let seat = match g.to_act() {
        ToAct::Decide { seat, .. } => seat,
        other => panic!("{other:?}"),
    };
    g.apply(&Step::Act {
        seat,
        action: a.parse().unwrap(),
    })
    .unwrap_or_else(|e| panic!("{a}: {e}"));
}

fn out_of_play(g: &Swtb, u: usize) -> bool {
    !matches!(g.now.units[u].place, Place::Field(_) | Place::Line)
}

/// Weigh every chance point from `g` on, as the referee rolls them, and name each end the
/// way `action_odds` does.
fn walk(g: &Swtb, start: &Swtb, a: usize, t: usize, p: f64, out: &mut BTreeMap<String, f64>) {
    if let ToAct::Chance(ch) = g.to_act() {
        assert!(!matches!(g.now.phase, Phase::Morale { .. }));
        let total = ch.total_weight() as f64;
        for o in &ch.outcomes {
            let mut h = g.clone();
            h.apply(&Step::Roll { value: o.value }).unwrap();
            walk(&h, start, a, t, p * o.weight as f64 / total, out);
        }
        return;
    }
    let name = if out_of_play(start, t) {
        // A droid's revival (SWTB-U2): the target starts fallen.
        if out_of_play(g, t) {
            "nothing"
        } else {
            "revived"
        }
    } else if out_of_play(g, t) {
        "defender_eliminated"
    } else if out_of_play(g, a) {
        "attacker_eliminated"
    } else if g.now.units[t].side != start.now.units[t].side {
        "defender_joins"
    } else if g.now.units[t].hits > start.now.units[t].hits {
        "defender_hit"
    } else if g.now.units[a].hits > start.now.units[a].hits {
        "attacker_hit"
    } else if g.now.units[a].place == Place::Line && start.now.units[a].place != Place::Line {
        "both_return"
    } else {
        "nothing"
    };
    *out.entry(name.to_string()).or_insert(0.0) += p;
}

/// `action_odds` (and `Game::odds`) for `action` equals the referee's own weighed dice.
fn check_against_referee(g: &Swtb, action: &str, a: usize, t: usize) -> Odds {
    let action: Action = action.parse().unwrap();
    let shown = g.action_odds(&action).expect("odds");
    assert_eq!(Game::odds(g, &action), Some(shown.clone()));
    sums_to_one(&shown);
    let mut h = g.clone();
    let seat = g.now.active;
    h.apply(&Step::Act { seat, action }).unwrap();
    let mut walked = BTreeMap::new();
    walk(&h, g, a, t, 1.0, &mut walked);
    let keys: Vec<&String> = shown.outcomes.keys().collect();
    let wkeys: Vec<&String> = walked.keys().filter(|k| walked[*k] > 0.0).collect();
    assert_eq!(keys, wkeys, "outcome names");
    for (k, p) in &walked {
        close(get(&shown, k), *p, k);
    }
    shown
}

// SWTB-3/SWTB-5: a Force User's light saber (3d6) against an adjacent hero (2d6).
#[test]
fn action_odds_force_user_against_hero() {
    let g = game("", &["force_user@b2"], &["hero@b3", "trooper@h8"], &[]);
    let o = check_against_referee(&g, "attack u0 u1", 0, 1);
    let (w, t, l) = brute(3, false, 2, false, false);
    close(get(&o, "defender_eliminated"), w, "win");
    close(get(&o, "nothing"), t + l, "nothing");
    assert_eq!(o.details["attack_dice"], serde_json::json!(3));
    assert_eq!(o.details["defence_dice"], serde_json::json!(2));
    assert_eq!(o.details["kind"], serde_json::json!("melee"));
}

// SWTB-O7: the fortified hero adds 1d6 (3d6 against 3d6).
#[test]
fn action_odds_fortified_defender() {
    let g = game(
        "fortified = [\"b3\"]",
        &["force_user@b2"],
        &["hero@b3", "trooper@h8"],
        &[("fortified", "true")],
    );
    let o = check_against_referee(&g, "attack u0 u1", 0, 1);
    close(
        get(&o, "defender_eliminated"),
        brute(3, false, 3, false, false).0,
        "win",
    );
    assert_eq!(o.details["fortified"], serde_json::json!(true));
}

// SWTB-O9: thermal detonators, a trooper against a hero and a hero against a trooper, with
// totals and with `contest = highest`.
#[test]
fn action_odds_thermal_detonators() {
    for contest in ["total", "highest"] {
        let hi = contest == "highest";
        let o_ = [("thermal_detonators", "true"), ("contest", contest)];
        let g = game("", &["trooper@b2"], &["hero@b6", "trooper@h8"], &o_);
        let o = check_against_referee(&g, "attack u0 u1", 0, 1);
        close(
            get(&o, "defender_eliminated"),
            brute(1, true, 2, hi, false).0,
            contest,
        );
        let g = game("", &["hero@b2"], &["trooper@b6", "trooper@h8"], &o_);
        let o = check_against_referee(&g, "attack u0 u1", 0, 1);
        close(
            get(&o, "defender_eliminated"),
            brute(2, true, 1, hi, false).0,
            contest,
        );
    }
}

// SWTB-F3: a dogfight from the field: the loser is eliminated, a tie sends both back.
#[test]
fn action_odds_dogfight() {
    let mut g = game(
        "",
        &["fighter", "trooper@a1"],
        &["speeder", "trooper@h8"],
        &[],
    );
    act(&mut g, "move u0 d4");
    act(&mut g, "end");
    act(&mut g, "end");
    settle(&mut g);
    assert_eq!(g.now.active, 0);
    let o = check_against_referee(&g, "attack u0 u2", 0, 2);
    let (w, t, l) = brute(3, false, 2, false, false);
    close(get(&o, "defender_eliminated"), w, "w");
    close(get(&o, "both_return"), t, "t");
    close(get(&o, "attacker_eliminated"), l, "l");
}

// SWTB-O4: Deflect Blasters: an adjacent trooper that loses is defeated.
#[test]
fn action_odds_deflect_blasters() {
    let mut g = game(
        "",
        &["force_user@d4:deflect_blasters"],
        &["trooper@d5", "trooper@h8"],
        &[("force_powers", "true")],
    );
    act(&mut g, "end");
    let o = check_against_referee(&g, "attack u1 u0", 1, 0);
    let (w, t, l) = brute(1, false, 3, false, false);
    close(get(&o, "defender_eliminated"), w, "w");
    close(get(&o, "nothing"), t, "t");
    close(get(&o, "attacker_eliminated"), l, "l");
}

// SWTB-O6: with tougher everything a hero is only hit; SWTB-3 `ties = reroll` has no tie.
#[test]
fn action_odds_tougher_and_reroll() {
    let g = game(
        "",
        &["force_user@b2"],
        &["hero@b3", "trooper@h8"],
        &[("tougher_everything", "true")],
    );
    let o = check_against_referee(&g, "attack u0 u1", 0, 1);
    close(
        get(&o, "defender_hit"),
        brute(3, false, 2, false, false).0,
        "hit",
    );

    // Rerolls are an unbounded chain of chance points: compare with brute force only.
    let g = game(
        "",
        &["force_user@b2"],
        &["hero@b3", "trooper@h8"],
        &[("ties", "reroll")],
    );
    let o = g.action_odds(&"attack u0 u1".parse().unwrap()).unwrap();
    sums_to_one(&o);
    let (w, _, l) = brute(3, false, 2, false, true);
    close(get(&o, "defender_eliminated"), w, "w");
    close(get(&o, "nothing"), l, "l");
}

// SWTB-O8: a fixed gun fires 2d6 against a hero's 2d6.
#[test]
fn action_odds_fixed_gun() {
    let g = game(
        "",
        &["artillery@d5", "trooper@d6"],
        &["hero@b2", "trooper@h8"],
        &[("artillery", "true")],
    );
    let o = check_against_referee(&g, "fire u0 u2 crew u1", 0, 2);
    close(
        get(&o, "defender_eliminated"),
        brute(2, false, 2, false, false).0,
        "w",
    );
}

// SWTB-O2, SWTB-O3, SWTB-U2: one die each.
#[test]
fn action_odds_powers_and_revive() {
    let g = game(
        "",
        &["force_user@d4:mind_trick", "droid@a2", "trooper@h1"],
        &["hero@d5", "trooper@e5", "trooper@h8"],
        &[("force_powers", "true")],
    );
    let o = check_against_referee(&g, "trick u0 u3", 0, 3);
    close(get(&o, "defender_joins"), 1.0 / 6.0, "hero on 6");
    let o = check_against_referee(&g, "trick u0 u4", 0, 4);
    assert_eq!(o.outcomes.len(), 1);
    close(get(&o, "defender_joins"), 1.0, "trooper automatic");

    let g = game(
        "",
        &["trooper@a1", "hero@d5", "force_user@c5"],
        &["force_user@d4:force_choke", "trooper@h8"],
        &[("force_powers", "true")],
    );
    let mut g = g;
    act(&mut g, "end");
    let o = check_against_referee(&g, "choke u3 u1", 3, 1);
    close(get(&o, "defender_eliminated"), 2.0 / 6.0, "hero on 5-6");
    let o = check_against_referee(&g, "choke u3 u2", 3, 2);
    close(get(&o, "defender_eliminated"), 1.0 / 6.0, "force user on 6");

    // A droid's revival: 5-6.
    let mut g = game(
        "",
        &["droid@c3", "trooper@c4", "trooper@a8"],
        &["hero@c6", "trooper@h8"],
        &[],
    );
    act(&mut g, "end");
    act(&mut g, "attack u3 u1");
    for f in [6, 6, 1] {
        g.apply(&Step::Roll { value: f }).unwrap();
    }
    assert!(out_of_play(&g, 1));
    act(&mut g, "end");
    settle(&mut g);
    let o = check_against_referee(&g, "revive u0 u1", 0, 1);
    close(get(&o, "revived"), 1.0 / 3.0, "revive");
}

// Odds exist only for legal actions that roll dice.
#[test]
fn action_odds_none_for_illegal_or_diceless_actions() {
    let g = game("", &["trooper@b2"], &["trooper@b4", "trooper@h8"], &[]);
    for a in [
        "move u0 b3",
        "end",
        "attack u0 u0",
        "attack u1 u0",
        "choke u0 u1",
    ] {
        assert_eq!(g.action_odds(&a.parse().unwrap()), None, "{a}");
    }
    assert!(g.action_odds(&"attack u0 u1".parse().unwrap()).is_some());
}

// Every action offered at the start of our scenarios, with every option and the house rules,
// has odds that sum to one (or none).
#[test]
fn action_odds_sum_to_one_everywhere_offered() {
    for house in [false, true] {
        let mut o = common::every_optional_rule();
        if house {
            o.insert("contest".into(), "highest".into());
            o.insert("ties".into(), "reroll".into());
            o.insert("grid".into(), "hex".into());
        }
        for s in Swtb::info().scenarios {
            let mut g = Swtb::new_game(&Swtb::setup(&s.id, &o).unwrap()).unwrap();
            let mut checked = 0;
            // Play the first two turns by always ending, looking at every offered action.
            for _ in 0..6 {
                match g.to_act() {
                    ToAct::Chance(_) => {
                        let s0 =
                            matches!(g.now.phase, Phase::Initiative { left, .. } if left[0] > 0);
                        g.apply(&Step::Roll {
                            value: if s0 { 6 } else { 1 },
                        })
                        .unwrap();
                        continue;
                    }
                    ToAct::Decide { seat, .. } => {
                        for a in g.legal_actions() {
                            if let Some(odds) = g.action_odds(&a) {
                                sums_to_one(&odds);
                                checked += 1;
                            }
                        }
                        let a = match g.now.phase {
                            Phase::Turn => Action::EndTurn,
                            Phase::ChoosePower { .. } => g.legal_actions()[0].clone(),
                            _ => Action::First { side: seat },
                        };
                        g.apply(&Step::Act { seat, action: a }).unwrap();
                    }
                    ToAct::Over(_) => break,
                }
            }
            assert!(checked > 0, "{}: no odds checked", s.id);
        }
    }
}
