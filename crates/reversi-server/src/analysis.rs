//! Game analysis in the background: every move of a finished game against the engine's choice
//! (`reversi_engine::analyze`, as `reversi analyze` prints it), stored move by move.
//!
//! A request queues a job in the database (`analyses`), at most [`ANALYSES_PER_REQUESTER`]
//! queued or running per requester (an account, or an address for guests) and
//! [`ANALYSIS_QUEUE_MAX`] queued in all; one worker per server takes the next job *in turn per
//! requester* (fair queueing: one requester's burst does not starve another's first job) and
//! analyses one position at a time on the computer players' bounded pool, so it
//! delays their moves by one search at most. Each stored move is the job's heartbeat: a job
//! whose server went away is taken over (at once after a restart on SQLite, after
//! [`Config::analysis_stale`](crate::Config::analysis_stale) on PostgreSQL, where other
//! servers may be running it), and resumes after its last stored move.

use crate::db::{AnalysedMove, AnalysisCap, AnalysisRecord, Db};
use crate::error::{Error, Result};
use crate::state::{AppState, Inner};
use reversi_core::{Color, Move};
use reversi_engine::analyze::{summarize, MoveAnalysis};
use reversi_site_api::{AnalysisProgress, AnalysisTotals, GameAnalysis, Mistake, PlayerTotals};
use std::collections::HashSet;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// Analyses one requester may have queued or running at once.
pub const ANALYSES_PER_REQUESTER: i64 = 3;
/// Analyses queued in all at most (a request past it is refused, not kept waiting for hours).
pub const ANALYSIS_QUEUE_MAX: i64 = 1_000;

/// The stored rows as the engine's values (for its summaries).
fn engine_moves(rows: &[AnalysedMove]) -> Vec<MoveAnalysis> {
    let mv = |s: &str| reversi_core::notation::parse_move(s).unwrap_or(Move::Pass);
    rows.iter()
        .map(|r| MoveAnalysis {
            ply: r.ply as usize,
            player: if r.player == "white" {
                Color::White
            } else {
                Color::Black
            },
            played: mv(&r.played),
            best: mv(&r.best),
            best_score: r.best_score as i32,
            played_score: r.played_score as i32,
            loss: r.loss as i32,
            exact: r.exact,
            best_pv: Vec::new(),
            played_pv: Vec::new(),
        })
        .collect()
}

fn totals(rows: &[AnalysedMove], player: Color) -> PlayerTotals {
    let s = summarize(&engine_moves(rows), player);
    PlayerTotals {
        total_loss: s.total_loss,
        moves: s.moves,
        mistakes: s.mistakes,
        worst: s
            .worst
            .iter()
            .filter_map(|&(ply, loss)| {
                let r = rows.iter().find(|r| r.ply as usize == ply)?;
                Some(Mistake {
                    ply,
                    played: r.played.clone(),
                    best: r.best.clone(),
                    loss,
                })
            })
            .collect(),
    }
}

/// Black's score after each analysed move.
fn black_scores(rows: &[AnalysedMove]) -> Vec<i64> {
    rows.iter()
        .map(|r| {
            if r.player == "white" {
                -r.played_score
            } else {
                r.played_score
            }
        })
        .collect()
}

fn view(game_id: &str, total: usize, rec: Option<AnalysisRecord>) -> GameAnalysis {
    let rows = rec.as_ref().map(|r| r.moves.clone()).unwrap_or_default();
    GameAnalysis {
        game_id: game_id.to_string(),
        status: rec.as_ref().map_or("none".to_string(), |r| r.status.clone()),
        level: rec.as_ref().map(|r| r.level),
        error: rec.as_ref().and_then(|r| r.error.clone()),
        progress: AnalysisProgress {
            done: rows.len(),
            total,
        },
        black_scores: black_scores(&rows),
        summary: AnalysisTotals {
            black: totals(&rows, Color::Black),
            white: totals(&rows, Color::White),
        },
        requested_at: rec.as_ref().map(|r| r.requested_at),
        started_at: rec.as_ref().and_then(|r| r.started_at),
        finished_at: rec.as_ref().and_then(|r| r.finished_at),
        moves: rows,
    }
}

impl AppState {
    /// Queues the analysis of a finished game for `requester` (nothing happens when it is
    /// queued, running or done already; a failed one is tried again) and returns its state.
    pub async fn request_analysis(&self, id: &str, requester: &str) -> Result<GameAnalysis> {
        let (mut over, mut total) = self.analysis_target(id).await?;
        if !over && self.inner.db.shared() {
            // Another instance may have ended it a moment ago.
            self.rounds().refresh(id).await?;
            (over, total) = self.analysis_target(id).await?;
        }
        if !over {
            return Err(Error::NotFinished(
                "the game is not finished yet; analyse it when it has ended".into(),
            ));
        }
        let db = &self.inner.db;
        let asked = db
            .analyses()
            .request_analysis(
                id,
                self.inner.config.analysis_level,
                requester,
                ANALYSES_PER_REQUESTER,
                ANALYSIS_QUEUE_MAX,
            )
            .await?;
        match asked {
            Ok(_) => {}
            Err(AnalysisCap::Requester) => {
                return Err(Error::Throttled {
                    code: "analysis_limit",
                    message: format!(
                        "you have {ANALYSES_PER_REQUESTER} analyses waiting or running: ask again when one is done"
                    ),
                    retry_after_s: 60,
                })
            }
            Err(AnalysisCap::Queue) => {
                return Err(Error::Throttled {
                    code: "analysis_busy",
                    message: "the analysis queue is full; try again in a few minutes".into(),
                    retry_after_s: 300,
                })
            }
        }
        self.inner.analysis_wake.notify_one();
        Ok(view(id, total, db.analyses().analysis(id).await?))
    }

    /// The state of a game's analysis and the moves analysed so far.
    pub async fn analysis(&self, id: &str) -> Result<GameAnalysis> {
        let (_, total) = self.analysis_target(id).await?;
        Ok(view(id, total, self.inner.db.analyses().analysis(id).await?))
    }

    /// The evaluation chart of a finished analysis (`reversi_render::score_chart_svg`, as
    /// `reversi analyze --chart` draws it): Black's score after each move, the five largest
    /// mistakes circled.
    pub async fn analysis_chart(&self, id: &str, lang: reversi_render::Lang) -> Result<String> {
        let a = self.analysis(id).await?;
        if a.status != "done" {
            return Err(Error::Conflict(
                "analysis_not_done",
                format!(
                    "the analysis is {}, not done; the chart comes when it is",
                    a.status
                ),
            ));
        }
        let scores: Vec<f64> = a.black_scores.iter().map(|&s| s as f64).collect();
        let mut worst: Vec<(usize, &AnalysedMove)> =
            a.moves.iter().enumerate().filter(|(_, m)| m.loss > 0).collect();
        worst.sort_by_key(|(i, m)| (std::cmp::Reverse(m.loss), *i));
        let marks: Vec<reversi_render::ChartMark> = worst
            .iter()
            .take(5)
            .map(|(i, m)| reversi_render::ChartMark {
                ply: i + 1,
                label: format!("{}. {} −{}", m.ply, m.played, m.loss),
            })
            .collect();
        Ok(reversi_render::score_chart_svg(&scores, &marks, lang))
    }

    /// Whether game `id` is over, and how many of its moves an analysis looks at.
    async fn analysis_target(&self, id: &str) -> Result<(bool, usize)> {
        self.rounds()
            .with_game(id, |g| {
                let total = g.game.moves().iter().filter(|m| **m != Move::Pass).count();
                (g.is_over(), total)
            })
            .await
    }
}

/// Runs queued analyses one after another until the state is dropped.
pub(crate) async fn worker(state: Weak<Inner>) {
    loop {
        let Some(inner) = state.upgrade() else { return };
        let wake = Arc::clone(&inner.analysis_wake);
        let db = inner.db.clone();
        let stale = inner.config.analysis_stale;
        drop(inner);
        let stale_before = db.clock().now_s() - stale.as_secs().max(1) as i64;
        match db.analyses().claim_analysis(db.instance(), stale_before).await {
            Ok(Some((id, level))) => {
                run_job(&state, &db, &id, level).await;
                continue;
            }
            Ok(None) => {}
            Err(e) => tracing::warn!("looking for analyses to run: {e}"),
        }
        drop(db);
        let poll = (stale / 2).clamp(Duration::from_millis(200), Duration::from_secs(5));
        let _ = tokio::time::timeout(poll, wake.notified()).await;
    }
}

/// What stopped a job.
enum Stop {
    /// The job cannot succeed (the game is gone or does not replay): it is marked failed.
    Fatal(String),
    /// The database failed: the job stays running and is taken over once stale.
    Db(Error),
}

async fn run_job(state: &Weak<Inner>, db: &Db, id: &str, level: u32) {
    let owner = db.instance().to_string();
    let end = match job(state, db, id, level, &owner).await {
        Ok(true) => db.analyses().finish_analysis(id, &owner, None).await,
        Ok(false) => return, // taken over, undone, or the server is going away
        Err(Stop::Fatal(msg)) => {
            tracing::warn!("analysis of game {id} failed: {msg}");
            db.analyses().finish_analysis(id, &owner, Some(&msg)).await
        }
        Err(Stop::Db(e)) => Err(e),
    };
    if let Err(e) = end {
        tracing::warn!("analysis of game {id}: {e}");
    }
}

/// Analyses the moves of game `id` not stored yet. `Ok(false)` when it stopped early.
async fn job(state: &Weak<Inner>, db: &Db, id: &str, level: u32, owner: &str) -> Result<bool, Stop> {
    let live = match db.games().load_game(id).await {
        Ok(Some(live)) => live,
        Ok(None) => return Err(Stop::Fatal("the game no longer exists".into())),
        Err(Error::Database(e)) => return Err(Stop::Db(Error::Database(e))),
        Err(e) => return Err(Stop::Fatal(e.to_string())),
    };
    if !live.is_over() {
        return Err(Stop::Fatal("the game is not finished".into()));
    }
    let done: HashSet<i64> = db
        .analyses()
        .analysis(id)
        .await
        .map_err(Stop::Db)?
        .map(|a| a.moves.iter().map(|m| m.ply).collect())
        .unwrap_or_default();
    let moves = live.game.moves().to_vec();
    let searches = 2 * moves.iter().filter(|m| **m != Move::Pass).count().max(1);
    let rules = live.game.rules().clone();
    for (i, &played) in moves.iter().enumerate() {
        if played == Move::Pass || done.contains(&(i as i64 + 1)) {
            continue;
        }
        let Some(inner) = state.upgrade() else {
            return Ok(false);
        };
        let ai = Arc::clone(&inner.ai);
        let per_search = (inner.config.analysis_budget / searches as u32).max(Duration::from_millis(20));
        let limits = ai.analysis_limits(level, per_search);
        drop(inner);
        let Some(&pos) = live.game.position_at(i) else {
            return Err(Stop::Fatal(format!("no position at ply {i}")));
        };
        let a = ai
            .analyze_move(rules.clone(), pos, played, limits)
            .await
            .map_err(|e| Stop::Fatal(e.to_string()))?;
        let row = AnalysedMove {
            ply: i as i64 + 1,
            player: a.player.name().to_string(),
            played: a.played.to_string(),
            best: a.best.to_string(),
            played_score: a.played_score as i64,
            best_score: a.best_score as i64,
            loss: a.loss as i64,
            exact: a.exact,
            facts: reversi_analysis::facts(&reversi_engine::coach::explain(
                &pos,
                a.played,
                &a.played_pv,
                a.best,
                &a.best_pv,
                a.loss,
            )),
        };
        if !db
            .analyses()
            .store_analysed_move(id, owner, &row)
            .await
            .map_err(Stop::Db)?
        {
            return Ok(false);
        }
    }
    Ok(true)
}
