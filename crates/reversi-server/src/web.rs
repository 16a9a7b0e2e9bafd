//! The front end: HTML, CSS and JavaScript modules embedded in the binary at build time (served
//! fingerprinted and compressed by [`crate::assets`]), the interface's words (the Fluent files
//! of `reversi-i18n`, as JSON), the icon, and the pages for addresses that do not exist.

use crate::assets::{Asset, Assets};
use crate::extract::{BrowserLang, Conditional};
use crate::state::AppState;
use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use reversi_i18n::{tr, Lang, Part};
use tower_http::set_header::SetResponseHeaderLayer;

/// The module the server makes from the rules' lists ([`crate::meta::meta_module`]).
pub const META_MODULE: &str = "js/meta.js";

/// The page (one HTML file for every route of the app).
pub const INDEX_HTML: &str = include_str!("../static/index.html");

/// Every file under `/static/`: its path there, its content and its type.
pub const STATIC_FILES: &[(&str, &str, &str)] = &[
    (
        "css/site.css",
        include_str!("../static/css/site.css"),
        "text/css; charset=utf-8",
    ),
    ("js/app.js", include_str!("../static/js/app.js"), JS),
    ("js/account.js", include_str!("../static/js/account.js"), JS),
    ("js/clock.js", include_str!("../static/js/clock.js"), JS),
    ("js/coach.js", include_str!("../static/js/coach.js"), JS),
    ("js/api.js", include_str!("../static/js/api.js"), JS),
    ("js/board.js", include_str!("../static/js/board.js"), JS),
    ("js/dom.js", include_str!("../static/js/dom.js"), JS),
    ("js/live.js", include_str!("../static/js/live.js"), JS),
    ("js/i18n.js", include_str!("../static/js/i18n.js"), JS),
    ("js/prefs.js", include_str!("../static/js/prefs.js"), JS),
    ("js/sound.js", include_str!("../static/js/sound.js"), JS),
    ("js/strength.js", include_str!("../static/js/strength.js"), JS),
    ("js/opening.js", include_str!("../static/js/opening.js"), JS),
    ("js/turns.js", include_str!("../static/js/turns.js"), JS),
    ("js/avatar.js", include_str!("../static/js/avatar.js"), JS),
    ("js/engine.js", include_str!("../static/js/engine.js"), JS),
    (
        "js/engine-worker.js",
        include_str!("../static/js/engine-worker.js"),
        JS,
    ),
    (
        "js/pages/archive.js",
        include_str!("../static/js/pages/archive.js"),
        JS,
    ),
    ("js/pages/game.js", include_str!("../static/js/pages/game.js"), JS),
    (
        "js/pages/explorer.js",
        include_str!("../static/js/pages/explorer.js"),
        JS,
    ),
    (
        "js/pages/analysis.js",
        include_str!("../static/js/pages/analysis.js"),
        JS,
    ),
    (
        "js/pages/tournaments.js",
        include_str!("../static/js/pages/tournaments.js"),
        JS,
    ),
    (
        "js/pages/puzzles.js",
        include_str!("../static/js/pages/puzzles.js"),
        JS,
    ),
    (
        "js/pages/lobby.js",
        include_str!("../static/js/pages/lobby.js"),
        JS,
    ),
    ("js/pages/auth.js", include_str!("../static/js/pages/auth.js"), JS),
    (
        "js/pages/recover.js",
        include_str!("../static/js/pages/recover.js"),
        JS,
    ),
    (
        "js/pages/profile.js",
        include_str!("../static/js/pages/profile.js"),
        JS,
    ),
    (
        "js/pages/players.js",
        include_str!("../static/js/pages/players.js"),
        JS,
    ),
    (
        "js/pages/settings.js",
        include_str!("../static/js/pages/settings.js"),
        JS,
    ),
    ("js/pages/home.js", include_str!("../static/js/pages/home.js"), JS),
    (
        "js/pages/learn.js",
        include_str!("../static/js/pages/learn.js"),
        JS,
    ),
    (
        "js/pages/about.js",
        include_str!("../static/js/pages/about.js"),
        JS,
    ),
    ("js/pages/mod.js", include_str!("../static/js/pages/mod.js"), JS),
    (
        "js/pages/offline.js",
        include_str!("../static/js/pages/offline.js"),
        JS,
    ),
    (
        "js/pages/replay.js",
        include_str!("../static/js/pages/replay.js"),
        JS,
    ),
    (
        "js/pages/rules.js",
        include_str!("../static/js/pages/rules.js"),
        JS,
    ),
    (
        "js/pages/summary.js",
        include_str!("../static/js/pages/summary.js"),
        JS,
    ),
    (
        "vendor/fluent-bundle.js",
        include_str!("../static/vendor/fluent-bundle.js"),
        JS,
    ),
];

/// Files under `/static/` that are not text: the browser's engine (`scripts/build-wasm` makes
/// it from `crates/reversi-wasm`; `scripts/build-wasm --check` keeps it the source's).
pub const BINARY_FILES: &[(&str, &[u8], &str)] = &[(
    "engine/reversi.wasm",
    include_bytes!("../static/engine/reversi.wasm"),
    "application/wasm",
)];

/// The service worker's source; `/sw.js` fills in this build's fingerprint and files.
const SERVICE_WORKER: &str = include_str!("../static/sw.js");

/// The web app manifest: the site installs as an app that opens on its home page.
const MANIFEST: &str = r##"{"name":"Reversi","short_name":"Reversi","description":"Reversi (Othello): play, study, analyse; on this device too, without a connection.","start_url":"/","scope":"/","display":"standalone","background_color":"#2f7d4f","theme_color":"#2f7d4f","icons":[{"src":"/favicon.svg","sizes":"any","type":"image/svg+xml","purpose":"any"}]}"##;

/// The type of a JavaScript module.
pub const JS: &str = "text/javascript; charset=utf-8";

/// The site's icon: a disc half black, half white, on the green cloth.
pub const FAVICON_SVG: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"32\" height=\"32\" \
    viewBox=\"0 0 32 32\"><rect width=\"32\" height=\"32\" rx=\"6\" fill=\"#2f7d4f\"/>\
    <circle cx=\"16\" cy=\"16\" r=\"11\" fill=\"#f4f4f4\"/><path d=\"M16 5a11 11 0 0 0 0 22z\" \
    fill=\"#111\"/><circle cx=\"16\" cy=\"16\" r=\"11\" fill=\"none\" stroke=\"#0d3a22\" \
    stroke-width=\"1.2\"/></svg>";

/// The policy every response carries: scripts and styles from this server only (the front end
/// has no inline script; inline `style` attributes are allowed for the drawn board;
/// `'wasm-unsafe-eval'` lets the page compile the engine's WebAssembly, and nothing else), no
/// framing by other sites, no referrer to other sites, no sniffing of types.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
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

fn file(body: impl IntoResponse, content_type: &'static str) -> Response {
    let mut resp = body.into_response();
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    resp
}

/// The page (its files named by this build's fingerprint), revalidated on every visit.
async fn index(cond: Conditional) -> Response {
    Assets::get().index.answer(&cond, false)
}

async fn static_file(Path(path): Path<String>, cond: Conditional) -> Response {
    match Assets::get().find(&path) {
        Some((asset, immutable)) => asset.answer(&cond, immutable),
        None => not_found_page(Lang::En),
    }
}

/// `GET /api/i18n/{lang}`: the interface's messages in Fluent syntax, for the front end:
/// `{"lang": "ru", "ftl": "…"}` (compressed, revalidated by its tag).
async fn messages(Path(lang): Path<String>, cond: Conditional) -> Response {
    part_messages(&lang, Part::Main, &cond)
}

/// `GET /api/i18n/{lang}/{part}`: one more part of the messages (`learn`, `about`), loaded by
/// the pages that need it, in the same form.
async fn more_messages(Path((lang, part)): Path<(String, String)>, cond: Conditional) -> Response {
    match Part::parse(&part) {
        Some(p) => part_messages(&lang, p, &cond),
        None => crate::Error::NotFound.into_response(),
    }
}

fn part_messages(lang: &str, part: Part, cond: &Conditional) -> Response {
    static MESSAGES: std::sync::OnceLock<Vec<(Lang, Part, Asset)>> = std::sync::OnceLock::new();
    match lang.parse::<Lang>() {
        Ok(l) => {
            let all = MESSAGES.get_or_init(|| {
                Lang::ALL
                    .into_iter()
                    .flat_map(|l| Part::ALL.map(|p| (l, p)))
                    .map(|(l, p)| {
                        let body =
                            serde_json::json!({ "lang": l.code(), "ftl": reversi_i18n::part_source(l, p) });
                        (l, p, Asset::new(body.to_string(), "application/json"))
                    })
                    .collect()
            });
            match all.iter().find(|(x, p, _)| *x == l && *p == part) {
                Some((_, _, asset)) => asset.answer(cond, false),
                None => crate::Error::BadRequest(format!("no messages for {l}")).into_response(),
            }
        }
        Err(e) => crate::Error::BadRequest(e).into_response(),
    }
}

/// `GET /sw.js`: the service worker with what it keeps for use without a network: the page,
/// every file of this build (under its fingerprint), both languages' words, the icon and the
/// puzzles solved on the device.
async fn service_worker(cond: Conditional) -> Response {
    static SW: std::sync::OnceLock<Asset> = std::sync::OnceLock::new();
    SW.get_or_init(|| {
        let assets = Assets::get();
        let fp = &assets.fingerprint;
        let mut precache: Vec<String> = vec!["/".into(), "/favicon.svg".into(), "/api/puzzles/pack".into()];
        let mut files: Vec<&&str> = assets.files.keys().collect();
        files.sort();
        precache.extend(files.into_iter().map(|f| format!("/static/{fp}/{f}")));
        for l in Lang::ALL {
            precache.push(format!("/api/i18n/{}", l.code()));
            // The parts the pages load (the letters' words stay on the server).
            for p in [Part::Learn, Part::About] {
                precache.push(format!("/api/i18n/{}/{}", l.code(), p.name()));
            }
        }
        let build = serde_json::json!({ "fingerprint": fp, "precache": precache });
        Asset::new(SERVICE_WORKER.replace("__BUILD__", &build.to_string()), JS)
    })
    .answer(&cond, false)
}

async fn manifest() -> Response {
    file(MANIFEST, "application/manifest+json")
}

async fn favicon_svg() -> Response {
    file(FAVICON_SVG, "image/svg+xml")
}

/// `/favicon.ico`: the same icon as a PNG inside an ICO file (what browsers ask for unasked).
async fn favicon_ico() -> Response {
    static ICO: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    let ico = ICO.get_or_init(|| match reversi_render::svg_to_png(FAVICON_SVG, 96.0) {
        Ok(png) => ico_of_png(&png, 32),
        Err(_) => Vec::new(),
    });
    if ico.is_empty() {
        return not_found_page(Lang::En);
    }
    file(ico.clone(), "image/x-icon")
}

/// An ICO file holding one PNG image of `size`×`size` pixels.
fn ico_of_png(png: &[u8], size: u8) -> Vec<u8> {
    let mut out = Vec::with_capacity(22 + png.len());
    out.extend_from_slice(&[0, 0, 1, 0, 1, 0]); // reserved, type 1 (icon), one image
    out.extend_from_slice(&[size, size, 0, 0, 1, 0, 32, 0]); // size, no palette, 1 plane, 32 bpp
    out.extend_from_slice(&(png.len() as u32).to_le_bytes());
    out.extend_from_slice(&22u32.to_le_bytes()); // the image follows the 6 + 16 header bytes
    out.extend_from_slice(png);
    out
}

fn not_found_page(lang: Lang) -> Response {
    let other = if lang == Lang::En { Lang::Ru } else { Lang::En };
    let page = format!(
        "<!doctype html><html lang=\"{code}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><link rel=\"stylesheet\" href=\"/static/css/site.css\">\
         <link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\"></head>\
         <body><main class=\"empty-state\"><h1>{title}</h1><p>{text} <a href=\"/\">{home}</a>.</p>\
         <p lang=\"{ocode}\">{otext} <a href=\"/\">{ohome}</a>.</p></main></body></html>",
        code = lang.code(),
        title = tr(lang, "page-not-found-title"),
        text = tr(lang, "page-not-found"),
        home = tr(lang, "page-go-home"),
        ocode = other.code(),
        otext = tr(other, "page-not-found"),
        ohome = tr(other, "page-go-home"),
    );
    let mut resp = (StatusCode::NOT_FOUND, page).into_response();
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    resp
}

/// A page that does not exist: a short page in the browser's language and the other one,
/// with the way home.
pub async fn not_found(BrowserLang(lang): BrowserLang) -> Response {
    not_found_page(lang)
}

/// A method a page does not take (pages are only read).
async fn page_method_not_allowed(BrowserLang(lang): BrowserLang) -> Response {
    let mut resp = (
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{}\n", tr(lang, "page-method-not-allowed")),
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
        .route("/analysis", get(index))
        .route("/replay/{id}", get(index))
        .route("/rules", get(index))
        .route("/rules/{variant}", get(index))
        .route("/lobby", get(index))
        .route("/login", get(index))
        .route("/signup", get(index))
        .route("/account", get(index))
        .route("/reset", get(index))
        .route("/reset/{token}", get(index))
        .route("/verify/{token}", get(index))
        .route("/players", get(index))
        .route("/players/{category}", get(index))
        .route("/@/{name}", get(index))
        .route("/puzzles", get(index))
        .route("/puzzles/{id}", get(index))
        .route("/tournaments", get(index))
        .route("/tournament/{id}", get(index))
        .route("/static/{*path}", get(static_file))
        .route("/api/i18n/{lang}", get(messages))
        .route("/api/i18n/{lang}/{part}", get(more_messages))
        .route("/learn", get(index))
        .route("/learn/{lesson}", get(index))
        .route("/about", get(index))
        .route("/offline", get(index))
        .route("/mod", get(index))
        .route("/sw.js", get(service_worker))
        .route("/manifest.webmanifest", get(manifest))
        .route("/favicon.svg", get(favicon_svg))
        .route("/favicon.ico", get(favicon_ico))
        .method_not_allowed_fallback(page_method_not_allowed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_static_file_is_served_and_every_module_import_exists() {
        for (path, body, _) in STATIC_FILES {
            // Static imports, and the page modules loaded on demand (`import('./pages/x.js')`).
            let statics = body
                .lines()
                .filter(|l| l.starts_with("import "))
                .filter_map(|l| l.split('\'').nth(1));
            let dynamic = body
                .split("import('")
                .skip(1)
                .filter_map(|rest| rest.split('\'').next());
            for target in statics.chain(dynamic) {
                let base = std::path::Path::new(path).parent().unwrap();
                let mut parts: Vec<&str> = base
                    .to_str()
                    .unwrap()
                    .split('/')
                    .filter(|p| !p.is_empty())
                    .collect();
                for seg in target.split('/') {
                    match seg {
                        "." => {}
                        ".." => {
                            parts.pop();
                        }
                        s => parts.push(s),
                    }
                }
                let resolved = parts.join("/");
                assert!(
                    resolved == META_MODULE || STATIC_FILES.iter().any(|(p, _, _)| *p == resolved),
                    "{path} imports {target}: not served"
                );
            }
        }
        for src in [
            "/static/css/site.css",
            "/static/js/app.js",
            "/static/vendor/fluent-bundle.js",
        ] {
            assert!(INDEX_HTML.contains(src), "{src}");
        }
    }

    /// Every message id the front end names exists in both languages: the ids written out
    /// (`t('web-…')`, `data-i18n="…"`), and every id a prefix builds (`'web-strength-' + key`).
    #[test]
    fn every_message_the_front_end_asks_for_exists() {
        let mut ids: Vec<String> = Vec::new();
        let sources = STATIC_FILES
            .iter()
            .filter(|(p, _, _)| p.starts_with("js/"))
            .map(|(_, b, _)| *b)
            .chain([INDEX_HTML]);
        for body in sources {
            for quote in ['\'', '"'] {
                for part in body.split(quote).skip(1).step_by(2) {
                    let is_id = (part.starts_with("web-")
                        || part.starts_with("error-")
                        || part.starts_with("variant-")
                        || part.starts_with("learn-")
                        || part.starts_with("about-"))
                        && part
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
                    if is_id && !part.ends_with('-') {
                        ids.push(part.to_string());
                    }
                }
            }
        }
        let built = [
            (
                "web-strength-",
                &[
                    "beginner", "novice", "casual", "club", "strong", "expert", "master", "champion",
                ][..],
            ),
            ("web-theme-", &["auto", "light", "dark"]),
            ("web-color-", &["black", "white", "random"]),
            (
                "web-col-",
                &["date", "variant", "players", "result", "moves", "analysis"],
            ),
            ("web-step-", &["first", "prev", "next", "last"]),
            (
                "web-analysis-state-",
                &["none", "queued", "running", "done", "failed"],
            ),
            ("learn-section-", &["rules", "strategy", "endgame"]),
            (
                "learn-goal-",
                &[
                    "legal",
                    "square",
                    "most-directions",
                    "most-flips",
                    "corner",
                    "safe-corners",
                    "fewest-replies",
                    "opponent-passes",
                    "wipeout",
                    "quiet",
                    "most-stable",
                    "exact",
                    "engine",
                ],
            ),
            (
                "variant-",
                &[
                    "othello",
                    "grand",
                    "eight-stars",
                    "black-hole",
                    "anti",
                    "xot",
                    "reversi-1880",
                ],
            ),
        ];
        for (prefix, keys) in built {
            ids.extend(keys.iter().map(|k| format!("{prefix}{k}")));
        }
        // Every error code the server can answer with has its message.
        for code in crate::error::Error::CODES {
            ids.push(format!("error-{}", code.replace('_', "-")));
        }
        assert!(ids.len() > 100, "{}", ids.len());
        for lang in Lang::ALL {
            let missing: Vec<&String> = ids.iter().filter(|id| !reversi_i18n::has(lang, id)).collect();
            assert!(missing.is_empty(), "{lang}: {missing:?}");
        }
    }

    #[test]
    fn the_icon_file_holds_its_png() {
        let ico = ico_of_png(b"\x89PNGdata", 32);
        assert_eq!(&ico[..6], &[0, 0, 1, 0, 1, 0]);
        assert_eq!(u32::from_le_bytes(ico[14..18].try_into().unwrap()), 8);
        assert_eq!(&ico[22..], b"\x89PNGdata");
    }
}
