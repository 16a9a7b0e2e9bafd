//! The games: stored with their moves (on SQLite the appends of many games share one commit),
//! changed, read back and listed.

use super::{Db, OnlineSummary, Summary};
use crate::error::{Error, Result};
use reversi_core::notation::parse_move;
use reversi_core::{Color, Move, Variant};
use reversi_site::game::{GameRecord, LiveGame, Mode, PlayerKind, VoidEnd};
use sqlx::sqlite::SqlitePool;
use sqlx::Row;
use std::str::FromStr;
use tokio::sync::{mpsc, oneshot};

/// The games' repository.
pub struct Games<'a>(pub(super) &'a Db);

/// One [`Db::append_moves`] waiting for the next group commit.
#[derive(Debug)]
pub(super) struct AppendJob {
    id: String,
    from: usize,
    moves: Vec<String>,
    times: Option<[i64; 2]>,
    summary: Summary,
    done: oneshot::Sender<Result<()>>,
}

/// The error of a move that arrives as the server shuts down.
const WRITER_GONE: &str =
    "the database writer has stopped (the server is shutting down): try again once it is back";

/// The most appends one commit stores.
const GROUP_MAX: usize = 256;

/// SQLite: stores the moves of every game waiting in `jobs` in one transaction, then tells each
/// caller. Under load many games move at once; one commit (and two statements per move instead
/// of four) for all of them raises the moves stored per second, and nobody waits for more than
/// the commit in progress. Should the group fail, each append is retried alone, so that one bad
/// append fails only itself.
pub(super) async fn group_commit(pool: SqlitePool, mut jobs: mpsc::UnboundedReceiver<AppendJob>) {
    let mut group = Vec::with_capacity(GROUP_MAX);
    while jobs.recv_many(&mut group, GROUP_MAX).await > 0 {
        if commit_group(&pool, &group).await.is_ok() {
            for job in group.drain(..) {
                let _ = job.done.send(Ok(()));
            }
        } else {
            for job in group.drain(..) {
                let alone = commit_group(&pool, std::slice::from_ref(&job)).await;
                let _ = job.done.send(alone);
            }
        }
    }
}

/// Stores the appends of `group` in one transaction.
async fn commit_group(pool: &SqlitePool, group: &[AppendJob]) -> Result<()> {
    let mut tx = pool.begin().await?;
    for job in group {
        insert_moves!(tx, &job.id, job.from, job.moves, job.times);
        store_summary!(tx, &job.id, job.summary.clone());
    }
    tx.commit().await?;
    Ok(())
}

/// One line of the game list (as `GET /api/games` sends it).
pub use reversi_site_api::GameSummary;

/// The columns of a [`GameSummary`], for `… WHERE …` to follow.
pub(super) const SUMMARY_SELECT: &str =
    "SELECT g.id, g.variant, g.mode, g.level, g.black_player, g.white_player, g.status, \
     g.black_count, g.white_count, g.winner, g.move_count, g.created_at, g.updated_at, \
     g.finished_at, COALESCE(a.status, 'none') AS analysis, g.black_name, g.white_name, g.rated \
     FROM games g \
     LEFT JOIN analyses a ON a.game_id = g.id";

/// A row of [`SUMMARY_SELECT`].
pub(super) fn summary_of<R: Row>(row: &R) -> Result<GameSummary>
where
    for<'r> &'r str: sqlx::ColumnIndex<R>,
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<String>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<i64>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
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
        finished_at: row.try_get::<Option<i64>, _>("finished_at")?.map(|ms| ms / 1000),
        analysis: row.try_get("analysis")?,
        black_name: row.try_get("black_name")?,
        white_name: row.try_get("white_name")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
    })
}

fn kind_str(k: PlayerKind) -> &'static str {
    match k {
        PlayerKind::Human => "human",
        PlayerKind::Ai => "ai",
    }
}

impl Games<'_> {
    /// Games being played, by mode (`ai`, `friend`, `local`, `online`), for the metrics.
    pub async fn games_in_progress(&self) -> Result<Vec<(String, i64)>> {
        with_reader!(self.0, pool => {
            Ok(sqlx::query_as(
                "SELECT mode, COUNT(*) FROM games WHERE status = 'playing' GROUP BY mode",
            )
            .fetch_all(pool)
            .await?)
        })
    }

    /// Stores a new game and the forced passes it starts with, if any.
    pub async fn insert_game(&self, live: &LiveGame) -> Result<()> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            insert_game!(tx, live, self.0.clock.now_ms());
            tx.commit().await?;
        });
        Ok(())
    }

    /// Stores imported games (with their moves) in one transaction, marked as imported by
    /// `by` (the quotas' key) and, for a guest's, to be deleted at `expires_at` (Unix ms).
    pub async fn insert_imported(&self, lives: &[LiveGame], by: &str, expires_at: Option<i64>) -> Result<()> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            for live in lives {
                insert_game!(tx, live, self.0.clock.now_ms());
                sqlx::query("UPDATE games SET imported_by = $1, expires_at = $2 WHERE id = $3")
                    .bind(by)
                    .bind(expires_at)
                    .bind(&live.record.id)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Deletes up to `batch` games whose time ran out before `now` (a guest's imports), with
    /// everything stored about them; returns their ids (for the instances holding them).
    pub async fn purge_expired_games(&self, now: i64, batch: i64) -> Result<Vec<String>> {
        with_pool!(self.0, pool => {
            let ids: Vec<String> = sqlx::query_scalar(
                "SELECT id FROM games WHERE expires_at IS NOT NULL AND expires_at < $1 LIMIT $2",
            )
            .bind(now)
            .bind(batch)
            .fetch_all(pool)
            .await?;
            for id in &ids {
                let mut tx = pool.begin().await?;
                for q in [
                    "DELETE FROM analysis_moves WHERE game_id = $1",
                    "DELETE FROM analyses WHERE game_id = $1",
                    "DELETE FROM chat WHERE game_id = $1",
                    "DELETE FROM presence WHERE game_id = $1",
                    "DELETE FROM moves WHERE game_id = $1",
                    "DELETE FROM games WHERE id = $1",
                ] {
                    sqlx::query(q).bind(id).execute(&mut *tx).await?;
                }
                tx.commit().await?;
            }
            Ok(ids)
        })
    }

    /// Stores `new`, the rematch of game `old_id`, and records it on the old game, in one
    /// transaction; false (and nothing stored) when the old game already has a rematch.
    pub async fn insert_rematch(&self, old_id: &str, new: &LiveGame) -> Result<bool> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let done = sqlx::query("UPDATE games SET rematch_id = $1 WHERE id = $2 AND rematch_id IS NULL")
                .bind(&new.record.id)
                .bind(old_id)
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
            insert_game!(tx, new, self.0.clock.now_ms());
            notify!(self.0, tx, old_id);
            tx.commit().await?;
        });
        Ok(true)
    }

    /// Stores `moves`, played from ply `from`, and the game's new summary, in one transaction.
    pub async fn append_moves(&self, live: &LiveGame, from: usize, moves: &[Move]) -> Result<()> {
        let start = std::time::Instant::now();
        let span = tracing::debug_span!("db.append_moves", game = %live.record.id, moves = moves.len());
        let stored = tracing::Instrument::instrument(self.append_moves_timed(live, from, moves), span).await;
        if stored.is_ok() {
            metrics::histogram!("reversi_db_write_seconds").record(start.elapsed().as_secs_f64());
            metrics::counter!("reversi_moves_stored_total").increment(moves.len() as u64);
        }
        stored
    }

    async fn append_moves_timed(&self, live: &LiveGame, from: usize, moves: &[Move]) -> Result<()> {
        if let Some(appends) = &self.0.appends {
            let (done, stored) = oneshot::channel();
            let job = AppendJob {
                id: live.record.id.clone(),
                from,
                moves: moves.iter().map(Move::to_string).collect(),
                times: OnlineSummary::times(live),
                summary: Summary::of(live, self.0.clock.now_ms()),
                done,
            };
            let gone = || Error::Internal(WRITER_GONE.into());
            appends.send(job).map_err(|_| gone())?;
            return stored.await.map_err(|_| gone())?;
        }
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            insert_moves!(tx, &live.record.id, from, moves, OnlineSummary::times(live));
            update_summary!(tx, live, self.0.clock.now_ms());
            notify!(self.0, tx, &live.record.id);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Deletes the moves from ply `ply` on (undo) and stores the new summary.
    pub async fn truncate_moves(&self, live: &LiveGame, ply: usize) -> Result<()> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                .bind(&live.record.id)
                .bind(ply as i64)
                .execute(&mut *tx)
                .await?;
            // An analysis of the moves taken back is void (a finished game can be undone
            // against the computer).
            sqlx::query("DELETE FROM analysis_moves WHERE game_id = $1")
                .bind(&live.record.id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM analyses WHERE game_id = $1")
                .bind(&live.record.id)
                .execute(&mut *tx)
                .await?;
            update_summary!(tx, live, self.0.clock.now_ms());
            notify!(self.0, tx, &live.record.id);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Stores the seat tokens, the resignation and the summary of `live`.
    pub async fn update_game(&self, live: &LiveGame) -> Result<()> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "UPDATE games SET black_token = $1, white_token = $2, resigned = $3, join_token = $4, \
                 ended = $6, left_game = $7 WHERE id = $5",
            )
                .bind(live.record.tokens[0].as_deref())
                .bind(live.record.tokens[1].as_deref())
                .bind(live.record.resigned.map(Color::name))
                .bind(live.record.join_token.as_deref())
                .bind(&live.record.id)
                .bind(live.record.void.map(VoidEnd::as_str))
                .bind(live.record.left as i64)
                .execute(&mut *tx)
                .await?;
            update_summary!(tx, live, self.0.clock.now_ms());
            notify!(self.0, tx, &live.record.id);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Games still being played whose last change is older than `before` (Unix seconds), at
    /// most `limit`, oldest first.
    pub async fn idle_games(&self, before: i64, limit: u32) -> Result<Vec<String>> {
        with_reader!(self.0, pool => {
            Ok(sqlx::query_scalar(
                "SELECT id FROM games WHERE status = 'playing' AND updated_at < $1 AND flag_at IS NULL \
                 ORDER BY updated_at, id LIMIT $2",
            )
            .bind(before)
            .bind(limit as i64)
            .fetch_all(pool)
            .await?)
        })
    }

    /// Loads a game and its moves; `None` when there is no such game.
    pub async fn load_game(&self, id: &str) -> Result<Option<LiveGame>> {
        let bad = |what: &str| Error::Internal(format!("game {id}: bad stored {what}"));
        let kind = |s: String| match s.as_str() {
            "ai" => Ok(PlayerKind::Ai),
            "human" => Ok(PlayerKind::Human),
            _ => Err(bad("player")),
        };
        let (record, rows, version, takeback, conditional) = with_reader!(self.0, pool => {
            let Some(row) = sqlx::query(
                "SELECT id, variant, mode, level, black_player, white_player, black_token, white_token, \
                 resigned, left_game, created_at, rematch_id, join_token, version, ended, seat_info, \
                 rated, clock, flagged, black_name, white_name, tournament, private, tie, takeback, conditional FROM games WHERE id = $1",
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
            let tie = match row.try_get::<Option<String>, _>("tie")? {
                None => reversi_core::TieRule::Draw,
                Some(t) => reversi_core::TieRule::parse(&t).ok_or_else(|| bad("tie rule"))?,
            };
            let record = GameRecord {
                id: row.try_get("id")?,
                variant,
                tie,
                mode: Mode::parse(&mode).ok_or_else(|| bad("mode"))?,
                level: row.try_get::<i64, _>("level")? as u32,
                players: [
                    kind(row.try_get("black_player")?)?,
                    kind(row.try_get("white_player")?)?,
                ],
                tokens: [row.try_get("black_token")?, row.try_get("white_token")?],
                resigned: resigned.as_deref().and_then(reversi_site::game::parse_color),
                left: row.try_get::<i64, _>("left_game")? != 0,
                created_at: row.try_get("created_at")?,
                rematch: row.try_get("rematch_id")?,
                join_token: row.try_get("join_token")?,
                void: row
                    .try_get::<Option<String>, _>("ended")?
                    .map(|e| VoidEnd::parse(&e).ok_or_else(|| bad("ending")))
                    .transpose()?,
                online: None,
            };
            let mut record = record;
            if let Some(info) = row.try_get::<Option<String>, _>("seat_info")? {
                let mut seats: [reversi_site::game::online::SeatInfo; 2] =
                    serde_json::from_str(&info).map_err(|_| bad("seat info"))?;
                // The name columns lose a deleted account's name.
                seats[0].name = row.try_get("black_name")?;
                seats[1].name = row.try_get("white_name")?;
                let timing = row
                    .try_get::<Option<String>, _>("clock")?
                    .map(|c| serde_json::from_str(&c).map_err(|_| bad("clock")))
                    .transpose()?;
                let flagged: Option<String> = row.try_get("flagged")?;
                record.online = Some(reversi_site::game::online::Online {
                    seats,
                    rated: row.try_get::<i64, _>("rated")? != 0,
                    timing,
                    flagged: flagged.as_deref().and_then(reversi_site::game::parse_color),
                    tournament: row.try_get("tournament")?,
                    private: row.try_get::<i64, _>("private")? != 0,
                });
            }
            let version: i64 = row.try_get("version")?;
            let takeback: Option<String> = row.try_get("takeback")?;
            let conditional: Option<String> = row.try_get("conditional")?;
            let rows: Vec<String> =
                sqlx::query_scalar("SELECT mv FROM moves WHERE game_id = $1 ORDER BY ply")
                    .bind(id)
                    .fetch_all(pool)
                    .await?;
            (record, rows, version, takeback, conditional)
        });
        let moves = rows
            .iter()
            .map(|m| parse_move(m).map_err(|_| bad("move")))
            .collect::<Result<Vec<Move>>>()?;
        let mut live = LiveGame::restore(record, &moves, version.max(0) as u64, self.0.clock.clock_ms())?;
        live.takeback = takeback.as_deref().and_then(reversi_site::game::parse_color);
        if let Some(c) = conditional {
            live.conditional = serde_json::from_str(&c).map_err(|_| bad("conditional premoves"))?;
        }
        Ok(Some(live))
    }

    /// A page of games and how many match in all. `status` filters on `playing` or `finished`;
    /// finished games come in the order they ended, newest first, others by their latest change.
    pub async fn list_games(
        &self,
        status: Option<&str>,
        offset: u32,
        limit: u32,
    ) -> Result<(Vec<GameSummary>, i64)> {
        let order = if status == Some("finished") {
            "g.finished_at DESC, g.id"
        } else {
            "g.updated_at DESC, g.id"
        };
        let sql = format!(
            "{SUMMARY_SELECT} WHERE ($1 IS NULL OR g.status = $1) AND g.private = 0 \
             ORDER BY {order} LIMIT $2 OFFSET $3"
        );
        with_reader!(self.0, pool => {
            let rows = sqlx::query(&sql)
                .bind(status)
                .bind(limit as i64)
                .bind(offset as i64)
                .fetch_all(pool)
                .await?;
            let total: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM games WHERE ($1 IS NULL OR status = $1) AND private = 0",
            )
                .bind(status)
                .fetch_one(pool)
                .await?;
            let games = rows.iter().map(summary_of).collect::<Result<Vec<_>>>()?;
            Ok((games, total))
        })
    }

    /// The games of `ids` that exist (at most 50 asked), latest change first.
    pub async fn games_by_id(&self, ids: &[&str]) -> Result<Vec<GameSummary>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "{SUMMARY_SELECT} WHERE g.id IN ({}) ORDER BY g.updated_at DESC, g.id",
            marks.join(", ")
        );
        with_reader!(self.0, pool => {
            let mut q = sqlx::query(&sql);
            for id in ids {
                q = q.bind(*id);
            }
            let rows = q.fetch_all(pool).await?;
            rows.iter().map(summary_of).collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{Bits, Square};
    use reversi_site::game::Mode;

    fn new_game(id: &str) -> LiveGame {
        LiveGame::new(
            GameRecord {
                id: id.to_string(),
                variant: Variant::Othello,
                tie: reversi_core::TieRule::Draw,
                mode: Mode::Friend,
                level: 1,
                players: [PlayerKind::Human; 2],
                tokens: [None, None],
                resigned: None,
                left: false,
                created_at: 1_700_000_000,
                rematch: None,
                join_token: None,
                void: None,
                online: None,
            },
            0,
        )
    }

    /// Many games moving at once share commits; an append that cannot be stored (its ply is
    /// taken) fails alone, and every other move is stored once, in order.
    #[tokio::test]
    async fn group_commit_stores_every_move_and_fails_only_the_bad_append() {
        let dir = std::env::temp_dir().join(format!("reversi-group-{}", crate::secret::random_string(8)));
        std::fs::create_dir_all(&dir).unwrap();
        let db = Db::connect(dir.join("g.db").to_str().unwrap()).await.unwrap();
        let mut games: Vec<LiveGame> = (0..40).map(|i| new_game(&format!("g{i}"))).collect();
        for g in &games {
            db.games().insert_game(g).await.unwrap();
        }
        for round in 0..6 {
            let mut tasks = Vec::new();
            for g in &mut games {
                let before = g.game.ply();
                let legal: Vec<Square> = g.game.legal_moves().squares().collect();
                let added = g.play_checked(Move::Play(legal[round % legal.len()]), 0).unwrap();
                let (db, g) = (db.clone(), g.clone());
                tasks.push(tokio::spawn(async move {
                    db.games().append_moves(&g, before, &added).await
                }));
            }
            // A stale copy of the first game appends again at a ply already stored.
            let stale = if round > 0 {
                let mut s = new_game("g0");
                let first = s.game.legal_moves().first().unwrap();
                let added = s.play_checked(Move::Play(first), 0).unwrap();
                let db = db.clone();
                Some(tokio::spawn(async move {
                    db.games().append_moves(&s, 0, &added).await
                }))
            } else {
                None
            };
            for t in tasks {
                t.await.unwrap().unwrap();
            }
            if let Some(t) = stale {
                assert!(
                    t.await.unwrap().is_err(),
                    "round {round}: a taken ply was stored again"
                );
            }
        }
        for g in &games {
            let stored = db.games().load_game(&g.record.id).await.unwrap().unwrap();
            assert_eq!(stored.game.moves(), g.game.moves(), "game {}", g.record.id);
            assert_eq!(stored.game.ply(), 6);
        }
        let (list, total) = db.games().list_games(None, 0, 100).await.unwrap();
        assert_eq!(total, 40);
        assert!(
            list.iter().all(|s| s.move_count == 6),
            "summaries follow the moves"
        );
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }
}
