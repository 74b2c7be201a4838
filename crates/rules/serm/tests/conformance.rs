//! The shared conformance kit on every scenario and option set (times
//! `BATTLEMAT_TEST_SCALE` for longer runs).
use battlemat_core::Ruleset;
use battlemat_core::conformance::{self, Conformance};
use battlemat_serm::Serm;
use std::collections::BTreeMap;

#[test]
fn conformance_every_scenario_and_option_set() {
    let mut setups = Vec::new();
    for s in Serm::info().scenarios {
        // The default options but a limit (a random game might never end), and a shorter one
        // with every other reading (docs/rules/serm.md "Options").
        for o in [
            vec![("activations", "200")],
            vec![
                ("activations", "100"),
                ("demolitions_one", "blast_too"),
                ("blast_aim", "anywhere"),
                ("turning", "free"),
                ("commando_turn", "turn_once"),
            ],
        ] {
            let o: BTreeMap<String, String> = o
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            setups.push(Serm::setup(&s.id, &o).unwrap());
        }
    }
    let s = conformance::run::<Serm>(
        &setups,
        Conformance {
            games: 40,
            ..Default::default()
        },
    );
    assert_eq!(s.games, 40 * 4 * conformance::scale());
    eprintln!("{s:?}");
}
