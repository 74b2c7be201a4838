//! The action table in docs/json.md is true: every short text there parses to the action
//! whose JSON stands beside it, and both print back the same.
use battlemat_swtb::Action;

#[test]
fn docs_json_action_table_matches_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../docs/json.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let mut rows = 0;
    // The SWTB section only: from its heading to the next.
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("Actions (SWTB)"))
        .expect("an Actions (SWTB) section");
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let text = cells[1].trim_matches('`');
        let json = cells[2].trim_matches('`');
        let from_text: Action = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let from_json: Action =
            serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(from_text, from_json, "{text} vs {json}");
        assert_eq!(from_text.to_string(), text);
        let back: serde_json::Value = serde_json::to_value(&from_text).unwrap();
        assert_eq!(
            back,
            serde_json::from_str::<serde_json::Value>(json).unwrap()
        );
        rows += 1;
    }
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
