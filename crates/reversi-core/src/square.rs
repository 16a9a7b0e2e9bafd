//! Squares and moves.

use std::fmt;

/// A square on a board of up to 16×16 (RULES.md §2).
///
/// Stored as `row * 16 + col`, with row 0 at the top (`a1` is the top-left corner), so one type
/// names squares on every geometry. The ordering is board order: `a1, b1, …, a2, …`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The largest supported board side.
    pub const MAX_SIDE: u8 = 16;

    /// The square at column `col` and row `row` (both from 0), if both are below 16.
    #[inline]
    pub const fn new(col: u8, row: u8) -> Option<Square> {
        if col < Self::MAX_SIDE && row < Self::MAX_SIDE {
            Some(Square(row * 16 + col))
        } else {
            None
        }
    }

    /// The square with the given `row * 16 + col` index.
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        Square(index)
    }

    /// The `row * 16 + col` index.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The column, from 0 (`a`).
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 & 15
    }

    /// The row, from 0 (`1`, the top row).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 >> 4
    }

    /// The square for bit `bit` (0..64) of an 8×8 bitboard (`row * 8 + col`).
    #[inline]
    pub const fn from_bit8(bit: u32) -> Square {
        Square((((bit >> 3) << 4) | (bit & 7)) as u8)
    }

    /// The 8×8 bitboard bit (`row * 8 + col`), if the square lies on an 8×8 board.
    #[inline]
    pub const fn bit8(self) -> Option<u32> {
        if self.col() < 8 && self.row() < 8 {
            Some((self.row() as u32) * 8 + self.col() as u32)
        } else {
            None
        }
    }

    /// Parses a square name such as `d3`, `D3` or `p16`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() < 2 || b.len() > 3 {
            return None;
        }
        let col = b[0].to_ascii_lowercase().checked_sub(b'a')?;
        if !(b[1..].iter().all(u8::is_ascii_digit)) || b[1] == b'0' {
            return None;
        }
        let row: u8 = s[1..].parse().ok()?;
        Square::new(col, row.checked_sub(1)?)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A move: a disc placed on a square, or a (forced) pass.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Move {
    /// Place a disc on the square.
    Play(Square),
    /// No legal move: the turn goes to the opponent (RULES.md §1).
    Pass,
}

impl Move {
    /// The square played, if this is not a pass.
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Play(sq) => Some(sq),
            Move::Pass => None,
        }
    }
}

impl From<Square> for Move {
    fn from(sq: Square) -> Move {
        Move::Play(sq)
    }
}

impl fmt::Display for Move {
    /// Squares print lower case (`d3`); a pass prints `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => fmt::Display::fmt(sq, f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for row in 0..16 {
            for col in 0..16 {
                let sq = Square::new(col, row).unwrap();
                assert_eq!(Square::parse(&sq.to_string()), Some(sq));
                assert_eq!(Square::parse(&sq.to_string().to_uppercase()), Some(sq));
            }
        }
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("h8").unwrap().bit8(), Some(63));
        assert_eq!(Square::parse("p16").unwrap().index(), 255);
        for bad in ["", "a", "a0", "q1", "a17", "a01", "1a", "aa", "a1x"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn bit8_round_trip() {
        for bit in 0..64 {
            assert_eq!(Square::from_bit8(bit).bit8(), Some(bit));
        }
        assert_eq!(Square::parse("i1").unwrap().bit8(), None);
    }
}
