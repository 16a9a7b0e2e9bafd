//! Game analyses in the queue and done: requested (capped per requester, the queue bounded),
//! claimed in turn per requester, stored move by move, finished.

use super::{Db, Topic};
use crate::error::Result;
use serde::Serialize;
use sqlx::Row;

/// The analyses' repository.
pub struct Analyses<'a>(pub(super) &'a Db);

impl Analyses<'_> {
    /// Asks for the analysis of game `id` at `level` for `requester` (an account, or `ip:` and
    /// an address): queues it unless it is queued, running or done already (a failed one is
    /// queued again), and answers its status. A new job is refused (`Err(cap)`) when the
    /// requester has `per_requester` jobs queued or running, or the queue holds `queue_max`:
    /// checked and stored in one transaction no other request's can interleave with.
    pub async fn request_analysis(
        &self,
        id: &str,
        level: u32,
        requester: &str,
        per_requester: i64,
        queue_max: i64,
    ) -> Result<std::result::Result<String, AnalysisCap>> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            lock_in_tx!(self.0, tx, "analysis-queue");
            let status: Option<String> = sqlx::query_scalar("SELECT status FROM analyses WHERE game_id = $1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
            if let Some(s) = status.filter(|s| s != "failed") {
                return Ok(Ok(s));
            }
            let mine: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM analyses WHERE requester = $1 AND status IN ('queued', 'running')",
            )
            .bind(requester)
            .fetch_one(&mut *tx)
            .await?;
            if mine >= per_requester {
                return Ok(Err(AnalysisCap::Requester));
            }
            let queued: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM analyses WHERE status = 'queued'")
                .fetch_one(&mut *tx)
                .await?;
            if queued >= queue_max {
                return Ok(Err(AnalysisCap::Queue));
            }
            sqlx::query(
                "INSERT INTO analyses (game_id, status, level, requested_at, requester) \
                 VALUES ($1, 'queued', $2, $3, $4) \
                 ON CONFLICT (game_id) DO UPDATE SET status = 'queued', error = NULL, owner = NULL, \
                 requested_at = excluded.requested_at, requester = excluded.requester",
            )
            .bind(id)
            .bind(level as i64)
            .bind(self.0.clock.now_s())
            .bind(requester)
            .execute(&mut *tx)
            .await?;
            notify_topic!(self.0, tx, Topic::Analysis(id.into()));
            tx.commit().await?;
            self.0.announce(Topic::Analysis(id.into()));
            Ok(Ok("queued".to_string()))
        })
    }

    /// The analysis of game `id` (its status and the moves analysed so far), if one was asked for.
    pub async fn analysis(&self, id: &str) -> Result<Option<AnalysisRecord>> {
        with_reader!(self.0, pool => {
            let Some(row) = sqlx::query(
                "SELECT status, level, error, requested_at, started_at, finished_at FROM analyses \
                 WHERE game_id = $1",
            )
            .bind(id)
            .fetch_optional(pool)
            .await?
            else {
                return Ok(None);
            };
            let rows = sqlx::query(
                "SELECT ply, player, played, best, played_score, best_score, loss, exact, facts \
                 FROM analysis_moves WHERE game_id = $1 ORDER BY ply",
            )
            .bind(id)
            .fetch_all(pool)
            .await?;
            let moves = rows
                .iter()
                .map(|r| {
                    Ok(AnalysedMove {
                        ply: r.try_get("ply")?,
                        player: r.try_get("player")?,
                        played: r.try_get("played")?,
                        best: r.try_get("best")?,
                        played_score: r.try_get("played_score")?,
                        best_score: r.try_get("best_score")?,
                        loss: r.try_get("loss")?,
                        exact: r.try_get::<i64, _>("exact")? != 0,
                        facts: r
                            .try_get::<Option<String>, _>("facts")?
                            .and_then(|f| serde_json::from_str(&f).ok())
                            .unwrap_or_default(),
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(Some(AnalysisRecord {
                status: row.try_get("status")?,
                level: row.try_get("level")?,
                error: row.try_get("error")?,
                requested_at: row.try_get("requested_at")?,
                started_at: row.try_get("started_at")?,
                finished_at: row.try_get("finished_at")?,
                moves,
            }))
        })
    }

    /// Takes the oldest analysis waiting to run for `owner`: a queued one, or a running one
    /// whose heartbeat is older than `stale_before` (Unix seconds; its server died). Returns the
    /// game id and level.
    pub async fn claim_analysis(&self, owner: &str, stale_before: i64) -> Result<Option<(String, u32)>> {
        for _ in 0..5 {
            let candidate: Option<(String, i64)> = with_reader!(self.0, pool => {
                // In turn per requester: a job goes before every job of a requester with more
                // jobs ahead of it (running, or queued earlier), so one requester's hundred
                // requests delay another's first by one job at most.
                sqlx::query_as(
                    "SELECT a.game_id, a.level FROM analyses a \
                     WHERE a.status = 'queued' OR (a.status = 'running' AND a.heartbeat_at < $1) \
                     ORDER BY (SELECT COUNT(*) FROM analyses b WHERE b.requester = a.requester \
                       AND b.game_id <> a.game_id AND (b.status = 'running' OR (b.status = 'queued' \
                       AND (b.requested_at < a.requested_at \
                       OR (b.requested_at = a.requested_at AND b.game_id < a.game_id))))), \
                     a.requested_at, a.game_id LIMIT 1",
                )
                .bind(stale_before)
                .fetch_optional(pool)
                .await?
            });
            let Some((id, level)) = candidate else {
                return Ok(None);
            };
            let claimed = with_pool!(self.0, pool => {
                sqlx::query(
                    "UPDATE analyses SET status = 'running', owner = $1, started_at = $2, heartbeat_at = $2 \
                     WHERE game_id = $3 AND (status = 'queued' OR (status = 'running' AND heartbeat_at < $4))",
                )
                .bind(owner)
                .bind(self.0.clock.now_s())
                .bind(&id)
                .bind(stale_before)
                .execute(pool)
                .await?
                .rows_affected()
            });
            if claimed == 1 {
                self.0
                    .announce_stored(Topic::Analysis(id.as_str().into()))
                    .await?;
                return Ok(Some((id, level.clamp(1, 60) as u32)));
            }
            // Another instance took it first: look again.
        }
        Ok(None)
    }

    /// Stores one analysed move of a job `owner` runs, and its heartbeat; false (nothing
    /// stored) when the job is no longer `owner`'s (taken over, or the game was undone).
    pub async fn store_analysed_move(&self, id: &str, owner: &str, m: &AnalysedMove) -> Result<bool> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let mine = sqlx::query(
                "UPDATE analyses SET heartbeat_at = $1 WHERE game_id = $2 AND owner = $3 AND status = 'running'",
            )
            .bind(self.0.clock.now_s())
            .bind(id)
            .bind(owner)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if mine != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
            sqlx::query("DELETE FROM analysis_moves WHERE game_id = $1 AND ply = $2")
                .bind(id)
                .bind(m.ply)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO analysis_moves (game_id, ply, player, played, best, played_score, best_score, \
                 loss, exact, facts) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(id)
            .bind(m.ply)
            .bind(&m.player)
            .bind(&m.played)
            .bind(&m.best)
            .bind(m.played_score)
            .bind(m.best_score)
            .bind(m.loss)
            .bind(m.exact as i64)
            .bind(serde_json::to_string(&m.facts).unwrap_or_else(|_| "[]".into()))
            .execute(&mut *tx)
            .await?;
            notify_topic!(self.0, tx, Topic::Analysis(id.into()));
            tx.commit().await?;
            self.0.announce(Topic::Analysis(id.into()));
            Ok(true)
        })
    }

    /// Ends a job `owner` runs: `done`, or `failed` with `error`. False when it was not theirs.
    pub async fn finish_analysis(&self, id: &str, owner: &str, error: Option<&str>) -> Result<bool> {
        with_pool!(self.0, pool => {
            let n = sqlx::query(
                "UPDATE analyses SET status = $1, error = $2, finished_at = $3, heartbeat_at = $3 \
                 WHERE game_id = $4 AND owner = $5 AND status = 'running'",
            )
            .bind(if error.is_some() { "failed" } else { "done" })
            .bind(error)
            .bind(self.0.clock.now_s())
            .bind(id)
            .bind(owner)
            .execute(pool)
            .await?
            .rows_affected();
            if n == 1 {
                self.0.announce_stored(Topic::Analysis(id.into())).await?;
            }
            Ok(n == 1)
        })
    }

    /// Puts every running analysis back in the queue (at start on SQLite, whose file one process
    /// owns: a job still marked running was cut short by the last shutdown). Returns how many.
    pub async fn requeue_running_analyses(&self) -> Result<u64> {
        with_pool!(self.0, pool => {
            Ok(sqlx::query("UPDATE analyses SET status = 'queued', owner = NULL WHERE status = 'running'")
                .execute(pool)
                .await?
                .rows_affected())
        })
    }
}

/// Why [`Db::request_analysis`] refused a new job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisCap {
    /// The requester has its most jobs queued or running.
    Requester,
    /// The queue is full.
    Queue,
}

/// An analysis as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AnalysisRecord {
    /// `queued`, `running`, `done` or `failed`.
    pub status: String,
    /// The engine level it runs at.
    pub level: i64,
    /// Why it failed.
    pub error: Option<String>,
    /// When it was asked for (Unix seconds).
    pub requested_at: i64,
    /// When it (last) started.
    pub started_at: Option<i64>,
    /// When it ended.
    pub finished_at: Option<i64>,
    /// The moves analysed so far, in order.
    pub moves: Vec<AnalysedMove>,
}

/// The verdict on one move, as the wire has it.
pub use reversi_site_api::AnalysedMove;
