//! Persistence: every game and every move, so that a game survives a restart. SQLite or
//! PostgreSQL through sqlx, with the same SQL (`$N` parameters, which both accept); the schema
//! of each is embedded in the binary and applied at start.
//!
//! On PostgreSQL every change of a game also sends `NOTIFY reversi_games` (in the transaction
//! that stores it), so that other server instances sharing the database can push it to the
//! players connected to them ([`Db::listen`]).

use crate::error::{Error, Result};
use crate::game::{GameRecord, GameView, LiveGame, Mode, PlayerKind};
use reversi_core::notation::parse_move;
use reversi_core::{Color, Move, Variant};
use serde::Serialize;
use sqlx::postgres::{PgConnectOptions, PgListener, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::Row;
use std::str::FromStr;

/// The SQLite schema, in order: (version, SQL). Applied once each, recorded in
/// `schema_migrations`.
const MIGRATIONS: &[(i64, &str)] = &[(1, include_str!("../migrations/0001_init.sql"))];

/// The PostgreSQL schema (the same tables; integers are `BIGINT` throughout).
const PG_MIGRATIONS: &[(i64, &str)] = &[(1, include_str!("../migrations/postgres/0001_init.sql"))];

/// The channel of the change notifications on PostgreSQL.
pub const NOTIFY_CHANNEL: &str = "reversi_games";

#[derive(Clone, Debug)]
enum Pool {
    Sqlite(SqlitePool),
    Pg(PgPool),
}

/// A handle on the database (cheap to clone).
#[derive(Clone, Debug)]
pub struct Db {
    pool: Pool,
    /// Tags this process's notifications, so that it can skip its own.
    instance: String,
}

/// Runs `$body` with `$p` bound to the pool, whichever the database: the SQL is the same.
macro_rules! with_pool {
    ($db:expr, $p:ident => $body:expr) => {
        match &$db.pool {
            Pool::Sqlite($p) => $body,
            Pool::Pg($p) => $body,
        }
    };
}

/// Inserts `$moves`, played from ply `$from`, into the open transaction `$tx`.
macro_rules! insert_moves {
    ($tx:ident, $id:expr, $from:expr, $moves:expr) => {
        for (i, mv) in $moves.iter().enumerate() {
            sqlx::query("INSERT INTO moves (game_id, ply, mv) VALUES ($1, $2, $3)")
                .bind($id)
                .bind(($from + i) as i64)
                .bind(mv.to_string())
                .execute(&mut *$tx)
                .await?;
        }
    };
}

/// Stores the summary columns of `$live` in the open transaction `$tx`.
macro_rules! update_summary {
    ($tx:ident, $live:expr) => {{
        let v: GameView = $live.view();
        let (black, white, winner) = match &v.result {
            Some(r) => (r.black, r.white, r.winner.map(Color::name)),
            None => (v.black_count, v.white_count, None),
        };
        sqlx::query(
            "UPDATE games SET status = $1, black_count = $2, white_count = $3, winner = $4, \
             move_count = $5, updated_at = $6 WHERE id = $7",
        )
        .bind(v.status)
        .bind(black as i64)
        .bind(white as i64)
        .bind(winner)
        .bind(v.ply as i64)
        .bind(now())
        .bind(&$live.record.id)
        .execute(&mut *$tx)
        .await?;
    }};
}

/// Within the open transaction `$tx`, tells the other instances (PostgreSQL) that game `$id`
/// changed; the notification is sent when the transaction commits.
macro_rules! notify {
    ($db:expr, $tx:ident, $id:expr) => {
        if matches!($db.pool, Pool::Pg(_)) {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(NOTIFY_CHANNEL)
                .bind(format!("{}:{}", $db.instance, $id))
                .execute(&mut *$tx)
                .await?;
        }
    };
}

/// A change of a game made by another server instance, received through `LISTEN`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The game that changed.
    pub game_id: String,
}

/// The stream of changes made by other instances (PostgreSQL only).
pub struct Listener {
    inner: PgListener,
    instance: String,
}

impl Listener {
    /// The next change made by another instance. After a lost connection it reconnects and
    /// returns `None` once: the caller should then refresh every game it holds.
    pub async fn next(&mut self) -> Result<Option<Change>> {
        loop {
            let Some(n) = self.inner.try_recv().await? else {
                return Ok(None);
            };
            let payload = n.payload();
            let Some((instance, id)) = payload.split_once(':') else {
                continue;
            };
            if instance != self.instance {
                return Ok(Some(Change {
                    game_id: id.to_string(),
                }));
            }
        }
    }
}

/// One line of the game list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    /// The game id.
    pub id: String,
    /// The variant preset.
    pub variant: String,
    /// `ai`, `friend` or `local`.
    pub mode: String,
    /// The computer's level.
    pub level: i64,
    /// Who plays black (`human` or `ai`).
    pub black: String,
    /// Who plays white.
    pub white: String,
    /// `playing` or `finished`.
    pub status: String,
    /// Black's discs (the final count once finished).
    pub black_count: i64,
    /// White's discs.
    pub white_count: i64,
    /// `black`, `white`, or `null` (draw or not finished).
    pub winner: Option<String>,
    /// Moves played, passes included.
    pub move_count: i64,
    /// Creation time (Unix seconds).
    pub created_at: i64,
    /// Time of the last change (Unix seconds).
    pub updated_at: i64,
}

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn kind_str(k: PlayerKind) -> &'static str {
    match k {
        PlayerKind::Human => "human",
        PlayerKind::Ai => "ai",
    }
}

impl Db {
    /// Opens (creating when missing) the database at `url` and applies the schema. `url` is a
    /// `sqlite:` URL (`sqlite://reversi.db`, `sqlite::memory:`) or a plain file path.
    pub async fn connect(url: &str) -> Result<Db> {
        let instance = crate::state::random_string(12);
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let opts = PgConnectOptions::from_str(url)?;
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .min_connections(0)
                .acquire_timeout(std::time::Duration::from_secs(10))
                .connect_with(opts)
                .await?;
            let db = Db {
                pool: Pool::Pg(pool),
                instance,
            };
            db.migrate().await?;
            return Ok(db);
        }
        let opts = if url.starts_with("sqlite:") {
            SqliteConnectOptions::from_str(url)?
        } else if url.contains("://") {
            return Err(Error::BadRequest(format!(
                "unsupported database URL {url:?}: use sqlite://FILE, a file path, or postgres://..."
            )));
        } else {
            SqliteConnectOptions::new().filename(url)
        };
        let memory = url.contains(":memory:");
        let opts = opts
            .create_if_missing(true)
            .foreign_keys(true)
            .journal_mode(if memory {
                SqliteJournalMode::Memory
            } else {
                SqliteJournalMode::Wal
            })
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(std::time::Duration::from_secs(5));
        // An in-memory database lives in one connection.
        let max = if memory { 1 } else { 8 };
        let pool = SqlitePoolOptions::new()
            .max_connections(max)
            .min_connections(if memory { 1 } else { 0 })
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(opts)
            .await?;
        let db = Db {
            pool: Pool::Sqlite(pool),
            instance,
        };
        db.migrate().await?;
        Ok(db)
    }

    /// `postgres` or `sqlite`.
    pub fn kind(&self) -> &'static str {
        match self.pool {
            Pool::Sqlite(_) => "sqlite",
            Pool::Pg(_) => "postgres",
        }
    }

    /// On PostgreSQL, a listener of the changes other instances make; `None` on SQLite (one
    /// process owns the file).
    pub async fn listen(&self) -> Result<Option<Listener>> {
        let Pool::Pg(pool) = &self.pool else {
            return Ok(None);
        };
        // The listener gets a connection of its own, outside the pool, so that closing the pool
        // never waits for the listener (which lives until the state is dropped).
        let own = PgPoolOptions::new()
            .max_connections(1)
            .connect_lazy_with((*pool.connect_options()).clone());
        let mut inner = PgListener::connect_with(&own).await?;
        inner.listen(NOTIFY_CHANNEL).await?;
        Ok(Some(Listener {
            inner,
            instance: self.instance.clone(),
        }))
    }

    /// For tests against a shared PostgreSQL server: creates a fresh schema with a unique name
    /// in the database at `url` and returns a URL whose connections use it.
    pub async fn fresh_schema_url(url: &str) -> Result<String> {
        let name = format!("reversi_test_{}", crate::state::random_string(12).to_lowercase());
        let pool = PgPoolOptions::new().max_connections(1).connect(url).await?;
        sqlx::raw_sql(&format!("CREATE SCHEMA {name}"))
            .execute(&pool)
            .await?;
        pool.close().await;
        let sep = if url.contains('?') { '&' } else { '?' };
        Ok(format!("{url}{sep}options=-c%20search_path%3D{name}"))
    }

    async fn migrate(&self) -> Result<()> {
        let migrations = match self.pool {
            Pool::Sqlite(_) => MIGRATIONS,
            Pool::Pg(_) => PG_MIGRATIONS,
        };
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if matches!(self.pool, Pool::Pg(_)) {
                // Several instances may start at once: one migrates, the others wait.
                sqlx::query("SELECT pg_advisory_xact_lock(4242)").execute(&mut *tx).await?;
            }
            sqlx::raw_sql("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY)")
                .execute(&mut *tx)
                .await?;
            for &(version, sql) in migrations {
                let done: Option<i64> =
                    sqlx::query_scalar("SELECT version FROM schema_migrations WHERE version = $1")
                        .bind(version)
                        .fetch_optional(&mut *tx)
                        .await?;
                if done.is_none() {
                    sqlx::raw_sql(sql).execute(&mut *tx).await?;
                    sqlx::query("INSERT INTO schema_migrations (version) VALUES ($1)")
                        .bind(version)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Closes the pool (waits for connections to finish).
    pub async fn close(&self) {
        with_pool!(self, pool => pool.close().await)
    }

    /// Stores a new game and the forced passes it starts with, if any.
    pub async fn insert_game(&self, live: &LiveGame) -> Result<()> {
        let r = &live.record;
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "INSERT INTO games (id, variant, mode, level, black_player, white_player, black_token, \
                 white_token, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(&r.id)
            .bind(r.variant.to_string())
            .bind(r.mode.as_str())
            .bind(r.level as i64)
            .bind(kind_str(r.players[0]))
            .bind(kind_str(r.players[1]))
            .bind(r.tokens[0].as_deref())
            .bind(r.tokens[1].as_deref())
            .bind(r.created_at)
            .bind(r.created_at)
            .execute(&mut *tx)
            .await?;
            insert_moves!(tx, &r.id, 0, live.game.moves());
            update_summary!(tx, live);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Stores `moves`, played from ply `from`, and the game's new summary, in one transaction.
    pub async fn append_moves(&self, live: &LiveGame, from: usize, moves: &[Move]) -> Result<()> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            insert_moves!(tx, &live.record.id, from, moves);
            update_summary!(tx, live);
            notify!(self, tx, &live.record.id);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Deletes the moves from ply `ply` on (undo) and stores the new summary.
    pub async fn truncate_moves(&self, live: &LiveGame, ply: usize) -> Result<()> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                .bind(&live.record.id)
                .bind(ply as i64)
                .execute(&mut *tx)
                .await?;
            update_summary!(tx, live);
            notify!(self, tx, &live.record.id);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Stores the seat tokens, the resignation and the summary of `live`.
    pub async fn update_game(&self, live: &LiveGame) -> Result<()> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("UPDATE games SET black_token = $1, white_token = $2, resigned = $3 WHERE id = $4")
                .bind(live.record.tokens[0].as_deref())
                .bind(live.record.tokens[1].as_deref())
                .bind(live.record.resigned.map(Color::name))
                .bind(&live.record.id)
                .execute(&mut *tx)
                .await?;
            update_summary!(tx, live);
            notify!(self, tx, &live.record.id);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Loads a game and its moves; `None` when there is no such game.
    pub async fn load_game(&self, id: &str) -> Result<Option<LiveGame>> {
        let bad = |what: &str| Error::Internal(format!("game {id}: bad stored {what}"));
        let kind = |s: String| match s.as_str() {
            "ai" => Ok(PlayerKind::Ai),
            "human" => Ok(PlayerKind::Human),
            _ => Err(bad("player")),
        };
        let (record, rows) = with_pool!(self, pool => {
            let Some(row) = sqlx::query(
                "SELECT id, variant, mode, level, black_player, white_player, black_token, white_token, \
                 resigned, created_at FROM games WHERE id = $1",
            )
            .bind(id)
            .fetch_optional(pool)
            .await?
            else {
                return Ok(None);
            };
            let variant: String = row.try_get("variant")?;
            let variant = Variant::from_str(&variant).map_err(|_| bad("variant"))?;
            let mode: String = row.try_get("mode")?;
            let resigned: Option<String> = row.try_get("resigned")?;
            let record = GameRecord {
                id: row.try_get("id")?,
                variant,
                mode: Mode::parse(&mode).ok_or_else(|| bad("mode"))?,
                level: row.try_get::<i64, _>("level")? as u32,
                players: [
                    kind(row.try_get("black_player")?)?,
                    kind(row.try_get("white_player")?)?,
                ],
                tokens: [row.try_get("black_token")?, row.try_get("white_token")?],
                resigned: resigned.as_deref().and_then(crate::game::parse_color),
                created_at: row.try_get("created_at")?,
            };
            let rows: Vec<String> =
                sqlx::query_scalar("SELECT mv FROM moves WHERE game_id = $1 ORDER BY ply")
                    .bind(id)
                    .fetch_all(pool)
                    .await?;
            (record, rows)
        });
        let moves = rows
            .iter()
            .map(|m| parse_move(m).map_err(|_| bad("move")))
            .collect::<Result<Vec<Move>>>()?;
        Ok(Some(LiveGame::restore(record, &moves)?))
    }

    /// The latest games, newest change first; `status` filters on `playing` or `finished`.
    pub async fn list_games(&self, status: Option<&str>, limit: u32) -> Result<Vec<GameSummary>> {
        with_pool!(self, pool => {
            let rows = sqlx::query(
                "SELECT id, variant, mode, level, black_player, white_player, status, black_count, \
                 white_count, winner, move_count, created_at, updated_at FROM games \
                 WHERE ($1 IS NULL OR status = $1) ORDER BY updated_at DESC, id LIMIT $2",
            )
            .bind(status)
            .bind(limit as i64)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|row| {
                    Ok(GameSummary {
                        id: row.try_get("id")?,
                        variant: row.try_get("variant")?,
                        mode: row.try_get("mode")?,
                        level: row.try_get("level")?,
                        black: row.try_get("black_player")?,
                        white: row.try_get("white_player")?,
                        status: row.try_get("status")?,
                        black_count: row.try_get("black_count")?,
                        white_count: row.try_get("white_count")?,
                        winner: row.try_get("winner")?,
                        move_count: row.try_get("move_count")?,
                        created_at: row.try_get("created_at")?,
                        updated_at: row.try_get("updated_at")?,
                    })
                })
                .collect()
        })
    }
}
