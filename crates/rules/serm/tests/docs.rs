//! The documentation is true: the SERM action table in docs/json.md parses both ways, and
//! docs/rules/serm.md names every rule id with tests that exist.
use battlemat_serm::Action;

fn read(rel: &str) -> String {
    let path = format!("{}/../../../{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn docs_json_action_table_matches_the_code() {
    let doc = read("docs/json.md");
    let rows =
        battlemat_core::testing::action_table::<battlemat_serm::Serm>(&doc, "Actions (SERM)");
    assert_eq!(rows, 12, "one row per form of action");
}

#[test]
fn action_json_rejects_unknown_fields() {
    assert!(serde_json::from_str::<Action>(r#"{"react": {"soldier": 1, "x": 1}}"#).is_err());
    assert!(serde_json::from_str::<Action>(r#"{"react": {"soldier": 1}}"#).is_ok());
}

#[test]
fn every_rule_id_is_documented_and_tested() {
    let doc = read("docs/rules/serm.md");
    let tests = [
        read("crates/rules/serm/tests/rules.rs"),
        read("crates/rules/serm/tests/odds.rs"),
    ]
    .join("\n");
    for id in [
        "SERM-POOL",
        "SERM-SHOOT",
        "SERM-ENDURE",
        "SERM-REACT",
        "SERM-REACT-H",
        "SERM-MOVE",
    ] {
        assert!(
            doc.contains(&format!("— {id}")),
            "{id} has no section in docs/rules/serm.md"
        );
        let stem = format!("fn {}_", id.to_lowercase().replace('-', "_"));
        // `serm_react_…` must not be satisfied by `serm_react_h_…` alone, and the other way.
        let named = tests.lines().any(|l| {
            l.trim()
                .strip_prefix(&stem)
                .is_some_and(|rest| !(id == "SERM-REACT" && rest.starts_with("h_")))
        });
        assert!(named, "no test for {id}");
    }
    battlemat_core::testing::cited_tests_exist(&doc, "crates/rules/serm", read);
}
