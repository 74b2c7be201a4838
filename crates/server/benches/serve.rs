//! The server under load: N concurrent games played by scripted clients over loopback HTTP
//! (keep-alive connections), on SQLite or PostgreSQL. Reports durable actions a second
//! (`POST …/actions` answered 200, which the server sends only after the step is
//! committed), p50/p99 latency of those POSTs, and the memory each idle game costs (the
//! process's RSS before and after creating the games).
//!
//! ```sh
//! cargo bench -p battlemat-server --bench serve -- --db sqlite --games 1000 --secs 20
//! cargo bench -p battlemat-server --bench serve -- --db postgres://postgres@127.0.0.1:5432/test
//! cargo bench -p battlemat-server --bench serve -- --db sqlite --games 1000 --rate 500
//! ```
//!
//! Closed loop (the default): each client sends its next action as soon as the last is
//! answered, so a slow server is simply sent less and its queueing never shows in the
//! latencies (coordinated omission). Open loop (`--rate R`): the clients together are due
//! to act R times a second, each on a fixed schedule (game `i` at `start + i/R + k·games/R`),
//! and an action's latency is counted from the time it was **due**, not from when it was
//! sent, so an action held up behind a slow one counts the wait. (Each action is a `GET
//! …/legal` and then the `POST`; the latency runs to the POST's answer.)
//!
//! The server and the clients share the process (and the machine's cores): the figures are
//! for both together. A PostgreSQL run works in a fresh schema, dropped at the end. The
//! script names its game only as data, checked against the server's own game list.

use axum::body::Body;
use battlemat_server::{App, Config, limits::Rate, router};
use http_body_util::BodyExt;
use hyper_util::client::legacy::{Client, connect::HttpConnector};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

// The allocator `battlemat serve` runs with (the binary sets the same), so the figures are
// the server's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The game the scripted clients play (data: checked against `GET /api/rulesets`).
const GAME: &str = "swtb";

struct Args {
    db: String,
    games: usize,
    secs: u64,
    threads: usize,
    /// Open loop: actions due a second, over every client.
    rate: Option<f64>,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        db: "sqlite".into(),
        games: 1000,
        secs: 20,
        threads: 2,
        rate: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--db" => a.db = value()?,
            "--games" => a.games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--secs" => a.secs = value()?.parse().map_err(|e| format!("--secs: {e}"))?,
            "--threads" => a.threads = value()?.parse().map_err(|e| format!("--threads: {e}"))?,
            "--rate" => {
                let r: f64 = value()?.parse().map_err(|e| format!("--rate: {e}"))?;
                if !(r.is_finite() && r > 0.0) {
                    return Err(format!("--rate {r}: actions a second, above 0"));
                }
                a.rate = Some(r);
            }
            "--bench" => {}
            other => {
                return Err(format!(
                    "unknown flag {other} (--db, --games, --secs, --threads, --rate)"
                ));
            }
        }
    }
    Ok(a)
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

type Http = Client<HttpConnector, Body>;

/// One request: the status and the body as JSON.
async fn req(
    http: &Http,
    base: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Result<(u16, Value), String> {
    let mut r = axum::http::Request::builder()
        .method(method)
        .uri(format!("{base}{path}"))
        .header("content-type", "application/json");
    if let Some(t) = token {
        r = r.header("authorization", format!("Bearer {t}"));
    }
    let r = r
        .body(body.map_or(Body::empty(), |b| Body::from(b.to_string())))
        .map_err(|e| e.to_string())?;
    let res = http.request(r).await.map_err(|e| e.to_string())?;
    let status = res.status().as_u16();
    let bytes = res
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    Ok((
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    ))
}

/// A game the script created: its id and its two seats' tokens.
async fn create(http: &Http, base: &str) -> Result<(String, Vec<String>), String> {
    let (st, c) = req(
        http,
        base,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": GAME, "seats": ["human", "human"]})),
    )
    .await?;
    if st != 201 {
        return Err(format!("create: {st} {c}"));
    }
    let tokens = c["seats"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["token"].as_str().map(str::to_string))
        .collect();
    Ok((c["id"].as_str().unwrap_or_default().to_string(), tokens))
}

/// An action's latency (µs) and its parts: from when it was due until the client began
/// (the runtime's lag: open loop only), finding the action (`GET …/legal`, for both seats
/// when the first is not the one to act, and a new game when the last one ended), and the
/// `POST` until its answer.
#[derive(Clone, Copy)]
struct Parts {
    total: u32,
    lag: u32,
    find: u32,
    post: u32,
}

fn micros(d: Duration) -> u32 {
    d.as_micros().min(u128::from(u32::MAX)) as u32
}

struct Tally {
    actions: AtomicU64,
    errors: AtomicU64,
    /// Per durable action, microseconds: its latency and the three parts of it.
    latencies: std::sync::Mutex<Vec<Parts>>,
    counting: AtomicBool,
}

/// One scripted client: plays its game (the first legal action of whichever seat decides),
/// and a new one when it ends, until told to stop.
/// `schedule`: open loop, this client's first due time and the time between its actions.
async fn client(
    http: Http,
    base: String,
    mut game: (String, Vec<String>),
    tally: Arc<Tally>,
    stop: Arc<AtomicBool>,
    schedule: Option<(tokio::time::Instant, Duration)>,
) {
    let mut seat = 0usize;
    let mut misses = 0;
    let mut next_due = schedule.map(|(first, _)| first);
    // The due time of the action being made (kept while the client finds whose turn it is).
    let mut due: Option<Instant> = None;
    // When the client began on the action it is making.
    let mut began: Option<Instant> = None;
    while !stop.load(Ordering::Relaxed) {
        if due.is_none()
            && let (Some(at), Some((_, every))) = (next_due, schedule)
        {
            tokio::time::sleep_until(at).await;
            due = Some(at.into_std());
            next_due = Some(at + every);
        }
        let (id, tokens) = &game;
        let began_at = *began.get_or_insert_with(Instant::now);
        let Ok((_, legal)) = req(
            &http,
            &base,
            "GET",
            &format!("/api/games/{id}/legal"),
            Some(&tokens[seat]),
            None,
        )
        .await
        else {
            tally.errors.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        let Some(action) = legal["actions"].get(0).map(|a| a["text"].clone()) else {
            seat = 1 - seat;
            misses += 1;
            if misses > 2 {
                // Neither seat decides: the game is over. Another.
                match create(&http, &base).await {
                    Ok(g) => game = g,
                    Err(_) => {
                        tally.errors.fetch_add(1, Ordering::Relaxed);
                    }
                }
                misses = 0;
            }
            continue;
        };
        misses = 0;
        // Open loop: from when it was due; closed: from when it is sent.
        let t = due.take().unwrap_or(began_at);
        began = None;
        let posted = Instant::now();
        let body = json!({"action": action, "seq": legal["seq"]});
        match req(
            &http,
            &base,
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(&tokens[seat]),
            Some(body),
        )
        .await
        {
            Ok((200, _)) => {
                if tally.counting.load(Ordering::Relaxed) {
                    tally.actions.fetch_add(1, Ordering::Relaxed);
                    let parts = Parts {
                        total: micros(t.elapsed()),
                        lag: micros(began_at.saturating_duration_since(t)),
                        find: micros(posted - began_at),
                        post: micros(posted.elapsed()),
                    };
                    tally.latencies.lock().expect("latencies").push(parts);
                }
            }
            _ => {
                tally.errors.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

async fn pg_exec(url: &str, sql: &str) -> Result<(), String> {
    let (c, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .map_err(|e| format!("{url}: {e}"))?;
    tokio::spawn(conn);
    c.batch_execute(sql).await.map_err(|e| e.to_string())
}

async fn run(a: Args) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let schema = format!("bench_{}", std::process::id());
    let db = if a.db == "sqlite" {
        format!("sqlite:{}", dir.path().join("bench.db").display())
    } else {
        pg_exec(&a.db, &format!("CREATE SCHEMA {schema}")).await?;
        let sep = if a.db.contains('?') { '&' } else { '?' };
        format!("{}{sep}options=-csearch_path%3D{schema}", a.db)
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let base = format!(
        "http://{}",
        listener.local_addr().map_err(|e| e.to_string())?
    );
    let mut config = Config::new(&base);
    let off = Rate {
        burst: 0,
        per_sec: 0,
    };
    config.token_rate = off;
    config.ip_rate = off;
    config.max_open_games = usize::MAX;
    let app: Arc<App> = App::open_with(&db, config).await?;
    tokio::spawn(async move {
        axum::serve(
            listener,
            router(app).into_make_service_with_connect_info::<std::net::SocketAddr>(),
        )
        .await
    });
    let http: Http = Client::builder(hyper_util::rt::TokioExecutor::new())
        .pool_max_idle_per_host(a.games)
        .build_http();
    let (_, games) = req(&http, &base, "GET", "/api/rulesets", None, None).await?;
    if !games
        .as_array()
        .into_iter()
        .flatten()
        .any(|g| g["id"] == GAME)
    {
        return Err(format!("the server has no game {GAME}"));
    }
    let rss0 = rss_kib();
    let mut made = Vec::new();
    for _ in 0..a.games {
        made.push(create(&http, &base).await?);
    }
    let rss1 = rss_kib();
    let tally = Arc::new(Tally {
        actions: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        latencies: std::sync::Mutex::new(Vec::new()),
        counting: AtomicBool::new(false),
    });
    let stop = Arc::new(AtomicBool::new(false));
    let start = tokio::time::Instant::now();
    let n_games = made.len();
    let clients: Vec<_> = made
        .into_iter()
        .enumerate()
        .map(|(i, g)| {
            // Game i is due at start + i/R, then every games/R seconds.
            let schedule = a.rate.map(|r| {
                (
                    start + Duration::from_secs_f64(i as f64 / r),
                    Duration::from_secs_f64(n_games as f64 / r),
                )
            });
            tokio::spawn(client(
                http.clone(),
                base.clone(),
                g,
                tally.clone(),
                stop.clone(),
                schedule,
            ))
        })
        .collect();
    // Warm up (every connection open), then count.
    tokio::time::sleep(Duration::from_secs(2)).await;
    tally.counting.store(true, Ordering::Relaxed);
    let t = Instant::now();
    tokio::time::sleep(Duration::from_secs(a.secs)).await;
    tally.counting.store(false, Ordering::Relaxed);
    let elapsed = t.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    for c in clients {
        let _ = c.await;
    }
    let parts = std::mem::take(&mut *tally.latencies.lock().expect("latencies"));
    let sorted = |f: fn(&Parts) -> u32| {
        let mut v: Vec<u32> = parts.iter().map(f).collect();
        v.sort_unstable();
        v
    };
    let at = |v: &[u32], p: f64| {
        v.get(((v.len() as f64 * p) as usize).min(v.len().saturating_sub(1)))
            .map_or(0.0, |us| f64::from(*us) / 1000.0)
    };
    let l = sorted(|p| p.total);
    let pct = |p: f64| at(&l, p);
    let (lag, find, post) = (sorted(|p| p.lag), sorted(|p| p.find), sorted(|p| p.post));
    let n = tally.actions.load(Ordering::Relaxed);
    let mode = a.rate.map_or("closed loop".to_string(), |r| {
        format!("open loop at {r} actions/s due")
    });
    println!(
        "{store}, {mode}: {games} games, {secs:.0} s: {n} durable actions, {rate:.0} actions/s, p50 {p50:.1} ms, p99 {p99:.1} ms, {errors} errors; idle game {mem:.1} KiB (RSS {rss0} -> {rss1} KiB)",
        store = if a.db == "sqlite" {
            "SQLite"
        } else {
            "PostgreSQL"
        },
        games = a.games,
        secs = elapsed,
        rate = n as f64 / elapsed,
        p50 = pct(0.50),
        p99 = pct(0.99),
        errors = tally.errors.load(Ordering::Relaxed),
        mem = (rss1.saturating_sub(rss0)) as f64 / a.games as f64,
    );
    println!(
        "  parts, p50/p99: lag {:.1}/{:.1} ms (open loop: due to begun), finding the action {:.1}/{:.1} ms, POST {:.1}/{:.1} ms",
        at(&lag, 0.5),
        at(&lag, 0.99),
        at(&find, 0.5),
        at(&find, 0.99),
        at(&post, 0.5),
        at(&post, 0.99),
    );
    if a.db != "sqlite" {
        pg_exec(&a.db, &format!("DROP SCHEMA {schema} CASCADE")).await?;
    }
    Ok(())
}

fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("bench serve: {e}");
            std::process::exit(2);
        }
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(a.threads.max(1))
        .enable_all()
        .build()
        .expect("a runtime");
    if let Err(e) = rt.block_on(run(a)) {
        eprintln!("bench serve: {e}");
        std::process::exit(1);
    }
}
