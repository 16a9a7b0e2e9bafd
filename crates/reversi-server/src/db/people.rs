//! Accounts among themselves: who follows whom, who blocks whom, and when each was last seen.

use super::Db;
use crate::error::Result;
use sqlx::Row;

/// A followed player as the follower's feed shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Followed {
    /// The account's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// When it was last seen (Unix ms), if ever.
    pub seen_at: Option<i64>,
    /// Whether it is a bot.
    pub bot: bool,
    /// The games it plays now (ids, the latest change first, at most five).
    pub playing: Vec<String>,
}

/// Which table a relation lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// `follows`: the follower sees the other's games and presence.
    Follow,
    /// `blocks`: the other may not challenge or talk to the blocker.
    Block,
}

impl Relation {
    /// (table, column of the one who acts, column of the other).
    fn sql(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Relation::Follow => ("follows", "follower", "followed"),
            Relation::Block => ("blocks", "blocker", "blocked"),
        }
    }
}

/// The repository of follows, blocks and presence.
pub struct People<'a>(pub(super) &'a Db);

impl People<'_> {
    /// Makes `from` follow (or block) `to`, unless it already does or already has `cap`
    /// relations of that kind. Returns false only when the cap stopped it.
    pub async fn add(&self, rel: Relation, from: &str, to: &str, cap: i64, now: i64) -> Result<bool> {
        let (table, a, b) = rel.sql();
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            lock_in_tx!(self.0, tx, format!("{table} {from}"));
            let exists: Option<i64> = sqlx::query_scalar(&format!(
                "SELECT CAST(1 AS BIGINT) FROM {table} WHERE {a} = $1 AND {b} = $2"
            ))
            .bind(from)
            .bind(to)
            .fetch_optional(&mut *tx)
            .await?;
            if exists.is_some() {
                return Ok(true);
            }
            let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table} WHERE {a} = $1"))
                .bind(from)
                .fetch_one(&mut *tx)
                .await?;
            if n >= cap {
                return Ok(false);
            }
            sqlx::query(&format!("INSERT INTO {table} ({a}, {b}, at) VALUES ($1, $2, $3)"))
                .bind(from)
                .bind(to)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Undoes [`People::add`] (nothing when there is nothing to undo).
    pub async fn remove(&self, rel: Relation, from: &str, to: &str) -> Result<()> {
        let (table, a, b) = rel.sql();
        with_pool!(self.0, pool => {
            sqlx::query(&format!("DELETE FROM {table} WHERE {a} = $1 AND {b} = $2"))
                .bind(from)
                .bind(to)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Whether `from` follows (or blocks) `to`.
    pub async fn has(&self, rel: Relation, from: &str, to: &str) -> Result<bool> {
        let (table, a, b) = rel.sql();
        with_reader!(self.0, pool => {
            Ok(sqlx::query_scalar::<_, i64>(&format!("SELECT CAST(1 AS BIGINT) FROM {table} WHERE {a} = $1 AND {b} = $2"))
                .bind(from)
                .bind(to)
                .fetch_optional(pool)
                .await?
                .is_some())
        })
    }

    /// The blocks between any two of `users` (blocker, blocked).
    pub async fn blocks_among(
        &self,
        users: &[String],
    ) -> Result<std::collections::HashSet<(String, String)>> {
        if users.len() < 2 {
            return Ok(Default::default());
        }
        let list: Vec<String> = (1..=users.len()).map(|i| format!("${i}")).collect();
        let list = list.join(", ");
        let sql =
            format!("SELECT blocker, blocked FROM blocks WHERE blocker IN ({list}) AND blocked IN ({list})");
        with_reader!(self.0, pool => {
            let mut q = sqlx::query(&sql);
            for u in users {
                q = q.bind(u);
            }
            let rows = q.fetch_all(pool).await?;
            rows.iter().map(|r| Ok((r.try_get("blocker")?, r.try_get("blocked")?))).collect()
        })
    }

    /// The accounts `user` blocks and those that block it (ids).
    pub async fn apart_from(&self, user: &str) -> Result<std::collections::HashSet<String>> {
        with_reader!(self.0, pool => {
            Ok(sqlx::query_scalar::<_, String>(
                "SELECT blocked FROM blocks WHERE blocker = $1 UNION SELECT blocker FROM blocks WHERE blocked = $1",
            )
            .bind(user)
            .fetch_all(pool)
            .await?
            .into_iter()
            .collect())
        })
    }

    /// How many follow `user`.
    pub async fn followers(&self, user: &str) -> Result<i64> {
        with_reader!(self.0, pool => {
            Ok(sqlx::query_scalar("SELECT COUNT(*) FROM follows f JOIN users u ON u.id = f.follower \
                 WHERE f.followed = $1 AND u.deleted_at IS NULL AND u.disabled_at IS NULL")
                .bind(user)
                .fetch_one(pool)
                .await?)
        })
    }

    /// The live accounts `user` blocks, by name.
    pub async fn blocked(&self, user: &str) -> Result<Vec<(String, String)>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT u.id, u.name FROM blocks b JOIN users u ON u.id = b.blocked \
                 WHERE b.blocker = $1 AND u.deleted_at IS NULL ORDER BY lower(u.name)",
            )
            .bind(user)
            .fetch_all(pool)
            .await?;
            rows.iter().map(|r| Ok((r.try_get("id")?, r.try_get("name")?))).collect()
        })
    }

    /// The live accounts `user` follows, the last seen first, with the games each plays now.
    pub async fn following(&self, user: &str) -> Result<Vec<Followed>> {
        let mut list: Vec<Followed> = with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT u.id, u.name, u.seen_at, u.bot FROM follows f JOIN users u ON u.id = f.followed \
                 WHERE f.follower = $1 AND u.deleted_at IS NULL AND u.disabled_at IS NULL \
                 ORDER BY COALESCE(u.seen_at, 0) DESC, lower(u.name)",
            )
            .bind(user)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(Followed {
                        id: r.try_get("id")?,
                        name: r.try_get("name")?,
                        seen_at: r.try_get("seen_at")?,
                        bot: r.try_get::<i64, _>("bot")? != 0,
                        playing: Vec::new(),
                    })
                })
                .collect::<Result<Vec<_>>>()?
        });
        for f in &mut list {
            f.playing = with_reader!(self.0, pool => {
                sqlx::query_scalar(
                    "SELECT id FROM games WHERE (black_user = $1 OR white_user = $1) \
                     AND status = 'playing' AND private = 0 ORDER BY updated_at DESC, id LIMIT 5",
                )
                .bind(&f.id)
                .fetch_all(pool)
                .await?
            });
        }
        Ok(list)
    }

    /// Notes that `user` was seen at `now`.
    pub async fn seen(&self, user: &str, now: i64) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query("UPDATE users SET seen_at = $1 WHERE id = $2")
                .bind(now)
                .bind(user)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// How many live accounts were seen since `since` (Unix ms).
    pub async fn seen_since(&self, since: i64) -> Result<i64> {
        with_reader!(self.0, pool => {
            Ok(sqlx::query_scalar(
                "SELECT COUNT(*) FROM users WHERE seen_at > $1 AND deleted_at IS NULL AND disabled_at IS NULL",
            )
            .bind(since)
            .fetch_one(pool)
            .await?)
        })
    }

    /// When `user` was last seen (Unix ms).
    pub async fn seen_at(&self, user: &str) -> Result<Option<i64>> {
        with_reader!(self.0, pool => {
            Ok(sqlx::query_scalar::<_, Option<i64>>("SELECT seen_at FROM users WHERE id = $1")
                .bind(user)
                .fetch_optional(pool)
                .await?
                .flatten())
        })
    }
}
