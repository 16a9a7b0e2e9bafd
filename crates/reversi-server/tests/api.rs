//! In-process API tests: every request goes through the router with `oneshot`, no network.
//! The suite runs on SQLite (module `sqlite`) and on PostgreSQL (module `postgres`, when
//! `REVERSI_TEST_DATABASE_URL` is set; each test in a fresh schema).

use axum::body::Body;
use axum::http::{header, HeaderMap, Method, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use reversi_server::{app, AppState, Config};
use serde_json::{json, Value};
use tower::ServiceExt;

fn config(db: &str) -> Config {
    Config {
        database_url: db.to_string(),
        ai_workers: 2,
        hash_mib: 1,
        ai_time_scale: 0.25,
        rate_per_sec: 10_000.0,
        rate_burst: 10_000.0,
        ..Config::default()
    }
}

async fn new_app(db: &str) -> Router {
    app(AppState::new(config(db)).await.unwrap())
}

/// A fresh schema in the PostgreSQL database named by `REVERSI_TEST_DATABASE_URL` (set by
/// `scripts/test`), or `None` (with a note) when it is not set.
async fn pg_url() -> Option<String> {
    match std::env::var("REVERSI_TEST_DATABASE_URL") {
        Ok(url) if !url.is_empty() => Some(
            reversi_server::db::Db::fresh_schema_url(&url)
                .await
                .expect("a fresh schema in REVERSI_TEST_DATABASE_URL"),
        ),
        _ => {
            eprintln!("skipped: REVERSI_TEST_DATABASE_URL is not set (scripts/test sets it)");
            None
        }
    }
}

struct Reply {
    status: StatusCode,
    headers: HeaderMap,
    json: Value,
    text: String,
}

async fn call(app: &Router, method: Method, uri: &str, token: Option<&str>, body: Option<&str>) -> Reply {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    if body.is_some() {
        req = req.header(header::CONTENT_TYPE, "application/json");
    }
    let req = req.body(Body::from(body.unwrap_or("").to_string())).unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        json,
        text,
    }
}

async fn create(app: &Router, body: Value) -> (String, String, Value) {
    let r = call(app, Method::POST, "/api/games", None, Some(&body.to_string())).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["game"]["id"].as_str().unwrap().to_string();
    let token = r.json["token"].as_str().unwrap().to_string();
    (id, token, r.json)
}

fn first_legal(game: &Value) -> String {
    game["legal_moves"][0].as_str().unwrap().to_string()
}

async fn create_get_and_play_against_the_computer(db: String) {
    let app = new_app(&db).await;
    let r = call(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(r#"{"mode":"ai","level":1,"color":"black"}"#),
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED);
    let cookie = r.headers[header::SET_COOKIE].to_str().unwrap().to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let id = r.json["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(r.json["you"], json!(["black"]));
    assert_eq!(r.json["game"]["to_move"], "black");
    assert_eq!(r.json["game"]["legal_moves"], json!(["d3", "c4", "f5", "e6"]));
    assert_eq!(r.json["game"]["cells"].as_str().unwrap().len(), 64);

    // The cookie alone authenticates.
    let pair = cookie.split(';').next().unwrap().to_string();
    let req = Request::get(format!("/api/games/{id}"))
        .header(header::COOKIE, pair)
        .body(Body::empty())
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let v: Value = serde_json::from_slice(&resp.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(v["you"], json!(["black"]));

    // A spectator sees the game but holds no seat.
    let r = call(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(r.json["you"], json!([]));

    // The move is answered after the computer's reply.
    let (id, token, _) = create(&app, json!({"level": 1})).await;
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&token),
        Some(r#"{"move":"f5","ply":0}"#),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["game"]["ply"], 2);
    assert_eq!(r.json["game"]["moves"][0], "f5");
    assert_eq!(r.json["game"]["to_move"], "black");
    assert_eq!(r.json["game"]["ai_thinking"], false);
}

async fn bad_requests_get_clear_errors(db: String) {
    let app = new_app(&db).await;
    let (id, black, _) = create(&app, json!({"mode": "friend", "color": "black"})).await;
    let moves = format!("/api/games/{id}/moves");

    let r = call(&app, Method::POST, &moves, Some(&black), Some(r#"{"move":"a1"}"#)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.json["code"], "illegal_move");
    assert!(r.json["error"].as_str().unwrap().contains("a1"));

    let r = call(
        &app,
        Method::POST,
        &moves,
        Some(&black),
        Some(r#"{"move":"zz9"}"#),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);

    let r = call(
        &app,
        Method::POST,
        &moves,
        Some(&black),
        Some(r#"{"move":"d3","ply":5}"#),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(r.json["code"], "stale_ply");

    let r = call(&app, Method::POST, &moves, Some(&black), Some("{not json")).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.json["code"], "bad_request");
    let r = call(&app, Method::POST, &moves, Some(&black), Some(r#"{"mv":"d3"}"#)).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = call(&app, Method::POST, &moves, Some(&black), None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);

    let r = call(&app, Method::POST, &moves, None, Some(r#"{"move":"d3"}"#)).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let r = call(
        &app,
        Method::POST,
        &moves,
        Some("not-a-seat"),
        Some(r#"{"move":"d3"}"#),
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);

    let r = call(
        &app,
        Method::POST,
        "/api/games/nosuchgame/moves",
        Some(&black),
        Some(r#"{"move":"d3"}"#),
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(r.json["code"], "not_found");
    let r = call(&app, Method::GET, "/api/games/nosuchgame", None, None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = call(&app, Method::GET, "/api/nothing-here", None, None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);

    for body in [
        r#"{"variant":"nxn:7"}"#,
        r#"{"level":0}"#,
        r#"{"level":31}"#,
        r#"{"mode":"chess"}"#,
        r#"{"color":"green"}"#,
        r#"{"unknown":1}"#,
        r#"[1,2]"#,
    ] {
        let r = call(&app, Method::POST, "/api/games", None, Some(body)).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}: {}", r.text);
    }

    let big = format!(r#"{{"move":"{}"}}"#, "x".repeat(64 * 1024));
    let r = call(&app, Method::POST, &moves, Some(&black), Some(&big)).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);

    // A friend joins by the invite link and gets the other seat; a third visitor only watches.
    let r = call(&app, Method::POST, &format!("/api/games/{id}/join"), None, None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json["you"], json!(["white"]));
    let white = r.json["token"].as_str().unwrap().to_string();
    let r = call(&app, Method::POST, &format!("/api/games/{id}/join"), None, None).await;
    assert_eq!(r.status, StatusCode::CONFLICT);

    // Out of turn: white cannot move first.
    let r = call(&app, Method::POST, &moves, Some(&white), Some(r#"{"move":"d3"}"#)).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(r.json["code"], "not_your_turn");

    let r = call(&app, Method::POST, &moves, Some(&black), Some(r#"{"move":"d3"}"#)).await;
    assert_eq!(r.status, StatusCode::OK);
    // Undo is for games against the computer.
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/undo"),
        Some(&black),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT);

    // Resign: only for the token's own colour.
    let resign = format!("/api/games/{id}/resign");
    let r = call(
        &app,
        Method::POST,
        &resign,
        Some(&white),
        Some(r#"{"color":"black"}"#),
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = call(&app, Method::POST, &resign, Some(&white), None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json["game"]["status"], "finished");
    assert_eq!(r.json["game"]["result"]["winner"], "black");
    assert_eq!(r.json["game"]["result"]["ending"], "resigned");
    let r = call(&app, Method::POST, &moves, Some(&white), Some(r#"{"move":"c3"}"#)).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(r.json["code"], "game_over");
    let r = call(&app, Method::POST, &resign, Some(&black), None).await;
    assert_eq!(r.status, StatusCode::CONFLICT);

    let r = call(&app, Method::GET, &format!("/api/games/{id}/ggf"), None, None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text.starts_with("(;GM[Othello]"), "{}", r.text);
    assert!(r.text.contains(":r]"), "{}", r.text);

    // Nothing stored was lost by the errors above.
    let r = call(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(r.json["game"]["moves"], json!(["d3"]));
}

async fn undo_hint_list_and_a_full_game_on_one_device(db: String) {
    let app = new_app(&db).await;
    let (id, token, created) = create(&app, json!({"level": 2, "color": "white", "variant": "nxn:6"})).await;
    // The computer opened as black; the response may come before its move.
    assert_eq!(created["game"]["width"], 6);
    let mut game = Value::Null;
    for _ in 0..1000 {
        let r = call(&app, Method::GET, &format!("/api/games/{id}"), Some(&token), None).await;
        game = r.json["game"].clone();
        if game["ply"] == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(game["to_move"], "white");
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/undo"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "nothing of white's to undo yet");
    let mv = first_legal(&game);
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&token),
        Some(&json!({ "move": mv }).to_string()),
    )
    .await;
    assert_eq!(r.json["game"]["ply"], 3);
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/undo"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["game"]["ply"], 1);
    assert_eq!(r.json["game"]["to_move"], "white");

    let r = call(
        &app,
        Method::GET,
        &format!("/api/games/{id}/hint?n=2"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let hints = r.json["hints"].as_array().unwrap();
    assert!(!hints.is_empty() && hints.len() <= 2);
    assert!(r.json["hints"][0]["score"].is_i64());
    let r = call(&app, Method::GET, &format!("/api/games/{id}/hint"), None, None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);

    // Two players on one device: one token plays both colours to the end.
    let (id, token, created) = create(&app, json!({"mode": "local", "variant": "nxn:4"})).await;
    assert_eq!(created["you"], json!(["black", "white"]));
    let mut game = created["game"].clone();
    let mut n = 0;
    while game["status"] == "playing" {
        let mv = first_legal(&game);
        let r = call(
            &app,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(&token),
            Some(&json!({ "move": mv, "ply": game["ply"] }).to_string()),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        game = r.json["game"].clone();
        n += 1;
        assert!(n < 20);
    }
    let result = &game["result"];
    assert_eq!(
        result["black"].as_u64().unwrap() + result["white"].as_u64().unwrap(),
        16
    );
    assert_eq!(game["legal_moves"], json!([]));
    assert_eq!(game["to_move"], Value::Null);

    let r = call(&app, Method::GET, "/api/games?status=finished", None, None).await;
    let list = r.json["games"].as_array().unwrap();
    assert!(list
        .iter()
        .any(|g| g["id"] == id.as_str() && g["status"] == "finished"));
    let r = call(&app, Method::GET, "/api/games?limit=1", None, None).await;
    assert_eq!(r.json["games"].as_array().unwrap().len(), 1);
    let r = call(&app, Method::GET, "/api/games?status=odd", None, None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = call(&app, Method::GET, "/api/games?limit=many", None, None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}

async fn every_preset_starts(db: String) {
    let app = new_app(&db).await;
    for v in [
        "othello",
        "nxn:10",
        "nxn-parallel:8",
        "grand",
        "eight-stars",
        "black-hole",
        "anti",
        "xot",
        "reversi-1880",
        "reversi-1880:white",
    ] {
        let (_, _, created) = create(&app, json!({"mode": "local", "variant": v})).await;
        let g = &created["game"];
        assert!(
            g["variant"]
                .as_str()
                .unwrap()
                .starts_with(v.split(':').next().unwrap()),
            "{v}"
        );
        assert!(!g["legal_moves"].as_array().unwrap().is_empty(), "{v}");
        let cells = g["cells"].as_str().unwrap();
        assert_eq!(
            cells.len() as u64,
            g["width"].as_u64().unwrap() * g["height"].as_u64().unwrap()
        );
    }
}

#[tokio::test]
async fn pages_and_rate_limit() {
    let app = new_app("sqlite::memory:").await;
    for path in ["/", "/game/abc", "/static/app.js", "/static/app.css"] {
        let r = call(&app, Method::GET, path, None, None).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
    }
    let r = call(&app, Method::GET, "/", None, None).await;
    assert!(r.text.contains("<html") && r.text.contains("/static/app.js"));
    // The home page offers every preset of RULES.md §4, in English and Russian.
    let js = call(&app, Method::GET, "/static/app.js", None, None).await.text;
    for v in [
        "othello",
        "nxn:",
        "nxn-parallel:",
        "grand",
        "eight-stars",
        "black-hole",
        "anti",
        "xot",
        "reversi-1880",
        "reversi-1880:white",
    ] {
        assert!(js.contains(&format!("'{v}")), "{v}");
    }
    assert!(js.contains("ru: {") && js.contains("en: {") && js.contains("localStorage"));

    let mut cfg = config("sqlite::memory:");
    cfg.rate_per_sec = 0.01;
    cfg.rate_burst = 3.0;
    let app = app_with(cfg).await;
    for _ in 0..3 {
        assert_eq!(
            call(&app, Method::GET, "/api/games", None, None).await.status,
            StatusCode::OK
        );
    }
    let r = call(&app, Method::GET, "/api/games", None, None).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(r.json["code"], "rate_limited");
}

async fn app_with(cfg: Config) -> Router {
    app(AppState::new(cfg).await.unwrap())
}

/// The suite on an in-memory SQLite database.
mod sqlite {
    #[tokio::test]
    async fn create_get_and_play_against_the_computer() {
        super::create_get_and_play_against_the_computer("sqlite::memory:".into()).await
    }
    #[tokio::test]
    async fn bad_requests_get_clear_errors() {
        super::bad_requests_get_clear_errors("sqlite::memory:".into()).await
    }
    #[tokio::test]
    async fn undo_hint_list_and_a_full_game_on_one_device() {
        super::undo_hint_list_and_a_full_game_on_one_device("sqlite::memory:".into()).await
    }
    #[tokio::test]
    async fn every_preset_starts() {
        super::every_preset_starts("sqlite::memory:".into()).await
    }
}

/// The same suite on PostgreSQL.
mod postgres {
    #[tokio::test]
    async fn create_get_and_play_against_the_computer() {
        if let Some(url) = super::pg_url().await {
            super::create_get_and_play_against_the_computer(url).await
        }
    }
    #[tokio::test]
    async fn bad_requests_get_clear_errors() {
        if let Some(url) = super::pg_url().await {
            super::bad_requests_get_clear_errors(url).await
        }
    }
    #[tokio::test]
    async fn undo_hint_list_and_a_full_game_on_one_device() {
        if let Some(url) = super::pg_url().await {
            super::undo_hint_list_and_a_full_game_on_one_device(url).await
        }
    }
    #[tokio::test]
    async fn every_preset_starts() {
        if let Some(url) = super::pg_url().await {
            super::every_preset_starts(url).await
        }
    }
}
