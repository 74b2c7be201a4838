//! docs/json.md cannot drift from what the lab's commands print: every key that `sim`,
//! `tournament` and `balance` print with `--json` (and `merge --json`, the same report), and
//! every key of a shard file (`--shard I/K --out FILE`, read by `merge`), is a row of the
//! key table in that command's section of docs/json.md; every row of those tables is printed
//! by one of the small runs here (or is named below as one they cannot produce, with the
//! reason); and every JSON example in those sections parses and holds only keys of its table.
//!
//! Keys are written as paths: `seats[].ci95` is the key `ci95` of each object in the array
//! `seats`. A map whose keys are the game's own names (options, unit types, the setup) is one
//! key: what is inside it is documented elsewhere (docs/json.md's game file, `rulesets`).

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("battlemat")
}

fn ok(args: &[&str]) -> String {
    let out = Command::new(bin()).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    assert!(!err.contains("panicked at"), "{args:?}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

/// Keys whose values are maps keyed by the game's own names, or the game's whole setup:
/// listed as one key, not looked into.
const OPAQUE: [&str; 4] = [
    "options",
    "config.options",
    "config.setup",
    "games[].armies.costs",
];

/// Every key path in `v`, below `prefix`.
fn paths(v: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                out.insert(p.clone());
                if !OPAQUE.contains(&p.as_str()) {
                    paths(x, &p, out);
                }
            }
        }
        Value::Array(a) => {
            for x in a {
                paths(x, &format!("{prefix}[]"), out);
            }
        }
        _ => {}
    }
}

fn json_paths(text: &str) -> BTreeSet<String> {
    let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let mut out = BTreeSet::new();
    paths(&v, "", &mut out);
    out
}

/// One section of docs/json.md: its key table's paths and its JSON examples' paths.
struct Section {
    table: BTreeSet<String>,
    examples: Vec<BTreeSet<String>>,
}

fn section(doc: &str, heading: &str) -> Section {
    let start = doc
        .find(heading)
        .unwrap_or_else(|| panic!("docs/json.md has no section {heading:?}"));
    let body = &doc[start + heading.len()..];
    let body = &body[..body.find("\n## ").unwrap_or(body.len())];
    let mut table = BTreeSet::new();
    let mut examples = Vec::new();
    let mut lines = body.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "```json" {
            let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
            examples.push(json_paths(&block.join("\n")));
        } else if let Some(row) = line.strip_prefix("| `") {
            // The first cell: one path, or several separated by commas.
            let cell = row.split(" |").next().unwrap_or("");
            for p in cell.split(", ") {
                table.insert(p.trim_matches('`').to_string());
            }
        }
    }
    assert!(!table.is_empty(), "{heading}: no key table");
    assert!(!examples.is_empty(), "{heading}: no JSON example");
    Section { table, examples }
}

/// Check a section against the keys the runs printed; `unseen` are rows these runs cannot
/// print.
fn check(doc: &str, heading: &str, printed: &BTreeSet<String>, unseen: &[&str]) {
    let s = section(doc, heading);
    let missing: Vec<&String> = printed.difference(&s.table).collect();
    assert!(
        missing.is_empty(),
        "{heading}: printed but not in docs/json.md's table: {missing:?}"
    );
    let stale: Vec<&String> = s
        .table
        .iter()
        .filter(|p| !printed.contains(*p) && !unseen.contains(&p.as_str()))
        .collect();
    assert!(
        stale.is_empty(),
        "{heading}: in docs/json.md's table but printed by none of the runs: {stale:?}"
    );
    for p in unseen {
        assert!(
            s.table.contains(*p),
            "{heading}: {p} is said to be unseen but is not in the table"
        );
        assert!(
            !printed.contains(*p),
            "{heading}: {p} is printed now: take it off the unseen list"
        );
    }
    for (k, e) in s.examples.iter().enumerate() {
        let extra: Vec<&String> = e.difference(&s.table).collect();
        assert!(
            extra.is_empty(),
            "{heading}: example {k} has keys not in the table: {extra:?}"
        );
    }
}

/// The runs: (report command, the same as a shard). Small, but between them they print
/// every kind of line: a safety limit and unfinished games (SERM), random armies with
/// unit types and warnings (SERM's points), fixed armies, a tournament of three.
fn runs() -> Vec<Vec<&'static str>> {
    vec![
        vec!["sim", "swtb", "--games", "3", "--players", "greedy,random"],
        vec!["sim", "serm", "--games", "12", "--players", "random,random"],
        vec![
            "tournament",
            "swtb",
            "--players",
            "greedy,random,random",
            "--games",
            "2",
        ],
        vec![
            "tournament",
            "serm",
            "--players",
            "random,random",
            "--games",
            "12",
        ],
        vec![
            "balance",
            "serm",
            "--scenario",
            "points",
            "--player",
            "random",
            "--games",
            "40",
        ],
        vec![
            "balance", "swtb", "--player", "random", "--games", "6", "--fixed",
        ],
    ]
}

fn doc() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/json.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_key_the_lab_prints_is_in_docs_json_md_and_every_documented_key_is_printed() {
    let doc = doc();
    let dir = tempfile::TempDir::new().unwrap();
    let [mut sim, mut tournament, mut balance, mut shard]: [BTreeSet<String>; 4] =
        Default::default();
    for (k, run) in runs().into_iter().enumerate() {
        let mut json = run.clone();
        json.push("--json");
        let report = ok(&json);
        let file = dir.path().join(format!("shard-{k}.json"));
        let file = file.to_str().unwrap();
        let mut sharded = run.clone();
        sharded.extend(["--shard", "0/1", "--out", file]);
        ok(&sharded);
        // merge prints the same report from the shard.
        assert_eq!(ok(&["merge", "--json", file]), report, "{run:?}");
        let into: &mut BTreeSet<String> = match run[0] {
            "sim" => &mut sim,
            "tournament" => &mut tournament,
            _ => &mut balance,
        };
        into.extend(json_paths(&report));
        shard.extend(json_paths(&std::fs::read_to_string(file).unwrap()));
    }
    check(&doc, "## Simulation (`battlemat sim", &sim, &[]);
    check(
        &doc,
        "## Tournament (`battlemat tournament",
        &tournament,
        &[],
    );
    // A suggested cost needs an interval within ±25 % of the cost, and a type that cannot be
    // estimated a decided game where it is always fielded alike: neither comes of 40 random
    // games (crates/lab's tests make both).
    check(
        &doc,
        "## Balance (`battlemat balance",
        &balance,
        &["units[].verdict.cost", "units[].verdict.reason"],
    );
    // No built-in game ends co-operatively (core's test game does).
    check(
        &doc,
        "## Shard files",
        &shard,
        &["games[].played.result.cooperative"],
    );
}

/// The check itself finds what it should: a key left out of a table, and a table row no run
/// prints.
#[test]
fn the_check_catches_an_undocumented_key_and_a_stale_row() {
    let doc = doc();
    let heading = "## Simulation (`battlemat sim";
    let printed = section(&doc, heading).table;
    check(&doc, heading, &printed, &[]);
    let mut more = printed.clone();
    more.insert("seats[].new_key".into());
    let e = std::panic::catch_unwind(|| check(&doc, heading, &more, &[])).unwrap_err();
    let e = e.downcast_ref::<String>().unwrap();
    assert!(e.contains("seats[].new_key"), "{e}");
    let mut fewer = printed;
    fewer.remove("mean_decisions");
    let e = std::panic::catch_unwind(|| check(&doc, heading, &fewer, &[])).unwrap_err();
    let e = e.downcast_ref::<String>().unwrap();
    assert!(
        e.contains("printed by none") && e.contains("mean_decisions"),
        "{e}"
    );
}
