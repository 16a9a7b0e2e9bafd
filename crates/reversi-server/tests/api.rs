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

#[macro_use]
mod common;

fn config(db: &str) -> Config {
    Config {
        database_url: db.to_string(),
        ai_workers: 2,
        hash_mib: 1,
        ai_time_scale: 0.25,
        rate_per_sec: 10_000.0,
        rate_burst: 10_000.0,
        analysis_level: 4,
        analysis_budget: std::time::Duration::from_secs(20),
        ..Config::default()
    }
}

async fn new_app(db: &str) -> Router {
    app(AppState::new(config(db)).await.unwrap())
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

    // Until the friend has joined, the game does not start: no move, no resignation.
    let r = call(&app, Method::POST, &moves, Some(&black), Some(r#"{"move":"d3"}"#)).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(&black),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);

    // The seat is kept for the holder of the invite link: the game's id alone is not enough.
    let join = format!("/api/games/{id}/join");
    let r = call(&app, Method::POST, &join, None, None).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    let r = call(&app, Method::POST, &join, None, Some(r#"{"invite":"guess"}"#)).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    // Only seat holders learn the secret.
    let r = call(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert!(r.json.get("invite").is_none(), "{}", r.text);
    let r = call(&app, Method::GET, &format!("/api/games/{id}"), Some(&black), None).await;
    let invite = r.json["invite"]
        .as_str()
        .expect("the creator sees the invite")
        .to_string();
    // A friend joins by the invite link and gets the other seat; a third visitor only watches.
    let body = json!({ "invite": invite }).to_string();
    let r = call(&app, Method::POST, &join, None, Some(&body)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.json.get("invite").is_none(), "no seat is free any more");
    assert_eq!(r.json["you"], json!(["white"]));
    let white = r.json["token"].as_str().unwrap().to_string();
    let r = call(&app, Method::POST, &join, None, Some(&body)).await;
    assert_eq!(r.status, StatusCode::CONFLICT);

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
    // No engine help between people, for either player.
    for t in [&black, &white] {
        let r = call(&app, Method::GET, &format!("/api/games/{id}/hint"), Some(t), None).await;
        assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    }
    let r = call(&app, Method::POST, &resign, Some(&white), None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json["game"]["status"], "finished");
    assert_eq!(r.json["game"]["result"]["winner"], "black");
    assert_eq!(r.json["game"]["result"]["ending"], "resigned");
    // RULES.md §6: Black leads 4–1, so the board count stands with the empties to Black.
    assert_eq!(r.json["game"]["result"]["black"], 63);
    assert_eq!(r.json["game"]["result"]["white"], 1);
    assert_eq!(r.json["game"]["result"]["black_margin"], 62);
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
    let typed: reversi_site_api::GameList = serde_json::from_value(r.json.clone()).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), r.json);
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

/// Plays a game on one device (a `local` token) to the end with the first legal move each
/// time; returns the final game.
async fn play_out(app: &Router, id: &str, token: &str, mut game: Value) -> Value {
    let mut n = 0;
    while game["status"] == "playing" {
        let mv = first_legal(&game);
        let r = call(
            app,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(token),
            Some(&json!({ "move": mv, "ply": game["ply"] }).to_string()),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        game = r.json["game"].clone();
        n += 1;
        assert!(n < 300, "the game does not end");
    }
    game
}

/// A finished game on one device: (id, token, final game).
async fn finished_local_game(app: &Router, variant: &str) -> (String, String, Value) {
    let (id, token, created) = create(app, json!({"mode": "local", "variant": variant})).await;
    let game = play_out(app, &id, &token, created["game"].clone()).await;
    (id, token, game)
}

async fn archive_lists_finished_games_newest_first(db: String) {
    let app = new_app(&db).await;
    let mut finished = Vec::new();
    for v in ["nxn:4", "nxn:6", "nxn-parallel:4"] {
        let (id, _, game) = finished_local_game(&app, v).await;
        finished.push((id, game));
        // Games ending in the same millisecond would tie.
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let (playing, _, _) = create(&app, json!({"mode": "local", "variant": "nxn:4"})).await;

    let r = call(&app, Method::GET, "/api/games?status=finished", None, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["total"], 3);
    let list = r.json["games"].as_array().unwrap();
    let ids: Vec<&str> = list.iter().map(|g| g["id"].as_str().unwrap()).collect();
    let newest_first: Vec<&str> = finished.iter().rev().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, newest_first);
    for (g, (_, game)) in list.iter().zip(finished.iter().rev()) {
        assert_eq!(g["status"], "finished");
        assert_eq!(g["variant"], game["variant"]);
        assert_eq!(g["mode"], "local");
        assert_eq!(
            (g["black"].as_str(), g["white"].as_str()),
            (Some("human"), Some("human"))
        );
        assert_eq!(g["black_count"], game["result"]["black"]);
        assert_eq!(g["white_count"], game["result"]["white"]);
        assert_eq!(g["winner"], game["result"]["winner"]);
        assert_eq!(g["move_count"], game["ply"]);
        assert_eq!(g["analysis"], "none");
        let done = g["finished_at"].as_i64().unwrap();
        assert!(done >= g["created_at"].as_i64().unwrap(), "{g}");
    }
    // Pages.
    let r = call(
        &app,
        Method::GET,
        "/api/games?status=finished&offset=1&limit=1",
        None,
        None,
    )
    .await;
    assert_eq!(r.json["total"], 3);
    assert_eq!(r.json["offset"], 1);
    let page: Vec<&str> = r.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(page, vec![newest_first[1]]);
    let r = call(
        &app,
        Method::GET,
        "/api/games?status=finished&offset=3",
        None,
        None,
    )
    .await;
    assert_eq!(r.json["games"], json!([]));
    // The game still being played is not in the archive, only in its own list.
    let r = call(&app, Method::GET, "/api/games?status=playing", None, None).await;
    assert_eq!(r.json["total"], 1);
    assert_eq!(r.json["games"][0]["id"], playing.as_str());
    assert_eq!(r.json["games"][0]["finished_at"], Value::Null);
    let r = call(&app, Method::GET, "/api/games?offset=-1", None, None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}

async fn replay_has_every_position(db: String) {
    let app = new_app(&db).await;
    let (id, token, created) = create(&app, json!({"mode": "local"})).await;
    let start_cells = created["game"]["cells"].clone();
    let mut game = created["game"].clone();
    for _ in 0..9 {
        let mv = first_legal(&game);
        let r = call(
            &app,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(&token),
            Some(&json!({ "move": mv }).to_string()),
        )
        .await;
        game = r.json["game"].clone();
    }
    let r = call(&app, Method::GET, &format!("/api/games/{id}/replay"), None, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let rp = &r.json;
    assert_eq!(rp["id"], id.as_str());
    assert_eq!(rp["moves"], game["moves"]);
    let frames = rp["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 10);
    assert_eq!(frames[0]["cells"], start_cells);
    assert_eq!(frames[0]["last_move"], Value::Null);
    assert_eq!(frames[0]["to_move"], "black");
    // The first move, d4 flipped by d3 (the first legal move from the start).
    assert_eq!(frames[1]["last_move"], "d3");
    assert_eq!(frames[1]["flipped"], json!(["d4"]));
    assert_eq!(
        (
            frames[1]["black_count"].as_u64(),
            frames[1]["white_count"].as_u64()
        ),
        (Some(4), Some(1))
    );
    assert_eq!(frames[1]["to_move"], "white");
    for (k, f) in frames.iter().enumerate().skip(1) {
        assert_eq!(f["last_move"], game["moves"][k - 1], "ply {k}");
        let cells = f["cells"].as_str().unwrap();
        let (b, w) = (cells.matches('X').count(), cells.matches('O').count());
        assert_eq!(
            (f["black_count"].as_u64(), f["white_count"].as_u64()),
            (Some(b as u64), Some(w as u64))
        );
        assert_eq!(b + w, 4 + k, "one disc more each move");
    }
    assert_eq!(frames[9]["cells"], game["cells"]);
    assert_eq!(frames[9]["flipped"], game["flipped"]);
    let r = call(&app, Method::GET, "/api/games/nosuchgame/replay", None, None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

/// Polls the analysis of `id` until it is done (or fails the test).
async fn analysis_done(app: &Router, id: &str) -> Value {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(180);
    loop {
        let r = call(app, Method::GET, &format!("/api/games/{id}/analysis"), None, None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        match r.json["status"].as_str() {
            Some("done") => {
                common::round_trip::<reversi_site_api::GameAnalysis>(&r.json);
                return r.json;
            }
            Some("queued") | Some("running") => {}
            other => panic!("analysis status {other:?}: {}", r.text),
        }
        assert!(
            std::time::Instant::now() < end,
            "the analysis did not end: {}",
            r.text
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Checks an analysis against its game: one entry per move played (passes aside), each
/// for the player who made it, with loss = best - played >= 0, and the last move's score the
/// final result.
fn check_analysis(a: &Value, game: &Value, replay: &Value) {
    let moves = game["moves"].as_array().unwrap();
    let played: Vec<(usize, &Value)> = moves.iter().enumerate().filter(|(_, m)| *m != "pass").collect();
    let entries = a["moves"].as_array().unwrap();
    assert_eq!(entries.len(), played.len(), "{a}");
    assert_eq!(a["progress"]["done"], played.len());
    assert_eq!(a["progress"]["total"], played.len());
    let mut loss = [0i64; 2];
    for (e, (i, mv)) in entries.iter().zip(&played) {
        assert_eq!(e["ply"], i + 1);
        assert_eq!(&e["played"], *mv);
        assert_eq!(e["player"], replay["frames"][*i]["to_move"], "ply {}", i + 1);
        let (p, b, l) = (
            e["played_score"].as_i64().unwrap(),
            e["best_score"].as_i64().unwrap(),
            e["loss"].as_i64().unwrap(),
        );
        assert!(l >= 0 && l == b - p, "{e}");
        // The coach's first sentence is the loss (with the best move) or the praise.
        let first = &e["facts"][0];
        if l == 0 {
            assert!(b == p, "{e}");
            assert!(
                ["coach-best", "coach-as-good"].contains(&first["id"].as_str().unwrap()),
                "{e}"
            );
        } else {
            assert_ne!(e["best"], e["played"], "{e}");
            assert_eq!(first["id"], "coach-loss", "{e}");
            assert_eq!(
                (&first["args"]["discs"], &first["args"]["best"]),
                (&e["loss"], &e["best"]),
                "{e}"
            );
        }
        assert!(e["facts"].as_array().unwrap().len() <= 4, "{e}");
        loss[(e["player"] == "white") as usize] += l;
    }
    // After the last move the game is over: its score is the final margin, exactly.
    let last = entries.last().unwrap();
    assert_eq!(last["exact"], true, "{last}");
    let margin = game["result"]["black_margin"].as_i64().unwrap();
    let mover_margin = if last["player"] == "black" {
        margin
    } else {
        -margin
    };
    assert_eq!(last["played_score"].as_i64().unwrap(), mover_margin, "{last}");
    let scores = a["black_scores"].as_array().unwrap();
    assert_eq!(scores.len(), entries.len());
    assert_eq!(scores.last().unwrap().as_i64().unwrap(), margin);
    assert_eq!(a["summary"]["black"]["total_loss"].as_i64().unwrap(), loss[0]);
    assert_eq!(a["summary"]["white"]["total_loss"].as_i64().unwrap(), loss[1]);
    let black_moves = entries.iter().filter(|e| e["player"] == "black").count();
    assert_eq!(a["summary"]["black"]["moves"], black_moves);
    for c in ["black", "white"] {
        let worst = a["summary"][c]["worst"].as_array().unwrap();
        let mut mine: Vec<i64> = entries
            .iter()
            .filter(|e| e["player"] == c && e["loss"].as_i64().unwrap() > 0)
            .map(|e| e["loss"].as_i64().unwrap())
            .collect();
        mine.sort_unstable_by(|a, b| b.cmp(a));
        mine.truncate(3);
        let got: Vec<i64> = worst.iter().map(|w| w["loss"].as_i64().unwrap()).collect();
        assert_eq!(got, mine, "{c}");
    }
}

async fn analysis_of_a_finished_game(db: String) {
    let app = new_app(&db).await;
    // Not before the end, and not of unknown games.
    let (id, token, created) = create(&app, json!({"mode": "local"})).await;
    let path = format!("/api/games/{id}/analysis");
    let r = call(&app, Method::POST, &path, None, None).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "not_finished");
    assert!(
        r.json["error"].as_str().unwrap().contains("not finished"),
        "{}",
        r.text
    );
    let r = call(&app, Method::GET, &path, None, None).await;
    assert_eq!(r.json["status"], "none");
    assert_eq!(r.json["moves"], json!([]));
    let r = call(
        &app,
        Method::GET,
        &format!("/api/games/{id}/chart.svg"),
        None,
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    let r = call(&app, Method::POST, "/api/games/nosuchgame/analysis", None, None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(r.json["code"], "not_found");
    let r = call(&app, Method::GET, "/api/games/nosuchgame/analysis", None, None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);

    // A whole standard game; anyone may ask (the archive is public), twice is once.
    let game = play_out(&app, &id, &token, created["game"].clone()).await;
    let r = call(&app, Method::POST, &path, None, None).await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
    assert!(["queued", "running", "done"].contains(&r.json["status"].as_str().unwrap()));
    let r = call(&app, Method::POST, &path, None, None).await;
    assert_eq!(r.status, StatusCode::ACCEPTED);
    let a = analysis_done(&app, &id).await;
    let replay = call(&app, Method::GET, &format!("/api/games/{id}/replay"), None, None)
        .await
        .json;
    check_analysis(&a, &game, &replay);
    assert_eq!(a["level"], 4);
    // Always the first legal move is no way to play: the engine finds mistakes.
    let lost = a["summary"]["black"]["total_loss"].as_i64().unwrap()
        + a["summary"]["white"]["total_loss"].as_i64().unwrap();
    assert!(lost > 0, "{a}");
    // Asking again leaves the stored analysis as it is.
    let r = call(&app, Method::POST, &path, None, None).await;
    assert_eq!(r.json["status"], "done");
    assert_eq!(r.json["moves"], a["moves"]);
    let r = call(&app, Method::GET, "/api/games?status=finished", None, None).await;
    assert_eq!(r.json["games"][0]["analysis"], "done");

    // The chart draws the stored scores: one point per move, the largest mistakes circled.
    let r = call(
        &app,
        Method::GET,
        &format!("/api/games/{id}/chart.svg"),
        None,
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers[header::CONTENT_TYPE], "image/svg+xml");
    assert!(
        r.text.starts_with("<svg") || r.text.starts_with("<?xml"),
        "{}",
        &r.text[..100]
    );
    assert!(r.text.contains("Evaluation after each move"));
    let n = a["moves"].as_array().unwrap().len();
    let line = r
        .text
        .split("<path d=\"")
        .map(|p| p.split('"').next().unwrap())
        .find(|d| !d.ends_with('Z') && d.starts_with("M "))
        .expect("the score line");
    assert_eq!(line.matches(" L ").count(), n, "{line}");
    let mistakes = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["loss"].as_i64().unwrap() > 0)
        .count();
    assert_eq!(r.text.matches("id=\"mark-").count(), mistakes.min(5));
    let r = call(
        &app,
        Method::GET,
        &format!("/api/games/{id}/chart.svg?lang=ru"),
        None,
        None,
    )
    .await;
    assert!(r.text.contains("Оценка после каждого хода"));
    let r = call(
        &app,
        Method::GET,
        &format!("/api/games/{id}/chart.svg?lang=fr"),
        None,
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);

    // A game resigned before any move: nothing to analyse, done at once, an empty chart.
    let (id, token, _) = create(&app, json!({"mode": "local"})).await;
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(r.json["game"]["status"], "finished");
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/analysis"),
        None,
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::ACCEPTED);
    let a = analysis_done(&app, &id).await;
    assert_eq!(a["moves"], json!([]));
    assert_eq!(a["progress"], json!({"done": 0, "total": 0}));
    let r = call(
        &app,
        Method::GET,
        &format!("/api/games/{id}/chart.svg"),
        None,
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);

    // Other variants go through the engine's general search.
    for v in ["nxn:6", "anti"] {
        let (id, _, game) = finished_local_game(&app, v).await;
        let r = call(
            &app,
            Method::POST,
            &format!("/api/games/{id}/analysis"),
            None,
            None,
        )
        .await;
        assert_eq!(r.status, StatusCode::ACCEPTED, "{v}: {}", r.text);
        let a = analysis_done(&app, &id).await;
        let replay = call(&app, Method::GET, &format!("/api/games/{id}/replay"), None, None)
            .await
            .json;
        check_analysis(&a, &game, &replay);
    }
}

async fn rematch_swaps_colours(db: String) {
    let app = new_app(&db).await;
    // Against the computer: the person played black, now white; the computer opens.
    let (id, token, created) = create(&app, json!({"mode": "ai", "level": 1, "variant": "nxn:4"})).await;
    let path = format!("/api/games/{id}/rematch");
    let r = call(&app, Method::POST, &path, Some(&token), None).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "not before the end: {}", r.text);
    assert_eq!(r.json["code"], "not_finished");
    let mut game = created["game"].clone();
    while game["status"] == "playing" {
        let r = call(
            &app,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(&token),
            Some(&json!({ "move": first_legal(&game) }).to_string()),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        game = r.json["game"].clone();
    }
    let r = call(&app, Method::POST, &path, None, None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let r = call(&app, Method::POST, &path, Some("not-a-seat"), None).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = call(
        &app,
        Method::POST,
        "/api/games/nosuchgame/rematch",
        Some(&token),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = call(&app, Method::POST, &path, Some(&token), None).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let new = r.json["game"].clone();
    let new_id = new["id"].as_str().unwrap().to_string();
    let new_token = r.json["token"].as_str().unwrap().to_string();
    assert_ne!(new_id, id);
    assert_ne!(new_token, token);
    assert!(r.headers[header::SET_COOKIE]
        .to_str()
        .unwrap()
        .starts_with(&format!("rv_{new_id}={new_token}")));
    assert_eq!(r.json["you"], json!(["white"]));
    assert_eq!(new["variant"], "nxn:4");
    assert_eq!(
        (new["mode"].as_str(), new["level"].as_u64()),
        (Some("ai"), Some(1))
    );
    assert_eq!(new["players"], json!({"black": "ai", "white": "human"}));
    // Asking again gives the same game; the old one names it.
    let r = call(&app, Method::POST, &path, Some(&token), None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json["game"]["id"], new_id.as_str());
    assert_eq!(r.json["token"], new_token.as_str());
    let r = call(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(r.json["game"]["rematch"], new_id.as_str());
    // The computer, now black, opens the new game.
    let mut ok = false;
    for _ in 0..1000 {
        let r = call(
            &app,
            Method::GET,
            &format!("/api/games/{new_id}"),
            Some(&new_token),
            None,
        )
        .await;
        if r.json["game"]["ply"].as_u64().unwrap() >= 1 && r.json["game"]["to_move"] == "white" {
            ok = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(ok, "the computer did not open the rematch");

    // Between friends (an XOT game: the same opening again): each gets the other colour.
    let (id, black, created) = create(&app, json!({"mode": "friend", "variant": "xot"})).await;
    let variant = created["game"]["variant"].as_str().unwrap().to_string();
    assert!(variant.starts_with("xot:"), "{variant}");
    let body = json!({ "invite": created["invite"] }).to_string();
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        Some(&body),
    )
    .await;
    let white = r.json["token"].as_str().unwrap().to_string();
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(&white),
        None,
    )
    .await;
    assert_eq!(r.json["game"]["status"], "finished");
    let path = format!("/api/games/{id}/rematch");
    let r = call(&app, Method::POST, &path, Some(&black), None).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["you"], json!(["white"]));
    let new_id = r.json["game"]["id"].as_str().unwrap().to_string();
    let new_white = r.json["token"].as_str().unwrap().to_string();
    assert_eq!(r.json["game"]["variant"], variant.as_str());
    assert_eq!(r.json["game"]["mode"], "friend");
    assert_eq!(
        r.json["game"]["seats_taken"],
        json!({"black": true, "white": true})
    );
    let r = call(&app, Method::POST, &path, Some(&white), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["game"]["id"], new_id.as_str());
    assert_eq!(r.json["you"], json!(["black"]));
    let new_black = r.json["token"].as_str().unwrap().to_string();
    assert_ne!(new_black, new_white);
    // The new seats play: black (white before) moves first.
    let g = r.json["game"].clone();
    assert_eq!(g["to_move"], "black");
    let moves = format!("/api/games/{new_id}/moves");
    let body = json!({ "move": first_legal(&g) }).to_string();
    let r = call(&app, Method::POST, &moves, Some(&new_white), Some(&body)).await;
    assert_eq!(r.json["code"], "not_your_turn");
    let r = call(&app, Method::POST, &moves, Some(&new_black), Some(&body)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // Nobody else gets a seat in it: a spectator of the old game, or a late joiner.
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{new_id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    let r = call(&app, Method::POST, &path, Some(&new_black), None).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);

    // On one device: one token, both colours again.
    let (id, token, _) = finished_local_game(&app, "nxn:4").await;
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/rematch"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["you"], json!(["black", "white"]));
    assert_eq!(r.json["game"]["mode"], "local");
}

async fn rules_of_every_variant_in_both_languages(db: String) {
    let app = new_app(&db).await;
    for v in [
        "othello",
        "nxn:4",
        "nxn:6",
        "nxn:10",
        "nxn:12",
        "nxn:14",
        "nxn:16",
        "nxn-parallel:4",
        "nxn-parallel:6",
        "nxn-parallel:8",
        "nxn-parallel:10",
        "grand",
        "eight-stars",
        "black-hole",
        "black-hole:c3",
        "anti",
        "xot",
        "xot:5",
        "reversi-1880",
        "reversi-1880:white",
    ] {
        for lang in ["en", "ru"] {
            let r = call(
                &app,
                Method::GET,
                &format!("/api/rules/{v}?lang={lang}"),
                None,
                None,
            )
            .await;
            assert_eq!(r.status, StatusCode::OK, "{v} {lang}: {}", r.text);
            let j = &r.json;
            assert_eq!(j["lang"], lang);
            assert_eq!(j["variant"], v);
            let paragraphs: Vec<&str> = j["paragraphs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap())
                .collect();
            assert!(paragraphs.len() >= 5, "{v} {lang}");
            let text = paragraphs.join(" ");
            let cyrillic = text.chars().filter(|c| ('а'..='я').contains(c)).count();
            if lang == "ru" {
                assert!(cyrillic > 100, "{v}: {text}");
            } else {
                assert_eq!(cyrillic, 0, "{v}: {text}");
            }
            let (w, h) = (j["width"].as_u64().unwrap(), j["height"].as_u64().unwrap());
            let cells = j["cells"].as_str().unwrap();
            assert_eq!(cells.len() as u64, w * h, "{v}");
            assert!(!j["title"].as_str().unwrap().is_empty());
            // What each variant is about is in its text.
            match v {
                "anti" => assert!(text.contains(if lang == "en" { "FEWER" } else { "МЕНЬШЕ" })),
                "grand" | "nxn:10" => assert_eq!((w, h), (10, 10)),
                "eight-stars" => assert_eq!(cells.matches('#').count(), 12),
                "black-hole:c3" => {
                    assert_eq!(j["example_of"], Value::Null);
                    // Column c, row 3 (rows are numbered downwards from a1).
                    assert_eq!(&cells[2 * 8 + 2..2 * 8 + 3], "#", "{cells}");
                    assert!(text.contains("c3"));
                }
                "black-hole" => {
                    let ex = j["example_of"].as_str().unwrap();
                    assert!(ex.starts_with("black-hole:"), "{ex}");
                    assert!(text.contains(&ex["black-hole:".len()..]), "{text}");
                    assert_eq!(cells.matches('#').count(), 1);
                }
                "xot" => assert!(j["example_of"].as_str().unwrap().starts_with("xot:")),
                "reversi-1880" => {
                    assert_eq!(cells.matches('.').count(), 64, "an empty board");
                    assert!(text.contains("32"));
                }
                "othello" => {
                    assert_eq!(j["example_of"], Value::Null);
                    assert_eq!(j["to_move"], "black");
                    assert!(text.contains("d5") && text.contains("e4"), "{text}");
                }
                _ => {}
            }
        }
    }
    let r = call(&app, Method::GET, "/api/rules/othello", None, None).await;
    assert_eq!(r.json["lang"], "en");
    let r = call(&app, Method::GET, "/api/rules/chess?lang=en", None, None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.json["error"].as_str().unwrap().contains("variant"));
    let r = call(&app, Method::GET, "/api/rules/othello?lang=fr", None, None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}

/// The game and its replay name the opening the moves went through, ply by ply, in both
/// languages; a transposition or another orientation gets the same name.
#[tokio::test]
async fn openings_are_named_ply_by_ply() {
    let app = new_app("sqlite::memory:").await;
    // The Tiger, f5d6c3d3c4, played from the other first move (its mirror image).
    let (id, token, _) = create(&app, json!({"mode": "local"})).await;
    let mut game = Value::Null;
    for mv in ["c4", "e3", "f6", "e6", "f5"] {
        let r = call(
            &app,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(&token),
            Some(&json!({ "move": mv }).to_string()),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        game = r.json["game"].clone();
    }
    let marks = game["openings"].as_array().unwrap();
    let last = marks.last().unwrap();
    assert_eq!(
        (last["ply"].clone(), last["en"].clone(), last["ru"].clone()),
        (json!(5), json!("Tiger"), json!("Тигр"))
    );
    assert_eq!(marks[0]["ply"], 2, "c4e3 is the perpendicular opening: {marks:?}");
    let r = call(&app, Method::GET, &format!("/api/games/{id}/replay"), None, None).await;
    assert_eq!(r.json["openings"], game["openings"]);
    // Another variant has no names.
    let (id, token, created) = create(&app, json!({"mode": "local", "variant": "nxn:6"})).await;
    let mv = first_legal(&created["game"]);
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&token),
        Some(&json!({ "move": mv }).to_string()),
    )
    .await;
    assert_eq!(r.json["game"]["openings"], json!([]));
}

/// Pasted games become replays; bad ones say what and where.
#[tokio::test]
async fn imported_games_get_replays() {
    let app = new_app("sqlite::memory:").await;
    let start = "BO[8 ---------------------------O*------*O--------------------------- *]";
    let text = format!("(;GM[Othello]PB[a]PW[b]TY[8]{start}B[c4]W[e3]B[f6]W[e6]B[f5];)\n(;GM[Othello]PB[c]PW[d]TY[8]{start}B[f5]W[d6];)");
    let r = call(
        &app,
        Method::POST,
        "/api/import",
        None,
        Some(&json!({ "text": text }).to_string()),
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    common::round_trip::<reversi_site_api::Imported>(&r.json);
    let games = r.json["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(
        (games[0]["moves"].clone(), games[0]["opening"].clone()),
        (json!(5), json!("Tiger"))
    );
    let id = games[1]["id"].as_str().unwrap();
    let r = call(&app, Method::GET, &format!("/api/games/{id}/replay"), None, None).await;
    assert_eq!(r.json["moves"], json!(["f5", "d6"]));
    let r = call(
        &app,
        Method::POST,
        "/api/import",
        None,
        Some(&json!({ "text": "f5d6\nf5f5" }).to_string()),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(
        r.json["error"].as_str().unwrap().starts_with("line 2:"),
        "{}",
        r.text
    );
}

#[tokio::test]
async fn pages_and_rate_limit() {
    let app = new_app("sqlite::memory:").await;
    for path in [
        "/",
        "/game/abc",
        "/archive",
        "/replay/abc",
        "/rules",
        "/rules/nxn:6",
        "/static/js/app.js",
        "/static/css/site.css",
        "/static/vendor/fluent-bundle.js",
        "/favicon.svg",
        "/favicon.ico",
        "/api/i18n/en",
        "/api/i18n/ru",
    ] {
        let r = call(&app, Method::GET, path, None, None).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
    }
    let r = call(&app, Method::GET, "/", None, None).await;
    assert!(r.text.contains("<html") && r.text.contains("/js/app.js"));
    let ico = call(&app, Method::GET, "/favicon.ico", None, None).await;
    assert_eq!(ico.headers[header::CONTENT_TYPE], "image/x-icon");
    // The messages come from the Fluent files, in both languages.
    let ru = call(&app, Method::GET, "/api/i18n/ru", None, None).await;
    assert_eq!(ru.json["lang"], "ru");
    assert!(ru.json["ftl"].as_str().unwrap().contains("web-title = Реверси"));
    let bad = call(&app, Method::GET, "/api/i18n/fr", None, None).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    // The home page offers every preset of RULES.md §4 (the list comes from the server's
    // module of the site's choices).
    let home = call(&app, Method::GET, "/static/js/pages/home.js", None, None)
        .await
        .text;
    assert!(home.contains("META.variants"));
    let js = call(&app, Method::GET, "/static/js/meta.js", None, None)
        .await
        .text;
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
        assert!(js.contains(&format!("\"{v}")), "{v}");
    }
    // The pages use the API routes that exist.
    let mut all = String::new();
    for f in ["archive", "replay", "game", "rules", "home"] {
        all.push_str(
            &call(&app, Method::GET, &format!("/static/js/pages/{f}.js"), None, None)
                .await
                .text,
        );
    }
    for route in [
        "/api/games?status=finished&offset=",
        "/replay`",
        "/analysis`",
        "/chart.svg?lang=",
        "/api/rules/",
        "/rematch`",
        "/abort`",
        "/join`",
        "/api/games?ids=",
    ] {
        assert!(all.contains(route), "{route}");
    }
    // A visitor's own games, by id.
    let (id, _, _) = create(&app, json!({"mode": "local"})).await;
    let r = call(
        &app,
        Method::GET,
        &format!("/api/games?ids={id},nosuch"),
        None,
        None,
    )
    .await;
    assert_eq!(r.json["games"].as_array().unwrap().len(), 1);
    assert_eq!(r.json["games"][0]["id"], id.as_str());
    let many: Vec<String> = (0..51).map(|i| format!("g{i}")).collect();
    let r = call(
        &app,
        Method::GET,
        &format!("/api/games?ids={}", many.join(",")),
        None,
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);

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

/// A GET with these request headers: (status, headers, body bytes).
async fn get_with(
    app: &Router,
    uri: &str,
    headers: &[(header::HeaderName, &str)],
) -> (StatusCode, HeaderMap, Vec<u8>) {
    let mut req = Request::builder().method(Method::GET).uri(uri);
    for (k, v) in headers {
        req = req.header(k, *v);
    }
    let resp = app
        .clone()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let (status, headers) = (resp.status(), resp.headers().clone());
    (
        status,
        headers,
        resp.into_body().collect().await.unwrap().to_bytes().to_vec(),
    )
}

/// The page names its files by the build's fingerprint; they are cached for good, sent gzipped
/// to a browser that takes gzip, and a repeat visit's revalidation of the page is a bodiless
/// `304`. A repeat visit downloads a few hundred bytes, not the front end again.
#[tokio::test]
async fn the_front_end_is_fingerprinted_compressed_and_revalidated() {
    let app = new_app("sqlite::memory:").await;
    let gzip = [(header::ACCEPT_ENCODING, "gzip, deflate, br")];
    let (status, h, page) = get_with(&app, "/", &gzip).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(h[header::CONTENT_ENCODING], "gzip");
    assert_eq!(h[header::CACHE_CONTROL], "no-cache");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&page[..]), &mut text).unwrap();
    let app_js = text
        .split('"')
        .find(|s| s.starts_with("/static/") && s.ends_with("/js/app.js"))
        .expect("the page loads app.js")
        .to_string();
    assert_ne!(app_js, "/static/js/app.js", "the module is fingerprinted");
    // The fingerprinted module and a page module it loads on demand: cached for a year.
    let pages = app_js.replace("/js/app.js", "/js/pages/game.js");
    for uri in [&app_js, &pages] {
        let (status, h, body) = get_with(&app, uri, &gzip).await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        assert!(
            h[header::CACHE_CONTROL].to_str().unwrap().contains("immutable"),
            "{uri}"
        );
        assert_eq!(h[header::CONTENT_ENCODING], "gzip", "{uri}");
        assert_eq!(h[header::VARY], "Accept-Encoding");
        let plain = call(&app, Method::GET, uri, None, None).await;
        assert!(
            body.len() * 2 < plain.text.len(),
            "{uri}: {} of {}",
            body.len(),
            plain.text.len()
        );
        assert!(
            plain.headers.get(header::CONTENT_ENCODING).is_none(),
            "no gzip unasked"
        );
    }
    // The page again, with its tag: 304, no body.
    let tag = h[header::ETAG].to_str().unwrap().to_string();
    let (status, h2, body) = get_with(&app, "/", &[(header::IF_NONE_MATCH, tag.as_str())]).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert!(body.is_empty());
    assert_eq!(h2[header::ETAG], tag.as_str());
    // The words too; a stale tag gets the file.
    let (_, h, _) = get_with(&app, "/api/i18n/ru", &gzip).await;
    let words_tag = h[header::ETAG].to_str().unwrap().to_string();
    let (status, _, _) = get_with(
        &app,
        "/api/i18n/ru",
        &[(header::IF_NONE_MATCH, words_tag.as_str())],
    )
    .await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    let (status, _, body) = get_with(&app, "/api/i18n/ru", &[(header::IF_NONE_MATCH, "\"old\"")]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!body.is_empty());
    // A page loaded before an upgrade asks with its old fingerprint: it gets today's file.
    let (status, h, _) = get_with(&app, "/static/0000000000000000/js/app.js", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(h[header::CACHE_CONTROL], "no-cache");
    let (status, _, _) = get_with(&app, "/static/0000000000000000/js/none.js", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

async fn app_with(cfg: Config) -> Router {
    app(AppState::new(cfg).await.unwrap())
}

async fn finished_games_are_final_and_early_games_can_be_aborted(db: String) {
    let app = new_app(&db).await;
    // A game against the computer played to the end (4×4 at level 1 is quick).
    let (id, token, created) = create(&app, json!({"level": 1, "variant": "nxn:4"})).await;
    let game = play_out(&app, &id, &token, created["game"].clone()).await;
    assert_eq!(game["status"], "finished");
    let analysis = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/analysis"),
        None,
        None,
    )
    .await;
    assert_eq!(analysis.status, StatusCode::ACCEPTED);
    // Undo, hints and abort do not reopen or touch it.
    for (method, action) in [
        (Method::POST, "undo"),
        (Method::GET, "hint"),
        (Method::POST, "abort"),
    ] {
        let r = call(
            &app,
            method,
            &format!("/api/games/{id}/{action}"),
            Some(&token),
            None,
        )
        .await;
        assert_eq!(r.status, StatusCode::CONFLICT, "{action}: {}", r.text);
        assert_eq!(r.json["code"], "game_over", "{action}");
    }
    let r = call(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(r.json["game"]["status"], "finished");
    assert_eq!(r.json["game"]["ply"], game["ply"]);
    assert_ne!(
        call(
            &app,
            Method::GET,
            &format!("/api/games/{id}/analysis"),
            None,
            None
        )
        .await
        .json["status"],
        "none",
        "the analysis is kept"
    );

    // Hints only on the person's own turn (the rule itself is tested in reversi_site's game
    // core; here the computer may move between the two requests, so either answer must agree
    // with whose turn it was).
    let (id, token, _) = create(&app, json!({"level": 1, "color": "white"})).await;
    let hint = call(
        &app,
        Method::GET,
        &format!("/api/games/{id}/hint"),
        Some(&token),
        None,
    )
    .await;
    let after = call(&app, Method::GET, &format!("/api/games/{id}"), Some(&token), None).await;
    if hint.status == StatusCode::OK {
        assert_eq!(after.json["game"]["to_move"], "white", "{}", hint.text);
        assert_eq!(after.json["game"]["ply"], 1, "{}", hint.text);
    } else {
        assert_eq!(hint.json["code"], "not_your_turn", "{}", hint.text);
    }

    // Abort: before the friend joined, and until both sides have moved; not after.
    let (id, black, created) = create(&app, json!({"mode": "friend"})).await;
    assert_eq!(created["game"]["can_abort"], true);
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/abort"),
        Some(&black),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["game"]["status"], "aborted");
    assert!(r.json["game"]["result"].is_null());
    assert_eq!(r.json["game"]["can_abort"], false);
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        Some(&json!({"invite": created["invite"]}).to_string()),
    )
    .await;
    assert_eq!(
        r.status,
        StatusCode::CONFLICT,
        "an aborted game takes nobody: {}",
        r.text
    );
    assert_eq!(r.json["code"], "game_over");

    let (id, token, created) = create(&app, json!({"mode": "local"})).await;
    let mut game = created["game"].clone();
    for k in 0..2 {
        assert_eq!(game["can_abort"], true, "after {k} moves");
        let body = json!({ "move": first_legal(&game) }).to_string();
        game = call(
            &app,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(&token),
            Some(&body),
        )
        .await
        .json["game"]
            .clone();
    }
    assert_eq!(game["can_abort"], false);
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/abort"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(r.json["code"], "cannot_abort");
    // Spectators cannot abort.
    let (id, _, _) = create(&app, json!({"mode": "local"})).await;
    let r = call(&app, Method::POST, &format!("/api/games/{id}/abort"), None, None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);

    // Aborted games are not in the archive.
    let r = call(
        &app,
        Method::GET,
        "/api/games?status=finished&limit=200",
        None,
        None,
    )
    .await;
    assert!(r.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["status"] == "finished"));
}

async fn abandoned_games_are_closed(db: String) {
    let state = AppState::new(Config {
        abandon_after: Some(std::time::Duration::from_secs(1)),
        ..config(&db)
    })
    .await
    .unwrap();
    let app = app(state.clone());
    let (id, _, _) = create(&app, json!({"mode": "friend"})).await;
    let (busy, token, created) = create(&app, json!({"mode": "local"})).await;
    // The sweep runs every quarter of the idle time; a game moved in meanwhile stays open.
    let mut game = created["game"].clone();
    let mut closed = false;
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        if game["status"] == "playing" && !game["legal_moves"].as_array().unwrap().is_empty() {
            let body = json!({ "move": first_legal(&game) }).to_string();
            let r = call(
                &app,
                Method::POST,
                &format!("/api/games/{busy}/moves"),
                Some(&token),
                Some(&body),
            )
            .await;
            if r.status == StatusCode::OK {
                game = r.json["game"].clone();
            }
        }
        let r = call(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
        if r.json["game"]["status"] == "abandoned" {
            closed = true;
            assert!(r.json["game"]["result"].is_null());
            break;
        }
    }
    assert!(closed, "the idle game was closed as abandoned");
}

/// A line of moves on a 4×4 board that fills it 8–8 (the first in square order), passes left
/// out (the server plays them).
fn tie_line_4x4() -> Vec<String> {
    use reversi_core::{AnyPosition, Bits, Color, Move, Rules};
    fn dfs(pos: &AnyPosition, line: &mut Vec<String>) -> bool {
        if pos.is_game_over() {
            return pos.empties().count() == 0 && pos.count(Color::Black) == pos.count(Color::White);
        }
        if pos.must_pass() {
            let mut next = *pos;
            next.play(Move::Pass).unwrap();
            return dfs(&next, line);
        }
        for sq in pos.legal_moves().squares() {
            let mut next = *pos;
            next.play(Move::Play(sq)).unwrap();
            line.push(sq.to_string());
            if dfs(&next, line) {
                return true;
            }
            line.pop();
        }
        false
    }
    let mut line = Vec::new();
    let start = AnyPosition::start(&Rules::new("nxn:4".parse().unwrap(), 0));
    assert!(dfs(&start, &mut line), "a 4×4 game can end 8–8");
    line
}

/// The box edition's tie rule, chosen for a game: shown in its view, kept by its rematch, and
/// an 8–8 finish is the second player's win (a draw without it).
async fn the_tie_rule_decides_a_tie(db: String) {
    let app = new_app(&db).await;
    let line = tie_line_4x4();
    for (tie, winner) in [(Some("second-wins"), json!("white")), (None, Value::Null)] {
        let mut body = json!({"mode": "local", "variant": "nxn:4"});
        if let Some(t) = tie {
            body["tie"] = json!(t);
        }
        let (id, token, created) = create(&app, body).await;
        assert_eq!(created["game"]["tie"], tie.unwrap_or("draw"));
        let mut game = created["game"].clone();
        for mv in &line {
            let r = call(
                &app,
                Method::POST,
                &format!("/api/games/{id}/moves"),
                Some(&token),
                Some(&json!({ "move": mv, "ply": game["ply"] }).to_string()),
            )
            .await;
            assert_eq!(r.status, StatusCode::OK, "{mv}: {}", r.text);
            game = r.json["game"].clone();
        }
        assert_eq!(game["status"], "finished", "{game}");
        let r = &game["result"];
        assert_eq!(
            (
                r["black"].as_u64(),
                r["white"].as_u64(),
                r["black_margin"].as_i64()
            ),
            (Some(8), Some(8), Some(0))
        );
        assert_eq!(r["winner"], winner, "{tie:?}");
        if tie.is_some() {
            let r = call(
                &app,
                Method::POST,
                &format!("/api/games/{id}/rematch"),
                Some(&token),
                None,
            )
            .await;
            assert!(r.status.is_success(), "{}", r.text);
            let again = r.json["game"]["id"].as_str().unwrap().to_string();
            let g = call(
                &app,
                Method::GET,
                &format!("/api/games/{again}"),
                Some(&token),
                None,
            )
            .await;
            assert_eq!(g.json["game"]["tie"], "second-wins", "{}", g.text);
        }
    }
    let r = call(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(&json!({"tie": "coin"}).to_string()),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
}

/// Takebacks between friends over HTTP: asked, declined, asked again, kept across a restart,
/// accepted; refused against the computer.
async fn friends_take_moves_back(db: String) {
    // On a file, so that a second server finds the game (PostgreSQL keeps its schema).
    let dir = tempfile::tempdir().unwrap();
    let db = if db == common::SQLITE {
        format!("sqlite://{}?mode=rwc", dir.path().join("takebacks.db").display())
    } else {
        db
    };
    let app = new_app(&db).await;
    let (id, black, created) = create(&app, json!({"mode": "friend"})).await;
    assert_eq!(created["game"]["takebacks"], true);
    let body = json!({ "invite": created["invite"] }).to_string();
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        Some(&body),
    )
    .await;
    let white = r.json["token"].as_str().unwrap().to_string();
    let post = |path: &'static str, token: String| {
        let app = app.clone();
        let uri = format!("/api/games/{id}{path}");
        async move { call(&app, Method::POST, &uri, Some(&token), None).await }
    };
    let r = post("/takeback", black.clone()).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "nothing_to_undo");
    for (token, mv) in [(&black, "f5"), (&white, "d6"), (&black, "c3")] {
        let body = json!({ "move": mv }).to_string();
        let r = call(
            &app,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(token),
            Some(&body),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let r = post("/takeback", black.clone()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["game"]["takeback"], "black");
    assert_eq!(r.json["game"]["ply"], 3);
    let r = post("/takeback/decline", white.clone()).await;
    assert_eq!(r.json["game"]["takeback"], Value::Null, "{}", r.text);
    let r = post("/takeback/accept", white.clone()).await;
    assert_eq!(r.json["code"], "no_takeback_offer", "{}", r.text);
    let r = post("/takeback", black.clone()).await;
    assert_eq!(r.json["game"]["takeback"], "black", "{}", r.text);
    // The offer is stored with the game: a restarted server still shows it.
    drop(app);
    let app = new_app(&db).await;
    let r = call(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(r.json["game"]["takeback"], "black", "{}", r.text);
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/takeback/accept"),
        Some(&black),
        None,
    )
    .await;
    assert_eq!(
        r.json["code"], "no_takeback_offer",
        "the asker cannot accept: {}",
        r.text
    );
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/takeback/accept"),
        Some(&white),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["game"]["moves"], json!(["f5", "d6"]));
    assert_eq!(r.json["game"]["to_move"], "black");
    assert_eq!(r.json["game"]["takeback"], Value::Null);
    let r = call(&app, Method::GET, &format!("/api/games/{id}/replay"), None, None).await;
    assert_eq!(
        r.json["frames"].as_array().unwrap().len(),
        3,
        "the stored moves were taken back"
    );

    let (id, me, _) = create(&app, json!({"mode": "ai", "level": 1})).await;
    let r = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/takeback"),
        Some(&me),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "takeback_not_allowed");
}

on_both_databases!(
    friends_take_moves_back,
    the_tie_rule_decides_a_tie,
    finished_games_are_final_and_early_games_can_be_aborted,
    abandoned_games_are_closed,
    create_get_and_play_against_the_computer,
    bad_requests_get_clear_errors,
    undo_hint_list_and_a_full_game_on_one_device,
    every_preset_starts,
    archive_lists_finished_games_newest_first,
    replay_has_every_position,
    analysis_of_a_finished_game,
    rematch_swaps_colours,
    rules_of_every_variant_in_both_languages,
);

/// `GET /api/meta` lists what the site offers from the rules' own lists, and the front end gets
/// the same object as a module.
#[tokio::test]
async fn the_meta_lists_the_sites_choices_and_limits() {
    let app = new_app("sqlite::memory:").await;
    let r = call(&app, Method::GET, "/api/meta", None, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let pools: Vec<&str> = r.json["pools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["control"].as_str().unwrap())
        .collect();
    assert_eq!(pools, reversi_site::pairing::POOLS);
    assert_eq!(r.json["pools"][0]["category"], "bullet");
    assert_eq!(r.json["categories"].as_array().unwrap().len(), 8);
    assert_eq!(r.json["limits"]["chat_chars"], reversi_site::chat::MAX_CHARS);
    // Every variant offered for a new game starts one.
    for v in r.json["variants"].as_array().unwrap() {
        let (_, _, g) = create(&app, json!({ "mode": "local", "variant": v })).await;
        assert_eq!(g["game"]["status"], "playing", "{v}");
    }
    let m = call(&app, Method::GET, "/static/js/meta.js", None, None).await;
    assert_eq!(m.status, StatusCode::OK);
    assert!(m.headers[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/javascript"));
    let json = m
        .text
        .split("export const META = ")
        .nth(1)
        .unwrap()
        .trim()
        .trim_end_matches(';');
    assert_eq!(serde_json::from_str::<Value>(json).unwrap(), r.json);
}

/// `GET /api/openapi.json` describes the routes that exist, with the shapes the server answers:
/// every documented path and method is routed, and the schema of a game lists exactly the fields
/// a real answer has.
#[tokio::test]
async fn the_openapi_description_matches_the_routes_and_the_answers() {
    let app = new_app("sqlite::memory:").await;
    let r = call(&app, Method::GET, "/api/openapi.json", None, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let doc = r.json;
    assert!(
        doc["openapi"].as_str().unwrap().starts_with("3."),
        "{}",
        doc["openapi"]
    );
    let paths = doc["paths"].as_object().unwrap();
    for wanted in [
        "/api/games",
        "/api/games/{id}/moves",
        "/api/games/{id}/ws",
        "/api/seeks",
        "/api/account/bot",
        "/api/puzzles/{id}/moves",
        "/api/tournaments/{id}",
    ] {
        assert!(paths.contains_key(wanted), "{wanted} is documented");
    }
    let mut checked = 0;
    let mut operation_ids = std::collections::HashSet::new();
    for (path, item) in paths {
        let concrete = path
            .replace("{id}", "zz")
            .replace("{control}", "1+0")
            .replace("{name}", "zz")
            .replace("{category}", "blitz");
        for method in ["get", "post", "delete"] {
            if item.get(method).is_none() {
                continue;
            }
            // Generators name a client's functions by these: each must be unique.
            let op = item[method]["operationId"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            assert!(operation_ids.insert(op.clone()), "operationId {op:?} twice");
            let m = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let got = call(&app, m, &concrete, None, None).await;
            // The catch-all of unknown API paths, or a method the route does not take, would
            // mean the description names something the server does not serve.
            assert!(
                got.status != StatusCode::METHOD_NOT_ALLOWED && got.json["error"] != "no such API endpoint",
                "{method} {path}: {} {}",
                got.status,
                got.text
            );
            checked += 1;
        }
    }
    assert!(checked >= 25, "{checked} operations");
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for name in [
        "GameAnswer",
        "GameView",
        "GameCommand",
        "GameEvent",
        "LobbyEvent",
        "ApiError",
        "NewSeek",
        "PuzzleResult",
        "TournamentView",
    ] {
        assert!(schemas.contains_key(name), "schema {name}");
    }
    assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
    // The schema of a game lists the fields of a game the server sends, no more, no less.
    let (_, _, created) = create(&app, json!({ "mode": "ai", "level": 1 })).await;
    let typed: reversi_site_api::GameAnswer = serde_json::from_value(created.clone()).unwrap();
    assert!(typed.token.is_some());
    let mut sent: Vec<&String> = created["game"].as_object().unwrap().keys().collect();
    let mut described: Vec<&String> = schemas["GameView"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    sent.sort();
    described.sort();
    // `online` is left out of games that are not online ones, `preset` of games not XOT.
    described.retain(|k| *k != "online" && *k != "preset");
    assert_eq!(sent, described);
}
