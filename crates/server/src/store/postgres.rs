//! The PostgreSQL store: `tokio-postgres` through a `deadpool-postgres` pool, migrations
//! versioned in `battlemat_migrations` (run under an advisory lock, so nodes starting at
//! once migrate one after the other), leases for several nodes, and LISTEN/NOTIFY.
//!
//! Every change a node makes to a game is announced on the schema's channel with the
//! payload `game:seq` only; a listener reads what changed from the tables. A new game, a
//! seat or a rematch is announced in its own statement or transaction. Steps, the hot path,
//! are announced just after their commit by one announcer task, every step committed
//! meanwhile in one `pg_notify` statement: a transaction that notifies holds a
//! database-wide lock from before its commit until its WAL is flushed (PostgreSQL's
//! `async.c`, `PreCommit_Notify`), so notifying inside each step's own statement made every
//! step's commit wait for the one before — no group commit, one fsync per step in a row
//! (the serve bench's closed loop: 2,684 actions/s, and p99 600 ms at 2,000/s open loop).
//! The cost of announcing after the commit: a node that dies between a step's commit and
//! its announcement leaves other nodes one step behind until the game's next announcement
//! (the next step, from whichever node takes the lease), which brings everything it missed.

use super::{GameRow, NodeId, SeatRow, StepRow, StoreError};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use futures_util::StreamExt;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls, Row};

const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/postgres/0001_games.sql"),
    include_str!("../../migrations/postgres/0002_leases.sql"),
    include_str!("../../migrations/postgres/0003_cluster.sql"),
];

/// An arbitrary key for the advisory lock migrations run under.
const MIGRATION_LOCK: i64 = 0x000B_A771_E3A7;

/// Connections a node keeps to PostgreSQL at most.
const POOL_SIZE: usize = 16;

pub struct Postgres {
    pool: Pool,
    config: tokio_postgres::Config,
    node: NodeId,
    /// The channel this schema's changes are announced on.
    channel: String,
    /// Committed steps (`game:seq`) for the announcer task.
    announce: mpsc::UnboundedSender<String>,
}

/// The announcer: every step committed since its last statement announced in one
/// `pg_notify` statement (no write of its own, so its commit waits for no fsync). Ends
/// when the store is dropped.
async fn announcer(pool: Pool, channel: String, mut steps: mpsc::UnboundedReceiver<String>) {
    while let Some(first) = steps.recv().await {
        let mut batch = vec![first];
        while let Ok(more) = steps.try_recv() {
            batch.push(more);
        }
        let sent = match pool.get().await {
            Ok(c) => c
                .execute(
                    "SELECT pg_notify($1::text, p) FROM unnest($2::text[]) AS p",
                    &[&channel, &batch],
                )
                .await
                .map(|_| ())
                .map_err(|e| StoreError::from(e).to_string()),
            Err(e) => Err(pool_err(e).to_string()),
        };
        if let Err(e) = sent {
            eprintln!(
                "announcing {} steps to the other nodes: {e} (they catch up at the game's next step)",
                batch.len()
            );
        }
    }
}

/// What taking a lease found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeaseTake {
    /// This node holds it now.
    Taken,
    /// Another node holds it, and it has not expired: its id and base URL.
    Held { node: String, addr: String },
}

/// What the listener heard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notification {
    /// A game changed (a step, a seat, a rematch, created or removed): its id and seq.
    Changed(String, i64),
    /// The listener (re)connected: notifications made while it was down are lost.
    Reconnected,
}

fn pool_err(e: impl std::fmt::Display) -> StoreError {
    StoreError::Other(format!("PostgreSQL pool: {e}"))
}

fn game_row(r: &Row) -> GameRow {
    GameRow {
        id: r.get(0),
        ruleset: r.get(1),
        version: r.get(2),
        scenario: r.get(3),
        setup: r.get(4),
        dice: r.get(5),
        commitment: r.get(6),
        server_seed: r.get(7),
        public: r.get(8),
        created_at: r.get(9),
        seq: r.get(10),
        over: r.get(11),
        options: r.get(12),
        rematch: r.get(13),
        client: r.get(14),
        touched: r.get(15),
    }
}

/// A lease's length as PostgreSQL's interval, from milliseconds (`$N` a float8).
fn lease_secs(ms: u64) -> f64 {
    ms as f64 / 1000.0
}

impl Postgres {
    pub async fn open(url: &str, node: &NodeId) -> Result<Postgres, StoreError> {
        let config: tokio_postgres::Config = url.parse()?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .build()
            .map_err(pool_err)?;
        let mut c = pool.get().await.map_err(pool_err)?;
        let tx = c.transaction().await?;
        tx.query("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS battlemat_migrations (version INT PRIMARY KEY, \
             applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
        )
        .await?;
        let have: i32 = tx
            .query_one(
                "SELECT COALESCE(MAX(version), 0) FROM battlemat_migrations",
                &[],
            )
            .await?
            .get(0);
        for (i, m) in MIGRATIONS.iter().enumerate().skip(have.max(0) as usize) {
            tx.batch_execute(m).await?;
            tx.execute(
                "INSERT INTO battlemat_migrations (version) VALUES ($1)",
                &[&(i as i32 + 1)],
            )
            .await?;
        }
        let schema: String = tx.query_one("SELECT current_schema()", &[]).await?.get(0);
        tx.commit().await?;
        let channel = format!(
            "battlemat_{}",
            schema
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect::<String>()
                .to_ascii_lowercase()
        );
        let (announce, steps) = mpsc::unbounded_channel();
        tokio::spawn(announcer(pool.clone(), channel.clone(), steps));
        Ok(Postgres {
            pool,
            config,
            node: node.clone(),
            channel,
            announce,
        })
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(pool_err)
    }

    pub async fn insert_game(&self, g: &GameRow, seats: &[SeatRow]) -> Result<(), StoreError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        tx.execute(
            "INSERT INTO games (id, ruleset, version, scenario, setup, dice, commitment, \
             server_seed, public, created_at, seq, over, options, client, touched) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, FALSE, $11, $12, $10)",
            &[
                &g.id,
                &g.ruleset,
                &g.version,
                &g.scenario,
                &g.setup,
                &g.dice,
                &g.commitment,
                &g.server_seed,
                &g.public,
                &g.created_at,
                &g.options,
                &g.client,
            ],
        )
        .await?;
        for s in seats {
            tx.execute(
                "INSERT INTO seats (game, seat, player, token_hash, seed) VALUES ($1, $2, $3, $4, $5)",
                &[&g.id, &i16::from(s.seat), &s.player, &s.token_hash, &s.seed],
            )
            .await?;
        }
        tx.execute(
            "INSERT INTO leases (game, node, addr, expires_at) \
             VALUES ($1, $2, $3, now() + $4::float8 * interval '1 second')",
            &[
                &g.id,
                &self.node.id,
                &self.node.url,
                &lease_secs(self.node.lease_ms),
            ],
        )
        .await?;
        tx.execute("SELECT pg_notify($1, $2 || ':0')", &[&self.channel, &g.id])
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// One statement: the seq moves on only where it is the one before the run and this node
    /// holds the lease; the run goes in only if it did; the notification only if both did.
    pub async fn append_steps(
        &self,
        game: &str,
        seq: i64,
        steps: &[String],
        client_id: Option<&str>,
        over: bool,
    ) -> Result<(), StoreError> {
        let c = self.client().await?;
        // One statement: the game's seq moved from the one before the run to its last
        // (where this node holds the lease) and the run inserted (the client's id on its
        // first); announced once committed.
        let q = c
            .prepare_cached(
                "WITH g AS (UPDATE games SET seq = $2::bigint + cardinality($4::text[]) - 1, \
                   over = $3::boolean \
                   WHERE id = $1::text AND seq = $2::bigint - 1 AND EXISTS (SELECT 1 FROM leases l \
                   WHERE l.game = $1::text AND l.node = $6::text AND l.expires_at > now()) \
                   RETURNING id), \
                 s AS (INSERT INTO steps (game, seq, step, client_id) \
                   SELECT g.id, $2::bigint + t.i - 1, t.step, \
                     CASE WHEN t.i = 1 THEN $5::text END \
                   FROM g, unnest($4::text[]) WITH ORDINALITY AS t(step, i) RETURNING seq), \
                 last AS (SELECT max(seq) AS seq FROM s) \
                 SELECT last.seq FROM last WHERE last.seq IS NOT NULL",
            )
            .await?;
        let rows = c
            .query(&q, &[&game, &seq, &over, &steps, &client_id, &self.node.id])
            .await?;
        if let Some(row) = rows.first() {
            let last: i64 = row.get(0);
            let _ = self.announce.send(format!("{game}:{last}"));
            return Ok(());
        }
        let at: Option<i64> = c
            .query_opt("SELECT seq FROM games WHERE id = $1", &[&game])
            .await?
            .map(|r| r.get(0));
        match at {
            Some(at) if at + 1 != seq => Err(StoreError::Seq {
                game: game.to_string(),
                at,
                expected: seq - 1,
            }),
            Some(_) => Err(StoreError::Lease(game.to_string())),
            None => Err(StoreError::Other(format!("no game {game}"))),
        }
    }

    pub async fn games(&self, id: Option<&str>) -> Result<Vec<GameRow>, StoreError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "SELECT id, ruleset, version, scenario, setup, dice, commitment, server_seed, \
                 public, created_at, seq, over, options, rematch, client, touched FROM games \
                 WHERE $1::text IS NULL OR id = $1::text ORDER BY created_at, id",
                &[&id],
            )
            .await?;
        Ok(rows.iter().map(game_row).collect())
    }

    pub async fn seats(&self, game: &str) -> Result<Vec<SeatRow>, StoreError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "SELECT seat, player, token_hash, seed FROM seats WHERE game = $1 ORDER BY seat",
                &[&game],
            )
            .await?;
        rows.iter()
            .map(|r| {
                let seat: i16 = r.get(0);
                Ok(SeatRow {
                    seat: u8::try_from(seat)
                        .map_err(|_| StoreError::Other(format!("game {game}: seat {seat}")))?,
                    player: r.get(1),
                    token_hash: r.get(2),
                    seed: r.get(3),
                })
            })
            .collect()
    }

    pub async fn steps(&self, game: &str, after: i64) -> Result<Vec<StepRow>, StoreError> {
        let c = self.client().await?;
        let q = c
            .prepare_cached(
                "SELECT seq, step, client_id FROM steps WHERE game = $1 AND seq > $2 ORDER BY seq",
            )
            .await?;
        let rows = c.query(&q, &[&game, &after]).await?;
        Ok(rows
            .iter()
            .map(|r| StepRow {
                seq: r.get(0),
                step: r.get(1),
                client_id: r.get(2),
            })
            .collect())
    }

    /// Run `sql` (which changes game `$1`) and announce the game with its seq, in one
    /// transaction.
    async fn change(
        &self,
        game: &str,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<(), StoreError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        tx.execute(
            "SELECT pg_notify($1, id || ':' || seq::text) FROM games WHERE id = $2",
            &[&self.channel, &game],
        )
        .await?;
        tx.execute(sql, params).await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn update_seat(&self, game: &str, s: &SeatRow) -> Result<(), StoreError> {
        self.change(
            game,
            "UPDATE seats SET player = $3, token_hash = $4, seed = $5 WHERE game = $1 AND seat = $2",
            &[&game, &i16::from(s.seat), &s.player, &s.token_hash, &s.seed],
        )
        .await
    }

    /// The cluster's secret: `fresh` written if no node has written one yet (nodes
    /// starting at once all read the first one written), then whatever is there.
    pub async fn cluster_secret(&self, fresh: &str) -> Result<String, StoreError> {
        let c = self.client().await?;
        c.execute(
            "INSERT INTO cluster (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING",
            &[&fresh],
        )
        .await?;
        Ok(c.query_one("SELECT secret FROM cluster WHERE id = 1", &[])
            .await?
            .get(0))
    }

    pub async fn set_rematch(&self, game: &str, rematch: &str) -> Result<(), StoreError> {
        self.change(
            game,
            "UPDATE games SET rematch = $2 WHERE id = $1",
            &[&game, &rematch],
        )
        .await
    }

    pub async fn touch(&self, times: &[(String, i64)]) -> Result<(), StoreError> {
        let (ids, ts): (Vec<&str>, Vec<i64>) = times.iter().map(|(g, t)| (g.as_str(), *t)).unzip();
        let c = self.client().await?;
        c.execute(
            "UPDATE games SET touched = v.t FROM unnest($1::text[], $2::bigint[]) AS v(id, t) \
             WHERE games.id = v.id AND games.touched < v.t",
            &[&ids, &ts],
        )
        .await?;
        Ok(())
    }

    pub async fn delete_game(&self, game: &str) -> Result<(), StoreError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await?;
        tx.execute(
            "SELECT pg_notify($1, id || ':' || seq::text) FROM games WHERE id = $2",
            &[&self.channel, &game],
        )
        .await?;
        tx.execute("DELETE FROM steps WHERE game = $1", &[&game])
            .await?;
        tx.execute("DELETE FROM seats WHERE game = $1", &[&game])
            .await?;
        tx.execute("DELETE FROM games WHERE id = $1", &[&game])
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Take the lease if it is free, expired or already this node's.
    pub async fn take_lease(&self, game: &str) -> Result<LeaseTake, StoreError> {
        let c = self.client().await?;
        let taken = c
            .query_opt(
                "INSERT INTO leases (game, node, addr, expires_at) \
                 VALUES ($1, $2, $3, now() + $4::float8 * interval '1 second') \
                 ON CONFLICT (game) DO UPDATE SET node = EXCLUDED.node, addr = EXCLUDED.addr, \
                 expires_at = EXCLUDED.expires_at \
                 WHERE leases.node = EXCLUDED.node OR leases.expires_at < now() RETURNING node",
                &[
                    &game,
                    &self.node.id,
                    &self.node.url,
                    &lease_secs(self.node.lease_ms),
                ],
            )
            .await?;
        if taken.is_some() {
            return Ok(LeaseTake::Taken);
        }
        let r = c
            .query_one("SELECT node, addr FROM leases WHERE game = $1", &[&game])
            .await?;
        Ok(LeaseTake::Held {
            node: r.get(0),
            addr: r.get(1),
        })
    }

    /// Renew every lease this node holds: the games it still holds.
    pub async fn renew_leases(&self) -> Result<Vec<String>, StoreError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "UPDATE leases SET expires_at = now() + $2::float8 * interval '1 second' \
                 WHERE node = $1 RETURNING game",
                &[&self.node.id, &lease_secs(self.node.lease_ms)],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// A task that LISTENs on the schema's channel on a connection of its own, and
    /// reconnects when it is lost (telling the receiver, which then catches up). It ends
    /// when the receiver is dropped.
    ///
    /// Its connection is named (`application_name`) [`listener_name`] of this node, so an
    /// operator (or a test) finds it in `pg_stat_activity`.
    pub fn listen(&self) -> mpsc::UnboundedReceiver<Notification> {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut config = self.config.clone();
        config.application_name(listener_name(&self.node.id));
        let channel = self.channel.clone();
        tokio::spawn(async move {
            while !tx.is_closed() {
                if let Err(e) = listen_once(&config, &channel, &tx).await {
                    eprintln!("PostgreSQL listener: {e}; reconnecting");
                }
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            }
        });
        rx
    }
}

/// The `application_name` of the listener's connection of the node `node` (PostgreSQL
/// keeps 63 bytes of it; a node's id is its URL, short enough).
pub fn listener_name(node: &str) -> String {
    format!("battlemat listener {node}")
}

/// One connection's worth of listening: until it is lost (an error) or nobody listens.
async fn listen_once(
    config: &tokio_postgres::Config,
    channel: &str,
    out: &mpsc::UnboundedSender<Notification>,
) -> Result<(), StoreError> {
    let (client, mut conn) = config.connect(NoTls).await?;
    let (tx, mut rx) = mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        let mut messages = futures_util::stream::poll_fn(move |cx| conn.poll_message(cx));
        while let Some(m) = messages.next().await {
            match m {
                Ok(AsyncMessage::Notification(n)) => {
                    if tx.send(n.payload().to_string()).is_err() {
                        return;
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    eprintln!("PostgreSQL listener: {e}");
                    return;
                }
            }
        }
    });
    client.batch_execute(&format!("LISTEN {channel}")).await?;
    // Whatever changed before the LISTEN took effect is caught up now.
    if out.send(Notification::Reconnected).is_err() {
        driver.abort();
        return Ok(());
    }
    while let Some(payload) = rx.recv().await {
        let parsed = payload
            .rsplit_once(':')
            .and_then(|(g, s)| Some((g.to_string(), s.parse().ok()?)));
        if let Some((game, seq)) = parsed
            && out.send(Notification::Changed(game, seq)).is_err()
        {
            break;
        }
    }
    driver.abort();
    drop(client);
    Err(StoreError::Other("the connection was lost".into()))
}
