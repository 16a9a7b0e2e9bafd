//! Timed games against the server's clock, which these tests move forward
//! (`Clock::advance`) instead of waiting: a flag falls at its instant and not before, on time
//! with nobody connected; a missed first move aborts; a restart charges the downtime to nobody;
//! with two instances on one PostgreSQL (sharing one clock), exactly one claims each flag and a
//! seek, a game and chat cross between them. Each test has its own clock.

use axum::http::StatusCode;
use axum::Router;
use reversi_server::{app, AppState};
use serde_json::{json, Value};
use std::time::Duration;

mod common;
mod online_common;
use online_common::{config, Client};

/// A rated game of `control` between new accounts `a` (Black) and `b` (White) on `app_a` and
/// `app_b`; returns the clients and the game id.
async fn game(app_a: &Router, app_b: &Router, a: &str, b: &str, control: &str) -> (Client, Client, String) {
    let mut black = Client::new(app_a);
    let mut white = Client::new(app_b);
    black.signup(a).await;
    white.signup(b).await;
    let r = black
        .post(
            "/api/seeks",
            json!({ "control": control, "rated": true, "colour": "black" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let sid = r.json["id"].as_str().unwrap().to_string();
    let r = white.post(&format!("/api/seeks/{sid}/accept"), json!({})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["game"]["id"].as_str().unwrap().to_string();
    (black, white, id)
}

/// Waits (up to `secs`) until the game's status is not `playing`; returns the game.
async fn ended(c: &mut Client, id: &str, secs: u64) -> Value {
    for _ in 0..secs * 10 {
        let g = c.get(&format!("/api/games/{id}")).await;
        if g.json["game"]["status"] != "playing" {
            return g.json["game"].clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("game {id} still playing after {secs} s");
}

async fn flags_fall_on_time_and_first_moves_are_awaited(db: String) {
    let state = AppState::new(config(&db)).await.unwrap();
    let clock = state.clock().clone();
    let app = app(state.clone());
    let (mut ann, mut bob, id) = game(&app, &app, "Ann", "Bob", "1+0").await;
    assert_eq!(ann.play_first(&id).await.status, StatusCode::OK);
    assert_eq!(bob.play_first(&id).await.status, StatusCode::OK);
    let g = ann.get(&format!("/api/games/{id}")).await;
    assert_eq!(g.json["game"]["online"]["clock"]["running"], "black");
    // Not before the instant: 57 s of Black's minute pass, then more than a sweep's wait.
    clock.advance(57_000);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let g = ann.get(&format!("/api/games/{id}")).await;
    assert_eq!(g.json["game"]["status"], "playing", "{}", g.text);
    let left = g.json["game"]["online"]["clock"]["black_ms"].as_u64().unwrap();
    assert!((1_000..=3_000).contains(&left), "{left}");
    // Past it, with nobody asking: the server flags Black.
    clock.advance(3_000);
    let over = ended(&mut bob, &id, 5).await;
    assert_eq!(over["result"]["ending"], "time", "{over}");
    assert_eq!(over["result"]["flagged"], "black");
    assert_eq!(over["result"]["winner"], "white");
    // RULES.md §6: the board count with empties to the winner, or 33–31.
    let (b, w) = (
        over["result"]["black"].as_u64().unwrap(),
        over["result"]["white"].as_u64().unwrap(),
    );
    assert!(w > b && b + w == 64, "{b}-{w}");
    assert_eq!(over["online"]["clock"]["black_ms"], 0);
    assert_eq!(over["online"]["category"], "bullet");
    assert!(over["online"]["white"]["diff"].as_i64().unwrap() > 0, "{over}");
    // A move after the flag is refused.
    let r = ann
        .post(&format!("/api/games/{id}/moves"), json!({ "move": "c4" }))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(state.rounds().deadlines_claimed(), 1);
    let ggf = ann.get(&format!("/api/games/{id}/ggf")).await.text;
    assert!(ggf.contains(":t"), "{ggf}");

    // A first move not made within 30 s aborts the game: no result, no rating.
    let (mut cat, _dan, id) = game(&app, &app, "Cat", "Dan", "3+2").await;
    clock.advance(31_000);
    let over = ended(&mut cat, &id, 5).await;
    assert_eq!(over["status"], "aborted", "{over}");
    assert_eq!(over["result"], Value::Null);
    assert_eq!(cat.get("/api/users/Cat").await.json["ratings"], json!([]));
}

/// A restart in the middle of a timed game keeps both clocks as the last move left them.
async fn a_restart_keeps_the_clocks(dir: &std::path::Path) {
    let db = dir.join("clocks.db").to_str().unwrap().to_string();
    let settings = config(&db);
    let clock = settings.clock.clone();
    let state = AppState::new(settings.clone()).await.unwrap();
    let app1 = app(state.clone());
    let (mut ann, mut bob, id) = game(&app1, &app1, "Eve", "Fay", "5+0").await;
    for _ in 0..2 {
        assert_eq!(ann.play_first(&id).await.status, StatusCode::OK);
        assert_eq!(bob.play_first(&id).await.status, StatusCode::OK);
    }
    let before = ann.get(&format!("/api/games/{id}")).await.json["game"]["online"]["clock"].clone();
    assert_eq!(before["running"], "black");
    state.db().close().await;
    drop((state, app1, ann, bob));
    // The site is down for two minutes.
    clock.advance(120_000);
    let state = AppState::new(settings).await.unwrap();
    let app2 = app(state.clone());
    let mut ann = Client::new(&app2);
    ann.post(
        "/api/account/login",
        json!({ "name": "Eve", "password": "Eve-secret-pw" }),
    )
    .await;
    let after = ann.get(&format!("/api/games/{id}")).await.json["game"]["online"]["clock"].clone();
    assert_eq!(after["running"], "black", "{after}");
    assert_eq!(after["white_ms"], before["white_ms"]);
    let (b0, b1) = (
        before["black_ms"].as_u64().unwrap(),
        after["black_ms"].as_u64().unwrap(),
    );
    // Neither charged the two minutes, nor given back more than the heartbeat's second (the
    // clock counts from the last heartbeat before the stop).
    assert!(
        b0.abs_diff(b1) < 2_500,
        "black had {b0} ms, then {b1} ms after the restart"
    );
    state.db().close().await;
}

#[tokio::test]
async fn flags_on_sqlite() {
    flags_fall_on_time_and_first_moves_are_awaited(common::SQLITE.into()).await;
}

#[tokio::test]
async fn flags_on_postgres() {
    if let Some(url) = common::pg_url().await {
        flags_fall_on_time_and_first_moves_are_awaited(url).await;
    }
}

#[tokio::test]
async fn restart_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    a_restart_keeps_the_clocks(dir.path()).await;
}

/// Two instances on one PostgreSQL: a seek made on one is accepted on the other, the game is
/// played with a player on each, chat crosses, and the flag is claimed exactly once.
#[tokio::test]
async fn two_instances_share_seeks_games_chat_and_one_flag() {
    let Some(url) = common::pg_url().await else { return };
    let settings = config(&url);
    let clock = settings.clock.clone();
    let a = AppState::new(settings.clone()).await.unwrap();
    let b = AppState::new(settings).await.unwrap();
    let (app_a, app_b) = (app(a.clone()), app(b.clone()));
    let (mut ann, mut bob, id) = game(&app_a, &app_b, "Gus", "Hal", "1+0").await;
    assert_eq!(ann.play_first(&id).await.status, StatusCode::OK);
    // Hal, on the other instance, sees Gus's move and answers.
    let mut ok = false;
    for _ in 0..50 {
        let r = bob.play_first(&id).await;
        if r.status == StatusCode::OK {
            ok = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ok, "White could not move on instance B");
    // Chat crosses: a message sent on B is in the history read on A.
    let r = bob
        .post(&format!("/api/games/{id}/chat"), json!({ "text": "hi from B" }))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let lines = ann.get(&format!("/api/games/{id}/chat")).await.json["lines"].clone();
    assert_eq!(lines[0]["text"], "hi from B");
    // Both instances time the flag; one claims it.
    clock.advance(61_000);
    let over = ended(&mut ann, &id, 5).await;
    assert_eq!(over["result"]["ending"], "time");
    let game_b = ended(&mut bob, &id, 5).await;
    assert_eq!(game_b["result"], over["result"]);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(
        a.rounds().deadlines_claimed() + b.rounds().deadlines_claimed(),
        1,
        "the flag was claimed more than once"
    );
}
