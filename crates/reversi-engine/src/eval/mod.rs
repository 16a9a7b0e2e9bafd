//! Evaluation: how good a position is for the side to move, in discs.
//!
//! [`Evaluator`] is the interface the search uses, so a better evaluation (the learned pattern
//! one of a later issue) can be dropped in. [`HandTuned`] is the 8×8 evaluation shipped now;
//! [`generic`] evaluates any variant's board.

pub mod generic;
mod hand;

pub use hand::HandTuned;

/// Scores 8×8 positions for the side to move (`p`) against `o`: an estimate of the final disc
/// difference, clamped to ±63.
pub trait Evaluator: Send + Sync {
    /// The estimate. `p` has at least one legal move or the position is a pass.
    fn eval(&self, p: u64, o: u64) -> i32;
    /// A short name for logs and `--help`.
    fn name(&self) -> &'static str;
}
