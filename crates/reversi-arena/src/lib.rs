//! Tournaments between Othello engines: the built-in engine at any level or time per move, and
//! external engines started as processes speaking GTP or NBoard (another `reversi`, Edax, Ntest).
//!
//! - [`player`]: players files (TOML), starting players, talking to external engines with time
//!   limits; an engine that crashes, hangs or plays an illegal move forfeits the game.
//! - [`clock`]: Fischer clocks for timed games (initial time + increment, in seconds).
//! - [`pairing`]: the Swiss pairer and round-robin (Berger) schedules, shared with the game
//!   site's tournaments;
//! - [`schedule`]: which games an engine tournament plays (round robin, gauntlet, Swiss rounds);
//!   XOT or custom openings, each played twice with the colours swapped.
//! - [`run`]: playing the games in parallel, saving each as GGF and the progress in a state file,
//!   so that an interrupted tournament can be resumed.
//! - [`table`]: the crosstable (points, discs, Brightwell quotient, Elo difference per pair with a
//!   95 % interval) as text, Markdown, HTML and JSON.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod clock;
pub mod pairing;
pub mod player;
pub mod run;
pub mod schedule;
pub mod table;

pub use clock::Fischer;
pub use player::{PlayerSpec, PlayersFile, Protocol};
pub use run::{ArenaError, Event, Tournament};
pub use schedule::Format;
pub use table::{Crosstable, GameRecord};
