//! Counters of attempts in fixed windows.
//!
//! [`Db::reserve`] counts an attempt *before* its work in one statement: the row of a key is
//! made, restarted (its window over) or raised only while it is under its limit, and the
//! statement says whether it was. Of any number of requests arriving together, exactly `limit`
//! get a place per window, on every instance sharing the database.

use super::Db;
use crate::error::Result;

/// What [`Db::reserve`] answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reserved {
    /// Counted: the attempt may go ahead.
    Yes,
    /// The key has used its limit; it may try again after this many seconds.
    No {
        /// Seconds until the window ends (at least 1).
        retry_after_s: u64,
    },
}

/// The repository of throttle.
pub struct Throttle<'a>(pub(super) &'a Db);

impl Throttle<'_> {
    /// Counts `amount` attempts of `key` at `now` (Unix ms) if that keeps it within `limit` in
    /// its window of `window_ms`; otherwise counts nothing.
    pub async fn reserve(
        &self,
        key: &str,
        amount: i64,
        limit: i64,
        window_ms: i64,
        now: i64,
    ) -> Result<Reserved> {
        let fresh_before = now - window_ms;
        let counted: Option<i64> = with_pool!(self.0, pool => {
            sqlx::query_scalar(
                "INSERT INTO throttle (key, window_start, n) VALUES ($1, $2, $3) \
                 ON CONFLICT (key) DO UPDATE SET \
                   window_start = CASE WHEN throttle.window_start <= $4 THEN $2 ELSE throttle.window_start END, \
                   n = CASE WHEN throttle.window_start <= $4 THEN $3 ELSE throttle.n + $3 END \
                 WHERE throttle.window_start <= $4 OR throttle.n + $3 <= $5 \
                 RETURNING n",
            )
            .bind(key)
            .bind(now)
            .bind(amount)
            .bind(fresh_before)
            .bind(limit)
            .fetch_optional(pool)
            .await?
        });
        // A first attempt larger than the limit is made above (the row is new); undo it.
        match counted {
            Some(n) if n <= limit => Ok(Reserved::Yes),
            Some(_) => {
                self.release(key, amount).await?;
                Ok(Reserved::No {
                    retry_after_s: (window_ms / 1000).max(1) as u64,
                })
            }
            None => {
                let start: Option<i64> = with_pool!(self.0, pool => {
                    sqlx::query_scalar("SELECT window_start FROM throttle WHERE key = $1")
                        .bind(key)
                        .fetch_optional(pool)
                        .await?
                });
                let end = start.unwrap_or(now) + window_ms;
                Ok(Reserved::No {
                    retry_after_s: ((end - now).max(0) / 1000).max(1) as u64,
                })
            }
        }
    }

    /// Gives back `amount` attempts of `key` (the work was not of the kind the limit counts: a
    /// sign-in that succeeded, a sign-up refused for its name).
    pub async fn release(&self, key: &str, amount: i64) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query("UPDATE throttle SET n = CASE WHEN n > $2 THEN n - $2 ELSE 0 END WHERE key = $1")
                .bind(key)
                .bind(amount)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Forgets `key`'s count.
    pub async fn clear_throttle(&self, key: &str) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query("DELETE FROM throttle WHERE key = $1").bind(key).execute(pool).await?;
        });
        Ok(())
    }

    /// Removes the counters whose window ended before `before` (Unix ms).
    pub async fn purge_throttle(&self, before: i64) -> Result<u64> {
        with_pool!(self.0, pool => {
            Ok(sqlx::query("DELETE FROM throttle WHERE window_start < $1")
                .bind(before)
                .execute(pool)
                .await?
                .rows_affected())
        })
    }
}
