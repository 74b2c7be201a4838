//! The shared conformance kit on every mission: two players with the default options, and
//! three to six players with the other values of every house rule, a draft and `start = edge`
//! included
//! (times `BATTLEMAT_TEST_SCALE` for longer runs).
use battlemat_core::Ruleset;
use battlemat_core::conformance::{self, Conformance};
use battlemat_sd_era::SdEra;
use std::collections::BTreeMap;

fn opts(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn setups() -> Vec<battlemat_sd_era::Setup> {
    let variants = [
        // The default options but the round limit (a random game might never end).
        opts(&[("rounds", "30")]),
        opts(&[
            ("seats", "3"),
            ("contest", "sum"),
            ("artillery", "extra_die"),
            ("jump", "mobile_suits"),
            ("past_enemies", "ring_only"),
            ("rounds", "15"),
        ]),
        opts(&[
            ("seats", "4"),
            ("armies", "draft"),
            ("points", "8"),
            ("charge_balls", "true"),
            ("spray_range", "once"),
            ("collect", "one"),
            ("rounds", "15"),
        ]),
        opts(&[("seats", "6"), ("rounds", "15")]),
        // Each player chooses an edge and places their units (with a draft before it).
        opts(&[
            ("seats", "3"),
            ("start", "edge"),
            ("armies", "draft"),
            ("rounds", "15"),
        ]),
    ];
    let mut out = Vec::new();
    for m in SdEra::info().scenarios {
        for o in &variants {
            out.push(SdEra::setup(&m.id, o).unwrap_or_else(|e| panic!("{}: {e}", m.id)));
        }
    }
    out
}

#[test]
fn conformance_every_mission_and_option_set() {
    let s = conformance::run::<SdEra>(
        &setups(),
        Conformance {
            games: 20,
            ..Default::default()
        },
    );
    assert_eq!(s.games, 20 * 45 * conformance::scale());
    eprintln!("{s:?}");
}
