//! The hand-tuned 8×8 evaluation: mobility, potential mobility, corners, X- and C-squares,
//! stable discs and parity, weighted by game phase.

use super::Evaluator;
use crate::stability::stable_discs;
use reversi_core::bitboard::{around, moves};

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// (X-square, its corner) pairs.
const X_SQUARES: [(u64, u64); 4] = [
    (1 << 9, 1),
    (1 << 14, 1 << 7),
    (1 << 49, 1 << 56),
    (1 << 54, 1 << 63),
];
/// (C-squares, their corner).
const C_SQUARES: [(u64, u64); 4] = [
    ((1 << 1) | (1 << 8), 1),
    ((1 << 6) | (1 << 15), 1 << 7),
    ((1 << 48) | (1 << 57), 1 << 56),
    ((1 << 55) | (1 << 62), 1 << 63),
];

/// Weights in 1/64 disc at the opening (60 empties) and at the end (0 empties); the weight at
/// other stages is interpolated.
#[derive(Clone, Copy, Debug)]
struct Weights {
    mobility: (i32, i32),
    potential: (i32, i32),
    corner: (i32, i32),
    x_square: (i32, i32),
    c_square: (i32, i32),
    stable: (i32, i32),
    discs: (i32, i32),
    parity: (i32, i32),
}

const W: Weights = Weights {
    mobility: (150, 90),
    potential: (60, 20),
    corner: (1000, 400),
    x_square: (-500, -100),
    c_square: (-150, -40),
    stable: (200, 100),
    discs: (-10, 64),
    parity: (0, 120),
};

/// The hand-tuned evaluation (hand-set weights, by game phase).
#[derive(Clone, Copy, Debug, Default)]
pub struct HandTuned;

impl HandTuned {
    /// The evaluation in 1/64 disc (finer than the search uses; for tests and tuning).
    pub fn eval_fine(&self, p: u64, o: u64) -> i32 {
        let empty = !(p | o);
        let e = empty.count_ones() as i32;
        let at = |(open, end): (i32, i32), f: i32| (open * e + end * (60 - e.min(60))) / 60 * f;
        let mob = moves(p, o).count_ones() as i32 - moves(o, p).count_ones() as i32;
        // Potential mobility: empty squares next to the opponent's discs are future moves.
        let pot = (around(o) & empty).count_ones() as i32 - (around(p) & empty).count_ones() as i32;
        let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
        let mut xs = 0;
        for (x, c) in X_SQUARES {
            if c & empty != 0 {
                xs += ((p & x) != 0) as i32 - ((o & x) != 0) as i32;
            }
        }
        let mut cs = 0;
        for (cm, c) in C_SQUARES {
            if c & empty != 0 {
                cs += (p & cm).count_ones() as i32 - (o & cm).count_ones() as i32;
            }
        }
        let stable = if e < 50 {
            stable_discs(p, o).count_ones() as i32 - stable_discs(o, p).count_ones() as i32
        } else {
            0
        };
        let discs = p.count_ones() as i32 - o.count_ones() as i32;
        // With an odd number of empties the side to move expects the last move.
        let parity = if e % 2 == 1 { 1 } else { -1 };
        at(W.mobility, mob)
            + at(W.potential, pot)
            + at(W.corner, corners)
            + at(W.x_square, xs)
            + at(W.c_square, cs)
            + at(W.stable, stable)
            + at(W.discs, discs)
            + at(W.parity, parity)
    }
}

impl Evaluator for HandTuned {
    #[inline]
    fn eval(&self, p: u64, o: u64) -> i32 {
        let v = self.eval_fine(p, o);
        ((v + 32).div_euclid(64)).clamp(-63, 63)
    }

    fn name(&self) -> &'static str {
        "hand-tuned"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::Symmetry;

    #[test]
    fn symmetric_and_antisymmetric() {
        let (p, o) = (0x0000_0008_1C00_0000u64, 0x0000_0010_0004_0000u64);
        let v = HandTuned.eval_fine(p, o);
        for s in Symmetry::ALL {
            assert_eq!(HandTuned.eval_fine(s.apply_u64(p), s.apply_u64(o)), v, "{s:?}");
        }
        // The start position is balanced; a corner is worth having.
        let (b, w) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        assert_eq!(HandTuned.eval(b, w), HandTuned.eval(w, b));
        assert!(HandTuned.eval(b | 1, w) > HandTuned.eval(b, w));
    }
}
