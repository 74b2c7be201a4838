//! The shared conformance kit on every scenario: two players with the default options, and
//! more seats with a shorter turn limit (times `BATTLEMAT_TEST_SCALE` for longer runs).
use battlemat_abaoaqu::AbaoAqu;
use battlemat_core::Game;
use battlemat_core::conformance::{self, Conformance};
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
    for s in AbaoAqu::info().scenarios {
        setups.push(AbaoAqu::setup(&s.id, &opts(&[("turns", "10")])).unwrap());
        let seats = s.max_seats.to_string();
        setups.push(
            AbaoAqu::setup(&s.id, &opts(&[("seats", &seats), ("turns", "10")]))
                .unwrap_or_else(|e| panic!("{}: {e}", s.id)),
        );
    }
    let s = conformance::run::<AbaoAqu>(
        &setups,
        Conformance {
            games: 2,
            max_steps: 200_000,
            deep_every: 97,
            ..Default::default()
        },
    );
    assert_eq!(s.games, 2 * 14 * conformance::scale());
    eprintln!("{s:?}");
}
