//! The engine: evaluation, midgame search, the exact endgame solver and levels.
//!
//! It knows nothing of I/O: callers hand it positions and get moves, scores and statistics back.
#![warn(missing_docs)]
// Every `unsafe` block states the invariant it relies on (the audit of issue 27).
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod analyze;
pub mod bench;
pub mod book;
pub mod busy;
pub mod clock;
pub mod coach;
pub mod endgame;
pub mod eval;
pub mod evaluate;
pub mod exercise;
mod kernel;
pub mod levels;
mod local_tt;
pub mod position_search;
pub mod probcut;
mod pvs;
mod resources;
pub mod search;
pub mod solve_time;
pub mod stability;
mod ternary;
pub mod time;
pub mod tt;
pub mod variant;

pub use book::Book;
pub use eval::{EvalChoice, Evaluator, HandTuned, Learned};
pub use position_search::PositionResult;
pub use resources::{ResourceError, MAX_THREADS};
pub use search::{Engine, Limits, Progress, SearchKind, SearchResult};
