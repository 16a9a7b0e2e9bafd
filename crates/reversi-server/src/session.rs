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

/// What a request carries that says who sent it: its cookies and its bearer token, read once
/// from the headers. Sockets keep it, to look their client's seat up again at each action.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Credentials {
    /// The cookies, in the order sent (at most [`MAX_COOKIES`]).
    cookies: Vec<(String, String)>,
    /// `Authorization: Bearer …`, trimmed, when not empty.
    bearer: Option<String>,
}

/// How many cookies of a request are read: far more than this site sets, far fewer than a
/// header of the largest size allowed could list.
pub const MAX_COOKIES: usize = 64;

impl Credentials {
    /// The credentials in `headers`.
    pub fn from_headers(headers: &HeaderMap) -> Credentials {
        let cookies = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|kv| kv.trim().split_once('='))
            .take(MAX_COOKIES)
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let bearer = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|a| a.strip_prefix("Bearer "))
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string);
        Credentials { cookies, bearer }
    }

    /// The value of cookie `name`, if sent (the first one of that name).
    pub fn cookie(&self, name: &str) -> Option<&str> {
        self.cookies
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The bearer token, if any.
    pub fn bearer(&self) -> Option<&str> {
        self.bearer.as_deref()
    }

    /// The bearer token, if it is a bot's API token.
    fn bot_token(&self) -> Option<&str> {
        let t = self.bearer()?;
        t.strip_prefix(BOT_TOKEN_PREFIX)
            .filter(|s| well_formed(s))
            .map(|_| t)
    }

    /// The seat token carried for game `id`: the bearer token, else the game's cookie.
    pub fn seat_token(&self, id: &str) -> Option<&str> {
        self.bearer().or_else(|| self.cookie(&cookie_name(id)))
    }
}

/// Whether `s` has the shape of a secret this server issues.
pub(crate) fn well_formed(s: &str) -> bool {
    s.len() == SECRET_LEN && s.bytes().all(|b| b.is_ascii_alphanumeric())
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
    pub async fn identity(&self, creds: &Credentials) -> Result<Identity> {
        let now = self.clock().now_ms();
        if let Some(token) = creds.bot_token() {
            return match self.db().accounts().bot_by_token(&hash_secret(token)).await? {
                Some(u) => Ok(Identity::User(u)),
                None => Err(Error::Unauthorized(
                    "not_signed_in",
                    "this bot token is not valid (revoked, or never issued)".into(),
                )),
            };
        }
        if let Some(s) = creds.cookie(SESSION_COOKIE).filter(|s| well_formed(s)) {
            if let Some(u) = self.db().accounts().session_user(&hash_secret(s), now).await? {
                self.saw(&u.id).await?;
                return Ok(Identity::User(u));
            }
        }
        let guest = creds
            .cookie(GUEST_COOKIE)
            .and_then(|c| self.signer().verify("guest", c))
            .filter(|k| well_formed(k));
        match guest {
            Some(g) => Ok(Identity::Guest(g.to_string())),
            None => Ok(Identity::Nobody),
        }
    }

    /// The identity of the request, making the caller a guest (with a new guest cookie to send
    /// back) if it is nobody yet.
    pub async fn identity_or_guest(&self, creds: &Credentials) -> Result<(Identity, Option<HeaderValue>)> {
        match self.identity(creds).await? {
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
    pub async fn seat_token(&self, creds: &Credentials, id: &str) -> Result<Option<String>> {
        let who = self.identity(creds).await?;
        if creds.bot_token().is_none() {
            if let Some(t) = creds.seat_token(id) {
                match self.rounds().account_of_token(id, t).await? {
                    Some(owner) if who.user().map(|u| &u.id) != Some(&owner) => {}
                    _ => return Ok(Some(t.to_string())),
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
