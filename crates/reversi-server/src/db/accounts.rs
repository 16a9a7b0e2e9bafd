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
    /// The generation of its credentials (raised by every password change): a session of an
    /// older generation signs nobody in.
    pub credential_gen: i64,
    /// Its e-mail address, once its owner followed the link mailed to it (normalised).
    pub email: Option<String>,
    /// The look and sound its owner chose (`reversi_site_api::Prefs` as JSON).
    pub prefs: Option<String>,
    /// Whether it may moderate (`users.role` is `moderator`).
    pub moderator: bool,
    /// Until when a moderator muted it (Unix ms; it may not chat before).
    pub muted_until: Option<i64>,
    /// Whether a moderator disabled it (it signs in no more).
    pub disabled: bool,
    /// The language of the letters about play its owner asked for (none: no such letters).
    pub mail_notify: Option<String>,
    /// The country its owner named (ISO 3166-1 alpha-2), shown as a flag beside the name.
    pub country: Option<String>,
}

impl User {
    /// Whether it is muted at `now` (Unix ms).
    pub fn muted_at(&self, now: i64) -> bool {
        self.muted_until.is_some_and(|t| t > now)
    }
}

const USER_COLUMNS: &str =
    "id, name, created_at, deleted_at, bot, chat_off, credential_gen, email, prefs, role, muted_until, disabled_at, mail_notify, country";

fn user_of<R: Row>(row: &R) -> Result<User>
where
    for<'r> &'r str: sqlx::ColumnIndex<R>,
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<i64>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<String>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    Ok(User {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        created_at: row.try_get("created_at")?,
        deleted: row.try_get::<Option<i64>, _>("deleted_at")?.is_some(),
        bot: row.try_get::<i64, _>("bot")? != 0,
        chat_off: row.try_get::<i64, _>("chat_off")? != 0,
        credential_gen: row.try_get("credential_gen")?,
        email: row.try_get("email")?,
        prefs: row.try_get("prefs")?,
        moderator: row.try_get::<Option<String>, _>("role")?.as_deref() == Some("moderator"),
        muted_until: row.try_get("muted_until")?,
        disabled: row.try_get::<Option<i64>, _>("disabled_at")?.is_some(),
        mail_notify: row.try_get("mail_notify")?,
        country: row.try_get("country")?,
    })
}

/// Whether `e` is a unique-key violation (a name taken meanwhile).
fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// The repository of accounts.
pub struct Accounts<'a>(pub(super) &'a Db);

impl Accounts<'_> {
    /// Stores a new account; false when an account with the same name key exists.
    pub async fn create_user(&self, id: &str, name: &str, key: &str, hash: &str, now: i64) -> Result<bool> {
        let done = with_pool!(self.0, pool => {
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
        with_reader!(self.0, pool => {
            let row = sqlx::query(&format!("SELECT {USER_COLUMNS}, password_hash FROM users WHERE name_key = $1"))
                .bind(key)
                .fetch_optional(pool)
                .await?;
            row.map(|r| Ok((user_of(&r)?, r.try_get("password_hash")?))).transpose()
        })
    }

    /// The account called `name`, whose look-alike key is `key`, and its password hash: the one
    /// whose name is `name` up to case, else the one that holds `key` itself. Two accounts made
    /// before the look-alike rules grew may share a skeleton; the later one's key was then
    /// stored as `KEY#ID` ([`Db::rekey_names`]), and it is found by its own name.
    pub async fn user_named(&self, key: &str, name: &str) -> Result<Option<(User, Option<String>)>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(&format!(
                "SELECT {USER_COLUMNS}, password_hash, name_key FROM users \
                 WHERE name_key = $1 OR (name_key >= $1 || '#' AND name_key < $1 || '$') \
                 ORDER BY created_at, id LIMIT 20"
            ))
            .bind(key)
            .fetch_all(pool)
            .await?;
            let mut found: Vec<(User, Option<String>, String)> = Vec::with_capacity(rows.len());
            for r in &rows {
                found.push((user_of(r)?, r.try_get("password_hash")?, r.try_get("name_key")?));
            }
            let pick = found
                .iter()
                .position(|(u, _, _)| u.name.eq_ignore_ascii_case(name))
                .or_else(|| found.iter().position(|(_, _, k)| k == key));
            Ok(pick.map(|i| {
                let (u, h, _) = found.swap_remove(i);
                (u, h)
            }))
        })
    }

    /// Computes every stored name key again with `skeleton` when the stored keys were made by
    /// another version of it (`version`, kept in `site_meta`). Where two names now share a key,
    /// the older account keeps it and the later one's becomes `KEY#ID` (both still sign in by
    /// name; no new account can take either). Returns how many keys changed.
    pub async fn rekey_names(&self, version: u32, skeleton: impl Fn(&str) -> String) -> Result<u64> {
        let want = version.to_string();
        if self.0.meta().get_meta("name_key_version").await?.as_deref() == Some(want.as_str()) {
            return Ok(0);
        }
        let changed = with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            // Instances starting together: one rekeys, the others then find it done.
                lock_in_tx!(self.0, tx, "name-keys");
            let done: Option<String> = sqlx::query_scalar("SELECT value FROM site_meta WHERE name = 'name_key_version'")
                .fetch_optional(&mut *tx)
                .await?;
            if done.as_deref() == Some(want.as_str()) {
                return Ok(0);
            }
            let rows: Vec<(String, String, String)> =
                sqlx::query_as("SELECT id, name, name_key FROM users ORDER BY created_at, id")
                    .fetch_all(&mut *tx)
                    .await?;
            let mut taken = std::collections::HashSet::new();
            let mut updates = Vec::new();
            for (id, name, old) in &rows {
                let mut key = skeleton(name);
                if !taken.insert(key.clone()) {
                    key = format!("{key}#{id}");
                    taken.insert(key.clone());
                }
                if &key != old {
                    updates.push((id.clone(), key));
                }
            }
            // Through a unique stand-in first, so that no update meets a key another row is
            // about to give up.
            for (id, _) in &updates {
                sqlx::query("UPDATE users SET name_key = $1 WHERE id = $2")
                    .bind(format!("~{id}"))
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            for (id, key) in &updates {
                sqlx::query("UPDATE users SET name_key = $1 WHERE id = $2")
                    .bind(key)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            sqlx::query(
                "INSERT INTO site_meta (name, value) VALUES ('name_key_version', $1) \
                 ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            )
            .bind(&want)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            updates.len() as u64
        });
        Ok(changed)
    }

    /// The account `id`.
    pub async fn user_by_id(&self, id: &str) -> Result<Option<User>> {
        with_reader!(self.0, pool => {
            let row = sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"))
                .bind(id)
                .fetch_optional(pool)
                .await?;
            row.map(|r| user_of(&r)).transpose()
        })
    }

    /// Stores a session (the hash of its secret) for `user_id` until `expires_at`, bound to the
    /// credential generation `gen` its sign-in checked.
    pub async fn create_session(
        &self,
        hash: &str,
        user_id: &str,
        gen: i64,
        now: i64,
        expires_at: i64,
    ) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query(
                "INSERT INTO sessions (token_hash, user_id, credential_gen, created_at, expires_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(hash)
            .bind(user_id)
            .bind(gen)
            .bind(now)
            .bind(expires_at)
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// The live account of the session whose secret hashes to `hash`, if it has not expired and
    /// its credentials have not changed since it began.
    pub async fn session_user(&self, hash: &str, now: i64) -> Result<Option<User>> {
        with_reader!(self.0, pool => {
            let row = sqlx::query(&format!(
                "SELECT {} FROM sessions s JOIN users u ON u.id = s.user_id \
                 WHERE s.token_hash = $1 AND s.expires_at > $2 AND u.deleted_at IS NULL \
                 AND u.disabled_at IS NULL AND s.credential_gen = u.credential_gen",
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
        with_pool!(self.0, pool => {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(hash).execute(pool).await?;
        });
        Ok(())
    }

    /// Ends every session of `user_id` but `keep` (a password change signs out the others).
    pub async fn delete_sessions_of(&self, user_id: &str, keep: Option<&str>) -> Result<()> {
        with_pool!(self.0, pool => {
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
        with_reader!(self.0, pool => {
            Ok(sqlx::query_scalar::<_, Option<String>>("SELECT password_hash FROM users WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await?
                .flatten())
        })
    }

    /// Replaces the password hash of account `id` and raises its credential generation, in one
    /// transaction: every session ends (those a sign-in in flight makes later too, as they carry
    /// the old generation) and the bot token, if any, is revoked. Returns the new generation.
    pub async fn set_password(&self, id: &str, hash: &str) -> Result<i64> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let gen: Option<i64> = sqlx::query_scalar(
                "UPDATE users SET password_hash = $1, bot_token_hash = NULL, \
                 credential_gen = credential_gen + 1 WHERE id = $2 AND deleted_at IS NULL \
                 RETURNING credential_gen",
            )
            .bind(hash)
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
            let gen = gen.ok_or(Error::NotFound)?;
            sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(gen)
        })
    }

    /// Turns chat off (or on) for account `id`.
    pub async fn set_chat_off(&self, id: &str, off: bool) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query("UPDATE users SET chat_off = $1 WHERE id = $2")
                .bind(off as i64)
                .bind(id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Sets (or, with `None`, clears) the country of account `id` (a checked code).
    pub async fn set_country(&self, id: &str, country: Option<&str>) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query("UPDATE users SET country = $1 WHERE id = $2")
                .bind(country)
                .bind(id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Makes account `id` a bot with an API token whose hash is `token_hash` (a new token
    /// replaces the old one). A bot cannot go back to being a person's account.
    pub async fn make_bot(&self, id: &str, token_hash: &str) -> Result<()> {
        with_pool!(self.0, pool => {
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
        with_reader!(self.0, pool => {
            let row = sqlx::query(&format!(
                "SELECT {USER_COLUMNS} FROM users WHERE bot_token_hash = $1 AND bot = 1 AND deleted_at IS NULL \
                 AND disabled_at IS NULL"
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
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(
                "UPDATE users SET password_hash = NULL, bot_token_hash = NULL, deleted_at = $1, \
                 credential_gen = credential_gen + 1, email = NULL, email_verified_at = NULL \
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
                "DELETE FROM lesson_progress WHERE user_id = $1",
                "DELETE FROM mail_tokens WHERE user_id = $1",
            ] {
                sqlx::query(q).bind(id).execute(&mut *tx).await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Sets the confirmed e-mail address of live account `id` (`None` removes it); false when
    /// another account holds that address.
    pub async fn set_email(&self, id: &str, email: Option<&str>, now: i64) -> Result<bool> {
        let done = with_pool!(self.0, pool => {
            sqlx::query(
                "UPDATE users SET email = $1, email_verified_at = $2 WHERE id = $3 AND deleted_at IS NULL",
            )
            .bind(email)
            .bind(email.map(|_| now))
            .bind(id)
            .execute(pool)
            .await
            .map(|r| r.rows_affected())
        });
        match done {
            Ok(1) => Ok(true),
            Ok(_) => Err(Error::NotFound),
            Err(e) if is_unique_violation(&e) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Sets the language of the letters about play for account `id` (`None`: no letters).
    pub async fn set_mail_notify(&self, id: &str, lang: Option<&str>) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query("UPDATE users SET mail_notify = $1 WHERE id = $2")
                .bind(lang)
                .bind(id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Stores the settings of account `id` (JSON).
    pub async fn set_prefs(&self, id: &str, prefs: &str) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query("UPDATE users SET prefs = $1 WHERE id = $2")
                .bind(prefs)
                .bind(id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The live account whose confirmed address is `email` (normalised).
    pub async fn user_by_email(&self, email: &str) -> Result<Option<User>> {
        with_reader!(self.0, pool => {
            let row = sqlx::query(&format!(
                "SELECT {USER_COLUMNS} FROM users WHERE email = $1 AND deleted_at IS NULL"
            ))
            .bind(email)
            .fetch_optional(pool)
            .await?;
            row.map(|r| user_of(&r)).transpose()
        })
    }

    /// Removes expired sessions; returns how many.
    pub async fn purge_sessions(&self, now: i64) -> Result<u64> {
        with_pool!(self.0, pool => {
            Ok(sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
                .bind(now)
                .execute(pool)
                .await?
                .rows_affected())
        })
    }
}
