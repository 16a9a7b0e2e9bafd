//! The exact endgame solver (8×8): null-window search with a transposition table, fastest-first
//! ordering, parity ordering near the end, stability cut-offs, and special code for the last
//! empties.
//!
//! The search is written once in a macro and compiled once per move-generation kernel, so that
//! the kernel inlines into every node (the AVX2 build is chosen at run time).

pub use crate::kernel::Kernel;

use crate::busy::Busy;
use crate::eval::pattern::Indices;
use crate::eval::{Children, Evaluator};
use crate::local_tt::{self, LocalTable};
use crate::pvs::{Probe, Window};
use crate::stability::{line_flips, stable_at_least};
use crate::tt::{hash, TranspositionTable, TtData, NO_MOVE};
use reversi_core::bitboard::around;
use std::mem::MaybeUninit;
use std::sync::atomic::AtomicBool;

/// A score larger than any real one (the principal-variation loop's bound, [`crate::pvs`]).
pub use crate::pvs::INF;

/// Room for every move of a position: one per square. (A position set up by hand can have more
/// than 32 moves, such as the one in the engine's tests with 34: lists of 32 overflowed.)
pub const MAX_MOVES: usize = 64;

/// At or below this many empties the solver drops the transposition table and move sorting.
/// Measured on FFO #45, 48, 49, 50 (1 thread), once the table sat in huge pages and the
/// children's entries were prefetched: 5 → 1,200 M nodes 57.6 s, 6 → 1,315 M 54.7 s, 7 → 1,883 M
/// 57.6 s, 8 → 2,119 M 59.6 s. (Before those, 6 saved nodes but not time.) Sorting at 7 empties
/// but skipping the table there was tried too, once moves were picked lazily: +7 % nodes for the
/// same time (FFO #40–59 24.1 G nodes 730 s against 22.5 G 719 s; #50 + #53 CPU time ratio 1.00).
/// Once the nodes just above it used a small table of their own (`local_tt`), 5 became the
/// fastest: FFO #40–47 6 → 334.9 M nodes 8.8 s, 5 → 299.2 M 8.3 s, 4 → 260.8 M 8.9 s.
pub(crate) const SHALLOW: u32 = 5;

// The solver's own small tables start just above the shallow search, which uses none.
const _: () = assert!(local_tt::LOWEST == SHALLOW + 1);

/// From this many empties the solver looks up every child in the table before searching any
/// (enhanced transposition cut-off; measured: −7 % nodes on FFO #26-37). With the second weights
/// and their retuned ordering, 13 took 1 % more nodes on FFO #40–49, #20–39 and `e20.obf`.
const ETC_EMPTIES: u32 = 12;
// The children the cut-off looks up are in the shared table, not in a thread's own.
const _: () = assert!(ETC_EMPTIES - 1 > local_tt::HIGHEST);
// Below it moves are picked lazily, the first one where `scored_moves` found it: no evaluation
// sort may reorder such a list.
const _: () = assert!(ETC_EMPTIES <= EVAL_SORT_EMPTIES);

/// From this many empties, moves are also sorted by the evaluation of the position they lead to
/// (when the context has an evaluation): dearer per node, but near the root good ordering saves
/// whole subtrees. Measured with the first learned evaluation (nodes, FFO #20–39): 12 → 186 M,
/// 14 → 201 M, 16 → 224 M, 18 → 257 M, none → 566 M; 14 was the fastest. Retuned for the second
/// weights with the key weights below (1 thread; FFO #40–49, the 200 positions of
/// `data/evaltest/e20.obf`): 14 → 505 M nodes 14.6 s, 503 M 12.9 s; 13 → 473 M 14.6 s, 477 M
/// 12.7 s; 12 → 452 M 15.1 s, 459 M 13.0 s. With 2 threads on FFO #40–59, 12 cut the nodes to
/// 12.5 G but took 246 s (13: 13.0 G, 224 s): each evaluated child costs more than it saves.
pub const EVAL_SORT_EMPTIES: u32 = 13;

/// From this many empties, threads that share a subtree (see [`Ctx::busy`]: a thread with no
/// root move left helps with one another thread is still searching) mark the positions they
/// search and put off the moves into a position another thread is in. Below it, the subtrees
/// are small enough that one thread searching one alone costs less than the marks would; it is
/// also where the lists start being sorted up front. Measured with 2 threads on FFO #40–59
/// (two runs each): 219.8 s and 224.0 s before, with threads idle 6.8 % of the time at the end
/// of each root's moves; 212.8 s and 213.2 s with the help (idle 1.6 %, nodes 13.02 G → 13.1 G;
/// #45 + #49 + #52 9.0 s → 7.7–8.5 s). With the marks on all the time instead of only while a
/// thread helps, no faster than before (221.9 s): two threads in different subtrees then write
/// the same cache lines for nothing.
pub const SHARE_EMPTIES: u32 = 12;
// The moves of a node that shares are sorted up front (not picked lazily), so that a move put
// off keeps its place in the list.
const _: () = assert!(SHARE_EMPTIES >= ETC_EMPTIES);

/// Weight of the child's evaluation (in discs) in the sort key, against 80 per reply (measured
/// against 64 a reply with the first weights: 8, 16, 32, 64 → 236, 224, 224, 225 M nodes at 16
/// empties; with the second, 24 and 40 within 2 % of 32).
const EVAL_SORT_WEIGHT: i32 = 32;

/// From this many empties, moves are ranked by a short search with the evaluation instead of
/// the evaluation alone: 1 ply from 17 empties, 2 from 19, and so on up to
/// `SORT_SEARCH_MAX_DEPTH`. Measured on FFO #45, 48, 49, 50 (1 thread, nodes and time): the
/// evaluation alone 2,147 M 64.5 s; searches from 17 every 3 empties, weight 32: 2,008 M 63.8 s;
/// every 2 empties 1,948 M 62.7 s; weight 16: 1,898 M 59.0 s (8: 1,987 M; 64: 2,225 M); from 16
/// 1,853 M 59.1 s, from 18 2,040 M 60.2 s. FFO #50 + #53: 5.74 G nodes before, 4.40 G with
/// depth at most 4, 4.49 G at most 6 or 8; FFO #40–47 unchanged (441 M → 416 M nodes, 11.8 s).
const SORT_SEARCH_EMPTIES: u32 = 17;
/// The deepest ranking search.
const SORT_SEARCH_MAX_DEPTH: u32 = 4;
/// Weight of the ranking search's score (discs) in the sort key, against 80 per reply (with the
/// second weights 24 took FFO #40–49 from 483 M to 459 M nodes; 12: 518 M, 32: 456 M).
const SORT_SEARCH_WEIGHT: i32 = 24;
/// How far below alpha (discs) the ranking search still tells moves apart (measured: 4, 8 and 16
/// within 1 %).
const SORT_MARGIN: i32 = 8;

/// Multi-ProbCut in the selective passes before the exact one (see `Ctx::sel`): nodes with at
/// least this many empties are tested by a search of `MPC_DEPTH` plies with the evaluation, cut
/// when it lies `t × σ(n)` discs outside the window (`t` the confidence, `σ(n)` growing with the
/// empties `n`: a short search says less about a deeper endgame). Its error only costs time: the
/// last pass is exact and trusts no selective result. Chosen by whole solves (1 thread, passes
/// included), FFO #40–49 after the stability cut-offs reached the shallow search: fixed σ 3.0,
/// depth 4, from 11 empties 1,181 M nodes 39.5 s; σ growing 0.2 a disc per empty 1,121 M 39.0 s,
/// 0.4 1,069 M 40.3 s; then depth 2 961 M 34.1 s (depth 0: 1,250 M 40.4 s); σ slope 0.6 969 M
/// 33.7 s; from 9 empties 888 M 34.3 s. A third pass at 99 % added time (44.6 s).
const MPC_EMPTIES: u32 = 9;
/// Depth of the ProbCut search.
const MPC_DEPTH: u32 = 2;
/// The ProbCut error scale at `MPC_EMPTIES`, in tenths of a disc...
const MPC_SIGMA_TENTHS: u32 = 30;
/// ... and its growth per further empty square, in tenths of a disc.
const MPC_SIGMA_SLOPE_TENTHS: u32 = 4;

/// Neighbours of each square: a square with no opponent neighbour cannot be a move.
static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut dy = -1;
        while dy <= 1 {
            let mut dx = -1;
            while dx <= 1 {
                let (nx, ny) = (x + dx, y + dy);
                if (dx != 0 || dy != 0) && nx >= 0 && nx < 8 && ny >= 0 && ny < 8 {
                    t[sq] |= 1 << (ny * 8 + nx);
                }
                dx += 1;
            }
            dy += 1;
        }
        sq += 1;
    }
    t
};

const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];
const CORNERS: u64 = 0x8100_0000_0000_0081;
/// X-squares (diagonal to a corner) and C-squares (next to a corner on an edge): usually bad.
const BAD: u64 = 0x42C3_0000_0000_C342;
/// Corners and the edge squares two away from them (A-squares): usually good.
const GOOD: u64 = CORNERS | 0x2400_8100_0081_0024;
/// Everything else.
const PLAIN: u64 = !(BAD | GOOD);

/// Discs flipped along one line by a move at position `x` of the line, when the mover owns the
/// line squares in `bits` and the opponent all the others (the last empty square of a full board).
static COUNT_FLIP: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut x = 0;
    while x < 8 {
        let mut bits = 0;
        while bits < 256 {
            let theirs = !bits & 0xFF & !(1 << x);
            t[x as usize][bits as usize] = line_flips(bits, theirs, x).count_ones() as u8;
            bits += 1;
        }
        x += 1;
    }
    t
};

/// The `a1`–`h8` diagonal and the anti-diagonal through each square.
static DIAGONALS_OF: [(u64, u64); 64] = {
    let mut t = [(0u64, 0u64); 64];
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut other: i32 = 0;
        while other < 64 {
            let (ox, oy) = (other % 8, other / 8);
            if ox - oy == x - y {
                t[sq].0 |= 1 << other;
            }
            if ox + oy == x + y {
                t[sq].1 |= 1 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    t
};

/// The number of discs `p` flips by playing the last empty square `sq` of a full 8×8 board, by
/// table lookups on its four lines (instead of computing the flips).
#[inline(always)]
pub fn count_last_flip(p: u64, sq: u32) -> i32 {
    let (r, c) = ((sq >> 3) as usize, (sq & 7) as usize);
    let row = ((p >> (8 * r)) & 0xFF) as usize;
    let col = (((p >> c) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    let (d, a) = DIAGONALS_OF[sq as usize];
    let diag = ((p & d).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
    let anti = ((p & a).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
    (COUNT_FLIP[c][row] + COUNT_FLIP[r][col] + COUNT_FLIP[c][diag] + COUNT_FLIP[c][anti]) as i32
}

/// Quadrant parity: bit `q` set when quadrant `q` holds an odd number of empties.
#[inline(always)]
fn parity_of(empties: u64) -> u8 {
    let mut bits = 0;
    for (q, mask) in QUADRANTS.iter().enumerate() {
        bits |= (((empties & mask).count_ones() & 1) as u8) << q;
    }
    bits
}

/// The three empty squares of `empties`, those of odd regions (by `parity`) first: the order
/// in which the last three are tried.
#[inline(always)]
fn parity_order3(empties: u64, parity: u8) -> [u32; 3] {
    let odd = ODD_SQUARES[parity as usize];
    let mut sq = [0u32; 3];
    let mut k = 0;
    for group in [empties & odd, empties & !odd] {
        let mut m = group;
        while m != 0 {
            sq[k] = m.trailing_zeros();
            k += 1;
            m &= m - 1;
        }
    }
    sq
}

/// The quadrant bit of each square (playing there flips that quadrant's parity).
static QUADRANT_BIT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = 1 << (((sq / 32) << 1) | ((sq % 8) / 4));
        sq += 1;
    }
    t
};

/// The squares of the odd quadrants, by parity bits: playing there first tends to keep the last
/// move of each region.
static ODD_SQUARES: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut bits = 0;
    while bits < 16 {
        let mut q = 0;
        while q < 4 {
            if bits & (1 << q) != 0 {
                t[bits] |= QUADRANTS[q];
            }
            q += 1;
        }
        bits += 1;
    }
    t
};

/// The final score of a finished game on the full board, empties to the winner (RULES.md §1).
#[inline(always)]
pub fn final_score(p: u64, o: u64) -> i32 {
    final_score_on(p, o, 64)
}

/// The final score of a finished game on a board of `squares` squares.
#[inline(always)]
pub fn final_score_on(p: u64, o: u64, squares: i32) -> i32 {
    let (np, no) = (p.count_ones() as i32, o.count_ones() as i32);
    let e = squares - np - no;
    let d = np - no;
    match d.signum() {
        1 => d + e,
        -1 => d - e,
        _ => 0,
    }
}

/// The smallest alpha at which a stability cut-off is worth trying, by empties. Trying it this
/// often, down to 4 empties, measured on FFO #40–49: 1,849 M nodes 48.7 s with `2n + 4` and none
/// below 8 empties; 1,790 M with Edax's table; 1,181 M 40.1 s with it in the shallow search too.
/// Since the edges come from a table and a hopeless count gives up early, the test is cheap
/// enough to try 2 lower than Edax does (FFO #45, 49, 52: 636.3 M nodes 15.2 s → 632.8 M
/// 14.9 s; 4 lower: 625.3 M, no faster).
#[inline(always)]
fn stability_threshold(n: u32) -> i32 {
    const T: [i32; 41] = [
        99, 99, 99, 99, 4, 6, 8, 10, 12, 14, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 46,
        48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62,
    ];
    T[(n as usize).min(40)]
}

/// Whether the stability cut-off of a null-window node `(alpha, alpha + 1)` with `n` empties is
/// worth trying: alpha high enough, and enough of the opponent's discs that, were they all
/// stable, the score would be at or below alpha.
#[inline(always)]
fn stability_worth(c: &Ctx, o: u64, alpha: i32, n: u32) -> bool {
    alpha >= stability_threshold(n) && 2 * (o.count_ones() as i32) >= c.squares - alpha
}

/// The stability cut-off: when the opponent's stable discs alone keep the score at or below
/// alpha, that bound.
#[inline(always)]
fn stability_bound(c: &Ctx, p: u64, o: u64, alpha: i32) -> Option<i32> {
    // The score is at most `squares - 2 * stable`: at or below alpha from this many on.
    let need = (c.squares - alpha + 1).max(0) as u32 / 2;
    stable_at_least(o, p, c.mask, need).map(|stable| c.squares - 2 * stable as i32)
}

/// Counters and the stop signal of one solver thread.
pub struct Ctx<'a> {
    /// The shared table.
    pub tt: &'a TranspositionTable,
    /// Positions visited.
    pub nodes: u64,
    /// Set by another thread to abandon the search.
    pub stop: &'a AtomicBool,
    /// Whether this search was abandoned (its result is then meaningless).
    pub aborted: bool,
    /// The squares that exist (all 64 on the standard board; fewer on small boards or with a
    /// hole). Moves are generated inside it only.
    pub mask: u64,
    /// The number of squares in `mask`.
    pub squares: i32,
    /// The corners of this board: squares that can never be flipped.
    pub corners: u64,
    /// An evaluation to sort moves with near the root (8×8 boards only).
    pub eval: Option<&'a dyn Evaluator>,
    /// Multi-ProbCut selectivity, an index into [`crate::probcut::CONFIDENCE`]: 0 solves
    /// exactly; above, nodes far from the window are cut on a short search's word (needs
    /// `eval`), and only the table's results at least as exact are trusted.
    pub sel: usize,
    /// The positions other threads are searching, when several share the tree: from
    /// [`SHARE_EMPTIES`], a move whose position is marked there is searched after the others.
    pub busy: Option<&'a Busy>,
    /// This thread's table for the nodes just above the shallow search (made when first needed).
    local: Option<LocalTable>,
}

impl<'a> Ctx<'a> {
    /// A solver context for the full 8×8 board.
    pub fn new(tt: &'a TranspositionTable, stop: &'a AtomicBool) -> Ctx<'a> {
        Ctx::with_mask(tt, stop, u64::MAX)
    }

    /// A solver context for a board made of the squares in `mask` (missing squares are never
    /// played and break every line).
    pub fn with_mask(tt: &'a TranspositionTable, stop: &'a AtomicBool, mask: u64) -> Ctx<'a> {
        Ctx {
            tt,
            nodes: 0,
            stop,
            aborted: false,
            mask,
            squares: mask.count_ones() as i32,
            corners: crate::stability::corners_of(mask),
            eval: None,
            sel: 0,
            busy: None,
            local: None,
        }
    }
}

impl Ctx<'_> {
    #[inline(always)]
    fn should_stop(&mut self) -> bool {
        if self.nodes & 0xFFF == 0 && crate::time::halted(self.stop) {
            self.aborted = true;
        }
        self.aborted
    }

    #[inline(always)]
    fn local(&mut self) -> &mut LocalTable {
        if self.local.is_none() {
            self.local = Some(LocalTable::new());
        }
        match &mut self.local {
            Some(t) => t,
            None => unreachable!("made just above"),
        }
    }
}

macro_rules! solver {
    ($moves:path, $flips:path $(, $attr:meta)* $(; scalar $sattr:meta)?) => {
        use super::*;
        use $flips as flips;

        /// The stability cut-off at `n` empties: [`stability_bound`], when [`stability_worth`]
        /// says it may cut.
        #[inline]
        $(#[$attr])*
        fn stability_cutoff(c: &Ctx, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
            if stability_worth(c, o, alpha, n) { stability_bound_here(c, p, o, alpha) } else { None }
        }

        /// [`stability_bound`] compiled for this kernel's scalar features (its population
        /// counts in one instruction each; with the vector ones, the compiler would vectorise
        /// the rounds of anchoring across the four axes, at a longer latency per round), out of
        /// line: most nodes do not try it.
        #[inline(never)]
        $(#[$sattr])?
        fn stability_bound_here(c: &Ctx, p: u64, o: u64, alpha: i32) -> Option<i32> {
            stability_bound(c, p, o, alpha)
        }

        /// One empty square left. (No AVX2 needed: without the target feature it may be
        /// inlined everywhere.)
        #[inline(always)]
        fn last1(c: &mut Ctx, p: u64, o: u64, sq: u32) -> i32 {
            c.nodes += 1;
            if c.squares != 64 {
                return last1_any(c.squares, p, o, sq);
            }
            // A full board but for `sq`: count the flips by table.
            let np = p.count_ones() as i32;
            let n = count_last_flip(p, sq);
            if n > 0 {
                return 2 * (np + n + 1) - 64;
            }
            let n = count_last_flip(o, sq);
            if n > 0 {
                return 64 - 2 * (64 - np + n);
            }
            let d = 2 * np - 63;
            if d > 0 { d + 1 } else { d - 1 }
        }

        /// One empty square left on a board of `squares` squares (not the full 8×8 one).
        #[cold]
        #[inline(never)]
        fn last1_any(squares: i32, p: u64, o: u64, sq: u32) -> i32 {
            let np = p.count_ones() as i32;
            let around = NEIGHBOURS[sq as usize];
            if around & o != 0 {
                let f = reversi_core::bitboard::flips_scalar(p, o, sq);
                if f != 0 {
                    return 2 * (np + f.count_ones() as i32 + 1) - squares;
                }
            }
            if around & p != 0 {
                let g = reversi_core::bitboard::flips_scalar(o, p, sq);
                if g != 0 {
                    return squares - 2 * (squares - np + g.count_ones() as i32);
                }
            }
            let d = 2 * np - squares + 1;
            match d.signum() {
                1 => d + 1,
                -1 => d - 1,
                _ => 0,
            }
        }

        /// Two empty squares left (null window at `alpha`).
        #[inline]
        $(#[$attr])*
        fn last2(c: &mut Ctx, p: u64, o: u64, alpha: i32, a: u32, b: u32) -> i32 {
            c.nodes += 1;
            let mut best = -INF;
            if NEIGHBOURS[a as usize] & o != 0 {
                let f = flips(p, o, a);
                if f != 0 {
                    best = -last1(c, o ^ f, p ^ f ^ (1u64 << a), b);
                    if best > alpha {
                        return best;
                    }
                }
            }
            if NEIGHBOURS[b as usize] & o != 0 {
                let f = flips(p, o, b);
                if f != 0 {
                    return best.max(-last1(c, o ^ f, p ^ f ^ (1u64 << b), a));
                }
            }
            if best > -INF {
                return best;
            }
            // No move: the opponent plays, if it can.
            c.nodes += 1;
            let mut best = INF;
            if NEIGHBOURS[a as usize] & p != 0 {
                let f = flips(o, p, a);
                if f != 0 {
                    best = last1(c, p ^ f, o ^ f ^ (1u64 << a), b);
                    if best <= alpha {
                        return best;
                    }
                }
            }
            if NEIGHBOURS[b as usize] & p != 0 {
                let f = flips(o, p, b);
                if f != 0 {
                    return best.min(last1(c, p ^ f, o ^ f ^ (1u64 << b), a));
                }
            }
            if best < INF { best } else { final_score_on(p, o, c.squares) }
        }

        /// Three empty squares left (null window at `alpha`), tried in the order given.
        #[inline]
        $(#[$attr])*
        fn last3(c: &mut Ctx, p: u64, o: u64, alpha: i32, sq: [u32; 3]) -> i32 {
            c.nodes += 1;
            let tries = [(sq[0], sq[1], sq[2]), (sq[1], sq[0], sq[2]), (sq[2], sq[0], sq[1])];
            let mut best = -INF;
            for (x, r1, r2) in tries {
                if NEIGHBOURS[x as usize] & o != 0 {
                    let f = flips(p, o, x);
                    if f != 0 {
                        let v = -last2(c, o ^ f, p ^ f ^ (1u64 << x), -alpha - 1, r1, r2);
                        if v > best {
                            best = v;
                            if v > alpha {
                                return v;
                            }
                        }
                    }
                }
            }
            if best > -INF {
                return best;
            }
            // No move: the opponent plays, if it can (its best is our worst).
            c.nodes += 1;
            let mut worst = INF;
            for (x, r1, r2) in tries {
                if NEIGHBOURS[x as usize] & p != 0 {
                    let f = flips(o, p, x);
                    if f != 0 {
                        let v = last2(c, p ^ f, o ^ f ^ (1u64 << x), alpha, r1, r2);
                        if v < worst {
                            worst = v;
                            if v <= alpha {
                                return v;
                            }
                        }
                    }
                }
            }
            if worst < INF { worst } else { final_score_on(p, o, c.squares) }
        }

        /// Four empty squares left (null window at `alpha`): squares of odd regions first
        /// (parity), then the others; no other ordering pays this close to the end.
        #[inline]
        $(#[$attr])*
        fn last4(c: &mut Ctx, p: u64, o: u64, alpha: i32, empties: u64, parity: u8) -> i32 {
            c.nodes += 1;
            if let Some(upper) = stability_cutoff(c, p, o, alpha, 4) {
                return upper;
            }
            let mut best = -INF;
            let odd = ODD_SQUARES[parity as usize];
            for group in [empties & odd, empties & !odd] {
                let mut m = group;
                while m != 0 {
                    let sq = m.trailing_zeros();
                    m &= m - 1;
                    if NEIGHBOURS[sq as usize] & o == 0 {
                        continue;
                    }
                    let f = flips(p, o, sq);
                    if f == 0 {
                        continue;
                    }
                    let b = 1u64 << sq;
                    let order = parity_order3(empties ^ b, parity ^ QUADRANT_BIT[sq as usize]);
                    let v = -last3(c, o ^ f, p ^ f ^ b, -alpha - 1, order);
                    if v > best {
                        best = v;
                        if v > alpha {
                            return v;
                        }
                    }
                }
            }
            if best == -INF {
                if $moves(o, p) & c.mask != 0 {
                    return -last4(c, o, p, -alpha - 1, empties, parity);
                }
                return final_score_on(p, o, c.squares);
            }
            best
        }

        /// Null-window search `(alpha, alpha + 1)` with few empties: no table, parity order.
        /// `m` is the mover's legal moves (read from 5 empties; the parent has them).
        // The hottest recursion: its state stays in registers rather than in a struct.
        #[allow(clippy::too_many_arguments)]
        #[inline]
        $(#[$attr])*
        pub(super) fn shallow(c: &mut Ctx, p: u64, o: u64, alpha: i32, empties: u64, n: u32, parity: u8, m: u64) -> i32 {
            match n {
                1 => last1(c, p, o, empties.trailing_zeros()),
                2 => last2(c, p, o, alpha, empties.trailing_zeros(), (empties & (empties - 1)).trailing_zeros()),
                3 => last3(c, p, o, alpha, parity_order3(empties, parity)),
                4 => last4(c, p, o, alpha, empties, parity),
                _ => shallow5(c, p, o, alpha, empties, n, parity, m),
            }
        }

        /// [`shallow`] with five or more empties: the moves sorted by parity, then by square
        /// type (corners and A-squares first, X- and C-squares last).
        #[allow(clippy::too_many_arguments)]
        $(#[$attr])*
        fn shallow5(c: &mut Ctx, p: u64, o: u64, alpha: i32, empties: u64, n: u32, parity: u8, m: u64) -> i32 {
            c.nodes += 1;
            if let Some(upper) = stability_cutoff(c, p, o, alpha, n) {
                return upper;
            }
            let mut best = -INF;
            let odd = ODD_SQUARES[parity as usize];
            let (co, ce) = (m & odd, m & !odd);
            for group in [co & GOOD, co & PLAIN, co & BAD, ce & GOOD, ce & PLAIN, ce & BAD] {
                let mut m = group;
                while m != 0 {
                    let sq = m.trailing_zeros();
                    m &= m - 1;
                    if NEIGHBOURS[sq as usize] & o == 0 {
                        continue;
                    }
                    let f = flips(p, o, sq);
                    if f == 0 {
                        continue;
                    }
                    let b = 1u64 << sq;
                    let (np, no) = (o ^ f, p ^ f ^ b);
                    let child_parity = parity ^ QUADRANT_BIT[sq as usize];
                    let v = if n == 5 {
                        -last4(c, np, no, -alpha - 1, empties ^ b, child_parity)
                    } else {
                        let replies = $moves(np, no) & c.mask;
                        -shallow5(c, np, no, -alpha - 1, empties ^ b, n - 1, child_parity, replies)
                    };
                    if v > best {
                        best = v;
                        if v > alpha {
                            return v;
                        }
                    }
                }
            }
            if best == -INF {
                let theirs = $moves(o, p) & c.mask;
                if theirs != 0 {
                    return -shallow5(c, o, p, -alpha - 1, empties, n, parity, theirs);
                }
                return final_score_on(p, o, c.squares);
            }
            best
        }

        /// Moves of a deep node with their sort keys, unsorted (lowest key first: the table
        /// move, then fewest replies (fastest first), replies into corners avoided, corners
        /// taken). With `prefetch`, the children's table entries are fetched on the way.
        #[inline]
        $(#[$attr])*
        fn scored_moves<'l>(c: &Ctx, p: u64, o: u64, m: u64, tt_move: u8, prefetch: bool, list: &'l mut [MaybeUninit<Scored>; MAX_MOVES]) -> (&'l mut [Scored], usize) {
            let (mask, corners) = (c.mask, c.corners);
            let mut n = 0;
            let (mut min_key, mut min_at) = (i32::MAX, 0);
            let mut mm = m;
            // First the flips of every move, then the replies of every child: two loops of
            // independent iterations. (In one loop, each step waited on the one before: flips,
            // then the child's moves, then their count; measured on FFO #45, 49, 52: A/B 0.954.)
            while mm != 0 {
                let sq = mm.trailing_zeros();
                mm &= mm - 1;
                let f = flips(p, o, sq);
                if prefetch {
                    // The children's entries will be probed (by the enhanced transposition
                    // cut-off, or first thing when searched): fetched now, their cache misses
                    // overlap each other and the sorting. Measured on FFO #45, 48, 49, 50:
                    // 72.9 s → 71.8 s when prefetched for the cut-off only, 64.8 s for all.
                    c.tt.prefetch(hash(o ^ f, p ^ f ^ (1u64 << sq)));
                }
                list[n].write(Scored { key: 0, sq, flips: f, replies: 0 });
                n += 1;
            }
            // SAFETY: the first `n` entries were written just above, and `MaybeUninit<Scored>`
            // has the layout of `Scored`.
            let list = unsafe { std::slice::from_raw_parts_mut(list.as_mut_ptr() as *mut Scored, n) };
            for (i, e) in list.iter_mut().enumerate() {
                let (sq, f) = (e.sq, e.flips);
                let b = 1u64 << sq;
                let (np, no) = (o ^ f, p ^ f ^ b);
                // The replies are the child's legal moves: handed down, they are not generated twice.
                let replies = $moves(np, no) & mask;
                let key = if sq as u8 == tt_move {
                    -1 << 20
                } else {
                    fastest_first_key(replies, corners, around(no) & !(np | no) & mask, b & corners != 0)
                };
                e.key = key;
                e.replies = replies;
                if key < min_key {
                    (min_key, min_at) = (key, i);
                }
            }
            (list, min_at)
        }

        /// Null-window search with the table, for more than `SHALLOW` empties.
        $(#[$attr])*
        pub(super) fn nws(c: &mut Ctx, p: u64, o: u64, alpha: i32, n: u32, m: u64) -> i32 {
            c.nodes += 1;
            if c.should_stop() {
                return 0;
            }
            if let Some(upper) = stability_cutoff(c, p, o, alpha, n) {
                return upper;
            }
            let key = hash(p, o);
            let mut tt_move = NO_MOVE;
            let local = n <= local_tt::HIGHEST;
            let known = if local { c.local().probe(key, n) } else { c.tt.probe(key) };
            if let Some(d) = known {
                if d.depth as u32 == n && d.selectivity as usize <= c.sel {
                    if d.upper as i32 <= alpha {
                        return d.upper as i32;
                    }
                    if d.lower as i32 > alpha {
                        return d.lower as i32;
                    }
                }
                tt_move = d.best;
            }
            if c.sel > 0 && n >= MPC_EMPTIES {
                if let Some(ev) = c.eval {
                    if let Some(v) = probcut(ev, p, o, alpha, n, c.sel, &mut c.nodes) {
                        return v;
                    }
                }
            }
            if m == 0 {
                let theirs = $moves(o, p) & c.mask;
                if theirs == 0 {
                    return final_score_on(p, o, c.squares);
                }
                return -nws(c, o, p, -alpha - 1, n, theirs);
            }
            // Left uninitialised: clearing it cost 2 % of the time (a `memset` per node).
            let mut buf = [MaybeUninit::<Scored>::uninit(); MAX_MOVES];
            let (list, first) = scored_moves(c, p, o, m, tt_move, n > local_tt::HIGHEST + 1, &mut buf);
            let count = list.len();
            // Near the leaves the first move or two usually decide: each is picked when needed.
            // Measured against sorting every list by insertion (FFO #45, 48, 49, 50, 1 thread):
            // 54.7 s → 50.7 s, the same nodes; the insertion's branches mispredicted.
            let lazy = n < ETC_EMPTIES;
            if !lazy {
                list.sort_by_key(|e| e.key);
            }
            if n >= ETC_EMPTIES {
                // Enhanced transposition cut-off: a child already known to refute alpha.
                for e in list.iter() {
                    let (np, no) = (o ^ e.flips, p ^ e.flips ^ (1u64 << e.sq));
                    if let Some(d) = c.tt.probe(hash(np, no)) {
                        if d.depth as u32 == n - 1 && d.selectivity as usize <= c.sel && -(d.upper as i32) > alpha {
                            return -(d.upper as i32);
                        }
                    }
                }
            }
            let mut best = -INF;
            let mut best_move = NO_MOVE;
            let empties = !(p | o) & c.mask;
            // The children's quadrant parity follows from this node's (only the shallow search
            // reads it), instead of four population counts per child searched (#45 + #49 + #52:
            // A/B 0.988 and 0.994 over 6 and 8 runs, the same nodes).
            let parity = if n - 1 > SHALLOW { 0 } else { parity_of(empties) };
            // The evaluation sorts the moves only once one other than the table's is needed
            // (and after the transposition cut-off): when the table's move refutes alpha, as it
            // mostly does, no evaluation is spent (FFO #56 + #57: 2.71 G nodes 66.0 s → 2.66 G
            // 64.0 s).
            let mut resort_pending = if n >= EVAL_SORT_EMPTIES { c.eval } else { None };
            let share = if n >= SHARE_EMPTIES { c.busy.filter(|b| b.active()) } else { None };
            // Moves put off because another thread was searching their position (list indices).
            let mut deferred = 0u64;
            let mut second_pass = false;
            let mut i = 0;
            loop {
                if i == count {
                    // Then the moves put off, by which time the table often knows them.
                    if second_pass || deferred == 0 {
                        break;
                    }
                    second_pass = true;
                    i = 0;
                }
                if second_pass {
                    if deferred == 0 {
                        break;
                    }
                    i = deferred.trailing_zeros() as usize;
                    deferred &= deferred - 1;
                }
                if let Some(ev) = resort_pending {
                    if i > 0 || list[0].sq as u8 != tt_move {
                        resort(ev, p, o, tt_move, alpha, &mut c.nodes, &mut list[i..]);
                        resort_pending = None;
                    }
                }
                // The first pick was found while scoring and is read where it lies: most nodes
                // need no other. Only then is it swapped to the front, and the next one picked.
                let at = if !lazy {
                    i
                } else if i == 0 {
                    first
                } else {
                    if i == 1 {
                        list.swap(0, first);
                    }
                    pick_best(list, i);
                    i
                };
                let Scored { sq, flips: f, replies, .. } = list[at];
                let b = 1u64 << sq;
                let (np, no) = (o ^ f, p ^ f ^ b);
                i += 1;
                let mut mark = None;
                if let Some(busy) = share {
                    let k = hash(np, no);
                    // The first move is always searched at once (the young brothers wait).
                    if !second_pass && at > 0 && busy.is_busy(k) {
                        deferred |= 1 << at;
                        continue;
                    }
                    busy.enter(k);
                    mark = Some((busy, k));
                }
                let v = if n - 1 > SHALLOW {
                    -nws(c, np, no, -alpha - 1, n - 1, replies)
                } else {
                    -shallow(c, np, no, -alpha - 1, empties ^ b, n - 1, parity ^ QUADRANT_BIT[sq as usize], replies)
                };
                if let Some((busy, k)) = mark {
                    busy.leave(k);
                }
                if c.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_move = sq as u8;
                    if v > alpha {
                        break;
                    }
                }
            }
            let data = TtData::from_window(best, alpha, alpha + 1, n, c.sel, best_move);
            if local {
                c.local().store(key, n, data);
            } else {
                c.tt.store(key, data);
            }
            best
        }

        /// Null-window search at any number of empties.
        $(#[$attr])*
        pub(super) fn nws_any(c: &mut Ctx, p: u64, o: u64, alpha: i32) -> i32 {
            let empties = !(p | o) & c.mask;
            let n = empties.count_ones();
            if n == 0 {
                c.nodes += 1;
                return final_score_on(p, o, c.squares);
            }
            let m = $moves(p, o) & c.mask;
            if n > SHALLOW { nws(c, p, o, alpha, n, m) } else { shallow(c, p, o, alpha, empties, n, parity_of(empties), m) }
        }

        /// Principal-variation search in the window `(alpha, beta)`: the first move with the
        /// full window, the others with a null window and a re-search when they fail high.
        /// Returns the score and the best move (`NO_MOVE` for a pass or a finished game).
        $(#[$attr])*
        pub(super) fn pvs(c: &mut Ctx, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, u8) {
            let empties = !(p | o) & c.mask;
            let n = empties.count_ones();
            c.nodes += 1;
            if n == 0 {
                return (final_score_on(p, o, c.squares), NO_MOVE);
            }
            if c.should_stop() {
                return (0, NO_MOVE);
            }
            let key = hash(p, o);
            let tt_move = c.tt.probe(key).map_or(NO_MOVE, |d| d.best);
            let m = $moves(p, o) & c.mask;
            if m == 0 {
                if $moves(o, p) & c.mask == 0 {
                    return (final_score_on(p, o, c.squares), NO_MOVE);
                }
                let (v, _) = pvs(c, o, p, -beta, -alpha);
                return (-v, NO_MOVE);
            }
            let mut buf = [MaybeUninit::<Scored>::uninit(); MAX_MOVES];
            let (list, _) = scored_moves(c, p, o, m, tt_move, false, &mut buf);
            list.sort_by_key(|e| e.key);
            if n >= EVAL_SORT_EMPTIES {
                if let Some(ev) = c.eval {
                    resort(ev, p, o, tt_move, alpha, &mut c.nodes, list);
                }
            }
            let mut w = Window::new(alpha, beta);
            for (i, &Scored { sq, flips: f, .. }) in list.iter().enumerate() {
                let b = 1u64 << sq;
                let (np, no) = (o ^ f, p ^ f ^ b);
                let searched = w.child(c, i == 0, sq as u8, |c| c.aborted, |c, probe, a, b| match probe {
                    Probe::Full => -pvs(c, np, no, -b, -a).0,
                    Probe::Null => -nws_any(c, np, no, -a - 1),
                });
                if searched.is_none() {
                    return (0, NO_MOVE);
                }
                if w.cut() {
                    break;
                }
            }
            if n > SHALLOW {
                c.tt.store(key, TtData::from_window(w.best, alpha, beta, n, c.sel, w.best_move));
            }
            (w.best, w.best_move)
        }

        /// Adds the evaluation of each child (from the opponent's side: lower is better for us) to the
        /// sort keys, or from `SORT_SEARCH_EMPTIES` the score of a short search from it, and sorts
        /// again; the table move stays first.
        $(#[$attr])*
        fn resort(ev: &dyn Evaluator, p: u64, o: u64, tt_move: u8, alpha: i32, nodes: &mut u64, list: &mut [Scored]) {
            // The evaluation exists on the full 8×8 board only.
            let depth = sort_depth((!(p | o)).count_ones());
            let children = Children::new(ev, p, o, list.len() > 1, None);
            for e in list.iter_mut() {
                if e.sq as u8 != tt_move {
                    let (sq, f) = (e.sq, e.flips);
                    let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
                    e.key += if depth == 0 {
                        EVAL_SORT_WEIGHT * children.eval(sq, f, np, no)
                    } else {
                        // Moves that stay `SORT_MARGIN` below alpha need no finer ranking among
                        // themselves: the child's window is cut there.
                        let child = children.after(sq, f);
                        let beta = (SORT_MARGIN - alpha).min(INF);
                        SORT_SEARCH_WEIGHT * probe(ev, np, no, depth, -INF, beta, nodes, child.as_ref())
                    };
                }
            }
            list.sort_by_key(|e| e.key);
        }

        /// Multi-ProbCut at a null-window node `(alpha, alpha + 1)` with `n` empties: when a short
        /// search lies far enough above (below) the window, the exact score very probably does too, and
        /// the node returns `alpha + 1` (`alpha`) without searching.
        ///
        /// Only one side is tried: above the window when the position's evaluation lies above alpha,
        /// below it otherwise (a gate of one margin on each search). Measured (nodes, 1 thread; both
        /// sides → one side): FFO #20–39 94.6 M → 89.6 M (time ratio 1.08), #40–49 636.5 M → 629.0 M,
        /// #51 + #52 + #59 484.6 M → 444.3 M. Gates of ¾ and 1¼ margins, or one margin and 3 discs, did
        /// less (#20–39 90.4 M, 90.7 M, 94.1 M); a fixed gate of 6 discs (Edax's way) cut #40–47 but
        /// lost more on #49 (#40–49 659.0 M).
        $(#[$attr])*
        fn probcut(
            ev: &dyn Evaluator,
            p: u64,
            o: u64,
            alpha: i32,
            n: u32,
            sel: usize,
            nodes: &mut u64,
        ) -> Option<i32> {
            let sigma = (MPC_SIGMA_TENTHS + MPC_SIGMA_SLOPE_TENTHS * (n - MPC_EMPTIES)) as i64;
            let margin = (crate::probcut::CONFIDENCE[sel] as i64 * sigma / 1000) as i32;
            let high = alpha + 1 + margin;
            let low = alpha - margin;
            // Only the side the position's own evaluation (one node) points to is tried: a short search
            // seldom lands a whole margin away from it. With the learned evaluation, the pattern
            // indices read for it serve the search too.
            *nodes += 1;
            let indexed = ev.learned().map(|l| (l, Indices::of(p, o)));
            let (value, idx) = match &indexed {
                Some((l, idx)) => (l.eval_indexed(idx, p, o), Some(idx)),
                None => (ev.eval(p, o), None),
            };
            if value > alpha {
                (high < 64 && probe(ev, p, o, MPC_DEPTH, high - 1, high, nodes, idx) >= high).then_some(alpha + 1)
            } else {
                (low > -64 && probe(ev, p, o, MPC_DEPTH, low, low + 1, nodes, idx) <= low).then_some(alpha)
            }
        }

        /// A short alpha-beta search with the evaluation at its leaves (8×8), for ProbCut and for
        /// ranking moves near the root.
        /// `idx`: the pattern indices of `(p, o)` when the caller has them (with the learned evaluation).
        #[allow(clippy::too_many_arguments)]
        $(#[$attr])*
        fn probe(
            ev: &dyn Evaluator,
            p: u64,
            o: u64,
            depth: u32,
            mut alpha: i32,
            beta: i32,
            nodes: &mut u64,
            idx: Option<&Indices>,
        ) -> i32 {
            *nodes += 1;
            if depth == 0 {
                return ev.eval(p, o);
            }
            let mut m = $moves(p, o);
            if m == 0 {
                if $moves(o, p) == 0 {
                    return final_score(p, o);
                }
                return -probe(
                    ev,
                    o,
                    p,
                    depth,
                    -beta,
                    -alpha,
                    nodes,
                    idx.map(Indices::swapped).as_ref(),
                );
            }
            let mut best = -INF;
            let children = Children::new(ev, p, o, m & (m - 1) != 0, idx);
            // Searches one move; true when it refutes beta.
            let mut visit = |sq: u32, f: u64| {
                let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
                let v = if depth == 1 {
                    // The last ply: the child's evaluation, counted as a node as `probe` would.
                    *nodes += 1;
                    -children.eval(sq, f, np, no)
                } else {
                    let child = children.after(sq, f);
                    -probe(ev, np, no, depth - 1, -beta, -alpha, nodes, child.as_ref())
                };
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        return v >= beta;
                    }
                }
                false
            };
            if depth >= 3 {
                // Deep enough to repay it, the moves are sorted: the opponent's fewest replies
                // first.
                let mut list = [(0i32, 0u32, 0u64); MAX_MOVES];
                let mut count = 0;
                while m != 0 {
                    let sq = m.trailing_zeros();
                    m &= m - 1;
                    let f = flips(p, o, sq);
                    let key = $moves(o ^ f, p ^ f ^ (1u64 << sq)).count_ones() as i32;
                    insert_sorted(&mut list, count, (key, sq, f));
                    count += 1;
                }
                for &(_, sq, f) in &list[..count] {
                    if visit(sq, f) {
                        break;
                    }
                }
            } else {
                // Otherwise they are taken in square order, each flip computed only when reached
                // (and no list is cleared).
                while m != 0 {
                    let sq = m.trailing_zeros();
                    m &= m - 1;
                    if visit(sq, flips(p, o, sq)) {
                        break;
                    }
                }
            }
            best
        }
    };
}

/// The sort key of a move without a search or an evaluation (lowest first): the opponent's
/// `replies` after it, those into `corners` counted again, the opponent's potential mobility
/// (`frontier`: the empty squares next to our discs), and a bonus when the move takes a
/// corner.
///
/// Weights measured by node counts: replies 80, corner replies 64, the opponent's potential
/// mobility 12, our corner -64. (With the first weights 64, 128, 8, -64 on FFO #20-39; retuned
/// with the second on FFO #40-49, #20-39 and data/evaltest/e20.obf: corner replies 128 → 64 took
/// #40-49 from 505 M to 483 M nodes, replies 64 → 80 #20-39 from 70.2 M to 69.0 M and e20 from
/// 473 M to 464 M; the rest moved less than 1 %.) The midgame search sorts its nodes near the
/// horizon with the same key (`search::EVAL_ORDER_DEPTH`).
#[inline(always)]
pub(crate) fn fastest_first_key(replies: u64, corners: u64, frontier: u64, takes_corner: bool) -> i32 {
    let k = (replies.count_ones() as i32) * 80
        + (replies & corners).count_ones() as i32 * 64
        + frontier.count_ones() as i32 * 12;
    if takes_corner {
        k - 64
    } else {
        k
    }
}

/// A move of a deep node with its sort key (lowest first), its flips and the opponent's replies
/// after it.
#[derive(Clone, Copy)]
struct Scored {
    key: i32,
    sq: u32,
    flips: u64,
    replies: u64,
}

/// Inserts a move `(key, square, flips)` into the first `len` entries of `list`, kept in
/// increasing key order (insertion sort: a node has at most ~30 moves).
#[inline(always)]
pub(crate) fn insert_sorted(list: &mut [(i32, u32, u64)], len: usize, entry: (i32, u32, u64)) {
    let mut i = len;
    while i > 0 && list[i - 1].0 > entry.0 {
        list[i] = list[i - 1];
        i -= 1;
    }
    list[i] = entry;
}

/// Moves the entry with the smallest key among `list[i..]` to `list[i]` (the first one on a tie).
#[inline(always)]
fn pick_best(list: &mut [Scored], i: usize) {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].key < list[best].key {
            best = j;
        }
    }
    list.swap(i, best);
}

/// The depth of the search that ranks the moves of a node with `n` empties (0: the evaluation
/// alone).
fn sort_depth(n: u32) -> u32 {
    if n < SORT_SEARCH_EMPTIES {
        0
    } else {
        ((n - SORT_SEARCH_EMPTIES) / 2 + 1).min(SORT_SEARCH_MAX_DEPTH)
    }
}

mod portable {
    solver!(
        reversi_core::bitboard::moves_scalar,
        reversi_core::bitboard::flips_scalar
    );
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    solver!(
        reversi_core::bitboard::moves_avx2,
        reversi_core::bitboard::flips_avx2,
        target_feature(enable = "avx2,bmi2,popcnt");
        scalar target_feature(enable = "popcnt")
    );
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    solver!(
        reversi_core::bitboard::moves_avx512,
        reversi_core::bitboard::flips_avx512,
        target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512vl,avx512cd");
        scalar target_feature(enable = "popcnt")
    );
}

/// Exact score of `p` to move against `o` within `(alpha, beta)` (fail-soft: a score at or
/// below alpha is an upper bound, at or above beta a lower bound), with the best move. A kernel
/// this CPU lacks runs as the portable one.
pub fn solve_window(c: &mut Ctx, kernel: Kernel, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, u8) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU features of each compiled solver are checked just before its call.
        Kernel::Avx512 if kernel.available() => unsafe { avx512::pvs(c, p, o, alpha, beta) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Kernel::Avx2 if kernel.available() => unsafe { avx2::pvs(c, p, o, alpha, beta) },
        _ => portable::pvs(c, p, o, alpha, beta),
    }
}

/// Null-window test: is the score of `p` against `o` above `alpha`? Returns a bound.
pub fn solve_nws(c: &mut Ctx, kernel: Kernel, p: u64, o: u64, alpha: i32) -> i32 {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `solve_window`.
        Kernel::Avx512 if kernel.available() => unsafe { avx512::nws_any(c, p, o, alpha) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `solve_window`.
        Kernel::Avx2 if kernel.available() => unsafe { avx2::nws_any(c, p, o, alpha) },
        _ => portable::nws_any(c, p, o, alpha),
    }
}

#[cfg(test)]
mod last_flip_tests {
    use super::*;

    #[test]
    fn table_count_equals_computed_flips() {
        let mut seed = 0x0DDB_1A5E_5BAD_5EEDu64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let sq = (seed >> 58) as u32;
            let p = seed.rotate_left(17) & !(1u64 << sq);
            let o = !p & !(1u64 << sq);
            assert_eq!(
                count_last_flip(p, sq),
                reversi_core::bitboard::flips_scalar(p, o, sq).count_ones() as i32,
                "p={p:#x} sq={sq}"
            );
        }
    }
}
