//! Limits on what a client may ask, and refusals always in JSON.
//!
//! Rates are token buckets: a key (a seat's token, or a client's address) holds up to
//! `burst` requests and regains `per_sec` a second; a request that finds its bucket empty is
//! refused with 429 and `Retry-After` (whole seconds until one is back), and changes
//! nothing. Buckets are kept in milli-requests so the refill is integer arithmetic. Full
//! buckets are forgotten by the sweep, so the table holds only recent clients.
//!
//! Axum answers some refusals itself (a body over the limit, a path or query it cannot
//! read, a method an endpoint does not take) in plain text; [`json_errors`] turns every
//! such error into `{"error": …}`, so a client reads every refusal the same way.

use crate::{ApiError, App};
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::{StatusCode, header, request::Parts};
use axum::response::{IntoResponse, Response};
use hmac::{Hmac, KeyInit, Mac};
use serde_json::json;
use sha2::Sha256;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A rate: up to `burst` at once, `per_sec` more each second. A burst of 0 is no limit.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    pub burst: u32,
    pub per_sec: u32,
}

#[derive(Default)]
pub struct Buckets {
    /// Per key: milli-requests left, and when that was counted.
    map: Mutex<HashMap<String, (u64, Instant)>>,
}

impl Buckets {
    /// Take one request from `key`'s bucket, or say how long to wait.
    pub fn take(&self, key: &str, rate: &Rate, who: &str) -> Result<(), ApiError> {
        if rate.burst == 0 {
            return Ok(());
        }
        let now = Instant::now();
        let cap = u64::from(rate.burst) * 1000;
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        let e = map.entry(key.to_string()).or_insert((cap, now));
        let ms = now.duration_since(e.1).as_millis() as u64;
        // per_sec requests a second = per_sec milli-requests a millisecond.
        e.0 =
            e.0.saturating_add(ms.saturating_mul(u64::from(rate.per_sec)))
                .min(cap);
        e.1 = now;
        if e.0 >= 1000 {
            e.0 -= 1000;
            return Ok(());
        }
        let wait_ms = (1000 - e.0).div_ceil(u64::from(rate.per_sec.max(1)));
        let secs = wait_ms.div_ceil(1000).max(1);
        Err(ApiError {
            retry_after: Some(secs),
            ..ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many requests from {who}: at most {} at once and {} a second; try again in {secs} s",
                    rate.burst, rate.per_sec
                ),
            )
        })
    }

    /// Forget the buckets that are full again (nothing to remember about them).
    pub fn forget_full(&self) {
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        map.retain(|_, (_, at)| now.duration_since(*at).as_secs() < 600);
    }
}

/// The client's address: the TCP peer's ("local" when there is none, as in tests that call
/// the router directly), or, on a request another node forwarded, the address that node
/// signed in [`CLIENT_HEADER`] (see [`signed_client`]). A header that does not check is
/// ignored: the peer's address counts.
pub struct Client(pub String);

/// The header a forwarding node names the client's address in: `ADDR;SECS;MAC`, `SECS` the
/// time it was signed (Unix seconds) and `MAC` the hex HMAC-SHA256 of `ADDR;SECS` keyed by
/// the cluster's secret, which every node reads from the database and no client knows.
pub const CLIENT_HEADER: &str = "x-battlemat-client";

/// How far (seconds) a signed address's time may be from the receiver's clock.
const SIGNED_FOR: i64 = 60;

fn client_mac(secret: &str, signed: &str) -> Hmac<Sha256> {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret.as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(b"battlemat client address\n");
    mac.update(signed.as_bytes());
    mac
}

/// The [`CLIENT_HEADER`] value naming `addr`, signed with the cluster's secret at `now`.
pub fn signed_client(secret: &str, addr: &str, now: i64) -> String {
    let signed = format!("{addr};{now}");
    let tag = crate::dice::hex(&client_mac(secret, &signed).finalize().into_bytes());
    format!("{signed};{tag}")
}

/// The address a [`CLIENT_HEADER`] value names, if its MAC checks (compared in constant
/// time) and it was signed within a minute of `now`.
pub fn verified_client(secret: &str, value: &str, now: i64) -> Option<String> {
    let (signed, tag) = value.rsplit_once(';')?;
    let (addr, secs) = signed.rsplit_once(';')?;
    let secs: i64 = secs.parse().ok()?;
    if (now - secs).abs() > SIGNED_FOR || addr.is_empty() || tag.len() != 64 {
        return None;
    }
    let tag: Vec<u8> = (0..tag.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(tag.get(i..i + 2)?, 16).ok())
        .collect::<Option<_>>()?;
    client_mac(secret, signed).verify_slice(&tag).ok()?;
    Some(addr.to_string())
}

/// The TCP peer's address of a request ("local" without one).
pub(crate) fn peer(parts_ext: &axum::http::Extensions) -> String {
    parts_ext
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map_or_else(|| "local".to_string(), |c| c.0.ip().to_string())
}

impl FromRequestParts<Arc<App>> for Client {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(
        parts: &mut Parts,
        app: &Arc<App>,
    ) -> Result<Client, Self::Rejection> {
        let forwarded = parts
            .headers
            .get(CLIENT_HEADER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| verified_client(&app.cluster_secret, v, crate::now_secs()));
        Ok(Client(forwarded.unwrap_or_else(|| peer(&parts.extensions))))
    }
}

/// Every error answered in JSON: axum's own plain-text refusals become `{"error": …}`.
pub async fn json_errors(res: Response) -> Response {
    let status = res.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return res;
    }
    let retry = res.headers().get(header::RETRY_AFTER).cloned();
    let text = match axum::body::to_bytes(res.into_body(), 16 * 1024).await {
        Ok(b) => String::from_utf8_lossy(&b).trim().to_string(),
        Err(_) => String::new(),
    };
    let error = match status {
        StatusCode::PAYLOAD_TOO_LARGE => format!(
            "the request body is larger than the {} KiB the API reads",
            crate::MAX_BODY / 1024
        ),
        StatusCode::METHOD_NOT_ALLOWED => {
            "this endpoint does not take that method (see /api/openapi.json)".to_string()
        }
        _ if text.is_empty() => status
            .canonical_reason()
            .unwrap_or("refused")
            .to_lowercase(),
        _ => text,
    };
    let mut out = (status, axum::Json(json!({ "error": error }))).into_response();
    if let Some(r) = retry {
        out.headers_mut().insert(header::RETRY_AFTER, r);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signed_client_address_checks_only_with_the_secret_and_in_time() {
        let v = signed_client("s3cret", "203.0.113.7", 1_000);
        assert_eq!(
            verified_client("s3cret", &v, 1_000).as_deref(),
            Some("203.0.113.7")
        );
        assert_eq!(
            verified_client("s3cret", &v, 1_059).as_deref(),
            Some("203.0.113.7")
        );
        // Another secret, too late, or a changed address: not trusted.
        assert_eq!(verified_client("other", &v, 1_000), None);
        assert_eq!(verified_client("s3cret", &v, 1_061), None);
        let (_, rest) = v.split_once(';').unwrap();
        assert_eq!(
            verified_client("s3cret", &format!("10.0.0.1;{rest}"), 1_000),
            None
        );
        // IPv6 addresses hold colons, not semicolons: they sign the same way.
        let v6 = signed_client("s3cret", "::1", 5);
        assert_eq!(verified_client("s3cret", &v6, 5).as_deref(), Some("::1"));
        // Malformed values are ignored, never a panic.
        for bad in [
            "",
            ";",
            "a;b;c",
            "1.2.3.4;5;zz",
            "1.2.3.4;x;00",
            ";5;",
            "é;5;é",
        ] {
            assert_eq!(verified_client("s3cret", bad, 5), None, "{bad:?}");
        }
    }
}
