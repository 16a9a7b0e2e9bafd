//! Running the site as a service: the health checks, the SQLite backup taken while the server
//! plays and its restore (every acknowledged move comes back), and the retention clean-up.

use axum::http::StatusCode;
use reversi_server::db::backup;
use reversi_server::{app, AppState};
use serde_json::{json, Value};

mod online_common;
use online_common::{config, Client};

#[tokio::test]
async fn health_and_readiness() {
    let state = AppState::new(config("sqlite::memory:")).await.unwrap();
    let app = app(state.clone());
    let mut c = Client::new(&app);
    let r = c.get("/healthz").await;
    assert_eq!((r.status, r.text.as_str()), (StatusCode::OK, "ok"));
    let r = c.get("/readyz").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        r.json,
        json!({ "ready": true, "database": "ok", "engine": "ok", "stopping": false })
    );
    // The database goes away: not ready, and says why; the process still answers.
    state.db().close().await;
    let r = c.get("/readyz").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text);
    assert_eq!(r.json["ready"], false);
    assert_eq!(r.json["database"], "unreachable");
    assert_eq!(c.get("/healthz").await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_stopping_server_is_not_ready() {
    let state = AppState::new(config("sqlite::memory:")).await.unwrap();
    let app = app(state.clone());
    let mut c = Client::new(&app);
    assert_eq!(c.get("/readyz").await.status, StatusCode::OK);
    state.begin_stopping();
    let r = c.get("/readyz").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text);
    assert_eq!(
        (r.json["ready"].clone(), r.json["stopping"].clone()),
        (json!(false), json!(true))
    );
    // No session is open: nothing to wait for.
    tokio::time::timeout(std::time::Duration::from_secs(1), state.sessions_closed())
        .await
        .expect("no websocket session holds the server");
}

/// Plays `n` moves of local game `id` (both seats on one token); returns the moves stored.
async fn play(c: &mut Client, id: &str, n: usize) -> Vec<Value> {
    for _ in 0..n {
        let r = c.play_first(id).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    c.get(&format!("/api/games/{id}")).await.json["game"]["moves"]
        .as_array()
        .unwrap()
        .clone()
}

#[tokio::test]
async fn a_backup_taken_during_play_restores_every_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("live.db").display());
    let state = AppState::new(config(&url)).await.unwrap();
    let app = app(state.clone());
    let mut c = Client::new(&app);
    let r = c.post("/api/games", json!({ "mode": "local" })).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["game"]["id"].as_str().unwrap().to_string();
    let before = play(&mut c, &id, 12).await;
    // The backup, with the server serving (and a move made while it is taken).
    let copy = dir.path().join("copy.db");
    let (taken, during) = tokio::join!(backup::backup(&url, &copy), c.play_first(&id));
    assert_eq!(during.status, StatusCode::OK);
    let (_, known) = state.db().readiness().await.unwrap();
    assert_eq!(taken.unwrap(), known, "the schema version");
    let after = play(&mut c, &id, 3).await;
    assert!(
        backup::backup(&url, &copy).await.is_err(),
        "a backup never overwrites"
    );

    // A restore into a database a server holds is refused.
    let busy = backup::restore(&copy, &url).await.unwrap_err();
    assert!(busy.to_string().contains("stop the server"), "{busy}");
    // Restored elsewhere, it holds every move acknowledged before it was taken, and those
    // acknowledged during it if it saw them, and nothing after.
    let other = format!("sqlite://{}", dir.path().join("restored.db").display());
    assert_eq!(backup::restore(&copy, &other).await.unwrap(), known);
    let restored = AppState::new(config(&other)).await.unwrap();
    let restored_app = reversi_server::app(restored);
    let mut r = Client::new(&restored_app);
    let g = r.get(&format!("/api/games/{id}")).await;
    assert_eq!(g.status, StatusCode::OK, "{}", g.text);
    let moves = g.json["game"]["moves"].as_array().unwrap().clone();
    assert!(
        moves.len() == before.len() || moves.len() == before.len() + 1,
        "{moves:?}"
    );
    assert_eq!(moves[..before.len()], before[..]);
    assert!(moves.len() < after.len());

    // Over the old database, once its server has stopped: the old one is kept beside it.
    state.db().close().await;
    drop((app, state, c));
    backup::restore(&copy, &url).await.unwrap();
    assert!(dir.path().join("live.db.before-restore").exists());
    // Bad input gets a clear error.
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, b"not a database").unwrap();
    assert!(backup::restore(&junk, &other).await.is_err());
    let e = backup::backup("postgres://u@h/db", &dir.path().join("x.db"))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("pg_dump"), "{e}");
}

#[tokio::test]
async fn retention_removes_expired_sessions_and_old_chat_only() {
    let state = AppState::new(config("sqlite::memory:")).await.unwrap();
    let app = app(state.clone());
    let mut c = Client::new(&app);
    c.signup("Keeper").await;
    let r = c.post("/api/games", json!({ "mode": "local" })).await;
    let id = r.json["game"]["id"].as_str().unwrap().to_string();
    let db = state.db();
    let now = state.clock().now_ms();
    let year = reversi_server::db::retention::CHAT_KEEP_MS;
    db.chat()
        .insert_chat(&id, "players", None, None, "old", now - year - 1)
        .await
        .unwrap();
    db.chat()
        .insert_chat(&id, "players", None, None, "new", now)
        .await
        .unwrap();
    let uid = c.get("/api/account").await.json["user"]["name"].clone();
    assert_eq!(uid, "Keeper");
    let p = db.purge_old(now).await.unwrap();
    assert_eq!(p.chat, 1);
    let left = db.chat().lines(&id, "players", 0, 10).await.unwrap();
    assert_eq!(left.iter().map(|l| l.text.as_str()).collect::<Vec<_>>(), ["new"]);
    // The live session stays; a month and a day later it has expired and goes.
    assert_eq!(p.sessions, 0);
    assert_eq!(c.get("/api/account").await.json["user"]["name"], "Keeper");
    let later = now + 31 * 86_400_000;
    assert_eq!(db.purge_old(later).await.unwrap().sessions, 1);
}
