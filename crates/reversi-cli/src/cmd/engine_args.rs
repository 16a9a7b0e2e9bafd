//! Options shared by the commands that run the engine.

use anyhow::Context;
use reversi_engine::levels::{timed, Level, MAX_LEVEL};
use reversi_engine::{Engine, EvalChoice, Learned, Limits};
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
    /// Evaluation for 8×8 Othello: `learned` (the weights in the binary), `hand` (hand-tuned), or
    /// a weights file made by `reversi train fit`.
    #[arg(long, default_value = "learned")]
    pub eval: String,
}

impl EngineArgs {
    /// The engine.
    pub fn engine(&self) -> anyhow::Result<Engine> {
        Ok(Engine::with_evaluator(
            self.hash,
            self.threads,
            eval_choice(&self.eval)?.evaluator(),
        ))
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

/// The evaluation named on a command line: `learned`, `hand`, or a weights file.
pub fn eval_choice(name: &str) -> anyhow::Result<EvalChoice> {
    match EvalChoice::named(name) {
        Ok(c) => Ok(c),
        Err(path) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read the weights file {path}"))?;
            let w = Learned::from_compressed(&bytes).with_context(|| path.to_string())?;
            Ok(EvalChoice::Weights(std::sync::Arc::new(w)))
        }
    }
}
