//! The action table in docs/json.md is true: every short text there parses to the action
//! whose JSON stands beside it, and both print back the same.
use battlemat_swtb::Action;

#[test]
fn docs_json_action_table_matches_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../docs/json.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let rows =
        battlemat_core::testing::action_table::<battlemat_swtb::Swtb>(&doc, "Actions (SWTB)");
    assert_eq!(rows, 11, "one row per kind of action");
}

/// A misspelt or extra field is an error, not silently dropped.
#[test]
fn action_json_rejects_unknown_fields() {
    assert!(
        serde_json::from_str::<Action>(r#"{"attack": {"unit": 1, "target": 2, "extra": 1}}"#)
            .is_err()
    );
    assert!(serde_json::from_str::<Action>(r#"{"attack": {"unit": 1, "targte": 2}}"#).is_err());
    assert!(serde_json::from_str::<Action>(r#"{"attack": {"unit": 1, "target": 2}}"#).is_ok());
}
