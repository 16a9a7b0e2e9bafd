//! The site's API as types. Everything `reversi serve` answers and takes over HTTP and its
//! websockets has a type here, shared by the server (which builds them) and its clients —
//! `reversi bot`, the load tester, the tests — so that a change of the wire format is a change
//! of one type, seen by every side at compile time. Plain data with serde: no logic, no I/O.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod account;
pub mod analysis;
pub mod error;
pub mod explorer;
pub mod game;
pub mod learn;
pub mod lobby;
pub mod meta;
pub mod moderation;
pub mod people;
pub mod play;
pub mod puzzle;
pub mod review;
pub mod tournament;

pub use account::*;
pub use error::ApiError;
pub use explorer::*;
pub use game::*;
pub use learn::*;
pub use lobby::*;
pub use meta::{Limits, PairingWindow, PoolMeta, SiteMeta};
pub use moderation::*;
pub use people::*;
pub use play::*;
pub use puzzle::*;
pub use review::*;
pub use tournament::*;
