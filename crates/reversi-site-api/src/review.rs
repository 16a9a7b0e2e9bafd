//! A finished game's analysis by the server (`POST /api/games/{id}/analysis`, `GET …/analysis`,
//! and the `analysis` message of the page socket): every move against the engine's choice.

use crate::analysis::Fact;
use serde::{Deserialize, Serialize};

/// The verdict on one move (passes are not analysed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AnalysedMove {
    /// 1-based ply of the move (passes count).
    pub ply: i64,
    /// `black` or `white`: who played it.
    pub player: String,
    /// The move played.
    pub played: String,
    /// The engine's choice.
    pub best: String,
    /// The score of the move played, discs for the player (the final margin when exact).
    pub played_score: i64,
    /// The score of the best move for the player.
    pub best_score: i64,
    /// Discs lost by the move played: `best_score - played_score` (0 for a best move).
    pub loss: i64,
    /// Whether both scores are exact endgame results.
    pub exact: bool,
    /// The coach's sentences about the move (empty for analyses made before the coach).
    pub facts: Vec<Fact>,
}

/// Moves analysed of moves to analyse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AnalysisProgress {
    /// Analysed.
    pub done: usize,
    /// To analyse in all.
    pub total: usize,
}

/// One of a player's largest mistakes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Mistake {
    /// 1-based ply.
    pub ply: usize,
    /// The move played.
    pub played: String,
    /// The engine's move.
    pub best: String,
    /// Discs lost.
    pub loss: i32,
}

/// One player's totals, as `reversi analyze` prints them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayerTotals {
    /// Discs lost over all their moves.
    pub total_loss: i32,
    /// Moves analysed.
    pub moves: usize,
    /// Moves that lost something.
    pub mistakes: usize,
    /// The largest losses, largest first (up to three).
    pub worst: Vec<Mistake>,
}

/// Both players' totals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AnalysisTotals {
    /// Black's.
    pub black: PlayerTotals,
    /// White's.
    pub white: PlayerTotals,
}

/// A game's analysis: its status and the moves analysed so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameAnalysis {
    /// The game.
    pub game_id: String,
    /// `none` (never asked for), `queued`, `running`, `done` or `failed`.
    pub status: String,
    /// The engine level it runs at.
    pub level: Option<i64>,
    /// Why it failed.
    pub error: Option<String>,
    /// Moves analysed so far and moves to analyse.
    pub progress: AnalysisProgress,
    /// The verdict on each move analysed so far, in order.
    pub moves: Vec<AnalysedMove>,
    /// Black's score after each analysed move (the played move's score from Black's side): the
    /// series the evaluation chart draws.
    pub black_scores: Vec<i64>,
    /// Each player's totals over the moves analysed so far.
    pub summary: AnalysisTotals,
    /// When it was asked for (Unix seconds).
    pub requested_at: Option<i64>,
    /// When it (last) started.
    pub started_at: Option<i64>,
    /// When it ended.
    pub finished_at: Option<i64>,
}

/// A message of the socket of a page that follows stored news (`GET /api/tournaments/ws`,
/// `/api/tournaments/{id}/ws`, `/api/games/{id}/analysis/ws`, `/api/account/ws`): the body of
/// the page's `GET`, sent on connecting and after every change of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum PageEvent {
    /// The tournaments list (`GET /api/tournaments`).
    Tournaments {
        /// The list.
        tournaments: crate::TournamentList,
    },
    /// One tournament (`GET /api/tournaments/{id}`).
    Tournament {
        /// Its page's state.
        tournament: Box<crate::TournamentView>,
    },
    /// A game's analysis (`GET /api/games/{id}/analysis`); the socket closes once it is done.
    Analysis {
        /// The analysis.
        analysis: GameAnalysis,
    },
    /// The signed-in account's games and challenges (`GET /api/account/games`).
    Games {
        /// Them.
        games: crate::MyGames,
    },
}
