//! `GET /api/lobby/ws`: the lobby, pushed. On connecting and after every change of the seeks,
//! the pools or the games they became — made at this instance or, through `LISTEN`, at
//! another — the server sends `{"type":"lobby","lobby":LOBBY}` with the body of
//! `GET /api/lobby` as the visitor (by their cookie) sees it, when it differs from the last one
//! sent. While the socket is open the visitor's seeks stay open, as polling keeps them.
//! The client sends nothing but `{"type":"ping"}` (answered `{"type":"pong"}`).

use crate::error::{Error, Result};
use crate::session::Identity;
use crate::state::AppState;
use crate::ws::{error_message, CLOSE_RESTART};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use std::time::Duration;

/// How often an open lobby socket marks its visitor's seeks as still wanted (well within the
/// 30 s after which a seek nobody asks about is dropped).
const TOUCH_EVERY: Duration = Duration::from_secs(10);

/// Changes closer together than this are sent as one.
const COALESCE: Duration = Duration::from_millis(50);

/// The upgrade handler.
pub async fn handler(
    State(state): State<AppState>,
    headers: HeaderMap,
    ws: std::result::Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response> {
    let ws = ws.map_err(|_| Error::BadRequest("this address is a websocket: open it as one".into()))?;
    let who = state.identity(&headers).await?;
    let max = state.config().max_ws_message_bytes;
    Ok(ws
        .read_buffer_size(max.clamp(1024, 16 * 1024))
        .write_buffer_size(0)
        .max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket| session(socket, state, who)))
}

async fn session(mut socket: WebSocket, state: AppState, who: Identity) {
    let mut stopping = state.stopping();
    if state.is_stopping() {
        return;
    }
    let mut changes = state.db().watch_lobby();
    let mut touch = tokio::time::interval(TOUCH_EVERY);
    let idle = state.config().ws_idle;
    let mut last_heard = tokio::time::Instant::now();
    let mut last_sent = String::new();
    let mut dirty = true;
    loop {
        if dirty {
            dirty = false;
            match crate::lobby::lobby_state(&state, &who).await {
                Ok(lobby) => {
                    let text = serde_json::json!({ "type": "lobby", "lobby": lobby }).to_string();
                    if text != last_sent {
                        if socket.send(Message::Text(text.clone().into())).await.is_err() {
                            return;
                        }
                        last_sent = text;
                    }
                }
                Err(e) => {
                    if socket.send(error_message(&e)).await.is_err() {
                        return;
                    }
                }
            }
        }
        tokio::select! {
            () = async { let _ = stopping.wait_for(|s| *s).await; } => {
                let frame = CloseFrame { code: CLOSE_RESTART, reason: "the server is restarting".into() };
                let _ = socket.send(Message::Close(Some(frame))).await;
                return;
            }
            changed = changes.changed() => {
                if changed.is_err() {
                    return;
                }
                // A burst of changes (a pairing makes several) is read once.
                tokio::time::sleep(COALESCE).await;
                changes.mark_unchanged();
                dirty = true;
            }
            _ = touch.tick() => {
                if last_heard.elapsed() >= idle {
                    return;
                }
                if let Some(key) = who.key() {
                    if let Err(e) = state.db().lobby().touch_seeks(&key, state.clock().now_ms()).await {
                        tracing::warn!("keeping seeks open: {e}");
                    }
                }
            }
            incoming = socket.recv() => {
                last_heard = tokio::time::Instant::now();
                match incoming {
                    Some(Ok(Message::Text(t))) if is_ping(&t) => {
                        if socket.send(Message::Text(r#"{"type":"pong"}"#.into())).await.is_err() {
                            return;
                        }
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => {}
                }
            }
        }
    }
}

fn is_ping(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v["type"] == "ping")
}
