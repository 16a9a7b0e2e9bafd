//! Health checks for a load balancer or an orchestrator: `GET /healthz` says the process
//! answers; `GET /readyz` says it can serve — the database answers and holds every migration
//! this build knows, and the engine's thread pool runs work. Neither needs a session, and
//! neither says more than ready or not and why (no versions, no addresses).

use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::time::Duration;

/// How long a readiness check may take before it counts as a failure.
pub const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// `GET /healthz`: `200 ok` while the process serves requests.
pub async fn healthz() -> &'static str {
    "ok"
}

/// `GET /readyz`: `200` when the database answers with every migration applied and the engine
/// pool takes work and the server is not stopping; `503` otherwise, with each check's outcome.
pub async fn readyz(State(state): State<AppState>) -> Response {
    let database = match tokio::time::timeout(READY_TIMEOUT, state.db().readiness()).await {
        Ok(Ok((applied, known))) if applied >= known => "ok".to_string(),
        Ok(Ok((applied, known))) => format!("schema at version {applied}, this build needs {known}"),
        Ok(Err(e)) => {
            tracing::warn!("readiness: database: {e}");
            "unreachable".to_string()
        }
        Err(_) => "timed out".to_string(),
    };
    // The engine's searches run on the blocking pool: a trivial job there must come back.
    let engine = match tokio::time::timeout(READY_TIMEOUT, tokio::task::spawn_blocking(|| ())).await {
        Ok(Ok(())) => "ok",
        _ => "not answering",
    };
    // A stopping instance says so first, so that a balancer sends it no new clients.
    let stopping = state.is_stopping();
    let ready = database == "ok" && engine == "ok" && !stopping;
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        Json(serde_json::json!({
            "ready": ready,
            "database": database,
            "engine": engine,
            "stopping": stopping,
        })),
    )
        .into_response()
}
