//! Storage: SQLite in a file (the default, nothing to install) or PostgreSQL (several nodes
//! on one database), migrations run at start, and the one write a step needs.
//!
//! A step is written in one transaction that also moves the game's `seq` on, and only
//! after it commits is anyone told of it; a write whose seq is not the next one fails (two
//! writers could never both land the same seq). Seats are rows of their own, changed when
//! a player joins, leaves or hands a seat to an AI; a game cleaned up goes with its seats
//! and steps in one transaction.
//!
//! # One interface, two stores: an enum
//!
//! [`Store`] is an enum of the two backends with one `async` method per operation, not a
//! trait object: there are exactly two stores, both known here, and an `async fn` in a
//! trait cannot be called through `dyn` without boxing every future. Each method is the
//! same operation on both; what only PostgreSQL has (leases, LISTEN/NOTIFY, for several
//! nodes) answers plainly on SQLite (one node holds every game; nothing to listen to).
//!
//! Neither blocks the async runtime: rusqlite is synchronous, so its calls run on tokio's
//! blocking threads, one at a time behind a mutex (SQLite has one writer anyway), and the
//! steps queued while one batch is written go in together in the next transaction — one
//! fsync for many steps (group commit), each still answered only after its commit;
//! PostgreSQL is spoken by `tokio-postgres` through a `deadpool-postgres` pool. On
//! PostgreSQL a step is one statement (update the game's seq where it is the one before
//! and this node holds the lease, insert the step, notify) — one round trip, atomic, and
//! durable when it returns (`synchronous_commit` is PostgreSQL's default, on).

mod postgres;
mod sqlite;

pub use postgres::{LeaseTake, Notification, listener_name};

use std::sync::{Arc, Mutex};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database: {}", postgres_message(.0))]
    Postgres(#[from] tokio_postgres::Error),
    #[error("database: {0}")]
    Other(String),
    #[error("game {game} is at step {at}, not {expected}")]
    Seq {
        game: String,
        at: i64,
        expected: i64,
    },
    /// This node no longer holds the game's lease (another node has taken it).
    #[error("game {0} is now held by another node")]
    Lease(String),
}

/// A game as stored: everything but its steps.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: String,
    pub ruleset: String,
    pub version: String,
    pub scenario: String,
    pub setup: String,
    pub dice: String,
    pub commitment: String,
    pub server_seed: String,
    pub public: bool,
    pub created_at: i64,
    pub seq: i64,
    pub over: bool,
    /// The options the setup was built with (a JSON object of strings).
    pub options: String,
    /// The game a rematch of this one made.
    pub rematch: Option<String>,
    /// The creating client's address.
    pub client: String,
    /// The last time anything happened in the game (seconds).
    pub touched: i64,
}

#[derive(Clone, Debug)]
pub struct SeatRow {
    pub seat: u8,
    pub player: String,
    pub token_hash: Option<String>,
    pub seed: String,
}

#[derive(Clone, Debug)]
pub struct StepRow {
    pub seq: i64,
    pub step: String,
    pub client_id: Option<String>,
}

/// The database: which one, and its connection (SQLite) or pool (PostgreSQL).
pub enum Store {
    Sqlite(SqliteDb),
    Postgres(Box<postgres::Postgres>),
}

/// The SQLite connection, and the steps waiting to be written (group commit: one
/// transaction, one fsync, for every step queued while the previous batch was written).
pub struct SqliteDb {
    conn: Arc<Mutex<sqlite::Sqlite>>,
    queue: Arc<Mutex<Vec<(sqlite::Append, Answer)>>>,
}

type Answer = tokio::sync::oneshot::Sender<Result<(), StoreError>>;

/// Run a SQLite call on a blocking thread (rusqlite is synchronous).
async fn blocking<T: Send + 'static>(
    db: &Arc<Mutex<sqlite::Sqlite>>,
    f: impl FnOnce(&mut sqlite::Sqlite) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    let db = db.clone();
    tokio::task::spawn_blocking(move || f(&mut db.lock().unwrap_or_else(|p| p.into_inner())))
        .await
        .map_err(|e| StoreError::Other(format!("the database thread: {e}")))?
}

impl Store {
    /// Open the database `db` (`sqlite:PATH`, a path, or `postgres://…`) and bring its
    /// schema up to date. `node` names this server among several on one PostgreSQL
    /// (its id and the base URL other nodes forward to).
    pub async fn open(db: &str, node: &NodeId) -> Result<Store, StoreError> {
        if is_postgres(db) {
            Ok(Store::Postgres(Box::new(
                postgres::Postgres::open(db, node).await?,
            )))
        } else {
            let path = std::path::PathBuf::from(db.strip_prefix("sqlite:").unwrap_or(db));
            let s = tokio::task::spawn_blocking(move || sqlite::Sqlite::open(&path))
                .await
                .map_err(|e| StoreError::Other(e.to_string()))??;
            Ok(Store::Sqlite(SqliteDb {
                conn: Arc::new(Mutex::new(s)),
                queue: Arc::new(Mutex::new(Vec::new())),
            }))
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    /// The new game and its seats (and, on PostgreSQL, its lease for this node).
    pub async fn insert_game(&self, g: &GameRow, seats: &[SeatRow]) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(db) => {
                let (g, seats) = (g.clone(), seats.to_vec());
                blocking(&db.conn, move |s| s.insert_game(&g, &seats)).await
            }
            Store::Postgres(p) => p.insert_game(g, seats).await,
        }
    }

    /// Append step `seq` (which must be the game's next) and mark the game over if it is.
    pub async fn append_step(
        &self,
        game: &str,
        seq: i64,
        step: &str,
        client_id: Option<&str>,
        over: bool,
    ) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(db) => {
                let (tx, rx) = tokio::sync::oneshot::channel();
                let append = sqlite::Append {
                    game: game.to_string(),
                    seq,
                    step: step.to_string(),
                    client_id: client_id.map(str::to_string),
                    over,
                };
                db.queue
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push((append, tx));
                // Whoever takes the connection next writes everything queued by then in
                // one transaction (this step, or it went in with an earlier batch).
                let queue = db.queue.clone();
                blocking(&db.conn, move |s| {
                    let batch =
                        std::mem::take(&mut *queue.lock().unwrap_or_else(|p| p.into_inner()));
                    let (steps, answers): (Vec<_>, Vec<_>) = batch.into_iter().unzip();
                    for (verdict, answer) in s.append_steps(&steps).into_iter().zip(answers) {
                        let _ = answer.send(verdict);
                    }
                    Ok(())
                })
                .await?;
                rx.await
                    .map_err(|_| StoreError::Other("the database thread ended".into()))?
            }
            Store::Postgres(p) => p.append_step(game, seq, step, client_id, over).await,
        }
    }

    /// Every game, or the one with this id.
    pub async fn games(&self, id: Option<&str>) -> Result<Vec<GameRow>, StoreError> {
        match self {
            Store::Sqlite(db) => {
                let id = id.map(str::to_string);
                blocking(&db.conn, move |s| s.games(id.as_deref())).await
            }
            Store::Postgres(p) => p.games(id).await,
        }
    }

    pub async fn seats(&self, game: &str) -> Result<Vec<SeatRow>, StoreError> {
        match self {
            Store::Sqlite(db) => {
                let game = game.to_string();
                blocking(&db.conn, move |s| s.seats(&game)).await
            }
            Store::Postgres(p) => p.seats(game).await,
        }
    }

    /// A game's steps after `after`, in order.
    pub async fn steps(&self, game: &str, after: i64) -> Result<Vec<StepRow>, StoreError> {
        match self {
            Store::Sqlite(db) => {
                let game = game.to_string();
                blocking(&db.conn, move |s| s.steps(&game, after)).await
            }
            Store::Postgres(p) => p.steps(game, after).await,
        }
    }

    /// A seat taken, left or handed to an AI: its player, token and seed now.
    pub async fn update_seat(&self, game: &str, seat: &SeatRow) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(db) => {
                let (game, seat) = (game.to_string(), seat.clone());
                blocking(&db.conn, move |s| s.update_seat(&game, &seat)).await
            }
            Store::Postgres(p) => p.update_seat(game, seat).await,
        }
    }

    /// The secret every node of this database shares (forwarded requests' client
    /// addresses are signed with it): `fresh` stored if there is none yet, then the one
    /// stored.
    pub async fn cluster_secret(&self, fresh: &str) -> Result<String, StoreError> {
        match self {
            Store::Sqlite(db) => {
                let fresh = fresh.to_string();
                blocking(&db.conn, move |s| s.cluster_secret(&fresh)).await
            }
            Store::Postgres(p) => p.cluster_secret(fresh).await,
        }
    }

    pub async fn set_rematch(&self, game: &str, rematch: &str) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(db) => {
                let (game, rematch) = (game.to_string(), rematch.to_string());
                blocking(&db.conn, move |s| s.set_rematch(&game, &rematch)).await
            }
            Store::Postgres(p) => p.set_rematch(game, rematch).await,
        }
    }

    /// When each game was last touched, written in one transaction.
    pub async fn touch(&self, times: &[(String, i64)]) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(db) => {
                let times = times.to_vec();
                blocking(&db.conn, move |s| s.touch(&times)).await
            }
            Store::Postgres(p) => p.touch(times).await,
        }
    }

    /// Remove a game, its seats and its steps (an abandoned game cleaned up).
    pub async fn delete_game(&self, game: &str) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(db) => {
                let game = game.to_string();
                blocking(&db.conn, move |s| s.delete_game(&game)).await
            }
            Store::Postgres(p) => p.delete_game(game).await,
        }
    }

    /// Take (or renew) the lease of a game for this node, for [`NodeId::lease_ms`]. SQLite
    /// has one node, which holds every game.
    pub async fn take_lease(&self, game: &str) -> Result<LeaseTake, StoreError> {
        match self {
            Store::Sqlite(_) => Ok(LeaseTake::Taken),
            Store::Postgres(p) => p.take_lease(game).await,
        }
    }

    /// Renew every lease this node holds: the games it still holds.
    pub async fn renew_leases(&self) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(_) => Ok(Vec::new()),
            Store::Postgres(p) => p.renew_leases().await,
        }
    }

    /// Listen for the changes other nodes make: each a game that changed, or `Reconnected`
    /// after the listener lost its connection (notifications made meanwhile are lost, so
    /// the caller catches up with everything). `None` on SQLite: one node, nobody else
    /// writes.
    pub fn listen(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Notification>> {
        match self {
            Store::Sqlite(_) => None,
            Store::Postgres(p) => Some(p.listen()),
        }
    }
}

/// PostgreSQL's own words for an error (`tokio_postgres::Error` shows only "db error").
fn postgres_message(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(d) => format!("{} ({})", d.message(), d.code().code()),
        None => e.to_string(),
    }
}

/// Whether a `--db` value names a PostgreSQL database.
pub fn is_postgres(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// This server among several: its id (the URL it is reached at, unique among the nodes)
/// and the base URL other nodes forward a game's commands to.
#[derive(Clone, Debug)]
pub struct NodeId {
    pub id: String,
    pub url: String,
    /// How long a lease lasts unless renewed (milliseconds).
    pub lease_ms: u64,
}
