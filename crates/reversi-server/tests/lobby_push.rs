//! The lobby's websocket (`/api/lobby/ws`): a seek made by one visitor reaches another's open
//! lobby at once, and the game it becomes reaches its owner's, without polling; and the
//! account's websocket (`/api/account/ws`): a challenge, its answer and "your turn" reach the
//! account's pages at once — on SQLite with one instance, and on PostgreSQL with the two
//! visitors at two instances.

use futures_util::StreamExt;
use reversi_server::{app, AppState};
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

mod common;
mod online_common;
use online_common::{config, open_socket, serve_on_loopback as start, Client, Ws};

/// The lobby socket of `client` (its cookies) at `addr`.
async fn lobby_socket(addr: &str, client: &Client) -> Ws {
    open_socket(addr, "/api/lobby/ws", client).await.unwrap()
}

/// The next lobby message satisfying `want` (panics after 5 s: polling is not what brings it).
async fn lobby_where(ws: &mut Ws, what: &str, want: impl Fn(&Value) -> bool) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .unwrap_or_else(|_| panic!("no lobby with {what} pushed in time"))
            .expect("socket open")
            .expect("no socket error");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            // The games being played now come on the same socket.
            if v["type"] == "live" {
                assert!(v["live"]["games"].is_array(), "{v}");
                continue;
            }
            assert_eq!(v["type"], "lobby", "{v}");
            if want(&v["lobby"]) {
                return v["lobby"].clone();
            }
        }
    }
}

async fn seeks_and_games_are_pushed(a: AppState, b: AppState) {
    let (addr_a, addr_b) = (start(a.clone()).await, start(b.clone()).await);
    let (app_a, app_b) = (app(a), app(b));
    let mut ann = Client::new(&app_a);
    let mut bob = Client::new(&app_b);
    ann.signup("ann").await;
    bob.signup("bob").await;
    let mut bob_ws = lobby_socket(&addr_b, &bob).await;
    let first = lobby_where(&mut bob_ws, "no seeks", |l| l["seeks"] == json!([])).await;
    assert_eq!(first["pools"].as_array().unwrap().len(), 8);

    // Ann seeks at A; Bob's lobby at B hears of it.
    let r = ann
        .post("/api/seeks", json!({ "control": "5+3", "rated": true }))
        .await;
    assert_eq!(r.status.as_u16(), 201, "{}", r.text);
    let seek = r.json["id"].as_str().unwrap().to_string();
    let mut ann_ws = lobby_socket(&addr_a, &ann).await;
    lobby_where(&mut ann_ws, "Ann's own seek", |l| l["seeks"][0]["mine"] == true).await;
    let seen = lobby_where(&mut bob_ws, "Ann's seek", |l| {
        l["seeks"][0]["id"] == seek.as_str()
    })
    .await;
    assert_eq!(seen["seeks"][0]["mine"], false);

    // Bob waits in a pool: everyone's grid counts him.
    let r = bob.post("/api/pools/3+2", json!({})).await;
    assert_eq!(r.status.as_u16(), 201, "{}", r.text);
    let pool_32 = |l: &Value| {
        l["pools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["control"] == "3+2" && p["waiting"] == 1)
    };
    lobby_where(&mut ann_ws, "Bob in 3+2", pool_32).await;
    lobby_where(&mut bob_ws, "waiting in 3+2", |l| l["waiting_in"] == "3+2").await;

    // Bob accepts at B: Ann's lobby at A is told the game, and the seek leaves both.
    let r = bob.post(&format!("/api/seeks/{seek}/accept"), json!({})).await;
    assert_eq!(r.status.as_u16(), 201, "{}", r.text);
    let game = r.json["game"]["id"].as_str().unwrap().to_string();
    let mine = lobby_where(&mut ann_ws, "the game Ann's seek became", |l| {
        l["started"].as_array().is_some_and(|s| !s.is_empty())
    })
    .await;
    assert_eq!(mine["started"][0]["game"], game.as_str());
    assert_eq!(mine["seeks"], json!([]));
    lobby_where(&mut bob_ws, "the seek gone", |l| l["seeks"] == json!([])).await;
}

#[tokio::test]
async fn the_lobby_is_pushed() {
    let a = AppState::new(config(common::SQLITE)).await.unwrap();
    seeks_and_games_are_pushed(a.clone(), a).await;
    if let Some(url) = common::pg_url().await {
        let a = AppState::new(config(&url)).await.unwrap();
        let b = AppState::new(config(&url)).await.unwrap();
        seeks_and_games_are_pushed(a, b).await;
    }
}

/// The next message of the account's socket whose list satisfies `want` (panics after 5 s:
/// polling is not what brings it).
async fn games_where(ws: &mut Ws, what: &str, want: impl Fn(&Value) -> bool) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .unwrap_or_else(|_| panic!("no list with {what} pushed in time"))
            .expect("socket open")
            .expect("no socket error");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            assert_eq!(v["type"], "games", "{v}");
            common::round_trip::<reversi_site_api::PageEvent>(&v);
            if want(&v["games"]) {
                return v["games"].clone();
            }
        }
    }
}

async fn turns_are_pushed(a: AppState, b: AppState) {
    let (addr_a, addr_b) = (start(a.clone()).await, start(b.clone()).await);
    let (app_a, app_b) = (app(a), app(b));
    let mut cat = Client::new(&app_a);
    let mut dan = Client::new(&app_b);
    cat.signup("cat").await;
    dan.signup("dan").await;
    // A guest has no such socket.
    let guest = Client::new(&app_a);
    assert!(open_socket(&addr_a, "/api/account/ws", &guest).await.is_err());
    let mut cat_ws = open_socket(&addr_a, "/api/account/ws", &cat).await.unwrap();
    let mut dan_ws = open_socket(&addr_b, "/api/account/ws", &dan).await.unwrap();
    games_where(&mut cat_ws, "nothing", |g| g["games"] == json!([])).await;
    games_where(&mut dan_ws, "nothing", |g| g["games"] == json!([])).await;

    // Dan challenges Cat at B: Cat's pages at A hear of it.
    let r = dan
        .post(
            "/api/seeks",
            json!({ "control": "3d", "to": "cat", "colour": "black" }),
        )
        .await;
    assert_eq!(r.status.as_u16(), 201, "{}", r.text);
    let seek = r.json["id"].as_str().unwrap().to_string();
    games_where(&mut cat_ws, "the challenge", |g| {
        g["challenges"][0]["id"] == seek.as_str()
    })
    .await;
    // Cat accepts: Dan's pages go to the game, whose first move is Dan's (Black).
    let r = cat.post(&format!("/api/seeks/{seek}/accept"), json!({})).await;
    assert_eq!(r.status.as_u16(), 201, "{}", r.text);
    let game = r.json["game"]["id"].as_str().unwrap().to_string();
    let seen = games_where(&mut dan_ws, "the game begun", |g| {
        g["your_turn"] == 1 && g["started"].as_array().is_some_and(|s| !s.is_empty())
    })
    .await;
    assert_eq!(seen["started"][0]["game"], game.as_str());
    // Dan moves: Cat's count goes to one, Dan's to none.
    let r = dan.play_first(&game).await;
    assert_eq!(r.status.as_u16(), 200, "{}", r.text);
    games_where(&mut cat_ws, "Cat's turn", |g| {
        g["your_turn"] == 1 && g["games"][0]["id"] == game.as_str()
    })
    .await;
    games_where(&mut dan_ws, "Cat's turn", |g| g["your_turn"] == 0).await;
}

#[tokio::test]
async fn your_turn_is_pushed() {
    let a = AppState::new(config(common::SQLITE)).await.unwrap();
    turns_are_pushed(a.clone(), a).await;
    if let Some(url) = common::pg_url().await {
        let a = AppState::new(config(&url)).await.unwrap();
        let b = AppState::new(config(&url)).await.unwrap();
        turns_are_pushed(a, b).await;
    }
}
