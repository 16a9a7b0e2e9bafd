//! Evaluation: how good a position is for the side to move, in discs.
//!
//! [`Evaluator`] is the interface the search uses. [`Learned`] is the pattern evaluation trained
//! from data (`reversi train`), the default for 8×8 Othello; [`HandTuned`] is the hand-set one;
//! [`generic`] evaluates any variant's board.

pub mod generic;
mod hand;
pub mod learned;
pub mod pattern;

pub use hand::HandTuned;
pub use learned::{Learned, WeightsError};
use pattern::Indices;

/// Evaluates the children of one position. With the learned evaluation the position's pattern
/// indices are read once (or handed down by its parent) and each child's follow from its move;
/// any other evaluation reads each child's board.
pub struct Children<'a> {
    ev: &'a dyn Evaluator,
    indexed: Option<(&'a Learned, Indices)>,
}

impl<'a> Children<'a> {
    /// The children of `(p, o)`. `given` are its indices when the caller has them; otherwise
    /// they are read from the board when `several` children are to be evaluated (for one,
    /// reading the child's own board costs the same).
    #[inline]
    pub fn new(
        ev: &'a dyn Evaluator,
        p: u64,
        o: u64,
        several: bool,
        given: Option<&Indices>,
    ) -> Children<'a> {
        let indexed = ev.learned().and_then(|l| match given {
            Some(idx) => Some((l, *idx)),
            None => several.then(|| (l, Indices::of(p, o))),
        });
        Children { ev, indexed }
    }

    /// The evaluation of the child `(np, no)` reached by playing `sq`, flipping `flips`.
    #[inline]
    pub fn eval(&self, sq: u32, flips: u64, np: u64, no: u64) -> i32 {
        match &self.indexed {
            Some((l, idx)) => l.eval_child(idx, sq, flips, np, no),
            None => self.ev.eval(np, no),
        }
    }

    /// The indices of the child reached by playing `sq`, flipping `flips`, to hand down to it.
    #[inline]
    pub fn after(&self, sq: u32, flips: u64) -> Option<Indices> {
        self.indexed.as_ref().map(|(_, idx)| idx.after(sq, flips))
    }
}

/// Scores 8×8 positions for the side to move (`p`) against `o`: an estimate of the final disc
/// difference, clamped to ±63.
pub trait Evaluator: Send + Sync {
    /// The estimate. `p` has at least one legal move or the position is a pass.
    fn eval(&self, p: u64, o: u64) -> i32;
    /// A short name for logs and `--help`.
    fn name(&self) -> &'static str;
    /// The learned evaluation behind this one, if it is one: a search may then keep its pattern
    /// indices up to date move by move instead of reading each board afresh.
    fn learned(&self) -> Option<&Learned> {
        None
    }
}

/// Which evaluation an engine uses, chosen at run time (from a command line or a players file).
#[derive(Clone, Debug, Default)]
pub enum EvalChoice {
    /// The learned weights shipped in the binary.
    #[default]
    Learned,
    /// The hand-tuned evaluation.
    HandTuned,
    /// Learned weights read from a file (`--eval FILE`).
    Weights(std::sync::Arc<Learned>),
}

impl PartialEq for EvalChoice {
    fn eq(&self, other: &EvalChoice) -> bool {
        match (self, other) {
            (EvalChoice::Learned, EvalChoice::Learned) | (EvalChoice::HandTuned, EvalChoice::HandTuned) => {
                true
            }
            (EvalChoice::Weights(a), EvalChoice::Weights(b)) => std::sync::Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl EvalChoice {
    /// Parses `learned` or `hand`; anything else is a weights file for the caller to read
    /// (`Err` carries it back).
    pub fn named(name: &str) -> Result<EvalChoice, &str> {
        match name {
            "learned" => Ok(EvalChoice::Learned),
            "hand" | "hand-tuned" => Ok(EvalChoice::HandTuned),
            other => Err(other),
        }
    }

    /// The evaluator.
    pub fn evaluator(&self) -> Box<dyn Evaluator> {
        match self {
            EvalChoice::Learned => Box::new(Learned::embedded()),
            EvalChoice::HandTuned => Box::new(HandTuned),
            EvalChoice::Weights(w) => Box::new(w.clone()),
        }
    }
}

impl<E: Evaluator + ?Sized> Evaluator for std::sync::Arc<E> {
    fn eval(&self, p: u64, o: u64) -> i32 {
        (**self).eval(p, o)
    }
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn learned(&self) -> Option<&Learned> {
        (**self).learned()
    }
}

impl<E: Evaluator + ?Sized> Evaluator for &E {
    fn eval(&self, p: u64, o: u64) -> i32 {
        (**self).eval(p, o)
    }
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn learned(&self) -> Option<&Learned> {
        (**self).learned()
    }
}
