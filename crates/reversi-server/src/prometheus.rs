//! Prometheus metrics at `GET /metrics`, for the operator only: the route answers `404` unless
//! the server was given a metrics token (`--metrics-token`), and then `401` to a scrape without
//! `Authorization: Bearer TOKEN`. Without a token no recorder is installed and every count
//! below is a no-op, so a server that does not export metrics pays nothing for them.
//!
//! What is counted (all names start with `reversi_`):
//! - `http_requests_total{route,method,status}` and `http_request_duration_seconds{route}`;
//! - `websocket_connections` (open now);
//! - `games_in_progress{mode}` and `games_in_memory`, read at each scrape;
//! - `moves_stored_total`, and `db_write_seconds` (each commit of moves);
//! - `engine_waiting` (searches queued for a thread) and `engine_think_seconds`;
//! - `flags_total` (time losses claimed here) and `forfeits_total` (tournament no-shows).

use crate::error::Error;
use crate::session::Credentials;
use crate::state::AppState;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::Instant;

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Latency buckets, seconds: half a millisecond to ten seconds.
const BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Installs the process's recorder (once; later servers in the process share it).
pub fn install() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), BUCKETS)
                .ok()?
                .install_recorder()
                .ok()
        })
        .as_ref()
}

/// Middleware (on matched routes): counts each request by route and status, and times it.
pub async fn track(req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |p| p.as_str().to_string());
    let method = req.method().as_str().to_string();
    let start = Instant::now();
    let resp = next.run(req).await;
    let status = resp.status().as_u16().to_string();
    metrics::histogram!("reversi_http_request_duration_seconds", "route" => route.clone())
        .record(start.elapsed().as_secs_f64());
    metrics::counter!("reversi_http_requests_total", "route" => route, "method" => method, "status" => status)
        .increment(1);
    resp
}

/// `GET /metrics`: the Prometheus text format, for the holder of the metrics token.
pub async fn scrape(State(state): State<AppState>, creds: Credentials) -> Response {
    let Some(token) = state.config().metrics_token.as_deref() else {
        return Error::NotFound.into_response();
    };
    if !creds.bearer().is_some_and(|g| crate::secret::same(g, token)) {
        return (StatusCode::UNAUTHORIZED, "a metrics token is needed\n").into_response();
    }
    let Some(handle) = HANDLE.get().and_then(Option::as_ref) else {
        return Error::Internal("no metrics recorder".into()).into_response();
    };
    match state.db().games().games_in_progress().await {
        Ok(counts) => {
            for (mode, n) in counts {
                metrics::gauge!("reversi_games_in_progress", "mode" => mode).set(n as f64);
            }
        }
        Err(e) => tracing::warn!("metrics: games in progress: {e}"),
    }
    metrics::gauge!("reversi_games_in_memory").set(state.rounds().games_in_memory() as f64);
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        handle.render(),
    )
        .into_response()
}
