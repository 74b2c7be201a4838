//! Several `serve` nodes on one PostgreSQL: leases, forwarding, and catching up.
//!
//! Every node keeps every game in memory, but only one node at a time **writes** a game:
//! the holder of its lease (a row of `leases`: the node's id, its base URL, an expiry it
//! renews every third of [`crate::Config::lease_ms`] while it is alive). The step statement
//! itself checks the lease, so a node whose lease lapsed cannot write, whatever it
//! believes (and the (game, seq) key stops two writers landing the same seq anyway).
//!
//! A command (any `POST /api/games/{id}/…`) reaching a node that does not hold the game is
//! **forwarded** over HTTP to the holder's URL, and the holder's answer is the answer. If
//! the lease has expired (its holder died), the node **takes** it, first catching the game
//! up from the tables, and carries the game on; if the holder does not answer before its
//! lease expires, the client gets `503` with `Retry-After`. A forwarded request is never
//! forwarded again.
//!
//! Every change is announced by PostgreSQL's NOTIFY with the payload `game:seq` only; each
//! node's listener reads what changed from the tables (new steps, seats, a rematch, a new
//! or removed game) into its copy and wakes the game's streams and WebSockets, so a client
//! on any node sees a move made through any node. Notifications are lost while a listener
//! is disconnected, so after it reconnects the node catches up with every game.
//!
//! On SQLite there is one node: it holds every game, and none of this does anything.
//!
//! # Rejected alternative
//!
//! Sticky routing by game id at a load balancer needs no forwarding, but needs the balancer
//! to know which node is alive; the lease row already says so, and every node can answer
//! every request.

use crate::store::{LeaseTake, NodeId, Notification};
use crate::{ApiError, ApiResult, App, Config, GameSlot, Live, live_seat};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::client::legacy::Client as HttpClient;
use hyper_util::client::legacy::connect::HttpConnector;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The header a forwarded request carries (the forwarding node's id).
pub const FORWARDED: &str = "x-battlemat-forwarded-by";

/// This node: its id and URL, the games it holds, and the client it forwards with.
pub(crate) struct Node {
    pub(crate) id: NodeId,
    /// The games this node holds the lease of, each with the instant until which it may
    /// write without asking the database again (two thirds of a lease after it was taken
    /// or renewed, measured from before the request was sent).
    held: Mutex<HashMap<String, Instant>>,
    http: HttpClient<HttpConnector, Body>,
}

/// Who writes a game.
pub(crate) enum Owner {
    Here,
    /// Another node, at this base URL.
    There(String),
}

/// A database URL fit to print: the password, if any, left out.
pub fn redact(db: &str) -> String {
    match (db.find("://"), db.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let cred = &db[s + 3..at];
            match cred.split_once(':') {
                Some((user, _)) => format!("{}{user}:…{}", &db[..s + 3], &db[at..]),
                None => db.to_string(),
            }
        }
        _ => db.to_string(),
    }
}

impl Node {
    pub(crate) fn new(config: &Config) -> Node {
        let url = if config.node_url.is_empty() {
            config.base_url.clone()
        } else {
            config.node_url.trim_end_matches('/').to_string()
        };
        Node {
            // A node is its URL: restarted on the same one, it takes its leases straight
            // back (so two nodes must never share a URL).
            id: NodeId {
                id: url.clone(),
                url,
                lease_ms: config.lease_ms.max(3),
            },
            held: Mutex::new(HashMap::new()),
            http: HttpClient::builder(hyper_util::rt::TokioExecutor::new()).build_http(),
        }
    }

    fn trust(&self) -> Duration {
        Duration::from_millis(self.id.lease_ms * 2 / 3)
    }

    /// A lease taken (or a game created here) at `since`.
    pub(crate) fn held_since(&self, game: &str, since: Instant) {
        let until = since + self.trust();
        self.held
            .lock()
            .expect("held lock")
            .insert(game.to_string(), until);
    }

    pub(crate) fn held(&self, game: &str) {
        self.held_since(game, Instant::now());
    }

    pub(crate) fn holds(&self, game: &str) -> bool {
        self.held
            .lock()
            .expect("held lock")
            .get(game)
            .is_some_and(|until| *until > Instant::now())
    }

    /// The leases renewed at `since`: these games are held; any other is not.
    fn renewed(&self, games: Vec<String>, since: Instant) {
        let until = since + self.trust();
        let mut held = self.held.lock().expect("held lock");
        held.clear();
        held.extend(games.into_iter().map(|g| (g, until)));
    }

    /// Send a request on to the node at `addr` and hand back its answer, with the client's
    /// address signed with the cluster's `secret` (so the holder rates the client, not this
    /// node; whatever the client said in that header is replaced).
    async fn forward(&self, addr: &str, req: Request, secret: &str) -> Response {
        let (mut parts, body) = req.into_parts();
        let client = crate::limits::peer(&parts.extensions);
        let signed = crate::limits::signed_client(secret, &client, crate::now_secs());
        parts.headers.remove(crate::limits::CLIENT_HEADER);
        if let Ok(v) = HeaderValue::from_str(&signed) {
            parts.headers.insert(crate::limits::CLIENT_HEADER, v);
        }
        let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        let uri: Uri = match format!("{addr}{path}").parse() {
            Ok(u) => u,
            Err(e) => return unreachable_owner(addr, &e.to_string(), self.id.lease_ms),
        };
        parts.uri = uri;
        parts.headers.remove(axum::http::header::HOST);
        if let Ok(v) = HeaderValue::from_str(&self.id.id) {
            parts.headers.insert(FORWARDED, v);
        }
        let req = axum::http::Request::from_parts(parts, body);
        match tokio::time::timeout(Duration::from_secs(30), self.http.request(req)).await {
            Ok(Ok(res)) => res.map(Body::new),
            Ok(Err(e)) => unreachable_owner(addr, &e.to_string(), self.id.lease_ms),
            Err(_) => unreachable_owner(addr, "no answer in 30 s", self.id.lease_ms),
        }
    }
}

fn unreachable_owner(addr: &str, why: &str, lease_ms: u64) -> Response {
    ApiError {
        retry_after: Some(lease_ms.div_ceil(1000).max(1)),
        ..ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the node holding this game ({addr}) does not answer ({why}); once its lease \
                 expires another node takes the game on: try again"
            ),
        )
    }
    .into_response()
}

/// The game a command path names: `/api/games/{id}/{command}`.
fn game_of(path: &str) -> Option<&str> {
    let (id, rest) = path.strip_prefix("/api/games/")?.split_once('/')?;
    (!id.is_empty() && !rest.is_empty()).then_some(id)
}

/// The router's layer: a command for a game another node holds goes there.
pub(crate) async fn route(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    if !app.store().is_postgres() || req.method() != Method::POST {
        return next.run(req).await;
    }
    let Some(id) = game_of(req.uri().path()).map(str::to_string) else {
        return next.run(req).await;
    };
    match app.owner_of(&id).await {
        Ok(Owner::Here) => next.run(req).await,
        Ok(Owner::There(addr)) if req.headers().contains_key(FORWARDED) => ApiError {
            retry_after: Some(1),
            ..ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("game {id} moved to the node at {addr} meanwhile: try again"),
            )
        }
        .into_response(),
        Ok(Owner::There(addr)) => app.node.forward(&addr, req, &app.cluster_secret).await,
        Err(e) => e.into_response(),
    }
}

impl App {
    /// Who writes the game (locked by the caller): this node if it holds the lease, or
    /// takes it now (the lease free or expired), catching the game up from the tables
    /// first; otherwise the holder.
    pub(crate) async fn owner(&self, live: &mut Live) -> ApiResult<Owner> {
        let id = live.row.id.clone();
        if !self.store().is_postgres() || self.node.holds(&id) {
            return Ok(Owner::Here);
        }
        let since = Instant::now();
        match self.store().take_lease(&id).await? {
            LeaseTake::Taken => {
                self.catch_up(live).await.map_err(|e| {
                    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("game {id}: {e}"))
                })?;
                self.node.held_since(&id, since);
                Ok(Owner::Here)
            }
            LeaseTake::Held { addr, .. } => Ok(Owner::There(addr)),
        }
    }

    /// Whether this node writes the game (locked by the caller) now.
    pub(crate) async fn owns(&self, live: &mut Live) -> bool {
        matches!(self.owner(live).await, Ok(Owner::Here))
    }

    async fn owner_of(self: &Arc<App>, id: &str) -> ApiResult<Owner> {
        let slot = match self.slot(id) {
            Ok(s) => s,
            Err(_) => {
                // Perhaps made on another node a moment ago.
                self.refresh(id)
                    .await
                    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
                match self.slot(id) {
                    Ok(s) => s,
                    // No such game: the handler says so.
                    Err(_) => return Ok(Owner::Here),
                }
            }
        };
        let mut live = slot.live.lock().await;
        let owner = self.owner(&mut live).await?;
        drop(live);
        if matches!(owner, Owner::Here) {
            self.wake(&slot);
            crate::drive(self.clone(), id.to_string());
        }
        Ok(owner)
    }

    /// Bring a game in memory up to its tables: its seats, its rematch, its new steps.
    async fn catch_up(&self, live: &mut Live) -> Result<(), String> {
        let id = live.row.id.clone();
        let Some(row) = self
            .store()
            .games(Some(&id))
            .await
            .map_err(|e| e.to_string())?
            .pop()
        else {
            return Ok(());
        };
        let seats = self.store().seats(&id).await.map_err(|e| e.to_string())?;
        let now = self.now();
        for s in seats {
            let i = s.seat as usize;
            let Some(mine) = live.seats.get(i) else {
                return Err(format!("seat {i} is not in the game"));
            };
            if mine.player == s.player && mine.token_hash == s.token_hash && mine.seed == s.seed {
                continue;
            }
            if let Some(h) = &mine.token_hash {
                self.unindex_token(h, &id);
            }
            live.seats[i] = live_seat(&row.ruleset, s, now)?;
        }
        self.index_tokens(live);
        let steps = self
            .store()
            .steps(&id, live.seq())
            .await
            .map_err(|e| e.to_string())?;
        if !steps.is_empty() {
            live.touch();
        }
        live.replay(steps)?;
        live.row.rematch = row.rematch;
        Ok(())
    }

    /// A game another node changed (or made, or removed): read it from the tables.
    async fn refresh(self: &Arc<App>, id: &str) -> Result<(), String> {
        let row = self
            .store()
            .games(Some(id))
            .await
            .map_err(|e| e.to_string())?
            .pop();
        let slot = self.slot(id).ok();
        match (row, slot) {
            (None, None) => {}
            (None, Some(slot)) => {
                let live = slot.live.lock().await;
                for s in &live.seats {
                    if let Some(h) = &s.token_hash {
                        self.unindex_token(h, id);
                    }
                }
                self.games.lock().expect("games lock").remove(id);
                drop(live);
                self.wake(&slot);
            }
            (Some(row), None) => {
                let live = self.restore(row).await?;
                self.index_tokens(&live);
                self.games
                    .lock()
                    .expect("games lock")
                    .entry(id.to_string())
                    .or_insert_with(|| Arc::new(GameSlot::new(live)));
                self.any.notify_waiters();
            }
            (Some(_), Some(slot)) => {
                let mut live = slot.live.lock().await;
                if self.node.holds(id) {
                    return Ok(());
                }
                self.catch_up(&mut live).await?;
                drop(live);
                self.wake(&slot);
            }
        }
        Ok(())
    }

    /// After the listener (re)connected: every game, as the tables have it.
    async fn refresh_all(self: &Arc<App>) -> Result<(), String> {
        let mut ids: Vec<String> = self
            .store()
            .games(None)
            .await
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|g| g.id)
            .collect();
        ids.extend(self.games.lock().expect("games lock").keys().cloned());
        ids.sort();
        ids.dedup();
        for id in ids {
            if !self.node.holds(&id) {
                self.refresh(&id).await?;
            }
        }
        Ok(())
    }
}

/// On PostgreSQL: the listener that keeps this node's copies current, and the task that
/// renews its leases. Both end when the server does.
pub(crate) fn start(app: &Arc<App>) {
    let Some(mut rx) = app.store().listen() else {
        return;
    };
    let weak = Arc::downgrade(app);
    tokio::spawn(async move {
        while let Some(n) = rx.recv().await {
            let Some(app) = weak.upgrade() else { return };
            let done = match n {
                Notification::Changed(game, _) if app.node.holds(&game) => Ok(()),
                Notification::Changed(game, _) => app.refresh(&game).await,
                Notification::Reconnected => app.refresh_all().await,
            };
            if let Err(e) = done {
                eprintln!("catching up with another node: {e}");
            }
        }
    });
    let weak = Arc::downgrade(app);
    let every = Duration::from_millis((app.node.id.lease_ms / 3).max(1));
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(every).await;
            let Some(app) = weak.upgrade() else { return };
            let since = Instant::now();
            match app.store().renew_leases().await {
                Ok(games) => app.node.renewed(games, since),
                Err(e) => eprintln!("renewing leases: {e}"),
            }
            // A game waiting on the server whose holder died is taken on here.
            app.drive_waiting(true);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_path_names_its_game() {
        assert_eq!(game_of("/api/games/ab12/actions"), Some("ab12"));
        assert_eq!(game_of("/api/games/ab12/resign"), Some("ab12"));
        assert_eq!(game_of("/api/games"), None);
        assert_eq!(game_of("/api/games/ab12"), None);
        assert_eq!(game_of("/api/games//join"), None);
    }

    #[test]
    fn a_printed_database_url_holds_no_password() {
        assert_eq!(
            redact("postgres://bob:secret@db:5432/games"),
            "postgres://bob:…@db:5432/games"
        );
        assert_eq!(
            redact("postgres://postgres@127.0.0.1/test"),
            "postgres://postgres@127.0.0.1/test"
        );
        assert_eq!(redact("sqlite:battlemat.db"), "sqlite:battlemat.db");
    }
}
