//! The lobby's seeks and quick-pairing pools, stored so that every instance sees them and a
//! restart keeps them. Accepting deletes the row: of two accepts at once, one deletes it.

use super::Db;
use crate::error::Result;
use sqlx::Row;

/// A stored seek.
#[derive(Clone, Debug, PartialEq)]
pub struct SeekRow {
    /// The public id.
    pub id: String,
    /// The owner's player key (account id, or `g:` and a guest key): never shown.
    pub owner: String,
    /// The owner's name (`None`: a guest).
    pub owner_name: Option<String>,
    /// Whether the owner has an account.
    pub registered: bool,
    /// Whether the owner is a bot.
    pub bot: bool,
    /// The owner's rating in the seek's category, if rated there.
    pub rating: Option<f64>,
    /// The variant preset.
    pub variant: String,
    /// The time control (`5+3`, `3d`).
    pub control: String,
    /// Rated or casual.
    pub rated: bool,
    /// `black`, `white` or `random`: the owner's colour.
    pub colour: String,
    /// The ratings the owner accepts.
    pub range: Option<(i64, i64)>,
    /// The pool's control, for a quick-pairing entry (not shown in the lobby).
    pub pool: Option<String>,
    /// A challenge's addressee (account id): only they may accept it.
    pub target: Option<String>,
    /// When it was made (Unix ms).
    pub created_at: i64,
    /// The address it was made from (the limits per address; never shown).
    pub address: Option<String>,
}

/// Which cap an [`Db::insert_seek_capped`] met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeekCap {
    /// The owner's open seeks (or pool entries).
    Owner,
    /// The open seeks (or pool entries) made from the address.
    Address,
}

const SEEK_COLUMNS: &str = "id, owner, owner_name, registered, bot, rating, variant, control, rated, \
                            colour, range_min, range_max, pool, target, created_at, address";

fn seek_of<R: Row>(r: &R) -> Result<SeekRow>
where
    for<'r> &'r str: sqlx::ColumnIndex<R>,
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<String>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<i64>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<f64>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    let lo: Option<i64> = r.try_get("range_min")?;
    let hi: Option<i64> = r.try_get("range_max")?;
    Ok(SeekRow {
        id: r.try_get("id")?,
        owner: r.try_get("owner")?,
        owner_name: r.try_get("owner_name")?,
        registered: r.try_get::<i64, _>("registered")? != 0,
        bot: r.try_get::<i64, _>("bot")? != 0,
        rating: r.try_get("rating")?,
        variant: r.try_get("variant")?,
        control: r.try_get("control")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        colour: r.try_get("colour")?,
        range: lo.zip(hi),
        pool: r.try_get("pool")?,
        target: r.try_get("target")?,
        created_at: r.try_get("created_at")?,
        address: r.try_get("address")?,
    })
}

/// Inserts seek `$s` in the open transaction `$tx`.
macro_rules! insert_seek_row {
    ($tx:ident, $s:expr) => {{
        let s: &SeekRow = $s;
        sqlx::query(&format!(
            "INSERT INTO seeks ({SEEK_COLUMNS}, seen_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $15)"
        ))
        .bind(&s.id)
        .bind(&s.owner)
        .bind(&s.owner_name)
        .bind(s.registered as i64)
        .bind(s.bot as i64)
        .bind(s.rating)
        .bind(&s.variant)
        .bind(&s.control)
        .bind(s.rated as i64)
        .bind(&s.colour)
        .bind(s.range.map(|r| r.0))
        .bind(s.range.map(|r| r.1))
        .bind(&s.pool)
        .bind(&s.target)
        .bind(s.created_at)
        .bind(&s.address)
        .execute(&mut *$tx)
        .await?;
    }};
}

/// The repository of lobby.
pub struct Lobby<'a>(pub(super) &'a Db);

/// What became of a seek that left the lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeekOutcome {
    /// It became this game.
    Game(String),
    /// Its player declined it (a challenge): their name.
    Declined(String),
}

impl Lobby<'_> {
    /// Stores a seek.
    pub async fn insert_seek(&self, s: &SeekRow) -> Result<()> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            insert_seek_row!(tx, s);
            notify_lobby!(self.0, tx);
            tx.commit().await?;
        });
        self.0.lobby_changed();
        Ok(())
    }

    /// Stores a seek if its owner has fewer than `per_owner` and its address fewer than
    /// `per_address` open ones of its kind (lobby seeks, or pool entries), checked and stored in
    /// one transaction that no other seek's can interleave with: a burst of seeks gets exactly
    /// the caps.
    pub async fn insert_seek_capped(
        &self,
        s: &SeekRow,
        per_owner: i64,
        per_address: i64,
    ) -> Result<std::result::Result<(), SeekCap>> {
        let in_pool = s.pool.is_some();
        let done = with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            // SQLite writes one transaction at a time already; PostgreSQL's run together.
                lock_in_tx!(self.0, tx, "seeks");
            let owned: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM seeks WHERE owner = $1 AND (pool IS NOT NULL) = $2",
            )
            .bind(&s.owner)
            .bind(in_pool)
            .fetch_one(&mut *tx)
            .await?;
            let from_address: i64 = match &s.address {
                Some(a) => sqlx::query_scalar(
                    "SELECT COUNT(*) FROM seeks WHERE address = $1 AND (pool IS NOT NULL) = $2",
                )
                .bind(a)
                .bind(in_pool)
                .fetch_one(&mut *tx)
                .await?,
                None => 0,
            };
            if owned >= per_owner {
                Err(SeekCap::Owner)
            } else if from_address >= per_address {
                Err(SeekCap::Address)
            } else {
                insert_seek_row!(tx, s);
                notify_lobby!(self.0, tx);
                tx.commit().await?;
                Ok(())
            }
        });
        if done.is_ok() {
            self.0.lobby_changed();
        }
        Ok(done)
    }

    /// The open seeks: the lobby's (`pool` `None`), newest first, so that old seeks never hide
    /// a new one; or the entries of one pool, oldest first (the longest waiting are paired
    /// first).
    pub async fn seeks(&self, pool_name: Option<&str>, limit: u32) -> Result<Vec<SeekRow>> {
        let order = if pool_name.is_some() {
            "created_at, id"
        } else {
            "created_at DESC, id"
        };
        with_reader!(self.0, pool => {
            let rows = sqlx::query(&format!(
                "SELECT {SEEK_COLUMNS} FROM seeks WHERE ($1 IS NULL AND pool IS NULL) OR pool = $1 \
                 ORDER BY {order} LIMIT $2"
            ))
            .bind(pool_name)
            .bind(limit as i64)
            .fetch_all(pool)
            .await?;
            rows.iter().map(seek_of).collect()
        })
    }

    /// How many wait in each pool (pools nobody waits in are left out).
    pub async fn pool_counts(&self) -> Result<Vec<(String, i64)>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query("SELECT pool, COUNT(*) AS n FROM seeks WHERE pool IS NOT NULL GROUP BY pool")
                .fetch_all(pool)
                .await?;
            rows.iter().map(|r| Ok((r.try_get("pool")?, r.try_get("n")?))).collect()
        })
    }

    /// The seeks of `owner`.
    pub async fn seeks_of(&self, owner: &str) -> Result<Vec<SeekRow>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(&format!("SELECT {SEEK_COLUMNS} FROM seeks WHERE owner = $1 ORDER BY created_at"))
                .bind(owner)
                .fetch_all(pool)
                .await?;
            rows.iter().map(seek_of).collect()
        })
    }

    /// The seek `id`.
    pub async fn seek(&self, id: &str) -> Result<Option<SeekRow>> {
        with_reader!(self.0, pool => {
            let row = sqlx::query(&format!("SELECT {SEEK_COLUMNS} FROM seeks WHERE id = $1"))
                .bind(id)
                .fetch_optional(pool)
                .await?;
            row.map(|r| seek_of(&r)).transpose()
        })
    }

    /// Takes seek `id` away (to make its game, or because its owner cancels it): true for the
    /// one caller that removed it.
    pub async fn take_seek(&self, id: &str, owner: Option<&str>) -> Result<bool> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let done = sqlx::query("DELETE FROM seeks WHERE id = $1 AND ($2 IS NULL OR owner = $2)")
                .bind(id)
                .bind(owner)
                .execute(&mut *tx)
                .await?;
            notify_lobby!(self.0, tx);
            tx.commit().await?;
            self.0.lobby_changed();
            Ok(done.rows_affected() == 1)
        })
    }

    /// Removes every seek of `owner` (made on another page, left behind); returns how many.
    pub async fn drop_seeks_of(&self, owner: &str) -> Result<u64> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let n = sqlx::query("DELETE FROM seeks WHERE owner = $1").bind(owner).execute(&mut *tx).await?;
            notify_lobby!(self.0, tx);
            tx.commit().await?;
            self.0.lobby_changed();
            Ok(n.rows_affected())
        })
    }

    /// Marks the seeks of `owner` as still wanted at `now` (the owner's page is open).
    pub async fn touch_seeks(&self, owner: &str, now: i64) -> Result<()> {
        with_pool!(self.0, pool => {
            sqlx::query("UPDATE seeks SET seen_at = $1 WHERE owner = $2")
                .bind(now)
                .bind(owner)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Removes the real-time seeks nobody has asked about since `before` (their owner left;
    /// correspondence seeks stay for a week); returns how many.
    pub async fn expire_seeks(&self, before: i64, correspondence_before: i64) -> Result<u64> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let n = sqlx::query(
                "DELETE FROM seeks WHERE (seen_at < $1 AND control NOT LIKE '%d') OR seen_at < $2",
            )
            .bind(before)
            .bind(correspondence_before)
            .execute(&mut *tx)
            .await?;
            if n.rows_affected() > 0 {
                notify_lobby!(self.0, tx);
            }
            tx.commit().await?;
            if n.rows_affected() > 0 {
                self.0.lobby_changed();
            }
            Ok(n.rows_affected())
        })
    }

    /// Records that seek `seek_id` of `owner` became game `game_id`, for its owner to find.
    pub async fn record_seek_game(&self, seek_id: &str, owner: &str, game_id: &str, now: i64) -> Result<()> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("INSERT INTO seek_games (seek_id, owner, game_id, at) VALUES ($1, $2, $3, $4)")
                .bind(seek_id)
                .bind(owner)
                .bind(game_id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            // The owner's lobby page goes to the game.
            notify_lobby!(self.0, tx);
            tx.commit().await?;
        });
        self.0.lobby_changed();
        Ok(())
    }

    /// What became of `owner`'s seeks since `since` (Unix ms), newest first: each seek's id
    /// and the game it became, or the name of the player who declined it (a challenge).
    pub async fn seek_games_of(&self, owner: &str, since: i64) -> Result<Vec<(String, SeekOutcome)>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT seek_id, game_id, declined_by FROM seek_games WHERE owner = $1 AND at >= $2 ORDER BY at DESC",
            )
            .bind(owner)
            .bind(since)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    let declined: Option<String> = r.try_get("declined_by")?;
                    let outcome = match declined {
                        Some(by) => SeekOutcome::Declined(by),
                        None => SeekOutcome::Game(r.try_get("game_id")?),
                    };
                    Ok((r.try_get("seek_id")?, outcome))
                })
                .collect()
        })
    }

    /// Declines challenge `seek_id` addressed to account `target` (named `name`): it leaves the
    /// seeks and its owner is told. False when there is no such open challenge.
    pub async fn decline_challenge(&self, seek_id: &str, target: &str, name: &str, now: i64) -> Result<bool> {
        let done = with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let owner: Option<String> = sqlx::query_scalar(
                "DELETE FROM seeks WHERE id = $1 AND target = $2 RETURNING owner",
            )
            .bind(seek_id)
            .bind(target)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(owner) = owner else {
                return Ok(false);
            };
            sqlx::query(
                "INSERT INTO seek_games (seek_id, owner, game_id, at, declined_by) VALUES ($1, $2, '', $3, $4)",
            )
            .bind(seek_id)
            .bind(&owner)
            .bind(now)
            .bind(name)
            .execute(&mut *tx)
            .await?;
            notify_lobby!(self.0, tx);
            tx.commit().await?;
            true
        });
        self.0.lobby_changed();
        Ok(done)
    }

    /// The last game between player keys `a` and `b` in which `a` played Black, if they met.
    pub async fn last_meeting(&self, a: &str, b: &str) -> Result<Option<bool>> {
        with_reader!(self.0, pool => {
            let row = sqlx::query(
                "SELECT black_user FROM games WHERE (black_user = $1 AND white_user = $2) \
                 OR (black_user = $2 AND white_user = $1) ORDER BY created_at DESC LIMIT 1",
            )
            .bind(a)
            .bind(b)
            .fetch_optional(pool)
            .await?;
            row.map(|r| Ok(r.try_get::<String, _>("black_user")? == a)).transpose()
        })
    }
}
