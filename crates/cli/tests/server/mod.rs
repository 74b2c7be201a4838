//! What the tests of `battlemat serve` as a process share: starting it (on a SQLite file,
//! or on a PostgreSQL schema of the test's own when `BATTLEMAT_TEST_PG` names a server),
//! and plain HTTP/1.1 requests.
#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A database of one test's own: a SQLite file, or a fresh PostgreSQL schema (dropped at
/// the end).
pub struct TestDb {
    pub url: String,
    _dir: tempfile::TempDir,
    pg: Option<(String, String)>,
}

/// Run `sql` on the PostgreSQL server at `base` and give each row's first column as text
/// (NULL as "").
fn psql(base: &str, sql: &str) -> Vec<String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let (c, conn) = tokio_postgres::connect(base, tokio_postgres::NoTls)
            .await
            .unwrap_or_else(|e| panic!("BATTLEMAT_TEST_PG={base}: {e}"));
        tokio::spawn(conn);
        c.simple_query(sql)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
            .into_iter()
            .filter_map(|m| match m {
                tokio_postgres::SimpleQueryMessage::Row(r) => {
                    Some(r.get(0).unwrap_or_default().to_string())
                }
                _ => None,
            })
            .collect()
    })
}

impl TestDb {
    pub fn new() -> TestDb {
        let dir = tempfile::TempDir::new().unwrap();
        match std::env::var("BATTLEMAT_TEST_PG")
            .ok()
            .filter(|u| !u.is_empty())
        {
            None => TestDb {
                url: format!("sqlite:{}", dir.path().join("games.db").display()),
                _dir: dir,
                pg: None,
            },
            Some(base) => {
                let schema = format!(
                    "t_cli_{}_{}",
                    std::process::id(),
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .unwrap()
                        .as_nanos()
                );
                psql(&base, &format!("CREATE SCHEMA {schema}"));
                let sep = if base.contains('?') { '&' } else { '?' };
                TestDb {
                    url: format!("{base}{sep}options=-csearch_path%3D{schema}"),
                    _dir: dir,
                    pg: Some((base, schema)),
                }
            }
        }
    }

    pub fn is_postgres(&self) -> bool {
        self.pg.is_some()
    }

    pub fn dir(&self) -> &std::path::Path {
        self._dir.path()
    }
}

impl TestDb {
    /// On PostgreSQL: run `sql` (on the server, outside the test's schema) and give each
    /// row's first column as text (NULL as "").
    pub fn query(&self, sql: &str) -> Vec<String> {
        let (base, _) = self.pg.as_ref().expect("a PostgreSQL test database");
        psql(base, sql)
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some((base, schema)) = self.pg.take() {
            psql(&base, &format!("DROP SCHEMA {schema} CASCADE"));
        }
    }
}

/// A server process, killed (SIGKILL) when dropped, so a failing test leaves none behind.
pub struct Server(Child);

impl Server {
    /// Kill it with SIGKILL (as a crash would) and wait for it to go.
    pub fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `battlemat serve` on `db` with these flags too: the process and the address it
/// printed.
pub fn start(db: &str, flags: &[&str]) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_battlemat"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    out.read_line(&mut line).unwrap();
    // Keep reading what it prints: a closed pipe would end it at its next line (SIGPIPE).
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (Server(child), addr)
}

/// One HTTP/1.1 request (Connection: close): the status and the JSON body.
pub fn http(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> std::io::Result<(u16, Value)> {
    let s = TcpStream::connect(addr)?;
    request(s, addr, method, path, token, body, &[])
}

/// A connection to `addr` from the loopback address `from` (say `127.0.0.2`: every
/// 127.x.y.z is this machine), so a server sees a client of that address.
pub fn connect_from(from: &str, addr: &str) -> std::io::Result<TcpStream> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let (from, addr): (std::net::IpAddr, std::net::SocketAddr) = (
        from.parse().map_err(std::io::Error::other)?,
        addr.parse().map_err(std::io::Error::other)?,
    );
    let s = rt.block_on(async {
        let sock = tokio::net::TcpSocket::new_v4()?;
        sock.bind(std::net::SocketAddr::new(from, 0))?;
        sock.connect(addr).await
    })?;
    let s = s.into_std()?;
    s.set_nonblocking(false)?;
    Ok(s)
}

/// One HTTP/1.1 request on the connection `s` to `addr`, with these extra headers: the
/// status and the JSON body.
pub fn request(
    mut s: TcpStream,
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
    headers: &[(&str, &str)],
) -> std::io::Result<(u16, Value)> {
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut extra = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    for (k, v) in headers {
        extra.push_str(&format!("{k}: {v}\r\n"));
    }
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut out = String::new();
    s.read_to_string(&mut out)?;
    let status = out
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no status in {out:?}")))?;
    let json = out
        .split("\r\n\r\n")
        .nth(1)
        .and_then(|b| serde_json::from_str(b).ok())
        .unwrap_or(Value::Null);
    Ok((status, json))
}

/// Create a two-human game of SWTB's outpost through
/// `addr`: its id and the seats' tokens.
pub fn create_two_human_game(addr: &str) -> (String, Vec<String>) {
    let body =
        serde_json::json!({"game": "swtb", "scenario": "outpost", "seats": ["human", "human"]});
    let (st, created) = http(addr, "POST", "/api/games", None, Some(&body)).unwrap();
    assert_eq!(st, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let tokens = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_string())
        .collect();
    (id, tokens)
}
