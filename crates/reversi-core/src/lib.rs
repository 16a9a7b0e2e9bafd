//! The rules of Reversi/Othello and all its variants (RULES.md): squares, bitboards, move
//! generation, positions, games, symmetries, hashing, notation and game records.
//!
//! This crate does no I/O: parsers take text or bytes, writers return them.
//!
//! ```
//! use reversi_core::{Bits, Game, Rules};
//! let mut game = Game::from_transcript(Rules::othello(), "f5d6c3d3c4").unwrap();
//! assert_eq!(game.legal_moves().squares().count(), 6);
//! game.undo();
//! assert_eq!(game.transcript(), "f5d6c3d3");
//! ```
#![warn(missing_docs)]
// Every `unsafe` block states the invariant it relies on (the audit of issue 27).
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod bitboard;
pub mod bits;
pub mod color;
pub mod format;
pub mod game;
pub mod notation;
pub mod openings;
pub mod perft;
pub mod position;
pub mod quote;
pub mod rules;
pub mod square;
pub mod symmetry;

pub use bits::{Bits, WideBits};
pub use color::Color;
pub use game::{Game, GameError};
pub use position::{AnyPosition, IllegalMove, Outcome, Position};
pub use quote::clip;
pub use rules::{Goal, Rules, TieRule, Variant, VariantError};
pub use square::{Move, Square};
pub use symmetry::Symmetry;
