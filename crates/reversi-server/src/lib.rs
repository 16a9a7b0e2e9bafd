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

pub mod accounts;
pub mod ai;
pub mod analysis;
pub mod analysis_board;
pub mod api;
pub mod assets;
pub mod body;
pub mod chat;
pub mod client;
pub mod config;
pub mod db;
pub mod deadline;
pub mod email;
pub mod error;
pub mod explorer;
pub mod extract;
pub mod feeds;
pub mod health;
pub mod import;
pub mod learn;
pub mod limit;
pub mod listen;
pub mod lobby;
pub mod lobby_ws;
pub mod mail;
pub mod meta;
pub mod moderation;
pub mod notify;
pub mod openapi;
pub mod origin;
pub mod people;
pub mod profile;
pub mod prometheus;
pub mod puzzles;
pub mod request_log;
pub mod round;
pub mod secret;
pub mod session;
pub mod socket;
pub mod start;
pub mod state;
pub mod time;
pub mod tournaments;
pub mod web;
pub mod ws;

pub use config::Config;
pub use error::{Error, Result};
pub use state::AppState;

use axum::extract::DefaultBodyLimit;
use axum::routing::{any, delete, get, post};
use axum::Router;
use std::future::Future;

/// The whole application: the API under `/api/`, the pages everywhere else.
pub fn app(state: AppState) -> Router {
    let api = Router::new()
        .route("/api/games", post(api::create).get(api::list))
        .route("/api/games/{id}", get(api::get_game))
        .route("/api/games/{id}/join", post(api::join))
        .route("/api/games/{id}/moves", post(api::play))
        .route("/api/games/{id}/resign", post(api::resign))
        .route("/api/games/{id}/undo", post(api::undo))
        .route(
            "/api/games/{id}/conditional",
            get(api::get_conditional).put(api::put_conditional),
        )
        .route("/api/games/{id}/takeback", post(api::takeback))
        .route("/api/games/{id}/takeback/accept", post(api::takeback_accept))
        .route("/api/games/{id}/takeback/decline", post(api::takeback_decline))
        .route("/api/games/{id}/abort", post(api::abort))
        .route("/api/games/{id}/claim", post(api::claim))
        .route("/api/games/{id}/hint", get(api::hint))
        .route("/api/games/{id}/ggf", get(api::ggf))
        .route("/api/games/{id}/replay", get(api::replay))
        .route(
            "/api/games/{id}/analysis",
            post(api::request_analysis).get(api::analysis),
        )
        .route("/api/games/{id}/analysis/ws", get(feeds::analysis))
        .route("/api/games/{id}/chart.svg", get(api::chart))
        .route("/api/games/{id}/rematch", post(api::rematch))
        .route("/api/rules/{variant}", get(api::rules))
        .route("/api/meta", get(meta::meta))
        .route("/api/openapi.json", get(openapi::openapi_json))
        .route("/api/games/{id}/chat", post(chat::post).get(chat::history))
        .route("/api/account", get(accounts::me))
        .route("/api/account/signup", post(accounts::signup))
        .route("/api/account/login", post(accounts::login))
        .route("/api/account/logout", post(accounts::logout))
        .route("/api/account/password", post(accounts::change_password))
        .route("/api/account/chat", post(accounts::chat_setting))
        .route("/api/account/country", post(accounts::set_country))
        .route("/api/account/prefs", post(accounts::set_prefs))
        .route("/api/account/bot", post(accounts::make_bot))
        .route("/api/account/delete", post(accounts::delete))
        .route("/api/account/email", get(email::get).post(email::change))
        .route("/api/account/email/verify", post(email::verify))
        .route("/api/account/reset", post(email::request_reset))
        .route("/api/account/reset/confirm", post(email::confirm_reset))
        .route("/api/account/games", get(profile::my_games))
        .route("/api/account/ws", get(feeds::account))
        .route("/api/explorer", get(explorer::handler))
        .route("/api/explorer/players", get(explorer::players))
        .route("/api/explorer/games/{id}", get(explorer::game))
        .route("/api/puzzles", get(puzzles::overview))
        .route("/api/puzzles/next", get(puzzles::next))
        .route("/api/puzzles/pack", get(puzzles::pack))
        .route("/api/puzzles/daily", get(puzzles::daily_puzzle))
        .route("/api/puzzles/{id}", get(puzzles::get))
        .route("/api/puzzles/{id}/moves", post(puzzles::moves))
        .route("/api/learn", get(learn::list))
        .route("/api/learn/finished", post(learn::finished))
        .route("/api/learn/{id}", get(learn::lesson))
        .route("/api/learn/{id}/{n}", post(learn::judge))
        .route("/api/about", get(learn::about))
        .route("/api/openings", get(learn::openings))
        .route("/api/lobby", get(lobby::lobby))
        .route("/api/lobby/ws", get(lobby_ws::handler))
        .route("/api/seeks", post(lobby::create))
        .route("/api/seeks/{id}", delete(lobby::cancel))
        .route("/api/seeks/{id}/accept", post(lobby::accept))
        .route("/api/seeks/{id}/decline", post(lobby::decline))
        .route("/api/pools", delete(lobby::leave_pool))
        .route("/api/pools/{control}", post(lobby::join_pool))
        .route("/api/users/{name}", get(profile::user))
        .route("/api/users/{name}/games", get(profile::games))
        .route(
            "/api/users/{name}/follow",
            post(people::follow).delete(people::unfollow),
        )
        .route(
            "/api/users/{name}/block",
            post(people::block).delete(people::unblock),
        )
        .route("/api/users/{name}/report", post(people::report))
        .route("/api/account/people", get(people::mine))
        .route("/api/account/notify", post(notify::set))
        .route("/api/mod/reports", get(moderation::reports))
        .route("/api/mod/reports/{id}/close", post(moderation::close_report))
        .route("/api/mod/log", get(moderation::log))
        .route("/api/mod/users/{name}", post(moderation::act_on_user))
        .route("/api/mod/games/{id}/close", post(moderation::close_game))
        .route(
            "/api/mod/tournaments/{id}/close",
            post(moderation::close_tournament),
        )
        .route("/api/leaderboard/{category}", get(profile::leaderboard))
        .route("/api/live", get(profile::live))
        .route("/api/games/{id}/ws", get(ws::handler))
        .route("/api/analysis/ws", get(analysis_board::handler))
        .route("/api/import", post(import::import))
        .route(
            "/api/tournaments",
            get(tournaments::list).post(tournaments::create),
        )
        .route("/api/tournaments/ws", get(feeds::tournaments))
        .route("/api/tournaments/{id}", get(tournaments::get))
        .route("/api/tournaments/{id}/ws", get(feeds::tournament))
        .route("/api/tournaments/{id}/join", post(tournaments::join))
        .route("/api/tournaments/{id}/withdraw", post(tournaments::withdraw))
        .route("/api/tournaments/{id}/chat", post(tournaments::chat))
        .route("/api/tournaments/{id}/files/{file}", get(tournaments::download))
        .route("/api/tournaments/{id}/{action}", post(tournaments::organise))
        .route_layer(axum::middleware::from_fn(prometheus::track))
        .route("/api/{*rest}", any(api::not_found))
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            client::rate_limit,
        ));
    // The metrics answer only their token's holder, but each scrape is work: rate limited.
    let metrics =
        Router::new()
            .route("/metrics", get(prometheus::scrape))
            .layer(axum::middleware::from_fn_with_state(
                state.clone(),
                client::rate_limit,
            ));
    // Health checks are not rate limited: a balancer asks often, from one address.
    let router = Router::new()
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .merge(metrics)
        .merge(api)
        .merge(web::routes())
        .fallback(web::not_found)
        .layer(axum::middleware::from_fn_with_state(state.clone(), origin::check))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            origin::check_host,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            deadline::whole_body,
        ))
        .layer(DefaultBodyLimit::max(state.config().max_body_bytes))
        .layer(axum::middleware::from_fn(request_log::track));
    web::with_security_headers(router).with_state(state)
}

/// Serves the app on `listener` until `shutdown` completes (see [`listen::serve`]: header
/// timeouts, connection caps, graceful shutdown).
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let router = app(state.clone());
    listen::serve(listener, state, router, shutdown).await
}
