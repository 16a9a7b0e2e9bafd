//! The game room's core: a game's record (who plays, the seats, how it ended), the game being
//! played ([`LiveGame`]: moves, clock presses, resignation, abort, undo, the claim of a win)
//! and the state clients are shown ([`reversi_site_api::GameView`]). Pure: the rules come from
//! `reversi-core`, the clocks and ratings from this crate; the time is an argument everywhere;
//! nothing here knows of HTTP, storage or the wall clock.

pub mod conditional;
mod error;
mod live;
pub mod online;
pub mod presence;
mod record;
#[cfg(test)]
mod tests;
mod view;

pub use error::GameError;
pub use live::{next_version, LiveGame, TakebackAsked};
pub use record::{constant_time_eq, GameRecord, VoidEnd};
pub use reversi_site_api::{Mode, PlayerKind};
pub use view::{parse_color, side, side_opt};

/// Result of the game core's actions.
pub type Result<T, E = GameError> = std::result::Result<T, E>;
