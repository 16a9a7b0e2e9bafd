//! Game analysis: every move compared with the engine's choice, and what each mistake cost.

use crate::position_search::PositionResult;
use crate::search::{Engine, Limits, SearchKind};
use reversi_core::{AnyPosition, Color, Game, Move};
use std::sync::atomic::AtomicBool;

/// The verdict on one move of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis {
    /// 1-based ply of the move (passes count).
    pub ply: usize,
    /// Who played it.
    pub player: Color,
    /// The move played.
    pub played: Move,
    /// The engine's choice.
    pub best: Move,
    /// Score of the best move for the player, in discs.
    pub best_score: i32,
    /// Score of the move played for the player.
    pub played_score: i32,
    /// Discs lost by the move played (0 when it was as good as the best).
    pub loss: i32,
    /// Whether the scores are exact endgame results.
    pub exact: bool,
    /// The engine's line from the best move (it first).
    pub best_pv: Vec<Move>,
    /// The engine's line from the move played (it first).
    pub played_pv: Vec<Move>,
}

/// A player's totals.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PlayerSummary {
    /// Sum of the losses.
    pub total_loss: i32,
    /// Moves analysed.
    pub moves: usize,
    /// Moves that lost something.
    pub mistakes: usize,
    /// The plies of the largest losses, largest first (up to three).
    pub worst: Vec<(usize, i32)>,
}

/// Analyses every move of `game` from its start (passes are skipped) with `limits` per position.
/// `on_move` hears of each result as it is found.
pub fn analyze_game(
    engine: &Engine,
    game: &Game,
    limits: &Limits,
    stop: &AtomicBool,
    on_move: &mut dyn FnMut(&MoveAnalysis),
) -> Vec<MoveAnalysis> {
    // A review measures moves by search alone: a book move chosen within a margin would report
    // its own value, not the position's.
    let limits = &Limits {
        book_margin: None,
        ..limits.clone()
    };
    let mut out = Vec::new();
    for (i, &played) in game.moves().iter().enumerate() {
        let pos = *game.position_at(i).expect("recorded ply");
        if played == Move::Pass {
            continue;
        }
        let best = engine.search_position(&pos, limits, stop, &mut |_| {});
        let best_move = best.best.unwrap_or(played);
        let (played_score, played_pv) = if best_move == played {
            (best.score, best.pv.clone())
        } else {
            score_after(engine, &pos, played, limits, stop)
        };
        let a = MoveAnalysis {
            ply: i + 1,
            player: pos.side_to_move(),
            played,
            best: best_move,
            best_score: best.score.max(played_score),
            played_score,
            loss: (best.score - played_score).max(0),
            exact: best.kind == SearchKind::Exact,
            best_pv: best.pv,
            played_pv,
        };
        on_move(&a);
        out.push(a);
    }
    out
}

/// The player's score after playing `mv` in `pos`, searched one ply shallower, and the line
/// from `mv`.
fn score_after(
    engine: &Engine,
    pos: &AnyPosition,
    mv: Move,
    limits: &Limits,
    stop: &AtomicBool,
) -> (i32, Vec<Move>) {
    let mut next = *pos;
    next.play(mv).expect("a recorded move is legal");
    let child_limits = Limits {
        depth: limits.depth.saturating_sub(1).max(1),
        ..limits.clone()
    };
    let r: PositionResult = engine.search_position(&next, &child_limits, stop, &mut |_| {});
    let line = std::iter::once(mv).chain(r.pv.iter().copied()).collect();
    if next.side_to_move() == pos.side_to_move() {
        (r.score, line) // the opponent had to pass
    } else {
        (-r.score, line)
    }
}

/// Totals for one player.
pub fn summarize(moves: &[MoveAnalysis], player: Color) -> PlayerSummary {
    let mine: Vec<&MoveAnalysis> = moves.iter().filter(|m| m.player == player).collect();
    let mut worst: Vec<(usize, i32)> = mine
        .iter()
        .filter(|m| m.loss > 0)
        .map(|m| (m.ply, m.loss))
        .collect();
    worst.sort_by_key(|&(ply, loss)| (-loss, ply));
    worst.truncate(3);
    PlayerSummary {
        total_loss: mine.iter().map(|m| m.loss).sum(),
        moves: mine.len(),
        mistakes: mine.iter().filter(|m| m.loss > 0).count(),
        worst,
    }
}
