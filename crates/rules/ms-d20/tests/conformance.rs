//! The shared conformance kit on every scenario and option set (times
//! `BATTLEMAT_TEST_SCALE` for longer runs).
use battlemat_core::Ruleset;
use battlemat_core::conformance::{self, Conformance};
use battlemat_ms_d20::MsD20;
use std::collections::BTreeMap;

fn opts(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn conformance_every_scenario_and_option_set() {
    let mut setups = Vec::new();
    for s in MsD20::info().scenarios {
        // The default options but a limit (a random game might never end).
        setups.push(MsD20::setup(&s.id, &opts(&[("melees", "10")])).unwrap());
        let seats = s.max_seats.to_string();
        setups.push(
            MsD20::setup(
                &s.id,
                &opts(&[("seats", &seats), ("melees", "5"), ("newtype_save", "10")]),
            )
            .unwrap(),
        );
    }
    let s = conformance::run::<MsD20>(
        &setups,
        Conformance {
            games: 30,
            ..Default::default()
        },
    );
    assert_eq!(s.games, 30 * 4 * conformance::scale());
    assert!(s.chance_points > 1000, "{s:?}");
    eprintln!("{s:?}");
}
