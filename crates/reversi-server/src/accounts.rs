//! Accounts over HTTP: sign up, sign in (the session rotated), sign out, change the password,
//! turn chat off, become a bot, delete the account. Sign-ins are throttled per account and per
//! address; a wrong name and a wrong password get the same answer, in the same time.

use crate::body::parse_body;
use crate::error::{Error, Result};
use crate::secret::random_string;
use crate::session::{
    hash_secret, set_cookie, Identity, BOT_TOKEN_PREFIX, SECRET_LEN, SESSION_COOKIE, SESSION_DAYS,
};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Extension, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use reversi_site::account;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::Mutex;

/// Failed sign-ins allowed per account within [`THROTTLE_WINDOW_MS`].
pub const FAILURES_PER_ACCOUNT: u32 = 5;
/// Failed sign-ins allowed per address within [`THROTTLE_WINDOW_MS`] (a household or an office
/// shares one).
pub const FAILURES_PER_ADDRESS: u32 = 20;
/// Accounts made per address within [`THROTTLE_WINDOW_MS`], by default
/// ([`crate::Config::signups_per_address`]).
pub const SIGNUPS_PER_ADDRESS: u32 = 5;
/// The window of the throttles: 15 minutes.
pub const THROTTLE_WINDOW_MS: i64 = 15 * 60 * 1000;

/// Counts of recent attempts per key (an account's name key, an address), in fixed windows.
/// Kept by each instance: behind several instances an attacker gets each instance's allowance,
/// still a few dozen guesses per quarter hour.
#[derive(Debug, Default)]
pub struct Throttle {
    counts: Mutex<HashMap<String, (i64, u32)>>,
}

impl Throttle {
    /// Seconds until `key` may try again, if it has used `limit` attempts in this window.
    pub fn blocked(&self, key: &str, limit: u32, now: i64) -> Option<u64> {
        let counts = self.counts.lock().ok()?;
        let (start, n) = *counts.get(key)?;
        (now - start < THROTTLE_WINDOW_MS && n >= limit)
            .then(|| ((start + THROTTLE_WINDOW_MS - now) / 1000).max(1) as u64)
    }

    /// Counts an attempt of `key`.
    pub fn count(&self, key: &str, now: i64) {
        let Ok(mut counts) = self.counts.lock() else {
            return;
        };
        if counts.len() > 100_000 {
            counts.retain(|_, (start, _)| now - *start < THROTTLE_WINDOW_MS);
        }
        let e = counts.entry(key.to_string()).or_insert((now, 0));
        if now - e.0 >= THROTTLE_WINDOW_MS {
            *e = (now, 0);
        }
        e.1 += 1;
    }

    /// Forgets `key` (a successful sign-in clears its account's failures).
    pub fn clear(&self, key: &str) {
        if let Ok(mut counts) = self.counts.lock() {
            counts.remove(key);
        }
    }
}

/// Body of sign-up and sign-in.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Credentials {
    /// The username.
    pub name: String,
    /// The password.
    pub password: String,
}

/// Body of a password change.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PasswordChange {
    /// The password now.
    pub current: String,
    /// The new one.
    pub new: String,
}

/// Body of an account deletion.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Confirm {
    /// The password, to confirm.
    pub password: String,
}

/// Body of the chat setting.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChatSetting {
    /// Turn chat off (true) or on.
    pub off: bool,
}

fn username_error(e: account::UsernameError) -> Error {
    Error::Invalid(Error::site_code(e.code()), e.to_string())
}

fn password_error(e: account::PasswordError) -> Error {
    Error::Invalid(Error::site_code(e.code()), e.to_string())
}

fn wrong_credentials() -> Error {
    Error::Unauthorized("wrong_credentials", "wrong username or password".into())
}

/// Threads that compute password hashes: each hash takes tens of milliseconds of a core and
/// 19 MiB (argon2id's memory cost), so a storm of sign-ins waits in line instead of taking every
/// core, and the memory the hashes use stays with these few threads (the blocking pool's
/// hundreds of threads would each keep some).
pub const HASH_THREADS: usize = 2;

type HashJob = Box<dyn FnOnce() + Send>;

fn hashers() -> &'static std::sync::Mutex<std::sync::mpsc::Sender<HashJob>> {
    static HASHERS: std::sync::OnceLock<std::sync::Mutex<std::sync::mpsc::Sender<HashJob>>> =
        std::sync::OnceLock::new();
    HASHERS.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel::<HashJob>();
        let rx = std::sync::Arc::new(std::sync::Mutex::new(rx));
        for i in 0..HASH_THREADS {
            let rx = std::sync::Arc::clone(&rx);
            let _ = std::thread::Builder::new()
                .name(format!("password-hash-{i}"))
                .spawn(move || loop {
                    let job = match rx.lock() {
                        Ok(r) => r.recv(),
                        Err(_) => return,
                    };
                    match job {
                        // A job that panics fails its request alone; the thread goes on.
                        Ok(job) => {
                            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                        }
                        Err(_) => return,
                    }
                });
        }
        std::sync::Mutex::new(tx)
    })
}

/// Runs a password hash (or check) on the hashing threads.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T> {
    let (done, result) = tokio::sync::oneshot::channel();
    let job: HashJob = Box::new(move || {
        let _ = done.send(f());
    });
    hashers()
        .lock()
        .map_err(|_| Error::Internal("the password hashing threads are gone".into()))?
        .send(job)
        .map_err(|_| Error::Internal("the password hashing threads are gone".into()))?;
    result
        .await
        .map_err(|_| Error::Internal("a password hashing thread stopped".into()))
}

/// What `GET /api/account` and sign-in answer.
fn me_json(user: &crate::db::User) -> serde_json::Value {
    serde_json::json!({ "user": { "name": user.name, "bot": user.bot, "chat_off": user.chat_off } })
}

impl AppState {
    /// Starts a session for `user_id`: the new cookie. The caller's old session, if any, ends
    /// (the session is rotated at every sign-in, so a cookie planted before cannot follow).
    async fn start_session(&self, user_id: &str, headers: &HeaderMap) -> Result<axum::http::HeaderValue> {
        if let Some(old) = crate::session::cookie(headers, SESSION_COOKIE) {
            self.db().delete_session(&hash_secret(old)).await?;
        }
        let secret = random_string(SECRET_LEN);
        let now = crate::time::now_ms();
        let expires = now + SESSION_DAYS * 86_400_000;
        self.db()
            .create_session(&hash_secret(&secret), user_id, now, expires)
            .await?;
        set_cookie(self, SESSION_COOKIE, &secret, SESSION_DAYS * 86_400)
            .ok_or_else(|| Error::Internal("session cookie".into()))
    }
}

fn with_cookie(
    status: StatusCode,
    body: serde_json::Value,
    cookie: Option<axum::http::HeaderValue>,
) -> Response {
    let mut resp = (status, Json(body)).into_response();
    if let Some(c) = cookie {
        resp.headers_mut().append(header::SET_COOKIE, c);
    }
    resp
}

/// `POST /api/account/signup` `{"name","password"}`: makes an account and signs it in (`201`).
pub async fn signup(
    State(state): State<AppState>,
    Extension(addr): Extension<crate::api::ClientAddr>,
    headers: HeaderMap,
    body: std::result::Result<Bytes, BytesRejection>,
) -> Result<Response> {
    let b: Credentials = parse_body(&headers, body, false)?;
    let now = crate::time::now_ms();
    let addr = format!("signup {}", addr.0);
    if let Some(wait) = state
        .throttle()
        .blocked(&addr, state.config().signups_per_address, now)
    {
        return Err(Error::Throttled {
            code: "signup_throttled",
            message: format!("too many accounts made from this address; try again in {wait} s"),
            retry_after_s: wait,
        });
    }
    account::check_username(&b.name).map_err(username_error)?;
    account::check_password(&b.name, &b.password).map_err(password_error)?;
    let password = b.password.clone();
    let hash = blocking(move || account::hash_password(&password)).await?;
    let id = random_string(12);
    if !state
        .db()
        .create_user(&id, &b.name, &account::skeleton(&b.name), &hash, now)
        .await?
    {
        return Err(Error::Conflict(
            "name_taken",
            "this name, or one that looks the same, is taken".into(),
        ));
    }
    state.throttle().count(&addr, now);
    let cookie = state.start_session(&id, &headers).await?;
    let user = state.db().user_by_id(&id).await?.ok_or(Error::NotFound)?;
    Ok(with_cookie(StatusCode::CREATED, me_json(&user), Some(cookie)))
}

/// `POST /api/account/login` `{"name","password"}`: signs in; a new session either way.
pub async fn login(
    State(state): State<AppState>,
    Extension(addr): Extension<crate::api::ClientAddr>,
    headers: HeaderMap,
    body: std::result::Result<Bytes, BytesRejection>,
) -> Result<Response> {
    let b: Credentials = parse_body(&headers, body, false)?;
    let now = crate::time::now_ms();
    let key = account::skeleton(&b.name);
    let by_account = format!("login {key}");
    let by_address = format!("login@ {}", addr.0);
    for (k, limit) in [
        (&by_account, FAILURES_PER_ACCOUNT),
        (&by_address, FAILURES_PER_ADDRESS),
    ] {
        if let Some(wait) = state.throttle().blocked(k, limit, now) {
            return Err(Error::Throttled {
                code: "login_throttled",
                message: format!("too many failed sign-ins; try again in {wait} s"),
                retry_after_s: wait,
            });
        }
    }
    if b.password.len() > account::PASSWORD_MAX || b.name.len() > 64 {
        return Err(wrong_credentials());
    }
    let found = state.db().user_by_key(&key).await?;
    // A name nobody has is checked against a decoy hash: the answer takes as long.
    let (user, stored) = match found {
        Some((u, Some(h))) if !u.deleted && u.name.eq_ignore_ascii_case(&b.name) => (Some(u), h),
        _ => (None, account::decoy_hash().to_string()),
    };
    let password = b.password.clone();
    let ok = blocking(move || account::verify_password(&password, &stored)).await?;
    let Some(user) = user.filter(|_| ok) else {
        state.throttle().count(&by_account, now);
        state.throttle().count(&by_address, now);
        return Err(wrong_credentials());
    };
    state.throttle().clear(&by_account);
    let cookie = state.start_session(&user.id, &headers).await?;
    Ok(with_cookie(StatusCode::OK, me_json(&user), Some(cookie)))
}

/// `POST /api/account/logout`: ends the session.
pub async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Result<Response> {
    if let Some(s) = crate::session::cookie(&headers, SESSION_COOKIE) {
        state.db().delete_session(&hash_secret(s)).await?;
    }
    let gone = set_cookie(&state, SESSION_COOKIE, "", 0);
    Ok(with_cookie(
        StatusCode::OK,
        serde_json::json!({ "user": null }),
        gone,
    ))
}

/// `GET /api/account`: the account signed in (`{"user": null}` when nobody is).
pub async fn me(State(state): State<AppState>, headers: HeaderMap) -> Result<Json<serde_json::Value>> {
    Ok(Json(match state.identity(&headers).await? {
        Identity::User(u) => me_json(&u),
        _ => serde_json::json!({ "user": null }),
    }))
}

/// Checks the password of the signed-in account.
async fn confirm_password(state: &AppState, user_id: &str, password: &str) -> Result<()> {
    let stored = state
        .db()
        .password_hash(user_id)
        .await?
        .ok_or_else(wrong_credentials)?;
    let password = password.to_string();
    if blocking(move || account::verify_password(&password, &stored)).await? {
        Ok(())
    } else {
        Err(Error::Unauthorized(
            "wrong_credentials",
            "the password is wrong".into(),
        ))
    }
}

/// `POST /api/account/password` `{"current","new"}`: changes the password; every other session
/// of the account ends and this one is rotated.
pub async fn change_password(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: std::result::Result<Bytes, BytesRejection>,
) -> Result<Response> {
    let b: PasswordChange = parse_body(&headers, body, false)?;
    let who = state.identity(&headers).await?;
    let user = who.require_user()?;
    account::check_password(&user.name, &b.new).map_err(password_error)?;
    confirm_password(&state, &user.id, &b.current).await?;
    let new = b.new.clone();
    let hash = blocking(move || account::hash_password(&new)).await?;
    state.db().set_password(&user.id, &hash).await?;
    state.db().delete_sessions_of(&user.id, None).await?;
    let cookie = state.start_session(&user.id, &HeaderMap::new()).await?;
    Ok(with_cookie(StatusCode::OK, me_json(user), Some(cookie)))
}

/// `POST /api/account/chat` `{"off": true}`: turns chat off (or on) for the account.
pub async fn chat_setting(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: std::result::Result<Bytes, BytesRejection>,
) -> Result<Json<serde_json::Value>> {
    let b: ChatSetting = parse_body(&headers, body, false)?;
    let who = state.identity(&headers).await?;
    let user = who.require_user()?;
    state.db().set_chat_off(&user.id, b.off).await?;
    let mut u = user.clone();
    u.chat_off = b.off;
    Ok(Json(me_json(&u)))
}

/// `POST /api/account/bot` `{"password"}`: makes the account a bot and answers its API token,
/// once (`{"token": "bot_…"}`); asking again issues a new one and revokes the old. A bot plays
/// through the API with `Authorization: Bearer TOKEN` and is marked as a bot everywhere.
pub async fn make_bot(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: std::result::Result<Bytes, BytesRejection>,
) -> Result<Json<serde_json::Value>> {
    let b: Confirm = parse_body(&headers, body, false)?;
    let who = state.identity(&headers).await?;
    let user = who.require_user()?;
    confirm_password(&state, &user.id, &b.password).await?;
    let token = format!("{BOT_TOKEN_PREFIX}{}", random_string(SECRET_LEN));
    state.db().make_bot(&user.id, &hash_secret(&token)).await?;
    Ok(Json(serde_json::json!({ "token": token })))
}

/// `POST /api/account/delete` `{"password"}`: deletes the account (its games stay, shown as a
/// deleted player; the name stays taken).
pub async fn delete(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: std::result::Result<Bytes, BytesRejection>,
) -> Result<Response> {
    let b: Confirm = parse_body(&headers, body, false)?;
    let who = state.identity(&headers).await?;
    let user = who.require_user()?;
    confirm_password(&state, &user.id, &b.password).await?;
    state.db().delete_user(&user.id, crate::time::now_ms()).await?;
    state.forget_name(&user.id).await;
    let gone = set_cookie(&state, SESSION_COOKIE, "", 0);
    Ok(with_cookie(
        StatusCode::OK,
        serde_json::json!({ "user": null }),
        gone,
    ))
}
