//! The pages that follow stored news through their live socket, pushed instead of polled:
//!
//! - `GET /api/tournaments/ws` (the list): `{"type":"tournaments","tournaments":LIST}`, the
//!   body of `GET /api/tournaments`;
//! - `GET /api/tournaments/{id}/ws` (one tournament; `?invite=` as for its `GET`):
//!   `{"type":"tournament","tournament":VIEW}`, the body of `GET /api/tournaments/{id}`;
//! - `GET /api/games/{id}/analysis/ws` (a finished game's replay):
//!   `{"type":"analysis","analysis":ANALYSIS}`, the body of `GET /api/games/{id}/analysis`;
//! - `GET /api/account/ws` (every page of a signed-in account: the header's "your turn", the
//!   challenge notice): `{"type":"games","games":MY_GAMES}`, the body of
//!   `GET /api/account/games`, after every change of whose turn it is in the account's games,
//!   a game of theirs begun or ended, a challenge to them or an answer to theirs.
//!
//! Each is sent on connecting and after every stored change it shows ([`Db::announce`]: made at
//! this instance or, through `LISTEN`, at another — an entry, a round paired, a game of the
//! tournament ended, a chat line, a start or an end; a move analysed), when it differs from
//! the last one sent, as the visitor (by their cookie) sees it. What the visitor may not see is
//! refused before the upgrade with the `GET`'s 404; what stops being visible later gets an
//! `error` message and a normal close. The client sends nothing but `{"type":"ping"}`;
//! keep-alive and limits are [`crate::socket`]'s.
//!
//! [`Db::announce`]: crate::db::Db::announce

use crate::db::Topic;
use crate::error::{Error, Result};
use crate::extract::ApiQuery;
use crate::session::{Credentials, Identity};
use crate::socket::{error_message, upgrade, Conn, Heard};
use crate::state::AppState;
use crate::tournaments::ViewQuery;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use reversi_site_api::PageEvent;
use std::time::Duration;
use tokio::sync::broadcast::{self, error::RecvError};

/// Changes closer together than this are read as one (a round's pairing makes several).
const COALESCE: Duration = Duration::from_millis(100);

/// Which page a socket feeds.
#[derive(Clone, Debug)]
enum Feed {
    Tournaments,
    Tournament { id: String, invite: Option<String> },
    Analysis { game: String },
    Account { user: String },
}

impl Feed {
    /// Whether a page of this feed must look again after `changed`.
    fn touched_by(&self, changed: &Topic) -> bool {
        match self {
            Feed::Tournaments => matches!(changed, Topic::Tournament(_) | Topic::Everything),
            Feed::Tournament { id, .. } => changed.concerns_tournament(id),
            Feed::Analysis { game } => changed.concerns_analysis(game),
            Feed::Account { user } => changed.concerns_account(user),
        }
    }

    /// The page's message as `who` sees it now.
    async fn render(&self, state: &AppState, who: &Identity) -> Result<PageEvent> {
        Ok(match self {
            Feed::Tournaments => PageEvent::Tournaments {
                tournaments: state.tournament_list(who).await?,
            },
            Feed::Tournament { id, invite } => PageEvent::Tournament {
                tournament: Box::new(state.tournament_view(id, who, invite.as_deref()).await?),
            },
            Feed::Analysis { game } => PageEvent::Analysis {
                analysis: state.analysis(game).await?,
            },
            Feed::Account { user } => {
                // Signed out (or into another account) since: the feed ends.
                if who.user().map(|u| &u.id) != Some(user) {
                    return Err(Error::NotFound);
                }
                PageEvent::Games {
                    games: state.my_games(who).await?,
                }
            }
        })
    }

    /// Whether nothing more will come (a finished analysis).
    fn ended(msg: &PageEvent) -> bool {
        matches!(msg, PageEvent::Analysis { analysis } if analysis.status == "done")
    }
}

/// `GET /api/tournaments/ws`.
pub async fn tournaments(
    State(state): State<AppState>,
    creds: Credentials,
    ws: std::result::Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response> {
    open(state, creds, ws, Feed::Tournaments).await
}

/// `GET /api/tournaments/{id}/ws`.
pub async fn tournament(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<ViewQuery>,
    creds: Credentials,
    ws: std::result::Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response> {
    open(state, creds, ws, Feed::Tournament { id, invite: q.invite }).await
}

/// `GET /api/games/{id}/analysis/ws`.
pub async fn analysis(
    State(state): State<AppState>,
    Path(game): Path<String>,
    creds: Credentials,
    ws: std::result::Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response> {
    open(state, creds, ws, Feed::Analysis { game }).await
}

/// `GET /api/account/ws`: the signed-in account's games and challenges, pushed.
pub async fn account(
    State(state): State<AppState>,
    creds: Credentials,
    ws: std::result::Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response> {
    let who = state.identity(&creds).await?;
    let Some(user) = who.user() else {
        return Err(Error::Unauthorized(
            "not_signed_in",
            "sign in to follow your games".into(),
        ));
    };
    let user = user.id.clone();
    open(state, creds, ws, Feed::Account { user }).await
}

/// Checks the visitor may see the feed (its first message), then upgrades.
async fn open(
    state: AppState,
    creds: Credentials,
    ws: std::result::Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    feed: Feed,
) -> Result<Response> {
    let ws = upgrade(&state, ws)?;
    let who = state.identity(&creds).await?;
    // Subscribed before the first message is read: nothing stored after it is missed.
    let changes = state.db().watch_topics();
    let first = feed.render(&state, &who).await?;
    Ok(ws.on_upgrade(move |socket| session(socket, state, feed, creds, changes, first)))
}

/// The message without what changes by itself every millisecond (the server's `now`), to
/// tell whether anything worth sending changed.
fn signature(msg: &PageEvent) -> String {
    let mut m = msg.clone();
    match &mut m {
        PageEvent::Tournaments { tournaments } => tournaments.now = 0,
        PageEvent::Tournament { tournament } => tournament.now = 0,
        PageEvent::Analysis { .. } | PageEvent::Games { .. } => {}
    }
    serde_json::to_string(&m).unwrap_or_default()
}

async fn session(
    socket: WebSocket,
    state: AppState,
    feed: Feed,
    creds: Credentials,
    mut changes: broadcast::Receiver<Topic>,
    first: PageEvent,
) {
    let Some(mut conn) = Conn::open(socket, &state) else {
        return;
    };
    let mut next = Some(first);
    let mut last_sent = String::new();
    loop {
        if let Some(msg) = next.take() {
            let sig = signature(&msg);
            if sig != last_sent {
                if !conn
                    .send_text(serde_json::to_string(&msg).unwrap_or_default())
                    .await
                {
                    return;
                }
                last_sent = sig;
            }
            if Feed::ended(&msg) {
                conn.close(1000, "nothing more to come").await;
                return;
            }
        }
        tokio::select! {
            seen = conn.next() => match conn.handle(seen).await {
                Heard::End => return,
                Heard::Text(_) | Heard::Pong(_) | Heard::Nothing => {}
            },
            changed = changes.recv() => {
                let look = match &changed {
                    Ok(topic) => feed.touched_by(topic),
                    Err(RecvError::Lagged(_)) => true,
                    Err(RecvError::Closed) => return,
                };
                if !look {
                    continue;
                }
                // A burst of changes is read once.
                tokio::time::sleep(COALESCE).await;
                while changes.try_recv().is_ok() {}
                // The visitor is looked up again: a sign-in ended elsewhere (a password
                // change) stops showing what it showed.
                let msg = match state.identity(&creds).await {
                    Ok(who) => feed.render(&state, &who).await,
                    Err(e) => Err(e),
                };
                match msg {
                    Ok(msg) => next = Some(msg),
                    Err(e @ Error::NotFound) => {
                        // Gone from view (purged, or an invitation-only tournament whose
                        // visitor's sign-in ended): say why and stop.
                        let _ = conn.send(error_message(&e)).await;
                        conn.close(1000, "no longer available").await;
                        return;
                    }
                    // Passing trouble (the database): said, and the next change tries again.
                    Err(e) => {
                        if !conn.send(error_message(&e)).await {
                            return;
                        }
                    }
                }
            }
        }
    }
}
