//! One module per subcommand.

pub mod analyze;
pub mod bench;
pub mod best;
pub mod convert;
mod engine_args;
pub mod perft;
pub mod show;
pub mod solve;
