//! One module per subcommand.

pub mod analyze;
pub mod bench;
pub mod best;
pub mod calibrate;
pub mod convert;
mod engine_args;
pub mod gtp;
pub mod nboard;
pub mod perft;
pub mod play;
mod play_text;
pub mod serve;
pub mod show;
pub mod solve;
pub mod tournament;
