//! Step-through replay (`GET /api/games/{id}/replay?at=N`): a game played to its end by two
//! AI seats, then walked step by step — the table at step 0 is the new game's, at the end
//! it is the live game's, each step's events are the ones the log showed, and a step
//! outside the game is refused.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use battlemat_server::{App, router};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::sync::Arc;
use tower::ServiceExt;

async fn get(app: &Arc<App>, path: &str, token: Option<&str>) -> (StatusCode, Value) {
    let mut req = Request::builder().method("GET").uri(path);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let res = router(app.clone())
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_replays_step_by_step() {
    let db = common::TestDb::new().await;
    let app = db.app().await;
    let req = Request::builder()
        .method("POST")
        .uri("/api/games")
        .header("content-type", "application/json")
        .body(Body::from(
            json!({"game": "ms-d20", "scenario": "duel", "seats": ["random", "random"]})
                .to_string(),
        ))
        .unwrap();
    let res = router(app.clone()).oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let created: Value =
        serde_json::from_slice(&res.into_body().collect().await.unwrap().to_bytes()).unwrap();
    let id = created["id"].as_str().unwrap().to_string();

    // Two AI seats play it to the end by themselves.
    let mut game = Value::Null;
    for _ in 0..600 {
        game = get(&app, &format!("/api/games/{id}"), None).await.1;
        if game["to_act"].get("over").is_some() {
            break;
        }
        let seq = game["seq"].as_i64().unwrap();
        get(
            &app,
            &format!("/api/games/{id}/events?after={seq}&wait=2000"),
            None,
        )
        .await;
    }
    assert!(game["to_act"].get("over").is_some(), "never ended: {game}");
    let total = game["seq"].as_i64().unwrap();
    assert!(total > 2);

    // At the end: the live game's table.
    let (st, end) = get(&app, &format!("/api/games/{id}/replay?at={total}"), None).await;
    assert_eq!(st, StatusCode::OK, "{end}");
    assert_eq!(end["scene"], game["scene"]);
    assert_eq!(end["to_act"], game["to_act"]);
    assert_eq!(end["of"], json!(total));
    assert!(end["svg"].as_str().unwrap().starts_with("<svg"));

    // At 0: the table before anything happened, different from the end.
    let (_, start) = get(&app, &format!("/api/games/{id}/replay?at=0"), None).await;
    assert_eq!(start["events"], json!([]));
    assert_ne!(start["scene"], end["scene"]);

    // Every step's events are what the log was told of that step.
    let (_, log) = get(&app, &format!("/api/games/{id}/events?after=0"), None).await;
    let steps = log["steps"].as_array().unwrap();
    assert_eq!(steps.len() as i64, total);
    for at in [1, total / 2, total] {
        let (_, r) = get(&app, &format!("/api/games/{id}/replay?at={at}"), None).await;
        let logged = &steps[(at - 1) as usize];
        assert_eq!(r["events"], logged["events"], "step {at}");
        assert_eq!(r["step"], logged["step"], "step {at}");
    }

    // Outside the game: refused, saying what the game has.
    let (st, e) = get(
        &app,
        &format!("/api/games/{id}/replay?at={}", total + 1),
        None,
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains(&format!("0 to {total}")),
        "{e}"
    );
    let (st, _) = get(&app, &format!("/api/games/{id}/replay?at=-1"), None).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    let (st, _) = get(&app, &format!("/api/games/{id}/replay?at=x"), None).await;
    assert!(st.is_client_error());
    // A token that is no seat's is refused, as on every endpoint.
    let (st, _) = get(&app, &format!("/api/games/{id}/replay?at=1"), Some("nope")).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
}

/// A hint: the token's seat's legal actions ranked by the AI, best first, named as the list
/// names them; nothing for a spectator, nothing off-turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_ranks_the_seats_actions() {
    let db = common::TestDb::new().await;
    let app = db.app().await;
    let req = Request::builder()
        .method("POST")
        .uri("/api/games")
        .header("content-type", "application/json")
        .body(Body::from(
            json!({"game": "ms-d20", "scenario": "duel", "seats": ["human", "human"]}).to_string(),
        ))
        .unwrap();
    let res = router(app.clone()).oneshot(req).await.unwrap();
    let created: Value =
        serde_json::from_slice(&res.into_body().collect().await.unwrap().to_bytes()).unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_string())
        .collect();
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    let seat = g["to_act"]["decide"]["seat"]
        .as_u64()
        .expect("a seat decides") as usize;
    let (st, h) = get(
        &app,
        &format!("/api/games/{id}/hint?top=50"),
        Some(&tokens[seat]),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{h}");
    let c = h["candidates"].as_array().unwrap();
    let (_, legal) = get(&app, &format!("/api/games/{id}/legal"), Some(&tokens[seat])).await;
    assert_eq!(c.len(), legal["actions"].as_array().unwrap().len().min(50));
    for w in c.windows(2) {
        assert!(
            w[0]["value"].as_f64() >= w[1]["value"].as_f64(),
            "not best first: {c:?}"
        );
    }
    for x in c {
        assert!(
            legal["actions"]
                .as_array()
                .unwrap()
                .iter()
                .any(|l| l["text"] == x["text"] && l["action"] == x["action"]),
            "{x} is not a listed action"
        );
    }
    let (_, top) = get(&app, &format!("/api/games/{id}/hint"), Some(&tokens[seat])).await;
    assert!(top["candidates"].as_array().unwrap().len() <= 5);
    // The other seat: nothing to hint; a spectator: a seat's token is needed.
    let (_, off) = get(
        &app,
        &format!("/api/games/{id}/hint"),
        Some(&tokens[1 - seat]),
    )
    .await;
    assert_eq!(off["candidates"], json!([]));
    let (st, _) = get(&app, &format!("/api/games/{id}/hint"), None).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED);
}
