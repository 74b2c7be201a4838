//! `battlemat serve` as a process: killed with SIGKILL while a client posts actions, then
//! started again on the same database — every acknowledged action is there, and the game
//! goes on from it. On a SQLite file, or on PostgreSQL with `BATTLEMAT_TEST_PG` (./test.sh
//! runs both).

mod server;

use serde_json::{Value, json};
use server::{TestDb, create_two_human_game, http, start};
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn a_killed_server_loses_no_acknowledged_action() {
    let db = TestDb::new();
    // On PostgreSQL the restarted server is a new node (a new port): it takes the game
    // over once the dead one's lease expires, a second after its last renewal.
    let lease = ["--lease", "1"];
    let (mut server, addr) = start(&db.url, &lease);
    let (id, tokens) = create_two_human_game(&addr);
    // A client plays as fast as it can; the server is killed under it.
    let client = {
        let (addr, id, tokens) = (addr.clone(), id.clone(), tokens.clone());
        std::thread::spawn(move || {
            let mut acked = 0i64;
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(20) {
                let Ok((_, g)) = http(&addr, "GET", &format!("/api/games/{id}"), None, None) else {
                    break;
                };
                let Some(seat) = g["to_act"]["decide"]["seat"].as_u64() else {
                    break;
                };
                let t = &tokens[seat as usize];
                let Ok((_, legal)) = http(
                    &addr,
                    "GET",
                    &format!("/api/games/{id}/legal"),
                    Some(t),
                    None,
                ) else {
                    break;
                };
                let Some(a) = legal["actions"]
                    .as_array()
                    .and_then(|a| a.last())
                    .map(|a| a["text"].clone())
                else {
                    break;
                };
                match http(
                    &addr,
                    "POST",
                    &format!("/api/games/{id}/actions"),
                    Some(t),
                    Some(&json!({"action": a, "seq": g["seq"]})),
                ) {
                    Ok((200, r)) => acked = acked.max(r["seq"].as_i64().unwrap()),
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
            acked
        })
    };
    std::thread::sleep(Duration::from_millis(700));
    server.kill(); // SIGKILL
    let acked = client.join().unwrap();
    assert!(acked > 2, "the client made moves before the kill ({acked})");
    let (mut again, addr) = start(&db.url, &lease);
    let (_, g) = http(&addr, "GET", &format!("/api/games/{id}"), None, None).unwrap();
    let seq = g["seq"].as_i64().unwrap();
    assert!(
        seq >= acked,
        "acknowledged step {acked} lost: the game is at {seq}"
    );
    let (_, rec) = http(&addr, "GET", &format!("/api/games/{id}/record"), None, None).unwrap();
    assert_eq!(rec["steps"].as_array().unwrap().len() as i64, seq);
    // And it goes on.
    if let Some(seat) = g["to_act"]["decide"]["seat"].as_u64() {
        let t = &tokens[seat as usize];
        let (_, legal) = http(
            &addr,
            "GET",
            &format!("/api/games/{id}/legal"),
            Some(t),
            None,
        )
        .unwrap();
        let a = legal["actions"][0]["text"].clone();
        let body = json!({"action": a, "seq": seq});
        let path = format!("/api/games/{id}/actions");
        let start = Instant::now();
        let (st, r) = loop {
            let (st, r) = http(&addr, "POST", &path, Some(t), Some(&body)).unwrap();
            // 503: the dead node's lease has not expired yet (PostgreSQL only).
            if st != 503 || start.elapsed() > Duration::from_secs(5) {
                break (st, r);
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        assert_eq!(st, 200, "{r}");
    }
    again.kill();
}

/// `battlemat verify` of the server's record: before the end the dice cannot be checked
/// (exit 3); after it every die is recomputed from the revealed seed and the seats' seeds and
/// the game replayed (exit 0, `replay --verify` too); a record with one die changed fails
/// (exit 4), and so does one whose revealed seed is not the one committed to.
#[test]
fn verify_checks_a_server_record_die_by_die() {
    let db = TestDb::new();
    let dir = db.dir();
    let (mut server, addr) = start(&db.url, &[]);
    let (st, created) = http(
        &addr,
        "POST",
        "/api/games",
        None,
        Some(&json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "open"], "seed": "mine"})),
    )
    .unwrap();
    assert_eq!(st, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let t0 = created["seats"][0]["token"].as_str().unwrap().to_string();
    let (st, joined) = http(
        &addr,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&json!({"seed": "theirs"})),
    )
    .unwrap();
    assert_eq!(st, 200, "{joined}");
    let t1 = joined["token"].as_str().unwrap().to_string();
    let tokens = [t0, t1];
    // A few moves, each seat as it decides.
    for _ in 0..4 {
        let (_, g) = http(&addr, "GET", &format!("/api/games/{id}"), None, None).unwrap();
        let Some(seat) = g["to_act"]["decide"]["seat"].as_u64() else {
            break;
        };
        let t = &tokens[seat as usize];
        let (_, legal) = http(
            &addr,
            "GET",
            &format!("/api/games/{id}/legal"),
            Some(t),
            None,
        )
        .unwrap();
        let a = legal["actions"][0]["text"].clone();
        let (st, r) = http(
            &addr,
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(t),
            Some(&json!({"action": a, "seq": g["seq"]})),
        )
        .unwrap();
        assert_eq!(st, 200, "{r}");
    }
    let verify = |rec: &Value, name: &str| -> (i32, String) {
        let path = dir.join(name);
        std::fs::write(&path, rec.to_string()).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_battlemat"))
            .arg("verify")
            .arg(&path)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).to_string(),
        )
    };
    let (_, early) = http(&addr, "GET", &format!("/api/games/{id}/record"), None, None).unwrap();
    assert!(early["dice"]["server"].get("seed").is_none());
    let (code, out) = verify(&early, "early.json");
    assert_eq!(code, 3, "no seed yet: not checkable\n{out}");
    // The end: the seed is revealed.
    let (st, _) = http(
        &addr,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&tokens[1]),
        None,
    )
    .unwrap();
    assert_eq!(st, 200);
    let (_, rec) = http(&addr, "GET", &format!("/api/games/{id}/record"), None, None).unwrap();
    assert_eq!(
        rec["dice"]["server"]["seat_seeds"],
        json!(["mine", "theirs"])
    );
    let (code, out) = verify(&rec, "game.json");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("revealed server seed"), "{out}");
    assert_eq!(
        early["digest"].as_str().map(|d| d.len()),
        Some(64),
        "the record carries its digest"
    );
    let replay = Command::new(env!("CARGO_BIN_EXE_battlemat"))
        .args(["replay", "--verify"])
        .arg(dir.join("game.json"))
        .output()
        .unwrap();
    assert_eq!(
        replay.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&replay.stdout)
    );
    // One die changed (to another face it could have shown): rejected, at that die.
    let mut bad = rec.clone();
    let steps = bad["steps"].as_array_mut().unwrap();
    let i = steps
        .iter()
        .position(|s| s.get("roll").is_some())
        .expect("a die");
    let v = steps[i]["roll"]["value"].as_u64().unwrap();
    steps[i]["roll"]["value"] = json!(if v == 1 { 2 } else { 1 });
    let (code, out) = verify(&bad, "bad-die.json");
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("dice:") && out.contains("FAILED"), "{out}");
    // A seed that is not the one committed to.
    let mut bad = rec.clone();
    bad["dice"]["server"]["seed"] = json!("00".repeat(32));
    let (code, out) = verify(&bad, "bad-seed.json");
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("commitment"), "{out}");
    server.kill();
}
