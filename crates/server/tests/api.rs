//! The HTTP API against a real database (a SQLite file, or PostgreSQL with
//! `BATTLEMAT_TEST_PG`): tokens on every endpoint, stale seqs, a
//! resubmitted action, illegal actions with their rule, a restart that resumes the game,
//! AI seats that answer, no secret before the end, and dice anyone can recompute after it.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use battlemat_core::ChanceOutcome;
use battlemat_core::dynamic::DynRecord;
use battlemat_server::{App, dice, router};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::sync::Arc;
use tower::ServiceExt;

async fn call(
    app: &Arc<App>,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(path);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let req = req
        .header("content-type", "application/json")
        .body(body.map_or(Body::empty(), |b| Body::from(b.to_string())))
        .unwrap();
    let res = router(app.clone()).oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, v)
}

fn tokens(created: &Value) -> Vec<Option<String>> {
    created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().map(str::to_string))
        .collect()
}

/// The deciding seat and the game's seq, as a spectator sees them.
async fn who(app: &Arc<App>, id: &str) -> (Option<u64>, i64) {
    let (_, g) = call(app, "GET", &format!("/api/games/{id}"), None, None).await;
    (
        g["to_act"]["decide"]["seat"].as_u64(),
        g["seq"].as_i64().unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_through_the_api_with_tokens_seqs_and_a_restart() {
    let db = common::TestDb::new().await;
    let app = db.app().await;
    let (st, created) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "human"], "public": true})),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let t = tokens(&created);
    let commitment = created["dice_commitment"].as_str().unwrap().to_string();
    assert_eq!(commitment.len(), 64);
    assert!(
        created["seats"][0]["invite"]
            .as_str()
            .unwrap()
            .contains(&id)
    );
    // The initiative die was rolled by the server before anyone acts.
    let (seat, seq) = who(&app, &id).await;
    let seat = seat.expect("a seat decides") as usize;
    assert!(seq >= 1, "the initiative die is a stored step");
    let mine = t[seat].as_deref().unwrap();
    let theirs = t[1 - seat].as_deref().unwrap();

    // Every endpoint checks the token.
    let (st, _) = call(&app, "GET", &format!("/api/games/{id}/legal"), None, None).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED);
    let (st, _) = call(
        &app,
        "GET",
        &format!("/api/games/{id}/legal"),
        Some("forged"),
        None,
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, e) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        None,
        Some(json!({"action": "first 0", "seq": seq})),
    )
    .await;
    assert_eq!(st, StatusCode::UNAUTHORIZED, "{e}");
    let (st, e) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(theirs),
        Some(json!({"action": "first 0", "seq": seq})),
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN, "another seat's turn: {e}");
    let (st, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some("forged"),
        None,
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN);

    // The seat's view: its scene lists its actions; the spectator's lists none.
    let (_, g) = call(&app, "GET", &format!("/api/games/{id}"), Some(mine), None).await;
    assert_eq!(g["you"], json!(seat));
    assert!(!g["scene"]["actions"].as_array().unwrap().is_empty());
    let (_, spectator) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert!(spectator["scene"].get("actions").is_none());
    let (_, legal) = call(
        &app,
        "GET",
        &format!("/api/games/{id}/legal"),
        Some(mine),
        None,
    )
    .await;
    assert_eq!(legal["actions"].as_array().unwrap().len(), 2, "{legal}");

    // An illegal action: 422 with the reason and rule, nothing stored.
    let (st, e) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(mine),
        Some(json!({"action": "first 7", "seq": seq})),
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"].is_string());
    assert_eq!(who(&app, &id).await.1, seq);
    // A stale seq: 409 with the current one.
    let (st, e) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(mine),
        Some(json!({"action": "first 0", "seq": seq - 1})),
    )
    .await;
    assert_eq!(st, StatusCode::CONFLICT);
    assert_eq!(e["seq"], json!(seq));
    // The action, then the same again (same client id): answered again, applied once.
    let body = json!({"action": "first 0", "seq": seq, "id": "c-1"});
    let (st, first) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(mine),
        Some(body.clone()),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{first}");
    assert_eq!(first["seq"], json!(seq + 1));
    assert!(
        first["events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["json"]["event"].is_string())
    );
    let after = who(&app, &id).await.1;
    let (st, again) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(mine),
        Some(body),
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(again["repeated"], json!(true));
    assert_eq!(who(&app, &id).await.1, after, "not applied twice");

    // Nothing of the seed before the end.
    let (_, rec) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert!(rec["dice"]["server"].get("seed").is_none(), "{rec}");
    assert_eq!(rec["dice"]["server"]["commitment"], json!(commitment));
    let (_, view) = call(&app, "GET", &format!("/api/games/{id}"), Some(mine), None).await;
    let (_, evs) = call(
        &app,
        "GET",
        &format!("/api/games/{id}/events?after=0"),
        None,
        None,
    )
    .await;
    assert_eq!(evs["steps"].as_array().unwrap().len() as i64, after);
    drop(app);

    // A restart resumes the game where it was.
    let app = db.app().await;
    let (_, again) = call(&app, "GET", &format!("/api/games/{id}"), Some(mine), None).await;
    assert_eq!(again["seq"], view["seq"]);
    assert_eq!(again["observation"], view["observation"]);
    let (_, list) = call(&app, "GET", "/api/games?status=running", None, None).await;
    assert!(
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == json!(id))
    );

    // The end: the seed is revealed, it matches the commitment, and every die recomputes.
    let (st, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(theirs),
        None,
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    let (_, rec) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    let seed = rec["dice"]["server"]["seed"]
        .as_str()
        .expect("revealed at the end");
    assert_eq!(dice::commitment(seed), commitment);
    let record: DynRecord = serde_json::from_value(json!({
        "ruleset": rec["ruleset"], "version": rec["version"],
        "setup": rec["setup"], "steps": rec["steps"],
    }))
    .unwrap();
    let entry = battlemat_rulesets::get("swtb").unwrap();
    let mut state = entry.new_game(&record.setup).unwrap();
    let mut index = 0;
    let mut rolls = 0;
    for step in &record.steps {
        if let battlemat_core::ToAct::Chance(c) = state.to_act() {
            let outcomes: Vec<ChanceOutcome> = c.outcomes.clone();
            let face = dice::face(seed, &["".into(), "".into()], index, &outcomes);
            assert_eq!(
                step,
                &battlemat_core::Step::Roll { value: face },
                "die {index}"
            );
            index += 1;
            rolls += 1;
        }
        state.apply(step).unwrap();
    }
    assert!(rolls >= 1);
}

/// An AI seat answers on its own, and the game can be followed by long-polling for steps.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_seat_plays_its_turns() {
    let db = common::TestDb::new().await;
    let app = db.app().await;
    let (st, created) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "ms-d20", "scenario": "duel", "seats": ["human", "random"]})),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let t = tokens(&created);
    assert!(t[1].is_none(), "an AI seat has no token");
    let human = t[0].clone().unwrap();
    // Play the human's first decisions as they come; the AI's come by themselves.
    let mut moves = 0;
    for _ in 0..100 {
        let (_, g) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
        if g["to_act"].get("over").is_some() || moves >= 6 {
            break;
        }
        let seq = g["seq"].as_i64().unwrap();
        if g["to_act"]["decide"]["seat"] == json!(0) {
            let (_, legal) = call(
                &app,
                "GET",
                &format!("/api/games/{id}/legal"),
                Some(&human),
                None,
            )
            .await;
            let a = legal["actions"][0]["text"].clone();
            let (st, e) = call(
                &app,
                "POST",
                &format!("/api/games/{id}/actions"),
                Some(&human),
                Some(json!({"action": a, "seq": seq})),
            )
            .await;
            assert!(
                st == StatusCode::OK || st == StatusCode::CONFLICT,
                "{st} {e}"
            );
            moves += 1;
        } else {
            // The AI's (or the dice's) turn: wait for its step.
            let (_, evs) = call(
                &app,
                "GET",
                &format!("/api/games/{id}/events?after={seq}&wait=5000"),
                None,
                None,
            )
            .await;
            assert!(
                !evs["steps"].as_array().unwrap().is_empty(),
                "the AI seat did not move in 5 s: {g}"
            );
        }
    }
    let (_, rec) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    let steps = rec["steps"].as_array().unwrap();
    assert!(
        steps.iter().any(|s| s["act"]["seat"] == json!(1)),
        "the AI seat made a move: {steps:?}"
    );
}

/// Bad requests get JSON errors and change nothing.
#[tokio::test]
async fn bad_requests_are_refused_in_json() {
    let db = common::TestDb::new().await;
    let app = db.app().await;
    for body in [
        json!({"game": "chess", "seats": ["human"]}),
        json!({"game": "swtb", "seats": ["human"]}),
        json!({"game": "swtb", "seats": ["human", "wizard"]}),
        json!({"game": "swtb", "seats": ["human", "human"], "dice": "loaded"}),
        json!({"nonsense": true}),
    ] {
        let (st, e) = call(&app, "POST", "/api/games", None, Some(body.clone())).await;
        assert!(st.is_client_error(), "{body}: {st}");
        assert!(e["error"].is_string(), "{body}: {e}");
    }
    let (st, _) = call(&app, "GET", "/api/games/nope", None, None).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (_, list) = call(&app, "GET", "/api/games", None, None).await;
    assert!(list["games"].as_array().unwrap().is_empty());
}

/// The bot stream: NDJSON whose first line is the whole game as the token's seat sees it,
/// then a line for each stored step.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_stream_starts_with_the_game_then_its_steps() {
    let db = common::TestDb::new().await;
    let app = db.app().await;
    let (_, created) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "human"]})),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let t = tokens(&created);
    let req = Request::builder()
        .uri(format!("/api/games/{id}/stream"))
        .header(
            "authorization",
            format!("Bearer {}", t[0].as_deref().unwrap()),
        )
        .body(Body::empty())
        .unwrap();
    let res = router(app.clone()).oneshot(req).await.unwrap();
    assert_eq!(res.headers()["content-type"], "application/x-ndjson");
    let mut body = res.into_body();
    let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
    let line: Value = serde_json::from_slice(first.strip_suffix(b"\n").unwrap()).unwrap();
    assert_eq!(line["you"], json!(0));
    assert!(line["scene"]["pieces"].is_array());
    let seq = line["seq"].as_i64().unwrap();
    // A step made elsewhere arrives on the stream.
    let (seat, _) = who(&app, &id).await;
    let s = seat.unwrap() as usize;
    let (st, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        t[s].as_deref(),
        Some(json!({"action": "first 0", "seq": seq})),
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    let next = tokio::time::timeout(std::time::Duration::from_secs(5), body.frame())
        .await
        .expect("a line within 5 s")
        .unwrap()
        .unwrap()
        .into_data()
        .unwrap();
    let text = String::from_utf8(next.to_vec()).unwrap();
    let step: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(step["seq"], json!(seq + 1));
    assert_eq!(step["step"]["act"]["action"], json!({"first": {"side": 0}}));
}
