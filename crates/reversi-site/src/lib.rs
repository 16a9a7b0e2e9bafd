//! The game site's rules, without HTTP, a database or a clock of its own.
//!
//! Every function here takes the current time as an argument (milliseconds since the Unix epoch,
//! [`Millis`]), so that the server, the tests and a replay of stored events all see the same
//! behaviour. The server wires these modules to storage and sockets.
//!
//! - [`clock`]: time controls, speed classes (RULES.md §6) and Fischer clocks;
//! - [`lag`]: how much of a player's network lag is given back, and the cap;
//! - [`rating`]: Glicko-2 with lichess's parameters, and the rated categories;
//! - [`account`]: usernames (characters, reserved names, look-alikes) and passwords (argon2id);
//! - [`country`]: the country codes a profile may name (a flag beside the name);
//! - [`email`]: the e-mail addresses accounts may give, and the one form they are compared in;
//! - [`seek`]: open challenges in the lobby and who may accept them;
//! - [`pairing`]: quick-pairing pools matched by rating, widened by waiting time;
//! - [`chat`]: what a chat message may be, and the flood limit;
//! - [`puzzle`]: the shipped puzzles, checking a player's moves, puzzle ratings, the daily one;
//! - [`tournament`]: tournaments' settings, life cycle, pairings (Swiss and round robin from
//!   `reversi-arena`, the arena format here) and standings;
//! - [`game`]: the game room's core: a game's record, the game being played (moves, clock
//!   presses, resignation, abort, undo, the claim of a win from a player who left), who is
//!   connected, and the state clients are shown.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod account;
pub mod chat;
pub mod clock;
pub mod country;
pub mod email;
pub mod game;
pub mod lag;
pub mod pairing;
pub mod presets;
pub mod puzzle;
pub mod rating;
pub mod seek;
pub mod tournament;

/// A moment, in milliseconds since the Unix epoch (or any fixed origin the caller keeps to).
pub type Millis = u64;
