//! Moves: a person's (checked against the seat, the turn, the ply and the clock, stored, then
//! published), the computer's (searched on the engine pool outside the actor, played when the
//! search answers, unless the game changed meanwhile), and the take-back against the computer.

use super::actor::Round;
use super::Command;
use crate::error::{Error, Result};
use reversi_core::{Color, Move};
use reversi_site::game::online::Deadline;
use reversi_site::game::LiveGame;
use reversi_site_api::GameView;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

impl Round {
    /// Plays `mv` for the holder of `token` at ply `ply` (when given).
    pub(super) async fn play(
        &mut self,
        token: Option<&str>,
        mv: &str,
        ply: Option<usize>,
    ) -> Result<GameView> {
        let now = self.shared.db.clock().clock_ms();
        if let Some(due) = self.game.deadline().filter(|d| d.at() <= now) {
            // The flag fell (or the first move's time ran out) before the move came.
            self.expire().await?;
            return Err(match due {
                Deadline::Flag { .. } => {
                    Error::Conflict("time_out", "your time ran out before the move arrived".into())
                }
                Deadline::NoFirstMove { .. } => Error::GameOver,
            });
        }
        let (snapshot, added) = match self.attempt(token, mv, ply, now) {
            // On storage shared with other instances the game held here may be behind (a join
            // or a move made elsewhere, its notification still on the way): before refusing,
            // take the stored game and try once more.
            Err(_) if self.shared_storage() => {
                self.reload().await?;
                self.attempt(token, mv, ply, now)?
            }
            other => other?,
        };
        let before = snapshot.game.ply();
        if let Err(e) = self
            .shared
            .db
            .games()
            .append_moves(&self.game, before, &added)
            .await
        {
            self.game = snapshot;
            if self.shared_storage() {
                // Another instance may have moved first: take the stored game.
                self.reload().await?;
                if self.game.game.ply() != before {
                    return Err(Error::Conflict(
                        "game_changed",
                        "the game changed meanwhile; try again".into(),
                    ));
                }
            }
            return Err(e);
        }
        if self.game.is_over() {
            self.finish().await?;
        } else if let Some(view) = self.play_conditional().await {
            // The player to move had left this answer: it is played, and its state is the news.
            return Ok(view);
        } else {
            self.queue_turn_letter().await;
        }
        Ok(self.publish())
    }

    /// In a correspondence game, queues the letter that tells the player now to move (an
    /// account) that it is their move; whether it is sent is the outbox's to judge
    /// ([`crate::notify`]: letters asked for, the player away, one a game in six hours).
    async fn queue_turn_letter(&self) {
        let Some(online) = &self.game.record.online else {
            return;
        };
        let correspondence = online
            .timing
            .as_ref()
            .is_some_and(|t| t.clock.control.is_correspondence());
        let Some(c) = self.game.to_move().filter(|_| correspondence) else {
            return;
        };
        let seat = &online.seats[c.index()];
        if seat.is_guest() || seat.bot {
            return;
        }
        let payload = serde_json::json!({ "game": self.game.record.id }).to_string();
        let now = self.shared.db.clock().now_ms();
        if let Err(e) = self
            .shared
            .db
            .outbox()
            .queue("turn", Some(&seat.key), &payload, now)
            .await
        {
            tracing::warn!("letter not queued: {e}");
        }
    }

    /// The move itself, on the game held here: the game as it was and the moves added.
    fn attempt(
        &mut self,
        token: Option<&str>,
        mv: &str,
        ply: Option<usize>,
        now: u64,
    ) -> Result<(LiveGame, Vec<Move>)> {
        let seats = self.seats(token)?;
        let snapshot = self.game.clone();
        let mover = self.game.game.side_to_move();
        let added = match self.game.play_human(&seats, mv, ply, now) {
            Ok(a) => a,
            Err(e) => {
                self.game = snapshot;
                return Err(e.into());
            }
        };
        let comp = self.compensation(&snapshot, mover, now);
        if let Err(e) = self.game.press_clock(mover, now, comp) {
            self.game = snapshot;
            return Err(e.into());
        }
        Ok((snapshot, added))
    }

    /// The lag given back to `mover`, whose move arrived at `now`, out of the time it spent.
    fn compensation(&mut self, g: &LiveGame, mover: Color, now: u64) -> u64 {
        let Some(r) = g
            .record
            .online
            .as_ref()
            .and_then(|o| o.timing)
            .and_then(|t| t.clock.running)
            .filter(|r| r.color == mover)
        else {
            return 0;
        };
        let spent = now.saturating_sub(r.since);
        self.lag[mover.index()].compensate(spent)
    }

    /// Starts the computer's search when it is to move and not searching yet. The search runs
    /// on the engine pool; its answer comes back as [`Command::EngineMoved`].
    pub(super) fn start_engine(&mut self) {
        if self.game.ai_to_move().is_none() || self.game.ai_thinking {
            return;
        }
        let Some(tx) = self.tx.upgrade() else { return };
        // The state already says the computer thinks (it is its turn): nothing new to publish
        // until it has moved.
        self.game.ai_thinking = true;
        self.game.ai_job += 1;
        let job = self.game.ai_job;
        let stop = Arc::new(AtomicBool::new(false));
        self.stop_engine = Some(Arc::clone(&stop));
        let pos = *self.game.game.position();
        let level = self.game.record.level;
        let seed = self
            .game
            .record
            .id
            .bytes()
            .fold(self.game.game.ply() as u64, |h, b| {
                h.wrapping_mul(0x100_0000_01b3).wrapping_add(b as u64)
            });
        let ai = Arc::clone(&self.shared.ai);
        tokio::spawn(async move {
            let result = ai.best_move(pos, level, seed, stop).await;
            let _ = tx.send(Command::EngineMoved { job, result }).await;
        });
    }

    /// The computer's search of job `job` answered `result`: its move is played and stored,
    /// unless the game changed meanwhile (undone, resigned, read again).
    pub(super) async fn engine_moved(&mut self, job: u64, result: Result<Move>) {
        if self.game.ai_job != job {
            return;
        }
        self.game.ai_thinking = false;
        self.stop_engine = None;
        let mv = match result {
            Ok(mv) => mv,
            Err(e) => {
                tracing::error!("game {}: the computer's move failed: {e}", self.game.record.id);
                self.bump();
                self.publish();
                return;
            }
        };
        let before = self.game.game.ply();
        let snapshot = self.game.clone();
        let added = match self.game.play_checked(mv, self.shared.db.clock().clock_ms()) {
            Ok(a) => a,
            Err(e) => {
                self.game = snapshot;
                self.bump();
                self.publish();
                tracing::error!("game {}: engine move {mv} rejected: {e}", self.game.record.id);
                return;
            }
        };
        if let Err(e) = self
            .shared
            .db
            .games()
            .append_moves(&self.game, before, &added)
            .await
        {
            self.game = snapshot;
            self.bump();
            self.publish();
            tracing::error!("game {}: storing the computer's move: {e}", self.game.record.id);
            return;
        }
        if self.game.is_over() {
            if let Err(e) = self.finish().await {
                tracing::warn!("game {}: finishing: {e}", self.game.record.id);
            }
        }
        self.publish();
    }

    /// Takes back the last move of the holder of `token` and the computer's reply.
    pub(super) async fn undo(&mut self, token: Option<&str>) -> Result<GameView> {
        let seats = self.seats(token)?;
        let snapshot = self.game.clone();
        let ply = match self
            .game
            .undo_for_human(&seats, self.shared.db.clock().clock_ms())
        {
            Ok(p) => p,
            Err(e) => {
                self.game = snapshot;
                return Err(e.into());
            }
        };
        self.stop_search();
        if let Err(e) = self.shared.db.games().truncate_moves(&self.game, ply).await {
            self.game = snapshot;
            return Err(e);
        }
        Ok(self.publish())
    }
}
