//! `GET /api/games/{id}/ws`: a websocket that pushes the game's state after every change and
//! accepts moves, resignations and undos from seat holders.
//!
//! Server to client: `{"type":"state","game":GAME,"you":["black"]}`, `{"type":"presence",
//! "presence":PRESENCE}` (who is connected changed: the `presence` object of the state, alone),
//! `{"type":"chat","line":LINE}` (a message of the reader's room), `{"type":"error",
//! "error":MESSAGE,"code":CODE}`, `{"type":"pong"}`. Client to server: `{"type":"move",
//! "move":"d3","ply":4}` (`ply` optional), `{"type":"resign","color":"black"}` (`color`
//! optional), `{"type":"undo"}`, `{"type":"abort"}`, `{"type":"claim"}` (the win from an
//! opponent who left), `{"type":"ping"}`. A player of a tournament game whose game is over
//! is sent `{"type":"tournament_game","game":ID}` as soon as the tournament pairs their next
//! game.
//!
//! Each socket counts as its seats' connection, or a spectator's ([`reversi_site::game::presence`]), from
//! its first state to its end.
//!
//! The seat token comes as for the HTTP API: the game's cookie or `Authorization: Bearer`
//! (never in the URL, which ends up in logs). It is looked up again for every action, with the
//! credentials the socket was opened with: an account's seat acts only while that sign-in is
//! valid, so a password change or a deletion ends what an old session's socket can do.
//! Keep-alive, flood limit and closes are [`crate::socket`]'s, as for every socket of the site.

use crate::db::Topic;
use crate::error::{Error, Result};
use crate::round::GameEvent;
use crate::session::Credentials;
use crate::socket::{upgrade, Conn, Heard};
use crate::state::AppState;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use reversi_core::Color;
use reversi_site::game::{parse_color, side};
use reversi_site_api::{self as wire, GameCommand, GameStatus, GameView};
use tokio::sync::broadcast::error::RecvError;
use tracing::Instrument;

pub use crate::socket::{error_message, CLOSE_FLOOD, CLOSE_IDLE, CLOSE_RESTART};

/// Query of the game socket.
#[derive(Debug, Default, serde::Deserialize)]
pub struct SocketQuery {
    /// `true`: a preview (the home page's featured game): states only, no seat, no chat, not
    /// counted among the spectators, no commands.
    #[serde(default)]
    pub preview: bool,
}

/// The upgrade handler.
#[utoipa::path(get, path = "/api/games/{id}/ws", tag = "games", operation_id = "game_socket", params(("id" = String, Path, description = "The game's id."), ("preview" = Option<bool>, Query, description = "`true`: only the states, as a spectator not counted (the home page's featured game); commands are refused.")), security(("bearer" = []), ()), description = "A websocket: the client sends `GameCommand`s, the server `GameEvent`s (a `state` on connecting and after every change).", responses((status = 101, description = "Switching to the websocket."), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn handler(
    State(state): State<AppState>,
    Path(id): Path<String>,
    crate::extract::ApiQuery(q): crate::extract::ApiQuery<SocketQuery>,
    creds: Credentials,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response> {
    let ws = upgrade(&state, ws)?;
    // Unknown games are refused before the upgrade, with a 404.
    state.rounds().view(&id, None).await?;
    let token = if q.preview {
        None
    } else {
        state.seat_token(&creds, &id).await?
    };
    let request = tracing::Span::current();
    Ok(ws.on_upgrade(move |socket| {
        // The session outlives the request: it carries the request's span (and id) on.
        let span = tracing::info_span!(parent: &request, "websocket", game = %id);
        session(socket, state, id, token, creds, q.preview).instrument(span)
    }))
}

/// A message for the client.
fn event_message(event: &wire::GameEvent) -> Message {
    Message::Text(serde_json::to_string(event).unwrap_or_default().into())
}

fn sides(you: &[Color]) -> Vec<wire::Side> {
    you.iter().map(|&c| side(c)).collect()
}

/// A published state (its JSON made once for every socket) as a `state` message: the text of
/// [`wire::GameEvent::State`], written around the shared JSON of the game.
fn published_message(json: &str, you: &[Color]) -> Message {
    let you = serde_json::to_string(&sides(you)).unwrap_or_else(|_| "[]".into());
    Message::Text(format!(r#"{{"type":"state","you":{you},"game":{json}}}"#).into())
}

/// Who is connected, from the published JSON of [`wire::PresenceView`]: the text of
/// [`wire::GameEvent::Presence`].
fn presence_message(json: &str) -> Message {
    Message::Text(format!(r#"{{"type":"presence","presence":{json}}}"#).into())
}

fn state_message(game: &GameView, you: &[Color]) -> Message {
    let game = if you.is_empty() && game.hides_from_spectators() {
        game.clone().for_viewer(true)
    } else {
        game.clone()
    };
    event_message(&wire::GameEvent::State {
        game: Box::new(game),
        you: sides(you),
    })
}

async fn session(
    socket: WebSocket,
    state: AppState,
    id: String,
    token: Option<String>,
    creds: Credentials,
    preview: bool,
) {
    let open = metrics::gauge!("reversi_websocket_connections");
    open.increment(1.0);
    if let Some(seats) = run_session(socket, &state, &id, token, &creds, preview).await {
        state.rounds().leave(&id, &seats).await;
    }
    open.decrement(1.0);
}

/// Runs the session; returns the seats it counted as connected, if it got that far (a
/// preview is never counted).
async fn run_session(
    socket: WebSocket,
    state: &AppState,
    id: &str,
    token: Option<String>,
    creds: &Credentials,
    preview: bool,
) -> Option<Vec<Color>> {
    // Taken first: a session is counted from here until it ends, so a stopping server can
    // wait for the last one.
    let mut conn = Conn::open(socket, state)?;
    let Ok((mut rx, view, seats)) = state.rounds().subscribe(id, token.as_deref()).await else {
        return None;
    };
    let Ok(mut chat) = state.rounds().subscribe_chat(id).await else {
        return None;
    };
    // Players read the players' room, everyone else the spectators'; a preview none.
    let room = match (preview, seats.is_empty()) {
        (true, _) => "",
        (false, true) => "spectators",
        (false, false) => "players",
    };
    // A player of a tournament game hears of their next game there.
    let mut next = NextGame::of(&view, &seats, state);
    if !conn.send(state_message(&view, &seats)).await {
        return None;
    }
    if !preview {
        state.rounds().enter(id, &seats).await;
    }
    let counted = (!preview).then(|| seats.clone());
    // A game over whose next one is paired already (the page came back late): said at once.
    if let Some(game) = next.look(state, id, creds).await {
        if !conn.send(next_game_message(game)).await {
            return counted;
        }
    }
    loop {
        tokio::select! {
            seen = conn.next() => match conn.handle(seen).await {
                Heard::End => break,
                Heard::Nothing => {}
                Heard::Pong(rtt) => {
                    // The round trip of the ping: the lag the clock gives back a little of.
                    if !seats.is_empty() {
                        state.rounds().observe_lag(id, &seats, rtt.as_millis() as u64);
                    }
                }
                Heard::Text(_) if preview => {
                    let refused = Error::Forbidden("preview", "a preview socket only watches: open the game to play".into());
                    if !conn.send(error_message(&refused)).await { break; }
                }
                Heard::Text(text) => {
                    if let Some(reply) = handle(state, id, creds, &text).await {
                        if !conn.send(reply).await { break; }
                    }
                }
            },
            line = chat.recv() => {
                match line {
                    Ok(line) if line.room == room => {
                        let chat = wire::GameEvent::Chat { line: (*line).clone() };
                        if !conn.send(event_message(&chat)).await { break; }
                    }
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => break,
                }
            }
            () = next.changed() => {
                if let Some(game) = next.look(state, id, creds).await {
                    if !conn.send(next_game_message(game)).await { break; }
                }
            }
            update = rx.recv() => {
                let msg = match update {
                    Ok(event) => match &*event {
                        GameEvent::State(p) => {
                            next.over = p.view.status != GameStatus::Playing;
                            published_message(p.json_for(seats.is_empty()), &seats)
                        }
                        GameEvent::Presence(json) => presence_message(json),
                    },
                    Err(RecvError::Lagged(_)) => match state.rounds().view(id, token.as_deref()).await {
                        Ok((game, _)) => state_message(&game, &seats),
                        Err(_) => break,
                    },
                    Err(RecvError::Closed) => break,
                };
                if !conn.send(msg).await { break; }
            }
        }
    }
    counted
}

/// The tournament of a player's game, followed once the game is over: the player's next game
/// there is pushed as soon as the tournament pairs it (`{"type":"tournament_game","game":ID}`).
struct NextGame {
    /// The tournament and its changes; `None` for any other game or a spectator.
    tournament: Option<(String, tokio::sync::broadcast::Receiver<Topic>)>,
    /// Whether the game is over (only then is the tournament looked at).
    over: bool,
    /// The last next game pushed.
    sent: Option<String>,
}

impl NextGame {
    fn of(view: &GameView, seats: &[Color], state: &AppState) -> NextGame {
        let tournament = view
            .online
            .as_ref()
            .and_then(|o| o.tournament.clone())
            .filter(|_| !seats.is_empty())
            .map(|t| (t, state.db().watch_topics()));
        NextGame {
            over: view.status != GameStatus::Playing,
            tournament,
            sent: None,
        }
    }

    /// Waits for a change of the tournament (never, for other games).
    async fn changed(&mut self) {
        match &mut self.tournament {
            Some((id, rx)) => loop {
                match rx.recv().await {
                    Ok(topic) if topic.concerns_tournament(id) => return,
                    Ok(_) => {}
                    Err(RecvError::Lagged(_)) => return,
                    Err(RecvError::Closed) => std::future::pending::<()>().await,
                }
            },
            None => std::future::pending().await,
        }
    }

    /// The player's next game in the tournament, if the game is over and it is a new one.
    async fn look(&mut self, state: &AppState, id: &str, creds: &Credentials) -> Option<String> {
        let (t, _) = self.tournament.as_ref()?;
        if !self.over {
            return None;
        }
        let who = state.identity(creds).await.ok()?;
        let view = state.tournament_view(t, &who, None).await.ok()?;
        let game = view.me.game?;
        if game == id || self.sent.as_deref() == Some(&game) {
            return None;
        }
        self.sent = Some(game.clone());
        Some(game)
    }
}

/// The `tournament_game` message.
fn next_game_message(game: String) -> Message {
    event_message(&wire::GameEvent::TournamentGame { game })
}

/// Carries out one client message; returns the direct reply (errors and pongs; new states
/// arrive through the game's channel).
async fn handle(state: &AppState, id: &str, creds: &Credentials, text: &str) -> Option<Message> {
    let msg: GameCommand = match crate::body::parse_object(text.as_bytes()) {
        Ok(m) => m,
        Err(e) => return Some(error_message(&e)),
    };
    let token = match state.seat_token(creds, id).await {
        Ok(t) => t,
        Err(e) => return Some(error_message(&e)),
    };
    let token = token.as_deref();
    let result = match msg {
        GameCommand::Ping => return Some(event_message(&wire::GameEvent::Pong)),
        GameCommand::Move { mv, ply } => state.rounds().play(id, token, &mv, ply, false).await.map(drop),
        GameCommand::Resign { color } => match color.as_deref().map(parse_color) {
            Some(None) => Err(Error::BadRequest("color must be black or white".into())),
            Some(c) => state.rounds().resign(id, token, c).await.map(drop),
            None => state.rounds().resign(id, token, None).await.map(drop),
        },
        GameCommand::Undo => state.rounds().undo(id, token).await.map(drop),
        GameCommand::Abort => state.rounds().abort(id, token).await.map(drop),
        GameCommand::Claim => state.rounds().claim(id, token).await.map(drop),
    };
    result.err().map(|e| error_message(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_site::game::{GameRecord, LiveGame, Mode, PlayerKind};

    /// The messages written by hand around shared JSON (for speed) are the API's own.
    #[test]
    fn hand_written_messages_are_game_events() {
        let record = GameRecord {
            id: "t".into(),
            variant: reversi_core::Variant::Othello,
            tie: reversi_core::TieRule::Draw,
            mode: Mode::Friend,
            level: 1,
            players: [PlayerKind::Human; 2],
            tokens: [Some("a".into()), Some("b".into())],
            resigned: None,
            left: false,
            created_at: 0,
            rematch: None,
            join_token: None,
            void: None,
            online: None,
        };
        let view = LiveGame::new(record, 0).view(0);
        let json = serde_json::to_string(&view).unwrap();
        let Message::Text(text) = published_message(&json, &[Color::White]) else {
            panic!("text")
        };
        let event: wire::GameEvent = serde_json::from_str(&text).unwrap();
        assert_eq!(
            event,
            wire::GameEvent::State {
                game: Box::new(view.clone()),
                you: vec![wire::Side::White]
            }
        );
        let presence = serde_json::to_string(&view.presence).unwrap();
        let Message::Text(text) = presence_message(&presence) else {
            panic!("text")
        };
        let event: wire::GameEvent = serde_json::from_str(&text).unwrap();
        assert_eq!(
            event,
            wire::GameEvent::Presence {
                presence: view.presence
            }
        );
        // And the typed ones read back as written.
        let Message::Text(text) = next_game_message("g2".into()) else {
            panic!("text")
        };
        assert_eq!(text.as_str(), r#"{"type":"tournament_game","game":"g2"}"#);
    }
}
