//! The analysis board's engine: a websocket (`/api/analysis/ws`) that evaluates every legal
//! move of the position a client sends, deeper and deeper, and streams the values as they
//! refine. Engine time is shared: the evaluation runs in slices on the same bounded pool as
//! the computer's moves, stops when the client sends another position, says `stop` or leaves,
//! and is capped in depth and time per position by the server's configuration.
//!
//! Client messages: `{"type":"position","id":7,"variant":"othello","moves":"f5d6"}` (or
//! `"board":"<squares> X"` instead of `moves`), `{"type":"stop"}`, `{"type":"ping"}`. Server
//! messages: `{"type":"values","id":7,"depth":5,"done":false,"opening":…,"moves":[{"move":"c3",
//! "score":-1,"kind":"book"|"exact"|"wld"|"estimate","depth":…,"pv":[…],"opening":…,
//! "facts":[{"id":"coach-…","args":{…}}…]}]}` (`facts`: the coach's sentences about the move
//! against the best one, `reversi_engine::coach`),
//! `{"type":"error",…}` and `{"type":"pong"}`. The messages are typed in
//! `reversi_site_api::analysis` and built by `reversi_analysis`, which the browser's own engine
//! shares: the page hears the same events from either.

use crate::error::{Error, Result};
use crate::socket::{error_message, upgrade, Conn, Heard};
use crate::state::AppState;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use reversi_analysis::{position_event, values_event, Openings};
use reversi_core::Game;
use reversi_engine::evaluate::Evaluation;
use reversi_site_api::analysis::{AnalysisEvent, AnalysisRequest, PositionRequest};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Engine time of one slice: the pool serves the computer's moves between slices.
const SLICE: Duration = Duration::from_millis(250);

/// Exact values for moves that leave at most this many empties.
const EXACT_EMPTIES: u32 = 16;

/// The upgrade handler.
pub async fn handler(
    State(state): State<AppState>,
    ws: std::result::Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response> {
    Ok(upgrade(&state, ws)?.on_upgrade(move |socket| session(socket, state)))
}

/// The game a position request describes (`reversi_analysis::game_of`), its errors as a bad
/// request.
pub fn game_of(req: &PositionRequest) -> Result<Game> {
    reversi_analysis::game_of(req).map_err(|e| Error::BadRequest(e.to_string()))
}

fn message(event: &AnalysisEvent) -> Message {
    Message::Text(serde_json::to_string(event).unwrap_or_default().into())
}

/// One evaluation: slices on the pool until it is finished, out of time or stopped; each slice
/// that changed a value sends the values.
async fn evaluate(state: AppState, id: u64, game: Game, stop: Arc<AtomicBool>, tx: mpsc::Sender<Message>) {
    state.inner.board_evaluations.fetch_add(1, Relaxed);
    run_evaluation(&state, id, game, &stop, &tx).await;
    state.inner.board_evaluations.fetch_sub(1, Relaxed);
}

async fn run_evaluation(
    state: &AppState,
    id: u64,
    game: Game,
    stop: &Arc<AtomicBool>,
    tx: &mpsc::Sender<Message>,
) {
    let config = state.config();
    let (max_depth, budget) = (config.board_depth, config.board_time);
    let deadline = Instant::now() + budget;
    let mut e = Evaluation::new(game.position(), config.book.0.as_deref());
    let openings = Openings::of(&game);
    // The book's values (or a finished game) at once.
    let _ = tx
        .send(message(&AnalysisEvent::Values(values_event(
            id,
            game.position(),
            &openings,
            &e.values(),
            e.depth(),
            e.finished(max_depth),
        ))))
        .await;
    while !e.finished(max_depth) && !stop.load(Relaxed) && Instant::now() < deadline {
        let s = Arc::clone(stop);
        let slice = state
            .inner
            .ai
            .evaluate_slice(e, EXACT_EMPTIES, SLICE, deadline, s)
            .await;
        let changed;
        (e, changed) = match slice {
            Ok(r) => r,
            Err(err) => {
                let _ = tx.send(error_message(&err)).await;
                return;
            }
        };
        if stop.load(Relaxed) {
            return;
        }
        let done = e.finished(max_depth) || Instant::now() >= deadline;
        if (changed || done)
            && tx
                .send(message(&AnalysisEvent::Values(values_event(
                    id,
                    game.position(),
                    &openings,
                    &e.values(),
                    e.depth(),
                    done,
                ))))
                .await
                .is_err()
        {
            return;
        }
    }
}

async fn session(socket: WebSocket, state: AppState) {
    let Some(mut conn) = Conn::open(socket, &state) else {
        return;
    };
    let open = metrics::gauge!("reversi_analysis_board_connections");
    open.increment(1.0);
    let (tx, mut rx) = mpsc::channel::<Message>(8);
    let mut current: Option<Arc<AtomicBool>> = None;
    loop {
        tokio::select! {
            seen = conn.next() => {
                let text = match conn.handle(seen).await {
                    Heard::End => break,
                    Heard::Pong(_) | Heard::Nothing => continue,
                    Heard::Text(text) => text,
                };
                let msg: AnalysisRequest = match crate::body::parse_object(text.as_bytes()) {
                    Ok(m) => m,
                    Err(e) => {
                        if !conn.send(error_message(&e)).await { break; }
                        continue;
                    }
                };
                match msg {
                    AnalysisRequest::Ping => {
                        if !conn.send(message(&AnalysisEvent::Pong)).await { break; }
                    }
                    AnalysisRequest::Stop => {
                        if let Some(s) = current.take() { s.store(true, Relaxed); }
                    }
                    AnalysisRequest::Position(req) => {
                        if let Some(s) = current.take() { s.store(true, Relaxed); }
                        let id = req.id;
                        match game_of(&req) {
                            Ok(game) => {
                                if !conn.send(message(&AnalysisEvent::Position(position_event(id, &game)))).await { break; }
                                let stop = Arc::new(AtomicBool::new(false));
                                current = Some(Arc::clone(&stop));
                                tokio::spawn(evaluate(state.clone(), id, game, stop, tx.clone()));
                            }
                            Err(e) => {
                                if !conn.send(error_message(&e)).await { break; }
                            }
                        }
                    }
                }
            }
            Some(msg) = rx.recv() => {
                if !conn.send(msg).await { break; }
            }
        }
    }
    // The client left: its evaluation stops at the next check (at most one search).
    if let Some(s) = current.take() {
        s.store(true, Relaxed);
    }
    open.decrement(1.0);
}
