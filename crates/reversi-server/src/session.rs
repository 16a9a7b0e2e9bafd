//! Who is asking: an account signed in (the session cookie, or a bot's API token), a guest
//! (the guest cookie), or nobody; and the seat a player's identity holds in an online game.
//!
//! Session and bot secrets are random; the database keeps only their SHA-256, so a copy of the
//! database signs nobody in. A guest's identity is issued by the server and signed with its key
//! ([`crate::secret::Signer`]): a client cannot choose one (or a fresh one per request) to
//! escape the limits per guest, and the limits per address bind every guest behind it.
//!
//! An account's seats follow the account's sessions: the seat token of an account's seat in an
//! online game acts only for a request signed in to that account (or its bot), so a token copied
//! while signed in is worth nothing once the password changed or the account was deleted.

use crate::db::User;
use crate::error::{Error, Result};
use crate::secret::random_string;
use crate::state::AppState;
use axum::http::{header, HeaderMap, HeaderValue};
use reversi_site::game::online::GUEST_PREFIX;
use sha2::{Digest, Sha256};

/// The cookie of a signed-in browser.
pub const SESSION_COOKIE: &str = "rv_session";
/// The cookie of a guest who has sought or played a game on the site (`KEY.SIGNATURE`).
pub const GUEST_COOKIE: &str = "rv_guest";
/// The cookie that marks a browser as having signed in to an account (`ID.SIGNATURE`): its
/// sign-ins to that account are not held back by failures from other browsers.
pub const DEVICE_COOKIE: &str = "rv_device";
/// How a bot's API token starts (tells it from a seat token).
pub const BOT_TOKEN_PREFIX: &str = "bot_";
/// How long a session lasts without a visit: 30 days (renewed by signing in again).
pub const SESSION_DAYS: i64 = 30;
/// Length of session, guest and bot secrets (random letters and digits, ≈ 190 bits).
pub const SECRET_LEN: usize = 32;

/// Who sent a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Identity {
    /// A signed-in account (or a bot through its token).
    User(User),
    /// A guest with its key (the guest cookie).
    Guest(String),
    /// Neither.
    Nobody,
}

impl Identity {
    /// The player key stored on games and seeks (an account's id, or `g:` and the guest key).
    pub fn key(&self) -> Option<String> {
        match self {
            Identity::User(u) => Some(u.id.clone()),
            Identity::Guest(k) => Some(format!("{GUEST_PREFIX}{k}")),
            Identity::Nobody => None,
        }
    }

    /// The account, if signed in.
    pub fn user(&self) -> Option<&User> {
        match self {
            Identity::User(u) => Some(u),
            _ => None,
        }
    }

    /// The account, or `not_signed_in`.
    pub fn require_user(&self) -> Result<&User> {
        self.user().ok_or_else(|| {
            Error::Unauthorized("not_signed_in", "sign in first (this needs an account)".into())
        })
    }
}

/// The SHA-256 of a secret, hex.
pub fn hash_secret(secret: &str) -> String {
    let digest = Sha256::digest(secret.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The value of cookie `name` in the request, if any.
pub fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// Whether `s` has the shape of a secret this server issues.
fn well_formed(s: &str) -> bool {
    s.len() == SECRET_LEN && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The bearer token of a request, if it is a bot's API token.
fn bot_bearer(headers: &HeaderMap) -> Option<&str> {
    let auth = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let t = auth.strip_prefix("Bearer ")?.trim();
    t.strip_prefix(BOT_TOKEN_PREFIX)
        .filter(|s| well_formed(s))
        .map(|_| t)
}

/// A `Set-Cookie` value (`max_age` 0 deletes the cookie).
pub fn set_cookie(state: &AppState, name: &str, value: &str, max_age_s: i64) -> Option<HeaderValue> {
    let secure = if state.config().secure_cookies {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_s}{secure}"
    ))
    .ok()
}

impl AppState {
    /// Who sent a request with `headers`. A session cookie that is unknown or expired counts as
    /// nobody (the page then offers to sign in); a malformed one too.
    pub async fn identity(&self, headers: &HeaderMap) -> Result<Identity> {
        let now = self.clock().now_ms();
        if let Some(token) = bot_bearer(headers) {
            return match self.db().accounts().bot_by_token(&hash_secret(token)).await? {
                Some(u) => Ok(Identity::User(u)),
                None => Err(Error::Unauthorized(
                    "not_signed_in",
                    "this bot token is not valid (revoked, or never issued)".into(),
                )),
            };
        }
        if let Some(s) = cookie(headers, SESSION_COOKIE).filter(|s| well_formed(s)) {
            if let Some(u) = self.db().accounts().session_user(&hash_secret(s), now).await? {
                return Ok(Identity::User(u));
            }
        }
        let guest = cookie(headers, GUEST_COOKIE)
            .and_then(|c| self.signer().verify("guest", c))
            .filter(|k| well_formed(k));
        match guest {
            Some(g) => Ok(Identity::Guest(g.to_string())),
            None => Ok(Identity::Nobody),
        }
    }

    /// The identity of the request, making the caller a guest (with a new guest cookie to send
    /// back) if it is nobody yet.
    pub async fn identity_or_guest(&self, headers: &HeaderMap) -> Result<(Identity, Option<HeaderValue>)> {
        match self.identity(headers).await? {
            Identity::Nobody => {
                let key = random_string(SECRET_LEN);
                let signed = self.signer().sign("guest", &key);
                let cookie = set_cookie(self, GUEST_COOKIE, &signed, 365 * 24 * 3600);
                Ok((Identity::Guest(key), cookie))
            }
            id => Ok((id, None)),
        }
    }

    /// The seat token a request carries for game `id`: a seat token (cookie or bearer), else the
    /// token of the seat its identity plays in an online game. A token of an account's seat
    /// counts only when the request is signed in to that account.
    pub async fn seat_token(&self, headers: &HeaderMap, id: &str) -> Result<Option<String>> {
        let who = self.identity(headers).await?;
        if bot_bearer(headers).is_none() {
            if let Some(t) = request_token(headers, id) {
                match self.rounds().account_of_token(id, &t).await? {
                    Some(owner) if who.user().map(|u| &u.id) != Some(&owner) => {}
                    _ => return Ok(Some(t)),
                }
            }
        }
        let Some(key) = who.key() else { return Ok(None) };
        self.rounds().token_for_player(id, &key).await
    }
}

/// The name of the cookie holding the seat token of game `id`.
pub fn cookie_name(id: &str) -> String {
    format!("rv_{id}")
}

/// The seat token a request carries for game `id`: `Authorization: Bearer TOKEN`, else the
/// game's cookie.
pub fn request_token(headers: &HeaderMap, id: &str) -> Option<String> {
    if let Some(auth) = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) {
        if let Some(t) = auth.strip_prefix("Bearer ").map(str::trim) {
            if !t.is_empty() {
                return Some(t.to_string());
            }
        }
    }
    cookie(headers, &cookie_name(id)).map(str::to_string)
}
