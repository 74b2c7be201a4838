//! The odds shown before an attack and by `battlemat odds abaoaqu` are exact: they agree
//! with the referee's own dice, face by face (ABQ-7-4, 7-6, 9-5).
mod common;

use battlemat_abaoaqu::AbaoAqu;
use battlemat_core::Ruleset;
use battlemat_core::testing::act;
use battlemat_core::{Game, Next, Step};
use common::*;
use std::collections::BTreeMap;

fn params(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn abq_odds_of_the_7_7_example() {
    // ABQ-7-7: a Gelgoog (6) three hexes from a Ball (2): 3:2 → 1:1. On our table a 1:1
    // confuses on 4-5 and panics on 6.
    let o = AbaoAqu::matchup_odds(&params(&[
        ("attack", "6"),
        ("defence", "2"),
        ("range", "3"),
    ]))
    .unwrap();
    assert_eq!(o.details["column"], "1:1");
    assert!((o.outcomes["no effect"] - 3.0 / 6.0).abs() < 1e-12);
    assert!((o.outcomes["confused"] - 2.0 / 6.0).abs() < 1e-12);
    assert!((o.outcomes["panic"] - 1.0 / 6.0).abs() < 1e-12);
    // Pilots and the defender's state (ABQ-7-6, 11-2).
    let p = AbaoAqu::matchup_odds(&params(&[
        ("attack", "6"),
        ("defence", "2"),
        ("range", "3"),
        ("attacker-pilot", "N3"),
        ("defender-state", "C"),
    ]))
    .unwrap();
    assert_eq!(p.details["column"], "4:1");
    let sum: f64 = p.outcomes.values().sum();
    assert!((sum - 1.0).abs() < 1e-12);
    assert!(AbaoAqu::matchup_odds(&params(&[("attack", "6")])).is_err());
    assert!(AbaoAqu::matchup_odds(&params(&[("attack", "x"), ("defence", "2")])).is_err());
    assert!(
        AbaoAqu::matchup_odds(&params(&[
            ("attack", "6"),
            ("defence", "2"),
            ("bogus", "1")
        ]))
        .is_err()
    );
}

#[test]
fn abq_close_combat_odds_use_the_close_combat_table() {
    // ABQ-9-5, 9-7: the GM against the confused Rick Dom, 5:5 = 1:1 on the close combat
    // table (our shooting table read a column to the attacker), +1 for the confusion.
    let o = AbaoAqu::matchup_odds(&params(&[
        ("attack", "5"),
        ("defence", "5"),
        ("close", "true"),
        ("defender-state", "C"),
    ]))
    .unwrap();
    assert_eq!(o.details["column"], "1:1");
    // Faces 1-6 read rows 2-7 of 2:1: -, C, C, D, X, X; a C on a confused unit is D.
    assert!((o.outcomes["no effect"] - 1.0 / 6.0).abs() < 1e-12);
    assert!((o.outcomes["panic"] - 3.0 / 6.0).abs() < 1e-12);
    assert!((o.outcomes["destroyed"] - 2.0 / 6.0).abs() < 1e-12);
}

/// Every attack offered in a game agrees with what its die does, face by face.
#[test]
fn abq_odds_agree_with_the_tables_by_enumeration() {
    let mut g = game(
        &["GM@1010", "BL@1010", "GD@1210"],
        &["RD@1110", "ZK@1010", "MU@1110", "ZK@1110"],
    );
    g.unit_mut(3).morale = battlemat_abaoaqu::state::Morale::Confused;
    to_fire(&mut g);
    for aim in ["shoot u3", "shoot ms", "shoot u5"] {
        act(&mut g, "from 1010");
        act(&mut g, "with u0");
        act(&mut g, "with u1");
        act(&mut g, "target 1110");
        let action: battlemat_abaoaqu::Action = aim.parse().unwrap();
        let shown = g.odds(&action).expect("odds before choosing");
        act(&mut g, aim);
        let fire = g
            .odds(&"fire".parse().unwrap())
            .expect("odds before firing");
        assert_eq!(shown.outcomes, fire.outcomes);
        let sum: f64 = fire.outcomes.values().sum();
        assert!((sum - 1.0).abs() < 1e-12, "{aim}");
        act(&mut g, "cancel");
    }
    // Follow-up fire is rolled at once: check each face's result against the odds.
    let mut z = game(&["GM@1110"], &["RD@1010"]);
    z.unit_mut(0).morale = battlemat_abaoaqu::state::Morale::Confused;
    skip_moves(&mut z);
    done(&mut z);
    declare(&mut z, "1010", &[1], "1110", "shoot u0");
    let odds = z.odds(&"fire".parse().unwrap()).unwrap();
    act(&mut z, "fire");
    let mut counted: BTreeMap<String, f64> = BTreeMap::new();
    for face in 1..=6u32 {
        let mut h = z.clone();
        assert!(matches!(h.next(), Next::Chance(_)));
        h.apply(&Step::Roll { value: face }).unwrap();
        let name = match (h.unit(0).alive(), h.unit(0).morale) {
            (false, _) => "destroyed",
            (true, battlemat_abaoaqu::state::Morale::Confused) => "no effect",
            (true, battlemat_abaoaqu::state::Morale::Panic) => "panic",
            (true, battlemat_abaoaqu::state::Morale::Normal) => "recovered?",
        };
        *counted.entry(name.into()).or_default() += 1.0 / 6.0;
    }
    assert_eq!(counted.len(), odds.outcomes.len(), "{counted:?} {odds:?}");
    for (k, v) in &counted {
        assert!((odds.outcomes[k] - v).abs() < 1e-12, "{k}");
    }
}

fn to_fire(g: &mut AbaoAqu) {
    skip_moves(g);
}

/// Values past any counter's are refused by name (issue 21: `--attack 4294967295` wrapped
/// round to "worse than 1:3"; doubled in the same hex it overflowed).
#[test]
fn abq_odds_refuse_values_past_the_bound() {
    for (k, extra) in [
        ("attack", ("same-hex", "true")),
        ("attack", ("range", "1")),
        ("defence", ("range", "1")),
        ("range", ("attack", "5")),
    ] {
        let mut p = params(&[("attack", "5"), ("defence", "2"), extra]);
        p.insert(k.to_string(), "4294967295".to_string());
        let e = AbaoAqu::matchup_odds(&p).unwrap_err();
        assert!(
            e.message.contains(&format!("--{k}")) && e.message.contains("more than 999"),
            "{e}"
        );
    }
    let top = AbaoAqu::matchup_odds(&params(&[
        ("attack", "999"),
        ("defence", "1"),
        ("same-hex", "true"),
    ]))
    .unwrap();
    assert_ne!(top.details["column"], "worse than 1:3");
}
