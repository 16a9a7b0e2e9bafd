//! The account's e-mail address and the links mailed to it: an address is the account's once
//! its owner follows the link mailed to it, and a forgotten password is set anew by a link
//! mailed to that confirmed address.
//!
//! - Changing the address asks for the password (a stolen session cannot move the account's
//!   mail, and with it the way to reset its password, elsewhere). The address stays the old one
//!   until the new one is confirmed; only the newest link mailed works.
//! - A reset request answers the same (`202`, `{"queued": true}`) whether or not an account has
//!   the address, and the letter goes out in the background, so the answer tells nothing about
//!   who has an account. Requests are counted per client address and per e-mail address before
//!   anything is looked up, so neither a flood nor the counters themselves say more.
//! - Links are random secrets ([`SECRET_LEN`] letters and digits) stored only as hashes; each
//!   works once (taken in one statement), for [`VERIFY_LINK_MS`] or [`RESET_LINK_MS`], and a
//!   reset link only while the password is the one it was made under. A reset ends every session
//!   of the account and its bot token (as a password change does) and signs this browser in.

use crate::accounts::{blocking, me_json, password_error, with_cookies};
use crate::client::ClientAddr;
use crate::db::mail::Purpose;
use crate::error::{Error, Result};
use crate::extract::{Caller, JsonBody};
use crate::mail::{Letter, Mailer};
use crate::secret::random_string;
use crate::session::{hash_secret, well_formed, Credentials, SECRET_LEN};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use reversi_i18n::Lang;
use reversi_site::{account, email};
use reversi_site_api as wire;
use reversi_site_api::{EmailChange, EmailView, MailedSecret, NewPassword, ResetRequest, ResetRequested};

/// How long a verification link works: a day.
pub const VERIFY_LINK_MS: i64 = 24 * 3600 * 1000;
/// How long a reset link works: an hour.
pub const RESET_LINK_MS: i64 = 3600 * 1000;
/// Verification letters one account may ask for per throttle window (15 minutes).
pub const VERIFY_LETTERS_PER_ACCOUNT: i64 = 3;
/// Reset letters one e-mail address may be sent per throttle window: nobody can fill an
/// owner's mailbox with them.
pub const RESET_LETTERS_PER_ADDRESS: i64 = 3;
/// Reset requests one client address may make per throttle window.
pub const RESET_REQUESTS_PER_CLIENT: i64 = 10;

fn mailer(state: &AppState) -> Result<&Mailer> {
    state.config().mail.as_ref().ok_or_else(|| {
        Error::Unavailable(
            "mail_unavailable",
            "this site sends no mail, so an address cannot be confirmed nor a password reset by mail; \
             ask the site's host"
                .into(),
        )
    })
}

fn link_expired() -> Error {
    Error::Invalid(
        "link_expired",
        "this link has expired or has been used; ask for a new one".into(),
    )
}

fn email_taken() -> Error {
    Error::Conflict(
        "email_taken",
        "another account has this e-mail address; give another, or reset that account's password".into(),
    )
}

fn email_error(e: email::EmailError) -> Error {
    Error::Invalid(Error::site_code(e.code()), e.to_string())
}

/// The hash a link's secret is stored under, or the error of a link that cannot be one.
fn secret_hash(token: &str) -> Result<String> {
    if well_formed(token) {
        Ok(hash_secret(token))
    } else {
        Err(link_expired())
    }
}

/// The live account a link was made for (a deleted account's links sign nobody in).
async fn link_owner(state: &AppState, token: &crate::db::mail::MailToken) -> Result<crate::db::User> {
    state
        .db()
        .accounts()
        .user_by_id(&token.user_id)
        .await?
        .filter(|u| !u.deleted)
        .ok_or_else(link_expired)
}

fn lang_of(lang: &Option<String>) -> Lang {
    lang.as_deref().and_then(|l| l.parse().ok()).unwrap_or(Lang::En)
}

/// Makes a link for `purpose`, valid for `valid_ms`: its secret (the link's last part).
async fn new_link(
    state: &AppState,
    user: &crate::db::User,
    purpose: Purpose,
    address: &str,
    valid_ms: i64,
) -> Result<String> {
    let secret = random_string(SECRET_LEN);
    let now = state.clock().now_ms();
    state
        .db()
        .mail_tokens()
        .create(
            &hash_secret(&secret),
            &user.id,
            purpose,
            address,
            user.credential_gen,
            now,
            now + valid_ms,
        )
        .await?;
    Ok(secret)
}

impl AppState {
    /// Queues the letter that tells an account's old address `old` that the address became
    /// `new` (masked) or was removed (`None`).
    async fn tell_old_address(&self, old: &str, name: &str, new: Option<&str>, lang: Option<&str>) {
        let payload = serde_json::json!({
            "to": old,
            "name": name,
            "email": new.map(crate::notify::masked).unwrap_or_default(),
            "lang": if lang == Some("ru") { "ru" } else { "en" },
        });
        self.queue_letter("address-changed", None, payload).await;
    }
}

async fn view_of(state: &AppState, user: Option<&crate::db::User>) -> Result<EmailView> {
    let mail = state.config().mail.is_some();
    let Some(user) = user else {
        return Ok(EmailView {
            mail,
            email: None,
            pending: None,
            notify: false,
        });
    };
    let pending = state
        .db()
        .mail_tokens()
        .pending_email(&user.id, state.clock().now_ms())
        .await?
        .filter(|p| user.email.as_ref() != Some(p));
    Ok(EmailView {
        mail,
        email: user.email.clone(),
        pending,
        notify: user.mail_notify.is_some(),
    })
}

/// `GET /api/account/email`: whether the site mails, and the account's address (confirmed and
/// waiting); for nobody signed in, only whether the site mails.
#[utoipa::path(get, path = "/api/account/email", tag = "account", security(("session" = []), ()), responses((status = 200, description = "Whether the site sends mail; the account's confirmed and pending addresses.", body = wire::EmailView)))]
pub async fn get(State(state): State<AppState>, Caller(who): Caller) -> Result<Json<EmailView>> {
    Ok(Json(view_of(&state, who.user()).await?))
}

/// `POST /api/account/email` `{"email","password","lang"}`: mails a link that confirms the
/// address (an empty address removes the confirmed one at once).
#[utoipa::path(post, path = "/api/account/email", tag = "account", security(("session" = [])), request_body(content = wire::EmailChange), responses((status = 200, description = "The link is on its way (`pending`), or the address was removed.", body = wire::EmailView), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError), (status = 503, description = "The site sends no mail (`mail_unavailable`).", body = wire::ApiError)))]
pub async fn change(
    State(state): State<AppState>,
    Caller(who): Caller,
    JsonBody(b): JsonBody<EmailChange>,
) -> Result<Json<EmailView>> {
    let user = who.require_user()?;
    if b.email.trim().is_empty() {
        crate::accounts::confirm_password(&state, &user.id, &b.password).await?;
        let now = state.clock().now_ms();
        state.db().accounts().set_email(&user.id, None, now).await?;
        if let Some(old) = &user.email {
            state
                .tell_old_address(old, &user.name, None, b.lang.as_deref())
                .await;
        }
        state
            .db()
            .mail_tokens()
            .delete_of(&user.id, Purpose::Verify)
            .await?;
        let mut u = user.clone();
        u.email = None;
        return Ok(Json(view_of(&state, Some(&u)).await?));
    }
    let address = email::check(&b.email).map_err(email_error)?;
    let mailer = mailer(&state)?;
    crate::accounts::confirm_password(&state, &user.id, &b.password).await?;
    if user.email.as_deref() == Some(address.as_str()) {
        return Ok(Json(view_of(&state, Some(user)).await?));
    }
    if state.db().accounts().user_by_email(&address).await?.is_some() {
        return Err(email_taken());
    }
    // Not given back: each letter counts, sent or not.
    let _held = state
        .reserve_all(
            &[(format!("verify {}", user.id), VERIFY_LETTERS_PER_ACCOUNT)],
            "email_throttled",
            "too many letters asked for",
        )
        .await?;
    state
        .db()
        .mail_tokens()
        .delete_of(&user.id, Purpose::Verify)
        .await?;
    let secret = new_link(&state, user, Purpose::Verify, &address, VERIFY_LINK_MS).await?;
    let letter = Letter::Verify {
        name: user.name.clone(),
        email: address.clone(),
        link: mailer.link(&format!("/verify/{secret}")),
    };
    mailer.send(&address, letter, lang_of(&b.lang));
    Ok(Json(view_of(&state, Some(user)).await?))
}

/// `POST /api/account/email/verify` `{"token"}`: confirms the address the link was mailed to
/// (in any browser: signing in is not needed).
#[utoipa::path(post, path = "/api/account/email/verify", tag = "account", request_body(content = wire::MailedSecret), responses((status = 200, description = "The address is the account's.", body = wire::EmailView), (status = "4XX", description = "Refused: the link expired or was used (`link_expired`), or another account took the address meanwhile (`email_taken`).", body = wire::ApiError)))]
pub async fn verify(
    State(state): State<AppState>,
    JsonBody(b): JsonBody<MailedSecret>,
) -> Result<Json<EmailView>> {
    let hash = secret_hash(&b.token)?;
    let now = state.clock().now_ms();
    let token = state
        .db()
        .mail_tokens()
        .take(&hash, Purpose::Verify, now)
        .await?
        .ok_or_else(link_expired)?;
    let user = link_owner(&state, &token).await?;
    if !state
        .db()
        .accounts()
        .set_email(&user.id, Some(&token.email), now)
        .await?
    {
        return Err(email_taken());
    }
    if let Some(old) = user.email.as_deref().filter(|o| *o != token.email) {
        state
            .tell_old_address(old, &user.name, Some(&token.email), b.lang.as_deref())
            .await;
    }
    state
        .db()
        .mail_tokens()
        .delete_of(&user.id, Purpose::Verify)
        .await?;
    Ok(Json(EmailView {
        mail: state.config().mail.is_some(),
        email: Some(token.email),
        pending: None,
        notify: user.mail_notify.is_some(),
    }))
}

/// `POST /api/account/reset` `{"email","lang"}`: mails a link to set a new password to the
/// account with this confirmed address, if there is one; the same answer (`202`) either way.
#[utoipa::path(post, path = "/api/account/reset", tag = "account", request_body(content = wire::ResetRequest), responses((status = 202, description = "If an account has the address, a link is on its way to it.", body = wire::ResetRequested), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError), (status = 503, description = "The site sends no mail (`mail_unavailable`).", body = wire::ApiError)))]
pub async fn request_reset(
    State(state): State<AppState>,
    addr: ClientAddr,
    JsonBody(b): JsonBody<ResetRequest>,
) -> Result<Response> {
    let mailer = mailer(&state)?;
    let address = email::check(&b.email).map_err(email_error)?;
    // Counted before the address is looked up: the counters answer alike for every address.
    let _held = state
        .reserve_all(
            &[
                (format!("reset@ {}", addr.0), RESET_REQUESTS_PER_CLIENT),
                (format!("reset {address}"), RESET_LETTERS_PER_ADDRESS),
            ],
            "reset_throttled",
            "too many password resets asked for",
        )
        .await?;
    if let Some(user) = state.db().accounts().user_by_email(&address).await? {
        let secret = new_link(&state, &user, Purpose::Reset, &address, RESET_LINK_MS).await?;
        let letter = Letter::Reset {
            name: user.name.clone(),
            link: mailer.link(&format!("/reset/{secret}")),
        };
        mailer.send(&address, letter, lang_of(&b.lang));
    }
    Ok((StatusCode::ACCEPTED, Json(ResetRequested { queued: true })).into_response())
}

/// `POST /api/account/reset/confirm` `{"token","password"}`: sets the new password; every
/// session of the account ends, and this browser is signed in.
#[utoipa::path(post, path = "/api/account/reset/confirm", tag = "account", request_body(content = wire::NewPassword), responses((status = 200, description = "The password is set; signed in (a new session cookie).", body = wire::Me), (status = "4XX", description = "Refused: the link expired or was used (`link_expired`), or the password is not allowed (the link still works).", body = wire::ApiError)))]
pub async fn confirm_reset(
    State(state): State<AppState>,
    creds: Credentials,
    JsonBody(b): JsonBody<NewPassword>,
) -> Result<Response> {
    let hash = secret_hash(&b.token)?;
    let now = state.clock().now_ms();
    let tokens = state.db().mail_tokens();
    let token = tokens
        .peek(&hash, Purpose::Reset, now)
        .await?
        .ok_or_else(link_expired)?;
    let user = link_owner(&state, &token).await?;
    if user.credential_gen != token.credential_gen {
        return Err(link_expired());
    }
    // A password that is not allowed leaves the link working, to try another.
    account::check_password(&user.name, &b.password).map_err(password_error)?;
    if tokens.take(&hash, Purpose::Reset, now).await?.is_none() {
        return Err(link_expired());
    }
    let password = b.password.clone();
    let stored = blocking(move || account::hash_password(&password)).await?;
    let gen = state.db().accounts().set_password(&user.id, &stored).await?;
    tokens.delete_of(&user.id, Purpose::Reset).await?;
    let cookie = state.start_session(&user.id, gen, &creds).await?;
    let mut u = user.clone();
    u.credential_gen = gen;
    Ok(with_cookies(
        StatusCode::OK,
        me_json(&u),
        &[Some(cookie), state.device_cookie(&user.id)],
    ))
}
