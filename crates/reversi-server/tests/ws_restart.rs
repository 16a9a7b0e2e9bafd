//! Websockets over a real listener on 127.0.0.1:0 (two players and a spectator), and the
//! restart test: a game stored in a SQLite file survives dropping the whole server state.

use futures_util::{SinkExt, StreamExt};
use reversi_server::{serve, AppState, Config};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

fn config(db: &str) -> Config {
    Config {
        database_url: db.to_string(),
        ai_workers: 2,
        hash_mib: 1,
        ai_time_scale: 0.25,
        rate_per_sec: 10_000.0,
        rate_burst: 10_000.0,
        ws_messages_per_sec: 50.0,
        ..Config::default()
    }
}

async fn start(state: AppState) -> (String, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(serve(listener, state, async {
        let _ = rx.await;
    }));
    (addr.to_string(), tx)
}

async fn connect(addr: &str, id: &str, token: Option<&str>) -> Ws {
    let mut req = format!("ws://{addr}/api/games/{id}/ws")
        .into_client_request()
        .unwrap();
    if let Some(t) = token {
        req.headers_mut()
            .insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

async fn next_json(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message in time")
            .expect("socket open")
            .expect("no socket error");
        match msg {
            Message::Text(t) => return serde_json::from_str(&t).unwrap(),
            Message::Close(f) => return json!({"type": "closed", "code": f.map(|f| u16::from(f.code))}),
            _ => continue,
        }
    }
}

/// Reads states until one at `ply`.
async fn state_at(ws: &mut Ws, ply: u64) -> Value {
    loop {
        let v = next_json(ws).await;
        assert_ne!(v["type"], "error", "{v}");
        if v["type"] == "state" && v["game"]["ply"] == ply {
            return v;
        }
    }
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

async fn two_players_and_a_spectator_over_websockets(db: String) {
    let state = AppState::new(config(&db)).await.unwrap();
    let seated = state
        .create(reversi_server::state::NewGame {
            mode: reversi_server::game::Mode::Friend,
            variant: "othello".into(),
            level: 1,
            color: Some(reversi_core::Color::Black),
        })
        .await
        .unwrap();
    let id = seated.view.id.clone();
    let black = seated.token;
    let white = state.join(&id, None).await.unwrap().token;
    let (addr, stop) = start(state).await;

    let mut b = connect(&addr, &id, Some(&black)).await;
    let mut w = connect(&addr, &id, Some(&white)).await;
    let mut s = connect(&addr, &id, None).await;
    assert_eq!(state_at(&mut b, 0).await["you"], json!(["black"]));
    assert_eq!(state_at(&mut w, 0).await["you"], json!(["white"]));
    assert_eq!(state_at(&mut s, 0).await["you"], json!([]));

    // Errors come back to the sender only.
    send(&mut w, json!({"type": "move", "move": "d3"})).await;
    assert_eq!(next_json(&mut w).await["code"], "not_your_turn");
    send(&mut s, json!({"type": "move", "move": "d3"})).await;
    assert_eq!(next_json(&mut s).await["code"], "no_seat");
    send(&mut b, json!({"type": "move", "move": "a1"})).await;
    assert_eq!(next_json(&mut b).await["code"], "illegal_move");
    send(&mut b, json!({"type": "dance"})).await;
    assert_eq!(next_json(&mut b).await["code"], "bad_request");
    send(&mut b, json!({"type": "ping"})).await;
    assert_eq!(next_json(&mut b).await["type"], "pong");

    // Every move reaches all three.
    let mut ply = 0;
    let mut game = Value::Null;
    for _ in 0..6 {
        let mover = if ply % 2 == 0 { &mut b } else { &mut w };
        let legal = if ply == 0 {
            "d3".to_string()
        } else {
            game["legal_moves"][0].as_str().unwrap().to_string()
        };
        send(mover, json!({"type": "move", "move": legal, "ply": ply})).await;
        ply += 1;
        let vb = state_at(&mut b, ply).await;
        let vw = state_at(&mut w, ply).await;
        let vs = state_at(&mut s, ply).await;
        assert_eq!(vb["game"]["cells"], vs["game"]["cells"]);
        assert_eq!(vw["game"]["version"], vs["game"]["version"]);
        assert_eq!(vs["game"]["last_move"], legal.as_str());
        game = vs["game"].clone();
    }

    // A dropped connection reconnects and resumes where the game is.
    drop(w);
    let mut w = connect(&addr, &id, Some(&white)).await;
    assert_eq!(
        state_at(&mut w, ply).await["game"]["moves"]
            .as_array()
            .unwrap()
            .len(),
        6
    );

    // A duplicated move (same ply twice) is played once.
    let mv = game["legal_moves"][0].as_str().unwrap().to_string();
    send(&mut b, json!({"type": "move", "move": mv, "ply": ply})).await;
    send(&mut b, json!({"type": "move", "move": mv, "ply": ply})).await;
    state_at(&mut s, ply + 1).await;
    loop {
        let v = next_json(&mut b).await;
        if v["type"] == "error" {
            assert_eq!(v["code"], "stale_ply");
            break;
        }
    }

    // Oversized messages close the socket; nothing is lost.
    let huge = json!({"type": "move", "move": "x".repeat(10_000)});
    let _ = s.send(Message::Text(huge.to_string().into())).await;
    let end = tokio::time::timeout(Duration::from_secs(5), s.next())
        .await
        .unwrap();
    assert!(!matches!(end, Some(Ok(Message::Text(_)))), "{end:?}");

    // Floods are closed with 1008.
    let mut f = connect(&addr, &id, None).await;
    state_at(&mut f, ply + 1).await;
    for _ in 0..200 {
        if f.send(Message::Text(r#"{"type":"ping"}"#.into())).await.is_err() {
            break;
        }
    }
    let mut closed = None;
    while let Ok(Some(Ok(m))) = tokio::time::timeout(Duration::from_secs(5), f.next()).await {
        if let Message::Close(c) = m {
            closed = c.map(|c| u16::from(c.code));
            break;
        }
    }
    assert_eq!(closed, Some(1008));

    // The unknown game is refused before the upgrade.
    let req = format!("ws://{addr}/api/games/nope/ws")
        .into_client_request()
        .unwrap();
    assert!(tokio_tungstenite::connect_async(req).await.is_err());
    let _ = stop.send(());
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

fn temp_db() -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!("reversi-restart-{}-{nanos}.db", std::process::id()))
}

/// The restart test on `pg` (a PostgreSQL URL), or on a fresh SQLite file.
async fn games_survive_a_restart(pg: Option<String>) {
    use reversi_server::game::Mode;
    use reversi_server::state::NewGame;
    let path = temp_db();
    let url = pg.unwrap_or_else(|| format!("sqlite://{}", path.display()));
    let new = |mode, color| NewGame {
        mode,
        variant: "nxn:6".into(),
        level: 1,
        color: Some(color),
    };

    let state = AppState::new(config(&url)).await.unwrap();
    let friend = state
        .create(new(Mode::Friend, reversi_core::Color::Black))
        .await
        .unwrap();
    let id = friend.view.id.clone();
    let black = friend.token.clone();
    let white = state.join(&id, None).await.unwrap().token;
    let tokens = [black.clone(), white.clone()];
    let mut view = friend.view.clone();
    for i in 0..8 {
        let mv = view.legal_moves[i % view.legal_moves.len()].clone();
        let t = &tokens[view.to_move.unwrap().index()];
        view = state.play(&id, Some(t), &mv, Some(view.ply)).await.unwrap().0;
    }
    let before = view.clone();
    let ai = state
        .create(new(Mode::Ai, reversi_core::Color::Black))
        .await
        .unwrap();
    let (_, wait) = state
        .play(&ai.view.id, Some(&ai.token), &ai.view.legal_moves[0], None)
        .await
        .unwrap();
    wait.unwrap().await.unwrap();
    let ai_before = state.view(&ai.view.id, None).await.unwrap().0;
    assert_eq!(ai_before.ply, 2);
    state.db().close().await;
    drop(state);

    // A new server over the same file.
    let state = AppState::new(config(&url)).await.unwrap();
    let (after, seats) = state.view(&id, Some(&white)).await.unwrap();
    assert_eq!(seats, vec![reversi_core::Color::White]);
    assert_eq!(after.cells, before.cells);
    assert_eq!(after.moves, before.moves);
    assert_eq!(after.to_move, before.to_move);
    let (ai_after, _) = state.view(&ai.view.id, Some(&ai.token)).await.unwrap();
    assert_eq!(ai_after.cells, ai_before.cells);

    // Finish the game.
    let mut view = after;
    while view.status == "playing" {
        let mv = view.legal_moves[0].clone();
        let t = &tokens[view.to_move.unwrap().index()];
        view = state.play(&id, Some(t), &mv, Some(view.ply)).await.unwrap().0;
    }
    let result = view.result.clone().unwrap();
    assert_eq!(result.black + result.white, 36);
    state.db().close().await;
    drop(state);

    let state = AppState::new(config(&url)).await.unwrap();
    let (again, _) = state.view(&id, None).await.unwrap();
    assert_eq!(again.status, "finished");
    assert_eq!(again.result, Some(result));
    let list = state.list(Some("finished"), 10).await.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].move_count as usize, again.ply);
    state.db().close().await;
    drop(state);
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
}

/// The suite on SQLite.
mod sqlite {
    #[tokio::test]
    async fn two_players_and_a_spectator_over_websockets() {
        super::two_players_and_a_spectator_over_websockets("sqlite::memory:".into()).await
    }

    #[tokio::test]
    async fn games_survive_a_restart() {
        super::games_survive_a_restart(None).await
    }
}

/// The same suite on PostgreSQL (`REVERSI_TEST_DATABASE_URL`; each test in a fresh schema).
mod postgres {
    #[tokio::test]
    async fn two_players_and_a_spectator_over_websockets() {
        if let Some(url) = super::pg_url().await {
            super::two_players_and_a_spectator_over_websockets(url).await
        }
    }

    #[tokio::test]
    async fn games_survive_a_restart() {
        if let Some(url) = super::pg_url().await {
            super::games_survive_a_restart(Some(url)).await
        }
    }
}
