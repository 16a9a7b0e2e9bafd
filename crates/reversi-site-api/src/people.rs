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

/// The answer of `GET /api/users/{name}`: a player's profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Profile {
    /// The name.
    pub name: String,
    /// Whether the account is a bot.
    pub bot: bool,
    /// The country its owner named (ISO 3166-1 alpha-2).
    pub country: Option<String>,
    /// When the account was made (Unix ms).
    pub created_at: i64,
    /// Whether a moderator disabled it.
    pub disabled: bool,
    /// How many follow the player.
    pub followers: i64,
    /// Whether the player made a signed-in request in the last five minutes.
    pub online: bool,
    /// For a signed-in reader (not the player): whether the reader follows or blocks them.
    pub relation: Option<RelationView>,
    /// The rating of each category the player has played rated.
    pub ratings: Vec<CategoryRating>,
    /// The puzzle rating, once the player has tried a puzzle.
    pub puzzle: Option<PuzzleRating>,
    /// The rating after each rated game, newest first (at most 1,000).
    pub history: Vec<RatingPoint>,
    /// Results with each colour.
    pub results: ColourResultsView,
    /// The games being played now (at most 20).
    pub playing: Vec<ProfileGame>,
}

/// How a signed-in reader stands to a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RelationView {
    /// The reader follows the player.
    pub following: bool,
    /// The reader blocks the player.
    pub blocking: bool,
}

/// A player's rating in one category.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CategoryRating {
    /// The category (`blitz`, `xot`, …).
    pub category: String,
    /// The rating (rounded).
    pub rating: i64,
    /// Its deviation (rounded).
    pub deviation: i64,
    /// Whether it is still provisional (shown with "?").
    pub provisional: bool,
    /// Rated games in the category.
    pub games: u32,
}

/// A player's puzzle rating.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PuzzleRating {
    /// The rating (rounded).
    pub rating: i64,
    /// Its deviation (rounded).
    pub deviation: i64,
    /// Whether it is still provisional.
    pub provisional: bool,
    /// Puzzles tried.
    pub attempts: i64,
    /// Puzzles solved.
    pub solved: i64,
}

/// A point of a player's rating history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RatingPoint {
    /// The category.
    pub category: String,
    /// The game that brought it.
    pub game_id: String,
    /// When (Unix ms).
    pub at: i64,
    /// The rating after the game.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
}

/// Finished games with one colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ColourResult {
    /// Games won.
    pub wins: i64,
    /// Games lost.
    pub losses: i64,
    /// Games drawn.
    pub draws: i64,
}

/// Finished games with each colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ColourResultsView {
    /// With Black.
    pub black: ColourResult,
    /// With White.
    pub white: ColourResult,
}

/// A player the account follows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Followed {
    /// The name.
    pub name: String,
    /// Whether a bot.
    pub bot: bool,
    /// Whether they made a signed-in request in the last five minutes.
    pub online: bool,
    /// When they were last seen (Unix ms), if ever.
    pub seen_at: Option<i64>,
    /// The online games they play now (ids).
    pub playing: Vec<String>,
}

/// The answer of `GET /api/account/people`: whom the account follows and whom it blocks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MyPeople {
    /// The players followed, online first.
    pub following: Vec<Followed>,
    /// The names of the players blocked.
    pub blocked: Vec<String>,
}

/// Body of `POST /api/users/{name}/report`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ReportBody {
    /// `cheating`, `abuse`, `spam`, `name` or `other`.
    pub reason: String,
    /// What happened (at most 500 characters).
    pub text: String,
    /// The game it is about, if any.
    pub game: Option<String>,
}

/// The answer of `POST /api/users/{name}/report`: the report's number in the moderators' queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportFiled {
    /// The report's number.
    pub id: i64,
}
