//! Players among themselves: following (the followed players' games and presence on the
//! follower's home page), blocking (no challenges, seeks taken or chat from the blocked), and
//! reporting a player to the moderators ([`crate::moderation`]).

use crate::db::people::Relation;
use crate::db::User;
use crate::error::{Error, Result};
use crate::extract::{Caller, JsonBody};
use crate::session::Identity;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use reversi_site_api as wire;

/// How many players one account may follow, and how many it may block.
pub const PEOPLE_CAP: i64 = 1_000;
/// How many reports one account may send in [`REPORT_WINDOW_MS`].
pub const REPORTS_PER_DAY: i64 = 10;
/// The window of [`REPORTS_PER_DAY`]: a day.
pub const REPORT_WINDOW_MS: i64 = 24 * 3_600_000;
/// The longest report text, in characters.
pub const REPORT_TEXT_MAX: usize = 500;
/// The reasons a report may give.
pub const REPORT_REASONS: &[&str] = &["cheating", "abuse", "spam", "name", "other"];
/// A player seen this recently (a signed-in request) counts as online.
pub const ONLINE_MS: i64 = 5 * 60_000;
/// An instance stores an account's `seen_at` at most this often.
pub const SEEN_EVERY_MS: u64 = 60_000;

pub use reversi_site_api::ReportBody;

impl AppState {
    /// Notes that account `id` was seen now (stored at most every [`SEEN_EVERY_MS`]).
    pub(crate) async fn saw(&self, id: &str) -> Result<()> {
        let now = self.clock().clock_ms();
        {
            let Ok(mut seen) = self.inner.seen.lock() else {
                return Ok(());
            };
            if seen.len() > 100_000 {
                seen.clear();
            }
            match seen.get(id) {
                Some(&t) if now.saturating_sub(t) < SEEN_EVERY_MS => return Ok(()),
                _ => {
                    seen.insert(id.to_string(), now);
                }
            }
        }
        self.db().people().seen(id, now as i64).await
    }

    /// Whether account `blocker` blocks account `other`.
    pub(crate) async fn blocks(&self, blocker: &str, other: &str) -> Result<bool> {
        self.db().people().has(Relation::Block, blocker, other).await
    }

    /// The caller (an account) and the live account named `name`, another one.
    async fn caller_and(&self, who: &Identity, name: &str) -> Result<(User, User)> {
        let me = who.require_user()?;
        let other = self.user_named(name).await?;
        if other.id == me.id {
            return Err(yourself());
        }
        Ok((me.clone(), other))
    }

    /// Makes `me` follow (or block) `other`, within [`PEOPLE_CAP`].
    async fn relate(&self, rel: Relation, me: &User, other: &User) -> Result<()> {
        let now = self.clock().now_ms();
        if !self
            .db()
            .people()
            .add(rel, &me.id, &other.id, PEOPLE_CAP, now)
            .await?
        {
            return Err(cap_reached());
        }
        Ok(())
    }
}

fn yourself() -> Error {
    Error::Invalid("yourself", "you cannot do this to yourself".into())
}

fn cap_reached() -> Error {
    Error::Conflict(
        "people_limit",
        format!("one account may follow, and block, at most {PEOPLE_CAP} players"),
    )
}

/// Whether a player last seen at `seen_at` is online at `now`.
pub fn online(seen_at: Option<i64>, now: i64) -> bool {
    seen_at.is_some_and(|t| now - t < ONLINE_MS)
}

/// `GET /api/account/people`: the players the caller follows (online or not, their games in
/// progress) and those it blocks.
#[utoipa::path(get, path = "/api/account/people", tag = "people", security(("session" = [])), responses((status = 200, description = "Whom the account follows and blocks.", body = wire::MyPeople), (status = 401, description = "Nobody is signed in.", body = wire::ApiError)))]
pub async fn mine(State(state): State<AppState>, Caller(who): Caller) -> Result<Json<wire::MyPeople>> {
    let me = who.require_user()?;
    let now = state.clock().now_ms();
    let following = state
        .db()
        .people()
        .following(&me.id)
        .await?
        .into_iter()
        .map(|f| wire::Followed {
            name: f.name,
            bot: f.bot,
            online: online(f.seen_at, now),
            seen_at: f.seen_at,
            playing: f.playing,
        })
        .collect();
    let blocked = state
        .db()
        .people()
        .blocked(&me.id)
        .await?
        .into_iter()
        .map(|(_, name)| name)
        .collect();
    Ok(Json(wire::MyPeople { following, blocked }))
}

/// `POST /api/users/{name}/follow` (refused by a player who blocks the caller).
pub async fn follow(
    State(state): State<AppState>,
    Caller(who): Caller,
    Path(name): Path<String>,
) -> Result<StatusCode> {
    let (me, other) = state.caller_and(&who, &name).await?;
    if state.blocks(&other.id, &me.id).await? {
        return Err(blocked());
    }
    state.relate(Relation::Follow, &me, &other).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/users/{name}/follow`.
pub async fn unfollow(
    State(state): State<AppState>,
    Caller(who): Caller,
    Path(name): Path<String>,
) -> Result<StatusCode> {
    let (me, other) = state.caller_and(&who, &name).await?;
    state
        .db()
        .people()
        .remove(Relation::Follow, &me.id, &other.id)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/users/{name}/block`: also ends each one's following of the other.
pub async fn block(
    State(state): State<AppState>,
    Caller(who): Caller,
    Path(name): Path<String>,
) -> Result<StatusCode> {
    let (me, other) = state.caller_and(&who, &name).await?;
    state.relate(Relation::Block, &me, &other).await?;
    let people = state.db().people();
    people.remove(Relation::Follow, &me.id, &other.id).await?;
    people.remove(Relation::Follow, &other.id, &me.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/users/{name}/block`.
pub async fn unblock(
    State(state): State<AppState>,
    Caller(who): Caller,
    Path(name): Path<String>,
) -> Result<StatusCode> {
    let (me, other) = state.caller_and(&who, &name).await?;
    state
        .db()
        .people()
        .remove(Relation::Block, &me.id, &other.id)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/users/{name}/report` `{"reason", "text", "game"?}`: a report to the moderators
/// (at most [`REPORTS_PER_DAY`] a day from one account).
#[utoipa::path(post, path = "/api/users/{name}/report", tag = "people", security(("session" = [])), params(("name" = String, Path, description = "The player reported.")), request_body(content = wire::ReportBody), responses((status = 201, description = "The report is in the moderators' queue.", body = wire::ReportFiled), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn report(
    State(state): State<AppState>,
    Caller(who): Caller,
    Path(name): Path<String>,
    JsonBody(b): JsonBody<ReportBody>,
) -> Result<(StatusCode, Json<wire::ReportFiled>)> {
    let (me, other) = state.caller_and(&who, &name).await?;
    if !REPORT_REASONS.contains(&b.reason.as_str()) {
        return Err(Error::Invalid(
            "report_reason",
            format!("reason must be one of {}", REPORT_REASONS.join(", ")),
        ));
    }
    let text = b.text.trim();
    if text.chars().count() > REPORT_TEXT_MAX || text.chars().any(|c| c.is_control() && c != '\n') {
        return Err(Error::Invalid(
            "report_text",
            format!("text: at most {REPORT_TEXT_MAX} characters, no control characters"),
        ));
    }
    let game = b.game.as_deref().filter(|g| !g.is_empty());
    if let Some(g) = game {
        if g.len() > 32
            || !g
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        {
            return Err(Error::BadRequest("game: not a game's id".into()));
        }
    }
    let now = state.clock().now_ms();
    if let crate::db::throttle::Reserved::No { retry_after_s } = state
        .db()
        .throttle()
        .reserve(
            &format!("report {}", me.id),
            1,
            REPORTS_PER_DAY,
            REPORT_WINDOW_MS,
            now,
        )
        .await?
    {
        return Err(Error::Throttled {
            code: "report_throttled",
            message: format!("at most {REPORTS_PER_DAY} reports a day"),
            retry_after_s,
        });
    }
    let id = state
        .db()
        .moderation()
        .report(
            &crate::db::moderation::NewReport {
                reporter: &me.id,
                target: &other.id,
                reason: &b.reason,
                text,
                game_id: game,
            },
            now,
        )
        .await?;
    Ok((StatusCode::CREATED, Json(wire::ReportFiled { id })))
}

/// The error of an action a block forbids.
pub(crate) fn blocked() -> Error {
    Error::Forbidden(
        "blocked",
        "this player does not take challenges or messages from you".into(),
    )
}
