//! Persistence: every game and every move, so that a game survives a restart. SQLite through
//! sqlx; the schema is embedded in the binary and applied at start.

use crate::error::{Error, Result};
use crate::game::{GameRecord, GameView, LiveGame, Mode, PlayerKind};
use reversi_core::notation::parse_move;
use reversi_core::{Color, Move, Variant};
use serde::Serialize;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::Row;
use std::str::FromStr;

/// The schema, in order: (version, SQL). Applied once each, recorded in `schema_migrations`.
const MIGRATIONS: &[(i64, &str)] = &[(1, include_str!("../migrations/0001_init.sql"))];

/// A handle on the database (cheap to clone).
#[derive(Clone, Debug)]
pub struct Db {
    pool: SqlitePool,
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
        let opts = if url.starts_with("sqlite:") {
            SqliteConnectOptions::from_str(url)?
        } else if url.contains("://") {
            return Err(Error::BadRequest(format!(
                "unsupported database URL {url:?}: this build supports SQLite (sqlite://FILE or a path)"
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
        let db = Db { pool };
        db.migrate().await?;
        Ok(db)
    }

    async fn migrate(&self) -> Result<()> {
        sqlx::raw_sql("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY)")
            .execute(&self.pool)
            .await?;
        for &(version, sql) in MIGRATIONS {
            let mut tx = self.pool.begin().await?;
            let done: Option<i64> =
                sqlx::query_scalar("SELECT version FROM schema_migrations WHERE version = ?")
                    .bind(version)
                    .fetch_optional(&mut *tx)
                    .await?;
            if done.is_none() {
                sqlx::raw_sql(sql).execute(&mut *tx).await?;
                sqlx::query("INSERT INTO schema_migrations (version) VALUES (?)")
                    .bind(version)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        }
        Ok(())
    }

    /// Closes the pool (waits for connections to finish).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Stores a new game and the forced passes it starts with, if any.
    pub async fn insert_game(&self, live: &LiveGame) -> Result<()> {
        let r = &live.record;
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, variant, mode, level, black_player, white_player, black_token, \
             white_token, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
        insert_moves(&mut tx, &r.id, 0, live.game.moves()).await?;
        update_summary(&mut tx, live).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Stores `moves`, played from ply `from`, and the game's new summary, in one transaction.
    pub async fn append_moves(&self, live: &LiveGame, from: usize, moves: &[Move]) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        insert_moves(&mut tx, &live.record.id, from, moves).await?;
        update_summary(&mut tx, live).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Deletes the moves from ply `ply` on (undo) and stores the new summary.
    pub async fn truncate_moves(&self, live: &LiveGame, ply: usize) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM moves WHERE game_id = ? AND ply >= ?")
            .bind(&live.record.id)
            .bind(ply as i64)
            .execute(&mut *tx)
            .await?;
        update_summary(&mut tx, live).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Stores the seat tokens, the resignation and the summary of `live`.
    pub async fn update_game(&self, live: &LiveGame) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE games SET black_token = ?, white_token = ?, resigned = ? WHERE id = ?")
            .bind(live.record.tokens[0].as_deref())
            .bind(live.record.tokens[1].as_deref())
            .bind(live.record.resigned.map(Color::name))
            .bind(&live.record.id)
            .execute(&mut *tx)
            .await?;
        update_summary(&mut tx, live).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Loads a game and its moves; `None` when there is no such game.
    pub async fn load_game(&self, id: &str) -> Result<Option<LiveGame>> {
        let Some(row) = sqlx::query(
            "SELECT id, variant, mode, level, black_player, white_player, black_token, white_token, \
             resigned, created_at FROM games WHERE id = ?",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let bad = |what: &str| Error::Internal(format!("game {id}: bad stored {what}"));
        let variant: String = row.try_get("variant")?;
        let variant = Variant::from_str(&variant).map_err(|_| bad("variant"))?;
        let mode: String = row.try_get("mode")?;
        let kind = |s: String| match s.as_str() {
            "ai" => Ok(PlayerKind::Ai),
            "human" => Ok(PlayerKind::Human),
            _ => Err(bad("player")),
        };
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
        let rows: Vec<String> = sqlx::query_scalar("SELECT mv FROM moves WHERE game_id = ? ORDER BY ply")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        let moves = rows
            .iter()
            .map(|m| parse_move(m).map_err(|_| bad("move")))
            .collect::<Result<Vec<Move>>>()?;
        Ok(Some(LiveGame::restore(record, &moves)?))
    }

    /// The latest games, newest change first; `status` filters on `playing` or `finished`.
    pub async fn list_games(&self, status: Option<&str>, limit: u32) -> Result<Vec<GameSummary>> {
        let rows = sqlx::query(
            "SELECT id, variant, mode, level, black_player, white_player, status, black_count, \
             white_count, winner, move_count, created_at, updated_at FROM games \
             WHERE (? IS NULL OR status = ?) ORDER BY updated_at DESC, id LIMIT ?",
        )
        .bind(status)
        .bind(status)
        .bind(limit as i64)
        .fetch_all(&self.pool)
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
    }
}

async fn insert_moves(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    id: &str,
    from: usize,
    moves: &[Move],
) -> Result<()> {
    for (i, mv) in moves.iter().enumerate() {
        sqlx::query("INSERT INTO moves (game_id, ply, mv) VALUES (?, ?, ?)")
            .bind(id)
            .bind((from + i) as i64)
            .bind(mv.to_string())
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

async fn update_summary(tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>, live: &LiveGame) -> Result<()> {
    let v: GameView = live.view();
    let (black, white, winner) = match &v.result {
        Some(r) => (r.black, r.white, r.winner.map(Color::name)),
        None => (v.black_count, v.white_count, None),
    };
    sqlx::query(
        "UPDATE games SET status = ?, black_count = ?, white_count = ?, winner = ?, move_count = ?, \
         updated_at = ? WHERE id = ?",
    )
    .bind(v.status)
    .bind(black as i64)
    .bind(white as i64)
    .bind(winner)
    .bind(v.ply as i64)
    .bind(now())
    .bind(&live.record.id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
