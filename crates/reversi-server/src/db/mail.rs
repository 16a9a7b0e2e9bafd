//! The one-use links mailed to accounts (address verification, password reset), by the hash of
//! their secret.

use super::Db;
use crate::error::Result;
use sqlx::Row;

/// What a mailed link is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Confirms an e-mail address for the account.
    Verify,
    /// Sets a new password.
    Reset,
}

impl Purpose {
    /// The name stored.
    pub fn name(self) -> &'static str {
        match self {
            Purpose::Verify => "verify",
            Purpose::Reset => "reset",
        }
    }
}

/// A link's stored facts, read when it is used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailToken {
    /// The account it was made for.
    pub user_id: String,
    /// The address it was mailed to.
    pub email: String,
    /// The account's credential generation when it was made.
    pub credential_gen: i64,
}

/// The repository of mailed links.
pub struct MailTokens<'a>(pub(super) &'a Db);

impl MailTokens<'_> {
    /// Stores a link (the hash of its secret) until `expires_at`.
    #[allow(clippy::too_many_arguments)] // one row's columns
    pub async fn create(
        &self,
        hash: &str,
        user_id: &str,
        purpose: Purpose,
        email: &str,
        gen: i64,
        now: i64,
        expires_at: i64,
    ) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query(
                "INSERT INTO mail_tokens (token_hash, user_id, purpose, email, credential_gen, created_at, expires_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(hash)
            .bind(user_id)
            .bind(purpose.name())
            .bind(email)
            .bind(gen)
            .bind(now)
            .bind(expires_at)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// The live link whose secret hashes to `hash`, for `purpose`, without using it up.
    pub async fn peek(&self, hash: &str, purpose: Purpose, now: i64) -> Result<Option<MailToken>> {
        with_reader!(self.0, pool => {
            let row = sqlx::query(
                "SELECT user_id, email, credential_gen FROM mail_tokens \
                 WHERE token_hash = $1 AND purpose = $2 AND expires_at > $3",
            )
            .bind(hash)
            .bind(purpose.name())
            .bind(now)
            .fetch_optional(pool)
            .await?;
            row.map(|r| token_of(&r)).transpose()
        })
    }

    /// Uses up the live link whose secret hashes to `hash`, for `purpose`: its facts, or `None`
    /// when there is no such link, it expired, or another request used it first (one statement:
    /// two requests with the same link cannot both have it).
    pub async fn take(&self, hash: &str, purpose: Purpose, now: i64) -> Result<Option<MailToken>> {
        with_pool!(self.0, pool => {
            let row = sqlx::query(
                "DELETE FROM mail_tokens WHERE token_hash = $1 AND purpose = $2 AND expires_at > $3 \
                 RETURNING user_id, email, credential_gen",
            )
            .bind(hash)
            .bind(purpose.name())
            .bind(now)
            .fetch_optional(pool)
            .await?;
            row.map(|r| token_of(&r)).transpose()
        })
    }

    /// Removes every link of `user_id` for `purpose` (a new address asked for, a password set).
    pub async fn delete_of(&self, user_id: &str, purpose: Purpose) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query("DELETE FROM mail_tokens WHERE user_id = $1 AND purpose = $2")
                .bind(user_id)
                .bind(purpose.name())
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The address of `user_id`'s newest live verification link: the address waiting to be
    /// confirmed.
    pub async fn pending_email(&self, user_id: &str, now: i64) -> Result<Option<String>> {
        with_reader!(self.0, pool => {
            Ok(sqlx::query_scalar::<_, String>(
                "SELECT email FROM mail_tokens WHERE user_id = $1 AND purpose = 'verify' \
                 AND expires_at > $2 ORDER BY created_at DESC LIMIT 1",
            )
            .bind(user_id)
            .bind(now)
            .fetch_optional(pool)
            .await?)
        })
    }

    /// Removes expired links; returns how many.
    pub async fn purge(&self, now: i64) -> Result<u64> {
        with_pool!(self.0, pool => {
            Ok(sqlx::query("DELETE FROM mail_tokens WHERE expires_at <= $1")
                .bind(now)
                .execute(pool)
                .await?
                .rows_affected())
        })
    }
}

fn token_of<R: Row>(row: &R) -> Result<MailToken>
where
    for<'r> &'r str: sqlx::ColumnIndex<R>,
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    Ok(MailToken {
        user_id: row.try_get("user_id")?,
        email: row.try_get("email")?,
        credential_gen: row.try_get("credential_gen")?,
    })
}
