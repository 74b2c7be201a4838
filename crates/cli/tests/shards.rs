//! `sim`, `tournament` and `balance` split into shards (`--shard I/K --out FILE`) and put
//! back together by `battlemat merge`: the merge prints the one run's report byte for byte,
//! text and JSON, and refuses shards that do not make one whole run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("battlemat")
}

fn run(args: &[&str]) -> Output {
    Command::new(bin()).args(args).output().unwrap()
}

fn ok(args: &[&str]) -> Vec<u8> {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn fails(args: &[&str]) -> String {
    let out = run(args);
    assert!(!out.status.success(), "{args:?} should fail");
    assert_eq!(out.status.code(), Some(1), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// Run `k` shard processes of `command` side by side; their files, in shard order.
fn shards(dir: &Path, name: &str, command: &[&str], k: u64) -> Vec<String> {
    let files: Vec<String> = (0..k)
        .map(|i| dir.join(format!("{name}-{i}.json")).display().to_string())
        .collect();
    let children: Vec<_> = (0..k)
        .map(|i| {
            Command::new(bin())
                .args(command)
                .args(["--shard", &format!("{i}/{k}"), "--out", &files[i as usize]])
                .output()
        })
        .collect();
    for (i, c) in children.into_iter().enumerate() {
        let out = c.unwrap();
        assert!(
            out.status.success(),
            "shard {i}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "a shard prints no report");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("shard {i}/{k}: ")), "{err}");
    }
    files
}

fn merged(files: &[&str], json: bool) -> Vec<u8> {
    let mut args = vec!["merge"];
    if json {
        args.push("--json");
    }
    args.extend(files);
    ok(&args)
}

/// The three commands, small runs, K = 3: the merge (files given in another order) is the
/// single run's report, text and JSON, byte for byte.
#[test]
fn three_shards_merge_to_the_single_runs_report_byte_for_byte() {
    let dir = tempfile::TempDir::new().unwrap();
    let commands: [(&str, Vec<&str>); 3] = [
        ("sim", vec!["sim", "swtb", "--games", "7", "--seed", "4"]),
        (
            "tournament",
            vec![
                "tournament",
                "swtb",
                "--players",
                "greedy,random,random",
                "--games",
                "3",
                "--seed",
                "4",
            ],
        ),
        (
            "balance",
            vec!["balance", "swtb", "--player", "random", "--games", "40"],
        ),
    ];
    for (name, command) in &commands {
        let files = shards(dir.path(), name, command, 3);
        let f: Vec<&str> = files.iter().map(String::as_str).collect();
        let order = [f[2], f[0], f[1]];
        let single = ok(command);
        assert!(!single.is_empty());
        assert_eq!(
            String::from_utf8_lossy(&merged(&order, false)),
            String::from_utf8_lossy(&single),
            "{name}: text"
        );
        let mut json = command.clone();
        json.push("--json");
        assert_eq!(
            String::from_utf8_lossy(&merged(&order, true)),
            String::from_utf8_lossy(&ok(&json)),
            "{name}: JSON"
        );
        // One shard of one: the whole run in a file.
        let whole = shards(dir.path(), &format!("{name}-whole"), command, 1);
        assert_eq!(merged(&[&whole[0]], false), single, "{name}: 0/1");
    }
}

/// A missing shard, one given twice, another run's shard, a file that is no shard: each is
/// refused with the file and the game named.
#[test]
fn shards_that_do_not_make_one_run_are_refused() {
    let dir = tempfile::TempDir::new().unwrap();
    let command = ["sim", "swtb", "--games", "5", "--players", "random,random"];
    let files = shards(dir.path(), "s", &command, 3);
    let f: Vec<&str> = files.iter().map(String::as_str).collect();

    let err = fails(&["merge", f[0], f[2]]);
    assert!(
        err.contains("game 1 is in none of the files (they hold 3 of the run's 5 games)"),
        "{err}"
    );
    let err = fails(&["merge", f[0], f[1], f[2], f[1]]);
    assert!(
        err.contains(&format!("game 1 is in both {} and {}", f[1], f[1])),
        "{err}"
    );
    let mut seed = command.to_vec();
    seed.extend(["--seed", "9"]);
    let other = shards(dir.path(), "seed9", &seed, 3);
    let err = fails(&["merge", f[0], f[1], &other[2]]);
    assert!(
        err.contains(&format!(
            "{}: another run's shard: its configuration differs from {}'s (seed 9 against 0)",
            other[2], f[0]
        )),
        "{err}"
    );
    let mut more = command.to_vec();
    more[3] = "6";
    let other = shards(dir.path(), "six", &more, 3);
    let err = fails(&["merge", f[0], f[1], &other[2]]);
    assert!(
        err.contains("differs") && err.contains("games 6 against 5"),
        "{err}"
    );

    // A torn file, a game file, nothing at all.
    let torn = dir.path().join("torn.json");
    let text = std::fs::read_to_string(f[2]).unwrap();
    std::fs::write(&torn, &text[..text.len() / 2]).unwrap();
    let torn = torn.display().to_string();
    let err = fails(&["merge", f[0], f[1], &torn]);
    assert!(err.contains(&format!("{torn}: not JSON")), "{err}");
    let game = dir.path().join("g.json").display().to_string();
    ok(&["new", "swtb", "--seed", "1", "-o", &game]);
    let err = fails(&["merge", &game]);
    assert!(
        err.contains(&format!("{game}: not a Battlemat shard file")),
        "{err}"
    );
    let err = fails(&["merge", "/no/such/shard.json"]);
    assert!(err.contains("/no/such/shard.json"), "{err}");

    // A shard needs its file, and a shard that does not exist is refused before any game.
    let mut bad = command.to_vec();
    bad.extend(["--shard", "3/3", "--out", "x.json"]);
    let err = String::from_utf8_lossy(&run(&bad).stderr).to_string();
    assert!(err.contains("0/3 to 2/3"), "{err}");
    let mut no_out = command.to_vec();
    no_out.extend(["--shard", "0/3"]);
    assert!(!run(&no_out).status.success());
}
