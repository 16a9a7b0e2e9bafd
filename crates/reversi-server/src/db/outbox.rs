//! The letters about play waiting to be mailed (`mail_outbox`): queued when their cause is
//! stored, taken by one instance at a time, tried again later when delivery fails.

use super::Db;
use crate::error::Result;
use sqlx::Row;

/// A queued letter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxRow {
    /// Its number.
    pub id: i64,
    /// What it is (`turn`, `challenge`, `address-changed`).
    pub kind: String,
    /// The account it is for, if it is for one.
    pub user_id: Option<String>,
    /// What the letter needs (JSON).
    pub payload: String,
    /// When it may be tried next (Unix ms).
    pub next_at: i64,
    /// How many times it was taken.
    pub attempts: i64,
}

/// The repository of the outbox.
pub struct Outbox<'a>(pub(super) &'a Db);

impl Outbox<'_> {
    /// Queues a letter, to be sent from `now`.
    pub async fn queue(&self, kind: &str, user_id: Option<&str>, payload: &str, now: i64) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query(
                "INSERT INTO mail_outbox (kind, user_id, payload, created_at, next_at) VALUES ($1, $2, $3, $4, $4)",
            )
            .bind(kind)
            .bind(user_id)
            .bind(payload)
            .bind(now)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// The letters due at `now`, the oldest first (at most `limit`).
    pub async fn due(&self, now: i64, limit: u32) -> Result<Vec<OutboxRow>> {
        with_pool!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT id, kind, user_id, payload, next_at, attempts FROM mail_outbox \
                 WHERE next_at <= $1 ORDER BY next_at, id LIMIT $2",
            )
            .bind(now)
            .bind(limit as i64)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(OutboxRow {
                        id: r.try_get("id")?,
                        kind: r.try_get("kind")?,
                        user_id: r.try_get("user_id")?,
                        payload: r.try_get("payload")?,
                        next_at: r.try_get("next_at")?,
                        attempts: r.try_get("attempts")?,
                    })
                })
                .collect()
        })
    }

    /// Takes letter `row` for this instance until `until` (no other instance sends it
    /// meanwhile): false when another took it first.
    pub async fn take(&self, row: &OutboxRow, until: i64) -> Result<bool> {
        with_pool!(self.0, pool => {
            Ok(sqlx::query(
                "UPDATE mail_outbox SET next_at = $1, attempts = attempts + 1 WHERE id = $2 AND next_at = $3",
            )
            .bind(until)
            .bind(row.id)
            .bind(row.next_at)
            .execute(pool)
            .await?
            .rows_affected()
                == 1)
        })
    }

    /// Puts letter `id` back until `at`, the try it was taken for not counted.
    pub async fn later(&self, id: i64, at: i64) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query("UPDATE mail_outbox SET next_at = $1, attempts = attempts - 1 WHERE id = $2")
                .bind(at)
                .bind(id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Removes letter `id` (sent, or nothing left to send).
    pub async fn done(&self, id: i64) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query("DELETE FROM mail_outbox WHERE id = $1").bind(id).execute(pool).await?;
        });
        Ok(())
    }

    /// How many letters wait.
    pub async fn waiting(&self) -> Result<i64> {
        with_reader!(self.0, pool => {
            Ok(sqlx::query_scalar("SELECT COUNT(*) FROM mail_outbox").fetch_one(pool).await?)
        })
    }
}
