//! `battlemat odds abaoaqu` reproduces the worked examples of the A-Bao-A-Qu text with the
//! values as the examples write them (issue 20): stacks as `5+4`, stacked pilots as `N3+E`,
//! White Base's defence-only N2 as `N2d`, "distance is ignored" as `--range none`, and close
//! combat with the values read off the counters (ABQ-9-5 makes the ratio).
use assert_cmd::Command;
use serde_json::Value;
use std::time::Duration;

fn bm() -> Command {
    let mut c = Command::cargo_bin("battlemat").expect("the battlemat binary is built");
    c.timeout(Duration::from_secs(120));
    c.env_remove("RUST_BACKTRACE");
    c
}

fn run(args: &[&str]) -> std::process::Output {
    let out = bm().args(args).output().unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!all.contains("panicked"), "the binary panicked:\n{all}");
    out
}

/// The odds' JSON for `battlemat odds abaoaqu ARGS --json`.
fn odds(args: &[&str]) -> Value {
    let mut all = vec!["odds", "abaoaqu"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = run(&all);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn column(args: &[&str]) -> String {
    odds(args)["details"]["column"]
        .as_str()
        .unwrap()
        .to_string()
}

fn refused(args: &[&str]) -> String {
    let mut all = vec!["odds", "abaoaqu"];
    all.extend_from_slice(args);
    let out = run(&all);
    assert!(!out.status.success(), "{args:?} was accepted");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn abq_8_2_stacks_attack_and_defend_as_the_examples_write_them() {
    // ABQ-8-2 (a): "Two stacked attacking units( A[AP=5] & B [AP=4]) vs one defending unit
    // (X {DE=3]) distance 3 hexagons Effective attacking value of A = 5-3=2 B = 4-3 = 1
    // Combined effective attacking value = 2+1 = 3 Attack to defence ratio is 3:3 = 1:1".
    let a = odds(&["--attack", "5+4", "--defence", "3", "--range", "3"]);
    assert_eq!(a["details"]["effective_attack"], 3);
    assert_eq!(a["details"]["column"], "1:1");
    // (b): "A single attacking unit X[AP=6] vs two stacked defending units ( A[DE=3] &
    // B[DE=2] ) distance two hexagons Effective attacking value = 6-2 = 4 Combined defence
    // value is 3+2=5 Attack to defence ratio is 4:5 which is rounded in favour of the
    // defence to 1:2".
    let b = odds(&["--attack", "6", "--defence", "3+2", "--range", "2"]);
    assert_eq!(b["details"]["defence"], 5);
    assert_eq!(b["details"]["column"], "1:2");
    // And both stacked at once: 5-1 + 4-1 = 7 : 3 + 2 = 5 → 1:1.
    assert_eq!(
        column(&["--attack", "5+4", "--defence", "3+2", "--range", "1"]),
        "1:1"
    );
}

#[test]
fn abq_7_7_and_7_3_range_same_hex_and_distance_ignored() {
    // ABQ-7-7: "Gelgoog (attack point 6) ... Ball (defence point 2) ... three hexagons ...
    // 3:2 which is then rounded in favour of the defence to become 1:1".
    assert_eq!(
        column(&["--attack", "6", "--defence", "2", "--range", "3"]),
        "1:1"
    );
    // ABQ-7-3: "on an enemy occupying the same hexagon ... the attacking point is doubled."
    let same = odds(&["--attack", "6", "--defence", "2", "--same-hex"]);
    assert_eq!(same["details"]["effective_attack"], 12);
    // ABQ-11-4's "distance is ignored in this example": --range none, the value as printed.
    let none = odds(&["--attack", "6", "--defence", "2", "--range", "none"]);
    assert_eq!(none["details"]["effective_attack"], 6);
    assert_eq!(none["details"]["column"], "3:1");
    // --range 0 no longer doubles silently: it is refused, naming both readings.
    let e = refused(&["--attack", "6", "--defence", "2", "--range", "0"]);
    assert!(
        e.contains("--same-hex") && e.contains("--range none"),
        "{e}"
    );
}

#[test]
fn abq_14_2_and_14_3_pilots_and_stacked_pilots() {
    // ABQ-14-2 (a): "Gundam N3 [AP=6] attacks Zaku S [DP=2] Combat ratio = 6 : 2 = 3 : 1 ...
    // Total rank increase of +4 to get a ratio of 7 : 1".
    let a = odds(&[
        "--attack",
        "6",
        "--defence",
        "2",
        "--range",
        "none",
        "--attacker-pilot",
        "N3",
        "--defender-pilot",
        "S",
    ]);
    assert_eq!(a["details"]["shift"], 4);
    assert_eq!(a["details"]["column"], "7:1");
    // (b): "GM S [AP=5] attacks Rick Dom E [DP=3] Combat ratio = 5 : 3 which is rounded in
    // favour of the defender to 1 : 1 ... Total rank increase of +2 in favour of the elite
    // pilot to get a ratio of 1 : 3."
    assert_eq!(
        column(&[
            "--attack",
            "5",
            "--defence",
            "3",
            "--range",
            "none",
            "--attacker-pilot",
            "S",
            "--defender-pilot",
            "E",
        ]),
        "1:3"
    );
    // ABQ-14-3: "N3 + Elite = +3 ... N2 + Student = +1 ... Elite+ Student = 0".
    for (stack, shift) in [
        ("N3+E", 3),
        ("N2+S", 1),
        ("E+S", 0),
        ("S+S", -1),
        ("E+E", 1),
    ] {
        let o = odds(&[
            "--attack",
            "4+4",
            "--defence",
            "4",
            "--range",
            "none",
            "--attacker-pilot",
            stack,
        ]);
        assert_eq!(o["details"]["shift"], shift, "{stack}");
    }
    let e = refused(&[
        "--attack",
        "6",
        "--defence",
        "2",
        "--attacker-pilot",
        "N3+X",
    ]);
    assert!(e.contains("N1 N2 N3 E S"), "{e}");
}

#[test]
fn abq_11_3_white_base_n2_only_in_defence() {
    // ABQ-11-3: "Mirai Yashima is the only newtype in the crew so the newtype rank of 2 can
    // only be used for defence." N2d: counted defending, not attacking.
    let attacking = odds(&[
        "--attack",
        "8",
        "--defence",
        "7",
        "--range",
        "1",
        "--attacker-pilot",
        "N2d",
    ]);
    assert_eq!(attacking["details"]["shift"], 0);
    assert_eq!(attacking["details"]["column"], "1:1"); // 7:7
    let defending = odds(&[
        "--attack",
        "6",
        "--defence",
        "10",
        "--range",
        "none",
        "--defender-pilot",
        "N2d",
    ]);
    assert_eq!(defending["details"]["shift"], -2);
}

#[test]
fn abq_9_5_close_combat_with_the_values_on_the_counters() {
    // ABQ-9-5 (b): "MS vs fighters, cannon turrets The combat ratio is 2x Anti-MS attack
    // point : Anti-MS attack point Example: GM vs Jikko (JI) 2x 5 : 2 thus 10 : 2 = 5 : 1".
    let jikko = odds(&[
        "--close",
        "--attack",
        "5",
        "--defence",
        "2",
        "--defender-kind",
        "fighter",
    ]);
    assert_eq!(jikko["details"]["effective_attack"], 10);
    assert_eq!(jikko["details"]["column"], "5:1");
    // (c): "MS vs ship ... Zaku vs Salamis 2x3 : 3 thus 6 : 3 = 2 : 1".
    assert_eq!(
        column(&[
            "--close",
            "--attack",
            "3",
            "--defence",
            "3",
            "--defender-kind",
            "ship"
        ]),
        "2:1"
    );
    // (a) and ABQ-9-7: "GM [Anti-MS AP = 5] attacks Rick Dom [Anti-MS AP = 5] in confused
    // state The ratio is 5 : 5 = 1: 1".
    assert_eq!(
        column(&[
            "--close",
            "--attack",
            "5",
            "--defence",
            "5",
            "--defender-state",
            "C"
        ]),
        "1:1"
    );
    // ABQ-14-2, close combat (b): "Zaku S [Anti-MS AP 5] attacks Ball (regular pilot)
    // [Anti-MS AP=2 special condition applies] The combat ratio is thus 5 : 2 which is
    // rounded to 2 : 1. This ratio is then amended by -1 against the student pilot to 1 : 1."
    // The Ball's counter reads 4: halved at close range against a mobile suit.
    assert_eq!(
        column(&[
            "--close",
            "--attack",
            "5",
            "--defence",
            "4",
            "--defender-kind",
            "ball",
            "--attacker-pilot",
            "S",
        ]),
        "1:1"
    );
    // (a): "Zeong N2 [Anti-MS AP=7] attacks GM S [Anti-MS AP=5] ... 7 : 5 ... 1 : 1 ...
    // Total rank increase of +3 ... 4 : 1."
    assert_eq!(
        column(&[
            "--close",
            "--attack",
            "7",
            "--defence",
            "5",
            "--attacker-pilot",
            "N2",
            "--defender-pilot",
            "S",
        ]),
        "4:1"
    );
    // Close combat is in one hex and against one counter.
    let e = refused(&["--close", "--attack", "5", "--defence", "2", "--range", "1"]);
    assert!(e.contains("ABQ-9-1"), "{e}");
    let e = refused(&["--close", "--attack", "5", "--defence", "2+2"]);
    assert!(e.contains("one counter"), "{e}");
    let e = refused(&[
        "--close",
        "--attack",
        "5",
        "--defence",
        "2",
        "--defender-kind",
        "tank",
    ]);
    assert!(e.contains("fighter"), "{e}");
}
