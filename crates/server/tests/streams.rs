//! The bot API and the OpenAPI document: a token's event stream across its games (games
//! started, its turns, games finished, keep-alive lines), a game's stream opening with the
//! whole game, and every route the router serves in `/api/openapi.json`.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use battlemat_server::{App, router};
use common::*;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::time::Duration;
use tower::ServiceExt;

/// An NDJSON response's body, read line by line.
struct Lines {
    body: Body,
    buf: String,
}

impl Lines {
    /// The next line (`""` for a keep-alive), within `secs` seconds.
    async fn next(&mut self, secs: u64) -> String {
        loop {
            if let Some(i) = self.buf.find('\n') {
                let line = self.buf[..i].to_string();
                self.buf.drain(..=i);
                return line;
            }
            let frame = tokio::time::timeout(Duration::from_secs(secs), self.body.frame())
                .await
                .expect("a line in time")
                .expect("the stream goes on")
                .unwrap();
            if let Ok(d) = frame.into_data() {
                self.buf.push_str(std::str::from_utf8(&d).unwrap());
            }
        }
    }
    /// The next line that is not a keep-alive, as JSON.
    async fn event(&mut self) -> Value {
        loop {
            let l = self.next(10).await;
            if !l.is_empty() {
                return serde_json::from_str(&l).unwrap();
            }
        }
    }
}

async fn open(app: &std::sync::Arc<App>, path: &str, token: Option<&str>) -> (StatusCode, Lines) {
    let mut req = Request::builder().uri(path);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let res = router(app.clone())
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    if status == StatusCode::OK {
        assert_eq!(res.headers()["content-type"], "application/x-ndjson");
    }
    (
        status,
        Lines {
            body: res.into_body(),
            buf: String::new(),
        },
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tokens_event_stream_tells_its_games_starts_turns_and_ends() {
    let db = common::TestDb::new().await;
    let mut config = TestClock::new().config();
    config.keep_alive = 1;
    let app = db.open(config).await;
    // Without a token, or with one that holds no seat: refused.
    let (st, _) = open(&app, "/api/stream/event", None).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED);
    let (st, _) = open(&app, "/api/stream/event", Some("forged")).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    // A bot takes a seat in a game that then waits for a second player.
    let (_, a) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "swtb", "scenario": "outpost", "seats": ["open", "open"]})),
    )
    .await;
    let a = a["id"].as_str().unwrap().to_string();
    let (_, j) = call(&app, "POST", &format!("/api/games/{a}/join"), None, None).await;
    let bot = j["token"].as_str().unwrap().to_string();
    let (st, mut events) = open(&app, "/api/stream/event", Some(&bot)).await;
    assert_eq!(st, StatusCode::OK);
    // Nothing has started: the stream keeps itself open with empty lines.
    assert_eq!(events.next(5).await, "", "a keep-alive line");
    // The second player joins: the game starts.
    let (_, j2) = call(&app, "POST", &format!("/api/games/{a}/join"), None, None).await;
    let other = j2["token"].as_str().unwrap().to_string();
    let e = events.event().await;
    assert_eq!(e["type"], json!("gameStart"), "{e}");
    assert_eq!(e["game"]["id"], json!(a));
    assert_eq!(e["game"]["seat"], json!(0));
    // Its turn comes (now, or after the other seat's decision).
    let (seat, seq) = who(&app, &a).await;
    if seat == Some(1) {
        let (st, r) = call(
            &app,
            "POST",
            &format!("/api/games/{a}/actions"),
            Some(&other),
            Some(json!({"action": "first 0", "seq": seq})),
        )
        .await;
        assert_eq!(st, 200, "{r}");
    }
    let e = events.event().await;
    assert_eq!(e["type"], json!("yourTurn"), "{e}");
    assert_eq!(e["game"]["id"], json!(a));
    assert!(e["to_act"]["decide"].is_string(), "{e}");
    // The same token joins a second game: its events come on the same stream.
    let (_, b) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "open"]})),
    )
    .await;
    let b = b["id"].as_str().unwrap().to_string();
    let (st, j) = call(
        &app,
        "POST",
        &format!("/api/games/{b}/join"),
        Some(&bot),
        None,
    )
    .await;
    assert_eq!(st, 200, "{j}");
    assert!(
        j.get("token").is_none(),
        "the bot's own token holds the seat"
    );
    let e = events.event().await;
    assert_eq!(e["type"], json!("gameStart"), "{e}");
    assert_eq!(e["game"]["id"], json!(b));
    assert_eq!(e["game"]["seat"], json!(1));
    // The first game ends.
    call(
        &app,
        "POST",
        &format!("/api/games/{a}/resign"),
        Some(&other),
        None,
    )
    .await;
    let mut finished = None;
    for _ in 0..4 {
        let e = events.event().await;
        if e["type"] == json!("gameFinish") {
            finished = Some(e);
            break;
        }
    }
    let e = finished.expect("a gameFinish line");
    assert_eq!(e["game"]["id"], json!(a));
    assert!(e["result"]["ranks"].is_array(), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_stream_opens_with_the_whole_game() {
    let db = common::TestDb::new().await;
    let app = db.app().await;
    let (_, c) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "human"]})),
    )
    .await;
    let id = c["id"].as_str().unwrap().to_string();
    let t = tokens(&c);
    let (st, mut lines) = open(&app, &format!("/api/games/{id}/stream"), t[1].as_deref()).await;
    assert_eq!(st, StatusCode::OK);
    let first = lines.event().await;
    assert_eq!(first["type"], json!("gameFull"));
    let (_, g) = call(
        &app,
        "GET",
        &format!("/api/games/{id}"),
        t[1].as_deref(),
        None,
    )
    .await;
    for k in ["seq", "to_act", "scene", "observation", "you"] {
        assert_eq!(
            first[k], g[k],
            "the first line is the game as GET gives it: {k}"
        );
    }
    let (seat, seq) = who(&app, &id).await;
    let s = seat.unwrap() as usize;
    call(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        t[s].as_deref(),
        Some(json!({"action": "first 0", "seq": seq})),
    )
    .await;
    let step = lines.event().await;
    assert_eq!(step["type"], json!("step"));
    assert_eq!(step["seq"], json!(seq + 1));
    let (st, _) = open(&app, &format!("/api/games/{id}/stream"), Some("forged")).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
}

/// Every route in the router (read from its source, one route a line) is in the OpenAPI
/// document with each of its methods.
#[tokio::test]
async fn every_route_is_in_the_openapi_document() {
    let db = common::TestDb::new().await;
    let app = db.app().await;
    let (st, doc) = call(&app, "GET", "/api/openapi.json", None, None).await;
    assert_eq!(st, StatusCode::OK);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let source = include_str!("../src/lib.rs");
    let mut routes = 0;
    for line in source
        .lines()
        .filter(|l| l.trim_start().starts_with(".route(\""))
    {
        let path = line.split('"').nth(1).unwrap();
        for method in ["get", "post", "put", "delete", "patch"] {
            if line.contains(&format!("{method}(")) {
                assert!(
                    doc["paths"][path][method].is_object(),
                    "{method} {path} is not in /api/openapi.json"
                );
                routes += 1;
            }
        }
    }
    assert!(routes >= 20, "read {routes} routes from the router");
    // And nothing documented that is not served.
    let served: Vec<&str> = source
        .lines()
        .filter(|l| l.trim_start().starts_with(".route(\""))
        .map(|l| l.split('"').nth(1).unwrap())
        .collect();
    for path in doc["paths"].as_object().unwrap().keys() {
        assert!(
            served.contains(&path.as_str()),
            "{path} documented, not served"
        );
    }
    assert!(doc["components"]["securitySchemes"]["token"].is_object());
}
