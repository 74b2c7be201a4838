//! docs/server.md's curl examples are real: every `curl` line of its `sh` blocks is run, as
//! written, against `battlemat serve` on a free port, and must be answered 2xx (and the
//! whole line, `&& battlemat verify …` included, must succeed).
//!
//! Only the host (`localhost:8080`, and the second node's `10.0.0.2:8080`) and the shell
//! variables are filled in: `$ID`, `$TOKEN` and `$BOT_TOKEN` come from the answers to
//! requests made first, for a game in the state the example is about (a seat free to join, a
//! seat to act at seq 2 after the initiative dice, a finished game for the record and the
//! dice, twelve steps for the replay). An example this test does not know is a failure, so
//! a new example cannot go unchecked. `websocat` is not curl and is not run.

mod server;

use serde_json::{Value, json};
use server::{http, start};
use std::process::Command;
use std::time::Duration;

/// Whether a shell line leaves a quote open (a `#` comment's words do not count).
fn open_quote(text: &str) -> bool {
    let (mut single, mut double, mut prev) = (false, false, ' ');
    for c in text.chars() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && prev.is_whitespace() => break,
            _ => {}
        }
        prev = c;
    }
    single || double
}

/// The curl commands of docs/server.md's `sh` blocks, in order: a line ending in `\` or
/// inside an open quote goes on to the next.
fn curl_examples(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut cur: Option<String> = None;
    for line in doc.lines() {
        if line.starts_with("```") && cur.is_none() {
            in_sh = !in_sh && line.trim() == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let piece = match cur.take() {
            Some(c) => format!("{c}{}", line.trim()),
            None if line.trim_start().starts_with("curl ") => line.trim().to_string(),
            None => continue,
        };
        if let Some(head) = piece.strip_suffix('\\') {
            cur = Some(format!("{} ", head.trim_end()));
        } else if open_quote(&piece) {
            cur = Some(format!("{piece}\n"));
        } else {
            out.push(piece);
        }
    }
    assert!(
        cur.is_none(),
        "an example runs off the end of its block: {cur:?}"
    );
    out
}

/// A game made through `addr`: its id and the seats' tokens (null for open seats).
fn create(addr: &str, seats: &[&str]) -> (String, Vec<Value>) {
    let body = json!({"game": "swtb", "scenario": "outpost", "seats": seats});
    let (st, r) = http(addr, "POST", "/api/games", None, Some(&body)).unwrap();
    assert_eq!(st, 201, "{r}");
    let tokens = r["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].clone())
        .collect();
    (r["id"].as_str().unwrap().to_string(), tokens)
}

fn game(addr: &str, id: &str) -> Value {
    http(addr, "GET", &format!("/api/games/{id}"), None, None)
        .unwrap()
        .1
}

/// The seat deciding now.
fn decider(addr: &str, id: &str) -> usize {
    let g = game(addr, id);
    g["to_act"]["decide"]["seat"]
        .as_u64()
        .unwrap_or_else(|| panic!("a seat decides: {g}")) as usize
}

fn tok(tokens: &[Value], seat: usize) -> String {
    tokens[seat].as_str().unwrap().to_string()
}

/// A two-human game after its initiative dice (seq 2: one of every six has a tie and rolls
/// again; those are made again).
fn at_initiative(addr: &str) -> (String, Vec<Value>) {
    for _ in 0..40 {
        let (id, t) = create(addr, &["human", "human"]);
        if game(addr, &id)["seq"] == 2 {
            return (id, t);
        }
    }
    panic!("no game without an initiative tie in 40")
}

/// Act for the deciding seat: the last legal action (`end` once units may move).
fn act(addr: &str, id: &str, tokens: &[Value]) {
    let g = game(addr, id);
    let seat = decider(addr, id);
    let t = tok(tokens, seat);
    let (_, legal) = http(
        addr,
        "GET",
        &format!("/api/games/{id}/legal"),
        Some(&t),
        None,
    )
    .unwrap();
    let a = legal["actions"].as_array().unwrap().last().unwrap()["text"].clone();
    let (st, r) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(&t),
        Some(&json!({"action": a, "seq": g["seq"]})),
    )
    .unwrap();
    assert_eq!(st, 200, "{r}");
}

fn finished(addr: &str) -> (String, Vec<Value>) {
    let (id, t) = at_initiative(addr);
    let (st, r) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&tok(&t, 0)),
        None,
    )
    .unwrap();
    assert_eq!(st, 200, "{r}");
    (id, t)
}

/// The variables an example runs with, from a game made for it.
fn setup(addr: &str, cmd: &str) -> Vec<(&'static str, String)> {
    let has = |s: &str| cmd.contains(s);
    if has("/api/games -H") || has("/api/games?") || has("/api/rulesets") || has("openapi.json") {
        return Vec::new();
    }
    if has("/join") {
        let (id, _) = create(addr, &["human", "open"]);
        let (_, other) = create(addr, &["human", "human"]);
        return vec![("ID", id), ("BOT_TOKEN", tok(&other, 0))];
    }
    if has("/actions") && has("\"first 1\", \"seq\": 2") {
        let (id, t) = at_initiative(addr);
        let seat = decider(addr, &id);
        return vec![("ID", id), ("TOKEN", tok(&t, seat))];
    }
    if has("/actions") && has("\"seq\": 3") {
        let (id, t) = at_initiative(addr);
        act(addr, &id, &t);
        let seat = decider(addr, &id);
        return vec![("ID", id), ("TOKEN", tok(&t, seat))];
    }
    if has("/claim") {
        // The game waits on the chooser; the other seat claims (`--gone-after 0`).
        let (id, t) = at_initiative(addr);
        let seat = 1 - decider(addr, &id);
        return vec![("ID", id), ("TOKEN", tok(&t, seat))];
    }
    if has("/rematch") || has("/record") || has("/dice") {
        let (id, t) = finished(addr);
        return vec![("ID", id), ("TOKEN", tok(&t, 1))];
    }
    if has("/events?after=4") || has("/replay?at=12") {
        let (id, t) = at_initiative(addr);
        while game(addr, &id)["seq"].as_i64().unwrap() < 12 {
            act(addr, &id, &t);
        }
        return vec![("ID", id), ("TOKEN", tok(&t, 0))];
    }
    if has("/hint") {
        let (id, t) = at_initiative(addr);
        let seat = decider(addr, &id);
        return vec![("ID", id), ("TOKEN", tok(&t, seat))];
    }
    let known = [
        "/leave",
        "/resign",
        "/legal",
        "/stream",
        "/replay?at=0",
        "/svg",
        "/api/games/$ID -H",
    ];
    if known.iter().any(|k| has(k)) {
        let (id, t) = at_initiative(addr);
        return vec![("ID", id), ("TOKEN", tok(&t, 0))];
    }
    panic!("docs/server.md has an example this test does not know how to set up: {cmd}")
}

#[test]
fn every_curl_example_in_the_server_doc_works() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/server.md"))
        .unwrap();
    let examples = curl_examples(&doc);
    assert!(examples.len() >= 20, "the doc's examples: {examples:#?}");
    let dir = tempfile::TempDir::new().unwrap();
    let db = format!("sqlite:{}", dir.path().join("games.db").display());
    let (_server, addr) = start(&db, &["--gone-after", "0"]);
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_battlemat"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for example in &examples {
        let vars = setup(&addr, example);
        let cmd = example
            .replace("localhost:8080", &addr)
            .replace("10.0.0.2:8080", &addr);
        // A stream answers 200 at once and goes on: it is cut after a second.
        let streaming = cmd.contains("curl -sN");
        let max = if streaming { "1" } else { "30" };
        // curl writes each answer's status on stderr; the body goes where the example says.
        let script = format!(
            "curl() {{ command curl --max-time {max} -w '%{{stderr}}HTTP %{{http_code}}\\n' \"$@\"; }}\n{cmd}"
        );
        let out = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .current_dir(dir.path())
            .env("PATH", &path)
            .envs(vars.iter().map(|(k, v)| (*k, v.as_str())))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let statuses: Vec<&str> = stderr
            .lines()
            .filter_map(|l| l.strip_prefix("HTTP "))
            .collect();
        let said = format!(
            "docs/server.md: {example}\n  ran: {cmd}\n  with {vars:?}\n  exit {:?}, statuses {statuses:?}\n  stdout: {}\n  stderr: {stderr}",
            out.status.code(),
            stdout.chars().take(600).collect::<String>()
        );
        assert!(!statuses.is_empty(), "no answer: {said}");
        assert!(
            statuses.iter().all(|s| s.starts_with('2')),
            "not 2xx: {said}"
        );
        // A stream cut by --max-time ends curl with 28 (timed out), having answered 200.
        let ok = out.status.success() || (streaming && out.status.code() == Some(28));
        assert!(ok, "the command failed: {said}");
        std::thread::sleep(Duration::from_millis(10));
    }
    eprintln!("{} curl examples of docs/server.md ran", examples.len());
}

#[test]
fn the_examples_are_read_whole() {
    let doc = "x\n```sh\ncurl -s a \\\n  -d '{\"a\": 1,\n   \"b\": 2}'\nwebsocat b\n```\ncurl -s not-in-a-block\n```sh\ncurl c # it's\n```\n";
    assert_eq!(
        curl_examples(doc),
        ["curl -s a -d '{\"a\": 1,\n\"b\": 2}'", "curl c # it's"]
    );
}
