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
//! as a spectator without one. A seat may be left **open** at creation and taken later by
//! `join` (the first free seat), with the joiner's own seed for the dice; a game starts —
//! its first die, its first AI move, its first action — only when no seat is open, so the
//! seats' seeds are fixed before any die is drawn. Dice come from a committed server seed
//! and those seeds (see [`dice`]); the server seed never leaves the server before the game
//! ends, and the record it then exports is a game file `battlemat verify` checks. AI seats
//! are played by the server on blocking threads, a bounded number at once, after the game's
//! lock is released, so AI thinking never stalls another game or a reader of this one.
//!
//! Seats are seen: every request a seat's token makes marks it present, and a seat the game
//! waits on that has been gone longer than [`Config::gone_after`] may be resigned by another
//! seat's claim (lichess's "claim victory"). Games nobody has touched for a set time are
//! cleaned up ([`App::sweep`]). Requests are bounded ([`limits`]): body size, actions per
//! second per token and per address, open games per client, WebSocket messages; every
//! refusal is a JSON 4xx saying what and why, and changes nothing.
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
mod extract;
mod hint;
pub mod limits;
pub mod nodes;
pub mod openapi;
pub mod record;
mod replay;
mod seats;
pub mod store;
mod streams;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use battlemat_ai::PlayerKind;
use battlemat_ai::{AiFor, DynPlayer};
use battlemat_core::dynamic::{DynEvent, DynState};
use battlemat_core::{Seat, Step, ToAct, Viewer};
use extract::{Checked, GameRef, Posted, Seated, Viewing};
use limits::{Buckets, Client, Rate};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use store::{GameRow, SeatRow, StepRow, Store, StoreError};
use tokio::sync::{Mutex as AsyncMutex, Notify, Semaphore};

/// The largest request body the API reads.
pub const MAX_BODY: usize = 64 * 1024;

/// A seat nobody has taken yet (its player until someone joins).
pub const OPEN: &str = "open";

/// The time in whole seconds (the Unix clock, or a test's).
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// What the server allows and how long it waits: every number here is a `serve` option.
#[derive(Clone)]
pub struct Config {
    /// Where invite links point.
    pub base_url: String,
    /// A seat the game waits on that has made no request for this many seconds is gone:
    /// another seat may claim (resign it).
    pub gone_after: i64,
    /// A game with a free seat that nobody has touched for this many seconds is removed.
    pub open_ttl: i64,
    /// A started, unfinished game that nobody has touched for this many seconds is removed.
    pub abandon_after: i64,
    /// Actions (and other changes) per token.
    pub token_rate: Rate,
    /// Actions (and other changes) per client address.
    pub ip_rate: Rate,
    /// Unfinished games one client address may have created.
    pub max_open_games: usize,
    /// Messages a WebSocket client may send per `ws_window` seconds.
    pub ws_messages: u32,
    pub ws_window: u64,
    /// Seconds between keep-alive lines on the NDJSON streams.
    pub keep_alive: u64,
    /// Several nodes on one PostgreSQL: how long a node's lease on a game lasts unless it
    /// renews it (milliseconds; renewed every third of it).
    pub lease_ms: u64,
    /// The base URL other nodes forward this node's games' commands to (empty: the
    /// `base_url`).
    pub node_url: String,
    /// The time (seconds).
    pub clock: Clock,
}

impl Config {
    /// The defaults (docs/server.md lists them).
    pub fn new(base_url: &str) -> Config {
        Config {
            base_url: base_url.trim_end_matches('/').to_string(),
            gone_after: 120,
            open_ttl: 24 * 3600,
            abandon_after: 30 * 24 * 3600,
            token_rate: Rate {
                burst: 20,
                per_sec: 10,
            },
            ip_rate: Rate {
                burst: 200,
                per_sec: 100,
            },
            max_open_games: 100,
            ws_messages: 50,
            ws_window: 20,
            keep_alive: 6,
            lease_ms: 10_000,
            node_url: String::new(),
            clock: Arc::new(now_secs),
        }
    }
}

/// A refusal: its HTTP status, what went wrong, and the rule that says so.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub error: String,
    pub rule: Option<String>,
    pub seq: Option<i64>,
    /// Seconds to wait before trying again (429).
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, error: impl Into<String>) -> ApiError {
        ApiError {
            status,
            error: error.into(),
            rule: None,
            seq: None,
            retry_after: None,
        }
    }
    pub(crate) fn conflict(error: impl Into<String>, seq: i64) -> ApiError {
        ApiError {
            seq: Some(seq),
            ..ApiError::new(StatusCode::CONFLICT, error)
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
        let mut res = (self.status, Json(body)).into_response();
        if let Some(secs) = self.retry_after {
            res.headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from(secs));
        }
        res
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Seq { at, .. } => ApiError::conflict(e.to_string(), at),
            StoreError::Lease(_) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("{e} (this node's lease lapsed): send it again"),
            ),
            _ => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        }
    }
}

type ApiResult<T> = Result<T, ApiError>;

/// A seat of a live game.
pub(crate) struct LiveSeat {
    /// "human", [`OPEN`], or an AI player's name.
    player: String,
    token_hash: Option<String>,
    seed: String,
    /// An AI seat's player, kept between its moves (an MCTS player's trees).
    ai: Option<Box<dyn DynPlayer>>,
    /// When the seat's token last made a request (seconds).
    last_seen: AtomicI64,
}

impl LiveSeat {
    fn human(&self) -> bool {
        self.player == "human"
    }
    fn row(&self, seat: usize) -> SeatRow {
        SeatRow {
            seat: seat as u8,
            player: self.player.clone(),
            token_hash: self.token_hash.clone(),
            seed: self.seed.clone(),
        }
    }
}

/// A game in memory: its row, seats, state and every step's events as each viewer saw them.
pub(crate) struct Live {
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
    /// The seq each client action id was stored at (a resubmission is answered again).
    client_ids: HashMap<String, i64>,
    /// The last time a step was made or a seat made a request (seconds).
    touched: AtomicI64,
    clock: Clock,
}

impl Live {
    fn seq(&self) -> i64 {
        self.steps.len() as i64
    }
    fn seat_seeds(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.seed.clone()).collect()
    }
    /// Every seat is taken: the game has started (dice, AI seats and actions go).
    fn started(&self) -> bool {
        !self.seats.iter().any(|s| s.player == OPEN)
    }
    fn open_seats(&self) -> Vec<usize> {
        (0..self.seats.len())
            .filter(|&i| self.seats[i].player == OPEN)
            .collect()
    }
    fn now(&self) -> i64 {
        (self.clock)()
    }
    fn touch(&self) {
        self.touched.fetch_max(self.now(), Ordering::Relaxed);
    }
    /// Who rolls a table die: the seat that made the last decision, if it is a human seat;
    /// otherwise (no decision yet, or an AI's) the first human seat. Core says nothing of
    /// whose die a chance point is, so this is the server's reading (docs/server.md).
    fn die_roller(&self) -> Option<Seat> {
        let last = self.steps.iter().rev().find_map(|s| match s {
            Step::Act { seat, .. } => Some(*seat),
            _ => None,
        });
        last.filter(|&s| self.seats.get(s as usize).is_some_and(LiveSeat::human))
            .or_else(|| {
                self.seats
                    .iter()
                    .position(LiveSeat::human)
                    .map(|s| s as Seat)
            })
    }
    /// The seat the game waits on: the deciding seat, or the seat that rolls a table die.
    fn awaits(&self) -> Option<Seat> {
        if !self.started() {
            return None;
        }
        match self.state.to_act() {
            ToAct::Decide { seat, .. } => Some(seat),
            ToAct::Chance(_) if self.row.dice == "table" => self.die_roller(),
            _ => None,
        }
    }
    fn seat_by_hash(&self, h: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.token_hash.as_deref() == Some(h))
            .map(|s| s as Seat)
    }
    /// The viewer a request's token makes (a spectator without one); a seat's request marks
    /// it present.
    fn viewer_of(&self, token: Option<&str>) -> ApiResult<Viewer> {
        let Some(t) = token else {
            return Ok(Viewer::Spectator);
        };
        let seat = self
            .seat_by_hash(&dice::sha256_hex(t.as_bytes()))
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::FORBIDDEN,
                    "that token is not a seat of this game",
                )
            })?;
        self.seen(seat);
        Ok(Viewer::Seat(seat))
    }
    fn seen(&self, seat: Seat) {
        let now = self.now();
        if let Some(s) = self.seats.get(seat as usize) {
            s.last_seen.fetch_max(now, Ordering::Relaxed);
        }
        self.touched.fetch_max(now, Ordering::Relaxed);
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
    fn status(&self) -> &'static str {
        if self.row.over {
            "finished"
        } else if !self.started() {
            "open"
        } else {
            "running"
        }
    }
    /// 409 unless the game has started and is not over.
    /// Whether the server moves next: a die of a seeded game, or an AI seat's decision.
    fn waits_on_server(&self) -> bool {
        match self.state.to_act() {
            ToAct::Chance(_) => self.row.dice == "seeded",
            ToAct::Decide { seat, .. } => self
                .seats
                .get(seat as usize)
                .is_some_and(|s| s.ai.is_some()),
            ToAct::Over(_) => false,
        }
    }

    /// Apply stored steps (the ones after this game's seq, in order) as they were made: a
    /// game restored, or caught up with what another node wrote.
    fn replay(&mut self, rows: Vec<StepRow>) -> Result<(), String> {
        for r in rows {
            if r.seq != self.seq() + 1 {
                return Err(format!("step {} follows step {}", r.seq, self.seq()));
            }
            let step: Step<Value> =
                serde_json::from_str(&r.step).map_err(|e| format!("step {}: {e}", r.seq))?;
            if matches!(self.state.to_act(), ToAct::Chance(_)) {
                self.chance_index += 1;
            }
            let ev = self
                .state
                .apply_seen(&step)
                .map_err(|e| format!("step {} does not replay: {e}", r.seq))?;
            if let Some(c) = r.client_id {
                self.client_ids.insert(c, r.seq);
            }
            self.steps.push(step);
            self.events.push(ev);
            self.row.seq = r.seq;
        }
        self.row.over = matches!(self.state.to_act(), ToAct::Over(_));
        Ok(())
    }

    fn playing(&self) -> ApiResult<()> {
        if self.row.over {
            return Err(ApiError::conflict("the game is over", self.seq()));
        }
        if !self.started() {
            return Err(ApiError::conflict(
                format!(
                    "the game has not started: seats {:?} are free (POST /api/games/{}/join)",
                    self.open_seats(),
                    self.row.id
                ),
                self.seq(),
            ));
        }
        Ok(())
    }
}

/// The server's shared part.
pub struct App {
    store: Store,
    /// This server among several on one PostgreSQL, and the games it holds the lease of.
    node: nodes::Node,
    games: Mutex<HashMap<String, Arc<GameSlot>>>,
    /// Each token's games (by the token's SHA-256).
    tokens: Mutex<HashMap<String, BTreeSet<String>>>,
    /// Woken after every change of any game (the event streams).
    any: Notify,
    /// AI players thinking at once.
    ai_pool: Semaphore,
    buckets: Buckets,
    /// The secret every node of the database shares: forwarded client addresses are
    /// signed with it ([`limits::CLIENT_HEADER`]).
    cluster_secret: String,
    pub config: Config,
}

pub(crate) struct GameSlot {
    live: Arc<AsyncMutex<Live>>,
    /// Woken after every stored step (listeners re-read what they missed by seq).
    changed: Notify,
}

pub(crate) fn bearer(headers: &HeaderMap) -> ApiResult<Option<String>> {
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

fn bad_request(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, format!("the request: {e}"))
}

/// A JSON body, or an empty one read as `{}` (for endpoints whose body is optional).
fn body_or_empty<T: serde::de::DeserializeOwned>(body: &[u8]) -> ApiResult<T> {
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        body
    };
    serde_json::from_slice(body).map_err(bad_request)
}

impl App {
    /// Open the database `db` (`sqlite:PATH`, a path, or `postgres://…`) with the default
    /// limits and resume every game in it.
    pub async fn open(db: &str, base_url: &str) -> Result<Arc<App>, String> {
        App::open_with(db, Config::new(base_url)).await
    }

    /// Open the database `db` and resume every game in it. Every seat counts as seen at
    /// the restart (the time it was down is not held against it). On PostgreSQL this node
    /// also listens for the changes other nodes make and renews its leases.
    pub async fn open_with(db: &str, config: Config) -> Result<Arc<App>, String> {
        let node = nodes::Node::new(&config);
        let store = Store::open(db, &node.id)
            .await
            .map_err(|e| format!("{}: {e}", nodes::redact(db)))?;
        let cluster_secret = store
            .cluster_secret(&dice::random_hex(32)?)
            .await
            .map_err(|e| format!("{}: the cluster's secret: {e}", nodes::redact(db)))?;
        let app = App {
            store,
            node,
            games: Mutex::new(HashMap::new()),
            tokens: Mutex::new(HashMap::new()),
            any: Notify::new(),
            ai_pool: Semaphore::new(std::thread::available_parallelism().map_or(1, |n| n.get())),
            buckets: Buckets::default(),
            cluster_secret,
            config,
        };
        let rows = app.store().games(None).await.map_err(|e| e.to_string())?;
        for row in rows {
            let id = row.id.clone();
            let live = app
                .restore(row)
                .await
                .map_err(|e| format!("game {id}: {e}"))?;
            app.index_tokens(&live);
            app.games
                .lock()
                .expect("games lock")
                .insert(id, Arc::new(GameSlot::new(live)));
        }
        let app = Arc::new(app);
        nodes::start(&app);
        Ok(app)
    }

    fn store(&self) -> &Store {
        &self.store
    }

    fn now(&self) -> i64 {
        (self.config.clock)()
    }

    fn index_tokens(&self, live: &Live) {
        let mut t = self.tokens.lock().expect("tokens lock");
        for s in &live.seats {
            if let Some(h) = &s.token_hash {
                t.entry(h.clone()).or_default().insert(live.row.id.clone());
            }
        }
    }

    fn unindex_token(&self, hash: &str, game: &str) {
        let mut t = self.tokens.lock().expect("tokens lock");
        if let Some(games) = t.get_mut(hash) {
            games.remove(game);
            if games.is_empty() {
                t.remove(hash);
            }
        }
    }

    /// The games a token holds a seat in.
    fn games_of(&self, hash: &str) -> Vec<String> {
        self.tokens
            .lock()
            .expect("tokens lock")
            .get(hash)
            .map(|g| g.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// A stored game, replayed step by step.
    async fn restore(&self, row: GameRow) -> Result<Live, String> {
        let rules = battlemat_rulesets::get(&row.ruleset).map_err(|e| e.to_string())?;
        let setup: Value = serde_json::from_str(&row.setup).map_err(|e| e.to_string())?;
        let state = rules.new_game(&setup).map_err(|e| e.to_string())?;
        let now = self.now();
        let seats = self
            .store()
            .seats(&row.id)
            .await
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|s| live_seat(&row.ruleset, s, now))
            .collect::<Result<Vec<_>, _>>()?;
        let rows = self
            .store()
            .steps(&row.id, 0)
            .await
            .map_err(|e| e.to_string())?;
        let touched = row.touched.max(row.created_at);
        let mut live = Live {
            row,
            seats,
            state,
            steps: Vec::new(),
            events: Vec::new(),
            chance_index: 0,
            thinking: false,
            client_ids: HashMap::new(),
            touched: AtomicI64::new(touched),
            clock: self.config.clock.clone(),
        };
        live.replay(rows)?;
        Ok(live)
    }

    fn slot(&self, id: &str) -> ApiResult<Arc<GameSlot>> {
        self.games
            .lock()
            .expect("games lock")
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no game {id:?}")))
    }

    /// Tell a game's listeners, and every event stream, that something changed.
    fn wake(&self, slot: &GameSlot) {
        slot.changed.notify_waiters();
        self.any.notify_waiters();
    }

    /// Judge a step on a copy, roll on that copy every die the server rolls after it, store
    /// the step and those dice in one write, then make it so (the one write path). The
    /// step's own events.
    async fn commit(
        &self,
        live: &mut Live,
        step: Step<Value>,
        client_id: Option<&str>,
    ) -> ApiResult<battlemat_core::dynamic::StepEvents> {
        self.commit_run(live, Some(step), client_id)
            .await?
            .ok_or_else(|| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "a step went missing"))
    }

    /// Roll every die the game waits for (seeded games that have started), stored together
    /// as one write.
    async fn roll_dice(&self, live: &mut Live) -> ApiResult<()> {
        self.commit_run(live, None, None).await.map(|_| ())
    }

    /// The one write path: `first` (if any) judged on a copy of the game, then the dice the
    /// server rolls after it (seeded games that have started: each face drawn from the
    /// committed seeds at its chance point's index), all stored in one transaction — one
    /// fsync and one round trip however many dice follow an action — and only then applied
    /// to the live game. `first`'s events, if it was given.
    async fn commit_run(
        &self,
        live: &mut Live,
        first: Option<Step<Value>>,
        client_id: Option<&str>,
    ) -> ApiResult<Option<battlemat_core::dynamic::StepEvents>> {
        let mut next = live.state.clone();
        let mut chance_index = live.chance_index;
        let mut run: Vec<(Step<Value>, battlemat_core::dynamic::StepEvents)> = Vec::new();
        let seq_now = live.seq();
        let judge = |next: &mut Box<dyn DynState>, chance_index: &mut u64, step: &Step<Value>| {
            let chance = matches!(next.to_act(), ToAct::Chance(_));
            let ev = next.apply_seen(step).map_err(|e| ApiError {
                rule: e.rule.clone(),
                seq: Some(seq_now),
                ..ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.reason.clone())
            })?;
            if chance {
                *chance_index += 1;
            }
            Ok::<_, ApiError>(ev)
        };
        let first_given = first.is_some();
        if let Some(step) = first {
            let ev = judge(&mut next, &mut chance_index, &step)?;
            run.push((step, ev));
        }
        if live.row.dice == "seeded" && live.started() {
            let (server_seed, seeds) = (&live.row.server_seed, live.seat_seeds());
            while let ToAct::Chance(c) = next.to_act() {
                let face = dice::face(server_seed, &seeds, chance_index, &c.outcomes);
                let step = Step::Roll { value: face };
                let ev = judge(&mut next, &mut chance_index, &step)?;
                run.push((step, ev));
            }
        }
        if run.is_empty() {
            return Ok(None);
        }
        let over = matches!(next.to_act(), ToAct::Over(_));
        let first_seq = live.seq() + 1;
        let texts: Vec<String> = run.iter().map(|(s, _)| step_json(s)).collect();
        self.store()
            .append_steps(&live.row.id, first_seq, &texts, client_id, over)
            .await?;
        live.state = next;
        live.chance_index = chance_index;
        let first_events = first_given.then(|| run[0].1.clone());
        for (step, ev) in run {
            live.steps.push(step);
            live.events.push(ev);
        }
        live.row.seq = live.seq();
        live.row.over = over;
        if let Some(c) = client_id {
            live.client_ids.insert(c.to_string(), first_seq);
        }
        live.touch();
        Ok(first_events)
    }

    /// A rate limit's verdict for a change made with `token` (if any) from `client`.
    fn limit(&self, token: Option<&str>, client: &Client) -> ApiResult<()> {
        if let Some(t) = token {
            let key = format!("t:{}", dice::sha256_hex(t.as_bytes()));
            self.buckets
                .take(&key, &self.config.token_rate, "this token")?;
        }
        self.buckets.take(
            &format!("ip:{}", client.0),
            &self.config.ip_rate,
            &format!("this address ({})", client.0),
        )
    }

    /// Put a new game in: stored, indexed, and driven.
    async fn insert(self: &Arc<App>, mut live: Live) -> ApiResult<()> {
        let id = live.row.id.clone();
        let rows: Vec<SeatRow> = live
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| s.row(i))
            .collect();
        self.store().insert_game(&live.row, &rows).await?;
        self.node.held(&id);
        // The dice a started game waits for are rolled before anyone is answered.
        self.roll_dice(&mut live).await?;
        self.index_tokens(&live);
        self.games
            .lock()
            .expect("games lock")
            .insert(id.clone(), Arc::new(GameSlot::new(live)));
        drive(self.clone(), id);
        self.any.notify_waiters();
        Ok(())
    }

    /// Write when each game was last touched, and remove the games abandoned: a game with a
    /// free seat untouched for [`Config::open_ttl`] seconds, or a started, unfinished one
    /// untouched for [`Config::abandon_after`]. Finished games are kept (their records).
    /// Returns the ids removed. `serve` runs it every minute.
    pub async fn sweep(&self) -> Result<Vec<String>, String> {
        let now = self.now();
        let slots: Vec<(String, Arc<GameSlot>)> = self
            .games
            .lock()
            .expect("games lock")
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let mut times = Vec::new();
        let mut gone = Vec::new();
        for (id, slot) in slots {
            let mut live = slot.live.lock().await;
            let touched = live.touched.load(Ordering::Relaxed);
            times.push((id.clone(), touched));
            let idle = now - touched;
            let expired = !live.row.over
                && if live.started() {
                    idle > self.config.abandon_after
                } else {
                    idle > self.config.open_ttl
                };
            if expired && self.owns(&mut live).await {
                self.store()
                    .delete_game(&id)
                    .await
                    .map_err(|e| e.to_string())?;
                for s in &live.seats {
                    if let Some(h) = &s.token_hash {
                        self.unindex_token(h, &id);
                    }
                }
                self.games.lock().expect("games lock").remove(&id);
                drop(live);
                self.wake(&slot);
                gone.push(id);
            }
        }
        times.retain(|(id, _)| !gone.contains(id));
        self.store()
            .touch(&times)
            .await
            .map_err(|e| e.to_string())?;
        self.buckets.forget_full();
        Ok(gone)
    }
}

impl App {
    /// Drive every game the server moves next in (an AI seat or a die): after a restart,
    /// or (`orphans`) only those this node does not hold, whose holder may have died.
    pub(crate) fn drive_waiting(self: &Arc<App>, orphans: bool) {
        let slots: Vec<(String, Arc<GameSlot>)> = self
            .games
            .lock()
            .expect("games lock")
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (id, slot) in slots {
            let waits = slot
                .live
                .try_lock()
                .is_ok_and(|l| l.waits_on_server() && !l.thinking);
            if waits && !(orphans && self.node.holds(&id)) {
                drive(self.clone(), id);
            }
        }
    }
}

impl GameSlot {
    fn new(live: Live) -> GameSlot {
        GameSlot {
            live: Arc::new(AsyncMutex::new(live)),
            changed: Notify::new(),
        }
    }
}

fn live_seat(ruleset: &str, s: SeatRow, now: i64) -> Result<LiveSeat, String> {
    let ai = if s.player == "human" || s.player == OPEN {
        None
    } else {
        let kind: PlayerKind = s.player.parse()?;
        let ai = battlemat_rulesets::visit(ruleset, AiFor).map_err(|e| e.to_string())?;
        Some(ai.new_player(kind))
    };
    Ok(LiveSeat {
        player: s.player,
        token_hash: s.token_hash,
        seed: s.seed,
        ai,
        last_seen: AtomicI64::new(now),
    })
}

/// Let AI seats move until a human (or the end, or a die in a table-dice game) is next.
/// Each move is thought about without the game's lock, then committed under it if the game
/// has not moved on meanwhile. Nothing moves before the game has started.
fn drive(app: Arc<App>, id: String) {
    tokio::spawn(async move {
        loop {
            let Ok(slot) = app.slot(&id) else { return };
            // Take what the AI needs under the lock.
            let (seat, state, mut player, seq) = {
                let mut live = slot.live.lock().await;
                if live.thinking || !live.started() {
                    return;
                }
                if !live.waits_on_server() || !app.owns(&mut live).await {
                    return;
                }
                let before = live.seq();
                if app.roll_dice(&mut live).await.is_err() {
                    return;
                }
                if live.seq() != before {
                    app.wake(&slot);
                }
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
                // The seat's player is of this game's type (made for it from its ruleset),
                // so a wrong game cannot happen; were it to, the seat does not move.
                let a = player.choose(state.as_ref(), &mut roller).ok().flatten();
                (player, a)
            })
            .await
            .unwrap_or_else(|_| (Box::new(NoPlayer) as Box<dyn DynPlayer>, None));
            drop(permit);
            let mut live = slot.live.lock().await;
            live.thinking = false;
            if let Some(s) = live.seats.get_mut(seat as usize)
                && s.player != "human"
                && s.player != OPEN
            {
                s.ai = Some(player);
            }
            let Some(action) = action else { return };
            if live.seq() != seq {
                continue;
            }
            let ai_still = live
                .seats
                .get(seat as usize)
                .is_some_and(|s| s.ai.is_some());
            if !ai_still {
                return;
            }
            if app
                .commit(&mut live, Step::Act { seat, action }, None)
                .await
                .is_err()
            {
                return;
            }
            drop(live);
            app.wake(&slot);
        }
    });
}

/// A stand-in for an AI player whose thread failed: it never moves.
struct NoPlayer;
impl DynPlayer for NoPlayer {
    fn choose(
        &mut self,
        _: &dyn DynState,
        _: &mut battlemat_dice::Roller,
    ) -> Result<Option<Value>, battlemat_ai::WrongGame> {
        Ok(None)
    }
}

// ----- requests -----------------------------------------------------------------------------

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The game's id (`GET /api/rulesets`).
    pub game: String,
    /// The scenario (default: the game's first).
    pub scenario: Option<String>,
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// Each seat: "human" (yours: a token now), "open" (free: taken by `join`), or an AI
    /// player's name (`random`, `greedy`, `mcts:200`, `mcts:2s`).
    pub seats: Vec<String>,
    /// "seeded" (the server rolls, committed) or "table" (the players roll and post faces).
    #[serde(default = "seeded")]
    pub dice: String,
    /// Listed by `GET /api/games`.
    #[serde(default)]
    pub public: bool,
    /// Your own seed for the dice, for the seats you hold (letters, digits, `-`, `_`).
    #[serde(default)]
    pub seed: String,
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
    /// For an open seat: where to join.
    #[serde(skip_serializing_if = "Option::is_none")]
    join: Option<String>,
}

/// A fresh game in memory (not yet stored).
#[allow(clippy::too_many_arguments)]
fn new_live(
    app: &App,
    ruleset: &str,
    scenario: &str,
    options: &BTreeMap<String, String>,
    dice_mode: &str,
    public: bool,
    client: &str,
    seats: Vec<LiveSeat>,
) -> ApiResult<Live> {
    let rules = battlemat_rulesets::get(ruleset)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.to_string()))?;
    let info = rules.info();
    let setup = rules
        .setup(scenario, options)
        .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
    let state = rules
        .new_game(&setup)
        .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
    if state.seats() as usize != seats.len() {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "{} {scenario} has {} seats; {} were given",
                info.id,
                state.seats(),
                seats.len()
            ),
        ));
    }
    let err = |e: String| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e);
    let id = dice::random_hex(8).map_err(err)?;
    let server_seed = dice::random_hex(32).map_err(err)?;
    let now = app.now();
    let row = GameRow {
        id,
        ruleset: info.id.clone(),
        version: info.version.clone(),
        scenario: scenario.to_string(),
        setup: setup.to_string(),
        dice: dice_mode.to_string(),
        commitment: dice::commitment(&server_seed),
        server_seed,
        public,
        created_at: now,
        seq: 0,
        over: false,
        options: json!(options).to_string(),
        rematch: None,
        client: client.to_string(),
        touched: now,
    };
    Ok(Live {
        row,
        seats,
        state,
        steps: Vec::new(),
        events: Vec::new(),
        chance_index: 0,
        thinking: false,
        client_ids: HashMap::new(),
        touched: AtomicI64::new(now),
        clock: app.config.clock.clone(),
    })
}

/// Create a game.
///
/// Human seats are the creator's (a token and an invite link each), open seats are taken
/// by `join`, AI seats are played by the server. The game starts when no seat is open.
#[utoipa::path(post, path = "/api/games", tag = "lobby",
    request_body = CreateGame,
    responses(
        (status = 201, description = "`{id, seats: [{seat, player, token?, invite?, join?}], dice_commitment}`"),
        (status = 400, description = "a malformed request, an unknown game or player"),
        (status = 422, description = "the scenario, options or number of seats do not make a game"),
        (status = 429, description = "too many requests, or too many unfinished games from this client"),
    ))]
async fn create_game(
    State(app): State<Arc<App>>,
    client: Client,
    body: axum::body::Bytes,
) -> ApiResult<Response> {
    let req: CreateGame = serde_json::from_slice(&body).map_err(bad_request)?;
    app.limit(None, &client)?;
    let rules = battlemat_rulesets::get(&req.game)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.to_string()))?;
    let info = rules.info();
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
    seats::check_seed(&req.seed)?;
    let mut options = req.options.clone();
    if info.min_seats != info.max_seats {
        options
            .entry(battlemat_core::SEATS_OPTION.to_string())
            .or_insert_with(|| req.seats.len().to_string());
    }
    for (i, p) in req.seats.iter().enumerate() {
        if p != "human" && p != OPEN {
            p.parse::<PlayerKind>().map_err(|e| {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    format!("seats[{i}]: {e} (or \"human\", \"open\")"),
                )
            })?;
        }
    }
    let mine = {
        let slots: Vec<Arc<GameSlot>> = app
            .games
            .lock()
            .expect("games lock")
            .values()
            .cloned()
            .collect();
        let mut n = 0;
        for s in slots {
            let l = s.live.lock().await;
            if !l.row.over && l.row.client == client.0 {
                n += 1;
            }
        }
        n
    };
    if mine >= app.config.max_open_games {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "this client has {mine} unfinished games, the most it may have ({}): finish or leave one first",
                app.config.max_open_games
            ),
        ));
    }
    let err = |e: String| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e);
    let now = app.now();
    let mut tokens = Vec::new();
    let mut seats = Vec::new();
    for p in &req.seats {
        let token = if p == "human" {
            Some(dice::random_hex(32).map_err(err)?)
        } else {
            None
        };
        seats.push(
            live_seat(
                &info.id,
                SeatRow {
                    seat: seats.len() as u8,
                    player: p.clone(),
                    token_hash: token.as_deref().map(|t| dice::sha256_hex(t.as_bytes())),
                    seed: if p == "human" {
                        req.seed.clone()
                    } else {
                        String::new()
                    },
                },
                now,
            )
            .map_err(err)?,
        );
        tokens.push(token);
    }
    let live = new_live(
        &app, &info.id, &scenario, &options, &req.dice, req.public, &client.0, seats,
    )?;
    let id = live.row.id.clone();
    let commitment = live.row.commitment.clone();
    let out: Vec<SeatOut> = req
        .seats
        .iter()
        .zip(tokens)
        .enumerate()
        .map(|(i, (p, token))| SeatOut {
            seat: i as u8,
            player: p.clone(),
            invite: token
                .as_ref()
                .map(|t| format!("{}/games/{id}#token={t}", app.config.base_url)),
            join: (p == OPEN).then(|| format!("{}/api/games/{id}/join", app.config.base_url)),
            token,
        })
        .collect();
    app.insert(live).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "id": id, "seats": out, "dice_commitment": commitment })),
    )
        .into_response())
}

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    /// `open` (a seat is free), `running` or `finished`.
    status: Option<String>,
}

/// The public games.
#[utoipa::path(get, path = "/api/games", tag = "lobby", params(ListQuery),
    responses((status = 200, description = "`{games: [{id, game, scenario, status, seq, created_at, seats, open_seats}]}`"),
        (status = 400, description = "an unknown status")))]
async fn list_games(
    State(app): State<Arc<App>>,
    Query(q): Query<ListQuery>,
) -> ApiResult<Json<Value>> {
    if let Some(s) = &q.status
        && !["open", "running", "finished"].contains(&s.as_str())
    {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("status {s:?}: open, running or finished"),
        ));
    }
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
        let status = live.status();
        if q.status.as_deref().is_some_and(|w| w != status) {
            continue;
        }
        out.push(json!({
            "id": live.row.id, "game": live.row.ruleset, "scenario": live.row.scenario,
            "status": status, "seq": live.seq(), "created_at": live.row.created_at,
            "seats": live.seats.iter().map(|s| s.player.clone()).collect::<Vec<_>>(),
            "open_seats": live.open_seats(),
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

/// The game as you see it (your seat's view with your token, the public view without).
#[utoipa::path(get, path = "/api/games/{id}", tag = "play",
    params(("id" = String, Path, description = "the game")),
    responses((status = 200, description = "`{id, game, scenario, seq, you, to_act, scene, observation, text, dice, dice_commitment, seats, status, open_seats, presence, gone_after, rolls, rematch}`"),
        (status = 403, description = "the token is not a seat of this game"),
        (status = 404, description = "no such game")),
    security((), ("token" = [])))]
async fn get_game(State(app): State<Arc<App>>, game: Viewing) -> ApiResult<Json<Value>> {
    let mut out = game_json(&game.live, game.viewer);
    // How long a seat may be away before another may claim (`presence` counts up to it).
    out["gone_after"] = json!(app.config.gone_after);
    Ok(Json(out))
}

/// The game as `viewer` sees it.
fn game_json(live: &Live, viewer: Viewer) -> Value {
    let (obs, text) = live.state.observe(viewer);
    let now = live.now();
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
        "status": live.status(),
        "open_seats": live.open_seats(),
        // Seconds since each human seat was last seen (null for AI and open seats).
        "presence": live.seats.iter().map(|s| if s.human() {
            json!((now - s.last_seen.load(Ordering::Relaxed)).max(0))
        } else { Value::Null }).collect::<Vec<_>>(),
        // The seat that rolls a table die the game waits for.
        "rolls": match live.state.to_act() {
            ToAct::Chance(_) if live.row.dice == "table" && live.started() => json!(live.die_roller()),
            _ => Value::Null,
        },
        "rematch": live.row.rematch,
    })
}

/// Your actions (the `legal --json` shape); empty when it is not your decision.
#[utoipa::path(get, path = "/api/games/{id}/legal", tag = "play",
    params(("id" = String, Path, description = "the game")),
    responses((status = 200, description = "`{seq, seat, actions: [{text, action, label, odds}]}`"),
        (status = 401, description = "no token"), (status = 403, description = "not a seat of this game"),
        (status = 404, description = "no such game")),
    security(("token" = [])))]
async fn get_legal(game: Seated) -> ApiResult<Json<Value>> {
    let Seated { live, seat, .. } = game;
    let actions = match live.state.to_act() {
        ToAct::Decide { seat: s, .. } if s == seat && live.started() => live
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

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PostAction {
    /// The action as text or JSON, or a die's face (table dice) as a number.
    #[schema(value_type = Object)]
    pub action: Value,
    /// The seq the client saw.
    pub seq: i64,
    /// The client's id for this action.
    pub id: Option<String>,
}

impl Checked for PostAction {}

/// Act: judged, stored, and only then answered.
#[utoipa::path(post, path = "/api/games/{id}/actions", tag = "play",
    params(("id" = String, Path, description = "the game")),
    request_body = PostAction,
    responses((status = 200, description = "`{seq, events}` once stored (`repeated: true` for a resubmitted id)"),
        (status = 400, description = "a malformed request"), (status = 401, description = "no token"),
        (status = 403, description = "not a seat of this game, or not this seat's turn or die"),
        (status = 404, description = "no such game"),
        (status = 409, description = "a stale seq (`seq`: the current one), the game over or not started"),
        (status = 422, description = "an illegal action: `{error, rule}`"),
        (status = 429, description = "too many actions (Retry-After)")),
    security(("token" = [])))]
async fn post_action(
    State(app): State<Arc<App>>,
    client: Client,
    posted: Posted<PostAction>,
) -> ApiResult<Json<Value>> {
    let Posted { body: req, game } = posted;
    let Seated {
        id,
        slot,
        mut live,
        seat,
        token,
    } = game.seated().await?;
    // A resubmission: answer again with what it did.
    if let Some(cid) = &req.id
        && let Some(&at) = live.client_ids.get(cid)
    {
        let ev = live
            .events
            .get(at as usize - 1)
            .map(|e| events_json(e.for_viewer(Viewer::Seat(seat))))
            .unwrap_or(Value::Null);
        return Ok(Json(json!({ "seq": at, "events": ev, "repeated": true })));
    }
    app.limit(token.as_deref(), &client)?;
    live.playing()?;
    if req.seq != live.seq() {
        return Err(ApiError::conflict(
            format!("the game is at step {}, not {}", live.seq(), req.seq),
            live.seq(),
        ));
    }
    let step = match live.state.to_act() {
        ToAct::Over(_) => return Err(ApiError::conflict("the game is over", live.seq())),
        ToAct::Chance(_) if live.row.dice == "table" => {
            // Table dice: only the seat named rolls (the last to decide; docs/server.md).
            let roller = live.die_roller();
            if roller != Some(seat) {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    format!(
                        "this die is seat {}'s to roll (the seat that decided last), not yours (seat {seat})",
                        roller.map_or("?".to_string(), |s| s.to_string())
                    ),
                ));
            }
            let face = req
                .action
                .as_u64()
                .or_else(|| req.action.as_str().and_then(|s| s.trim().parse().ok()))
                .and_then(|f| u32::try_from(f).ok());
            let Some(face) = face else {
                return Err(ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "waiting for a die: give the face rolled",
                ));
            };
            Step::Roll { value: face }
        }
        ToAct::Chance(_) => {
            return Err(ApiError::conflict("the server is rolling dice", live.seq()));
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
                seq: Some(live.seq()),
                ..ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.reason)
            })?;
            Step::Act { seat, action }
        }
    };
    // The dice the server rolls after it were stored with it.
    let ev = app.commit(&mut live, step, req.id.as_deref()).await?;
    let seq = live.seq();
    drop(live);
    app.wake(&slot);
    drive(app.clone(), id);
    Ok(Json(
        json!({ "seq": seq, "events": events_json(ev.for_viewer(Viewer::Seat(seat))) }),
    ))
}

/// Your seat resigns.
#[utoipa::path(post, path = "/api/games/{id}/resign", tag = "play",
    params(("id" = String, Path, description = "the game")),
    responses((status = 200, description = "`{seq, events}`"), (status = 401, description = "no token"),
        (status = 403, description = "not a seat of this game"), (status = 404, description = "no such game"),
        (status = 409, description = "the game is over or has not started"),
        (status = 429, description = "too many requests (Retry-After)")),
    security(("token" = [])))]
async fn resign(
    State(app): State<Arc<App>>,
    client: Client,
    game: Seated,
) -> ApiResult<Json<Value>> {
    let Seated {
        id,
        slot,
        mut live,
        seat,
        token,
    } = game;
    app.limit(token.as_deref(), &client)?;
    live.playing()?;
    let ev = app.commit(&mut live, Step::Resign { seat }, None).await?;
    let seq = live.seq();
    drop(live);
    app.wake(&slot);
    drive(app.clone(), id);
    Ok(Json(
        json!({ "seq": seq, "events": events_json(ev.for_viewer(Viewer::Seat(seat))) }),
    ))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
struct SinceQuery {
    /// The last seq you have.
    after: Option<i64>,
    /// Wait up to this many milliseconds for a step after `after` (long poll; at most 30 s).
    wait: Option<u64>,
}

/// The steps after `after`, each with its events as this viewer is told them (a client
/// that reconnects asks for what it missed).
#[utoipa::path(get, path = "/api/games/{id}/events", tag = "play",
    params(("id" = String, Path, description = "the game"), SinceQuery),
    responses((status = 200, description = "`{seq, steps: [{seq, step, events}]}`"),
        (status = 403, description = "not a seat of this game"), (status = 404, description = "no such game")),
    security((), ("token" = [])))]
async fn get_events(Query(q): Query<SinceQuery>, game: GameRef) -> ApiResult<Json<Value>> {
    let GameRef { slot, token, .. } = game;
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

/// The game file: what `battlemat verify` and `replay --verify` read, with the server
/// seed only once the game is over.
#[utoipa::path(get, path = "/api/games/{id}/record", tag = "play",
    params(("id" = String, Path, description = "the game")),
    responses((status = 200, description = "a game file (docs/files.md): `{battlemat, ruleset, version, origin, dice, digest, setup, steps}`"),
        (status = 403, description = "the token is not a seat of this game"), (status = 404, description = "no such game")),
    security((), ("token" = [])))]
async fn get_record(game: Viewing) -> ApiResult<Json<Value>> {
    Ok(Json(record::game_file(&game.live)))
}

/// The viewer's table as SVG: the same picture `view --svg` draws.
#[utoipa::path(get, path = "/api/games/{id}/svg", tag = "play",
    params(("id" = String, Path, description = "the game")),
    responses((status = 200, description = "image/svg+xml"),
        (status = 403, description = "not a seat of this game"), (status = 404, description = "no such game")),
    security((), ("token" = [])))]
async fn get_svg(game: Viewing) -> ApiResult<Response> {
    let svg = battlemat_render::svg(&game.live.state.scene(game.viewer));
    Ok((
        [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
        svg,
    )
        .into_response())
}

/// Every game, its scenarios and options (`battlemat rulesets --json`).
#[utoipa::path(get, path = "/api/rulesets", tag = "lobby",
    responses((status = 200, description = "`[{id, name, version, scenarios, options, …}]`")))]
async fn get_rulesets() -> Json<Value> {
    Json(json!(
        battlemat_rulesets::all()
            .iter()
            .map(|r| r.info())
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
        "seat.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/seat.js"),
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

/// The lobby page.
#[utoipa::path(get, path = "/", tag = "browser", responses((status = 200, description = "text/html")))]
async fn lobby_page() -> Response {
    html(include_str!("../web/index.html"))
}

/// The table page of a game (an invite link carries the seat's token after `#`).
#[utoipa::path(get, path = "/games/{id}", tag = "browser",
    params(("id" = String, Path, description = "the game")),
    responses((status = 200, description = "text/html")))]
async fn game_page(Path(_id): Path<String>) -> Response {
    html(include_str!("../web/game.html"))
}

/// The browser client's scripts and style.
#[utoipa::path(get, path = "/assets/{name}", tag = "browser",
    params(("name" = String, Path, description = "style.css, lobby.js, game.js or seat.js")),
    responses((status = 200, description = "the file"), (status = 404, description = "no such file")))]
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
        "no such endpoint; the API is under /api (see docs/server.md and /api/openapi.json)",
    )
}

/// The HTTP API. (Each route on one line: the OpenAPI test reads them from this file.)
pub fn router(app: Arc<App>) -> Router {
    #[rustfmt::skip]
    let r = Router::new()
        .route("/api/games", post(create_game).get(list_games))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/legal", get(get_legal))
        .route("/api/games/{id}/actions", post(post_action))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/join", post(seats::join))
        .route("/api/games/{id}/leave", post(seats::leave))
        .route("/api/games/{id}/claim", post(seats::claim))
        .route("/api/games/{id}/rematch", post(seats::rematch))
        .route("/api/games/{id}/events", get(get_events))
        .route("/api/games/{id}/record", get(get_record))
        .route("/api/games/{id}/svg", get(get_svg))
        .route("/api/games/{id}/replay", get(replay::get_replay))
        .route("/api/games/{id}/dice", get(replay::get_dice))
        .route("/api/games/{id}/hint", get(hint::get_hint))
        .route("/api/games/{id}/ws", get(streams::game_ws))
        .route("/api/games/{id}/stream", get(streams::game_stream))
        .route("/api/stream/event", get(streams::event_stream))
        .route("/api/rulesets", get(get_rulesets))
        .route("/api/openapi.json", get(openapi::document))
        .route("/", get(lobby_page))
        .route("/games/{id}", get(game_page))
        .route("/assets/{name}", get(asset));
    r.fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            nodes::route,
        ))
        .layer(axum::middleware::map_response(limits::json_errors))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// Serve on `addr` until the process ends.
pub async fn serve(addr: &str, db: &str, mut config: Config) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("{addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    let base = format!("http://{local}");
    config.base_url = base.clone();
    let app = App::open_with(db, config).await?;
    // Games waiting on an AI or a die when the server stopped go on.
    app.drive_waiting(false);
    // Every minute: write when games were touched, clean up the abandoned ones.
    let sweeper = app.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(std::time::Duration::from_secs(60)).await;
            if let Err(e) = sweeper.sweep().await {
                eprintln!("clean-up: {e}");
            }
        }
    });
    // One write, so a reader that takes the first line and goes sees it all.
    println!(
        "Battlemat is serving on {base} (database {}, node {})\nOpen {base}/ in a browser (the API: docs/server.md, {base}/api/openapi.json).",
        nodes::redact(db),
        app.node.id.id
    );
    axum::serve(
        listener,
        router(app).into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .await
    .map_err(|e| e.to_string())
}
