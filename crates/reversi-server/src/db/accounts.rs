//! Accounts and sessions.

use super::Db;
use crate::error::{Error, Result};
use sqlx::Row;

/// An account as the server uses it (never its password hash).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// The public id (stored on games).
    pub id: String,
    /// The name as its owner wrote it.
    pub name: String,
    /// When it was made (Unix ms).
    pub created_at: i64,
    /// Whether it was deleted (its games stay, shown as a deleted player).
    pub deleted: bool,
    /// Whether it is a bot.
    pub bot: bool,
    /// Whether its owner turned chat off.
    pub chat_off: bool,
}

const USER_COLUMNS: &str = "id, name, created_at, deleted_at, bot, chat_off";

fn user_of<R: Row>(row: &R) -> Result<User>
where
    for<'r> &'r str: sqlx::ColumnIndex<R>,
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<i64>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    Ok(User {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        created_at: row.try_get("created_at")?,
        deleted: row.try_get::<Option<i64>, _>("deleted_at")?.is_some(),
        bot: row.try_get::<i64, _>("bot")? != 0,
        chat_off: row.try_get::<i64, _>("chat_off")? != 0,
    })
}

/// Whether `e` is a unique-key violation (a name taken meanwhile).
fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

impl Db {
    /// Stores a new account; false when an account with the same name key exists.
    pub async fn create_user(&self, id: &str, name: &str, key: &str, hash: &str, now: i64) -> Result<bool> {
        let done = with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO users (id, name, name_key, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(id)
            .bind(name)
            .bind(key)
            .bind(hash)
            .bind(now)
            .execute(pool)
            .await
            .map(|_| ())
        });
        match done {
            Ok(_) => Ok(true),
            Err(e) if is_unique_violation(&e) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// The account whose name has look-alike key `key`, and its password hash (none once
    /// deleted).
    pub async fn user_by_key(&self, key: &str) -> Result<Option<(User, Option<String>)>> {
        with_reader!(self, pool => {
            let row = sqlx::query(&format!("SELECT {USER_COLUMNS}, password_hash FROM users WHERE name_key = $1"))
                .bind(key)
                .fetch_optional(pool)
                .await?;
            row.map(|r| Ok((user_of(&r)?, r.try_get("password_hash")?))).transpose()
        })
    }

    /// The account `id`.
    pub async fn user_by_id(&self, id: &str) -> Result<Option<User>> {
        with_reader!(self, pool => {
            let row = sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"))
                .bind(id)
                .fetch_optional(pool)
                .await?;
            row.map(|r| user_of(&r)).transpose()
        })
    }

    /// Stores a session (the hash of its secret) for `user_id` until `expires_at`.
    pub async fn create_session(&self, hash: &str, user_id: &str, now: i64, expires_at: i64) -> Result<()> {
        with_pool!(self, pool => {
            sqlx::query("INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
                .bind(hash)
                .bind(user_id)
                .bind(now)
                .bind(expires_at)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The live account of the session whose secret hashes to `hash`, if it has not expired.
    pub async fn session_user(&self, hash: &str, now: i64) -> Result<Option<User>> {
        with_reader!(self, pool => {
            let row = sqlx::query(&format!(
                "SELECT {} FROM sessions s JOIN users u ON u.id = s.user_id \
                 WHERE s.token_hash = $1 AND s.expires_at > $2 AND u.deleted_at IS NULL",
                USER_COLUMNS.split(", ").map(|c| format!("u.{c}")).collect::<Vec<_>>().join(", ")
            ))
            .bind(hash)
            .bind(now)
            .fetch_optional(pool)
            .await?;
            row.map(|r| user_of(&r)).transpose()
        })
    }

    /// Ends one session.
    pub async fn delete_session(&self, hash: &str) -> Result<()> {
        with_pool!(self, pool => {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(hash).execute(pool).await?;
        });
        Ok(())
    }

    /// Ends every session of `user_id` but `keep` (a password change signs out the others).
    pub async fn delete_sessions_of(&self, user_id: &str, keep: Option<&str>) -> Result<()> {
        with_pool!(self, pool => {
            sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND ($2 IS NULL OR token_hash <> $2)")
                .bind(user_id)
                .bind(keep)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The password hash of account `id` (none once deleted).
    pub async fn password_hash(&self, id: &str) -> Result<Option<String>> {
        with_reader!(self, pool => {
            Ok(sqlx::query_scalar::<_, Option<String>>("SELECT password_hash FROM users WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await?
                .flatten())
        })
    }

    /// Replaces the password hash of account `id`.
    pub async fn set_password(&self, id: &str, hash: &str) -> Result<()> {
        with_pool!(self, pool => {
            sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2 AND deleted_at IS NULL")
                .bind(hash)
                .bind(id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Turns chat off (or on) for account `id`.
    pub async fn set_chat_off(&self, id: &str, off: bool) -> Result<()> {
        with_pool!(self, pool => {
            sqlx::query("UPDATE users SET chat_off = $1 WHERE id = $2")
                .bind(off as i64)
                .bind(id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Makes account `id` a bot with an API token whose hash is `token_hash` (a new token
    /// replaces the old one). A bot cannot go back to being a person's account.
    pub async fn make_bot(&self, id: &str, token_hash: &str) -> Result<()> {
        with_pool!(self, pool => {
            sqlx::query("UPDATE users SET bot = 1, bot_token_hash = $1 WHERE id = $2 AND deleted_at IS NULL")
                .bind(token_hash)
                .bind(id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The bot whose API token hashes to `hash`.
    pub async fn bot_by_token(&self, hash: &str) -> Result<Option<User>> {
        with_reader!(self, pool => {
            let row = sqlx::query(&format!(
                "SELECT {USER_COLUMNS} FROM users WHERE bot_token_hash = $1 AND bot = 1 AND deleted_at IS NULL"
            ))
            .bind(hash)
            .fetch_optional(pool)
            .await?;
            row.map(|r| user_of(&r)).transpose()
        })
    }

    /// Deletes account `id`: no password, sessions, token or seeks any more; its games stay,
    /// its name removed from them (shown as a deleted player). The name stays taken.
    pub async fn delete_user(&self, id: &str, now: i64) -> Result<()> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(
                "UPDATE users SET password_hash = NULL, bot_token_hash = NULL, deleted_at = $1 \
                 WHERE id = $2 AND deleted_at IS NULL",
            )
            .bind(now)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                return Err(Error::NotFound);
            }
            for q in [
                "DELETE FROM sessions WHERE user_id = $1",
                "DELETE FROM seeks WHERE owner = $1",
                "UPDATE games SET black_name = NULL WHERE black_user = $1",
                "UPDATE games SET white_name = NULL WHERE white_user = $1",
                "UPDATE chat SET author = NULL WHERE user_id = $1",
            ] {
                sqlx::query(q).bind(id).execute(&mut *tx).await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Removes expired sessions; returns how many.
    pub async fn purge_sessions(&self, now: i64) -> Result<u64> {
        with_pool!(self, pool => {
            Ok(sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
                .bind(now)
                .execute(pool)
                .await?
                .rows_affected())
        })
    }
}
