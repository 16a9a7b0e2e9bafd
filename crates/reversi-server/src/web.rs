//! The front end: plain HTML, CSS and JavaScript embedded in the binary at build time.

use crate::state::AppState;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tower_http::set_header::SetResponseHeaderLayer;

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

/// The policy every response carries: scripts and styles from this server only (the front end
/// has no inline script; inline `style` attributes are allowed for the drawn board), no
/// framing by other sites, no referrer to other sites, no sniffing of types.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
     font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// `router` with the headers of [`CONTENT_SECURITY_POLICY`] and its companions on every
/// response that does not set them itself.
pub fn with_security_headers<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    let set = |name: &'static str, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(
            axum::http::HeaderName::from_static(name),
            HeaderValue::from_static(value),
        )
    };
    router
        .layer(set("content-security-policy", CONTENT_SECURITY_POLICY))
        .layer(set("x-frame-options", "DENY"))
        .layer(set("referrer-policy", "same-origin"))
        .layer(set("x-content-type-options", "nosniff"))
}

/// A page that does not exist: a short page in both languages, with the way home.
pub async fn not_found() -> Response {
    let page = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
        <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
        <title>Not found — Reversi</title><link rel=\"stylesheet\" href=\"/static/app.css\"></head>\
        <body><main><h1>Page not found</h1><p>There is no page at this address. \
        <a href=\"/\">Go to the home page</a>.</p>\
        <p lang=\"ru\">Такой страницы нет. <a href=\"/\">На главную</a>.</p></main></body></html>";
    let mut resp = (StatusCode::NOT_FOUND, page).into_response();
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    resp
}

/// A method a page does not take (pages are only read).
async fn page_method_not_allowed() -> Response {
    let mut resp = (
        StatusCode::METHOD_NOT_ALLOWED,
        "This address is a page: it can only be read (GET).\n",
    )
        .into_response();
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    resp
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
        .method_not_allowed_fallback(page_method_not_allowed)
}
