//! Sets of squares: one trait over the 8×8 `u64` fast path and the 16×16 [`WideBits`] board.

use crate::bitboard;
use crate::square::Square;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares on a board of at most [`Bits::MAX_SIDE`]² squares, with move generation.
///
/// Squares outside the board (or missing from it, as in Eight-Stars and black-hole) are never
/// occupied, so they break every line by construction; the caller masks legal moves with the
/// playable squares.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The largest board side this set can hold.
    const MAX_SIDE: u8;
    /// No squares.
    const EMPTY: Self;
    /// The set holding just `sq`; empty if `sq` lies outside [`Bits::MAX_SIDE`].
    fn square(sq: Square) -> Self;
    /// Whether `sq` is in the set.
    fn has(self, sq: Square) -> bool {
        !(self & Self::square(sq)).is_empty()
    }
    /// The number of squares in the set.
    fn count(self) -> u32;
    /// Whether the set is empty.
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }
    /// The first square in board order, if any.
    fn first(self) -> Option<Square>;
    /// The squares in board order.
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
    /// Empty squares where `p` flanks at least one line of `o`.
    fn moves(p: Self, o: Self) -> Self;
    /// Discs of `o` flipped by `p` playing `sq`.
    fn flips(p: Self, o: Self, sq: Square) -> Self;
    /// The set as a [`WideBits`] (the common currency of the public API).
    fn to_wide(self) -> WideBits;
    /// The set from a [`WideBits`]; squares beyond [`Bits::MAX_SIDE`] are dropped.
    fn from_wide(w: WideBits) -> Self;
}

/// Iterator over the squares of a set, in board order.
#[derive(Clone, Debug)]
pub struct SquareIter<B>(B);

impl<B: Bits> Iterator for SquareIter<B> {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.0.first()?;
        self.0 ^= B::square(sq);
        Some(sq)
    }
}

impl Bits for u64 {
    const MAX_SIDE: u8 = 8;
    const EMPTY: u64 = 0;
    #[inline]
    fn square(sq: Square) -> u64 {
        sq.bit8().map_or(0, |b| 1 << b)
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn first(self) -> Option<Square> {
        (self != 0).then(|| Square::from_bit8(self.trailing_zeros()))
    }
    #[inline]
    fn moves(p: u64, o: u64) -> u64 {
        bitboard::moves(p, o)
    }
    #[inline]
    fn flips(p: u64, o: u64, sq: Square) -> u64 {
        sq.bit8().map_or(0, |b| bitboard::flips(p, o, b))
    }
    fn to_wide(self) -> WideBits {
        let mut w = WideBits::EMPTY;
        for row in 0..8 {
            let bits = (self >> (row * 8)) & 0xFF;
            w.0[row / 4] |= bits << ((row % 4) * 16);
        }
        w
    }
    fn from_wide(w: WideBits) -> u64 {
        let mut b = 0;
        for row in 0..8 {
            b |= ((w.0[row / 4] >> ((row % 4) * 16)) & 0xFF) << (row * 8);
        }
        b
    }
}

/// A set of squares on a 16×16 grid: bit `row * 16 + col` (the [`Square`] index), four words of
/// four rows each. Used for every geometry larger than 8×8 and as the public set type.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct WideBits(pub [u64; 4]);

impl Debug for WideBits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.squares()).finish()
    }
}

const COL_0: u64 = 0x0001_0001_0001_0001;
const NOT_COL_0: WideBits = WideBits([!COL_0; 4]);
const NOT_COL_15: WideBits = WideBits([!(COL_0 << 15); 4]);

impl WideBits {
    /// The `w`×`h` rectangle at the top left.
    pub fn rect(w: u8, h: u8) -> WideBits {
        let mut r = WideBits::EMPTY;
        for row in 0..h.min(16) {
            for col in 0..w.min(16) {
                r |= WideBits::square(Square::new(col, row).expect("in range"));
            }
        }
        r
    }

    /// Shift towards higher indices by `k` (< 64) bits.
    #[inline]
    fn shl(self, k: u32) -> WideBits {
        let a = self.0;
        let carry = |lo: u64| if k == 0 { 0 } else { lo >> (64 - k) };
        WideBits([
            a[0] << k,
            (a[1] << k) | carry(a[0]),
            (a[2] << k) | carry(a[1]),
            (a[3] << k) | carry(a[2]),
        ])
    }

    /// Shift towards lower indices by `k` (< 64) bits.
    #[inline]
    fn shr(self, k: u32) -> WideBits {
        let a = self.0;
        let carry = |hi: u64| if k == 0 { 0 } else { hi << (64 - k) };
        WideBits([
            (a[0] >> k) | carry(a[1]),
            (a[1] >> k) | carry(a[2]),
            (a[2] >> k) | carry(a[3]),
            a[3] >> k,
        ])
    }

    /// One step in direction `d` (0..8), dropping squares that wrap around a side.
    #[inline]
    fn step(self, d: usize) -> WideBits {
        match d {
            0 => self.shl(1) & NOT_COL_0,   // east
            1 => self.shr(1) & NOT_COL_15,  // west
            2 => self.shl(16),              // south
            3 => self.shr(16),              // north
            4 => self.shl(17) & NOT_COL_0,  // south-east
            5 => self.shl(15) & NOT_COL_15, // south-west
            6 => self.shr(15) & NOT_COL_0,  // north-east
            _ => self.shr(17) & NOT_COL_15, // north-west
        }
    }
}

macro_rules! wide_ops {
    ($($tr:ident $f:ident $atr:ident $af:ident $op:tt;)*) => {$(
        impl $tr for WideBits {
            type Output = WideBits;
            #[inline]
            fn $f(self, r: WideBits) -> WideBits {
                WideBits([self.0[0] $op r.0[0], self.0[1] $op r.0[1], self.0[2] $op r.0[2], self.0[3] $op r.0[3]])
            }
        }
        impl $atr for WideBits {
            #[inline]
            fn $af(&mut self, r: WideBits) {
                *self = *self $op r;
            }
        }
    )*};
}
wide_ops! {
    BitAnd bitand BitAndAssign bitand_assign &;
    BitOr bitor BitOrAssign bitor_assign |;
    BitXor bitxor BitXorAssign bitxor_assign ^;
}

impl Not for WideBits {
    type Output = WideBits;
    #[inline]
    fn not(self) -> WideBits {
        WideBits(self.0.map(|w| !w))
    }
}

impl Bits for WideBits {
    const MAX_SIDE: u8 = 16;
    const EMPTY: WideBits = WideBits([0; 4]);
    #[inline]
    fn square(sq: Square) -> WideBits {
        let i = sq.index() as usize;
        let mut w = [0; 4];
        w[i / 64] = 1 << (i % 64);
        WideBits(w)
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn first(self) -> Option<Square> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| Square::from_index((i as u32 * 64 + w.trailing_zeros()) as u8))
    }
    fn moves(p: WideBits, o: WideBits) -> WideBits {
        let mut m = WideBits::EMPTY;
        for d in 0..8 {
            let mut run = p.step(d) & o;
            // A line holds at most 14 opponent discs between a move and a player disc.
            for _ in 0..13 {
                run |= run.step(d) & o;
            }
            m |= run.step(d);
        }
        m & !(p | o)
    }
    fn flips(p: WideBits, o: WideBits, sq: Square) -> WideBits {
        let start = WideBits::square(sq);
        let mut all = WideBits::EMPTY;
        for d in 0..8 {
            let mut run = WideBits::EMPTY;
            let mut cur = start.step(d);
            while !(cur & o).is_empty() {
                run |= cur;
                cur = cur.step(d);
            }
            if !(cur & p).is_empty() {
                all |= run;
            }
        }
        all
    }
    fn to_wide(self) -> WideBits {
        self
    }
    fn from_wide(w: WideBits) -> WideBits {
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_and_narrow_agree_on_8x8() {
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..2000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let t = s.rotate_left(23).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let (p, o) = (s & t, !s & t.rotate_left(7));
            let (wp, wo) = (p.to_wide(), o.to_wide());
            assert_eq!(u64::from_wide(wp), p);
            let board = WideBits::rect(8, 8);
            assert_eq!(
                <WideBits as Bits>::moves(wp, wo) & board,
                <u64 as Bits>::moves(p, o).to_wide()
            );
            for sq in (!(p | o)).squares() {
                assert_eq!(WideBits::flips(wp, wo, sq), u64::flips(p, o, sq).to_wide());
            }
        }
    }

    #[test]
    fn no_wrap_on_full_width_board() {
        // p16 (col 15) must not see a1 of the next row as its east neighbour.
        let p = WideBits::square(Square::parse("n1").unwrap());
        let o =
            WideBits::square(Square::parse("o1").unwrap()) | WideBits::square(Square::parse("p1").unwrap());
        let m = WideBits::moves(p, o);
        assert!(!m.has(Square::parse("a2").unwrap()));
        assert_eq!(m.count(), 0);
    }
}
