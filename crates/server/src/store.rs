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
//! Neither blocks the async runtime. rusqlite is synchronous and SQLite has one writer,
//! so one thread of its own owns the writing connection and takes its work from a
//! channel: every run of steps queued while it wrote the last batch goes in together in
//! the next transaction — one fsync for many actions (group commit), each still answered
//! only after its commit. No task ever waits on a lock for the connection, and the
//! fsync's wait is spent on that thread, not on the runtime's or the blocking pool's.
//! Reads go through a second, read-only connection on the blocking pool: in WAL mode they
//! see the last commit and never wait for the writer. (The rejected first design, every
//! call on `spawn_blocking` behind one mutex, made each action queue behind every read
//! and every other action's blocking task: 50–100 ms waits for the connection at
//! 2,000 actions/s on 2 cores while the writes themselves took a few milliseconds.)
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

/// The SQLite database: a writer thread that owns the one writing connection, fed by a
/// channel, and a connection for reads (WAL lets them run beside the writer).
pub struct SqliteDb {
    writer: std::sync::mpsc::Sender<Job>,
    reader: Arc<Mutex<sqlite::Sqlite>>,
}

/// Work for the writer thread: a run of steps (group-committed with every other run
/// queued by then), or any other write, run in its turn.
enum Job {
    Append(sqlite::Append, Answer),
    Write(Box<dyn FnOnce(&mut sqlite::Sqlite) + Send>),
}

type Answer = tokio::sync::oneshot::Sender<Result<(), StoreError>>;

/// The writer thread: take every job queued, write the runs of steps among them in one
/// transaction (one fsync for all: group commit) and the other writes in their order,
/// answer each only after its commit, and wait for more. It ends when the store is
/// dropped (its channel closes).
fn writer(mut db: sqlite::Sqlite, jobs: std::sync::mpsc::Receiver<Job>) {
    fn flush(db: &mut sqlite::Sqlite, runs: &mut Vec<sqlite::Append>, answers: &mut Vec<Answer>) {
        if runs.is_empty() {
            return;
        }
        for (verdict, answer) in db.append_steps(runs).into_iter().zip(answers.drain(..)) {
            let _ = answer.send(verdict);
        }
        runs.clear();
    }
    while let Ok(first) = jobs.recv() {
        let (mut runs, mut answers) = (Vec::new(), Vec::new());
        for job in std::iter::once(first).chain(jobs.try_iter()) {
            match job {
                Job::Append(run, answer) => {
                    runs.push(run);
                    answers.push(answer);
                }
                Job::Write(write) => {
                    flush(&mut db, &mut runs, &mut answers);
                    write(&mut db);
                }
            }
        }
        flush(&mut db, &mut runs, &mut answers);
    }
}

const WRITER_GONE: &str = "the database writer thread ended";

impl SqliteDb {
    /// Run a write on the writer thread, in its turn; its result.
    async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut sqlite::Sqlite) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.writer
            .send(Job::Write(Box::new(move |db| {
                let _ = tx.send(f(db));
            })))
            .map_err(|_| StoreError::Other(WRITER_GONE.into()))?;
        rx.await
            .map_err(|_| StoreError::Other(WRITER_GONE.into()))?
    }

    /// Run a read on a blocking thread with the read connection (rusqlite is synchronous).
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&sqlite::Sqlite) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let db = self.reader.clone();
        tokio::task::spawn_blocking(move || f(&db.lock().unwrap_or_else(|p| p.into_inner())))
            .await
            .map_err(|e| StoreError::Other(format!("the database thread: {e}")))?
    }
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
            let (db, reader) = tokio::task::spawn_blocking(move || {
                let db = sqlite::Sqlite::open(&path)?;
                Ok::<_, StoreError>((db, sqlite::Sqlite::open_reader(&path)?))
            })
            .await
            .map_err(|e| StoreError::Other(e.to_string()))??;
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::Builder::new()
                .name("sqlite-writer".into())
                .spawn(move || writer(db, rx))
                .map_err(|e| StoreError::Other(format!("the database writer thread: {e}")))?;
            Ok(Store::Sqlite(SqliteDb {
                writer: tx,
                reader: Arc::new(Mutex::new(reader)),
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
                db.write(move |s| s.insert_game(&g, &seats)).await
            }
            Store::Postgres(p) => p.insert_game(g, seats).await,
        }
    }

    /// Append a run of steps, the first numbered `seq` (which must be the game's next), in
    /// one transaction (all or none); `client_id` belongs to the first; the game is marked
    /// over if it is after the last.
    pub async fn append_steps(
        &self,
        game: &str,
        seq: i64,
        steps: &[String],
        client_id: Option<&str>,
        over: bool,
    ) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(db) => {
                let (tx, rx) = tokio::sync::oneshot::channel();
                let run = sqlite::Append {
                    game: game.to_string(),
                    seq,
                    steps: steps.to_vec(),
                    client_id: client_id.map(str::to_string),
                    over,
                };
                db.writer
                    .send(Job::Append(run, tx))
                    .map_err(|_| StoreError::Other(WRITER_GONE.into()))?;
                rx.await
                    .map_err(|_| StoreError::Other(WRITER_GONE.into()))?
            }
            Store::Postgres(p) => p.append_steps(game, seq, steps, client_id, over).await,
        }
    }

    /// Every game, or the one with this id.
    pub async fn games(&self, id: Option<&str>) -> Result<Vec<GameRow>, StoreError> {
        match self {
            Store::Sqlite(db) => {
                let id = id.map(str::to_string);
                db.read(move |s| s.games(id.as_deref())).await
            }
            Store::Postgres(p) => p.games(id).await,
        }
    }

    pub async fn seats(&self, game: &str) -> Result<Vec<SeatRow>, StoreError> {
        match self {
            Store::Sqlite(db) => {
                let game = game.to_string();
                db.read(move |s| s.seats(&game)).await
            }
            Store::Postgres(p) => p.seats(game).await,
        }
    }

    /// A game's steps after `after`, in order.
    pub async fn steps(&self, game: &str, after: i64) -> Result<Vec<StepRow>, StoreError> {
        match self {
            Store::Sqlite(db) => {
                let game = game.to_string();
                db.read(move |s| s.steps(&game, after)).await
            }
            Store::Postgres(p) => p.steps(game, after).await,
        }
    }

    /// A seat taken, left or handed to an AI: its player, token and seed now.
    pub async fn update_seat(&self, game: &str, seat: &SeatRow) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(db) => {
                let (game, seat) = (game.to_string(), seat.clone());
                db.write(move |s| s.update_seat(&game, &seat)).await
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
                db.write(move |s| s.cluster_secret(&fresh)).await
            }
            Store::Postgres(p) => p.cluster_secret(fresh).await,
        }
    }

    pub async fn set_rematch(&self, game: &str, rematch: &str) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(db) => {
                let (game, rematch) = (game.to_string(), rematch.to_string());
                db.write(move |s| s.set_rematch(&game, &rematch)).await
            }
            Store::Postgres(p) => p.set_rematch(game, rematch).await,
        }
    }

    /// When each game was last touched, written in one transaction.
    pub async fn touch(&self, times: &[(String, i64)]) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(db) => {
                let times = times.to_vec();
                db.write(move |s| s.touch(&times)).await
            }
            Store::Postgres(p) => p.touch(times).await,
        }
    }

    /// Remove a game, its seats and its steps (an abandoned game cleaned up).
    pub async fn delete_game(&self, game: &str) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(db) => {
                let game = game.to_string();
                db.write(move |s| s.delete_game(&game)).await
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

#[cfg(test)]
mod tests {
    use super::*;

    fn game(i: usize) -> GameRow {
        GameRow {
            id: format!("g{i}"),
            ruleset: "swtb".into(),
            version: "1".into(),
            scenario: "outpost".into(),
            setup: "{}".into(),
            dice: "seeded".into(),
            commitment: String::new(),
            server_seed: String::new(),
            public: false,
            created_at: i as i64,
            seq: 0,
            over: false,
            options: "{}".into(),
            rematch: None,
            client: "127.0.0.1".into(),
            touched: 0,
        }
    }

    /// Runs appended by many games at once reach the writer thread together: each lands
    /// whole (its steps numbered from its first seq, the client's id on the first), and a
    /// stale run is refused with the game's seq and writes nothing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite_runs_land_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let node = NodeId {
            id: "test".into(),
            url: "http://127.0.0.1:1".into(),
            lease_ms: 1000,
        };
        let db = format!("sqlite:{}", dir.path().join("runs.db").display());
        let store = Arc::new(Store::open(&db, &node).await.unwrap());
        const GAMES: usize = 40;
        for i in 0..GAMES {
            store.insert_game(&game(i), &[]).await.unwrap();
        }
        let run: Vec<String> = ["act", "roll 3", "roll 5"].map(String::from).to_vec();
        let tasks: Vec<_> = (0..GAMES)
            .map(|i| {
                let (store, run) = (store.clone(), run.clone());
                tokio::spawn(async move {
                    let client = format!("c{i}");
                    store
                        .append_steps(&format!("g{i}"), 1, &run, Some(&client), i % 2 == 0)
                        .await
                })
            })
            .collect();
        for t in tasks {
            t.await.unwrap().unwrap();
        }
        let stale = store
            .append_steps("g0", 3, &["late".into(), "roll 1".into()], None, false)
            .await
            .unwrap_err();
        assert!(
            matches!(
                stale,
                StoreError::Seq {
                    at: 3,
                    expected: 2,
                    ..
                }
            ),
            "{stale}"
        );
        for i in 0..GAMES {
            let steps = store.steps(&format!("g{i}"), 0).await.unwrap();
            let got: Vec<_> = steps
                .iter()
                .map(|s| (s.seq, s.step.as_str(), s.client_id.clone()))
                .collect();
            assert_eq!(
                got,
                [
                    (1, "act", Some(format!("c{i}"))),
                    (2, "roll 3", None),
                    (3, "roll 5", None)
                ]
            );
            let row = &store.games(Some(&format!("g{i}"))).await.unwrap()[0];
            assert_eq!((row.seq, row.over), (3, i % 2 == 0));
        }
    }
}
