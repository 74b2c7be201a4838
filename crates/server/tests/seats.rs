//! Seats through the API: joining the first free seat with a seed of one's own, leaving
//! (freed before the start, forfeit or handed to an AI after), rematches with the seats
//! turned round, claiming against a gone seat, abandoned games cleaned up, and table dice
//! rolled only by the seat named.

mod common;

use battlemat_core::{ChanceOutcome, Step, ToAct};
use battlemat_server::{App, dice};
use common::*;
use serde_json::{Value, json};
use std::sync::Arc;

async fn create(app: &Arc<App>, body: Value) -> (String, Vec<Option<String>>, Value) {
    let (st, created) = call(app, "POST", "/api/games", None, Some(body)).await;
    assert_eq!(st, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let t = tokens(&created);
    (id, t, created)
}

/// Every die of a finished game's record, recomputed from its revealed seed and the seats'
/// seeds: the number of dice checked.
fn recompute(rec: &Value) -> usize {
    let d = &rec["dice"]["server"];
    let seed = d["seed"].as_str().expect("the seed, revealed at the end");
    assert_eq!(dice::commitment(seed), d["commitment"].as_str().unwrap());
    let seeds: Vec<String> = serde_json::from_value(d["seat_seeds"].clone()).unwrap();
    let entry = battlemat_rulesets::get(rec["ruleset"].as_str().unwrap()).unwrap();
    let mut state = entry.new_game(&rec["setup"]).unwrap();
    let steps: Vec<Step<Value>> = serde_json::from_value(rec["steps"].clone()).unwrap();
    let (mut index, mut n) = (0, 0);
    for step in &steps {
        if let ToAct::Chance(c) = state.to_act() {
            let outcomes: Vec<ChanceOutcome> = c.outcomes.clone();
            assert_eq!(
                step,
                &Step::Roll {
                    value: dice::face(seed, &seeds, index, &outcomes)
                }
            );
            index += 1;
            n += 1;
        }
        state.apply(step).unwrap();
    }
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_seat_is_joined_with_its_own_seed_and_then_the_game_starts() {
    let db = common::TestDb::new().await;
    let app = db.app().await;
    let (id, t, created) = create(
        &app,
        json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "open"], "seed": "alpha", "public": true}),
    )
    .await;
    assert!(t[1].is_none(), "an open seat has no token yet");
    assert!(
        created["seats"][1]["join"]
            .as_str()
            .unwrap()
            .ends_with("/join")
    );
    // Not started: no die rolled, nothing may be done, and it is listed as open.
    let (_, g) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["status"], json!("open"));
    assert_eq!(g["seq"], json!(0), "no die before every seat is taken");
    assert_eq!(g["open_seats"], json!([1]));
    let (_, list) = call(&app, "GET", "/api/games?status=open", None, None).await;
    assert_eq!(list["games"][0]["id"], json!(id));
    let (st, e) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        t[0].as_deref(),
        Some(json!({"action": "first 0", "seq": 0})),
    )
    .await;
    assert_eq!(st, 409, "{e}");
    assert!(e["error"].as_str().unwrap().contains("not started"), "{e}");
    // A bad seed is refused and takes no seat.
    let (st, e) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(json!({"seed": "a,b"})),
    )
    .await;
    assert_eq!(st, 400, "{e}");
    // A forged token cannot join.
    let (st, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        Some("forged"),
        None,
    )
    .await;
    assert_eq!(st, 403);
    // The holder of seat 0 cannot take seat 1 too.
    let (st, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        t[0].as_deref(),
        None,
    )
    .await;
    assert_eq!(st, 409);
    let (st, joined) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(json!({"seed": "beta"})),
    )
    .await;
    assert_eq!(st, 200, "{joined}");
    assert_eq!(joined["seat"], json!(1));
    assert_eq!(joined["started"], json!(true));
    let t1 = joined["token"].as_str().unwrap().to_string();
    assert!(joined["invite"].as_str().unwrap().contains(&t1));
    // No seat left.
    let (st, e) = call(&app, "POST", &format!("/api/games/{id}/join"), None, None).await;
    assert_eq!(st, 409, "{e}");
    // Started: the initiative die was rolled; the new seat sees its own view.
    let g = until(&app, &id, |g| g["seq"].as_i64() >= Some(1)).await;
    assert_eq!(g["status"], json!("running"));
    let (_, mine) = call(&app, "GET", &format!("/api/games/{id}"), Some(&t1), None).await;
    assert_eq!(mine["you"], json!(1));
    // The end: the record holds both seats' seeds, and every die recomputes from them.
    let (st, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&t1),
        None,
    )
    .await;
    assert_eq!(st, 200);
    let (_, rec) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!(
        rec["dice"]["server"]["seat_seeds"],
        json!(["alpha", "beta"])
    );
    assert!(recompute(&rec) >= 1);
    // A restart keeps the joined seat.
    drop(app);
    let app = db.app().await;
    let (st, mine) = call(&app, "GET", &format!("/api/games/{id}"), Some(&t1), None).await;
    assert_eq!(st, 200);
    assert_eq!(mine["you"], json!(1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_frees_a_seat_before_the_start_and_forfeits_or_hands_it_to_an_ai_after() {
    let db = common::TestDb::new().await;
    let app = db.app().await;
    // Before the start: the seat is free again.
    let (id, _, _) = create(
        &app,
        json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "open"]}),
    )
    .await;
    let (_, j) = call(&app, "POST", &format!("/api/games/{id}/join"), None, None).await;
    let tj = j["token"].as_str().unwrap().to_string();
    // (Joining the last seat started it; a game with a free seat is left before its start.)
    let (id2, t2, _) = create(
        &app,
        json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "open"]}),
    )
    .await;
    let (st, left) = call(
        &app,
        "POST",
        &format!("/api/games/{id2}/leave"),
        t2[0].as_deref(),
        None,
    )
    .await;
    assert_eq!(st, 200, "{left}");
    assert_eq!(left["left"], json!("freed"));
    let (_, g) = call(&app, "GET", &format!("/api/games/{id2}"), None, None).await;
    assert_eq!(g["open_seats"], json!([0, 1]));
    let (st, _) = call(
        &app,
        "GET",
        &format!("/api/games/{id2}"),
        t2[0].as_deref(),
        None,
    )
    .await;
    assert_eq!(st, 403, "a freed seat's token is no longer a seat");

    // After the start: forfeit, the default, resigns the seat (a two-seat game ends).
    let (st, left) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/leave"),
        Some(&tj),
        Some(json!({"to": "forfeit"})),
    )
    .await;
    assert_eq!(st, 200, "{left}");
    let (_, g) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert!(g["to_act"].get("over").is_some(), "{g}");
    let (st, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/leave"),
        Some(&tj),
        None,
    )
    .await;
    assert_eq!(st, 409, "the game is over");

    // Handed to an AI: the seat is the server's, and it plays on.
    let (id3, t3, _) = create(
        &app,
        json!({"game": "ms-d20", "scenario": "duel", "seats": ["human", "human"]}),
    )
    .await;
    let (st, e) = call(
        &app,
        "POST",
        &format!("/api/games/{id3}/leave"),
        t3[1].as_deref(),
        Some(json!({"to": "wizard"})),
    )
    .await;
    assert_eq!(st, 400, "an unknown AI: {e}");
    for seat in [0usize, 1] {
        let (st, e) = call(
            &app,
            "POST",
            &format!("/api/games/{id3}/leave"),
            t3[seat].as_deref(),
            Some(json!({"to": "random"})),
        )
        .await;
        assert_eq!(st, 200, "{e}");
        assert_eq!(e["left"], json!("random"));
    }
    let g = until(&app, &id3, |g| {
        g["to_act"].get("over").is_some() || g["seq"].as_i64() > Some(6)
    })
    .await;
    assert_eq!(g["seats"], json!(["random", "random"]));
    let (st, _) = call(
        &app,
        "GET",
        &format!("/api/games/{id3}/legal"),
        t3[0].as_deref(),
        None,
    )
    .await;
    assert_eq!(st, 403, "the seat handed over is no longer the token's");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_turns_the_seats_round_and_keeps_the_players_tokens() {
    let db = common::TestDb::new().await;
    let app = db.app().await;
    let (id, t, _) = create(
        &app,
        json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "human"]}),
    )
    .await;
    let (st, e) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/rematch"),
        t[0].as_deref(),
        None,
    )
    .await;
    assert_eq!(st, 409, "not over yet: {e}");
    call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        t[1].as_deref(),
        None,
    )
    .await;
    let (st, r) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/rematch"),
        t[0].as_deref(),
        None,
    )
    .await;
    assert_eq!(st, 201, "{r}");
    let new = r["id"].as_str().unwrap().to_string();
    assert_ne!(new, id);
    assert_eq!(
        r["seat"],
        json!(1),
        "seat 0 sits at seat 1: the sides swapped"
    );
    assert_ne!(r["dice_commitment"], json!(null));
    // The other player asks too: the same game, its own seat.
    let (st, r2) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/rematch"),
        t[1].as_deref(),
        None,
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(r2["id"], json!(new));
    assert_eq!(r2["seat"], json!(0));
    // Each token is its swapped seat in the new game, which has started.
    let (_, g0) = call(
        &app,
        "GET",
        &format!("/api/games/{new}"),
        t[0].as_deref(),
        None,
    )
    .await;
    assert_eq!(g0["you"], json!(1));
    let (_, g1) = call(
        &app,
        "GET",
        &format!("/api/games/{new}"),
        t[1].as_deref(),
        None,
    )
    .await;
    assert_eq!(g1["you"], json!(0));
    assert_eq!(g1["status"], json!("running"));
    let (_, old) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(old["rematch"], json!(new));
    // The same game again: scenario and options.
    assert_eq!(g1["scenario"], old["scenario"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_gone_too_long_can_be_claimed_against() {
    let db = common::TestDb::new().await;
    let clock = TestClock::new();
    let mut config = clock.config();
    config.gone_after = 60;
    let app = db.open(config).await;
    let (id, t, _) = create(
        &app,
        json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "human"]}),
    )
    .await;
    let (seat, _) = who(&app, &id).await;
    let waited_on = seat.unwrap() as usize;
    let other = t[1 - waited_on].as_deref();
    // The seat the game waits on cannot claim against itself.
    let (st, e) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/claim"),
        t[waited_on].as_deref(),
        None,
    )
    .await;
    assert_eq!(st, 409, "{e}");
    // Not gone long enough: refused, saying how long is left.
    clock.advance(30);
    let (st, e) = call(&app, "POST", &format!("/api/games/{id}/claim"), other, None).await;
    assert_eq!(st, 409, "{e}");
    assert!(
        e["error"].as_str().unwrap().contains("claim again in"),
        "{e}"
    );
    // The seat shows itself (any request): the count starts again.
    clock.advance(40);
    call(
        &app,
        "GET",
        &format!("/api/games/{id}/legal"),
        t[waited_on].as_deref(),
        None,
    )
    .await;
    let (st, _) = call(&app, "POST", &format!("/api/games/{id}/claim"), other, None).await;
    assert_eq!(st, 409, "seen 0 s ago");
    let (_, g) = call(&app, "GET", &format!("/api/games/{id}"), other, None).await;
    assert_eq!(g["presence"][waited_on], json!(0));
    // The limit the browser counts the presence against.
    assert_eq!(g["gone_after"], json!(60));
    // Gone for a minute: the claim resigns it, and the claimer wins.
    clock.advance(61);
    let (st, c) = call(&app, "POST", &format!("/api/games/{id}/claim"), other, None).await;
    assert_eq!(st, 200, "{c}");
    assert_eq!(c["resigned"], json!(waited_on));
    let (_, g) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    let ranks = &g["to_act"]["over"]["ranks"];
    assert_eq!(
        ranks[1 - waited_on],
        json!(1),
        "the claimer ranks first: {ranks}"
    );
    assert_eq!(ranks[waited_on], json!(2), "{ranks}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_games_are_cleaned_up_and_finished_ones_kept() {
    let db = common::TestDb::new().await;
    let clock = TestClock::new();
    let mut config = clock.config();
    config.open_ttl = 100;
    config.abandon_after = 1000;
    let app = db.open(config.clone()).await;
    let body = json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "human"]});
    let (open, _, _) = create(
        &app,
        json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "open"]}),
    )
    .await;
    let (running, tr, _) = create(&app, body.clone()).await;
    let (finished, tf, _) = create(&app, body.clone()).await;
    call(
        &app,
        "POST",
        &format!("/api/games/{finished}/resign"),
        tf[0].as_deref(),
        None,
    )
    .await;
    clock.advance(101);
    assert_eq!(app.sweep().await.unwrap(), vec![open.clone()]);
    let (st, _) = call(&app, "GET", &format!("/api/games/{open}"), None, None).await;
    assert_eq!(st, 404);
    // A seat's request keeps a game alive.
    clock.advance(900);
    call(
        &app,
        "GET",
        &format!("/api/games/{running}"),
        tr[0].as_deref(),
        None,
    )
    .await;
    clock.advance(200);
    assert!(app.sweep().await.unwrap().is_empty());
    // Untouched past abandon_after: removed, from the database too.
    clock.advance(1001);
    assert_eq!(app.sweep().await.unwrap(), vec![running.clone()]);
    drop(app);
    let app = db.open(config).await;
    let (st, _) = call(&app, "GET", &format!("/api/games/{running}"), None, None).await;
    assert_eq!(st, 404);
    let (st, _) = call(
        &app,
        "GET",
        &format!("/api/games/{finished}/record"),
        None,
        None,
    )
    .await;
    assert_eq!(st, 200, "a finished game is kept");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_die_is_posted_only_by_the_seat_named() {
    let db = common::TestDb::new().await;
    let app = db.app().await;
    let (id, t, _) = create(
        &app,
        json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "human"], "dice": "table"}),
    )
    .await;
    // The initiative die, before any decision: the first human seat rolls it.
    let (_, g) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert!(g["to_act"].get("chance").is_some(), "{g}");
    assert_eq!(g["rolls"], json!(0));
    let (st, e) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        t[1].as_deref(),
        Some(json!({"action": 3, "seq": 0})),
    )
    .await;
    assert_eq!(st, 403, "{e}");
    assert!(
        e["error"].as_str().unwrap().contains("seat 0's to roll"),
        "{e}"
    );
    let (st, e) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        t[0].as_deref(),
        Some(json!({"action": 3, "seq": 0})),
    )
    .await;
    assert_eq!(st, 200, "{e}");
    // Play on until a die follows a decision: the seat that decided rolls it.
    for _ in 0..40 {
        let (_, g) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
        let seq = g["seq"].as_i64().unwrap();
        if g["to_act"].get("over").is_some() {
            break;
        }
        if g["to_act"].get("chance").is_some() {
            let roller = g["rolls"].as_u64().unwrap() as usize;
            let (_, rec) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
            let last = rec["steps"]
                .as_array()
                .unwrap()
                .iter()
                .rev()
                .find_map(|s| s["act"]["seat"].as_u64());
            // The seat that decided last rolls; before any decision, the first human seat.
            assert_eq!(last.unwrap_or(0), roller as u64);
            let (st, _) = call(
                &app,
                "POST",
                &format!("/api/games/{id}/actions"),
                t[1 - roller].as_deref(),
                Some(json!({"action": 1, "seq": seq})),
            )
            .await;
            assert_eq!(st, 403, "the other seat may not post the face");
            let face = g["to_act"]["chance"]["outcomes"][0]["value"].clone();
            let (st, e) = call(
                &app,
                "POST",
                &format!("/api/games/{id}/actions"),
                t[roller].as_deref(),
                Some(json!({"action": face, "seq": seq})),
            )
            .await;
            assert_eq!(st, 200, "{e}");
            if last.is_some() {
                return;
            }
            continue;
        }
        let s = g["to_act"]["decide"]["seat"].as_u64().unwrap() as usize;
        let (_, legal) = call(
            &app,
            "GET",
            &format!("/api/games/{id}/legal"),
            t[s].as_deref(),
            None,
        )
        .await;
        let a = legal["actions"].as_array().unwrap().last().unwrap()["text"].clone();
        let (st, e) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/actions"),
            t[s].as_deref(),
            Some(json!({"action": a, "seq": seq})),
        )
        .await;
        assert_eq!(st, 200, "{e}");
    }
    panic!("no die after a decision in 40 steps");
}
