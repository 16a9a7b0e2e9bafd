//! Chat per game: the players' room (the two players) and the spectators' room (everyone
//! else). Messages are cleaned and flood-limited by `reversi_site::chat`, stored with the game,
//! pushed to the room's websockets on every instance, and escaped by the page that shows them.

use crate::client::ClientAddr;
use crate::db::ChatLine;
use crate::error::{Error, Result};
use crate::extract::{ApiQuery, Caller, JsonBody};
use crate::session::{Credentials, Identity};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use reversi_site::chat::{clean, Flood, Room};
use reversi_site_api as wire;
use serde::Deserialize;

pub use crate::db::chat::HISTORY;

/// Query of `GET /api/games/{id}/chat`.
#[derive(Debug, Default, Deserialize)]
pub struct ChatQuery {
    /// `players` or `spectators` (default: the caller's own room).
    pub room: Option<String>,
    /// Only messages after this number.
    pub after: Option<i64>,
}

/// The HTTP error of a refused chat line.
pub(crate) fn chat_error(e: reversi_site::chat::ChatError) -> Error {
    match e {
        reversi_site::chat::ChatError::Flood { retry_after_ms } => Error::Throttled {
            code: "chat_flood",
            message: e.to_string(),
            retry_after_s: retry_after_ms.div_ceil(1000),
        },
        e => Error::Invalid(Error::site_code(e.code()), e.to_string()),
    }
}

/// Refuses a muted account's chat.
pub(crate) fn not_muted(user: &crate::db::User, now: i64) -> Result<()> {
    match user.muted_until {
        Some(until) if until > now => Err(Error::Forbidden(
            "muted",
            format!(
                "a moderator has muted you: you may chat again in {} minutes",
                (until - now + 59_999) / 60_000
            ),
        )),
        _ => Ok(()),
    }
}

impl AppState {
    /// The room `who` belongs to in game `id`, checking an asked one: players talk in theirs,
    /// everyone else in the spectators'.
    async fn room_of(&self, id: &str, asked: Option<&str>, creds: &Credentials) -> Result<Room> {
        let token = self.seat_token(creds, id).await?;
        let (_, seats) = self.rounds().view(id, token.as_deref()).await?;
        let own = if seats.is_empty() {
            Room::Spectators
        } else {
            Room::Players
        };
        match asked {
            None => Ok(own),
            Some(name) => {
                let room = Room::named(name)
                    .ok_or_else(|| Error::BadRequest("room must be players or spectators".into()))?;
                if room != own {
                    return Err(Error::Conflict(
                        "chat_closed",
                        match own {
                            Room::Players => "players talk in the players' room while they play",
                            Room::Spectators => "the players' room is for the two players",
                        }
                        .into(),
                    ));
                }
                Ok(room)
            }
        }
    }

    /// Sends a chat message to game `id` for `who`.
    pub async fn say(
        &self,
        id: &str,
        who: &Identity,
        address: &str,
        creds: &Credentials,
        room: Option<&str>,
        text: &str,
    ) -> Result<ChatLine> {
        let room = self.room_of(id, room, creds).await?;
        let user = who.user();
        if user.is_none() && !self.config().guest_chat {
            return Err(Error::Conflict(
                "guests_no_chat",
                "sign in to chat (guests cannot on this server)".into(),
            ));
        }
        if let Some(u) = user {
            not_muted(u, self.clock().now_ms())?;
        }
        if user.is_some_and(|u| u.chat_off) {
            return Err(Error::Conflict(
                "chat_closed",
                "you turned chat off (turn it on in your account)".into(),
            ));
        }
        if room == Room::Players && self.players_chat_off(id).await? {
            return Err(Error::Conflict("chat_closed", "a player turned chat off".into()));
        }
        if let (Room::Players, Some(u)) = (room, user) {
            for k in self.rounds().player_keys(id).await?.into_iter().flatten() {
                if k != u.id && self.blocks(&k, &u.id).await? {
                    return Err(crate::people::blocked());
                }
            }
        }
        let text = clean(text).map_err(chat_error)?;
        let key = who
            .key()
            .ok_or_else(|| Error::Unauthorized("not_signed_in", "open the game first".into()))?;
        let now = self.clock().clock_ms();
        self.flood_check(&key, address, &text, now).map_err(chat_error)?;
        let line = self
            .db()
            .chat()
            .insert_chat(
                id,
                room.name(),
                user.map(|u| u.name.as_str()),
                user.map(|u| u.id.as_str()),
                &text,
                now as i64,
            )
            .await?;
        self.rounds().publish_chat(id, &line);
        Ok(line)
    }

    /// Whether a player of game `id` (an account) has turned chat off.
    async fn players_chat_off(&self, id: &str) -> Result<bool> {
        let keys = self.rounds().player_keys(id).await?;
        for k in keys.into_iter().flatten() {
            if let Some(u) = self.db().accounts().user_by_id(&k).await? {
                if u.chat_off {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Whether player `key`, from `address`, may send `text` now: the flood limit of the
    /// sender (shared by every chat) and that of its address (all its senders together).
    pub(crate) fn flood_check(
        &self,
        key: &str,
        address: &str,
        text: &str,
        now: u64,
    ) -> std::result::Result<(), reversi_site::chat::ChatError> {
        // Both limits are read under their locks (always this order) and the message counts for
        // neither when one refuses it.
        let (Ok(mut floods), Ok(mut by_address)) =
            (self.inner.floods.lock(), self.inner.address_floods.lock())
        else {
            return Ok(());
        };
        if floods.len() > 50_000 {
            floods.clear();
        }
        if by_address.len() > 50_000 {
            by_address.clear();
        }
        let sender = floods.entry(key.to_string()).or_insert_with(|| Flood::new(now));
        let from = by_address
            .entry(address.to_string())
            .or_insert_with(|| reversi_site::chat::AddressFlood::new(now));
        reversi_site::chat::allow_both(sender, from, text, now)
    }
}

/// `POST /api/games/{id}/chat` `{"text", "room"?}`.
#[utoipa::path(post, path = "/api/games/{id}/chat", tag = "games", operation_id = "chat_post", security(("bearer" = []), ("session" = []), ()), params(("id" = String, Path, description = "The game's id.")), request_body = wire::ChatPost, responses((status = 200, description = "The stored message.", body = wire::ChatLine), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn post(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    creds: Credentials,
    Caller(who): Caller,
    JsonBody(b): JsonBody<wire::ChatPost>,
) -> Result<Json<ChatLine>> {
    let address = addr.0.to_string();
    Ok(Json(
        state
            .say(&id, &who, &address, &creds, b.room.as_deref(), &b.text)
            .await?,
    ))
}

/// `GET /api/games/{id}/chat?room=…&after=N`: the room's messages (the caller's own room by
/// default).
#[utoipa::path(get, path = "/api/games/{id}/chat", tag = "games", operation_id = "chat_history", security(("bearer" = []), ()), params(("id" = String, Path, description = "The game's id."), ("room" = Option<String>, Query, description = "`players` or `spectators` (default: the caller's own)."), ("after" = Option<i64>, Query, description = "Only messages after this number.")), responses((status = 200, description = "The room's messages.", body = reversi_site_api::ChatHistory), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = reversi_site_api::ApiError)))]
pub async fn history(
    State(state): State<AppState>,
    Path(id): Path<String>,
    creds: Credentials,
    ApiQuery(q): ApiQuery<ChatQuery>,
) -> Result<Json<reversi_site_api::ChatHistory>> {
    let room = state.room_of(&id, q.room.as_deref(), &creds).await?;
    let mut lines = state
        .db()
        .chat()
        .lines(&id, room.name(), q.after.unwrap_or(0), HISTORY)
        .await?;
    // The lines of players the reader blocks are left out (the page drops pushed ones).
    if let Some(me) = state.identity(&creds).await?.user() {
        let blocked = state.db().people().blocked(&me.id).await?;
        if !blocked.is_empty() {
            lines.retain(|l| {
                !l.author
                    .as_deref()
                    .is_some_and(|a| blocked.iter().any(|(_, n)| n.eq_ignore_ascii_case(a)))
            });
        }
    }
    Ok(Json(reversi_site_api::ChatHistory {
        room: room.name().to_string(),
        lines,
    }))
}
