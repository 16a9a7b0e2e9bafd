//! Options shared by the commands that run the engine.

use anyhow::Context;
use reversi_engine::levels::{parse_seconds, timed, Level, MAX_LEVEL};
use reversi_engine::tt::MAX_HASH_MIB;
use reversi_engine::Book;
use reversi_engine::{Engine, EvalChoice, Learned, Limits, MAX_THREADS};
use std::sync::Arc;
use std::time::Duration;

/// Strength and resources of the engine.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Playing level, 1 (beginner) to 30 (strongest); see the README's level table.
    #[arg(long, short = 'l', default_value_t = 12,
          value_parser = clap::value_parser!(u32).range(1..=MAX_LEVEL as i64), conflicts_with = "time")]
    pub level: u32,
    /// Think for this many seconds per position instead of a level (more than 0, at most a
    /// week).
    #[arg(long, value_parser = positive_seconds)]
    pub time: Option<Duration>,
    /// Search threads (1–256).
    #[arg(long, short = 't', default_value_t = 1, value_parser = threads)]
    pub threads: usize,
    /// Transposition table size in MiB (1–65536).
    #[arg(long, default_value_t = 128, value_parser = hash_mib)]
    pub hash: usize,
    /// Evaluation for 8×8 Othello: `learned` (the weights in the binary), `hand` (hand-tuned), or
    /// a weights file made by `reversi train fit`.
    #[arg(long, default_value = "learned")]
    pub eval: String,
    /// Opening book: `default` (the one in the binary), `off`, or a file made by `reversi book`.
    /// Levels from 5 up play from it.
    #[arg(long, default_value = "default")]
    pub book: String,
}

impl EngineArgs {
    /// The engine.
    pub fn engine(&self) -> anyhow::Result<Engine> {
        let mut engine =
            Engine::with_evaluator(self.hash, self.threads, eval_choice(&self.eval)?.evaluator())?;
        engine.set_book(self.book()?);
        Ok(engine)
    }

    /// The opening book `--book` names.
    pub fn book(&self) -> anyhow::Result<Option<Arc<Book>>> {
        book_choice(&self.book)
    }

    /// The search limits.
    pub fn limits(&self, seed: u64) -> Limits {
        match self.time {
            Some(t) => timed(t),
            None => Level::new(self.level).limits(seed),
        }
    }
}

/// `--time`: seconds, more than 0 and at most a week.
pub fn positive_seconds(s: &str) -> Result<Duration, String> {
    parse_seconds(s, false).map_err(|e| e.to_string())
}

/// `--threads`: 1..=[`MAX_THREADS`].
pub fn threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "the thread count must be a whole number from 1 to {MAX_THREADS}"
        )),
    }
}

/// `--hash`: MiB, 1..=[`MAX_HASH_MIB`].
pub fn hash_mib(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_HASH_MIB).contains(&n) => Ok(n),
        _ => Err(format!(
            "the table size must be a whole number of MiB from 1 to {MAX_HASH_MIB}"
        )),
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
        Book => format!("{score:+} (book)"),
    }
}

/// The evaluation named on a command line: `learned`, `hand`, or a weights file.
pub fn eval_choice(name: &str) -> anyhow::Result<EvalChoice> {
    match EvalChoice::named(name) {
        Ok(c) => Ok(c),
        Err(path) => {
            let bytes = crate::input::read_weights(path)?;
            let w = Learned::from_compressed(&bytes).with_context(|| path.to_string())?;
            Ok(EvalChoice::Weights(std::sync::Arc::new(w)))
        }
    }
}

/// The opening book named on a command line: `default`, `off`, or a book file.
pub fn book_choice(name: &str) -> anyhow::Result<Option<Arc<Book>>> {
    match name {
        "off" | "none" => Ok(None),
        "default" => Ok(Some(Book::embedded_shared())),
        path => Ok(Some(load_book(path)?)),
    }
}

/// Reads a book file, or the shipped one for `default` (shared, not copied).
pub fn load_book(path: &str) -> anyhow::Result<Arc<Book>> {
    if path == "default" {
        return Ok(Book::embedded_shared());
    }
    let bytes = crate::input::read_bytes(path)?;
    let book = Book::from_compressed(&bytes).with_context(|| format!("cannot read the book {path}"))?;
    Ok(Arc::new(book))
}
