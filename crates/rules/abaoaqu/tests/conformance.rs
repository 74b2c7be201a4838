//! The shared conformance kit on every scenario: two players with the default options, and
//! more seats with a shorter turn limit (times `BATTLEMAT_TEST_SCALE` for longer runs).
use battlemat_abaoaqu::AbaoAqu;
use battlemat_core::Ruleset;
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
    // A scenario where both sides start within reach of each other, so that random games
    // fight from the first turn (the built-in ones start far apart).
    let melee = battlemat_core::DataFile {
        name: "melee.toml".into(),
        text: include_str!("data/melee.toml").into(),
    };
    for o in [
        opts(&[("turns", "10")]),
        opts(&[("seats", "4"), ("turns", "10")]),
    ] {
        setups.push(AbaoAqu::setup_from_data(None, std::slice::from_ref(&melee), &o).unwrap());
    }
    let s = conformance::run::<AbaoAqu>(
        &setups,
        Conformance {
            games: 4,
            max_steps: 200_000,
            deep_every: 97,
            ..Default::default()
        },
    );
    assert_eq!(s.games, 4 * 16 * conformance::scale());
    // The melee games fight: dice are rolled.
    assert!(s.chance_points > 200, "{s:?}");
    eprintln!("{s:?}");
}
