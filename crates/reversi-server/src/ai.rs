//! The computer player: searches run on tokio's blocking threads, at most `workers` at once
//! (a semaphore), each with a time cap that depends on the level. Engines (and their hash
//! tables) are reused from a small pool.

use crate::error::{Error, Result};
use reversi_core::{AnyPosition, Game, Move, Rules};
use reversi_engine::analyze::{analyze_game, MoveAnalysis};
use reversi_engine::evaluate::Evaluation;
use reversi_engine::levels::Level;
use reversi_engine::{Engine, Limits};
use reversi_protocol::{best_moves, think};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// A bounded pool of engine searches.
pub struct AiPool {
    permits: Semaphore,
    engines: Mutex<Vec<Engine>>,
    hash_mib: usize,
    time_scale: f64,
    book: Option<Arc<reversi_engine::Book>>,
}

pub use reversi_site_api::Hint;

/// The longest a move of `level` may take (before `time_scale`).
pub fn time_cap(level: u32) -> Duration {
    Duration::from_millis(match level {
        0..=4 => 1000,
        5..=10 => 2000,
        11..=20 => 5000,
        _ => 10_000,
    })
}

impl AiPool {
    /// A pool running at most `workers` searches at once, each engine with a `hash_mib` MiB
    /// table and `book`; time caps are multiplied by `time_scale`.
    pub fn new(
        workers: usize,
        hash_mib: usize,
        time_scale: f64,
        book: Option<Arc<reversi_engine::Book>>,
    ) -> AiPool {
        AiPool {
            permits: Semaphore::new(workers.max(1)),
            engines: Mutex::new(Vec::new()),
            hash_mib: hash_mib.max(1),
            time_scale,
            book,
        }
    }

    async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        job: impl FnOnce(&Engine) -> T + Send + 'static,
    ) -> Result<T> {
        let waiting = metrics::gauge!("reversi_engine_waiting");
        waiting.increment(1.0);
        let permit = self.permits.acquire().await;
        waiting.decrement(1.0);
        let _permit = permit.map_err(|_| Error::Internal("AI pool closed".into()))?;
        let pool = Arc::clone(self);
        let start = std::time::Instant::now();
        let _timer = scopeguard(move || {
            metrics::histogram!("reversi_engine_think_seconds").record(start.elapsed().as_secs_f64());
        });
        tokio::task::spawn_blocking(move || {
            let engine = match pool.engines.lock().ok().and_then(|mut e| e.pop()) {
                Some(e) => e,
                None => {
                    let mut e = Engine::new(pool.hash_mib, 1)
                        .map_err(|e| Error::Internal(format!("cannot start an engine: {e}")))?;
                    e.set_book(pool.book.clone());
                    e
                }
            };
            let out = job(&engine);
            if let Ok(mut engines) = pool.engines.lock() {
                engines.push(engine);
            }
            Ok(out)
        })
        .await
        .map_err(|e| Error::Internal(format!("AI search failed: {e}")))?
    }

    fn cap(&self, level: u32) -> Duration {
        time_cap(level).mul_f64(self.time_scale.max(0.001))
    }

    /// The computer's move at `level` in `pos` (always legal; `Pass` when forced). `stop` ends
    /// the search early.
    pub async fn best_move(
        self: &Arc<Self>,
        pos: AnyPosition,
        level: u32,
        seed: u64,
        stop: Arc<AtomicBool>,
    ) -> Result<Move> {
        let mut limits = Level::new(level).limits(seed);
        limits.time = Some(self.cap(level));
        self.run(move |engine| {
            let r = think(engine, &pos, &limits, &stop, &mut |_| {});
            r.best.unwrap_or(Move::Pass)
        })
        .await
    }

    /// Up to `n` best moves of `pos` with their scores, from a strong noiseless search.
    pub async fn hints(self: &Arc<Self>, pos: AnyPosition, n: usize) -> Result<Vec<Hint>> {
        let mut limits = Level::new(10).limits(0);
        limits.time = Some(self.cap(1));
        // Hints name the best moves: from the book, its best, never a varied choice.
        limits.book_margin = limits.book_margin.map(|_| 0);
        self.run(move |engine| {
            let stop = AtomicBool::new(false);
            best_moves(engine, &pos, &limits, n.clamp(1, 10), &stop)
                .into_iter()
                .map(|m| Hint {
                    mv: m.mv.to_string(),
                    score: m.score,
                })
                .collect()
        })
        .await
    }

    /// The verdict on `played` in `pos` (the engine's `reversi analyze` on that one move):
    /// one search of the position and, when the engine prefers another move, one of the
    /// position after `played`. Runs on the same bounded pool as the computer's moves, one
    /// position at a time, so an analysis delays a move by one search at most.
    pub async fn analyze_move(
        self: &Arc<Self>,
        rules: Rules,
        pos: AnyPosition,
        played: Move,
        limits: Limits,
    ) -> Result<MoveAnalysis> {
        self.run(move |engine| {
            let mut game = Game::from_position(rules, pos);
            game.play(played)
                .map_err(|e| Error::Internal(format!("analysed move {played}: {e}")))?;
            let stop = AtomicBool::new(false);
            analyze_game(engine, &game, &limits, &stop, &mut |_| {})
                .into_iter()
                .next()
                .ok_or_else(|| Error::Internal(format!("no analysis of {played}")))
        })
        .await?
    }

    /// Every legal move of a lesson's exercise measured by its goal
    /// ([`reversi_engine::exercise::judge`]), and when `reply` the solver's reply to it as well.
    pub async fn judge(
        self: &Arc<Self>,
        pos: reversi_core::Position<u64>,
        goal: reversi_engine::exercise::Goal,
    ) -> Result<reversi_engine::exercise::Judgement> {
        self.run(move |engine| reversi_engine::exercise::judge(engine, &pos, goal))
            .await
    }

    /// The opponent's reply in a lesson's exercise: the solver's best move.
    pub async fn exercise_reply(self: &Arc<Self>, pos: reversi_core::Position<u64>) -> Result<Move> {
        self.run(move |engine| reversi_engine::exercise::reply(engine, &pos))
            .await
    }

    /// One slice of an analysis-board evaluation: the iteration goes on for `slice` (moves
    /// already begun finish), then the engine returns to the pool. Returns the evaluation and
    /// whether a value changed.
    pub async fn evaluate_slice(
        self: &Arc<Self>,
        mut e: Evaluation,
        exact_empties: u32,
        slice: Duration,
        deadline: std::time::Instant,
        stop: Arc<AtomicBool>,
    ) -> Result<(Evaluation, bool)> {
        self.run(move |engine| {
            let pause = std::time::Instant::now() + slice;
            let changed = e.step(engine, exact_empties, Some(pause), Some(deadline), &stop);
            (e, changed)
        })
        .await
    }

    /// Limits of an analysis search at `level` taking at most `per_search` (before the time
    /// scale, and never longer than the level's cap): no noise, and exact scores where the
    /// level solves the endgame (no win/loss/draw-only results, whose scores are only signs).
    pub fn analysis_limits(&self, level: u32, per_search: Duration) -> Limits {
        let mut limits = Level::new(level.clamp(1, reversi_engine::levels::MAX_LEVEL)).limits(0);
        limits.noise = 0;
        limits.wld_empties = limits.exact_empties;
        limits.time = Some(
            per_search
                .min(time_cap(level))
                .mul_f64(self.time_scale.max(0.001)),
        );
        limits
    }
}

/// Runs `f` when dropped (also when the search's future is dropped half-way).
fn scopeguard(f: impl FnOnce()) -> impl Drop {
    struct Guard<F: FnOnce()>(Option<F>);
    impl<F: FnOnce()> Drop for Guard<F> {
        fn drop(&mut self) {
            if let Some(f) = self.0.take() {
                f();
            }
        }
    }
    Guard(Some(f))
}
