//! The analysis board's websocket over a real listener: book values at once, estimates that
//! deepen, exact values near the end, opening names per move, clear errors, and an evaluation
//! that stops when the client moves on, says stop, or leaves.

use futures_util::{SinkExt, StreamExt};
use reversi_server::{serve, AppState, Config};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

async fn start() -> (AppState, String) {
    let state = AppState::new(Config {
        database_url: "sqlite::memory:".into(),
        ai_workers: 1,
        hash_mib: 4,
        rate_per_sec: 10_000.0,
        rate_burst: 10_000.0,
        ws_messages_per_sec: 50.0,
        board_depth: 40,
        board_time: Duration::from_secs(120),
        ..Config::default()
    })
    .await
    .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(serve(listener, state.clone(), std::future::pending()));
    (state, addr)
}

async fn connect(addr: &str) -> Ws {
    tokio_tungstenite::connect_async(format!("ws://{addr}/api/analysis/ws"))
        .await
        .unwrap()
        .0
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

async fn next(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .expect("a message in time")
            .expect("socket open")
            .expect("no socket error");
        if let Message::Text(t) = msg {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

async fn no_evaluation_left(state: &AppState) {
    for _ in 0..200 {
        if state.board_evaluations() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{} evaluations still run", state.board_evaluations());
}

#[tokio::test]
async fn values_arrive_refine_and_stop() {
    let (state, addr) = start().await;
    let mut ws = connect(&addr).await;

    // The start: every first move from the book at once (they are one up to symmetry).
    send(&mut ws, json!({"type": "position", "id": 1, "moves": ""})).await;
    let p = next(&mut ws).await;
    assert_eq!(
        (p["type"].as_str(), p["to_move"].as_str()),
        (Some("position"), Some("black")),
        "{p}"
    );
    assert_eq!(p["legal_moves"], json!(["d3", "c4", "f5", "e6"]));
    let v = next(&mut ws).await;
    assert_eq!(
        (v["type"].as_str(), v["id"].as_u64()),
        (Some("values"), Some(1)),
        "{v}"
    );
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4, "{v}");
    assert!(
        moves
            .iter()
            .all(|m| m["kind"] == "book" && m["score"] == moves[0]["score"]),
        "{v}"
    );
    assert_eq!(v["done"], true, "all settled by the book");
    // Each candidate carries the opening it leads to.
    assert!(
        moves.iter().all(|m| m["opening"]["en"].is_null()),
        "a first move names nothing yet"
    );

    // A middle-game position out of the book: estimates, deeper with every message.
    let midgame = "f5d6c5b6b5f4a7c6e6b7c4a6a5f6c7a8d7e7f7c8g4a4g6g5h6h5";
    send(&mut ws, json!({"type": "position", "id": 2, "moves": midgame})).await;
    let mut depths = Vec::new();
    while depths.len() < 4 {
        let v = next(&mut ws).await;
        if v["type"] == "position" {
            assert_eq!(v["moves"].as_array().unwrap().len(), 26);
            continue;
        }
        assert_eq!(v["type"], "values", "{v}");
        if v["id"] != 2 {
            continue; // the end of the earlier position's stream
        }
        let moves = v["moves"].as_array().unwrap();
        if moves.is_empty() {
            continue;
        }
        assert!(
            moves
                .iter()
                .all(|m| m["kind"] == "estimate" && m["pv"][0] == m["move"]),
            "{v}"
        );
        depths.push(moves.iter().map(|m| m["depth"].as_u64().unwrap()).max().unwrap());
    }
    assert!(
        depths.windows(2).all(|w| w[1] >= w[0]) && depths[3] > depths[0],
        "{depths:?}"
    );
    assert_eq!(state.board_evaluations(), 1);
    // Stop: the evaluation ends.
    send(&mut ws, json!({"type": "stop"})).await;
    no_evaluation_left(&state).await;

    // Bad input gets a clear error, and the socket stays usable.
    send(&mut ws, json!({"type": "position", "id": 3, "moves": "f5f5"})).await;
    let e = next(&mut ws).await;
    assert_eq!(e["type"], "error", "{e}");
    assert!(e["error"].as_str().unwrap().contains("moves"), "{e}");
    send(&mut ws, json!({"type": "ping"})).await;
    loop {
        let v = next(&mut ws).await;
        if v["type"] == "pong" {
            break;
        }
    }

    // Near the end, exact values.
    let end = "f5d6c5b6b5f4a7c6e6b7c4a6a5f6c7a8d7e7f7c8g4a4g6g5h6h5d8h3h4g7e8f3b4g3h7e3h2d3f2b3e2g2d2c2h1f8";
    send(&mut ws, json!({"type": "position", "id": 4, "moves": end})).await;
    loop {
        let v = next(&mut ws).await;
        if v["id"] == 4 && v["done"] == true {
            let moves = v["moves"].as_array().unwrap();
            assert!(
                !moves.is_empty() && moves.iter().all(|m| m["kind"] == "exact"),
                "{v}"
            );
            break;
        }
    }

    // A pasted GGF game, then moves from it.
    let ggf = "(;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)";
    send(
        &mut ws,
        json!({"type": "position", "id": 5, "text": ggf, "moves": "c3"}),
    )
    .await;
    let p = next(&mut ws).await;
    assert_eq!(
        (p["type"].as_str(), p["moves"].clone()),
        (Some("position"), json!(["f5", "d6", "c3"])),
        "{p}"
    );

    // A long evaluation, then the client leaves: it stops.
    send(&mut ws, json!({"type": "position", "id": 6, "moves": midgame})).await;
    let _ = next(&mut ws).await;
    let _ = next(&mut ws).await;
    assert_eq!(state.board_evaluations(), 1);
    drop(ws);
    no_evaluation_left(&state).await;
}
