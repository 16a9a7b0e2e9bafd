//! Who is connected to a game, over real websockets: each player's presence, the spectators'
//! count, and the claim of the win from a player who left (crate::presence), on SQLite and
//! on PostgreSQL. The two databases run one after the other: the test moves the server's
//! clock, which is the whole process's.

use futures_util::{SinkExt, StreamExt};
use reversi_core::Color;
use reversi_server::round::NewGame;
use reversi_server::{serve, AppState, Config};
use reversi_site::game::presence::CLAIM_AFTER_UNTIMED_MS;
use reversi_site::game::Mode;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

mod common;

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

fn config(db: &str) -> Config {
    Config {
        database_url: db.to_string(),
        ai_workers: 1,
        hash_mib: 1,
        rate_per_sec: 10_000.0,
        rate_burst: 10_000.0,
        clock: reversi_server::time::Clock::adjustable(),
        ..Config::default()
    }
}

async fn start(state: AppState) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, state, std::future::pending()));
    addr.to_string()
}

async fn connect(addr: &str, id: &str, token: Option<&str>) -> Ws {
    connect_to(addr, &format!("/api/games/{id}/ws"), token).await
}

async fn connect_to(addr: &str, path: &str, token: Option<&str>) -> Ws {
    let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
    if let Some(t) = token {
        req.headers_mut()
            .insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

async fn send(ws: &mut Ws, msg: Value) {
    ws.send(Message::Text(msg.to_string().into())).await.unwrap();
}

/// Reads messages until one satisfies `want` (panics after 10 s).
async fn until(ws: &mut Ws, what: &str, want: impl Fn(&Value) -> bool) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .unwrap_or_else(|_| panic!("waited in vain for {what}"))
            .expect("socket open")
            .expect("no socket error");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if want(&v) {
                return v;
            }
        }
    }
}

async fn state_where(ws: &mut Ws, what: &str, want: impl Fn(&Value) -> bool) -> Value {
    until(ws, what, |v| v["type"] == "state" && want(&v["game"])).await["game"].clone()
}

/// The presence (a state's, or a presence event's) once it satisfies `want`.
async fn presence_where(ws: &mut Ws, what: &str, want: impl Fn(&Value) -> bool) -> Value {
    let v = until(ws, what, |v| {
        (v["type"] == "state" && want(&v["game"]["presence"]))
            || (v["type"] == "presence" && want(&v["presence"]))
    })
    .await;
    if v["type"] == "state" {
        v["game"]["presence"].clone()
    } else {
        v["presence"].clone()
    }
}

async fn error_code(ws: &mut Ws) -> String {
    let v = until(ws, "an error", |v| v["type"] == "error").await;
    v["code"].as_str().unwrap_or_default().to_string()
}

async fn a_friend_game(a: &AppState, b: &AppState) -> (String, String, String) {
    let seated = a
        .rounds()
        .create(NewGame {
            mode: Mode::Friend,
            variant: "othello".into(),
            level: 1,
            color: Some(Color::Black),
            tie: Default::default(),
        })
        .await
        .unwrap();
    let id = seated.view.id.clone();
    let white = b
        .rounds()
        .join(&id, None, seated.invite.as_deref())
        .await
        .unwrap()
        .token;
    (id, seated.token, white)
}

/// Black plays on `addr_black`'s instance, White and a spectator on `addr_white`'s.
pub async fn claim_after_a_departure(a: AppState, b: AppState) {
    let (addr_a, addr_b) = (start(a.clone()).await, start(b.clone()).await);
    let (id, black, white) = a_friend_game(&a, &b).await;
    let mut ws_black = connect(&addr_a, &id, Some(&black)).await;
    let mut ws_white = connect(&addr_b, &id, Some(&white)).await;
    let p = presence_where(&mut ws_black, "both players connected", |p| {
        p["black"] == true && p["white"] == true
    })
    .await;
    assert_eq!(p["spectators"], 0);
    assert!(
        p.get("claim_after_ms").is_none(),
        "no claim before both moved: {p}"
    );

    // The home page's preview of the game, even from White's browser: the states only, never
    // counted (as White or as a spectator), and no commands.
    let mut preview = connect_to(&addr_a, &format!("/api/games/{id}/ws?preview=true"), Some(&white)).await;
    state_where(&mut preview, "the preview's state", |g| g["ply"] == 0).await;
    send(&mut preview, json!({"type": "move", "move": "d3", "ply": 0})).await;
    assert_eq!(error_code(&mut preview).await, "preview");

    // A spectator arrives, at White's instance: Black's page counts them.
    let mut ws_watch = connect(&addr_b, &id, None).await;
    // The small presence event, not the whole state again.
    let v = until(&mut ws_black, "a spectator", |v| {
        v["type"] == "presence" && v["presence"]["spectators"] == 1
    })
    .await;
    assert!(v.get("game").is_none(), "{v}");

    // Both move: the game can no longer be aborted, and a departure can be claimed.
    send(&mut ws_black, json!({"type": "move", "move": "d3", "ply": 0})).await;
    state_where(&mut ws_white, "Black's move", |g| g["ply"] == 1).await;
    send(&mut ws_white, json!({"type": "move", "move": "c3", "ply": 1})).await;
    let g = state_where(&mut ws_black, "White's move", |g| g["ply"] == 2).await;
    assert_eq!(g["presence"]["claim_after_ms"], CLAIM_AFTER_UNTIMED_MS);
    state_where(&mut preview, "both moves in the preview", |g| g["ply"] == 2).await;

    // While White is connected the win cannot be claimed.
    send(&mut ws_black, json!({"type": "claim"})).await;
    assert_eq!(error_code(&mut ws_black).await, "opponent_here");

    // White leaves; the spectator too.
    ws_white.close(None).await.unwrap();
    ws_watch.close(None).await.unwrap();
    let p = presence_where(&mut ws_black, "White gone", |p| {
        p["white"] == false && p["spectators"] == 0
    })
    .await;
    assert!(p["white_away_ms"].as_u64().unwrap() < 5_000, "{p}");
    assert_eq!(p["black"], true);

    // Too early: the answer says how long to wait.
    send(&mut ws_black, json!({"type": "claim"})).await;
    assert_eq!(error_code(&mut ws_black).await, "too_early");
    // White cannot claim anything: their seat's token asks over HTTP, and Black is here.
    let refused = b.rounds().claim(&id, Some(&white)).await.unwrap_err();
    assert!(refused.to_string().contains("connected"), "{refused}");

    // Once the documented time has passed, Black claims the win.
    // Both instances share one clock.
    a.clock().advance(CLAIM_AFTER_UNTIMED_MS as i64 + 1_000);
    send(&mut ws_black, json!({"type": "claim"})).await;
    let g = state_where(&mut ws_black, "the claimed win", |g| g["status"] == "finished").await;
    assert_eq!(g["result"]["ending"], "left");
    assert_eq!(g["result"]["resigned"], "white");
    assert_eq!(g["result"]["winner"], "black");
    // RULES.md §6, as for a resignation: the board (3–3 after d3 c3) is no win for Black, so
    // the smallest win is recorded.
    assert_eq!(
        (g["result"]["black"].clone(), g["result"]["white"].clone()),
        (json!(33), json!(31))
    );

    // Stored as such: the other instance hears of it and shows the same ending.
    let mut seen = Value::Null;
    for _ in 0..100 {
        seen = serde_json::to_value(b.rounds().view(&id, None).await.unwrap().0).unwrap();
        if seen["status"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(seen["result"]["ending"], "left", "{seen}");
    // And a second claim is refused.
    send(&mut ws_black, json!({"type": "claim"})).await;
    assert_eq!(error_code(&mut ws_black).await, "game_over");
}

#[tokio::test]
async fn presence_and_the_claim_of_a_win() {
    // SQLite: one instance serves both players.
    let a = AppState::new(config(common::SQLITE)).await.unwrap();
    claim_after_a_departure(a.clone(), a).await;
    // PostgreSQL: two instances, the players and the spectator on different ones.
    if let Some(url) = common::pg_url().await {
        let settings = config(&url);
        let a = AppState::new(settings.clone()).await.unwrap();
        let b = AppState::new(settings).await.unwrap();
        claim_after_a_departure(a, b).await;
    }
}
