//! One module per subcommand.

pub mod convert;
pub mod perft;
pub mod show;
