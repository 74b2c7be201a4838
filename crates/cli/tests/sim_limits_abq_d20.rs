//! Issue 20, "Limits that decide games": A-Bao-A-Qu ("No. of Turns: Until a victory condition
//! is met", ABQ-3-3) and ms-d20 (no victory condition, D20-2) have no limit in play; `sim`
//! stops a game at the safety limit and reports it as unfinished — neither a win nor a draw
//! — and says how many; with the option given, the house rule decides them (`by_limit`).
use assert_cmd::Command;
use serde_json::Value;
use std::time::Duration;

fn sim(args: &[&str]) -> Value {
    let out = Command::cargo_bin("battlemat")
        .expect("the battlemat binary is built")
        .timeout(Duration::from_secs(300))
        .env_remove("RUST_BACKTRACE")
        .arg("sim")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn wins(r: &Value) -> Vec<u64> {
    r["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["wins"].as_u64().unwrap())
        .collect()
}

#[test]
fn abq_3_3_games_stopped_by_the_safety_limit_are_unfinished() {
    // Random players on scenario 4 never hold the fortress nor destroy every Zeon counter
    // in 15 turns (seed 1): every game is stopped by the safety limit.
    let base = [
        "abaoaqu",
        "--scenario",
        "s_field_reduced",
        "--players",
        "random,random",
        "--games",
        "4",
        "--seed",
        "1",
    ];
    let r = sim(&base);
    assert_eq!(r["safety_limit"], "turns=15");
    assert_eq!(r["unfinished"], 4);
    assert_eq!(wins(&r), [0, 0]);
    assert_eq!(r["draws"], 0);
    // The same games with the house rule asked for: the limit decides them (Zeon defends
    // the objective: "Zeon: prevent Feds' victory condition"), nothing is unfinished.
    let mut with = base.to_vec();
    with.extend(["--option", "turns=15"]);
    let r = sim(&with);
    assert!(r["unfinished"].is_null(), "{r}");
    assert_eq!(wins(&r), [0, 4]);
}

#[test]
fn d20_2_games_stopped_by_the_safety_limit_are_unfinished() {
    // The ambush with random players: some games outlast ten melee rounds (seed 1).
    let base = [
        "ms-d20",
        "--scenario",
        "ambush",
        "--players",
        "random,random",
        "--games",
        "20",
        "--seed",
        "1",
    ];
    let r = sim(&base);
    assert_eq!(r["safety_limit"], "melees=10");
    let unfinished = r["unfinished"].as_u64().unwrap();
    assert!(unfinished > 0, "{r}");
    let w = wins(&r);
    assert_eq!(
        w.iter().sum::<u64>() + r["draws"].as_u64().unwrap() + unfinished,
        20
    );
    // With `melees=10` asked for, the house rule decides them: every game a win or a draw,
    // and the games that finished before the limit the same as before.
    let mut with = base.to_vec();
    with.extend(["--option", "melees=10"]);
    let d = sim(&with);
    assert!(d["unfinished"].is_null(), "{d}");
    let dw = wins(&d);
    assert_eq!(dw.iter().sum::<u64>() + d["draws"].as_u64().unwrap(), 20);
    assert!(dw[0] >= w[0] && dw[1] >= w[1]);
}
