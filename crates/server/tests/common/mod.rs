//! What the server's tests share: a request through the router (optionally from a client
//! address), a clock the test moves, and reading a game's seats.
#![allow(dead_code)]

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use battlemat_server::{App, Config, router};
use http_body_util::BodyExt;
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use tower::ServiceExt;

/// A request: the status, the headers and the body read as JSON (null if it is not).
pub async fn send(
    app: &Arc<App>,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
    from: Option<&str>,
) -> (StatusCode, axum::http::HeaderMap, Value, String) {
    let mut req = Request::builder().method(method).uri(path);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    if let Some(ip) = from {
        let addr: std::net::SocketAddr = format!("{ip}:4000").parse().unwrap();
        req = req.extension(ConnectInfo(addr));
    }
    let req = req
        .header("content-type", "application/json")
        .body(body.map_or(Body::empty(), |b| Body::from(b.to_string())))
        .unwrap();
    let res = router(app.clone()).oneshot(req).await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, headers, v, text)
}

pub async fn call(
    app: &Arc<App>,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let (s, _, v, _) = send(app, method, path, token, body, None).await;
    (s, v)
}

/// A clock the test sets (seconds).
#[derive(Clone)]
pub struct TestClock(pub Arc<AtomicI64>);

impl TestClock {
    pub fn new() -> TestClock {
        TestClock(Arc::new(AtomicI64::new(1_000_000)))
    }
    pub fn advance(&self, secs: i64) {
        self.0.fetch_add(secs, Ordering::SeqCst);
    }
    pub fn config(&self) -> Config {
        let c = self.0.clone();
        let mut config = Config::new("http://test");
        config.clock = Arc::new(move || c.load(Ordering::SeqCst));
        config
    }
}

pub fn tokens(created: &Value) -> Vec<Option<String>> {
    created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().map(str::to_string))
        .collect()
}

/// The deciding seat and the game's seq, as a spectator sees them.
pub async fn who(app: &Arc<App>, id: &str) -> (Option<u64>, i64) {
    let (_, g) = call(app, "GET", &format!("/api/games/{id}"), None, None).await;
    (
        g["to_act"]["decide"]["seat"].as_u64(),
        g["seq"].as_i64().unwrap(),
    )
}

/// Wait (up to 10 s) until `f` holds of the game as a spectator sees it.
pub async fn until(app: &Arc<App>, id: &str, f: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..200 {
        let (_, g) = call(app, "GET", &format!("/api/games/{id}"), None, None).await;
        if f(&g) {
            return g;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the game never got there");
}

/// The PostgreSQL the tests use when `BATTLEMAT_TEST_PG` names one
/// (`postgres://postgres@127.0.0.1:5432/test`); otherwise they use SQLite files.
pub fn postgres_url() -> Option<String> {
    std::env::var("BATTLEMAT_TEST_PG")
        .ok()
        .filter(|u| !u.is_empty())
}

/// A database of one test's own: a SQLite file in a temporary folder, or, with
/// `BATTLEMAT_TEST_PG`, a fresh schema in that PostgreSQL (dropped at the end), so tests
/// run in parallel and leave nothing behind. The same test body runs on either store.
pub struct TestDb {
    /// What `--db` would be given.
    pub url: String,
    _dir: Option<tempfile::TempDir>,
    /// PostgreSQL: the server's URL and the schema made for this test.
    schema: Option<(String, String)>,
}

async fn pg(url: &str) -> tokio_postgres::Client {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap_or_else(|e| panic!("BATTLEMAT_TEST_PG={url}: {e}"));
    tokio::spawn(conn);
    client
}

impl TestDb {
    pub async fn new() -> TestDb {
        match postgres_url() {
            None => {
                let dir = tempfile::tempdir().unwrap();
                let url = format!("sqlite:{}", dir.path().join("g.db").display());
                TestDb {
                    url,
                    _dir: Some(dir),
                    schema: None,
                }
            }
            Some(base) => {
                let schema = format!("t_{}", battlemat_server::dice::random_hex(8).unwrap());
                pg(&base)
                    .await
                    .batch_execute(&format!("CREATE SCHEMA {schema}"))
                    .await
                    .unwrap();
                let sep = if base.contains('?') { '&' } else { '?' };
                TestDb {
                    url: format!("{base}{sep}options=-csearch_path%3D{schema}"),
                    _dir: None,
                    schema: Some((base, schema)),
                }
            }
        }
    }

    pub async fn open(&self, config: Config) -> Arc<App> {
        App::open_with(&self.url, config).await.unwrap()
    }

    pub async fn app(&self) -> Arc<App> {
        self.open(Config::new("http://test")).await
    }

    /// The server seed of a game as the database holds it (the test reads it itself).
    pub async fn server_seed(&self, id: &str) -> String {
        match &self.schema {
            None => {
                let conn =
                    rusqlite::Connection::open(self.url.trim_start_matches("sqlite:")).unwrap();
                conn.query_row("SELECT server_seed FROM games WHERE id = ?1", [id], |r| {
                    r.get(0)
                })
                .unwrap()
            }
            Some(_) => pg(&self.url)
                .await
                .query_one("SELECT server_seed FROM games WHERE id = $1", &[&id])
                .await
                .unwrap()
                .get(0),
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some((base, schema)) = self.schema.take() {
            // A runtime of its own: a test's may be ending.
            let _ = std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                rt.block_on(async {
                    let c = pg(&base).await;
                    c.batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
                        .await
                        .unwrap();
                });
            })
            .join();
        }
    }
}
