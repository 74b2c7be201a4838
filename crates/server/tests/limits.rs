//! Limits: the body size, actions per token and per address (429 with Retry-After), open
//! games per client, WebSocket messages; every refusal a JSON error saying what and why,
//! and nothing changed by it.

mod common;

use battlemat_server::limits::Rate;
use battlemat_server::{App, router};
use common::*;
use serde_json::json;
use std::sync::Arc;

fn swtb() -> serde_json::Value {
    json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "human"]})
}

#[tokio::test]
async fn every_bad_request_is_a_json_error_saying_what() {
    let db = common::TestDb::new().await;
    let app = db.app().await;
    // A body over the limit.
    let big = json!({"game": "x".repeat(70 * 1024), "seats": []});
    let (st, _, e, _) = send(&app, "POST", "/api/games", None, Some(big), None).await;
    assert_eq!(st, 413);
    assert!(e["error"].as_str().unwrap().contains("64 KiB"), "{e}");
    // Not JSON.
    let (st, _, e, text) = send(&app, "POST", "/api/games", None, None, None).await;
    assert_eq!(st, 400, "{text}");
    assert!(
        e["error"].as_str().unwrap().starts_with("the request"),
        "{e}"
    );
    // A method an endpoint does not take.
    let (st, _, e, text) = send(&app, "DELETE", "/api/games", None, None, None).await;
    assert_eq!(st, 405, "{text}");
    assert!(e["error"].as_str().unwrap().contains("method"), "{e}");
    // A query that does not read, a status that does not exist, an unknown endpoint.
    let (_, created) = call(&app, "POST", "/api/games", None, Some(swtb())).await;
    let id = created["id"].as_str().unwrap();
    for path in [
        format!("/api/games/{id}/events?after=soon"),
        "/api/games?status=lost".to_string(),
        "/api/games?colour=red".to_string(),
        "/api/nothing".to_string(),
    ] {
        let (st, _, e, text) = send(&app, "GET", &path, None, None, None).await;
        assert!(st.is_client_error(), "{path}: {st}");
        assert!(e["error"].is_string(), "{path}: not JSON: {text}");
    }
    // A malformed Authorization header.
    let req = axum::http::Request::builder()
        .uri(format!("/api/games/{id}"))
        .header("authorization", "Basic abc")
        .body(axum::body::Body::empty())
        .unwrap();
    use tower::ServiceExt;
    let res = router(app.clone()).oneshot(req).await.unwrap();
    assert_eq!(res.status(), 401);
}

#[tokio::test]
async fn actions_per_token_and_per_address_are_limited_with_retry_after() {
    let db = common::TestDb::new().await;
    let mut config = TestClock::new().config();
    config.token_rate = Rate {
        burst: 3,
        per_sec: 1,
    };
    config.ip_rate = Rate {
        burst: 5,
        per_sec: 1,
    };
    let app = db.open(config).await;
    let (_, created) = call(&app, "POST", "/api/games", None, Some(swtb())).await;
    let id = created["id"].as_str().unwrap().to_string();
    let t = tokens(&created);
    let (seat, seq) = who(&app, &id).await;
    let mine = t[seat.unwrap() as usize].clone().unwrap();
    let action = |n: u32| json!({"action": format!("first {n}"), "seq": seq});
    // Three refused actions use the token's three.
    for _ in 0..3 {
        let (st, _, e, _) = send(
            &app,
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(&mine),
            Some(action(7)),
            Some("10.0.0.1"),
        )
        .await;
        assert_eq!(st, 422, "{e}");
    }
    // The fourth, even a legal one, waits: 429, Retry-After, and nothing done.
    let (st, h, e, _) = send(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(&mine),
        Some(action(0)),
        Some("10.0.0.1"),
    )
    .await;
    assert_eq!(st, 429, "{e}");
    assert!(h["retry-after"].to_str().unwrap().parse::<u64>().unwrap() >= 1);
    assert!(e["error"].as_str().unwrap().contains("this token"), "{e}");
    assert_eq!(who(&app, &id).await.1, seq, "nothing changed");
    // The address has two left: the other seat's token uses them, then the address waits.
    let theirs = t[1 - seat.unwrap() as usize].clone().unwrap();
    for _ in 0..2 {
        let (st, _, _, _) = send(
            &app,
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(&theirs),
            Some(action(0)),
            Some("10.0.0.1"),
        )
        .await;
        assert_eq!(st, 403, "not its decision");
    }
    let (st, h, e, _) = send(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(&theirs),
        Some(action(0)),
        Some("10.0.0.1"),
    )
    .await;
    assert_eq!(st, 429, "{e}");
    assert!(h.contains_key("retry-after"));
    assert!(e["error"].as_str().unwrap().contains("this address"), "{e}");
    // A second later the token may act again (from another address).
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let (st, _, e, _) = send(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(&mine),
        Some(action(0)),
        Some("10.0.0.2"),
    )
    .await;
    assert_eq!(st, 200, "{e}");
}

#[tokio::test]
async fn a_client_may_have_only_so_many_unfinished_games() {
    let db = common::TestDb::new().await;
    let mut config = TestClock::new().config();
    config.max_open_games = 2;
    let app = db.open(config).await;
    let mut first = None;
    for _ in 0..2 {
        let (st, _, c, _) = send(
            &app,
            "POST",
            "/api/games",
            None,
            Some(swtb()),
            Some("10.0.0.9"),
        )
        .await;
        assert_eq!(st, 201);
        first.get_or_insert(c);
    }
    let (st, _, e, _) = send(
        &app,
        "POST",
        "/api/games",
        None,
        Some(swtb()),
        Some("10.0.0.9"),
    )
    .await;
    assert_eq!(st, 429, "{e}");
    assert!(
        e["error"].as_str().unwrap().contains("unfinished games"),
        "{e}"
    );
    let (_, list) = call(&app, "GET", "/api/games", None, None).await;
    assert!(
        list["games"].as_array().unwrap().is_empty(),
        "no game made (none public)"
    );
    // Another client may; and once a game is finished, this one may again.
    let (st, _, _, _) = send(
        &app,
        "POST",
        "/api/games",
        None,
        Some(swtb()),
        Some("10.0.0.8"),
    )
    .await;
    assert_eq!(st, 201);
    let c = first.unwrap();
    let id = c["id"].as_str().unwrap();
    let t = tokens(&c);
    call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        t[0].as_deref(),
        None,
    )
    .await;
    let (st, _, _, _) = send(
        &app,
        "POST",
        "/api/games",
        None,
        Some(swtb()),
        Some("10.0.0.9"),
    )
    .await;
    assert_eq!(st, 201);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_that_sends_too_much_is_told_and_closed() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let db = common::TestDb::new().await;
    let mut config = TestClock::new().config();
    config.ws_messages = 5;
    let app: Arc<App> = db.open(config).await;
    let (_, c) = call(&app, "POST", "/api/games", None, Some(swtb())).await;
    let id = c["id"].as_str().unwrap().to_string();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let served = app.clone();
    tokio::spawn(async move { axum::serve(listener, router(served)).await });
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws"))
        .await
        .unwrap();
    let hello = ws.next().await.unwrap().unwrap();
    assert!(hello.to_text().unwrap().contains("hello"));
    // Five messages are answered (a resync sends the steps again) ...
    for _ in 0..5 {
        ws.send(Message::text(r#"{"resync": 0}"#)).await.unwrap();
    }
    // ... the sixth is one too many.
    ws.send(Message::text(r#"{"resync": 0}"#)).await.unwrap();
    let mut told = false;
    let mut closed = None;
    while let Some(Ok(m)) = ws.next().await {
        match m {
            Message::Text(t) if t.contains("too many messages") => told = true,
            Message::Close(f) => {
                closed = f.map(|f| u16::from(f.code));
                break;
            }
            _ => {}
        }
    }
    assert!(told, "the client is told why");
    assert_eq!(closed, Some(1008), "closed as a policy violation");
}
