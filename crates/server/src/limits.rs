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

use crate::ApiError;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::{StatusCode, header, request::Parts};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::collections::HashMap;
use std::sync::Mutex;
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

/// The client's address (from the connection; "local" when there is none, as in tests that
/// call the router directly).
pub struct Client(pub String);

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Client, Self::Rejection> {
        Ok(Client(
            parts
                .extensions
                .get::<ConnectInfo<std::net::SocketAddr>>()
                .map_or_else(|| "local".to_string(), |c| c.0.ip().to_string()),
        ))
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
