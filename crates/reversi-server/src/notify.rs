//! Letters about play, for the players who asked for them (`POST /api/account/notify`): it is
//! your move in a correspondence game, someone challenges you to one; and to an account's old
//! address when the address changes. Each is queued in the database's outbox when its cause is
//! stored (so a restart loses none) and delivered by [`deliver_task`] on whichever instance
//! takes it first; one that fails is tried again later, [`MAX_ATTEMPTS`] times in all.

use crate::db::outbox::OutboxRow;
use crate::error::{Error, Result};
use crate::extract::{Caller, JsonBody};
use crate::mail::{Letter, Mailer};
use crate::state::{AppState, Inner};
use axum::extract::State;
use axum::Json;
use reversi_i18n::Lang;
use std::sync::Weak;
use std::time::Duration;

/// How often the outbox is looked at.
pub const DELIVER_EVERY: Duration = Duration::from_secs(5);
/// How many times a letter is tried before it is given up (logged).
pub const MAX_ATTEMPTS: i64 = 6;
/// At most one "your move" letter per game and player in this long.
pub const TURN_LETTER_EVERY_MS: i64 = 6 * 3_600_000;

pub use reversi_site_api::NotifyBody;

/// The wait before try `attempts + 1` of a letter: a minute, doubling.
fn retry_after_ms(attempts: i64) -> i64 {
    60_000 << attempts.clamp(0, 10)
}

/// `POST /api/account/notify` `{"on", "lang"}`: letters about play, on or off (they go to the
/// confirmed address; without one there is nothing to send).
#[utoipa::path(post, path = "/api/account/notify", tag = "account", security(("session" = [])), request_body(content = reversi_site_api::NotifyBody), responses((status = 200, description = "Letters about play on or off.", body = reversi_site_api::NotifySetting), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = reversi_site_api::ApiError)))]
pub async fn set(
    State(state): State<AppState>,
    Caller(who): Caller,
    JsonBody(b): JsonBody<NotifyBody>,
) -> Result<Json<reversi_site_api::NotifySetting>> {
    let user = who.require_user()?;
    let lang = match b.lang.as_deref() {
        None | Some("en") => "en",
        Some("ru") => "ru",
        Some(_) => return Err(Error::BadRequest("lang must be en or ru".into())),
    };
    let value = b.on.then_some(lang);
    state.db().accounts().set_mail_notify(&user.id, value).await?;
    Ok(Json(reversi_site_api::NotifySetting { notify: b.on }))
}

impl AppState {
    /// Queues a letter of `kind` with `payload`, if the site mails at all.
    pub(crate) async fn queue_letter(&self, kind: &str, user: Option<&str>, payload: serde_json::Value) {
        if self.config().mail.is_none() {
            return;
        }
        let now = self.clock().now_ms();
        if let Err(e) = self
            .db()
            .outbox()
            .queue(kind, user, &payload.to_string(), now)
            .await
        {
            // The cause is stored already; a letter about it is not worth failing it.
            tracing::warn!(kind, "letter not queued: {e}");
        }
    }

    /// Delivers the letters due now; how many went out.
    pub async fn deliver_letters(&self) -> Result<usize> {
        let now = self.clock().now_ms();
        let outbox = self.db().outbox();
        let mut sent = 0;
        for row in outbox.due(now, 20).await? {
            let Some(mailer) = self.config().mail.clone() else {
                outbox.done(row.id).await?;
                continue;
            };
            if row.attempts >= MAX_ATTEMPTS {
                tracing::warn!(kind = row.kind, "letter given up after {MAX_ATTEMPTS} tries");
                outbox.done(row.id).await?;
                continue;
            }
            if !outbox.take(&row, now + retry_after_ms(row.attempts)).await? {
                continue;
            }
            match self.letter_of(&row, &mailer, now).await {
                Ok(Outcome::Send { to, letter, lang }) => match mailer.deliver(&to, &letter, lang).await {
                    Ok(()) => {
                        outbox.done(row.id).await?;
                        sent += 1;
                    }
                    Err(e) => {
                        tracing::warn!(kind = row.kind, "letter not delivered (tried again later): {e}")
                    }
                },
                Ok(Outcome::Later(at)) => outbox.later(row.id, at).await?,
                Ok(Outcome::Nothing) => outbox.done(row.id).await?,
                Err(e) => {
                    tracing::warn!(kind = row.kind, "letter dropped: {e}");
                    outbox.done(row.id).await?;
                }
            }
        }
        Ok(sent)
    }

    /// What queued letter `row` becomes now.
    async fn letter_of(&self, row: &OutboxRow, mailer: &Mailer, now: i64) -> Result<Outcome> {
        let payload: serde_json::Value =
            serde_json::from_str(&row.payload).map_err(|e| Error::Internal(format!("payload: {e}")))?;
        let field = |k: &str| payload[k].as_str().unwrap_or_default().to_string();
        if row.kind == "address-changed" {
            return Ok(Outcome::Send {
                to: field("to"),
                letter: Letter::AddressChanged {
                    name: field("name"),
                    email: field("email"),
                },
                lang: lang_named(&field("lang")),
            });
        }
        // The others go to an account that asked for them, at its confirmed address.
        let Some(user_id) = row.user_id.as_deref() else {
            return Ok(Outcome::Nothing);
        };
        let Some(user) = self.db().accounts().user_by_id(user_id).await? else {
            return Ok(Outcome::Nothing);
        };
        let (Some(email), Some(lang)) = (user.email.clone(), user.mail_notify.clone()) else {
            return Ok(Outcome::Nothing);
        };
        if user.deleted || user.disabled {
            return Ok(Outcome::Nothing);
        }
        let lang = lang_named(&lang);
        match row.kind.as_str() {
            "turn" => {
                let game = field("game");
                let keys = self.rounds().player_keys(&game).await?;
                let (view, _) = self.rounds().view(&game, None).await?;
                let Some(mine) = keys.iter().position(|k| k.as_deref() == Some(user_id)) else {
                    return Ok(Outcome::Nothing);
                };
                let colour = if mine == 0 { "black" } else { "white" };
                let to_move = serde_json::to_value(view.to_move).unwrap_or_default();
                if view.status != reversi_site_api::GameStatus::Playing || to_move != colour {
                    return Ok(Outcome::Nothing);
                }
                // A player on the site sees it there; the letter waits until they leave.
                let seen = self.db().people().seen_at(user_id).await?;
                if crate::people::online(seen, now) {
                    return Ok(Outcome::Later(now + crate::people::ONLINE_MS));
                }
                let key = format!("turnmail {user_id} {game}");
                if let crate::db::throttle::Reserved::No { .. } = self
                    .db()
                    .throttle()
                    .reserve(&key, 1, 1, TURN_LETTER_EVERY_MS, now)
                    .await?
                {
                    return Ok(Outcome::Nothing);
                }
                let online = view.online.as_ref();
                let opponent = online
                    .and_then(|o| {
                        if mine == 0 {
                            o.white.name.clone()
                        } else {
                            o.black.name.clone()
                        }
                    })
                    .unwrap_or_default();
                Ok(Outcome::Send {
                    to: email,
                    letter: Letter::Turn {
                        name: user.name,
                        opponent,
                        link: mailer.link(&format!("/game/{game}")),
                    },
                    lang,
                })
            }
            "challenge" => {
                if self.db().lobby().seek(&field("seek")).await?.is_none() {
                    return Ok(Outcome::Nothing);
                }
                Ok(Outcome::Send {
                    to: email,
                    letter: Letter::Challenge {
                        name: user.name,
                        challenger: field("challenger"),
                        control: field("control"),
                        link: mailer.link("/lobby"),
                    },
                    lang,
                })
            }
            other => Err(Error::Internal(format!("unknown letter kind {other}"))),
        }
    }
}

/// What a queued letter becomes.
enum Outcome {
    /// Mail it.
    Send {
        /// The address.
        to: String,
        /// The letter.
        letter: Letter,
        /// Its language.
        lang: Lang,
    },
    /// Look again at this instant (Unix ms), not counted as a try.
    Later(i64),
    /// Nothing to send any more (the move was made, the challenge is gone, letters turned off).
    Nothing,
}

fn lang_named(name: &str) -> Lang {
    if name == "ru" {
        Lang::Ru
    } else {
        Lang::En
    }
}

/// `email` with its local part hidden but for its first character (`a…@example.org`): the old
/// address is told that the address changed without being given the new one whole.
pub fn masked(email: &str) -> String {
    match email.split_once('@') {
        Some((local, domain)) => {
            let first: String = local.chars().take(1).collect();
            format!("{first}…@{domain}")
        }
        None => "…".into(),
    }
}

/// Delivers the outbox every [`DELIVER_EVERY`], until the state is dropped.
pub(crate) async fn deliver_task(state: Weak<Inner>) {
    loop {
        tokio::time::sleep(DELIVER_EVERY).await;
        let Some(inner) = state.upgrade() else { return };
        if let Err(e) = (AppState { inner }).deliver_letters().await {
            tracing::warn!("delivering letters: {e}");
        }
    }
}
