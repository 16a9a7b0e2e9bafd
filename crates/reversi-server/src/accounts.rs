//! Accounts over HTTP: sign up, sign in (the session rotated), sign out, change the password,
//! turn chat off, the settings that follow the account, become a bot, delete the account.
//!
//! Every attempt that costs a password hash is counted *before* the hash, in the database
//! ([`crate::db::Db::reserve`]: one statement per counter, shared by every instance), so that
//! a burst of any size gets exactly its allowance: sign-ins per address, per account and address,
//! and per account from browsers it has not signed in from before; sign-ups per address; the
//! password confirmations of a signed-in account. A sign-in that succeeds gives its places back.
//! A wrong name and a wrong password get the same answer, in the same time.
//!
//! A browser that signed in to an account is given a *known device* mark (a cookie signed by
//! the server): its sign-ins to that account are not held back by failures from elsewhere, so
//! that nobody can lock an owner out of their own account by guessing wrong from other
//! addresses. Sessions are bound to the account's credential generation, which a password change
//! raises: sign-ins still in flight when the password changes make sessions that sign nobody in.

use crate::client::ClientAddr;
use crate::db::throttle::Reserved;
use crate::error::{Error, Result};
use crate::extract::{Caller, JsonBody};
use crate::secret::random_string;
use crate::session::{
    hash_secret, set_cookie, Credentials, Identity, BOT_TOKEN_PREFIX, DEVICE_COOKIE, SECRET_LEN,
    SESSION_COOKIE, SESSION_DAYS,
};
use crate::state::AppState;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use reversi_site::account;
use reversi_site_api as wire;
use reversi_site_api::{AccountView, BotToken, Me};

/// Failed sign-ins allowed per account from one address within [`THROTTLE_WINDOW_MS`].
pub const FAILURES_PER_ACCOUNT_AND_ADDRESS: i64 = 5;
/// Failed sign-ins allowed per account in all within [`THROTTLE_WINDOW_MS`], from browsers that
/// have not signed in to it before (a known device is not held back by them).
pub const FAILURES_PER_ACCOUNT: i64 = 10;
/// Failed sign-ins allowed per address within [`THROTTLE_WINDOW_MS`] (a household or an office
/// shares one).
pub const FAILURES_PER_ADDRESS: i64 = 20;
/// Wrong passwords allowed per signed-in account within [`THROTTLE_WINDOW_MS`] when it confirms
/// one (a password change, becoming a bot, deletion): a stolen session cannot guess the password
/// either.
pub const CONFIRMATIONS_PER_ACCOUNT: i64 = 5;
/// The window of the throttles: 15 minutes.
pub const THROTTLE_WINDOW_MS: i64 = 15 * 60 * 1000;
/// How long a known-device mark lives: 400 days (the most a browser keeps a cookie).
pub const DEVICE_DAYS: i64 = 400;

/// Places reserved in the throttle's counters, to give back when the attempt turns out not to
/// count (a sign-in that succeeded).
#[must_use]
pub(crate) struct Reservation {
    keys: Vec<String>,
}

impl Reservation {
    /// Gives every place back.
    pub(crate) async fn release(self, state: &AppState) -> Result<()> {
        for k in &self.keys {
            state.db().throttle().release(k, 1).await?;
        }
        Ok(())
    }
}

impl AppState {
    /// Reserves one place in each counter `(key, limit)` within [`THROTTLE_WINDOW_MS`], or none:
    /// when one is full the places taken are given back and the error says when to try again.
    pub(crate) async fn reserve_all(
        &self,
        counters: &[(String, i64)],
        code: &'static str,
        what: &str,
    ) -> Result<Reservation> {
        let now = self.clock().now_ms();
        let mut held = Reservation { keys: Vec::new() };
        for (key, limit) in counters {
            match self
                .db()
                .throttle()
                .reserve(key, 1, *limit, THROTTLE_WINDOW_MS, now)
                .await?
            {
                Reserved::Yes => held.keys.push(key.clone()),
                Reserved::No { retry_after_s } => {
                    held.release(self).await?;
                    return Err(Error::Throttled {
                        code,
                        message: format!("{what}; try again in {retry_after_s} s"),
                        retry_after_s,
                    });
                }
            }
        }
        Ok(held)
    }
}

pub use reversi_site_api::{ChatSetting, Confirm, CountrySetting, NameAndPassword, PasswordChange};

fn username_error(e: account::UsernameError) -> Error {
    Error::Invalid(Error::site_code(e.code()), e.to_string())
}

pub(crate) fn password_error(e: account::PasswordError) -> Error {
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
pub(crate) async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T> {
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
pub(crate) fn me_json(user: &crate::db::User) -> Me {
    Me {
        user: Some(AccountView {
            name: user.name.clone(),
            bot: user.bot,
            chat_off: user.chat_off,
            prefs: prefs_of(user),
            moderator: user.moderator,
            muted_until: user.muted_until,
            country: user.country.clone(),
        }),
    }
}

/// The settings stored for `user` (none set when nothing, or nothing readable, is stored).
fn prefs_of(user: &crate::db::User) -> wire::Prefs {
    user.prefs
        .as_deref()
        .and_then(|p| serde_json::from_str(p).ok())
        .unwrap_or_default()
}

impl AppState {
    /// Starts a session for `user_id` at credential generation `gen`: the new cookie. The
    /// caller's old session, if any, ends (the session is rotated at every sign-in, so a cookie
    /// planted before cannot follow).
    pub(crate) async fn start_session(
        &self,
        user_id: &str,
        gen: i64,
        creds: &Credentials,
    ) -> Result<axum::http::HeaderValue> {
        if let Some(old) = creds.cookie(SESSION_COOKIE) {
            self.db().accounts().delete_session(&hash_secret(old)).await?;
        }
        let secret = random_string(SECRET_LEN);
        let now = self.clock().now_ms();
        let expires = now + SESSION_DAYS * 86_400_000;
        self.db()
            .accounts()
            .create_session(&hash_secret(&secret), user_id, gen, now, expires)
            .await?;
        set_cookie(self, SESSION_COOKIE, &secret, SESSION_DAYS * 86_400)
            .ok_or_else(|| Error::Internal("session cookie".into()))
    }

    /// The known-device mark of account `user_id`, to set in the browser that signed in.
    pub(crate) fn device_cookie(&self, user_id: &str) -> Option<axum::http::HeaderValue> {
        let mark = self.signer().sign("device", user_id);
        set_cookie(self, DEVICE_COOKIE, &mark, DEVICE_DAYS * 86_400)
    }

    /// Whether the request comes from a browser that has signed in to account `user_id`.
    fn known_device(&self, creds: &Credentials, user_id: &str) -> bool {
        creds
            .cookie(DEVICE_COOKIE)
            .and_then(|c| self.signer().verify("device", c))
            .is_some_and(|id| id == user_id)
    }
}

pub(crate) fn with_cookies(
    status: StatusCode,
    body: Me,
    cookies: &[Option<axum::http::HeaderValue>],
) -> Response {
    let mut resp = (status, Json(body)).into_response();
    for c in cookies.iter().flatten() {
        resp.headers_mut().append(header::SET_COOKIE, c.clone());
    }
    resp
}

/// `POST /api/account/signup` `{"name","password"}`: makes an account and signs it in (`201`).
#[utoipa::path(post, path = "/api/account/signup", tag = "account", request_body(content = wire::NameAndPassword), responses((status = 201, description = "The new account, signed in (session cookie).", body = wire::Me), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn signup(
    State(state): State<AppState>,
    addr: ClientAddr,
    creds: Credentials,
    JsonBody(b): JsonBody<NameAndPassword>,
) -> Result<Response> {
    let now = state.clock().now_ms();
    account::check_username(&b.name).map_err(username_error)?;
    account::check_password(&b.name, &b.password).map_err(password_error)?;
    let counters = [(
        format!("signup {}", addr.0),
        i64::from(state.config().signups_per_address),
    )];
    let reserved = state
        .reserve_all(
            &counters,
            "signup_throttled",
            "too many accounts made from this address",
        )
        .await?;
    let password = b.password.clone();
    let hash = blocking(move || account::hash_password(&password)).await?;
    let id = random_string(12);
    if !state
        .db()
        .accounts()
        .create_user(&id, &b.name, &account::skeleton(&b.name), &hash, now)
        .await?
    {
        // No account was made: the attempt does not count.
        reserved.release(&state).await?;
        return Err(Error::Conflict(
            "name_taken",
            "this name, or one that looks the same, is taken".into(),
        ));
    }
    let cookie = state.start_session(&id, 0, &creds).await?;
    let user = state
        .db()
        .accounts()
        .user_by_id(&id)
        .await?
        .ok_or(Error::NotFound)?;
    Ok(with_cookies(
        StatusCode::CREATED,
        me_json(&user),
        &[Some(cookie), state.device_cookie(&id)],
    ))
}

/// `POST /api/account/login` `{"name","password"}`: signs in; a new session either way.
#[utoipa::path(post, path = "/api/account/login", tag = "account", request_body(content = wire::NameAndPassword), responses((status = 200, description = "Signed in (a new session cookie).", body = wire::Me), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn login(
    State(state): State<AppState>,
    addr: ClientAddr,
    creds: Credentials,
    JsonBody(b): JsonBody<NameAndPassword>,
) -> Result<Response> {
    if account::password_too_long(&b.password) || b.name.chars().count() > 64 {
        return Err(wrong_credentials());
    }
    let key = account::skeleton(&b.name);
    let found = state.db().accounts().user_named(&key, &b.name).await?;
    // A name nobody has is checked against a decoy hash: the answer takes as long.
    let (user, stored) = match found {
        Some((u, Some(h))) if !u.deleted && u.name.eq_ignore_ascii_case(&b.name) => (Some(u), h),
        _ => (None, account::decoy_hash().to_string()),
    };
    let mut counters = vec![
        (format!("login@ {}", addr.0), FAILURES_PER_ADDRESS),
        (
            format!("login {key} @ {}", addr.0),
            FAILURES_PER_ACCOUNT_AND_ADDRESS,
        ),
    ];
    if !user.as_ref().is_some_and(|u| state.known_device(&creds, &u.id)) {
        counters.push((format!("login {key}"), FAILURES_PER_ACCOUNT));
    }
    let reserved = state
        .reserve_all(&counters, "login_throttled", "too many failed sign-ins")
        .await?;
    let password = b.password.clone();
    let ok = blocking(move || account::verify_password(&password, &stored)).await?;
    let Some(user) = user.filter(|_| ok) else {
        // A failure keeps its places: that is what the limits count.
        return Err(wrong_credentials());
    };
    reserved.release(&state).await?;
    if user.disabled {
        // Said only to whoever knows the password: a disabled name is no secret, but the
        // answer must not tell a guesser that a password was right.
        return Err(Error::Forbidden(
            "account_disabled",
            "this account was disabled by a moderator".into(),
        ));
    }
    // The generation read with the hash: a password change since then voids this session.
    let cookie = state.start_session(&user.id, user.credential_gen, &creds).await?;
    Ok(with_cookies(
        StatusCode::OK,
        me_json(&user),
        &[Some(cookie), state.device_cookie(&user.id)],
    ))
}

/// `POST /api/account/logout`: ends the session.
#[utoipa::path(post, path = "/api/account/logout", tag = "account", security(("session" = [])), responses((status = 200, description = "Signed out.", body = wire::Me)))]
pub async fn logout(State(state): State<AppState>, creds: Credentials) -> Result<Response> {
    if let Some(s) = creds.cookie(SESSION_COOKIE) {
        state.db().accounts().delete_session(&hash_secret(s)).await?;
    }
    let gone = set_cookie(&state, SESSION_COOKIE, "", 0);
    Ok(with_cookies(StatusCode::OK, Me { user: None }, &[gone]))
}

/// `GET /api/account`: the account signed in (`{"user": null}` when nobody is).
#[utoipa::path(get, path = "/api/account", tag = "account", security(("bearer" = []), ("session" = []), ()), responses((status = 200, description = "The account signed in (`user: null` for nobody).", body = wire::Me)))]
pub async fn me(Caller(who): Caller) -> Json<Me> {
    Json(match who {
        Identity::User(u) => me_json(&u),
        _ => Me { user: None },
    })
}

/// Checks the password of the signed-in account (its wrong guesses counted first:
/// [`CONFIRMATIONS_PER_ACCOUNT`]).
pub(crate) async fn confirm_password(state: &AppState, user_id: &str, password: &str) -> Result<()> {
    if account::password_too_long(password) {
        return Err(Error::Unauthorized(
            "wrong_credentials",
            "the password is wrong".into(),
        ));
    }
    let reserved = state
        .reserve_all(
            &[(format!("confirm {user_id}"), CONFIRMATIONS_PER_ACCOUNT)],
            "login_throttled",
            "too many wrong passwords",
        )
        .await?;
    let stored = state
        .db()
        .accounts()
        .password_hash(user_id)
        .await?
        .ok_or_else(wrong_credentials)?;
    let password = password.to_string();
    if blocking(move || account::verify_password(&password, &stored)).await? {
        reserved.release(state).await?;
        Ok(())
    } else {
        Err(Error::Unauthorized(
            "wrong_credentials",
            "the password is wrong".into(),
        ))
    }
}

/// `POST /api/account/password` `{"current","new"}`: changes the password; every session of the
/// account ends (this one is replaced by a new one), the bot token is revoked, and sign-ins
/// checked against the old password but not finished yet sign nobody in.
pub async fn change_password(
    State(state): State<AppState>,
    Caller(who): Caller,
    JsonBody(b): JsonBody<PasswordChange>,
) -> Result<Response> {
    let user = who.require_user()?;
    account::check_password(&user.name, &b.new).map_err(password_error)?;
    confirm_password(&state, &user.id, &b.current).await?;
    let new = b.new.clone();
    let hash = blocking(move || account::hash_password(&new)).await?;
    let gen = state.db().accounts().set_password(&user.id, &hash).await?;
    let cookie = state
        .start_session(&user.id, gen, &Credentials::default())
        .await?;
    Ok(with_cookies(StatusCode::OK, me_json(user), &[Some(cookie)]))
}

/// `POST /api/account/country` `{"country": "RU"}`: names the account's country (a flag beside
/// its name on its profile and in its games from then on); `null` names none.
#[utoipa::path(post, path = "/api/account/country", tag = "account", security(("session" = [])), request_body(content = wire::CountrySetting), responses((status = 200, description = "The account with its country.", body = wire::Me), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn set_country(
    State(state): State<AppState>,
    Caller(who): Caller,
    JsonBody(b): JsonBody<CountrySetting>,
) -> Result<Json<Me>> {
    let user = who.require_user()?;
    let country = match b.country.as_deref() {
        None | Some("") => None,
        Some(code) => Some(
            reversi_site::country::country(code).map_err(|e| Error::BadRequest(format!("country: {e}")))?,
        ),
    };
    state.db().accounts().set_country(&user.id, country).await?;
    let mut u = user.clone();
    u.country = country.map(str::to_string);
    Ok(Json(me_json(&u)))
}

/// `POST /api/account/chat` `{"off": true}`: turns chat off (or on) for the account.
pub async fn chat_setting(
    State(state): State<AppState>,
    Caller(who): Caller,
    JsonBody(b): JsonBody<ChatSetting>,
) -> Result<Json<Me>> {
    let user = who.require_user()?;
    state.db().accounts().set_chat_off(&user.id, b.off).await?;
    let mut u = user.clone();
    u.chat_off = b.off;
    Ok(Json(me_json(&u)))
}

/// `POST /api/account/prefs` `{"board": "blue", "sound": true, …}`: stores the settings given
/// (the others keep their values); every browser signed in to the account follows them.
#[utoipa::path(post, path = "/api/account/prefs", tag = "account", security(("session" = [])), request_body(content = wire::Prefs), responses((status = 200, description = "The account with its settings.", body = wire::Me), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn set_prefs(
    State(state): State<AppState>,
    Caller(who): Caller,
    JsonBody(b): JsonBody<wire::Prefs>,
) -> Result<Json<Me>> {
    let user = who.require_user()?;
    let merged = prefs_of(user).merged(&b);
    let json = serde_json::to_string(&merged).map_err(|e| Error::Internal(e.to_string()))?;
    state.db().accounts().set_prefs(&user.id, &json).await?;
    let mut u = user.clone();
    u.prefs = Some(json);
    Ok(Json(me_json(&u)))
}

/// `POST /api/account/bot` `{"password"}`: makes the account a bot and answers its API token,
/// once (`{"token": "bot_…"}`); asking again issues a new one and revokes the old. A bot plays
/// through the API with `Authorization: Bearer TOKEN` and is marked as a bot everywhere.
#[utoipa::path(post, path = "/api/account/bot", tag = "account", security(("session" = [])), request_body(content = wire::Confirm), responses((status = 200, description = "The account is a bot; its API token, shown once (a new one revokes the old).", body = wire::BotToken), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn make_bot(
    State(state): State<AppState>,
    Caller(who): Caller,
    JsonBody(b): JsonBody<Confirm>,
) -> Result<Json<BotToken>> {
    let user = who.require_user()?;
    confirm_password(&state, &user.id, &b.password).await?;
    let token = format!("{BOT_TOKEN_PREFIX}{}", random_string(SECRET_LEN));
    state
        .db()
        .accounts()
        .make_bot(&user.id, &hash_secret(&token))
        .await?;
    Ok(Json(BotToken { token }))
}

/// `POST /api/account/delete` `{"password"}`: deletes the account (its games stay, shown as a
/// deleted player; the name stays taken).
pub async fn delete(
    State(state): State<AppState>,
    Caller(who): Caller,
    JsonBody(b): JsonBody<Confirm>,
) -> Result<Response> {
    let user = who.require_user()?;
    confirm_password(&state, &user.id, &b.password).await?;
    state
        .db()
        .accounts()
        .delete_user(&user.id, state.clock().now_ms())
        .await?;
    state.rounds().forget_name(&user.id);
    let gone = set_cookie(&state, SESSION_COOKIE, "", 0);
    Ok(with_cookies(StatusCode::OK, Me { user: None }, &[gone]))
}
