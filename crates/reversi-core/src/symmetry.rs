//! The eight symmetries of a square board.

use crate::bitboard::{flip_diagonal, flip_horizontal, flip_vertical};
use crate::bits::Bits;
use crate::square::Square;

/// A symmetry of the square board (the dihedral group of order 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Symmetry {
    /// No change.
    Identity,
    /// A quarter turn clockwise (`a1` → `h1` on 8×8).
    Rotate90,
    /// A half turn.
    Rotate180,
    /// A quarter turn anticlockwise.
    Rotate270,
    /// Columns mirrored (`a` ↔ `h`).
    FlipHorizontal,
    /// Rows mirrored (`1` ↔ `8`).
    FlipVertical,
    /// Mirrored in the `a1`–`h8` diagonal.
    FlipDiagonal,
    /// Mirrored in the `h1`–`a8` diagonal.
    FlipAntiDiagonal,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipHorizontal,
        Symmetry::FlipVertical,
        Symmetry::FlipDiagonal,
        Symmetry::FlipAntiDiagonal,
    ];

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            s => s,
        }
    }

    /// Where `sq` goes on an `n`×`n` board.
    pub fn apply(self, sq: Square, n: u8) -> Square {
        let (c, r, m) = (sq.col(), sq.row(), n - 1);
        let (c, r) = match self {
            Symmetry::Identity => (c, r),
            Symmetry::Rotate90 => (m - r, c),
            Symmetry::Rotate180 => (m - c, m - r),
            Symmetry::Rotate270 => (r, m - c),
            Symmetry::FlipHorizontal => (m - c, r),
            Symmetry::FlipVertical => (c, m - r),
            Symmetry::FlipDiagonal => (r, c),
            Symmetry::FlipAntiDiagonal => (m - r, m - c),
        };
        Square::new(c, r).expect("image stays on the board")
    }

    /// The image of a set of squares on an `n`×`n` board.
    pub fn apply_set<B: Bits>(self, b: B, n: u8) -> B {
        b.squares()
            .fold(B::EMPTY, |acc, sq| acc | B::square(self.apply(sq, n)))
    }

    /// The image of a full 8×8 bitboard, by bit twiddling (the engine's fast path).
    #[inline]
    pub fn apply_u64(self, b: u64) -> u64 {
        match self {
            Symmetry::Identity => b,
            Symmetry::Rotate90 => flip_horizontal(flip_diagonal(b)),
            Symmetry::Rotate180 => flip_vertical(flip_horizontal(b)),
            Symmetry::Rotate270 => flip_vertical(flip_diagonal(b)),
            Symmetry::FlipHorizontal => flip_horizontal(b),
            Symmetry::FlipVertical => flip_vertical(b),
            Symmetry::FlipDiagonal => flip_diagonal(b),
            Symmetry::FlipAntiDiagonal => flip_vertical(flip_horizontal(flip_diagonal(b))),
        }
    }
}

/// The least of the eight images of a pair of 8×8 bitboards (compared as a pair), and the
/// symmetry that gives it: one representative for every class of symmetric positions (the
/// opening book's and the training set's key, the opening names' index).
pub fn canonical_u64(a: u64, b: u64) -> (u64, u64, Symmetry) {
    Symmetry::ALL
        .iter()
        .map(|&s| (s.apply_u64(a), s.apply_u64(b), s))
        .min_by_key(|&(a, b, _)| (a, b))
        .expect("eight images")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_and_generic_agree() {
        let b = 0x8142_2418_0F00_F0A5u64;
        for s in Symmetry::ALL {
            assert_eq!(s.apply_u64(b), s.apply_set(b, 8), "{s:?}");
            assert_eq!(s.inverse().apply_u64(s.apply_u64(b)), b);
        }
        let a1 = Square::parse("a1").unwrap();
        assert_eq!(Symmetry::Rotate90.apply(a1, 8).to_string(), "h1");
    }
}
