//! Players in public: a player's list of games as their profile shows it, and the
//! leaderboards.

use crate::{GameStatus, Side};
use serde::{Deserialize, Serialize};

/// How a finished game went for the player whose list it is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The player won.
    Win,
    /// The player lost.
    Loss,
    /// Neither won.
    Draw,
}

/// The other side of a game in a player's list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Opponent {
    /// The account's name (`null`: a guest, a deleted account, or the computer).
    pub name: Option<String>,
    /// Its rating in the game's category when the game started, for accounts.
    pub rating: Option<i32>,
    /// Whether that rating was provisional.
    pub provisional: bool,
    /// Whether the opponent is a bot account.
    pub bot: bool,
    /// The computer's level, when the opponent is the site's engine.
    pub level: Option<i64>,
}

/// One game of a player's list, seen from that player: opponent, ratings, time control, result
/// and rating change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProfileGame {
    /// The game id.
    pub id: String,
    /// The variant preset.
    pub variant: String,
    /// `online`, `ai`, `friend` or `local`.
    pub mode: String,
    /// Being played, finished, or ended without a result (aborted games are not listed).
    pub status: GameStatus,
    /// Whether the game is rated.
    pub rated: bool,
    /// The colour the player had.
    pub color: Side,
    /// The other side.
    pub opponent: Opponent,
    /// The player's rating when the game started, for a rated or online game.
    pub rating: Option<i32>,
    /// Whether that rating was provisional.
    pub provisional: bool,
    /// The rating change the game brought the player, once applied.
    pub diff: Option<i32>,
    /// The time control (`5+3`, `3d`), for a timed game.
    pub control: Option<String>,
    /// How it went for the player, once finished.
    pub outcome: Option<Outcome>,
    /// Black's discs (the final count once finished).
    pub black_count: i64,
    /// White's discs.
    pub white_count: i64,
    /// `black`, `white`, or `null` (a draw, or not finished).
    pub winner: Option<String>,
    /// Moves played, passes included.
    pub move_count: i64,
    /// When the game ended (Unix seconds), or its last change while it is played.
    pub at: i64,
}

/// The answer of `GET /api/users/{name}/games`: a page of the player's games, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProfileGames {
    /// The games of this page.
    pub games: Vec<ProfileGame>,
    /// How many games match the filter in all.
    pub total: i64,
    /// How many were skipped.
    pub offset: u32,
    /// The most this page holds.
    pub limit: u32,
}

/// A line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BoardLine {
    /// The player's name.
    pub name: String,
    /// The rating (rounded).
    pub rating: i64,
    /// Its deviation (rounded).
    pub deviation: i64,
    /// Rated games in the category.
    pub games: i64,
    /// Whether the player is a bot.
    pub bot: bool,
    /// The player's country (ISO 3166-1 alpha-2), if named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
}

/// The answer of `GET /api/leaderboard/{category}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Leaderboard {
    /// The rated category.
    pub category: String,
    /// The best established players (rating deviation below the provisional mark), best first.
    pub players: Vec<BoardLine>,
    /// The best players whose rating is still provisional (too few games, or idle long
    /// enough for its deviation to grow back), best first: shown apart, so that a young site's
    /// board is not empty.
    pub provisional: Vec<BoardLine>,
}
