//! Following games: the browser's WebSocket per game, a bot's NDJSON stream of one game
//! (first line the whole game, then its steps), and a token's NDJSON stream of events
//! across all its games (lichess's `/api/stream/event`: games started, your turn, games
//! finished, and an empty line to keep the connection).

use crate::extract::Viewing;
use crate::{ApiError, ApiResult, App, GameSlot, Live, bearer, dice, game_json, steps_after};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use battlemat_core::{ToAct, Viewer};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub(crate) struct WsQuery {
    /// The seat's token (browsers cannot set headers on a WebSocket).
    token: Option<String>,
    /// The last seq you have.
    after: Option<i64>,
}

/// A WebSocket per game for browsers: `{"type": "hello", "seq"}`, then every step after
/// `after` as `{"type": "step", "seq", "step", "events"}` (this viewer's events), each as it
/// is stored. A client that sends `{"resync": N}` gets every step after N again. A client
/// that sends more than the limit of messages in a window is told so and closed (1008).
/// Actions go by `POST …/actions`, which answers once the action is stored.
#[utoipa::path(get, path = "/api/games/{id}/ws", tag = "streams",
    params(("id" = String, Path, description = "the game"), WsQuery),
    responses((status = 101, description = "a WebSocket"), (status = 403, description = "not a seat of this game"),
        (status = 404, description = "no such game")))]
pub(crate) async fn game_ws(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    ws: Result<
        axum::extract::WebSocketUpgrade,
        axum::extract::ws::rejection::WebSocketUpgradeRejection,
    >,
) -> ApiResult<Response> {
    let slot = app.slot(&id)?;
    // The token first: a request that is not a seat's learns nothing more.
    let viewer = slot.live.lock().await.viewer_of(q.token.as_deref())?;
    let ws = ws.map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("not a WebSocket request: {}", e.body_text()),
        )
    })?;
    let after = q.after.unwrap_or(0);
    Ok(ws
        .max_message_size(crate::MAX_BODY)
        .on_upgrade(move |socket| follow_ws(app, slot, viewer, after, socket)))
}

async fn follow_ws(
    app: Arc<App>,
    slot: Arc<GameSlot>,
    viewer: Viewer,
    mut sent: i64,
    mut socket: axum::extract::ws::WebSocket,
) {
    use axum::extract::ws::{CloseFrame, Message};
    let hello = json!({"type": "hello", "seq": slot.live.lock().await.seq()});
    if socket
        .send(Message::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    let (limit, window) = (app.config.ws_messages, app.config.ws_window.max(1));
    let mut window_start = tokio::time::Instant::now();
    let mut received = 0u32;
    loop {
        let notified = slot.changed.notified();
        let lines = {
            let live = slot.live.lock().await;
            if let Viewer::Seat(s) = viewer {
                live.seen(s);
            }
            let out = steps_after(&live, sent, viewer);
            sent = sent.max(live.seq());
            out
        };
        for mut l in lines {
            l["type"] = json!("step");
            if socket
                .send(Message::Text(l.to_string().into()))
                .await
                .is_err()
            {
                return;
            }
        }
        tokio::select! {
            _ = notified => {}
            msg = socket.recv() => {
                let Some(Ok(msg)) = msg else { return };
                if matches!(msg, Message::Close(_)) {
                    return;
                }
                // Every message counts (pings too): at most `limit` a window.
                if window_start.elapsed() >= Duration::from_secs(window) {
                    window_start = tokio::time::Instant::now();
                    received = 0;
                }
                received += 1;
                if limit > 0 && received > limit {
                    let e = json!({"type": "error", "error": format!(
                        "too many messages: at most {limit} in {window} s; closing")});
                    let _ = socket.send(Message::Text(e.to_string().into())).await;
                    let _ = socket.send(Message::Close(Some(CloseFrame {
                        code: 1008,
                        reason: "too many messages".into(),
                    }))).await;
                    return;
                }
                if let Message::Text(t) = msg {
                    let v: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
                    match v.get("resync").and_then(Value::as_i64) {
                        Some(n) => sent = n.max(0),
                        None => {
                            let e = json!({"type": "error", "error": "send {\"resync\": N}; actions go by POST"});
                            if socket.send(Message::Text(e.to_string().into())).await.is_err() {
                                return;
                            }
                        }
                    }
                }
            },
            _ = tokio::time::sleep(Duration::from_secs(20)) => {
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    return;
                }
            }
        }
    }
}

fn ndjson(stream: impl futures_util::Stream<Item = String> + Send + 'static) -> Response {
    use futures_util::StreamExt;
    (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        axum::body::Body::from_stream(stream.map(Ok::<_, std::convert::Infallible>)),
    )
        .into_response()
}

/// A bot's stream of one game, in lichess's shape: NDJSON, the first line the whole game as
/// the token's seat sees it (`"type": "gameFull"`, as `GET /api/games/{id}`), then a line per
/// stored step (`"type": "step"`), and an empty line every few seconds to keep the
/// connection open.
#[utoipa::path(get, path = "/api/games/{id}/stream", tag = "streams",
    params(("id" = String, Path, description = "the game")),
    responses((status = 200, description = "application/x-ndjson"), (status = 403, description = "not a seat of this game"),
        (status = 404, description = "no such game")),
    security((), ("token" = [])))]
pub(crate) async fn game_stream(State(app): State<Arc<App>>, game: Viewing) -> ApiResult<Response> {
    let Viewing {
        slot, live, viewer, ..
    } = game;
    let (mut first, seq) = (game_json(&live, viewer), live.seq());
    drop(live);
    first["type"] = json!("gameFull");
    let keep = Duration::from_secs(app.config.keep_alive.max(1));
    let stream = futures_util::stream::unfold(
        (slot, viewer, seq, Some(first)),
        move |(slot, viewer, mut sent, first)| async move {
            if let Some(f) = first {
                return Some((format!("{f}\n"), (slot, viewer, sent, None)));
            }
            let notified = slot.changed.notified();
            {
                let live = slot.live.lock().await;
                if let Viewer::Seat(s) = viewer {
                    live.seen(s);
                }
                let lines = steps_after(&live, sent, viewer);
                if !lines.is_empty() {
                    sent = live.seq();
                    let text: String = lines
                        .into_iter()
                        .map(|mut l| {
                            l["type"] = json!("step");
                            format!("{l}\n")
                        })
                        .collect();
                    return Some((text, (slot.clone(), viewer, sent, None)));
                }
            }
            let _ = tokio::time::timeout(keep, notified).await;
            // Woken (or not): the next turn of the loop sends what is new, or a keep-alive.
            let live = slot.live.lock().await;
            if live.seq() > sent {
                drop(live);
                return Some((String::new(), (slot, viewer, sent, None)));
            }
            drop(live);
            Some(("\n".to_string(), (slot, viewer, sent, None)))
        },
    );
    use futures_util::StreamExt;
    Ok(ndjson(stream.filter(|s| std::future::ready(!s.is_empty()))))
}

/// What an event stream has told of one game.
#[derive(Default)]
struct Told {
    started: bool,
    over: bool,
    /// The seq of the last "yourTurn" line.
    turn: Option<i64>,
}

/// The lines a game gives a token's event stream now (and what is then told).
fn game_events(live: &Live, hash: &str, told: &mut Told, first: bool) -> Vec<Value> {
    let Some(seat) = live.seat_by_hash(hash) else {
        return Vec::new();
    };
    live.seen(seat);
    let mut out = Vec::new();
    let about = json!({"id": live.row.id, "game": live.row.ruleset, "scenario": live.row.scenario,
        "seat": seat, "seq": live.seq()});
    if first && live.row.over {
        // A game already finished when the stream opened is not news.
        told.started = true;
        told.over = true;
        return out;
    }
    if live.started() && !told.started {
        told.started = true;
        out.push(json!({"type": "gameStart", "game": about}));
    }
    if !live.row.over && live.awaits() == Some(seat) && told.turn != Some(live.seq()) {
        told.turn = Some(live.seq());
        let what = match live.state.to_act() {
            ToAct::Decide { prompt, .. } => json!({"decide": prompt}),
            ToAct::Chance(c) => json!({"roll": c.what}),
            ToAct::Over(_) => Value::Null,
        };
        out.push(json!({"type": "yourTurn", "game": about, "to_act": what}));
    }
    if live.row.over && !told.over {
        told.over = true;
        out.push(json!({"type": "gameFinish", "game": about, "result": live.state.result()}));
    }
    out
}

/// A token's events across all its games, as NDJSON: on opening, `gameStart` for each of its
/// games under way; then `gameStart` when a game it holds a seat in starts, `yourTurn` when
/// a game waits on its seat (a decision, or a table die it rolls), `gameFinish` when a game
/// ends; an empty line every few seconds to keep the connection. An open stream keeps the
/// token's seats present.
#[utoipa::path(get, path = "/api/stream/event", tag = "streams",
    responses((status = 200, description = "application/x-ndjson: `{type: gameStart | yourTurn | gameFinish, game: {id, game, scenario, seat, seq}, …}` lines"),
        (status = 401, description = "no token"), (status = 403, description = "a token that holds no seat")),
    security(("token" = [])))]
pub(crate) async fn event_stream(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let token = bearer(&headers)?
        .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "a seat's token is needed"))?;
    let hash = dice::sha256_hex(token.as_bytes());
    if app.games_of(&hash).is_empty() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "that token holds no seat in any game",
        ));
    }
    let keep = Duration::from_secs(app.config.keep_alive.max(1));
    let told: HashMap<String, Told> = HashMap::new();
    let stream = futures_util::stream::unfold(
        (app, hash, told, true),
        move |(app, hash, mut told, first)| async move {
            let mut first = first;
            loop {
                let notified = app.any.notified();
                let mut lines = Vec::new();
                for id in app.games_of(&hash) {
                    let Ok(slot) = app.slot(&id) else { continue };
                    let live = slot.live.lock().await;
                    let new = !told.contains_key(&id);
                    let t = told.entry(id).or_default();
                    lines.extend(game_events(&live, &hash, t, first && new));
                }
                first = false;
                if !lines.is_empty() {
                    drop(notified);
                    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
                    return Some((text, (app, hash, told, false)));
                }
                if tokio::time::timeout(keep, notified).await.is_err() {
                    return Some(("\n".to_string(), (app, hash, told, false)));
                }
            }
        },
    );
    Ok(ndjson(stream))
}
