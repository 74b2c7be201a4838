//! The SQLite store: a connection to a file in WAL mode with `synchronous=FULL` that
//! writes (owned by the store's writer thread) and a read-only one beside it, the schema
//! versioned by `PRAGMA user_version`.

use super::{GameRow, SeatRow, StepRow, StoreError};
use rusqlite::{Connection, params};
use std::path::Path;

const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/sqlite/0001_games.sql"),
    include_str!("../../migrations/sqlite/0002_seats.sql"),
    include_str!("../../migrations/sqlite/0003_cluster.sql"),
];

/// A run of steps to append: its game, the first step's seq, the steps (JSON), the client's
/// id (the first step's), and whether the game is over after the last.
pub struct Append {
    pub game: String,
    pub seq: i64,
    pub steps: Vec<String>,
    pub client_id: Option<String>,
    pub over: bool,
}

/// One run inside the batch's transaction, in a savepoint: checked (its first seq must be
/// the game's next), then written; a run refused writes nothing.
fn append(tx: &mut rusqlite::Transaction<'_>, a: &Append) -> Result<(), StoreError> {
    let sp = tx.savepoint()?;
    let at: i64 = sp
        .prepare_cached("SELECT seq FROM games WHERE id = ?1")?
        .query_row([&a.game], |r| r.get(0))?;
    if at + 1 != a.seq {
        return Err(StoreError::Seq {
            game: a.game.clone(),
            at,
            expected: a.seq - 1,
        });
    }
    {
        let mut insert = sp.prepare_cached(
            "INSERT INTO steps (game, seq, step, client_id) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (i, step) in a.steps.iter().enumerate() {
            let client_id = if i == 0 { a.client_id.as_deref() } else { None };
            insert.execute(params![a.game, a.seq + i as i64, step, client_id])?;
        }
    }
    sp.prepare_cached("UPDATE games SET seq = ?2, over = ?3 WHERE id = ?1")?
        .execute(params![a.game, a.seq + a.steps.len() as i64 - 1, a.over])?;
    sp.commit()?;
    Ok(())
}

pub struct Sqlite {
    conn: Connection,
}

impl Sqlite {
    /// Open (or create) the database at `path` and bring its schema up to date.
    pub fn open(path: &Path) -> Result<Sqlite, StoreError> {
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let have: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        for (i, m) in MIGRATIONS.iter().enumerate().skip(have.max(0) as usize) {
            let tx = conn.unchecked_transaction()?;
            tx.execute_batch(m)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            tx.commit()?;
        }
        Ok(Sqlite { conn })
    }

    /// A second connection to the database at `path` (already opened and migrated), for
    /// reads only: in WAL mode it reads the last commit while the writer writes.
    pub fn open_reader(path: &Path) -> Result<Sqlite, StoreError> {
        let conn = Connection::open_with_flags(
            path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        Ok(Sqlite { conn })
    }

    pub fn insert_game(&mut self, g: &GameRow, seats: &[SeatRow]) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO games (id, ruleset, version, scenario, setup, dice, commitment, \
             server_seed, public, created_at, seq, over, options, client, touched) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 0, 0, ?11, ?12, ?10)",
            params![
                g.id,
                g.ruleset,
                g.version,
                g.scenario,
                g.setup,
                g.dice,
                g.commitment,
                g.server_seed,
                g.public,
                g.created_at,
                g.options,
                g.client
            ],
        )?;
        for s in seats {
            tx.execute(
                "INSERT INTO seats (game, seat, player, token_hash, seed) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![g.id, s.seat, s.player, s.token_hash, s.seed],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Append runs of steps (each run's first must be its game's next) in one transaction,
    /// so one fsync makes them all durable (group commit): each run's own verdict, in order.
    /// A run refused changes nothing; the others still go in.
    pub fn append_steps(&mut self, batch: &[Append]) -> Vec<Result<(), StoreError>> {
        let mut tx = match self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        {
            Ok(tx) => tx,
            Err(e) => {
                return batch
                    .iter()
                    .map(|_| Err(StoreError::Other(e.to_string())))
                    .collect();
            }
        };
        let out: Vec<Result<(), StoreError>> = batch.iter().map(|a| append(&mut tx, a)).collect();
        match tx.commit() {
            Ok(()) => out,
            Err(e) => batch
                .iter()
                .map(|_| Err(StoreError::Other(e.to_string())))
                .collect(),
        }
    }

    /// Every game, or the one with this id.
    pub fn games(&self, id: Option<&str>) -> Result<Vec<GameRow>, StoreError> {
        let mut q = self.conn.prepare(
            "SELECT id, ruleset, version, scenario, setup, dice, commitment, server_seed, public, \
             created_at, seq, over, options, rematch, client, touched FROM games \
             WHERE ?1 IS NULL OR id = ?1 ORDER BY created_at, id",
        )?;
        let rows = q.query_map([id], |r| {
            Ok(GameRow {
                id: r.get(0)?,
                ruleset: r.get(1)?,
                version: r.get(2)?,
                scenario: r.get(3)?,
                setup: r.get(4)?,
                dice: r.get(5)?,
                commitment: r.get(6)?,
                server_seed: r.get(7)?,
                public: r.get(8)?,
                created_at: r.get(9)?,
                seq: r.get(10)?,
                over: r.get(11)?,
                options: r.get(12)?,
                rematch: r.get(13)?,
                client: r.get(14)?,
                touched: r.get(15)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    pub fn seats(&self, game: &str) -> Result<Vec<SeatRow>, StoreError> {
        let mut q = self.conn.prepare(
            "SELECT seat, player, token_hash, seed FROM seats WHERE game = ?1 ORDER BY seat",
        )?;
        let rows = q.query_map([game], |r| {
            Ok(SeatRow {
                seat: r.get(0)?,
                player: r.get(1)?,
                token_hash: r.get(2)?,
                seed: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// A game's steps after `after`, in order.
    pub fn steps(&self, game: &str, after: i64) -> Result<Vec<StepRow>, StoreError> {
        let mut q = self.conn.prepare(
            "SELECT seq, step, client_id FROM steps WHERE game = ?1 AND seq > ?2 ORDER BY seq",
        )?;
        let rows = q.query_map(params![game, after], |r| {
            Ok(StepRow {
                seq: r.get(0)?,
                step: r.get(1)?,
                client_id: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// A seat taken, left or handed to an AI: its player, token and seed now.
    pub fn update_seat(&mut self, game: &str, s: &SeatRow) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE seats SET player = ?3, token_hash = ?4, seed = ?5 WHERE game = ?1 AND seat = ?2",
            params![game, s.seat, s.player, s.token_hash, s.seed],
        )?;
        Ok(())
    }

    /// The cluster's secret: `fresh` written if there is none yet, then whatever is there.
    pub fn cluster_secret(&mut self, fresh: &str) -> Result<String, StoreError> {
        self.conn.execute(
            "INSERT OR IGNORE INTO cluster (id, secret) VALUES (1, ?1)",
            params![fresh],
        )?;
        Ok(self
            .conn
            .query_row("SELECT secret FROM cluster WHERE id = 1", [], |r| r.get(0))?)
    }

    pub fn set_rematch(&mut self, game: &str, rematch: &str) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE games SET rematch = ?2 WHERE id = ?1",
            params![game, rematch],
        )?;
        Ok(())
    }

    /// When each game was last touched, written in one transaction.
    pub fn touch(&mut self, times: &[(String, i64)]) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        for (game, t) in times {
            tx.execute(
                "UPDATE games SET touched = ?2 WHERE id = ?1 AND touched < ?2",
                params![game, t],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Remove a game, its seats and its steps (an abandoned game cleaned up).
    pub fn delete_game(&mut self, game: &str) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        tx.execute("DELETE FROM steps WHERE game = ?1", [game])?;
        tx.execute("DELETE FROM seats WHERE game = ?1", [game])?;
        tx.execute("DELETE FROM games WHERE id = ?1", [game])?;
        tx.commit()?;
        Ok(())
    }
}
