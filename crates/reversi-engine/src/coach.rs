//! The coach: why a move is good or bad, in the terms of Reversi strategy the source texts
//! teach — corners, X- and C-squares, mobility, frontier, stable discs, parity, walls, quiet
//! moves. Every sentence comes from a [`Fact`] computed from the position and the engine's
//! lines; none is said without its fact.
//!
//! [`explain`] compares the move played with the engine's best move: the loss in discs
//! first, then the (at most three) facts that explain the most of it — the way the played
//! move differs from the best. For a move as good as the best it names what makes it good.
//! Each fact's weight is a rough guess of the discs it is worth (a corner given away about a
//! dozen, an opponent's move about one); the weights only order the facts.
//!
//! The coach reads full 8×8 boards (standard Othello and its openings); other boards get the
//! loss alone.

use crate::stability::stable_discs;
use reversi_core::bitboard::moves;
use reversi_core::{AnyPosition, Color, Move, Position, Square};

/// An argument of a fact's sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A count (Fluent picks the plural form by it).
    Num(i64),
    /// A square, a line of moves, a colour name (`black`/`white`).
    Text(String),
}

/// One computed fact about a move. Squares are in the usual notation (`h1`); `color` is the
/// player the fact is about when it is not the mover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fact {
    /// The move loses `discs` against the engine's `best`.
    Loss {
        /// Discs lost.
        discs: i32,
        /// The best move.
        best: Square,
    },
    /// The move is the engine's choice.
    Best,
    /// The move is as good as the engine's choice, `best`.
    AsGood {
        /// The engine's move.
        best: Square,
    },
    /// The move takes a corner.
    TakesCorner {
        /// The corner.
        corner: Square,
    },
    /// The best move would have taken this corner.
    MissesCorner {
        /// The corner.
        corner: Square,
    },
    /// Along the engine's line after the move, the opponent takes a corner after `moves` of
    /// its moves; `line` is the line from the move to the corner.
    GivesCorner {
        /// The opponent.
        color: Color,
        /// The corner.
        corner: Square,
        /// The opponent's moves until it takes it (1: at once).
        moves: u32,
        /// The moves from the one played to the corner.
        line: Vec<Move>,
    },
    /// After the move the opponent could take a corner it could not take before.
    OpensCorner {
        /// The opponent.
        color: Color,
        /// The corner.
        corner: Square,
    },
    /// The move is an X-square next to an empty corner.
    XSquare {
        /// The square.
        square: Square,
        /// Its corner.
        corner: Square,
    },
    /// The move is a C-square next to an empty corner.
    CSquare {
        /// The square.
        square: Square,
        /// Its corner.
        corner: Square,
    },
    /// The opponent has `after` moves after this one, `best_after` after the best move.
    Mobility {
        /// The opponent.
        color: Color,
        /// The opponent's moves after the move played.
        after: u32,
        /// The best move.
        best: Square,
        /// The opponent's moves after it.
        best_after: u32,
    },
    /// The mover (`color`) has `after` moves after this one (were it their turn), `best_after`
    /// after the best move: fewer choices next time. Named by colour, not "you": a spectator
    /// and a replay read it too.
    OwnMobility {
        /// The mover.
        color: Color,
        /// The mover's moves after the move played.
        after: u32,
        /// The best move.
        best: Square,
        /// The mover's moves after it.
        best_after: u32,
    },
    /// The engine's line after the move, when no simpler fact explains the loss.
    Line {
        /// The move and the best replies.
        line: Vec<Move>,
    },
    /// The move cuts the opponent's moves from `before` (were it their turn now) to `after`.
    Restricts {
        /// The opponent.
        color: Color,
        /// Their moves before.
        before: u32,
        /// Their moves after.
        after: u32,
    },
    /// The opponent has no move after it and must pass.
    Pass {
        /// The opponent.
        color: Color,
    },
    /// The move leaves the opponent without a disc.
    Wipeout {
        /// The opponent.
        color: Color,
    },
    /// The mover has `discs` frontier discs (next to an empty square) after the move,
    /// `best_discs` after the best move.
    Frontier {
        /// Frontier discs after the move.
        discs: u32,
        /// The best move.
        best: Square,
        /// Frontier discs after it.
        best_discs: u32,
    },
    /// The move makes `discs` of the mover's discs stable (they can never be flipped again).
    Stable {
        /// Discs made stable.
        discs: u32,
    },
    /// The best move would make `discs` discs stable.
    BestStable {
        /// The best move.
        best: Square,
        /// Discs it makes stable.
        discs: u32,
    },
    /// The move is played in a region of `size` empty squares (the end of the game): an odd
    /// region is left even, and the mover can keep its last move.
    Parity {
        /// Empty squares of the region before the move.
        size: u32,
    },
    /// The move plays into an even region of `size`, which the best move avoids: the region
    /// is left odd, and the opponent may get its last move.
    BreaksParity {
        /// Empty squares of the region before the move.
        size: u32,
    },
    /// The move builds a wall: `discs` of the mover's discs in a line, all facing empty
    /// squares on one side, from `from` to `to` — moves for the opponent all along it.
    Wall {
        /// Discs in the wall.
        discs: u32,
        /// One end.
        from: Square,
        /// The other end.
        to: Square,
    },
    /// A quiet move: it flips only `flips` discs and adds no frontier disc.
    Quiet {
        /// Discs flipped.
        flips: u32,
    },
    /// The move spends a reserve square — an edge square only the mover can play (the source
    /// texts' «резервное поле») — while the best move keeps it for later: a tempo given away.
    SpendsReserve {
        /// The square.
        square: Square,
        /// The best move.
        best: Square,
    },
    /// In the opening the move leaves the centre (the square c3–f6) where the best move stays
    /// in it.
    LeavesCentre {
        /// The square played.
        square: Square,
        /// The best move.
        best: Square,
    },
}

impl Fact {
    /// The Fluent message id of the fact's sentence (`coach-…`) and its arguments.
    pub fn message(&self) -> (&'static str, Vec<(&'static str, Arg)>) {
        let sq = |s: &Square| Arg::Text(s.to_string());
        let n = |v: u32| Arg::Num(v as i64);
        let c = |c: &Color| Arg::Text(c.name().to_string());
        match self {
            Fact::Loss { discs, best } => (
                "coach-loss",
                vec![("discs", Arg::Num(*discs as i64)), ("best", sq(best))],
            ),
            Fact::Best => ("coach-best", vec![]),
            Fact::AsGood { best } => ("coach-as-good", vec![("best", sq(best))]),
            Fact::OwnMobility {
                color,
                after,
                best,
                best_after,
            } => (
                "coach-own-mobility",
                vec![
                    ("color", c(color)),
                    ("after", n(*after)),
                    ("best", sq(best)),
                    ("best_after", n(*best_after)),
                ],
            ),
            Fact::Line { line } => ("coach-line", vec![("line", line_arg(line))]),
            Fact::TakesCorner { corner } => ("coach-takes-corner", vec![("corner", sq(corner))]),
            Fact::MissesCorner { corner } => ("coach-misses-corner", vec![("corner", sq(corner))]),
            Fact::GivesCorner {
                color,
                corner,
                moves,
                line,
            } => (
                "coach-gives-corner",
                vec![
                    ("color", c(color)),
                    ("corner", sq(corner)),
                    ("moves", n(*moves)),
                    ("line", line_arg(line)),
                ],
            ),
            Fact::OpensCorner { color, corner } => (
                "coach-opens-corner",
                vec![("color", c(color)), ("corner", sq(corner))],
            ),
            Fact::XSquare { square, corner } => (
                "coach-x-square",
                vec![("square", sq(square)), ("corner", sq(corner))],
            ),
            Fact::CSquare { square, corner } => (
                "coach-c-square",
                vec![("square", sq(square)), ("corner", sq(corner))],
            ),
            Fact::Mobility {
                color,
                after,
                best,
                best_after,
            } => (
                "coach-mobility",
                vec![
                    ("color", c(color)),
                    ("after", n(*after)),
                    ("best", sq(best)),
                    ("best_after", n(*best_after)),
                ],
            ),
            Fact::Restricts { color, before, after } => (
                "coach-restricts",
                vec![("color", c(color)), ("before", n(*before)), ("after", n(*after))],
            ),
            Fact::Pass { color } => ("coach-pass", vec![("color", c(color))]),
            Fact::Wipeout { color } => ("coach-wipeout", vec![("color", c(color))]),
            Fact::Frontier {
                discs,
                best,
                best_discs,
            } => (
                "coach-frontier",
                vec![
                    ("discs", n(*discs)),
                    ("best", sq(best)),
                    ("best_discs", n(*best_discs)),
                ],
            ),
            Fact::Stable { discs } => ("coach-stable", vec![("discs", n(*discs))]),
            Fact::BestStable { best, discs } => (
                "coach-best-stable",
                vec![("best", sq(best)), ("discs", n(*discs))],
            ),
            Fact::Parity { size } => ("coach-parity", vec![("size", n(*size))]),
            Fact::BreaksParity { size } => ("coach-breaks-parity", vec![("size", n(*size))]),
            Fact::Wall { discs, from, to } => (
                "coach-wall",
                vec![("discs", n(*discs)), ("from", sq(from)), ("to", sq(to))],
            ),
            Fact::Quiet { flips } => ("coach-quiet", vec![("flips", n(*flips))]),
            Fact::SpendsReserve { square: s, best } => (
                "coach-spends-reserve",
                vec![("square", sq(s)), ("best", sq(best))],
            ),
            Fact::LeavesCentre { square: s, best } => {
                ("coach-leaves-centre", vec![("square", sq(s)), ("best", sq(best))])
            }
        }
    }
}

fn line_arg(line: &[Move]) -> Arg {
    Arg::Text(line.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" "))
}

/// Why a move is good or bad: the loss (or that it is the best), then the facts that explain
/// the most.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The sentences' facts, in order: [`Fact::Loss`] or [`Fact::Best`] first.
    pub facts: Vec<Fact>,
}

/// The most facts told after the loss.
pub const MAX_FACTS: usize = 3;

/// Empty squares from which parity counts (the last stretch of the game).
pub const PARITY_EMPTIES: u32 = 16;
/// Empty squares above which the game is still in its opening, where the fight is for the
/// centre (seed 000: the first dozen moves fill the square c3–f6).
pub const OPENING_EMPTIES: u32 = 44;
/// The centre of the board, c3–f6.
const CENTRE: u64 = 0x0000_3c3c_3c3c_0000;
/// The edge squares that are not corners.
const EDGES: u64 = 0x7e81_8181_8181_817e;

/// `p`'s reserve squares against `o`: edge squares (not corners) `p` can play and `o` cannot.
fn reserve_of(p: u64, o: u64) -> u64 {
    moves(p, o) & !moves(o, p) & EDGES
}

/// The opponent's moves looked at along a line for a corner it takes.
const CORNER_HORIZON: u32 = 3;

/// Moves of the engine's line shown when no simpler fact explains a loss.
const LINE_SHOWN: usize = 6;

/// A wall is at least this many discs.
const WALL_MIN: u32 = 5;

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
pub(crate) const CORNERS: [u32; 4] = [0, 7, 56, 63];
/// X-squares and their corners.
const X_SQUARES: [(u32, u32); 4] = [(9, 0), (14, 7), (49, 56), (54, 63)];
/// C-squares and their corners.
const C_SQUARES: [(u32, u32); 8] = [
    (1, 0),
    (8, 0),
    (6, 7),
    (15, 7),
    (48, 56),
    (57, 56),
    (62, 63),
    (55, 63),
];

fn neighbours(b: u64) -> u64 {
    let e = (b << 1) & NOT_A;
    let w = (b >> 1) & NOT_H;
    let row = b | e | w;
    e | w | (row << 8) | (row >> 8)
}

/// `p`'s frontier discs: those next to a square of `empty`.
pub(crate) fn frontier_of(p: u64, empty: u64) -> u64 {
    p & neighbours(empty)
}

fn square(bit: u32) -> Square {
    Square::from_bit8(bit)
}

/// What one move does, measured from the mover's side.
struct Effect {
    mv: u32,
    flips: u32,
    /// The opponent's moves after it.
    opp_moves: u32,
    opp_discs: u32,
    /// The mover's moves after it (were it their turn).
    own_moves: u32,
    frontier: u32,
    frontier_grew: bool,
    stable_gain: u32,
    /// The size of the empty region the move is played in.
    region: u32,
    wall: Option<(u32, u32, u32)>,
    wall_before: u32,
    corner_opened: Option<u32>,
    corner_given: Option<(u32, u32, Vec<Move>)>,
}

fn effect(p: u64, o: u64, mv: u32, pv: &[Move], mover: Color) -> Effect {
    let empty = !(p | o);
    let before_pos = position(p, o, mover);
    let mut pos = before_pos;
    let flipped = pos.play_unchecked(Move::Play(square(mv)));
    let (p2, o2) = (p | flipped | (1u64 << mv), o & !flipped);
    let empty2 = !(p2 | o2);
    let frontier_before = frontier_of(p, empty).count_ones();
    let frontier = frontier_of(p2, empty2).count_ones();
    let opp_moves_before_corners = moves(o, p);
    let opp_after = moves(o2, p2);
    let corner_opened = CORNERS
        .iter()
        .copied()
        .find(|&c| opp_after & (1 << c) != 0 && opp_moves_before_corners & (1 << c) == 0);
    Effect {
        mv,
        flips: flipped.count_ones(),
        opp_moves: opp_after.count_ones(),
        opp_discs: o2.count_ones(),
        own_moves: moves(p2, o2).count_ones(),
        frontier,
        frontier_grew: frontier > frontier_before,
        stable_gain: (stable_discs(p2, o2) & p2)
            .count_ones()
            .saturating_sub((stable_discs(p, o) & p).count_ones()),
        region: region_of(empty, mv).count_ones(),
        wall: longest_wall(p2, empty2),
        wall_before: longest_wall(p, empty).map_or(0, |w| w.0),
        corner_opened,
        corner_given: corner_given(&before_pos, pv, empty),
    }
}

fn position(p: u64, o: u64, mover: Color) -> Position<u64> {
    let (black, white) = match mover {
        Color::Black => (p, o),
        Color::White => (o, p),
    };
    Position::with_discs(&reversi_core::Rules::othello(), black, white, mover)
}

/// The 8-connected region of empty squares around `sq`.
fn region_of(empty: u64, sq: u32) -> u64 {
    let mut r = 1u64 << sq;
    loop {
        let next = (r | neighbours(r)) & empty;
        if next == r {
            return r;
        }
        r = next;
    }
}

/// The longest line of `p`'s discs facing empty squares on one side: (discs, one end, other end).
fn longest_wall(p: u64, empty: u64) -> Option<(u32, u32, u32)> {
    // Discs with an empty square right above, below, to the left, to the right.
    let faces = [
        (p & (empty >> 8), 1u32),
        (p & (empty << 8), 1),
        (p & ((empty >> 1) & NOT_H), 8),
        (p & ((empty << 1) & NOT_A), 8),
    ];
    let mut best: Option<(u32, u32, u32)> = None;
    for (set, step) in faces {
        for start in 0..64u32 {
            if set & (1 << start) == 0 {
                continue;
            }
            // Count a run only from its first square.
            let prev_in_line = match step {
                1 => start % 8 > 0 && set & (1 << (start - 1)) != 0,
                _ => start >= 8 && set & (1 << (start - 8)) != 0,
            };
            if prev_in_line {
                continue;
            }
            let mut end = start;
            while {
                let next = end + step;
                next < 64 && (step == 8 || next % 8 != 0) && set & (1 << next) != 0
            } {
                end += step;
            }
            let len = (end - start) / step + 1;
            if best.is_none_or(|b| len > b.0) {
                best = Some((len, start, end));
            }
        }
    }
    best
}

/// Along `pv` (the move, then the best replies) from `pos`: the first corner the opponent takes
/// within [`CORNER_HORIZON`] of its moves, with the count and the line up to it.
fn corner_given(pos: &Position<u64>, pv: &[Move], empty: u64) -> Option<(u32, u32, Vec<Move>)> {
    let mover = pos.side_to_move();
    let mut p = *pos;
    let mut theirs = 0;
    for (i, &m) in pv.iter().enumerate() {
        let who = p.side_to_move();
        if p.play(m).is_err() {
            return None;
        }
        if who == mover || m == Move::Pass {
            continue;
        }
        theirs += 1;
        if let Move::Play(s) = m {
            let bit = s.bit8()?;
            if CORNERS.contains(&bit) && empty & (1 << bit) != 0 {
                return Some((bit, theirs, pv[..=i].to_vec()));
            }
        }
        if theirs >= CORNER_HORIZON {
            return None;
        }
    }
    None
}

/// Explains `played` in `pos` against the engine's `best`: `loss` is the discs it loses (0:
/// as good), `played_pv` and `best_pv` the engine's lines starting with each move. A pass, or
/// a board that is not a full 8×8 one, gets the loss alone.
pub fn explain(
    pos: &AnyPosition,
    played: Move,
    played_pv: &[Move],
    best: Move,
    best_pv: &[Move],
    loss: i32,
) -> Explanation {
    let head = match (loss > 0, best) {
        (true, Move::Play(b)) => Fact::Loss { discs: loss, best: b },
        (false, Move::Play(b)) if best != played => Fact::AsGood { best: b },
        _ => Fact::Best,
    };
    let mut facts = vec![head];
    let (AnyPosition::Small(p8), Move::Play(m), Move::Play(b)) = (pos, played, best) else {
        return Explanation { facts };
    };
    if p8.playable() != u64::MAX || p8.width() != 8 {
        return Explanation { facts };
    }
    let (Some(mb), Some(bb)) = (m.bit8(), b.bit8()) else {
        return Explanation { facts };
    };
    let mover = p8.side_to_move();
    let (p, o) = (p8.discs(mover), p8.discs(!mover));
    let opp = !mover;
    let mine = effect(p, o, mb, &pv_from(played, played_pv), mover);
    let theirs = if bb == mb {
        None
    } else {
        Some(effect(p, o, bb, &pv_from(best, best_pv), mover))
    };
    let empties = (!(p | o)).count_ones();
    let mut weighed: Vec<(f32, Fact)> = Vec::new();
    let mut add = |w: f32, f: Fact| weighed.push((w, f));
    let corner = |bit: u32| CORNERS.contains(&bit);
    let empty = !(p | o);
    let x_of = |bit: u32| {
        X_SQUARES
            .iter()
            .find(|(x, c)| *x == bit && empty & (1 << c) != 0)
            .map(|&(_, c)| c)
    };
    let c_of = |bit: u32| {
        C_SQUARES
            .iter()
            .find(|(x, c)| *x == bit && empty & (1 << c) != 0)
            .map(|&(_, c)| c)
    };

    match &theirs {
        // A mistake: what the played move does worse than the best.
        Some(best_e) if loss > 0 => {
            if corner(best_e.mv) && !corner(mine.mv) {
                add(
                    10.0,
                    Fact::MissesCorner {
                        corner: square(best_e.mv),
                    },
                );
            }
            if let Some((c, moves, line)) = &mine.corner_given {
                if best_e.corner_given.as_ref().is_none_or(|g| g.0 != *c) {
                    add(
                        12.0 - *moves as f32,
                        Fact::GivesCorner {
                            color: opp,
                            corner: square(*c),
                            moves: *moves,
                            line: line.clone(),
                        },
                    );
                }
            } else if let Some(c) = mine.corner_opened {
                if best_e.corner_opened.is_none() {
                    add(
                        8.0,
                        Fact::OpensCorner {
                            color: opp,
                            corner: square(c),
                        },
                    );
                }
            }
            if let Some(c) = x_of(mine.mv).filter(|_| x_of(best_e.mv).is_none()) {
                add(
                    7.0,
                    Fact::XSquare {
                        square: m,
                        corner: square(c),
                    },
                );
            }
            if let Some(c) = c_of(mine.mv).filter(|_| c_of(best_e.mv).is_none() && x_of(best_e.mv).is_none())
            {
                add(
                    3.0,
                    Fact::CSquare {
                        square: m,
                        corner: square(c),
                    },
                );
            }
            if mine.opp_moves > best_e.opp_moves {
                let d = (mine.opp_moves - best_e.opp_moves) as f32;
                add(
                    1.2 * d,
                    Fact::Mobility {
                        color: opp,
                        after: mine.opp_moves,
                        best: b,
                        best_after: best_e.opp_moves,
                    },
                );
            }
            if mine.own_moves + 2 <= best_e.own_moves {
                add(
                    0.8 * (best_e.own_moves - mine.own_moves) as f32,
                    Fact::OwnMobility {
                        color: mover,
                        after: mine.own_moves,
                        best: b,
                        best_after: best_e.own_moves,
                    },
                );
            }
            if mine.frontier > best_e.frontier {
                add(
                    0.6 * (mine.frontier - best_e.frontier) as f32,
                    Fact::Frontier {
                        discs: mine.frontier,
                        best: b,
                        best_discs: best_e.frontier,
                    },
                );
            }
            if best_e.stable_gain > mine.stable_gain + 1 {
                add(
                    (best_e.stable_gain - mine.stable_gain) as f32,
                    Fact::BestStable {
                        best: b,
                        discs: best_e.stable_gain,
                    },
                );
            }
            if empties <= PARITY_EMPTIES && mine.region.is_multiple_of(2) && !best_e.region.is_multiple_of(2)
            {
                add(4.0, Fact::BreaksParity { size: mine.region });
            }
            let reserve = reserve_of(p, o);
            if reserve & (1 << mine.mv) != 0 && reserve & (1 << best_e.mv) == 0 {
                add(2.5, Fact::SpendsReserve { square: m, best: b });
            }
            if empties > OPENING_EMPTIES && CENTRE & (1 << mine.mv) == 0 && CENTRE & (1 << best_e.mv) != 0 {
                add(2.0, Fact::LeavesCentre { square: m, best: b });
            }
            if let Some((len, from, to)) = mine.wall {
                let best_wall = best_e.wall.map_or(0, |w| w.0);
                if len >= WALL_MIN && len > mine.wall_before && len > best_wall {
                    add(
                        (len - WALL_MIN + 2) as f32,
                        Fact::Wall {
                            discs: len,
                            from: square(from),
                            to: square(to),
                        },
                    );
                }
            }
        }
        // As good as the best: what makes it good.
        _ => {
            if mine.opp_discs == 0 {
                add(60.0, Fact::Wipeout { color: opp });
            }
            if corner(mine.mv) {
                add(10.0, Fact::TakesCorner { corner: m });
            }
            let before = moves(o, p).count_ones();
            if mine.opp_moves == 0 && mine.opp_discs > 0 && mine.own_moves > 0 {
                add(8.0, Fact::Pass { color: opp });
            } else if mine.opp_moves + 2 <= before {
                add(
                    (before - mine.opp_moves) as f32,
                    Fact::Restricts {
                        color: opp,
                        before,
                        after: mine.opp_moves,
                    },
                );
            }
            if mine.stable_gain >= 2 {
                add(
                    mine.stable_gain as f32,
                    Fact::Stable {
                        discs: mine.stable_gain,
                    },
                );
            }
            if empties <= PARITY_EMPTIES && !mine.region.is_multiple_of(2) {
                add(3.0, Fact::Parity { size: mine.region });
            }
            if mine.flips <= 2 && !mine.frontier_grew && !corner(mine.mv) {
                add(2.5, Fact::Quiet { flips: mine.flips });
            }
        }
    }
    weighed.sort_by(|a, b| b.0.total_cmp(&a.0));
    let explained = !weighed.is_empty();
    facts.extend(weighed.into_iter().take(MAX_FACTS).map(|(_, f)| f));
    let line = pv_from(played, played_pv);
    if loss > 0 && !explained && line.len() > 1 {
        // No simple fact: the line the engine expects says where the discs go.
        facts.push(Fact::Line {
            line: line.into_iter().take(LINE_SHOWN).collect(),
        });
    }
    Explanation { facts }
}

/// The line starting with `mv` (the engine's line, or the move alone).
fn pv_from(mv: Move, pv: &[Move]) -> Vec<Move> {
    if pv.first() == Some(&mv) {
        pv.to_vec()
    } else {
        vec![mv]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::format::obf::parse_obf_line;
    use reversi_core::Bits;

    fn pos(rows: [&str; 8], side: char) -> AnyPosition {
        parse_obf_line(&format!("{} {side};", rows.concat()))
            .unwrap()
            .position
    }

    fn mv(s: &str) -> Move {
        Move::Play(Square::parse(s).unwrap())
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// Black to move: b2 flips c3, after which White takes a1 along a1-b2-c3-d4 (e5).
    fn x_square_position() -> AnyPosition {
        pos(
            [
                "--------", "--------", "--O-----", "---XX---", "---XO---", "--------", "--------",
                "--------",
            ],
            'X',
        )
    }

    #[test]
    fn a_reserve_square_spent_too_early_is_told() {
        // Black alone can play c1 (through c2 to c3): a reserve square; e3 is the other move.
        let p = pos(
            [
                "--------", "--O-----", "--X-----", "----O---", "----X---", "--------", "--------",
                "--------",
            ],
            'X',
        );
        let e = explain(&p, mv("c1"), &[mv("c1")], mv("e3"), &[mv("e3")], 2);
        assert!(
            e.facts.contains(&Fact::SpendsReserve {
                square: sq("c1"),
                best: sq("e3")
            }),
            "{:?}",
            e.facts
        );
        // Played the other way round, nothing is said of it.
        let e = explain(&p, mv("e3"), &[mv("e3")], mv("c1"), &[mv("c1")], 2);
        assert!(
            !e.facts.iter().any(|f| matches!(f, Fact::SpendsReserve { .. })),
            "{:?}",
            e.facts
        );
    }

    #[test]
    fn leaving_the_centre_in_the_opening_is_told() {
        // After f5 f6 e6 f4 black may play inside c3–f6 (e3) or out of it (g3 …).
        let mut p = AnyPosition::start(&reversi_core::Rules::othello());
        for m in ["f5", "f6", "e6", "f4"] {
            p.play(mv(m)).unwrap();
        }
        let outside = p
            .legal_moves()
            .squares()
            .find(|s| CENTRE & (1u64 << s.bit8().unwrap()) == 0)
            .expect("a move out of the centre");
        let e = explain(
            &p,
            Move::Play(outside),
            &[Move::Play(outside)],
            mv("e3"),
            &[mv("e3")],
            3,
        );
        assert!(
            e.facts.contains(&Fact::LeavesCentre {
                square: outside,
                best: sq("e3")
            }),
            "{:?}",
            e.facts
        );
    }

    #[test]
    fn a_move_that_gives_a_corner_is_told_with_its_line() {
        let p = x_square_position();
        let e = explain(&p, mv("b2"), &[mv("b2"), mv("a1")], mv("f6"), &[mv("f6")], 10);
        assert_eq!(
            e.facts[0],
            Fact::Loss {
                discs: 10,
                best: sq("f6")
            }
        );
        assert!(
            e.facts.contains(&Fact::GivesCorner {
                color: Color::White,
                corner: sq("a1"),
                moves: 1,
                line: vec![mv("b2"), mv("a1")]
            }),
            "{:?}",
            e.facts
        );
        assert!(
            e.facts.contains(&Fact::XSquare {
                square: sq("b2"),
                corner: sq("a1")
            }),
            "{:?}",
            e.facts
        );
        assert!(e.facts.len() <= 1 + MAX_FACTS);
        // The corner given is the heaviest fact: it comes right after the loss.
        assert!(matches!(e.facts[1], Fact::GivesCorner { .. }), "{:?}", e.facts);
    }

    #[test]
    fn a_corner_two_moves_later_counts_the_moves() {
        let p = x_square_position();
        // A line where White answers elsewhere first, Black moves, and only then White takes
        // a1: the first such line among the legal ones.
        let mut after = p;
        after.play(mv("b2")).unwrap();
        let legal = |q: &AnyPosition| q.legal_moves().squares().map(Move::Play).collect::<Vec<_>>();
        let line = legal(&after)
            .into_iter()
            .filter(|&r| r != mv("a1"))
            .find_map(|reply| {
                let mut q = after;
                q.play(reply).unwrap();
                legal(&q).into_iter().find_map(|ours| {
                    let mut q2 = q;
                    q2.play(ours).unwrap();
                    q2.check(mv("a1"))
                        .is_ok()
                        .then(|| vec![mv("b2"), reply, ours, mv("a1")])
                })
            })
            .expect("a line that leaves a1 open");
        let e = explain(&p, mv("b2"), &line, mv("f6"), &[mv("f6")], 6);
        assert!(
            e.facts
                .iter()
                .any(|f| matches!(f, Fact::GivesCorner { moves: 2, line: l, .. } if *l == line)),
            "{:?}",
            e.facts
        );
    }

    #[test]
    fn an_x_square_next_to_a_taken_corner_is_no_fault() {
        // The same, with a1 already Black's: b2 is no X-square danger there.
        let p = pos(
            [
                "X-------", "--------", "--O-----", "---XX---", "---XO---", "--------", "--------",
                "--------",
            ],
            'X',
        );
        let e = explain(&p, mv("b2"), &[mv("b2")], mv("f6"), &[mv("f6")], 3);
        assert!(
            !e.facts
                .iter()
                .any(|f| matches!(f, Fact::XSquare { .. } | Fact::GivesCorner { .. })),
            "{:?}",
            e.facts
        );
    }

    #[test]
    fn a_move_that_leaves_the_opponent_no_move_says_so() {
        // c1 flips b1; White's last disc, g8, has no move, and Black still has f8.
        let p = pos(
            [
                "XO------", "--------", "--------", "--------", "--------", "--------", "--------",
                "------OX",
            ],
            'X',
        );
        let e = explain(&p, mv("c1"), &[mv("c1")], mv("c1"), &[mv("c1")], 0);
        assert_eq!(e.facts[0], Fact::Best);
        assert!(
            e.facts.contains(&Fact::Pass { color: Color::White }),
            "{:?}",
            e.facts
        );
    }

    #[test]
    fn a_wipeout_is_the_first_thing_said() {
        let p = pos(
            [
                "XO------", "--------", "--------", "--------", "--------", "--------", "--------",
                "--------",
            ],
            'X',
        );
        let e = explain(&p, mv("c1"), &[mv("c1")], mv("c1"), &[mv("c1")], 0);
        assert_eq!(e.facts[1], Fact::Wipeout { color: Color::White }, "{:?}", e.facts);
    }

    #[test]
    fn the_parity_choice_at_the_end() {
        // Three empty squares: a1 alone (odd), g8 and h8 together (even). Black can play all.
        let p = pos(
            [
                "-OXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXO", "XXXXXXXO",
                "XXXXXO--",
            ],
            'X',
        );
        assert!(
            p.check(mv("a1")).is_ok() && p.check(mv("g8")).is_ok(),
            "the test position"
        );
        let bad = explain(&p, mv("g8"), &[mv("g8")], mv("a1"), &[mv("a1")], 2);
        assert!(
            bad.facts.contains(&Fact::BreaksParity { size: 2 }),
            "{:?}",
            bad.facts
        );
        // Played the other way round, the odd region is no fault.
        let other = explain(&p, mv("a1"), &[mv("a1")], mv("g8"), &[mv("g8")], 2);
        assert!(
            !other.facts.iter().any(|f| matches!(f, Fact::BreaksParity { .. })),
            "{:?}",
            other.facts
        );
    }

    #[test]
    fn mobility_and_frontier_are_counted_against_the_best_move() {
        // From the opening f5 d6 c3 d3 c4: compare every Black move with the one that leaves
        // White the fewest moves; the counts in the facts are the board's.
        let g = reversi_core::Game::from_transcript(reversi_core::Rules::othello(), "f5d6c3d3c4f4").unwrap();
        let p = *g.position();
        let AnyPosition::Small(small) = p else {
            unreachable!()
        };
        let mover = small.side_to_move();
        let opp_moves = |m: Move| {
            let mut q = small;
            q.play(m).unwrap();
            q.legal_moves().count_ones()
        };
        let all: Vec<Move> = small.legal_moves().squares().map(Move::Play).collect();
        let best = *all.iter().min_by_key(|&&m| opp_moves(m)).unwrap();
        for &m in &all {
            let e = explain(&p, m, &[m], best, &[best], if m == best { 0 } else { 3 });
            for f in &e.facts {
                if let Fact::Mobility {
                    color,
                    after,
                    best: b,
                    best_after,
                } = f
                {
                    assert_eq!(*color, !mover);
                    assert_eq!(*after, opp_moves(m));
                    assert_eq!(Move::Play(*b), best);
                    assert_eq!(*best_after, opp_moves(best));
                    assert!(after > best_after);
                }
            }
        }
    }
}
