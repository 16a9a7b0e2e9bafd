//! `GET /api/lobby/ws`: the lobby, pushed. On connecting and after every change of the seeks,
//! the pools or the games they became — made at this instance or, through `LISTEN`, at
//! another — the server sends `{"type":"lobby","lobby":LOBBY}` with the body of
//! `GET /api/lobby` as the visitor (by their cookie) sees it, when it differs from the last one
//! sent. While the socket is open the visitor's seeks stay open. The games being played now
//! come as `{"type":"live","live":LIVE}` (the body of `GET /api/live`) on connecting and every
//! [`LIVE_EVERY`] when they changed.
//! The client sends nothing but `{"type":"ping"}` (answered `{"type":"pong"}`); keep-alive and
//! limits are [`crate::socket`]'s.

use crate::error::Result;
use crate::extract::Caller;
use crate::session::Identity;
use crate::socket::{error_message, upgrade, Conn, Heard};
use crate::state::AppState;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use reversi_site_api as wire;
use reversi_site_api::LobbyEvent;
use std::time::Duration;

/// How often an open lobby socket marks its visitor's seeks as still wanted (well within the
/// 30 s after which a seek nobody asks about is dropped).
const TOUCH_EVERY: Duration = Duration::from_secs(10);

/// How often the games being played now are sent again (when they changed).
pub const LIVE_EVERY: Duration = Duration::from_secs(5);

/// Changes closer together than this are sent as one.
const COALESCE: Duration = Duration::from_millis(50);

/// The upgrade handler.
#[utoipa::path(get, path = "/api/lobby/ws", tag = "lobby", operation_id = "lobby_socket", security(("bearer" = []), ("session" = []), ()), description = "A websocket: the server sends `LobbyEvent`s (the lobby on connecting and after every change, the live games every few seconds); the client only pings.", responses((status = 101, description = "Switching to the websocket."), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn handler(
    State(state): State<AppState>,
    Caller(who): Caller,
    ws: std::result::Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response> {
    let ws = upgrade(&state, ws)?;
    Ok(ws.on_upgrade(move |socket| session(socket, state, who)))
}

fn to_text(event: &LobbyEvent) -> String {
    serde_json::to_string(event).unwrap_or_default()
}

async fn session(socket: WebSocket, state: AppState, who: Identity) {
    let Some(mut conn) = Conn::open(socket, &state) else {
        return;
    };
    let mut changes = state.db().watch_lobby();
    let mut touch = tokio::time::interval(TOUCH_EVERY);
    let mut live = tokio::time::interval(LIVE_EVERY);
    let mut live_sent = String::new();
    let mut last_sent = String::new();
    let mut dirty = true;
    loop {
        if dirty {
            dirty = false;
            match crate::lobby::lobby_state(&state, &who).await {
                Ok(lobby) => {
                    let text = to_text(&LobbyEvent::Lobby { lobby });
                    if !conn.send_if_new(text, &mut last_sent).await {
                        return;
                    }
                }
                Err(e) => {
                    if !conn.send(error_message(&e)).await {
                        return;
                    }
                }
            }
        }
        tokio::select! {
            seen = conn.next() => match conn.handle(seen).await {
                Heard::End => return,
                Heard::Text(_) | Heard::Pong(_) | Heard::Nothing => {}
            },
            changed = changes.changed() => {
                if changed.is_err() {
                    return;
                }
                // A burst of changes (a pairing makes several) is read once.
                tokio::time::sleep(COALESCE).await;
                changes.mark_unchanged();
                dirty = true;
            }
            _ = live.tick() => {
                match state.live_games().await {
                    Ok(games) => {
                        let text = to_text(&LobbyEvent::Live { live: (*games).clone() });
                        if !conn.send_if_new(text, &mut live_sent).await {
                            return;
                        }
                    }
                    Err(e) => tracing::warn!("games in progress: {e}"),
                }
            }
            _ = touch.tick() => {
                if let Some(key) = who.key() {
                    if let Err(e) = state.db().lobby().touch_seeks(&key, state.clock().now_ms()).await {
                        tracing::warn!("keeping seeks open: {e}");
                    }
                }
            }
        }
    }
}
