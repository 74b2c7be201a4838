//! Two `battlemat serve` nodes on one PostgreSQL: a client following a game on node B sees
//! a move made through node A within a second (NOTIFY `game:seq`, read from the steps
//! table); a move posted to B is forwarded to A, which holds the game's lease; and after A
//! is killed with SIGKILL, B takes the lease when it expires and carries the game on with
//! every acknowledged move. A client's commands forwarded from B to A count against that
//! client's address at A (signed by B with the cluster's secret), and an address a client
//! names itself is ignored. A node whose LISTEN connection is cut off (notifications lost)
//! catches up with every move once its listener reconnects. Needs `BATTLEMAT_TEST_PG`; without it the tests say they skipped.

mod server;

use serde_json::{Value, json};
use server::{TestDb, connect_from, create_two_human_game, http, request, start};
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

/// Stale actions (seq 999: refused with 409 after the rate is counted) from the loopback
/// address `from` to `addr`, with these headers, until one is refused with 429: how many
/// got 409 first, and the 429's error.
fn until_limited(
    from: &str,
    addr: &str,
    id: &str,
    token: &str,
    headers: &[(&str, &str)],
) -> (usize, String) {
    for n in 0..8 {
        let s = connect_from(from, addr).unwrap();
        let (st, r) = request(
            s,
            addr,
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(token),
            Some(&json!({"action": "end", "seq": 999})),
            headers,
        )
        .unwrap();
        match st {
            409 => continue,
            429 => return (n, r["error"].as_str().unwrap_or_default().to_string()),
            _ => panic!("from {from} to {addr}: {st} {r}"),
        }
    }
    panic!("from {from} to {addr}: never limited")
}

#[test]
fn a_forwarded_command_counts_against_the_clients_own_address() {
    let db = TestDb::new();
    if !db.is_postgres() {
        eprintln!(
            "SKIPPED a_forwarded_command…: several nodes need PostgreSQL (set BATTLEMAT_TEST_PG)"
        );
        return;
    }
    // Three changes per address at once, one more a second; no limit per token. A long
    // lease: A holds the game throughout.
    let flags = ["--lease", "30", "--ip-rate", "3/1", "--token-rate", "0/0"];
    let (_a, addr_a) = start(&db.url, &flags);
    let (_b, addr_b) = start(&db.url, &flags);
    let (id, tokens) = create_two_human_game(&addr_a);
    wait_for("node B knows the game", Duration::from_secs(2), || {
        http(&addr_b, "GET", &format!("/api/games/{id}"), None, None).is_ok_and(|(s, _)| s == 200)
    });

    // A client at 127.0.0.2 through B: A counts 127.0.0.2 (not B, at 127.0.0.1) and says so.
    let (n, e) = until_limited("127.0.0.2", &addr_b, &id, &tokens[0], &[]);
    assert!(n >= 3, "the burst of 3 went through first ({n}): {e}");
    assert!(e.contains("(127.0.0.2)"), "the 429 names the client: {e}");

    // B's own address was not spent by that: another client through B has its own burst.
    let forged = format!("198.51.100.9;{};{}", now_secs(), "0".repeat(64));
    let (n, e) = until_limited(
        "127.0.0.3",
        &addr_b,
        &id,
        &tokens[0],
        &[("x-battlemat-client", &forged)],
    );
    assert!(n >= 3, "127.0.0.3 has a burst of its own ({n}): {e}");
    // The address it named itself was replaced by B with the one it came from.
    assert!(
        e.contains("(127.0.0.3)"),
        "the forged address is ignored: {e}"
    );

    // Straight to A, a forged header neither names the client nor escapes its limit.
    let (n, e) = until_limited("127.0.0.4", &addr_a, &id, &tokens[0], &[]);
    assert!(n >= 3 && e.contains("(127.0.0.4)"), "{n}: {e}");
    let (n, e) = until_limited(
        "127.0.0.4",
        &addr_a,
        &id,
        &tokens[0],
        &[("x-battlemat-client", &forged)],
    );
    assert_eq!(
        n, 0,
        "a forged address does not give 127.0.0.4 a fresh bucket: {e}"
    );
    assert!(
        e.contains("(127.0.0.4)") && !e.contains("198.51.100.9"),
        "{e}"
    );
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

#[test]
fn a_node_catches_up_after_its_listener_reconnects() {
    let db = TestDb::new();
    if !db.is_postgres() {
        eprintln!(
            "SKIPPED a_node_catches_up…: several nodes need PostgreSQL (set BATTLEMAT_TEST_PG)"
        );
        return;
    }
    let flags = ["--lease", "30"];
    let (_a, addr_a) = start(&db.url, &flags);
    let (_b, addr_b) = start(&db.url, &flags);
    let (id, tokens) = create_two_human_game(&addr_a);
    wait_for("node B knows the game", Duration::from_secs(2), || {
        http(&addr_b, "GET", &format!("/api/games/{id}"), None, None).is_ok_and(|(s, _)| s == 200)
    });
    // The stream's first line holds the game as it stands (seeded dice may have been
    // rolled at creation); a line follows for every later step.
    let (_, g) = http(&addr_b, "GET", &format!("/api/games/{id}"), None, None).unwrap();
    let first = g["seq"].as_i64().unwrap();
    let on_b = follow(&addr_b, &id);
    // B's listener, by the name its connection carries.
    let name = battlemat_server::store::listener_name(&format!("http://{addr_b}"));
    let pids = || {
        db.query(&format!(
            "SELECT pid::text FROM pg_stat_activity WHERE application_name = '{name}'"
        ))
    };
    wait_for("B's listener is connected", Duration::from_secs(2), || {
        pids().len() == 1
    });

    // Cut it off, and move through A before it is back: those NOTIFYs reach nobody on B.
    // (A move acknowledged while no new listener connection exists was committed before B
    // could LISTEN again.) Should the listener be back too soon, cut it again.
    let mut down_moves = 0;
    for _ in 0..5 {
        let old = pids();
        let killed = db.query(&format!(
            "SELECT pg_terminate_backend(pid)::text FROM pg_stat_activity \
             WHERE application_name = '{name}'"
        ));
        assert_eq!(killed, ["true"], "B's listener terminated");
        for _ in 0..2 {
            let (st, r) = play(&addr_a, &id, &tokens);
            assert_eq!(st, 200, "{r}");
            if pids().iter().any(|p| !old.contains(p)) {
                break;
            }
            down_moves += 1;
        }
        if down_moves >= 2 {
            break;
        }
        wait_for("B's listener is back", Duration::from_secs(5), || {
            pids().iter().any(|p| !old.contains(p))
        });
    }
    assert!(
        down_moves >= 2,
        "moves made while B's listener was down: {down_moves}"
    );
    let (_, g) = http(&addr_a, "GET", &format!("/api/games/{id}"), None, None).unwrap();
    let seq = g["seq"].as_i64().unwrap();

    // No move after: B learns them only by catching up once it listens again.
    let took = wait_for(
        "B's view and stream have every move",
        Duration::from_secs(5),
        || {
            let on = http(&addr_b, "GET", &format!("/api/games/{id}"), None, None)
                .is_ok_and(|(_, g)| g["seq"].as_i64() == Some(seq));
            on && (first + 1..=seq).all(|s| has_step(&on_b, s))
        },
    );
    eprintln!("B caught up {down_moves} missed moves {took:?} after the last");
    assert_eq!(pids().len(), 1, "one listener again");
    let record = |addr: &str| {
        http(addr, "GET", &format!("/api/games/{id}/record"), None, None)
            .unwrap()
            .1["steps"]
            .clone()
    };
    assert_eq!(
        record(&addr_b),
        record(&addr_a),
        "the same steps on both nodes"
    );
}
