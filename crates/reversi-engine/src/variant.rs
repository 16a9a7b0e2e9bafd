//! Search for every rules preset through the general position API: wide boards, holes, cut
//! corners, disc supplies, the free opening and anti-reversi. Slower than the 8×8 path but exact
//! when asked to be.

use crate::eval::generic::{corner_squares, evaluate};
use crate::tt::{TranspositionTable, TtData};
use reversi_core::{Bits, Move, Position, Square};
use std::sync::atomic::AtomicBool;

const INF: i32 = 1000;
/// The table entry's move field holds an index into the sorted move list; this means none.
const NO_INDEX: u8 = u8::MAX;

/// The answer of a variant search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantResult {
    /// The move to play (`None`: pass or game over).
    pub best: Option<Square>,
    /// Score for the side to move: the final margin (RULES.md §1) when `exact`, else an estimate.
    pub score: i32,
    /// Depth of the last finished iteration (plies).
    pub depth: u32,
    /// Whether the score is exact.
    pub exact: bool,
    /// Positions visited.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// A search over positions of one variant, with its own table.
pub struct VariantSearch<'a, B: Bits> {
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    corners: B,
    nodes: u64,
    aborted: bool,
    /// Whether some leaf was cut by depth (so the result is not exact).
    cut: bool,
}

impl<'a, B: Bits> VariantSearch<'a, B> {
    /// A search using `tt`, stoppable through `stop`.
    pub fn new(pos: &Position<B>, tt: &'a TranspositionTable, stop: &'a AtomicBool) -> Self {
        VariantSearch {
            tt,
            stop,
            corners: corner_squares(pos),
            nodes: 0,
            aborted: false,
            cut: false,
        }
    }

    /// Iterative deepening to `max_depth` plies (past the end of the game the result is exact).
    pub fn search(&mut self, pos: &Position<B>, max_depth: u32) -> VariantResult {
        let mut result = VariantResult {
            best: None,
            score: 0,
            depth: 0,
            exact: false,
            nodes: 0,
            pv: Vec::new(),
        };
        if pos.is_game_over() {
            result.score = pos.score().margin(pos.side_to_move());
            result.exact = true;
            return result;
        }
        for d in 1..=max_depth {
            self.cut = false;
            let (v, best) = self.root(pos, d);
            if self.aborted {
                break;
            }
            result = VariantResult {
                best,
                score: v,
                depth: d,
                exact: !self.cut,
                nodes: self.nodes,
                pv: self.pv(pos, best, d as usize),
            };
            if result.exact {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    fn root(&mut self, pos: &Position<B>, depth: u32) -> (i32, Option<Square>) {
        if pos.legal_moves().is_empty() {
            let mut next = *pos;
            next.play_unchecked(Move::Pass);
            return (-self.negamax(&next, -INF, INF, depth), None);
        }
        let v = self.negamax(pos, -INF, INF, depth);
        let best = self
            .tt
            .probe(pos.hash())
            .and_then(|d| self.sorted(pos).get(d.best as usize).copied())
            .or_else(|| pos.legal_moves().first());
        (v, best)
    }

    /// Legal moves by the opponent's mobility after them, corners first (a fixed order: the
    /// table stores the best move as an index into it).
    fn sorted(&self, pos: &Position<B>) -> Vec<Square> {
        let mut v: Vec<(i32, Square)> = pos
            .legal_moves()
            .squares()
            .map(|sq| {
                let mut n = *pos;
                n.play_unchecked(Move::Play(sq));
                let k = n.legal_moves().count() as i32 * 4 - 16 * (self.corners.has(sq) as i32);
                (k, sq)
            })
            .collect();
        v.sort_by_key(|&(k, sq)| (k, sq));
        v.into_iter().map(|(_, s)| s).collect()
    }

    fn negamax(&mut self, pos: &Position<B>, mut alpha: i32, beta: i32, depth: u32) -> i32 {
        self.nodes += 1;
        if self.nodes & 0x3FF == 0 && crate::time::halted(self.stop) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            if pos.moves_of(!pos.side_to_move()).is_empty() {
                return pos.score().margin(pos.side_to_move());
            }
            let mut next = *pos;
            next.play_unchecked(Move::Pass);
            return -self.negamax(&next, -beta, -alpha, depth);
        }
        if depth == 0 {
            self.cut = true;
            return evaluate(pos, self.corners);
        }
        let key = pos.hash();
        let mut first = NO_INDEX;
        if let Some(d) = self.tt.probe(key) {
            // `selectivity` 0 marks a fully searched subtree: valid at any depth.
            if d.depth as u32 >= depth || d.selectivity == 0 {
                self.cut |= d.selectivity != 0;
                let (lo, up) = (d.lower as i32, d.upper as i32);
                if lo >= beta {
                    return lo;
                }
                if up <= alpha {
                    return up;
                }
                if lo == up {
                    return lo;
                }
            }
            first = d.best;
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_index = NO_INDEX;
        let cut_before = std::mem::replace(&mut self.cut, false);
        let base = self.sorted(pos);
        let mut order: Vec<usize> = (0..base.len()).collect();
        if (first as usize) < base.len() {
            order.remove(first as usize);
            order.insert(0, first as usize);
        }
        for i in order {
            let sq = base[i];
            let mut next = *pos;
            next.play_unchecked(Move::Play(sq));
            let v = -self.negamax(&next, -beta, -alpha, depth - 1);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_index = i.min(NO_INDEX as usize - 1) as u8;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        let subtree_cut = self.cut;
        self.cut |= cut_before;
        // The table holds scores as i8: wide-board margins beyond that are not stored.
        if best.abs() < i8::MAX as i32 {
            let data = TtData::from_window(
                best,
                alpha0,
                beta,
                depth.min(250),
                subtree_cut as usize,
                best_index,
            );
            self.tt.store(key, data);
        }
        best
    }

    fn pv(&self, pos: &Position<B>, first: Option<Square>, max: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut p = *pos;
        if let Some(sq) = first {
            pv.push(Move::Play(sq));
            p.play_unchecked(Move::Play(sq));
        } else if !p.is_game_over() {
            pv.push(Move::Pass);
            p.play_unchecked(Move::Pass);
        }
        while pv.len() < max && !p.is_game_over() {
            if p.must_pass() {
                pv.push(Move::Pass);
                p.play_unchecked(Move::Pass);
                continue;
            }
            let Some(d) = self.tt.probe(p.hash()) else { break };
            let Some(&sq) = self.sorted(&p).get(d.best as usize) else {
                break;
            };
            pv.push(Move::Play(sq));
            p.play_unchecked(Move::Play(sq));
        }
        pv
    }
}
