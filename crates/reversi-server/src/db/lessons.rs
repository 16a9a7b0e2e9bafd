//! The lessons of `/learn` each account has finished (the lessons themselves are the binary's).

use super::Db;
use crate::error::Result;
use sqlx::Row;

/// The repository of lesson progress.
pub struct Lessons<'a>(pub(super) &'a Db);

impl Lessons<'_> {
    /// Records that `user` finished `lessons` at `now` (Unix ms); a lesson finished before
    /// keeps its first date.
    pub async fn finish(&self, user: &str, lessons: &[&str], now: u64) -> Result<()> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            for lesson in lessons {
                sqlx::query(
                    "INSERT INTO lesson_progress (user_id, lesson, finished_at) VALUES ($1, $2, $3) \
                     ON CONFLICT (user_id, lesson) DO NOTHING",
                )
                .bind(user)
                .bind(*lesson)
                .bind(now as i64)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// The lessons `user` has finished, with when, oldest first.
    pub async fn finished(&self, user: &str) -> Result<Vec<(String, i64)>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT lesson, finished_at FROM lesson_progress WHERE user_id = $1 \
                 ORDER BY finished_at, lesson",
            )
            .bind(user)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| Ok((r.try_get("lesson")?, r.try_get("finished_at")?)))
                .collect()
        })
    }
}
