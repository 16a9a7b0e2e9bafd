//! Puzzles (`/puzzles`): `GET /api/puzzles`, `GET /api/puzzles/next`, `GET /api/puzzles/daily`,
//! `GET /api/puzzles/{id}`, `POST /api/puzzles/{id}/moves` and the pack for play without a
//! network, `GET /api/puzzles/pack`. The boards are [`LessonBoard`]s (8 × 8).

use crate::analysis::Fact;
use crate::LessonBoard;
use serde::{Deserialize, Serialize};

/// How many puzzles have one theme.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ThemeCount {
    /// The theme (`corner`, `parity`, …).
    pub theme: String,
    /// How many shipped puzzles have it.
    pub count: usize,
}

/// A player's puzzle rating now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PuzzleRatingNow {
    /// The rating (rounded).
    pub rating: i64,
    /// Its deviation (rounded; it grows while the player is away).
    pub deviation: i64,
    /// Whether it is still provisional.
    pub provisional: bool,
}

/// One of a player's attempts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PuzzleAttempt {
    /// The puzzle.
    pub puzzle: i64,
    /// Whether it was solved.
    pub solved: bool,
    /// The rating change it brought.
    pub diff: i64,
    /// When (Unix ms).
    pub at: i64,
}

/// A signed-in player's puzzles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MyPuzzles {
    /// The puzzle rating.
    pub rating: PuzzleRatingNow,
    /// Puzzles tried (rated attempts: each puzzle's first).
    pub attempts: i64,
    /// Of them solved.
    pub solved: i64,
    /// The latest attempts, newest first (at most 20).
    pub recent: Vec<PuzzleAttempt>,
}

/// The answer of `GET /api/puzzles`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PuzzleOverview {
    /// How many puzzles ship.
    pub count: usize,
    /// Every theme with its count.
    pub themes: Vec<ThemeCount>,
    /// Today's puzzle (UTC).
    pub daily: i64,
    /// The caller's rating and attempts (`null` for a guest).
    pub me: Option<MyPuzzles>,
}

/// A puzzle to solve: the position and what to do, never the solution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PuzzleView {
    /// Its number (1, 2, …).
    pub id: i64,
    /// The position.
    pub board: LessonBoard,
    /// The side the player moves for (`black`, `white`).
    pub to_move: String,
    /// `win`: the solution is the only winning line; `best`: the only line to the best score.
    pub kind: String,
    /// Its themes.
    pub themes: Vec<String>,
    /// How many moves the player makes (the replies are played for them).
    pub player_moves: usize,
    /// Empty squares.
    pub empties: u32,
    /// The puzzle's rating (it moves with every rated attempt).
    pub rating: i64,
    /// Rated attempts so far.
    pub attempts: i64,
    /// Of them solved.
    pub solutions: i64,
    /// Where it comes from (`wthor:YEAR:GAME:PLY`).
    pub source: String,
    /// The year of the game it comes from.
    pub year: Option<i32>,
}

/// The answer of `GET /api/puzzles/next`, `/daily` and `/{id}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PuzzleAnswer {
    /// The puzzle.
    pub puzzle: PuzzleView,
}

/// A puzzle of the pack kept for play without a network (no solution: the browser's solver
/// judges each move by its exact value).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PackPuzzle {
    /// Its number.
    pub id: i64,
    /// The 64 squares from a1 (`X`, `O`, `-`), a space and the side to move (`X`, `O`).
    pub board: String,
    /// Whether it asks for a winning line (`true`) or the best move.
    pub win: bool,
    /// How many moves the player makes.
    pub moves: usize,
    /// Its rating as shipped.
    pub rating: i64,
    /// Its themes.
    pub themes: Vec<String>,
}

/// The answer of `GET /api/puzzles/pack`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PuzzlePack {
    /// The puzzles (the file's first 200).
    pub puzzles: Vec<PackPuzzle>,
}

/// The body of `POST /api/puzzles/{id}/moves`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PuzzleMoves {
    /// The player's moves so far, the replies left out; the last one is judged.
    pub moves: Vec<String>,
}

/// How a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum PuzzleStep {
    /// Right, and the puzzle goes on after the reply.
    Right,
    /// Right, and the puzzle is solved.
    Solved,
    /// Wrong: the puzzle ends.
    Wrong,
}

/// The rating change of an account's first attempt at a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PuzzleRatingChange {
    /// The rating before (rounded).
    pub before: i64,
    /// The rating after.
    pub after: PuzzleRatingNow,
    /// After minus before, as shown.
    pub diff: i64,
}

/// The answer of `POST /api/puzzles/{id}/moves`. While the puzzle goes on (`right`) it has the
/// reply; once it ends (`solved`, `wrong`) the solution, and for a wrong move the values that
/// say why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PuzzleResult {
    /// How the move did.
    pub step: PuzzleStep,
    /// The board after it.
    pub board: LessonBoard,
    /// `right`: the reply played for the opponent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
    /// `right`: the board after the reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_board: Option<LessonBoard>,
    /// Once ended: the whole line, replies included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<Vec<String>>,
    /// Once ended: the board after each move of the line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution_boards: Option<Vec<LessonBoard>>,
    /// Once ended: the exact final disc difference the solution reaches, for the player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// `wrong`: the value of the move played (discs, for the player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played_score: Option<i32>,
    /// `wrong`: the value of the solution's move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_score: Option<i32>,
    /// `wrong`: whether the two values are exact (solved to the end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<bool>,
    /// `wrong`: the coach's sentences about the move against the solution's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facts: Option<Vec<Fact>>,
    /// Once ended: whether the attempt moved ratings (an account's first attempt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
    /// A rated attempt: the player's rating change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<PuzzleRatingChange>,
    /// A rated attempt: the puzzle's rating after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle_rating: Option<i64>,
}
