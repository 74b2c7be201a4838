//! Two `battlemat serve` nodes on one PostgreSQL: a client following a game on node B sees
//! a move made through node A within a second (NOTIFY `game:seq`, read from the steps
//! table); a move posted to B is forwarded to A, which holds the game's lease; and after A
//! is killed with SIGKILL, B takes the lease when it expires and carries the game on with
//! every acknowledged move. Needs `BATTLEMAT_TEST_PG`; without it the test says it skipped.

mod server;

use serde_json::{Value, json};
use server::{TestDb, create_two_human_game, http, start};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Follow a game's NDJSON stream on a node: everything it sends, kept as it comes.
fn follow(addr: &str, id: &str) -> Arc<Mutex<String>> {
    let seen = Arc::new(Mutex::new(String::new()));
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET /api/games/{id}/stream HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let out = seen.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = s.read(&mut buf) {
            if n == 0 {
                break;
            }
            out.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    seen
}

/// Whether a stream has sent the step `seq`.
fn has_step(seen: &Mutex<String>, seq: i64) -> bool {
    seen.lock().unwrap().lines().any(|l| {
        l.contains("\"type\":\"step\"")
            && (l.contains(&format!("\"seq\":{seq},")) || l.contains(&format!("\"seq\":{seq}}}")))
    })
}

/// One move by the seat that decides, through `addr`: the status and the answer.
fn play(addr: &str, id: &str, tokens: &[String]) -> (u16, Value) {
    let (_, g) = http(addr, "GET", &format!("/api/games/{id}"), None, None).unwrap();
    let seat = g["to_act"]["decide"]["seat"]
        .as_u64()
        .unwrap_or_else(|| panic!("a seat decides: {g}"));
    let t = &tokens[seat as usize];
    let (_, legal) = http(
        addr,
        "GET",
        &format!("/api/games/{id}/legal"),
        Some(t),
        None,
    )
    .unwrap();
    let a = legal["actions"][0]["text"].clone();
    http(
        addr,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(t),
        Some(&json!({"action": a, "seq": g["seq"]})),
    )
    .unwrap_or((0, Value::Null))
}

fn wait_for(what: &str, within: Duration, mut ok: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < within, "{what}: not within {within:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
    start.elapsed()
}

#[test]
fn two_nodes_share_a_game_and_the_second_carries_it_on() {
    let db = TestDb::new();
    if !db.is_postgres() {
        eprintln!("SKIPPED two_nodes…: several nodes need PostgreSQL (set BATTLEMAT_TEST_PG)");
        return;
    }
    let lease = ["--lease", "1"];
    let (mut a, addr_a) = start(&db.url, &lease);
    let (mut b, addr_b) = start(&db.url, &lease);
    let (id, tokens) = create_two_human_game(&addr_a);
    // B hears of the new game.
    wait_for("node B knows the game", Duration::from_secs(2), || {
        http(&addr_b, "GET", &format!("/api/games/{id}"), None, None).is_ok_and(|(s, _)| s == 200)
    });
    let on_b = follow(&addr_b, &id);
    std::thread::sleep(Duration::from_millis(100));

    // A move through A reaches the stream on B within a second.
    let (st, r) = play(&addr_a, &id, &tokens);
    assert_eq!(st, 200, "{r}");
    let seq = r["seq"].as_i64().unwrap();
    let took = wait_for(
        "B's stream shows the move made through A",
        Duration::from_secs(1),
        || has_step(&on_b, seq),
    );
    eprintln!("a move through A reached B's stream in {took:?}");

    // A move posted to B goes to A (the lease holder), and both see it.
    let (st, r) = play(&addr_b, &id, &tokens);
    assert_eq!(st, 200, "forwarded to A: {r}");
    let seq = r["seq"].as_i64().unwrap();
    let (_, g) = http(&addr_a, "GET", &format!("/api/games/{id}"), None, None).unwrap();
    assert_eq!(g["seq"].as_i64(), Some(seq), "A made it");
    wait_for("B's stream shows it", Duration::from_secs(1), || {
        has_step(&on_b, seq)
    });

    // A dies. B takes the lease once it expires, and the game goes on from every
    // acknowledged move.
    a.kill(); // SIGKILL
    let mut next = (0, Value::Null);
    wait_for("B carries the game on", Duration::from_secs(5), || {
        next = play(&addr_b, &id, &tokens);
        next.0 == 200
    });
    assert_eq!(next.1["seq"].as_i64(), Some(seq + 1), "{}", next.1);
    wait_for(
        "B's stream shows B's own move",
        Duration::from_secs(1),
        || has_step(&on_b, seq + 1),
    );
    let (_, rec) = http(
        &addr_b,
        "GET",
        &format!("/api/games/{id}/record"),
        None,
        None,
    )
    .unwrap();
    assert_eq!(rec["steps"].as_array().unwrap().len() as i64, seq + 1);

    // A comes back (a new process on a new port, so a new node): B still holds the game,
    // and A forwards a move to it.
    let (mut a2, addr_a2) = start(&db.url, &lease);
    let (st, r) = play(&addr_a2, &id, &tokens);
    assert_eq!(st, 200, "forwarded to B: {r}");
    assert_eq!(r["seq"].as_i64(), Some(seq + 2));
    a2.kill();
    b.kill();
}
