//! The server's own settings and secrets (`site_meta`): the key that signs guest identities and
//! known devices, the version of the look-alike keys.

use super::Db;
use crate::error::Result;

/// The repository of the site's settings.
pub struct Meta<'a>(pub(super) &'a Db);

impl Meta<'_> {
    /// The setting `name`, made with `make()` by the first instance that asks (the others, and
    /// later starts, read the stored one).
    pub async fn meta_or_insert(&self, name: &str, make: impl FnOnce() -> String) -> Result<String> {
        let value = make();
        with_pool!(self.0, pool => {
            sqlx::query("INSERT INTO site_meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
                .bind(name)
                .bind(&value)
                .execute(pool)
                .await?;
            Ok(sqlx::query_scalar("SELECT value FROM site_meta WHERE name = $1")
                .bind(name)
                .fetch_one(pool)
                .await?)
        })
    }

    /// The setting `name`, if stored.
    pub async fn get_meta(&self, name: &str) -> Result<Option<String>> {
        with_pool!(self.0, pool => {
            Ok(sqlx::query_scalar("SELECT value FROM site_meta WHERE name = $1")
                .bind(name)
                .fetch_optional(pool)
                .await?)
        })
    }

    /// Stores the setting `name`.
    pub async fn set_meta(&self, name: &str, value: &str) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query(
                "INSERT INTO site_meta (name, value) VALUES ($1, $2) \
                 ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            )
            .bind(name)
            .bind(value)
            .execute(pool)
            .await?;
        });
        Ok(())
    }
}
