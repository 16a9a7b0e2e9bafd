//! The moderators' desk: the queue of reports, what a moderator may do (mute, disable, close a
//! game or a tournament, close a report), and the log of every action. Only accounts with the
//! moderator role (`reversi db moderator NAME`) reach it; every action needs a note and is
//! logged in the transaction that makes it.

use crate::db::moderation::{AccountAction, LogLine, ReportRow};
use crate::db::User;
use crate::error::{Error, Result};
use crate::extract::{ApiQuery, Caller, JsonBody};
use crate::session::Identity;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use reversi_site_api as wire;
use serde::Deserialize;

/// The longest moderator's note, in characters.
pub const NOTE_MAX: usize = 500;
/// The longest mute: thirty days.
pub const MUTE_MAX_HOURS: u32 = 30 * 24;
/// How many reports and log lines one page of the desk shows.
pub const PAGE: u32 = 200;

/// Query of `GET /api/mod/reports`.
#[derive(Debug, Default, Deserialize)]
pub struct ReportsQuery {
    /// `closed` for the closed reports (default: the open ones).
    pub status: Option<String>,
}

pub use reversi_site_api::ModAction as ActionBody;

/// The caller, if a moderator.
fn moderator(who: &Identity) -> Result<&User> {
    let u = who.require_user()?;
    if !u.moderator {
        return Err(Error::Forbidden(
            "not_moderator",
            "only a moderator may do this".into(),
        ));
    }
    Ok(u)
}

/// The note of an action, checked.
fn note(b: &ActionBody) -> Result<&str> {
    let n = b.note.trim();
    if n.is_empty() || n.chars().count() > NOTE_MAX {
        return Err(Error::BadRequest(format!(
            "note: say why, in 1 to {NOTE_MAX} characters"
        )));
    }
    Ok(n)
}

impl AppState {
    /// Logs moderator `by`'s `action` on `target` (a game, a tournament) and closes the
    /// report it answers.
    async fn record(
        &self,
        by: &User,
        action: &str,
        target: &str,
        report: Option<i64>,
        note: &str,
    ) -> Result<()> {
        let now = self.clock().now_ms();
        self.db()
            .moderation()
            .log(&by.id, action, target, report, note, now)
            .await?;
        self.answer_report(report, by, note).await
    }

    /// Closes report `report` (if given and open) after moderator `by` acted on it.
    async fn answer_report(&self, report: Option<i64>, by: &User, note: &str) -> Result<()> {
        if let Some(id) = report {
            let now = self.clock().now_ms();
            self.db().moderation().close_report(id, &by.id, note, now).await?;
        }
        Ok(())
    }
}

/// `GET /api/mod/reports?status=closed`: the open reports, the oldest first (or the latest
/// closed ones).
#[utoipa::path(get, path = "/api/mod/reports", tag = "moderation", security(("session" = [])), params(("status" = Option<String>, Query, description = "`open` (default) or `closed`.")), responses((status = 200, description = "The reports.", body = wire::ModReports), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn reports(
    State(state): State<AppState>,
    Caller(who): Caller,
    ApiQuery(q): ApiQuery<ReportsQuery>,
) -> Result<Json<wire::ModReports>> {
    moderator(&who)?;
    let open = match q.status.as_deref() {
        None | Some("open") => true,
        Some("closed") => false,
        Some(_) => return Err(Error::BadRequest("status must be open or closed".into())),
    };
    let reports: Vec<ReportRow> = state.db().moderation().reports(open, PAGE).await?;
    Ok(Json(wire::ModReports { reports }))
}

/// `GET /api/mod/log`: the latest actions, the newest first.
#[utoipa::path(get, path = "/api/mod/log", tag = "moderation", security(("session" = [])), responses((status = 200, description = "The log.", body = wire::ModLog), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn log(State(state): State<AppState>, Caller(who): Caller) -> Result<Json<wire::ModLog>> {
    moderator(&who)?;
    let log: Vec<LogLine> = state.db().moderation().log_lines(PAGE).await?;
    Ok(Json(wire::ModLog { log }))
}

/// `POST /api/mod/reports/{id}/close` `{"note"}`: closes a report without other action.
#[utoipa::path(post, path = "/api/mod/reports/{id}/close", tag = "moderation", security(("session" = [])), params(("id" = i64, Path, description = "The report's number.")), request_body(content = wire::ModAction), responses((status = 200, description = "Closed.", body = wire::ReportClosed), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn close_report(
    State(state): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<i64>,
    JsonBody(b): JsonBody<ActionBody>,
) -> Result<Json<wire::ReportClosed>> {
    let by = moderator(&who)?;
    let n = note(&b)?;
    let now = state.clock().now_ms();
    if !state.db().moderation().close_report(id, &by.id, n, now).await? {
        return Err(Error::NotFound);
    }
    Ok(Json(wire::ReportClosed { closed: id }))
}

/// `POST /api/mod/users/{name}` `{"action", "hours"?, "note", "report"?}`: mutes, unmutes,
/// disables or enables an account. A moderator cannot act on himself or on another moderator
/// (the role is given and taken on the command line).
#[utoipa::path(post, path = "/api/mod/users/{name}", tag = "moderation", security(("session" = [])), params(("name" = String, Path, description = "The account's name.")), request_body(content = wire::ModAction), responses((status = 200, description = "Done.", body = wire::AccountActed), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn act_on_user(
    State(state): State<AppState>,
    Caller(who): Caller,
    Path(name): Path<String>,
    JsonBody(b): JsonBody<ActionBody>,
) -> Result<Json<wire::AccountActed>> {
    let by = moderator(&who)?;
    let n = note(&b)?;
    let target = state.user_named(&name).await?;
    if target.id == by.id || target.moderator {
        return Err(Error::Forbidden(
            "not_moderator",
            "moderators are not moderated here: use `reversi db moderator --remove` first".into(),
        ));
    }
    let now = state.clock().now_ms();
    let action = match b.action.as_deref() {
        Some("mute") => {
            let hours = b.hours.unwrap_or(24);
            if !(1..=MUTE_MAX_HOURS).contains(&hours) {
                return Err(Error::BadRequest(format!("hours: 1 to {MUTE_MAX_HOURS}")));
            }
            AccountAction::Mute(now + i64::from(hours) * 3_600_000)
        }
        Some("unmute") => AccountAction::Unmute,
        Some("disable") => AccountAction::Disable,
        Some("enable") => AccountAction::Enable,
        _ => {
            return Err(Error::BadRequest(
                "action must be mute, unmute, disable or enable".into(),
            ))
        }
    };
    state
        .db()
        .moderation()
        .act_on_account(&target.id, action, Some(&by.id), b.report, n, now)
        .await?;
    state.answer_report(b.report, by, n).await?;
    if action == AccountAction::Disable {
        state.db().lobby_changed();
    }
    Ok(Json(wire::AccountActed {
        done: action.name().to_string(),
        user: target.name,
    }))
}

/// `POST /api/mod/games/{id}/close` `{"note", "report"?}`: ends a game in progress without a
/// result.
#[utoipa::path(post, path = "/api/mod/games/{id}/close", tag = "moderation", security(("session" = [])), params(("id" = String, Path, description = "The game's id.")), request_body(content = wire::ModAction), responses((status = 200, description = "Closed.", body = wire::Closed), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn close_game(
    State(state): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
    JsonBody(b): JsonBody<ActionBody>,
) -> Result<Json<wire::Closed>> {
    let by = moderator(&who)?;
    let n = note(&b)?;
    let view = state.rounds().close(&id).await?;
    state.record(by, "close-game", &id, b.report, n).await?;
    Ok(Json(wire::Closed {
        closed: id,
        status: Some(view.status),
    }))
}

/// `POST /api/mod/tournaments/{id}/close` `{"note", "report"?}`: cancels a tournament that is
/// not over.
#[utoipa::path(post, path = "/api/mod/tournaments/{id}/close", tag = "moderation", security(("session" = [])), params(("id" = String, Path, description = "The tournament's id.")), request_body(content = wire::ModAction), responses((status = 200, description = "Cancelled.", body = wire::Closed), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn close_tournament(
    State(state): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
    JsonBody(b): JsonBody<ActionBody>,
) -> Result<Json<wire::Closed>> {
    let by = moderator(&who)?;
    let n = note(&b)?;
    state.cancel_tournament(&id).await?;
    state.record(by, "close-tournament", &id, b.report, n).await?;
    Ok(Json(wire::Closed {
        closed: id,
        status: None,
    }))
}
