//! The lobby: seeks and challenges, the quick-pairing pools, and what the lobby's socket pushes.

use crate::ApiError;
use serde::{Deserialize, Serialize};

/// Body of `POST /api/seeks`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct NewSeek {
    /// The variant preset (default `othello`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The time control: `5+3` (minutes + seconds per move) or `3d` (days per move).
    pub control: String,
    /// Rated (accounts only) or casual (default).
    pub rated: bool,
    /// `black`, `white` or `random` (default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// The ratings accepted, `[low, high]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<(u16, u16)>,
    /// A challenge: the name of the only player who may accept it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}

/// A seek as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeekView {
    /// Its id.
    pub id: String,
    /// The owner's name (`null`: a guest).
    pub name: Option<String>,
    /// Whether the owner is a bot.
    pub bot: bool,
    /// The owner's rating in the category, if rated there.
    pub rating: Option<i32>,
    /// The variant preset.
    pub variant: String,
    /// The time control.
    pub control: String,
    /// Its speed class (`bullet`, `blitz`, `rapid`, `classical`, `correspondence`).
    pub speed: String,
    /// Rated or casual.
    pub rated: bool,
    /// The owner's colour: `black`, `white` or `random`.
    pub colour: String,
    /// The ratings accepted.
    pub range: Option<(i64, i64)>,
    /// Whether the caller made it.
    pub mine: bool,
    /// Whether it is a challenge addressed to the caller.
    pub for_you: bool,
    /// When it was made (Unix ms).
    pub created_at: i64,
}

/// A quick-pairing pool and how many wait in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PoolCount {
    /// Its time control.
    pub control: String,
    /// Players waiting.
    pub waiting: u64,
}

/// A seek of the caller's that became a game (in the last minute).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StartedGame {
    /// The seek.
    pub seek: String,
    /// The game it became.
    pub game: String,
}

/// A challenge of the caller's that its player declined (in the last minute).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeclinedChallenge {
    /// The challenge (a seek's id).
    pub seek: String,
    /// The name of the player who declined it.
    pub by: String,
}

/// The answer of `GET /api/lobby` (and the `lobby` of the lobby socket's messages).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LobbyView {
    /// The open seeks the caller may see (challenges only to their two players).
    pub seeks: Vec<SeekView>,
    /// The pools, in the home page's order.
    pub pools: Vec<PoolCount>,
    /// The pool the caller waits in.
    pub waiting_in: Option<String>,
    /// How long the caller has waited there (ms, when this was sent): the rating range they
    /// accept widens with it (`GET /api/meta`'s `pairing`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waited_ms: Option<u64>,
    /// The caller's seeks that became games.
    pub started: Vec<StartedGame>,
    /// The caller's challenges that were declined.
    #[serde(default)]
    pub declined: Vec<DeclinedChallenge>,
}

/// The answer of `POST /api/pools/{control}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PoolEntry {
    /// The pool.
    pub pool: String,
    /// The caller's entry in it (a seek).
    pub id: String,
}

/// A player of a game being played now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LivePlayer {
    /// The name (`null`: a guest).
    pub name: Option<String>,
    /// The rating when the game started, for accounts.
    pub rating: Option<i32>,
    /// Whether that rating was provisional.
    pub provisional: bool,
    /// Whether the player is a bot.
    pub bot: bool,
}

/// A game being played now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LiveGame {
    /// The game.
    pub id: String,
    /// Its variant.
    pub variant: String,
    /// Its time control (`null`: none).
    pub control: Option<String>,
    /// Moves played.
    pub moves: i64,
    /// Black.
    pub black: LivePlayer,
    /// White.
    pub white: LivePlayer,
    /// Spectators, at every instance.
    pub watchers: u32,
}

/// The answer of `GET /api/live`: the online games in progress (at most 100) and the featured
/// one, the highest rated.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LiveGames {
    /// The games, latest first.
    pub games: Vec<LiveGame>,
    /// The featured game.
    pub featured: Option<String>,
    /// How many accounts were on the site in the last five minutes.
    #[serde(default)]
    pub players_online: i64,
}

/// A message of the lobby's socket, server to client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LobbyEvent {
    /// The lobby as the visitor sees it, after a change (and on connecting).
    Lobby {
        /// The lobby.
        lobby: LobbyView,
    },
    /// The games being played now.
    Live {
        /// The body of `GET /api/live`.
        live: LiveGames,
    },
    /// Something failed.
    Error(ApiError),
    /// The answer to `ping`.
    Pong,
}
