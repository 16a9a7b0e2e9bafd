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
//! `{"type":"error",…}` and `{"type":"pong"}`.

use crate::error::{Error, Result};
use crate::socket::{error_message, upgrade, Conn, Heard};
use crate::state::AppState;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use reversi_core::notation::{parse_board, write_board};
use reversi_core::{AnyPosition, Bits, Color, Game, Move, Rules, Square, Variant};
use reversi_engine::evaluate::{Evaluation, MoveValue};
use serde::Deserialize;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Engine time of one slice: the pool serves the computer's moves between slices.
const SLICE: Duration = Duration::from_millis(250);

/// Exact values for moves that leave at most this many empties.
const EXACT_EMPTIES: u32 = 16;

/// A message from the analysis board's page.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClientMessage {
    /// Evaluate this position (every legal move, deepening).
    Position {
        /// The client's number for the position (echoed on every value).
        #[serde(default)]
        id: u64,
        /// The variant preset.
        #[serde(default = "othello")]
        variant: String,
        /// Moves from the start (or from `board`, or after `text`).
        #[serde(default)]
        moves: Option<String>,
        /// A set-up board.
        #[serde(default)]
        board: Option<String>,
        /// A pasted game: a transcript, a board string, or GGF (its first game).
        #[serde(default)]
        text: Option<String>,
    },
    /// Stop evaluating.
    Stop,
    /// Keep-alive; answered by `pong`.
    Ping,
}

fn othello() -> String {
    "othello".into()
}

/// The upgrade handler.
pub async fn handler(
    State(state): State<AppState>,
    ws: std::result::Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response> {
    Ok(upgrade(&state, ws)?.on_upgrade(move |socket| session(socket, state)))
}

/// The game a position message describes: a start (the variant's, a set-up board, or a pasted
/// game) and the moves played from it.
pub fn game_of(variant: &str, moves: Option<&str>, board: Option<&str>, text: Option<&str>) -> Result<Game> {
    let variant = Variant::from_str(variant).map_err(|e| Error::BadRequest(format!("variant: {e}")))?;
    let rules = Rules::new(variant, 0);
    let mut game = match (board, text) {
        (Some(_), Some(_)) => {
            return Err(Error::BadRequest(
                "give a board or a pasted game, not both".into(),
            ))
        }
        (Some(b), None) => {
            let pos = parse_board(&rules, b).map_err(|e| Error::BadRequest(format!("board: {e}")))?;
            check_setup(&rules, &pos)?;
            Game::from_position(rules, pos)
        }
        (None, Some(t)) => pasted(rules, t)?,
        (None, None) => Game::new(rules),
    };
    let moves = reversi_core::notation::parse_transcript(moves.unwrap_or(""))
        .map_err(|e| Error::BadRequest(format!("moves: {e}")))?;
    game.play_all(&moves)
        .map_err(|e| Error::BadRequest(format!("moves: {e}")))?;
    Ok(game)
}

/// A pasted game: GGF (its first game, in its own variant), a board string, or a transcript.
fn pasted(rules: Rules, text: &str) -> Result<Game> {
    let text = text.trim();
    if text.starts_with("(;") {
        let games =
            reversi_core::format::ggf::parse_ggf(text).map_err(|e| Error::BadRequest(format!("GGF: {e}")))?;
        let g = games
            .into_iter()
            .next()
            .ok_or_else(|| Error::BadRequest("GGF: no game in the text".into()))?;
        return g.to_game().map_err(|e| Error::BadRequest(format!("GGF: {e}")));
    }
    if let Ok(pos) = parse_board(&rules, text) {
        check_setup(&rules, &pos)?;
        return Ok(Game::from_position(rules, pos));
    }
    Game::from_transcript(rules, text).map_err(|e| Error::BadRequest(format!("transcript: {e}")))
}

/// A set-up the rules could never reach is refused with the reason: in Othello and its square
/// variants the four centre squares are never empty (discs are only ever added).
fn check_setup(rules: &Rules, pos: &AnyPosition) -> Result<()> {
    if matches!(rules.variant, Variant::Othello | Variant::Nxn(_)) {
        let (w, h) = (pos.width(), pos.height());
        for (c, r) in [
            (w / 2 - 1, h / 2 - 1),
            (w / 2, h / 2 - 1),
            (w / 2 - 1, h / 2),
            (w / 2, h / 2),
        ] {
            let sq = Square::new(c, r).expect("on the board");
            if pos.disc(sq).is_none() {
                return Err(Error::BadRequest(format!(
                    "board: the centre square {sq} is empty, and a game never empties it"
                )));
            }
        }
    }
    Ok(())
}

/// The `position` message: the board the values are for.
fn position_message(id: u64, game: &Game) -> Message {
    let pos = game.position();
    let text = serde_json::json!({
        "type": "position",
        "id": id,
        "variant": game.rules().variant.to_string(),
        "width": pos.width(),
        "height": pos.height(),
        "cells": reversi_site::game::cells_of(pos),
        "to_move": (!pos.is_game_over()).then(|| pos.side_to_move().name()),
        "legal_moves": pos.legal_moves().squares().map(|s| s.to_string()).collect::<Vec<_>>(),
        "must_pass": pos.must_pass(),
        "black_count": pos.count(Color::Black),
        "white_count": pos.count(Color::White),
        "last_move": game.moves().last().map(|m| m.to_string()),
        "moves": game.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "start": write_board(game.start()),
        "standard_start": *game.start() == *Game::new(game.rules().clone()).start(),
        "result": pos.outcome().map(|o| o.margin(Color::Black)),
    })
    .to_string();
    Message::Text(text.into())
}

/// The named openings of a position and of the position after each legal move (`{"en",
/// "ru"}` or `null`), found once per position: its values are sent many times.
struct Openings {
    here: serde_json::Value,
    after: Vec<(Move, serde_json::Value)>,
}

impl Openings {
    fn of(game: &Game) -> Openings {
        let json = |o: Option<&reversi_core::openings::Opening>| {
            o.map_or(
                serde_json::Value::Null,
                |o| serde_json::json!({ "en": o.english, "ru": o.russian }),
            )
        };
        let pos = game.position();
        let after = pos
            .legal_moves()
            .squares()
            .map(|sq| {
                let mut next = *pos;
                let mv = Move::Play(sq);
                let named = next.play(mv).ok().and_then(|_| reversi_core::openings::at(&next));
                (mv, json(named))
            })
            .collect();
        Openings {
            here: json(reversi_core::openings::of_game(game, None).map(|(_, o)| o)),
            after,
        }
    }

    fn after(&self, mv: Move) -> serde_json::Value {
        self.after
            .iter()
            .find(|(m, _)| *m == mv)
            .map_or(serde_json::Value::Null, |(_, o)| o.clone())
    }
}

/// A `values` message: every move with its value, and the opening each move leads to.
fn values_message(
    id: u64,
    pos: &AnyPosition,
    openings: &Openings,
    values: &[MoveValue],
    depth: u32,
    done: bool,
) -> Message {
    // Best first: the coach compares each move with the first.
    let best = values.iter().max_by_key(|v| v.score);
    let moves: Vec<serde_json::Value> = values
        .iter()
        .map(|v| {
            let facts = best.map_or_else(Vec::new, |b| {
                crate::analysis::facts_json(&reversi_engine::coach::explain(
                    pos,
                    v.mv,
                    &v.pv,
                    b.mv,
                    &b.pv,
                    (b.score - v.score).max(0),
                ))
            });
            serde_json::json!({
                "facts": facts,
                "move": v.mv.to_string(),
                "score": v.score,
                "kind": v.kind.name(),
                "depth": v.depth,
                "pv": v.pv.iter().map(Move::to_string).collect::<Vec<_>>(),
                "opening": openings.after(v.mv),
            })
        })
        .collect();
    let text = serde_json::json!({
        "type": "values", "id": id, "depth": depth, "done": done, "opening": openings.here, "moves": moves,
    })
    .to_string();
    Message::Text(text.into())
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
        .send(values_message(
            id,
            game.position(),
            &openings,
            &e.values(),
            e.depth(),
            e.finished(max_depth),
        ))
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
                .send(values_message(
                    id,
                    game.position(),
                    &openings,
                    &e.values(),
                    e.depth(),
                    done,
                ))
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
                let msg: ClientMessage = match crate::body::parse_object(text.as_bytes()) {
                    Ok(m) => m,
                    Err(e) => {
                        if !conn.send(error_message(&e)).await { break; }
                        continue;
                    }
                };
                match msg {
                    ClientMessage::Ping => {
                        if !conn.send_text(r#"{"type":"pong"}"#.into()).await { break; }
                    }
                    ClientMessage::Stop => {
                        if let Some(s) = current.take() { s.store(true, Relaxed); }
                    }
                    ClientMessage::Position { id, variant, moves, board, text } => {
                        if let Some(s) = current.take() { s.store(true, Relaxed); }
                        match game_of(&variant, moves.as_deref(), board.as_deref(), text.as_deref()) {
                            Ok(game) => {
                                if !conn.send(position_message(id, &game)).await { break; }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_read_with_clear_errors() {
        assert_eq!(game_of("othello", Some("f5d6"), None, None).unwrap().ply(), 2);
        let e = game_of("othello", Some("f5f5"), None, None).unwrap_err();
        assert!(e.to_string().starts_with("moves:"), "{e}");
        assert!(game_of("chess", None, None, None)
            .unwrap_err()
            .to_string()
            .starts_with("variant:"));
        assert!(game_of("othello", None, Some("x"), Some("f5")).is_err());
        let e = game_of("othello", None, Some("not a board"), None).unwrap_err();
        assert!(e.to_string().starts_with("board:"), "{e}");
        // A pasted transcript, board or GGF; moves go on from it.
        assert_eq!(
            game_of("othello", Some("c3"), None, Some("f5 d6")).unwrap().ply(),
            3
        );
        let start = write_board(Game::new(Rules::othello()).start());
        assert_eq!(
            game_of("othello", Some("f5"), None, Some(&start)).unwrap().ply(),
            1
        );
        let ggf = "(;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)";
        assert_eq!(
            game_of("othello", None, None, Some(ggf)).unwrap().transcript(),
            "f5d6"
        );
        let e = game_of("othello", None, None, Some("(;GM[Othello]BO[")).unwrap_err();
        assert!(e.to_string().starts_with("GGF:"), "{e}");
        // An editor's set-up with an empty centre is refused with the reason.
        let mut empty_centre = start.clone().into_bytes();
        empty_centre[27] = b'-';
        let e = game_of(
            "othello",
            None,
            Some(std::str::from_utf8(&empty_centre).unwrap()),
            None,
        )
        .unwrap_err();
        assert!(e.to_string().contains("centre square d4"), "{e}");
    }
}
