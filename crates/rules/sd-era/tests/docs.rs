//! The documentation is true: the SD ERA action table in docs/json.md parses both ways, and
//! docs/rules/sd-era.md names every rule id of the game with tests that exist.
use battlemat_sd_era::Action;

fn read(rel: &str) -> String {
    let path = format!("{}/../../../{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn docs_json_action_table_matches_the_code() {
    let doc = read("docs/json.md");
    let rows =
        battlemat_core::testing::action_table::<battlemat_sd_era::SdEra>(&doc, "Actions (SD ERA)");
    assert_eq!(rows, 30, "one row per form of action");
}

#[test]
fn action_json_rejects_unknown_fields() {
    assert!(
        serde_json::from_str::<Action>(r#"{"melee": {"unit": 1, "target": 2, "extra": 1}}"#)
            .is_err()
    );
    assert!(serde_json::from_str::<Action>(r#"{"melee": {"unit": 1, "targte": 2}}"#).is_err());
    assert!(serde_json::from_str::<Action>(r#"{"melee": {"unit": 1, "target": 2}}"#).is_ok());
}

/// Every SDE id of the rules this crate plays appears in docs/rules/sd-era.md and in a test;
/// every test the page cites exists.
#[test]
fn every_rule_id_is_documented_and_tested() {
    let doc = read("docs/rules/sd-era.md");
    // The ids of shared/design/rule-ids.md (SD ERA), copied: the tests run from a clone of
    // this repository alone.
    let mut all: Vec<String> = [
        "SDE-T1",
        "SDE-T2",
        "SDE-A",
        "SDE-B",
        "SDE-C",
        "SDE-F",
        "SDE-H",
        "SDE-M",
        "SDE-S",
        "SDE-T",
        "SDE-V",
        "SDE-MOVE",
        "SDE-CHARGE",
        "SDE-RECOVER",
        "SDE-SHOOT",
        "SDE-RANGE",
        "SDE-SIGHT",
        "SDE-MELEE",
        "SDE-KB1",
        "SDE-KB2",
        "SDE-KB3",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let tests = [
        read("crates/rules/sd-era/tests/rules.rs"),
        read("crates/rules/sd-era/tests/odds.rs"),
    ]
    .join("\n");
    // The missions' ids: SDE-NAME.1 set-up, .2 special rules, .3 winning.
    let missions = [
        "KOTH", "SOCCER", "KICKBOMB", "RING", "GALLERY", "SAFARI", "EGG", "CONVOY", "ZONES",
    ];
    for m in missions {
        for k in 1..=3 {
            all.push(format!("SDE-{m}.{k}"));
        }
    }
    for id in &all {
        assert!(
            doc.contains(id.as_str()),
            "{id} is not in docs/rules/sd-era.md"
        );
        // A test names it: `sde_kb2_...` for SDE-KB2, `sde_koth_1_2_...` for SDE-KOTH.1.
        let stem = id
            .trim_start_matches("SDE-")
            .to_lowercase()
            .replace('.', "_");
        let (name, part) = match stem.split_once('_') {
            Some((n, p)) => (n.to_string(), Some(p.to_string())),
            None => (stem.clone(), None),
        };
        let found = tests.lines().any(|l| {
            let Some(f) = l.trim().strip_prefix("fn sde_") else {
                return false;
            };
            let f = f.split('(').next().unwrap_or("");
            match &part {
                None => f.starts_with(&format!("{name}_")),
                Some(p) => f.strip_prefix(&format!("{name}_")).is_some_and(|rest| {
                    rest.split('_')
                        .take_while(|t| t.chars().all(|c| c.is_ascii_digit()))
                        .any(|t| t == p)
                }),
            }
        }) || tests.contains(&format!("// {id}"))
            || tests.contains(&format!("({id})"));
        assert!(found, "no test for {id}");
    }
    battlemat_core::testing::cited_tests_exist(&doc, "crates/rules/sd-era", read);
}
