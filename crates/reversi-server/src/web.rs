//! The front end: plain HTML, CSS and JavaScript embedded in the binary at build time.

use crate::state::AppState;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// The page (one HTML file for every route of the app).
pub const INDEX_HTML: &str = include_str!("../static/index.html");
/// The script.
pub const APP_JS: &str = include_str!("../static/app.js");
/// The style sheet.
pub const APP_CSS: &str = include_str!("../static/app.css");

fn file(body: &'static str, content_type: &'static str) -> Response {
    let mut resp = body.into_response();
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    resp
}

async fn index() -> Response {
    file(INDEX_HTML, "text/html; charset=utf-8")
}

/// The routes of the pages and their assets.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(index))
        .route("/game/{id}", get(index))
        .route("/archive", get(index))
        .route("/replay/{id}", get(index))
        .route("/rules", get(index))
        .route("/rules/{variant}", get(index))
        .route(
            "/static/app.js",
            get(|| async { file(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/static/app.css",
            get(|| async { file(APP_CSS, "text/css; charset=utf-8") }),
        )
}
