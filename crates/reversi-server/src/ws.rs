//! `GET /api/games/{id}/ws`: a websocket that pushes the game's state after every change and
//! accepts moves, resignations and undos from seat holders.
//!
//! Server to client: `{"type":"state","game":GAME,"you":["black"]}`, `{"type":"presence",
//! "presence":PRESENCE}` (who is connected changed: the `presence` object of the state, alone),
//! `{"type":"chat","line":LINE}` (a message of the reader's room), `{"type":"error",
//! "error":MESSAGE,"code":CODE}`, `{"type":"pong"}`. Client to server: `{"type":"move",
//! "move":"d3","ply":4}` (`ply` optional), `{"type":"resign","color":"black"}` (`color`
//! optional), `{"type":"undo"}`, `{"type":"abort"}`, `{"type":"claim"}` (the win from an
//! opponent who left), `{"type":"ping"}`.
//!
//! Each socket counts as its seats' connection, or a spectator's ([`reversi_site::game::presence`]), from
//! its first state to its end.
//!
//! The seat token comes as for the HTTP API: the game's cookie or `Authorization: Bearer`
//! (never in the URL, which ends up in logs). It is looked up again for every action, with the
//! credentials the socket was opened with: an account's seat acts only while that sign-in is
//! valid, so a password change or a deletion ends what an old session's socket can do. The server pings every third of
//! [`crate::Config::ws_idle`] and closes a socket that has sent nothing, not even a pong, for
//! that long.

use crate::error::{Error, Result};
use crate::limit::TokenBucket;
use crate::round::GameEvent;
use crate::state::AppState;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use reversi_core::Color;
use reversi_site::game::parse_color;
use reversi_site_api::GameView;
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;
use tracing::Instrument;

/// Close code sent to a client that floods the socket (policy violation).
pub const CLOSE_FLOOD: u16 = 1008;

/// Close code sent to a client that went silent (going away).
pub const CLOSE_IDLE: u16 = 1001;

/// Close code sent to every client when the server stops (service restart): the page
/// reconnects at once, to another instance behind a balancer or to this one once it is back.
pub const CLOSE_RESTART: u16 = 1012;

/// A message from the client.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClientMessage {
    /// Play a move.
    Move {
        /// The square or `pass`.
        #[serde(rename = "move")]
        mv: String,
        /// The ply the client saw.
        #[serde(default)]
        ply: Option<usize>,
    },
    /// Resign (`color` on a shared device).
    Resign {
        /// Which colour resigns.
        #[serde(default)]
        color: Option<String>,
    },
    /// Take back the last move against the computer.
    Undo,
    /// End the game without a result, while the two sides have not both moved.
    Abort,
    /// Claim the win from an opponent who left the game ([`reversi_site::game::presence`]).
    Claim,
    /// Keep-alive; answered by `pong`.
    Ping,
}

/// The upgrade handler.
pub async fn handler(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response> {
    let ws = ws.map_err(|_| Error::BadRequest("this address is a websocket: open it as one".into()))?;
    // Unknown games are refused before the upgrade, with a 404.
    state.rounds().view(&id, None).await?;
    let token = state.seat_token(&headers, &id).await?;
    let max = state.config().max_ws_message_bytes;
    let request = tracing::Span::current();
    // Small buffers: the library's default 128 KiB read buffer per socket was most of the
    // server's memory with thousands of players. Messages are at most `max` bytes coming in
    // and a few KiB going out; each one is written at once.
    Ok(ws
        .read_buffer_size(max.clamp(1024, 16 * 1024))
        .write_buffer_size(0)
        .max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket| {
            // The session outlives the request: it carries the request's span (and id) on.
            let span = tracing::info_span!(parent: &request, "websocket", game = %id);
            session(socket, state, id, token, credentials(&headers)).instrument(span)
        }))
}

/// A published state (its JSON made once for every socket) as a `state` message.
fn published_message(json: &str, you: &[Color]) -> Message {
    let names: Vec<&str> = you.iter().map(|c| c.name()).collect();
    let you = serde_json::to_string(&names).unwrap_or_else(|_| "[]".into());
    Message::Text(format!(r#"{{"type":"state","you":{you},"game":{json}}}"#).into())
}

fn state_message(game: &GameView, you: &[Color]) -> Message {
    let names: Vec<&str> = you.iter().map(|c| c.name()).collect();
    let text = if you.is_empty() && game.hides_from_spectators() {
        let shown = game.clone().for_viewer(you.is_empty());
        serde_json::json!({ "type": "state", "game": shown, "you": names }).to_string()
    } else {
        serde_json::json!({ "type": "state", "game": game, "you": names }).to_string()
    };
    Message::Text(text.into())
}

/// An `error` message for a websocket client (the analysis board's too).
pub(crate) fn error_message(e: &Error) -> Message {
    let mut body = e.body();
    body["type"] = "error".into();
    Message::Text(body.to_string().into())
}

/// The headers that say who a socket's client is (cookies, bearer token), kept to look its seat
/// up again at each action.
fn credentials(headers: &HeaderMap) -> HeaderMap {
    let mut kept = HeaderMap::new();
    for name in [axum::http::header::COOKIE, axum::http::header::AUTHORIZATION] {
        for v in headers.get_all(&name) {
            kept.append(name.clone(), v.clone());
        }
    }
    kept
}

async fn session(socket: WebSocket, state: AppState, id: String, token: Option<String>, creds: HeaderMap) {
    let open = metrics::gauge!("reversi_websocket_connections");
    open.increment(1.0);
    if let Some(seats) = run_session(socket, &state, &id, token, &creds).await {
        state.rounds().leave(&id, &seats).await;
    }
    open.decrement(1.0);
}

/// Runs the session; returns the seats it counted as connected, if it got that far.
async fn run_session(
    mut socket: WebSocket,
    state: &AppState,
    id: &str,
    token: Option<String>,
    creds: &HeaderMap,
) -> Option<Vec<Color>> {
    // Taken first: a session is counted from here until it ends, so a stopping server can
    // wait for the last one.
    let mut stopping = state.stopping();
    if state.is_stopping() {
        return None;
    }
    let Ok((mut rx, view, seats)) = state.rounds().subscribe(id, token.as_deref()).await else {
        return None;
    };
    let Ok(mut chat) = state.rounds().subscribe_chat(id).await else {
        return None;
    };
    // Players read the players' room, everyone else the spectators'.
    let room = if seats.is_empty() { "spectators" } else { "players" };
    let mut ping_sent: Option<tokio::time::Instant> = None;
    if socket.send(state_message(&view, &seats)).await.is_err() {
        return None;
    }
    state.rounds().enter(id, &seats).await;
    let rate = state.config().ws_messages_per_sec;
    let mut bucket = TokenBucket::new(rate, rate * 2.0);
    let idle = state.config().ws_idle;
    let mut pings = tokio::time::interval(idle / 3);
    pings.tick().await;
    let mut last_heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            () = async { let _ = stopping.wait_for(|s| *s).await; } => {
                let frame = CloseFrame { code: CLOSE_RESTART, reason: "the server is restarting".into() };
                if socket.send(Message::Close(Some(frame))).await.is_ok() {
                    closing_handshake(&mut socket).await;
                }
                break;
            }
            _ = pings.tick() => {
                if last_heard.elapsed() >= idle {
                    let frame = CloseFrame { code: CLOSE_IDLE, reason: "nothing heard for too long".into() };
                    if socket.send(Message::Close(Some(frame))).await.is_ok() {
                        closing_handshake(&mut socket).await;
                    }
                    break;
                }
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() { break; }
                ping_sent = Some(tokio::time::Instant::now());
            }
            incoming = socket.recv() => {
                last_heard = tokio::time::Instant::now();
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        let e = Error::BadRequest("send JSON text messages".into());
                        if socket.send(error_message(&e)).await.is_err() { break; }
                        continue;
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(Message::Pong(_))) => {
                        // The round trip of the ping: the lag the clock gives back a little of.
                        if let (Some(sent), false) = (ping_sent.take(), seats.is_empty()) {
                            state.rounds().observe_lag(id, &seats, sent.elapsed().as_millis() as u64);
                        }
                        continue;
                    }
                    Some(Ok(_)) => continue,
                };
                if !bucket.take() {
                    let frame = CloseFrame { code: CLOSE_FLOOD, reason: "too many messages".into() };
                    if socket.send(Message::Close(Some(frame))).await.is_ok() {
                        closing_handshake(&mut socket).await;
                    }
                    break;
                }
                if let Some(reply) = handle(state, id, creds, &text).await {
                    if socket.send(reply).await.is_err() { break; }
                }
            }
            line = chat.recv() => {
                match line {
                    Ok(line) if line.room == room => {
                        let text = serde_json::json!({ "type": "chat", "line": *line }).to_string();
                        if socket.send(Message::Text(text.into())).await.is_err() { break; }
                    }
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => break,
                }
            }
            update = rx.recv() => {
                let msg = match update {
                    Ok(event) => match &*event {
                        GameEvent::State(p) => published_message(p.json_for(seats.is_empty()), &seats),
                        GameEvent::Presence(json) => {
                            Message::Text(format!(r#"{{"type":"presence","presence":{json}}}"#).into())
                        }
                    },
                    Err(RecvError::Lagged(_)) => match state.rounds().view(id, token.as_deref()).await {
                        Ok((game, _)) => state_message(&game, &seats),
                        Err(_) => break,
                    },
                    Err(RecvError::Closed) => break,
                };
                if socket.send(msg).await.is_err() { break; }
            }
        }
    }
    Some(seats)
}

/// After sending a close frame: reads (and drops) what the client still sends until it answers
/// the close, for a second at most. Closing with unread data would reset the connection, and
/// the client could lose the close frame with its reason.
async fn closing_handshake(socket: &mut WebSocket) {
    let end = tokio::time::Instant::now() + std::time::Duration::from_secs(1);
    while let Ok(Some(Ok(msg))) = tokio::time::timeout_at(end, socket.recv()).await {
        if matches!(msg, Message::Close(_)) {
            break;
        }
    }
}

/// Carries out one client message; returns the direct reply (errors and pongs; new states
/// arrive through the game's channel).
async fn handle(state: &AppState, id: &str, creds: &HeaderMap, text: &str) -> Option<Message> {
    let msg: ClientMessage = match crate::body::parse_object(text.as_bytes()) {
        Ok(m) => m,
        Err(e) => return Some(error_message(&e)),
    };
    if matches!(msg, ClientMessage::Ping) {
        return Some(Message::Text(r#"{"type":"pong"}"#.into()));
    }
    let token = match state.seat_token(creds, id).await {
        Ok(t) => t,
        Err(e) => return Some(error_message(&e)),
    };
    let token = token.as_deref();
    let result = match msg {
        ClientMessage::Ping => return Some(Message::Text(r#"{"type":"pong"}"#.into())),
        ClientMessage::Move { mv, ply } => state.rounds().play(id, token, &mv, ply, false).await.map(drop),
        ClientMessage::Resign { color } => match color.as_deref().map(parse_color) {
            Some(None) => Err(Error::BadRequest("color must be black or white".into())),
            Some(c) => state.rounds().resign(id, token, c).await.map(drop),
            None => state.rounds().resign(id, token, None).await.map(drop),
        },
        ClientMessage::Undo => state.rounds().undo(id, token).await.map(drop),
        ClientMessage::Abort => state.rounds().abort(id, token).await.map(drop),
        ClientMessage::Claim => state.rounds().claim(id, token).await.map(drop),
    };
    result.err().map(|e| error_message(&e))
}
