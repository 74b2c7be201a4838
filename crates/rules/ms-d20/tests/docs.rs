//! The documentation is true: the action table in docs/json.md parses both ways, and
//! docs/rules/ms-d20.md names every rule id with tests that exist.
use battlemat_ms_d20::Action;

fn read(rel: &str) -> String {
    let path = format!("{}/../../../{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn docs_json_action_table_matches_the_code() {
    let doc = read("docs/json.md");
    let rows = battlemat_core::testing::action_table::<battlemat_ms_d20::MsD20>(
        &doc,
        "Actions (Mobile-suit d20)",
    );
    assert_eq!(rows, 12, "one row per form of action");
}

#[test]
fn action_json_rejects_unknown_fields() {
    assert!(serde_json::from_str::<Action>(r#"{"parry": {"section": 1, "x": 1}}"#).is_err());
    assert!(serde_json::from_str::<Action>(r#"{"parry": {"section": 1}}"#).is_ok());
}

/// Every D20 id of shared/design/rule-ids.md (copied: the tests run from a clone of this
/// repository alone) has a section in docs/rules/ms-d20.md and a test named by it
/// (`d20_3d_…` for D20-3D) or quoting it; every test the page cites exists.
#[test]
fn every_rule_id_is_documented_and_tested() {
    let doc = read("docs/rules/ms-d20.md");
    let tests = [
        read("crates/rules/ms-d20/tests/rules.rs"),
        read("crates/rules/ms-d20/tests/odds.rs"),
    ]
    .join("\n");
    let ids = [
        "D20-1", "D20-2", "D20-3", "D20-3D", "D20-3H", "D20-4", "D20-5", "D20-5B", "D20-5L",
        "D20-5E", "D20-5M", "D20-5P", "D20-6", "D20-6B", "D20-6S", "D20-6O", "D20-7", "D20-8",
        "D20-9", "D20-10",
    ];
    for id in ids {
        assert!(
            doc.contains(&format!("— {id}")),
            "{id} has no section in docs/rules/ms-d20.md"
        );
        let stem = id.to_lowercase().replace('-', "_");
        let named = tests.lines().any(|l| {
            l.trim()
                .strip_prefix(&format!("fn {stem}_"))
                .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_digit()))
                || l.contains(&format!("_{}_", &stem[4..])) && l.trim().starts_with("fn d20_")
        });
        let quoted = tests.contains(&format!("// {id}:")) || tests.contains(&format!("{id}: \""));
        assert!(named || quoted, "no test for {id}");
    }
    battlemat_core::testing::cited_tests_exist(&doc, "crates/rules/ms-d20", read);
}
