//! The two sides.

use std::fmt;
use std::ops::Not;

/// A player's colour. Black moves first in every modern preset (RULES.md §1, §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// The dark side; `X` in board strings.
    Black,
    /// The light side; `O` in board strings.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index for per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The board-string letter: `X` for Black, `O` for White.
    pub const fn to_char(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// Reads a side letter as used in board strings and OBF (`X`, `B`, `*` or `O`, `W`),
    /// case-insensitively.
    pub fn from_char(c: char) -> Option<Color> {
        match c.to_ascii_uppercase() {
            'X' | 'B' | '*' => Some(Color::Black),
            'O' | 'W' => Some(Color::White),
            _ => None,
        }
    }

    /// `"black"` or `"white"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.opponent()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
