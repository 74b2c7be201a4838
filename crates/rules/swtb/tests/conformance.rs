//! The shared conformance kit, on every scenario with the basic rules, with every optional
//! rule on, on a hex mat with the other house rules, and with four players two a side:
//! 1,200 seeded random games (times `BATTLEMAT_TEST_SCALE` for longer runs).
use battlemat_core::Ruleset;
use battlemat_core::conformance::{self, Conformance};
use battlemat_swtb::Swtb;
use std::collections::BTreeMap;

mod common;

fn setups() -> Vec<battlemat_swtb::Setup> {
    let all_on = common::every_optional_rule();
    assert_eq!(all_on.len(), 8, "force powers (O1-O4), O5-O10 and SWTB-P");
    let mut variants = vec![BTreeMap::new(), all_on.clone()];
    let mut hex = all_on.clone();
    hex.insert("grid".into(), "hex".into());
    hex.insert("contest".into(), "highest".into());
    hex.insert("ties".into(), "reroll".into());
    variants.push(hex);
    // Four players, two a side, and the other house rules' second values.
    let mut teams = all_on.clone();
    teams.insert("seats".into(), "4".into());
    teams.insert("initiative".into(), "sum".into());
    teams.insert("contact_powers".into(), "false".into());
    variants.push(teams);
    let mut out = Vec::new();
    for s in Swtb::info().scenarios {
        for o in &variants {
            out.push(Swtb::setup(&s.id, o).unwrap());
        }
    }
    out
}

#[test]
fn conformance_every_scenario_and_option_set() {
    let s = conformance::run::<Swtb>(
        &setups(),
        Conformance {
            games: 100,
            ..Default::default()
        },
    );
    assert_eq!(s.games, 100 * 12 * conformance::scale());
    eprintln!("{s:?}");
}
