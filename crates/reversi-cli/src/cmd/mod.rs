//! One module per subcommand.

pub mod analyze;
pub mod bench;
pub mod best;
pub mod book;
pub mod bot;
pub mod calibrate;
pub mod convert;
pub mod db;
pub mod diagram;
mod engine_args;
pub mod eval;
pub mod evaltest;
pub mod gtp;
pub mod nboard;
pub mod perft;
pub mod play;
mod play_text;
pub mod print;
pub mod puzzle;
pub mod serve;
pub mod show;
pub mod solve;
pub mod tournament;
pub mod train;
