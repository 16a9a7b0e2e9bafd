//! Engine sessions for the programs that drive Othello engines: the NBoard protocol (the NBoard
//! GUI, Edax, Ntest) and GTP version 2 adapted to Othello (match tools such as GoGui's twogtp and
//! our own tournament runner).
//!
//! A session reads commands line by line from any [`std::io::BufRead`] and writes its replies to
//! any [`std::io::Write`]; the `reversi nboard` and `reversi gtp` commands connect them to stdin and
//! stdout, tests connect them to byte buffers. No process is spawned here.
//!
//! ```
//! use reversi_protocol::gtp::GtpSession;
//! use reversi_protocol::EngineSettings;
//! let mut session = GtpSession::new(EngineSettings { level: 1, ..EngineSettings::default() }).unwrap();
//! let mut out = Vec::new();
//! session.run(&b"play black d3\nshowboard\nquit\n"[..], &mut out).unwrap();
//! assert!(String::from_utf8(out).unwrap().starts_with("=\n\n"));
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod gtp;
pub mod lines;
pub mod nboard;
#[cfg(test)]
mod test_io;
mod think;

pub use think::{best_moves, ponder, think, EngineSettings, RankedMove, Reach};
