//! One entry point for any position of any variant: the fast 8×8 engine where the rules are
//! plain Othello scoring, the generic variant search elsewhere.

use crate::search::{watched, Engine, Limits, Progress, SearchKind};
use crate::time::Instant;
use crate::tt::NO_MOVE;
use crate::variant::VariantSearch;
use reversi_core::{AnyPosition, Bits, Goal, Move, Position, Square, TieRule};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The answer of [`Engine::search_position`].
#[derive(Clone, Debug, PartialEq)]
pub struct PositionResult {
    /// The move to play; `Move::Pass` when the side must pass; `None` when the game is over.
    pub best: Option<Move>,
    /// Score for the side to move (discs; the final margin of RULES.md §1 when exact).
    pub score: i32,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Depth reached (plies, or empties for an endgame result).
    pub depth: u32,
    /// Confidence of the selective search in percent.
    pub selectivity_pct: u32,
    /// What the score means.
    pub kind: SearchKind,
    /// Positions visited.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// Whether `p` can use the fast 8×8 engine: a full board, shared discs, most discs wins.
pub fn is_plain_8x8(p: &Position<u64>) -> bool {
    p.playable() == u64::MAX && fast_solvable(p)
}

/// Whether `p`'s endgame can go to the fast solver with a mask: shared discs, most discs wins,
/// a tie is a draw (any board shape up to 8×8).
pub fn fast_solvable(p: &Position<u64>) -> bool {
    p.supply(p.side_to_move()).is_none()
        && !p.in_free_opening()
        && p.goal() == Goal::MostDiscs
        && p.tie_rule() == TieRule::Draw
}

fn bit_to_move(b: u8) -> Move {
    if b == NO_MOVE {
        Move::Pass
    } else {
        Move::Play(Square::from_bit8(b as u32))
    }
}

impl Engine {
    /// Searches any position within `limits`.
    pub fn search_position(
        &self,
        pos: &AnyPosition,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> PositionResult {
        let start = Instant::now();
        if pos.is_game_over() {
            return PositionResult {
                best: None,
                score: pos.score().margin(pos.side_to_move()),
                pv: Vec::new(),
                depth: 0,
                selectivity_pct: 100,
                kind: SearchKind::Exact,
                nodes: 0,
                elapsed: start.elapsed(),
            };
        }
        match pos {
            AnyPosition::Small(p) if is_plain_8x8(p) => {
                let me = p.side_to_move();
                if let Some(r) = self.book_move(p.discs(me), p.discs(!me), limits, start) {
                    return r;
                }
                let r = self.search(p.discs(me), p.discs(!me), limits, stop, progress);
                // A move whenever one is legal, even from a search stopped before its first answer.
                let best = match r.best {
                    Some(b) => bit_to_move(b),
                    None => pos.legal_moves().first().map_or(Move::Pass, Move::Play),
                };
                PositionResult {
                    best: Some(best),
                    score: r.info.score,
                    pv: r.info.pv.iter().map(|&b| bit_to_move(b)).collect(),
                    depth: r.info.depth,
                    selectivity_pct: r.info.selectivity_pct,
                    kind: r.info.kind,
                    nodes: r.info.nodes,
                    elapsed: start.elapsed(),
                }
            }
            AnyPosition::Small(p) if fast_solvable(p) && p.empties().count_ones() <= limits.exact_empties => {
                let me = p.side_to_move();
                let r = self.solve_masked(p.discs(me), p.discs(!me), p.playable(), false, stop);
                match r.best {
                    // Stopped early: fall back on the variant search's answer.
                    None if !p.legal_moves().is_empty() => self.variant(p, limits, stop, start),
                    best => PositionResult {
                        best: Some(best.map_or(Move::Pass, bit_to_move)),
                        score: r.info.score,
                        pv: r.info.pv.iter().map(|&b| bit_to_move(b)).collect(),
                        depth: r.info.depth,
                        selectivity_pct: 100,
                        kind: SearchKind::Exact,
                        nodes: r.info.nodes,
                        elapsed: start.elapsed(),
                    },
                }
            }
            AnyPosition::Small(p) => self.variant(p, limits, stop, start),
            AnyPosition::Wide(p) => self.variant(p, limits, stop, start),
        }
    }

    /// The book's move for `(p, o)` when the limits ask for the book and it knows the
    /// position: the move chosen within the margin, its value, and the book's best line after it.
    fn book_move(&self, p: u64, o: u64, limits: &Limits, start: Instant) -> Option<PositionResult> {
        let margin = limits.book_margin?;
        let book = self.book()?;
        let chosen = book.choose(p, o, margin, limits.seed)?;
        let level = book.get(p, o).map_or(0, |e| e.level as u32);
        let pv: Vec<Move> = book
            .line(p, o, chosen.square, 16)
            .into_iter()
            .map(|m| m.map_or(Move::Pass, |sq| Move::Play(Square::from_bit8(sq as u32))))
            .collect();
        Some(PositionResult {
            best: pv.first().copied(),
            score: chosen.value,
            pv,
            depth: level,
            selectivity_pct: 100,
            kind: SearchKind::Book,
            nodes: 0,
            elapsed: start.elapsed(),
        })
    }

    fn variant<B: Bits>(
        &self,
        p: &Position<B>,
        limits: &Limits,
        stop: &AtomicBool,
        start: Instant,
    ) -> PositionResult {
        let empties = p.empties().count();
        let depth = if empties <= limits.exact_empties {
            400
        } else {
            limits.depth.max(1)
        };
        let r = watched(stop, limits.time, start, |internal| {
            VariantSearch::new(p, self.table(), internal).search(p, depth)
        });
        let best = match r.best {
            Some(sq) => Some(Move::Play(sq)),
            None if p.must_pass() => Some(Move::Pass),
            // Stopped before the first iteration: any legal move.
            None => p.legal_moves().first().map(Move::Play),
        };
        PositionResult {
            best,
            score: r.score,
            pv: r.pv,
            depth: r.depth,
            selectivity_pct: 100,
            kind: if r.exact {
                SearchKind::Exact
            } else {
                SearchKind::Midgame
            },
            nodes: r.nodes,
            elapsed: start.elapsed(),
        }
    }
}
