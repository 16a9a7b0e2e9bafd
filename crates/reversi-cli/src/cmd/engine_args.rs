//! Options shared by the commands that run the engine.

use reversi_engine::levels::{timed, Level, MAX_LEVEL};
use reversi_engine::{Engine, Limits};
use std::time::Duration;

/// Strength and resources of the engine.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Playing level, 1 (beginner) to 30 (strongest); see the README's level table.
    #[arg(long, short = 'l', default_value_t = 12,
          value_parser = clap::value_parser!(u32).range(1..=MAX_LEVEL as i64), conflicts_with = "time")]
    pub level: u32,
    /// Think for this many seconds per position instead of a level.
    #[arg(long)]
    pub time: Option<f64>,
    /// Search threads.
    #[arg(long, short = 't', default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 128)]
    pub hash: usize,
}

impl EngineArgs {
    /// The engine.
    pub fn engine(&self) -> Engine {
        Engine::new(self.hash, self.threads)
    }

    /// The search limits.
    pub fn limits(&self, seed: u64) -> Limits {
        match self.time {
            Some(t) => timed(Duration::from_secs_f64(t.max(0.001))),
            None => Level::new(self.level).limits(seed),
        }
    }
}

/// A score for people: `+12`, or `win`/`draw`/`loss` for a win/loss/draw result.
pub fn score_text(score: i32, kind: reversi_engine::SearchKind) -> String {
    use reversi_engine::SearchKind::*;
    match kind {
        WinLossDraw => match score.signum() {
            1 => "win".into(),
            0 => "draw".into(),
            _ => "loss".into(),
        },
        Exact => format!("{score:+} (exact)"),
        Midgame => format!("{score:+}"),
    }
}
