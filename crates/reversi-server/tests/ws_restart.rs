//! Websockets over a real listener on 127.0.0.1:0 (two players and a spectator, a rematch
//! offered to the other player), the restart tests (a game and an analysis stored in a SQLite
//! file survive dropping the whole server state), and idle games leaving memory.

use futures_util::{SinkExt, StreamExt};
use reversi_server::{serve, AppState, Config};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

#[macro_use]
mod common;

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

/// The next message that is not a state or a presence event (a direct reply: an error or a
/// pong). States arrive whenever the game changes, presence events whenever who is connected
/// does.
async fn next_reply(ws: &mut Ws) -> Value {
    loop {
        let v = next_json(ws).await;
        if v["type"] != "state" && v["type"] != "presence" {
            return v;
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
        .rounds()
        .create(reversi_server::round::NewGame {
            mode: reversi_site::game::Mode::Friend,
            variant: "othello".into(),
            level: 1,
            color: Some(reversi_core::Color::Black),
            tie: Default::default(),
        })
        .await
        .unwrap();
    let id = seated.view.id.clone();
    let invite = seated.invite.clone();
    let black = seated.token;
    let white = state
        .rounds()
        .join(&id, None, invite.as_deref())
        .await
        .unwrap()
        .token;
    let (addr, stop) = start(state).await;

    let mut b = connect(&addr, &id, Some(&black)).await;
    let mut w = connect(&addr, &id, Some(&white)).await;
    let mut s = connect(&addr, &id, None).await;
    assert_eq!(state_at(&mut b, 0).await["you"], json!(["black"]));
    assert_eq!(state_at(&mut w, 0).await["you"], json!(["white"]));
    assert_eq!(state_at(&mut s, 0).await["you"], json!([]));

    // Errors come back to the sender only.
    send(&mut w, json!({"type": "move", "move": "d3"})).await;
    assert_eq!(next_reply(&mut w).await["code"], "not_your_turn");
    send(&mut s, json!({"type": "move", "move": "d3"})).await;
    assert_eq!(next_reply(&mut s).await["code"], "no_seat");
    send(&mut b, json!({"type": "move", "move": "a1"})).await;
    assert_eq!(next_reply(&mut b).await["code"], "illegal_move");
    send(&mut b, json!({"type": "dance"})).await;
    assert_eq!(next_reply(&mut b).await["code"], "bad_request");
    send(&mut b, json!({"type": "ping"})).await;
    assert_eq!(next_reply(&mut b).await["type"], "pong");

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
    // (States and presence events already on their way may still arrive first.)
    let end = loop {
        let m = tokio::time::timeout(Duration::from_secs(5), s.next())
            .await
            .unwrap();
        match &m {
            Some(Ok(Message::Text(t)))
                if t.contains(r#""type":"state""#) || t.contains(r#""type":"presence""#) =>
            {
                continue
            }
            _ => break m,
        }
    };
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

fn temp_db() -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!("reversi-restart-{}-{nanos}.db", std::process::id()))
}

/// The restart test on `db` (a PostgreSQL URL), or on a fresh SQLite file for [`common::SQLITE`].
async fn games_survive_a_restart(db: String) {
    use reversi_server::round::NewGame;
    use reversi_site::game::Mode;
    let path = temp_db();
    // A restart needs a database that outlives the server: SQLite on a file.
    let url = if db == common::SQLITE {
        format!("sqlite://{}", path.display())
    } else {
        db
    };
    let new = |mode, color| NewGame {
        mode,
        variant: "nxn:6".into(),
        level: 1,
        color: Some(color),
        tie: Default::default(),
    };

    let state = AppState::new(config(&url)).await.unwrap();
    let friend = state
        .rounds()
        .create(new(Mode::Friend, reversi_core::Color::Black))
        .await
        .unwrap();
    let id = friend.view.id.clone();
    let black = friend.token.clone();
    let white = state
        .rounds()
        .join(&id, None, friend.invite.as_deref())
        .await
        .unwrap()
        .token;
    let tokens = [black.clone(), white.clone()];
    let mut view = friend.view.clone();
    for i in 0..8 {
        let mv = view.legal_moves[i % view.legal_moves.len()].clone();
        let t = &tokens[view.to_move.unwrap().index()];
        view = state
            .rounds()
            .play(&id, Some(t), &mv, Some(view.ply), false)
            .await
            .unwrap();
    }
    let before = view.clone();
    let ai = state
        .rounds()
        .create(new(Mode::Ai, reversi_core::Color::Black))
        .await
        .unwrap();
    state
        .rounds()
        .play(&ai.view.id, Some(&ai.token), &ai.view.legal_moves[0], None, true)
        .await
        .unwrap();
    let ai_before = state.rounds().view(&ai.view.id, None).await.unwrap().0;
    assert_eq!(ai_before.ply, 2);
    state.db().close().await;
    drop(state);

    // A new server over the same file.
    let state = AppState::new(config(&url)).await.unwrap();
    let (after, seats) = state.rounds().view(&id, Some(&white)).await.unwrap();
    assert_eq!(seats, vec![reversi_core::Color::White]);
    assert_eq!(after.cells, before.cells);
    assert_eq!(after.moves, before.moves);
    assert_eq!(after.to_move, before.to_move);
    let (ai_after, _) = state.rounds().view(&ai.view.id, Some(&ai.token)).await.unwrap();
    assert_eq!(ai_after.cells, ai_before.cells);

    // Finish the game.
    let mut view = after;
    while view.status.as_str() == "playing" {
        let mv = view.legal_moves[0].clone();
        let t = &tokens[view.to_move.unwrap().index()];
        view = state
            .rounds()
            .play(&id, Some(t), &mv, Some(view.ply), false)
            .await
            .unwrap();
    }
    let result = view.result.clone().unwrap();
    assert_eq!(result.black + result.white, 36);
    state.db().close().await;
    drop(state);

    let state = AppState::new(config(&url)).await.unwrap();
    let (again, _) = state.rounds().view(&id, None).await.unwrap();
    assert_eq!(again.status.as_str(), "finished");
    assert_eq!(again.result, Some(result));
    let (list, _) = state.rounds().list(Some("finished"), 0, 10).await.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].move_count as usize, again.ply);
    state.db().close().await;
    drop(state);
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
}

/// Reads messages until a state for which `pred` holds.
async fn state_where(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let v = next_json(ws).await;
        assert_ne!(v["type"], "error", "{v}");
        if v["type"] == "state" && pred(&v["game"]) {
            return v;
        }
    }
}

async fn rematch_reaches_the_other_player(db: String) {
    use reversi_site::game::Mode;
    let state = AppState::new(config(&db)).await.unwrap();
    let seated = state
        .rounds()
        .create(reversi_server::round::NewGame {
            mode: Mode::Friend,
            variant: "nxn:6".into(),
            level: 1,
            color: Some(reversi_core::Color::Black),
            tie: Default::default(),
        })
        .await
        .unwrap();
    let id = seated.view.id.clone();
    let invite = seated.invite.clone();
    let black = seated.token;
    let white = state
        .rounds()
        .join(&id, None, invite.as_deref())
        .await
        .unwrap()
        .token;
    let (addr, stop) = start(state.clone()).await;
    let mut b = connect(&addr, &id, Some(&black)).await;
    let mut w = connect(&addr, &id, Some(&white)).await;
    let mut s = connect(&addr, &id, None).await;
    for ws in [&mut b, &mut w, &mut s] {
        state_at(ws, 0).await;
    }
    send(&mut b, json!({"type": "resign"})).await;
    for ws in [&mut b, &mut w, &mut s] {
        let v = state_where(ws, |g| g["status"] == "finished").await;
        assert_eq!(v["game"]["rematch"], Value::Null);
    }
    // Black asks for the rematch (over HTTP, as the page does): White and the spectator hear.
    let (seat, created) = state.rounds().rematch(&id, Some(&black)).await.unwrap();
    assert!(created);
    let new_id = seat.view.id.clone();
    assert_eq!(seat.seats, vec![reversi_core::Color::White]);
    for ws in [&mut w, &mut s] {
        let v = state_where(ws, |g| !g["rematch"].is_null()).await;
        assert_eq!(v["game"]["rematch"], new_id.as_str());
    }
    // White takes the offer: the black seat of the same new game.
    let (seat, created) = state.rounds().rematch(&id, Some(&white)).await.unwrap();
    assert!(!created);
    assert_eq!(seat.view.id, new_id);
    assert_eq!(seat.seats, vec![reversi_core::Color::Black]);
    let mut nb = connect(&addr, &new_id, Some(&seat.token)).await;
    let v = state_at(&mut nb, 0).await;
    assert_eq!(v["you"], json!(["black"]));
    assert_eq!(v["game"]["variant"], "nxn:6");
    let _ = stop.send(());
}

/// The analysis restart test on `db` (a PostgreSQL URL), or on a fresh SQLite file: a job
/// that a server had taken and then died with, and one only queued, both end done.
async fn analysis_survives_a_restart(db: String) {
    use reversi_server::round::NewGame;
    use reversi_site::game::Mode;
    let path = temp_db();
    // A restart needs a database that outlives the server: SQLite on a file.
    let url = if db == common::SQLITE {
        format!("sqlite://{}", path.display())
    } else {
        db
    };
    let mut cfg = config(&url);
    cfg.analysis_level = 4;
    cfg.analysis_stale = Duration::from_secs(1);

    // Two finished games.
    let state = AppState::new(cfg.clone()).await.unwrap();
    let mut games = Vec::new();
    for variant in ["othello", "nxn:6"] {
        let seated = state
            .rounds()
            .create(NewGame {
                mode: Mode::Local,
                variant: variant.into(),
                level: 1,
                color: None,
                tie: Default::default(),
            })
            .await
            .unwrap();
        let mut view = seated.view.clone();
        while view.status.as_str() == "playing" {
            let mv = view.legal_moves[view.ply % view.legal_moves.len()].clone();
            view = state
                .rounds()
                .play(&view.id, Some(&seated.token), &mv, Some(view.ply), false)
                .await
                .unwrap();
        }
        games.push(view);
    }
    state.db().close().await;
    drop(state);

    // While no server runs: one analysis is taken by a server that then dies, one is queued.
    let db = reversi_server::db::Db::connect(&url).await.unwrap();
    assert_eq!(
        db.analyses()
            .request_analysis(&games[0].id, 4, "ip:1", 3, 100)
            .await
            .unwrap(),
        Ok("queued".into())
    );
    let claimed = db
        .analyses()
        .claim_analysis("a-server-that-died", i64::MAX)
        .await
        .unwrap();
    assert_eq!(claimed, Some((games[0].id.clone(), 4)));
    assert_eq!(
        db.analyses()
            .request_analysis(&games[1].id, 4, "ip:1", 3, 100)
            .await
            .unwrap(),
        Ok("queued".into())
    );
    assert_eq!(
        db.analyses()
            .analysis(&games[0].id)
            .await
            .unwrap()
            .unwrap()
            .status,
        "running"
    );
    db.close().await;

    // A new server finishes both.
    let state = AppState::new(cfg.clone()).await.unwrap();
    for game in &games {
        let end = std::time::Instant::now() + Duration::from_secs(120);
        let a = loop {
            let a = state.analysis(&game.id).await.unwrap();
            if a.status.as_str() == "done" {
                break a;
            }
            assert!(["queued", "running"].contains(&a.status.as_str()), "{a:?}");
            assert!(std::time::Instant::now() < end, "not done: {a:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let played: Vec<(usize, &String)> = game
            .moves
            .iter()
            .enumerate()
            .filter(|(_, m)| *m != "pass")
            .collect();
        assert_eq!(a.moves.len(), played.len());
        for (m, (i, mv)) in a.moves.iter().zip(&played) {
            assert_eq!(m.ply as usize, i + 1);
            assert_eq!(&&m.played, mv);
            assert!(m.loss >= 0 && m.loss == m.best_score - m.played_score, "{m:?}");
        }
        let margin = game.result.as_ref().unwrap().black_margin as i64;
        assert_eq!(*a.black_scores.last().unwrap(), margin);
    }
    state.db().close().await;
    drop(state);

    // Still there after another restart.
    let state = AppState::new(cfg).await.unwrap();
    let a = state.analysis(&games[0].id).await.unwrap();
    assert_eq!(a.status.as_str(), "done");
    assert_eq!(a.progress.done, a.progress.total);
    state.db().close().await;
    drop(state);
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
}

/// Games nobody watches or uses leave memory and come back from the database unchanged.
async fn idle_games_leave_memory(db: String) {
    use reversi_server::round::NewGame;
    use reversi_site::game::Mode;
    let mut cfg = config(&db);
    cfg.idle_evict = None; // evicted by hand below
    let state = AppState::new(cfg).await.unwrap();
    let new = |mode| NewGame {
        mode,
        variant: "othello".into(),
        level: 1,
        color: Some(reversi_core::Color::Black),
        tie: Default::default(),
    };
    let friend = state.rounds().create(new(Mode::Friend)).await.unwrap();
    let id = friend.view.id.clone();
    let white = state
        .rounds()
        .join(&id, None, friend.invite.as_deref())
        .await
        .unwrap()
        .token;
    let local = state.rounds().create(new(Mode::Local)).await.unwrap();
    let mut view = local.view.clone();
    for _ in 0..5 {
        let mv = view.legal_moves[0].clone();
        view = state
            .rounds()
            .play(&view.id, Some(&local.token), &mv, None, false)
            .await
            .unwrap();
    }
    let (addr, stop) = start(state.clone()).await;
    let mut w = connect(&addr, &id, Some(&white)).await;
    state_at(&mut w, 0).await;
    assert_eq!(state.rounds().games_in_memory(), 2);
    assert_eq!(
        state.rounds().evict_idle(Duration::from_secs(3600)),
        0,
        "nothing is idle that long"
    );
    // The game with a socket stays; the other leaves.
    assert_eq!(state.rounds().evict_idle(Duration::ZERO), 1);
    assert_eq!(state.rounds().games_in_memory(), 1);
    let (back, seats) = state
        .rounds()
        .view(&local.view.id, Some(&local.token))
        .await
        .unwrap();
    assert_eq!(back.moves, view.moves);
    assert_eq!(back.cells, view.cells);
    assert_eq!(seats.len(), 2);
    let mv = back.legal_moves[0].clone();
    let after = state
        .rounds()
        .play(&back.id, Some(&local.token), &mv, Some(back.ply), false)
        .await
        .unwrap();
    assert_eq!(after.ply, 6);

    // Once its socket closes, the friend game leaves too; play goes on afterwards.
    drop(w);
    let end = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        state.rounds().evict_idle(Duration::ZERO);
        if state.rounds().games_in_memory() == 0 {
            break;
        }
        assert!(std::time::Instant::now() < end, "the closed socket's game stayed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut b = connect(&addr, &id, Some(&friend.token)).await;
    assert_eq!(state_at(&mut b, 0).await["you"], json!(["black"]));
    send(&mut b, json!({"type": "move", "move": "d3", "ply": 0})).await;
    state_at(&mut b, 1).await;
    assert_eq!(
        state.rounds().view(&id, None).await.unwrap().0.moves,
        vec!["d3".to_string()]
    );
    let _ = stop.send(());

    // The sweeper does it by itself.
    let mut cfg = config(&db);
    cfg.idle_evict = Some(Duration::from_millis(200));
    let state = AppState::new(cfg).await.unwrap();
    let g = state.rounds().create(new(Mode::Local)).await.unwrap();
    assert_eq!(state.rounds().games_in_memory(), 1);
    let end = std::time::Instant::now() + Duration::from_secs(10);
    while state.rounds().games_in_memory() > 0 {
        assert!(std::time::Instant::now() < end, "the idle game stayed in memory");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        state.rounds().view(&g.view.id, None).await.unwrap().0.cells,
        g.view.cells
    );
}

on_both_databases!(
    two_players_and_a_spectator_over_websockets,
    games_survive_a_restart,
    rematch_reaches_the_other_player,
    analysis_survives_a_restart,
    idle_games_leave_memory,
);
