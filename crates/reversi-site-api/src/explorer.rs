//! The game database's explorer (the analysis board's Database tab): the next moves of a
//! position with their results, the games that reached it, and the players' names.

use crate::Side;
use serde::{Deserialize, Serialize};

/// The answer of `GET /api/explorer`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExplorerView {
    /// Every next move played from the position, most played first.
    pub moves: Vec<ExplorerMove>,
    /// The games that reached the position (under the filters).
    pub total: i64,
    /// A page of those games.
    pub games: Vec<ExplorerGame>,
    /// Where the page starts.
    pub offset: u32,
    /// The side to move in the position; `null` once the game is over.
    pub to_move: Option<Side>,
    /// Present (`true`) when nothing is found because the database holds no game at all (the
    /// page then says how to fill it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub empty: bool,
}

/// A next move of the explorer and how the games that played it went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExplorerMove {
    /// The square, in the position's own frame (`c4`).
    #[serde(rename = "move")]
    pub square: String,
    /// Games that played it.
    pub games: i64,
    /// Their share of the position's games (0 to 1).
    pub share: f64,
    /// Of those, Black won…
    pub black_wins: i64,
    /// …drew…
    pub draws: i64,
    /// …and lost.
    pub black_losses: i64,
    /// The mean of Black's final disc difference, to a tenth.
    pub mean_margin: f64,
    /// The players who played it most (up to three), of the side to move.
    pub players: Vec<String>,
}

/// A game of the database that reached the position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExplorerGame {
    /// Its number in the database (`GET /api/explorer/games/{id}`).
    pub id: i64,
    /// The ply at which it stood in the position (0: before the first move).
    pub ply: i32,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The tournament.
    pub tournament: String,
    /// The year.
    pub year: i32,
    /// Black's final disc difference.
    pub margin: i32,
    /// Where it came from: `wthor`, `ggf` or `site`.
    pub source: String,
    /// Its moves from the start (`f5d6c3…`).
    pub moves: String,
    /// The move it played next, in the position's frame (`null` at its end).
    pub next: Option<String>,
}

/// The answer of `GET /api/explorer/games/{id}`: one game of the database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DatabaseGame {
    /// Its number in the database.
    pub game: i64,
    /// Always 0 here (the explorer's lists give the ply of the position).
    pub ply: i32,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The tournament.
    pub tournament: String,
    /// The year.
    pub year: i32,
    /// Black's final disc difference.
    pub margin: i32,
    /// Where it came from: `wthor`, `ggf` or `site`.
    pub source: String,
    /// Its moves from the start.
    pub moves: String,
}

/// The answer of `GET /api/explorer/players`: players of the database whose name matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExplorerPlayers {
    /// Up to ten, with the most games first.
    pub players: Vec<ExplorerPlayer>,
}

/// A player of the database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExplorerPlayer {
    /// The name as the database has it.
    pub name: String,
    /// Their games there.
    pub games: i64,
}
