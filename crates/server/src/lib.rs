//! `battlemat serve`: online games over HTTP, written once against core's erased API.
//!
//! # Design
//!
//! Every live game has **one writer**: its [`Live`] value behind its own async lock, which
//! a request holds while it judges an action, **writes the step to the database, and only
//! then** changes the state in memory, answers and wakes the game's listeners (lichess's
//! round actor serialises a game the same way; unlike lichess we do not defer the write).
//! A step is a row of an append-only table keyed by (game, seq); a game's state is its
//! setup replayed through its steps, which is how a restart resumes every game. An action
//! carries the seq it was made against (an old one is refused with 409 and the current
//! seq) and a client id (a resubmission is answered again, never applied twice).
//!
//! Seats hold unguessable bearer tokens, stored only as SHA-256; each request sees the
//! game as its token's seat sees it (the observation, scene and events for that seat), or
//! as a spectator without one. Dice come from a committed server seed (see [`dice`]), which
//! never leaves the server before the game ends. AI seats are played by the server on
//! blocking threads, a bounded number at once, after the game's lock is released, so AI
//! thinking never stalls another game or a reader of this one.
//!
//! The server names no game: the registry hands it a game by id, and everything after that
//! is `DynState` and `Scene`.
//!
//! # Rejected alternative
//!
//! An in-memory game with a periodic snapshot (boardgame.io's default store) is simpler and
//! faster, but an acknowledged move can be lost in a crash, and a reconnecting client
//! cannot be told exactly what it missed. A row per step costs one small transaction per
//! move.

pub mod dice;
mod hint;
mod replay;
pub mod store;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use battlemat_ai::PlayerKind;
use battlemat_core::dynamic::{DynEvent, DynRecord, DynState};
use battlemat_core::{Seat, Step, ToAct, Viewer};
use battlemat_rulesets::DynPlayer;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use store::{GameRow, SeatRow, Store, StoreError};
use tokio::sync::{Mutex as AsyncMutex, Notify, Semaphore};

/// The largest request body the API reads.
pub const MAX_BODY: usize = 64 * 1024;

/// A refusal: its HTTP status, what went wrong, and the rule that says so.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub error: String,
    pub rule: Option<String>,
    pub seq: Option<i64>,
}

impl ApiError {
    fn new(status: StatusCode, error: impl Into<String>) -> ApiError {
        ApiError {
            status,
            error: error.into(),
            rule: None,
            seq: None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": self.error });
        if let Some(r) = self.rule {
            body["rule"] = json!(r);
        }
        if let Some(s) = self.seq {
            body["seq"] = json!(s);
        }
        (self.status, Json(body)).into_response()
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
    }
}

type ApiResult<T> = Result<T, ApiError>;

/// A seat of a live game.
struct LiveSeat {
    player: String,
    token_hash: Option<String>,
    seed: String,
    /// An AI seat's player, kept between its moves (an MCTS player's trees).
    ai: Option<Box<dyn DynPlayer>>,
}

/// A game in memory: its row, seats, state and every step's events as each viewer saw them.
struct Live {
    row: GameRow,
    seats: Vec<LiveSeat>,
    state: Box<dyn DynState>,
    steps: Vec<Step<Value>>,
    /// Per step: the events as each viewer is told them.
    events: Vec<battlemat_core::dynamic::StepEvents>,
    /// Chance points seen so far (the dice index).
    chance_index: u64,
    /// An AI is thinking about this game (one at a time).
    thinking: bool,
}

impl Live {
    fn seq(&self) -> i64 {
        self.steps.len() as i64
    }
    fn seat_seeds(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.seed.clone()).collect()
    }
    fn viewer_of(&self, token: Option<&str>) -> ApiResult<Viewer> {
        let Some(t) = token else {
            return Ok(Viewer::Spectator);
        };
        let h = dice::sha256_hex(t.as_bytes());
        self.seats
            .iter()
            .position(|s| s.token_hash.as_deref() == Some(h.as_str()))
            .map(|s| Viewer::Seat(s as Seat))
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::FORBIDDEN,
                    "that token is not a seat of this game",
                )
            })
    }
    /// The seat a request's token holds: 401 without one, 403 for another game's.
    fn seat_of(&self, token: Option<&str>) -> ApiResult<Seat> {
        let t = token
            .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "a seat's token is needed"))?;
        match self.viewer_of(Some(t))? {
            Viewer::Seat(s) => Ok(s),
            Viewer::Spectator => Err(ApiError::new(StatusCode::FORBIDDEN, "not a seat")),
        }
    }
}

/// The server's shared part.
pub struct App {
    store: Mutex<Store>,
    games: Mutex<HashMap<String, Arc<GameSlot>>>,
    /// AI players thinking at once.
    ai_pool: Semaphore,
    /// Where invite links point.
    pub base_url: String,
}

struct GameSlot {
    live: AsyncMutex<Live>,
    /// Woken after every stored step (listeners re-read what they missed by seq).
    changed: Notify,
}

fn bearer(headers: &HeaderMap) -> ApiResult<Option<String>> {
    match headers.get(header::AUTHORIZATION) {
        None => Ok(None),
        Some(v) => {
            let v = v.to_str().map_err(|_| {
                ApiError::new(StatusCode::UNAUTHORIZED, "unreadable Authorization header")
            })?;
            let t = v.strip_prefix("Bearer ").ok_or_else(|| {
                ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "Authorization must be \"Bearer TOKEN\"",
                )
            })?;
            Ok(Some(t.trim().to_string()))
        }
    }
}

fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn step_json(step: &Step<Value>) -> String {
    serde_json::to_string(step).unwrap_or_default()
}

impl App {
    /// Open the database at `path` and resume every game in it.
    pub fn open(path: &std::path::Path, base_url: &str) -> Result<Arc<App>, String> {
        let store = Store::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let app = App {
            store: Mutex::new(store),
            games: Mutex::new(HashMap::new()),
            ai_pool: Semaphore::new(std::thread::available_parallelism().map_or(1, |n| n.get())),
            base_url: base_url.trim_end_matches('/').to_string(),
        };
        let rows = app.store().games().map_err(|e| e.to_string())?;
        for row in rows {
            let id = row.id.clone();
            let live = app.restore(row).map_err(|e| format!("game {id}: {e}"))?;
            app.games.lock().expect("games lock").insert(
                id,
                Arc::new(GameSlot {
                    live: AsyncMutex::new(live),
                    changed: Notify::new(),
                }),
            );
        }
        Ok(Arc::new(app))
    }

    fn store(&self) -> std::sync::MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A stored game, replayed step by step.
    fn restore(&self, row: GameRow) -> Result<Live, String> {
        let entry = battlemat_rulesets::get(&row.ruleset)?;
        let setup: Value = serde_json::from_str(&row.setup).map_err(|e| e.to_string())?;
        let mut state = entry.ruleset.new_game(&setup).map_err(|e| e.to_string())?;
        let seats = self
            .store()
            .seats(&row.id)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|s| live_seat(&row.ruleset, s))
            .collect::<Result<Vec<_>, _>>()?;
        let rows = self.store().steps(&row.id).map_err(|e| e.to_string())?;
        let mut steps = Vec::new();
        let mut events = Vec::new();
        let mut chance_index = 0;
        for r in rows {
            let step: Step<Value> =
                serde_json::from_str(&r.step).map_err(|e| format!("step {}: {e}", r.seq))?;
            if matches!(state.to_act(), ToAct::Chance(_)) {
                chance_index += 1;
            }
            let ev = state
                .apply_seen(&step)
                .map_err(|e| format!("step {} does not replay: {e}", r.seq))?;
            steps.push(step);
            events.push(ev);
        }
        Ok(Live {
            row,
            seats,
            state,
            steps,
            events,
            chance_index,
            thinking: false,
        })
    }

    fn slot(&self, id: &str) -> ApiResult<Arc<GameSlot>> {
        self.games
            .lock()
            .expect("games lock")
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no game {id:?}")))
    }

    /// Judge a step on a copy, store it, then make it so (the one write path).
    fn commit(
        &self,
        live: &mut Live,
        step: Step<Value>,
        client_id: Option<&str>,
    ) -> ApiResult<battlemat_core::dynamic::StepEvents> {
        let chance = matches!(live.state.to_act(), ToAct::Chance(_));
        let mut next = live.state.clone();
        let ev = next.apply_seen(&step).map_err(|e| ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            error: e.reason.clone(),
            rule: e.rule.clone(),
            seq: Some(live.seq()),
        })?;
        let over = matches!(next.to_act(), ToAct::Over(_));
        let seq = live.seq() + 1;
        self.store()
            .append_step(&live.row.id, seq, &step_json(&step), client_id, over)?;
        live.state = next;
        live.steps.push(step);
        live.events.push(ev.clone());
        live.row.seq = seq;
        live.row.over = over;
        if chance {
            live.chance_index += 1;
        }
        Ok(ev)
    }

    /// Roll every die the game waits for (seeded games), each a stored step.
    fn roll_dice(&self, live: &mut Live) -> ApiResult<()> {
        if live.row.dice != "seeded" {
            return Ok(());
        }
        while let ToAct::Chance(c) = live.state.to_act() {
            let face = dice::face(
                &live.row.server_seed,
                &live.seat_seeds(),
                live.chance_index,
                &c.outcomes,
            );
            self.commit(live, Step::Roll { value: face }, None)?;
        }
        Ok(())
    }
}

fn live_seat(ruleset: &str, s: SeatRow) -> Result<LiveSeat, String> {
    let ai = if s.player == "human" {
        None
    } else {
        let kind: PlayerKind = s.player.parse()?;
        Some((battlemat_rulesets::get(ruleset)?.new_player)(kind))
    };
    Ok(LiveSeat {
        player: s.player,
        token_hash: s.token_hash,
        seed: s.seed,
        ai,
    })
}

/// Let AI seats move until a human (or the end, or a die in a table-dice game) is next.
/// Each move is thought about without the game's lock, then committed under it if the game
/// has not moved on meanwhile.
fn drive(app: Arc<App>, id: String) {
    tokio::spawn(async move {
        loop {
            let Ok(slot) = app.slot(&id) else { return };
            // Take what the AI needs under the lock.
            let (seat, state, mut player, seq) = {
                let mut live = slot.live.lock().await;
                if live.thinking {
                    return;
                }
                if app.roll_dice(&mut live).is_err() {
                    return;
                }
                slot.changed.notify_waiters();
                let ToAct::Decide { seat, .. } = live.state.to_act() else {
                    return;
                };
                let Some(ai) = live.seats.get_mut(seat as usize).and_then(|s| s.ai.take()) else {
                    return;
                };
                live.thinking = true;
                (seat, live.state.clone(), ai, live.seq())
            };
            let Ok(permit) = app.ai_pool.acquire().await else {
                return;
            };
            let seed = seq as u64 ^ 0x5EED;
            let (player, action) = tokio::task::spawn_blocking(move || {
                let mut roller = battlemat_dice::Roller::new(seed, u64::from(seat));
                let a = player.choose(state.as_ref(), &mut roller);
                (player, a)
            })
            .await
            .unwrap_or_else(|_| (Box::new(NoPlayer) as Box<dyn DynPlayer>, None));
            drop(permit);
            let mut live = slot.live.lock().await;
            live.thinking = false;
            if let Some(s) = live.seats.get_mut(seat as usize) {
                s.ai = Some(player);
            }
            let Some(action) = action else { return };
            if live.seq() != seq {
                continue;
            }
            if app
                .commit(&mut live, Step::Act { seat, action }, None)
                .is_err()
            {
                return;
            }
            drop(live);
            slot.changed.notify_waiters();
        }
    });
}

/// A stand-in for an AI player whose thread failed: it never moves.
struct NoPlayer;
impl DynPlayer for NoPlayer {
    fn choose(&mut self, _: &dyn DynState, _: &mut battlemat_dice::Roller) -> Option<Value> {
        None
    }
}

// ----- requests -----------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    pub game: String,
    pub scenario: Option<String>,
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// Each seat: "human" or an AI player's name.
    pub seats: Vec<String>,
    #[serde(default = "seeded")]
    pub dice: String,
    #[serde(default)]
    pub public: bool,
}

fn seeded() -> String {
    "seeded".into()
}

#[derive(Serialize)]
struct SeatOut {
    seat: u8,
    player: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    invite: Option<String>,
}

async fn create_game(State(app): State<Arc<App>>, body: axum::body::Bytes) -> ApiResult<Response> {
    let req: CreateGame = serde_json::from_slice(&body)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("the request: {e}")))?;
    let entry = battlemat_rulesets::get(&req.game)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e))?;
    let info = entry.ruleset.info();
    let scenario = req
        .scenario
        .clone()
        .or_else(|| info.scenarios.first().map(|s| s.id.clone()))
        .unwrap_or_default();
    if !(req.dice == "seeded" || req.dice == "table") {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "dice: \"seeded\" or \"table\"",
        ));
    }
    let mut options = req.options.clone();
    let seats_n = req.seats.len();
    if info.min_seats != info.max_seats {
        options
            .entry(battlemat_core::SEATS_OPTION.to_string())
            .or_insert_with(|| seats_n.to_string());
    }
    let setup = entry
        .ruleset
        .setup(&scenario, &options)
        .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
    let state = entry
        .ruleset
        .new_game(&setup)
        .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
    if state.seats() as usize != seats_n {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "{} {scenario} has {} seats; {} were given",
                info.id,
                state.seats(),
                seats_n
            ),
        ));
    }
    for (i, p) in req.seats.iter().enumerate() {
        if p != "human" {
            p.parse::<PlayerKind>()
                .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("seats[{i}]: {e}")))?;
        }
    }
    let err = |e: String| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e);
    let id = dice::random_hex(8).map_err(err)?;
    let server_seed = dice::random_hex(32).map_err(err)?;
    let commitment = dice::commitment(&server_seed);
    let mut out = Vec::new();
    let mut rows = Vec::new();
    for (i, p) in req.seats.iter().enumerate() {
        let token = if p == "human" {
            Some(dice::random_hex(32).map_err(err)?)
        } else {
            None
        };
        rows.push(SeatRow {
            seat: i as u8,
            player: p.clone(),
            token_hash: token.as_deref().map(|t| dice::sha256_hex(t.as_bytes())),
            seed: String::new(),
        });
        out.push(SeatOut {
            seat: i as u8,
            player: p.clone(),
            invite: token
                .as_ref()
                .map(|t| format!("{}/games/{id}#token={t}", app.base_url)),
            token,
        });
    }
    let row = GameRow {
        id: id.clone(),
        ruleset: info.id.clone(),
        version: info.version.clone(),
        scenario,
        setup: setup.to_string(),
        dice: req.dice.clone(),
        commitment: commitment.clone(),
        server_seed,
        public: req.public,
        created_at: now_secs(),
        seq: 0,
        over: false,
    };
    app.store().insert_game(&row, &rows)?;
    let seats = rows
        .into_iter()
        .map(|s| live_seat(&row.ruleset, s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    let live = Live {
        row,
        seats,
        state,
        steps: Vec::new(),
        events: Vec::new(),
        chance_index: 0,
        thinking: false,
    };
    app.games.lock().expect("games lock").insert(
        id.clone(),
        Arc::new(GameSlot {
            live: AsyncMutex::new(live),
            changed: Notify::new(),
        }),
    );
    drive(app.clone(), id.clone());
    Ok((
        StatusCode::CREATED,
        Json(json!({ "id": id, "seats": out, "dice_commitment": commitment })),
    )
        .into_response())
}

#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
}

async fn list_games(
    State(app): State<Arc<App>>,
    Query(q): Query<ListQuery>,
) -> ApiResult<Json<Value>> {
    let slots: Vec<Arc<GameSlot>> = app
        .games
        .lock()
        .expect("games lock")
        .values()
        .cloned()
        .collect();
    let mut out = Vec::new();
    for s in slots {
        let live = s.live.lock().await;
        if !live.row.public {
            continue;
        }
        let status = if live.row.over {
            "finished"
        } else if live.seq() == 0 {
            "open"
        } else {
            "running"
        };
        if q.status.as_deref().is_some_and(|w| w != status) {
            continue;
        }
        out.push(json!({
            "id": live.row.id, "game": live.row.ruleset, "scenario": live.row.scenario,
            "status": status, "seq": live.seq(), "created_at": live.row.created_at,
            "seats": live.seats.iter().map(|s| s.player.clone()).collect::<Vec<_>>(),
        }));
    }
    out.sort_by_key(|g| {
        (
            g["created_at"].as_i64(),
            g["id"].as_str().map(str::to_string),
        )
    });
    Ok(Json(json!({ "games": out })))
}

fn events_json(e: &[DynEvent]) -> Value {
    json!(e)
}

async fn get_game(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let slot = app.slot(&id)?;
    let live = slot.live.lock().await;
    let viewer = live.viewer_of(bearer(&headers)?.as_deref())?;
    Ok(Json(game_json(&live, viewer)))
}

/// The game as `viewer` sees it.
fn game_json(live: &Live, viewer: Viewer) -> Value {
    let (obs, text) = live.state.observe(viewer);
    json!({
        "id": live.row.id,
        "game": live.row.ruleset,
        "scenario": live.row.scenario,
        "seq": live.seq(),
        "you": match viewer { Viewer::Seat(s) => json!(s), Viewer::Spectator => Value::Null },
        "to_act": live.state.to_act(),
        "scene": live.state.scene(viewer),
        "observation": obs,
        "text": text,
        "dice": live.row.dice,
        "dice_commitment": live.row.commitment,
        "seats": live.seats.iter().map(|s| s.player.clone()).collect::<Vec<_>>(),
    })
}

async fn get_legal(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let slot = app.slot(&id)?;
    let live = slot.live.lock().await;
    let seat = live.seat_of(bearer(&headers)?.as_deref())?;
    let actions = match live.state.to_act() {
        ToAct::Decide { seat: s, .. } if s == seat => live
            .state
            .legal_actions()
            .into_iter()
            .map(|a| {
                let odds = live.state.odds(&a.json);
                json!({"text": a.text, "action": a.json, "label": a.label, "odds": odds})
            })
            .collect(),
        _ => Vec::new(),
    };
    Ok(Json(
        json!({ "seq": live.seq(), "seat": seat, "actions": actions }),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PostAction {
    /// The action as text or JSON, or a die's face (table dice) as a number.
    action: Value,
    /// The seq the client saw.
    seq: i64,
    /// The client's id for this action.
    id: Option<String>,
}

async fn post_action(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> ApiResult<Json<Value>> {
    let req: PostAction = serde_json::from_slice(&body)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("the request: {e}")))?;
    let slot = app.slot(&id)?;
    let token = bearer(&headers)?;
    let mut live = slot.live.lock().await;
    let seat = live.seat_of(token.as_deref())?;
    // A resubmission: answer again with what it did.
    if let Some(cid) = &req.id {
        let done = app.store().seq_of_client_id(&id, cid)?;
        if let Some(at) = done {
            let ev = live
                .events
                .get(at as usize - 1)
                .map(|e| events_json(e.for_viewer(Viewer::Seat(seat))))
                .unwrap_or(Value::Null);
            return Ok(Json(json!({ "seq": at, "events": ev, "repeated": true })));
        }
    }
    if req.seq != live.seq() {
        return Err(ApiError {
            status: StatusCode::CONFLICT,
            error: format!("the game is at step {}, not {}", live.seq(), req.seq),
            rule: None,
            seq: Some(live.seq()),
        });
    }
    let step = match live.state.to_act() {
        ToAct::Over(_) => return Err(ApiError::new(StatusCode::CONFLICT, "the game is over")),
        ToAct::Chance(_) if live.row.dice == "table" => {
            let face = req
                .action
                .as_u64()
                .or_else(|| req.action.as_str().and_then(|s| s.trim().parse().ok()));
            let Some(face) = face else {
                return Err(ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "waiting for a die: give the face rolled",
                ));
            };
            Step::Roll { value: face as u32 }
        }
        ToAct::Chance(_) => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "the server is rolling dice",
            ));
        }
        ToAct::Decide { seat: s, .. } if s != seat => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!("it is seat {s}'s decision, not yours (seat {seat})"),
            ));
        }
        ToAct::Decide { .. } => {
            let text = match &req.action {
                Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            let action = live.state.parse_action(&text).map_err(|e| ApiError {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                error: e,
                rule: None,
                seq: Some(live.seq()),
            })?;
            Step::Act { seat, action }
        }
    };
    let ev = app.commit(&mut live, step, req.id.as_deref())?;
    app.roll_dice(&mut live)?;
    let seq = live.seq();
    drop(live);
    slot.changed.notify_waiters();
    drive(app.clone(), id);
    Ok(Json(
        json!({ "seq": seq, "events": events_json(ev.for_viewer(Viewer::Seat(seat))) }),
    ))
}

async fn resign(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let slot = app.slot(&id)?;
    let token = bearer(&headers)?;
    let mut live = slot.live.lock().await;
    let seat = live.seat_of(token.as_deref())?;
    let ev = app.commit(&mut live, Step::Resign { seat }, None)?;
    let seq = live.seq();
    drop(live);
    slot.changed.notify_waiters();
    Ok(Json(
        json!({ "seq": seq, "events": events_json(ev.for_viewer(Viewer::Seat(seat))) }),
    ))
}

#[derive(Deserialize)]
struct SinceQuery {
    after: Option<i64>,
    /// Wait up to this many milliseconds for a step after `after` (long poll; at most 30 s).
    wait: Option<u64>,
}

/// The steps after `after`, each with its events as this viewer is told them (a client
/// that reconnects asks for what it missed).
async fn get_events(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<SinceQuery>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let slot = app.slot(&id)?;
    let token = bearer(&headers)?;
    let after = q.after.unwrap_or(0).max(0);
    let deadline = tokio::time::Instant::now()
        + std::time::Duration::from_millis(q.wait.unwrap_or(0).min(30_000));
    loop {
        let notified = slot.changed.notified();
        {
            let live = slot.live.lock().await;
            let viewer = live.viewer_of(token.as_deref())?;
            if live.seq() > after || tokio::time::Instant::now() >= deadline {
                let steps = steps_after(&live, after, viewer);
                return Ok(Json(json!({ "seq": live.seq(), "steps": steps })));
            }
        }
        let _ = tokio::time::timeout_at(deadline, notified).await;
    }
}

/// The steps after `after` as `viewer` is told them: `{"seq", "step", "events"}` each.
fn steps_after(live: &Live, after: i64, viewer: Viewer) -> Vec<Value> {
    (after.max(0) as usize..live.events.len())
        .map(|i| {
            json!({
                "seq": i + 1,
                "step": &live.steps[i],
                "events": events_json(live.events[i].for_viewer(viewer)),
            })
        })
        .collect()
}

#[derive(Deserialize)]
struct WsQuery {
    token: Option<String>,
    after: Option<i64>,
}

/// A WebSocket per game for browsers: `{"type": "hello", "seq"}`, then every step after
/// `after` as `{"type": "step", "seq", "step", "events"}` (this viewer's events), each as it
/// is stored. A client that sends `{"resync": N}` gets every step after N again. (Browsers
/// cannot set headers on a WebSocket, so the token comes in the query.) Actions go by
/// `POST …/actions`, which answers once the action is stored.
async fn game_ws(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    ws: axum::extract::WebSocketUpgrade,
) -> ApiResult<Response> {
    let slot = app.slot(&id)?;
    let viewer = slot.live.lock().await.viewer_of(q.token.as_deref())?;
    let after = q.after.unwrap_or(0);
    Ok(ws
        .max_message_size(MAX_BODY)
        .on_upgrade(move |socket| follow_ws(slot, viewer, after, socket)))
}

async fn follow_ws(
    slot: Arc<GameSlot>,
    viewer: Viewer,
    mut sent: i64,
    mut socket: axum::extract::ws::WebSocket,
) {
    use axum::extract::ws::Message;
    let hello = json!({"type": "hello", "seq": slot.live.lock().await.seq()});
    if socket
        .send(Message::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    loop {
        let notified = slot.changed.notified();
        let lines = {
            let live = slot.live.lock().await;
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
            msg = socket.recv() => match msg {
                Some(Ok(Message::Text(t))) => {
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
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {}
            },
            _ = tokio::time::sleep(std::time::Duration::from_secs(20)) => {
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// A bot's stream of one game, in lichess's shape: NDJSON, the first line the whole game as
/// the token's seat sees it, then a line per stored step, and an empty line every 10 s to
/// keep the connection open.
async fn game_stream(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let slot = app.slot(&id)?;
    let token = bearer(&headers)?;
    let (first, viewer, seq) = {
        let live = slot.live.lock().await;
        let viewer = live.viewer_of(token.as_deref())?;
        (game_json(&live, viewer), viewer, live.seq())
    };
    let stream = futures_util::stream::unfold(
        (slot, viewer, seq, Some(first)),
        |(slot, viewer, mut sent, first)| async move {
            if let Some(f) = first {
                let line = format!("{f}\n");
                return Some((
                    Ok::<_, std::convert::Infallible>(line),
                    (slot, viewer, sent, None),
                ));
            }
            loop {
                let notified = slot.changed.notified();
                {
                    let live = slot.live.lock().await;
                    let lines = steps_after(&live, sent, viewer);
                    if !lines.is_empty() {
                        sent = live.seq();
                        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
                        return Some((Ok(text), (slot.clone(), viewer, sent, None)));
                    }
                }
                if tokio::time::timeout(std::time::Duration::from_secs(10), notified)
                    .await
                    .is_err()
                {
                    return Some((Ok("\n".to_string()), (slot.clone(), viewer, sent, None)));
                }
            }
        },
    );
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        axum::body::Body::from_stream(stream),
    )
        .into_response())
}

/// The game's record: what `replay` reads, with the dice's seed once the game is over.
async fn get_record(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let slot = app.slot(&id)?;
    let live = slot.live.lock().await;
    let setup: Value = serde_json::from_str(&live.row.setup).unwrap_or(Value::Null);
    let record = DynRecord {
        ruleset: live.row.ruleset.clone(),
        version: live.row.version.clone(),
        setup,
        steps: live.steps.clone(),
    };
    let mut out = json!({
        "record": record,
        "dice": live.row.dice,
        "dice_commitment": live.row.commitment,
        "seat_seeds": live.seat_seeds(),
        "over": live.row.over,
    });
    if live.row.over {
        out["server_seed"] = json!(live.row.server_seed);
    }
    Ok(Json(out))
}

/// The viewer's table as SVG: the same picture `view --svg` draws.
async fn get_svg(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let slot = app.slot(&id)?;
    let live = slot.live.lock().await;
    let viewer = live.viewer_of(bearer(&headers)?.as_deref())?;
    let svg = battlemat_render::svg(&live.state.scene(viewer));
    Ok((
        [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
        svg,
    )
        .into_response())
}

/// Every game, its scenarios and options (`battlemat rulesets --json`).
async fn get_rulesets() -> Json<Value> {
    Json(json!(
        battlemat_rulesets::all()
            .iter()
            .map(|e| e.ruleset.info())
            .collect::<Vec<_>>()
    ))
}

/// The browser client: a few files, embedded in the binary at build time.
const PAGES: &[(&str, &str, &str)] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../web/style.css"),
    ),
    (
        "lobby.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/lobby.js"),
    ),
    (
        "game.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/game.js"),
    ),
];

fn html(page: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        page,
    )
        .into_response()
}

async fn lobby_page() -> Response {
    html(include_str!("../web/index.html"))
}

async fn game_page(Path(_id): Path<String>) -> Response {
    html(include_str!("../web/game.html"))
}

async fn asset(Path(name): Path<String>) -> Response {
    match PAGES.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, body)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *body,
        )
            .into_response(),
        None => ApiError::new(StatusCode::NOT_FOUND, format!("no file {name:?}")).into_response(),
    }
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such endpoint; the API is under /api (see docs/server.md)",
    )
}

/// The HTTP API.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/games", post(create_game).get(list_games))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/legal", get(get_legal))
        .route("/api/games/{id}/actions", post(post_action))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/events", get(get_events))
        .route("/api/games/{id}/record", get(get_record))
        .route("/api/games/{id}/svg", get(get_svg))
        .route("/api/games/{id}/replay", get(replay::get_replay))
        .route("/api/games/{id}/dice", get(replay::get_dice))
        .route("/api/games/{id}/hint", get(hint::get_hint))
        .route("/api/games/{id}/ws", get(game_ws))
        .route("/api/games/{id}/stream", get(game_stream))
        .route("/api/rulesets", get(get_rulesets))
        .route("/", get(lobby_page))
        .route("/games/{id}", get(game_page))
        .route("/assets/{name}", get(asset))
        .fallback(not_found)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// Serve on `addr` until the process ends.
pub async fn serve(addr: &str, db: &std::path::Path) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("{addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    let base = format!("http://{local}");
    let app = App::open(db, &base)?;
    // Games waiting on an AI or a die when the server stopped go on.
    let ids: Vec<String> = app
        .games
        .lock()
        .expect("games lock")
        .keys()
        .cloned()
        .collect();
    for id in ids {
        drive(app.clone(), id);
    }
    // One write, so a reader that takes the first line and goes sees it all.
    println!(
        "Battlemat is serving on {base} (database {})\nOpen {base}/ in a browser (the API: docs/server.md).",
        db.display()
    );
    axum::serve(listener, router(app))
        .await
        .map_err(|e| e.to_string())
}
