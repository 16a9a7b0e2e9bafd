//! Reports of players to the moderators, what moderators may do to an account (roles, mutes,
//! disabling), and the log of every moderator's action.

use super::Db;
use crate::error::{Error, Result};
use sqlx::Row;

/// A report as the moderators' queue shows it, and a line of their log (as the desk sends them).
pub use reversi_site_api::{LogLine, ReportRow};

/// A report being made.
pub struct NewReport<'a> {
    /// The reporter's id.
    pub reporter: &'a str,
    /// The reported account's id.
    pub target: &'a str,
    /// Why.
    pub reason: &'a str,
    /// The reporter's words.
    pub text: &'a str,
    /// The game it is about.
    pub game_id: Option<&'a str>,
}

/// What a moderator does to an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountAction {
    /// No chat until the given instant (Unix ms).
    Mute(i64),
    /// Chat again.
    Unmute,
    /// No signing in: every session ends, every seek goes.
    Disable,
    /// Signing in again.
    Enable,
    /// Give the moderator role.
    Grant,
    /// Take the moderator role away.
    Revoke,
}

impl AccountAction {
    /// The log's name of the action.
    pub fn name(self) -> &'static str {
        match self {
            AccountAction::Mute(_) => "mute",
            AccountAction::Unmute => "unmute",
            AccountAction::Disable => "disable",
            AccountAction::Enable => "enable",
            AccountAction::Grant => "grant",
            AccountAction::Revoke => "revoke",
        }
    }
}

/// Inserts a line of the log in the open transaction `$tx`.
macro_rules! insert_log {
    ($tx:ident, $by:expr, $action:expr, $target:expr, $report:expr, $note:expr, $now:expr) => {
        sqlx::query(
            "INSERT INTO mod_log (moderator, action, target, report_id, note, at) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind($by)
        .bind($action)
        .bind($target)
        .bind($report)
        .bind($note)
        .bind($now)
        .execute(&mut *$tx)
        .await?;
    };
}

/// The repository of reports and moderation.
pub struct Moderation<'a>(pub(super) &'a Db);

const REPORT_COLUMNS: &str = "r.id, rp.name AS reporter, t.name AS target, r.reason, r.text, r.game_id, \
     r.created_at, t.muted_until, t.disabled_at, m.name AS closer, r.closed_at, r.resolution, \
     (SELECT COUNT(*) FROM reports o WHERE o.target = r.target AND o.closed_at IS NULL) AS open_on_target";

const REPORT_JOINS: &str =
    "FROM reports r JOIN users rp ON rp.id = r.reporter JOIN users t ON t.id = r.target \
     LEFT JOIN users m ON m.id = r.closed_by";

fn report_of<R: Row>(r: &R) -> Result<ReportRow>
where
    for<'r> &'r str: sqlx::ColumnIndex<R>,
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<i64>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<String>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    Ok(ReportRow {
        id: r.try_get("id")?,
        reporter: r.try_get("reporter")?,
        target: r.try_get("target")?,
        reason: r.try_get("reason")?,
        text: r.try_get("text")?,
        game_id: r.try_get("game_id")?,
        created_at: r.try_get("created_at")?,
        open_on_target: r.try_get("open_on_target")?,
        target_muted_until: r.try_get("muted_until")?,
        target_disabled: r.try_get::<Option<i64>, _>("disabled_at")?.is_some(),
        closed_by: r.try_get("closer")?,
        closed_at: r.try_get("closed_at")?,
        resolution: r.try_get("resolution")?,
    })
}

impl Moderation<'_> {
    /// Stores a report; returns its number.
    pub async fn report(&self, r: &NewReport<'_>, now: i64) -> Result<i64> {
        with_pool!(self.0, pool => {
            Ok(sqlx::query_scalar(
                "INSERT INTO reports (reporter, target, reason, text, game_id, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            )
            .bind(r.reporter)
            .bind(r.target)
            .bind(r.reason)
            .bind(r.text)
            .bind(r.game_id)
            .bind(now)
            .fetch_one(pool)
            .await?)
        })
    }

    /// The reports, open ones (the oldest first) or closed ones (the latest closed first), at
    /// most `limit`.
    pub async fn reports(&self, open: bool, limit: u32) -> Result<Vec<ReportRow>> {
        let filter = if open {
            "WHERE r.closed_at IS NULL ORDER BY r.created_at, r.id"
        } else {
            "WHERE r.closed_at IS NOT NULL ORDER BY r.closed_at DESC, r.id DESC"
        };
        with_reader!(self.0, pool => {
            let rows = sqlx::query(&format!("SELECT {REPORT_COLUMNS} {REPORT_JOINS} {filter} LIMIT $1"))
                .bind(limit as i64)
                .fetch_all(pool)
                .await?;
            rows.iter().map(report_of).collect()
        })
    }

    /// Closes open report `id` for moderator `by` with `note`, logged in the same
    /// transaction. False when it was closed already (or never was).
    pub async fn close_report(&self, id: i64, by: &str, note: &str, now: i64) -> Result<bool> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(
                "UPDATE reports SET closed_by = $1, closed_at = $2, resolution = $3 \
                 WHERE id = $4 AND closed_at IS NULL",
            )
            .bind(by)
            .bind(now)
            .bind(note)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                return Ok(false);
            }
            insert_log!(tx, Some(by), "close-report", id.to_string(), Some(id), note, now);
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Applies `action` to account `target` for moderator `by` (`None`: the command line),
    /// answering report `report` if given, and logs it, in one transaction. Disabling ends
    /// every session and seek of the account. [`Error::NotFound`] when no live account has
    /// that id.
    pub async fn act_on_account(
        &self,
        target: &str,
        action: AccountAction,
        by: Option<&str>,
        report: Option<i64>,
        note: &str,
        now: i64,
    ) -> Result<()> {
        // Only numbers and fixed words go into the statement; the account is bound.
        let set: String = match action {
            AccountAction::Mute(until) => format!("muted_until = {until}"),
            AccountAction::Unmute => "muted_until = NULL".into(),
            AccountAction::Disable => format!("disabled_at = {now}"),
            AccountAction::Enable => "disabled_at = NULL".into(),
            AccountAction::Grant => "role = 'moderator'".into(),
            AccountAction::Revoke => "role = NULL".into(),
        };
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(&format!("UPDATE users SET {set} WHERE id = $1 AND deleted_at IS NULL"))
                .bind(target)
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() != 1 {
                return Err(Error::NotFound);
            }
            if action == AccountAction::Disable {
                for q in ["DELETE FROM sessions WHERE user_id = $1", "DELETE FROM seeks WHERE owner = $1"] {
                    sqlx::query(q).bind(target).execute(&mut *tx).await?;
                }
                sqlx::query("UPDATE users SET bot_token_hash = NULL, credential_gen = credential_gen + 1 WHERE id = $1")
                    .bind(target)
                    .execute(&mut *tx)
                    .await?;
            }
            insert_log!(tx, by, action.name(), target, report, note, now);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Logs an action on something other than an account (a game, a tournament).
    pub async fn log(
        &self,
        by: &str,
        action: &str,
        target: &str,
        report: Option<i64>,
        note: &str,
        now: i64,
    ) -> Result<()> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            insert_log!(tx, Some(by), action, target, report, note, now);
            tx.commit().await?;
        });
        Ok(())
    }

    /// The latest `limit` lines of the log, the newest first; an account's id shown as its name.
    pub async fn log_lines(&self, limit: u32) -> Result<Vec<LogLine>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT l.id, m.name AS moderator, l.action, COALESCE(t.name, l.target) AS target, \
                 l.report_id, l.note, l.at FROM mod_log l LEFT JOIN users m ON m.id = l.moderator \
                 LEFT JOIN users t ON t.id = l.target ORDER BY l.at DESC, l.id DESC LIMIT $1",
            )
            .bind(limit as i64)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(LogLine {
                        id: r.try_get("id")?,
                        moderator: r.try_get("moderator")?,
                        action: r.try_get("action")?,
                        target: r.try_get("target")?,
                        report_id: r.try_get("report_id")?,
                        note: r.try_get("note")?,
                        at: r.try_get("at")?,
                    })
                })
                .collect()
        })
    }
}
