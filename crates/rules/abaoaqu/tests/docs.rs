//! The documentation is true: the A-Bao-A-Qu action table in docs/json.md parses both ways,
//! and docs/rules/abaoaqu.md names every rule id of the game with tests that exist.
use battlemat_abaoaqu::Action;

fn read(rel: &str) -> String {
    let path = format!("{}/../../../{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn docs_json_action_table_matches_the_code() {
    let doc = read("docs/json.md");
    let rows = battlemat_core::testing::action_table::<battlemat_abaoaqu::AbaoAqu>(
        &doc,
        "Actions (A-Bao-A-Qu)",
    );
    assert_eq!(rows, 17, "one row per form of action");
}

#[test]
fn action_json_rejects_unknown_fields() {
    assert!(serde_json::from_str::<Action>(r#"{"with": {"unit": 1, "extra": 1}}"#).is_err());
    assert!(serde_json::from_str::<Action>(r#"{"move": {"to": "712"}}"#).is_err());
    assert!(serde_json::from_str::<Action>(r#"{"move": {"to": "0712"}}"#).is_ok());
}

/// The ids of shared/design/rule-ids.md for A-Bao-A-Qu (copied: the tests run from a clone
/// of this repository alone).
fn all_ids() -> Vec<String> {
    let mut all: Vec<String> = ["ABQ-1", "ABQ-2-A", "ABQ-2-B", "ABQ-2-C"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for (sec, n) in [
        (3, 3),
        (4, 6),
        (5, 6),
        (6, 4),
        (7, 7),
        (8, 4),
        (9, 7),
        (10, 4),
        (11, 4),
        (12, 4),
        (13, 4),
        (14, 3),
        (15, 3),
        (16, 5),
        (17, 4),
        (18, 6),
    ] {
        for k in 1..=n {
            all.push(format!("ABQ-{sec}-{k}"));
        }
    }
    for k in 1..=7 {
        all.push(format!("ABQ-S{k}"));
    }
    all.push("ABQ-UNITS".into());
    all
}

/// Which ids a test name covers: `abq_7_5_…` is ABQ-7-5, `abq_12_1_to_12_4_…` 12-1 … 12-4,
/// `abq_5_5_and_5_6_…` both, `abq_2_a_…` ABQ-2-A, `abq_s3_…` ABQ-S3, `abq_units_…`.
fn ids_of_name(name: &str) -> Vec<String> {
    let Some(rest) = name.strip_prefix("abq_") else {
        return vec![];
    };
    let t: Vec<&str> = rest.split('_').collect();
    let num = |s: &str| s.parse::<u32>().ok();
    match (t.first().copied(), t.get(1).copied()) {
        (Some("units"), _) => vec!["ABQ-UNITS".into()],
        (Some(s), _) if s.starts_with('s') && num(&s[1..]).is_some() => {
            vec![format!("ABQ-{}", s.to_uppercase())]
        }
        (Some("1"), Some(b)) if num(b).is_none() && b.len() > 1 => vec!["ABQ-1".into()],
        (Some(a), Some(b)) if num(a).is_some() => {
            if b.len() == 1 && b.chars().all(|c| c.is_ascii_lowercase()) {
                return vec![format!("ABQ-{a}-{}", b.to_uppercase())];
            }
            let Some(first) = num(b) else { return vec![] };
            let mut out = vec![format!("ABQ-{a}-{first}")];
            if matches!(t.get(2).copied(), Some("to") | Some("and"))
                && t.get(3).copied() == Some(a)
                && let Some(last) = t.get(4).and_then(|s| num(s))
            {
                let range: Vec<u32> = if t[2] == "to" {
                    (first..=last).collect()
                } else {
                    vec![last]
                };
                out.extend(range.into_iter().map(|k| format!("ABQ-{a}-{k}")));
            }
            out
        }
        _ => vec![],
    }
}

#[test]
fn every_rule_id_is_documented_and_tested() {
    let doc = read("docs/rules/abaoaqu.md");
    let tests = [
        read("crates/rules/abaoaqu/tests/rules.rs"),
        read("crates/rules/abaoaqu/tests/odds.rs"),
    ]
    .join("\n");
    let named: Vec<String> = tests
        .lines()
        .filter_map(|l| l.trim().strip_prefix("fn "))
        .map(|f| f.split('(').next().unwrap_or("").to_string())
        .flat_map(|n| ids_of_name(&n))
        .collect();
    for id in all_ids() {
        assert!(
            doc.contains(&format!("— {id}")),
            "{id} has no section in docs/rules/abaoaqu.md"
        );
        // Named by a test, or quoted by one ("// ABQ-7-7: ..." or a refusal's rule).
        let found = named.contains(&id)
            || tests.contains(&format!("{id}:"))
            || tests.contains(&format!("\"{id}\""))
            || tests.contains(&format!("{id} "));
        assert!(found, "no test for {id}");
    }
    battlemat_core::testing::cited_tests_exist(&doc, "crates/rules/abaoaqu", read);
}

#[test]
fn test_names_map_to_ids() {
    assert_eq!(ids_of_name("abq_7_5_rounded"), ["ABQ-7-5"]);
    assert_eq!(ids_of_name("abq_2_a_classes"), ["ABQ-2-A"]);
    assert_eq!(ids_of_name("abq_s3_battle"), ["ABQ-S3"]);
    assert_eq!(ids_of_name("abq_units_every"), ["ABQ-UNITS"]);
    assert_eq!(ids_of_name("abq_1_boards"), ["ABQ-1"]);
    assert_eq!(
        ids_of_name("abq_12_1_to_12_3_elite"),
        ["ABQ-12-1", "ABQ-12-1", "ABQ-12-2", "ABQ-12-3"]
    );
    assert_eq!(ids_of_name("abq_5_5_and_5_6_x"), ["ABQ-5-5", "ABQ-5-6"]);
}
