//! One span per request, with a request id, and one log line when it is answered. The id is
//! the caller's `X-Request-Id` when it is a plain token (a proxy's), a new random one
//! otherwise; it is sent back in `X-Request-Id`, and everything logged while the request is
//! served — its database work, and a websocket's whole session — carries it.
//!
//! The access log line (`answered`, with the status and milliseconds) is at `debug` level;
//! answers of `500` and above are at `warn`.
//!
//! Only the method, the path (never the query string, which may hold an invitation secret)
//! and the status are logged: no header, cookie, token or body is, ever.

use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use std::time::Instant;
use tracing::Instrument;

/// The request id header.
pub const HEADER: &str = "x-request-id";

/// The request id of the request being served (its span's), for code that starts work
/// outliving the request (a websocket session).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestId(pub String);

fn acceptable(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Middleware: the request's span and its closing log line.
pub async fn track(mut req: Request, next: Next) -> Response {
    let id = req
        .headers()
        .get(HEADER)
        .and_then(|v| v.to_str().ok())
        .filter(|v| acceptable(v))
        .map_or_else(|| crate::secret::random_string(12), str::to_string);
    req.extensions_mut().insert(RequestId(id.clone()));
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let span = tracing::info_span!("request", request_id = %id, method = %method, path = %path);
    let start = Instant::now();
    let mut resp = next.run(req).instrument(span.clone()).await;
    let status = resp.status().as_u16();
    // An access log at `debug` (RUST_LOG=reversi_server=debug turns it on); failures of the
    // server's own at `warn`, always.
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    span.in_scope(|| {
        if status >= 500 {
            tracing::warn!(status, ms, "answered");
        } else {
            tracing::debug!(status, ms, "answered");
        }
    });
    if let Ok(v) = HeaderValue::from_str(&id) {
        resp.headers_mut().insert(HEADER, v);
    }
    resp
}
