//! The Reversi web app behind `reversi serve`: a JSON API and websockets over axum, games
//! stored in SQLite or PostgreSQL through sqlx (schema embedded, applied at start; several
//! instances may share a PostgreSQL database, live updates going through LISTEN/NOTIFY), the
//! computer's moves on a bounded pool of blocking threads, and a front end embedded in the binary.
//!
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! use reversi_server::{serve, AppState, Config};
//! let state = AppState::new(Config::default()).await?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! serve(listener, state, std::future::pending()).await?;
//! # Ok(()) }
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod ai;
pub mod analysis;
pub mod api;
pub mod db;
pub mod error;
pub mod game;
pub mod limit;
pub mod state;
pub mod web;
pub mod ws;

pub use error::{Error, Result};
pub use state::{AppState, Config};

use axum::extract::DefaultBodyLimit;
use axum::routing::{any, get, post};
use axum::Router;
use std::future::Future;
use std::net::SocketAddr;

/// The whole application: the API under `/api/`, the pages everywhere else.
pub fn app(state: AppState) -> Router {
    let api = Router::new()
        .route("/api/games", post(api::create).get(api::list))
        .route("/api/games/{id}", get(api::get_game))
        .route("/api/games/{id}/join", post(api::join))
        .route("/api/games/{id}/moves", post(api::play))
        .route("/api/games/{id}/resign", post(api::resign))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/hint", get(api::hint))
        .route("/api/games/{id}/ggf", get(api::ggf))
        .route("/api/games/{id}/replay", get(api::replay))
        .route(
            "/api/games/{id}/analysis",
            post(api::request_analysis).get(api::analysis),
        )
        .route("/api/games/{id}/chart.svg", get(api::chart))
        .route("/api/games/{id}/rematch", post(api::rematch))
        .route("/api/rules/{variant}", get(api::rules))
        .route("/api/games/{id}/ws", get(ws::handler))
        .route("/api/{*rest}", any(api::not_found))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            api::rate_limit,
        ));
    Router::new()
        .merge(api)
        .merge(web::routes())
        .layer(DefaultBodyLimit::max(state.config().max_body_bytes))
        .with_state(state)
}

/// Serves the app on `listener` until `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use axum::serve::ListenerExt;
    // Small messages go out at once: without TCP_NODELAY, a second message sent right after
    // another (the computer's move after the person's) waits for the client's delayed ACK.
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY: {e}");
        }
    });
    let service = app(state).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, service)
        .with_graceful_shutdown(shutdown)
        .await
}
