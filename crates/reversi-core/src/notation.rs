//! Text notation (RULES.md §2): squares, moves, transcripts and board strings.

use crate::bits::{Bits, WideBits};
use crate::color::Color;
use crate::position::AnyPosition;
use crate::quote::{clip, QUOTE_CHARS};
use crate::rules::Rules;
use crate::square::{Move, Square};

/// A notation error, with where it happened (byte offset and 1-based column in the input).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// A token that is neither a square nor a pass.
    #[error(
        "column {column}: `{token}` is not a move (expected a square such as d3, or a pass: pa, pass, --)"
    )]
    BadMove {
        /// The offending text.
        token: String,
        /// Byte offset in the input.
        offset: usize,
        /// 1-based character column.
        column: usize,
    },
    /// A character that is not a disc or an empty square.
    #[error("column {column}: `{ch}` is not a board character (X/x/*/B black, O/o/W white, -/./_ empty)")]
    BadBoardChar {
        /// The offending character.
        ch: char,
        /// Byte offset in the input.
        offset: usize,
        /// 1-based character column.
        column: usize,
    },
    /// Too few squares in a board string.
    #[error("the board string has {found} squares; a {width}×{height} board needs {expected}")]
    BoardTooShort {
        /// Squares read.
        found: usize,
        /// Squares needed.
        expected: usize,
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
    },
    /// No side to move after the board.
    #[error("missing side to move after the board (X or B for black, O or W for white)")]
    MissingSide,
    /// A side letter that is not a colour.
    #[error("column {column}: `{token}` is not a side to move (X or B for black, O or W for white)")]
    BadSide {
        /// The offending text.
        token: String,
        /// 1-based character column.
        column: usize,
    },
    /// A disc on a square missing from this board (a hole or a cut corner).
    #[error("{0} holds a disc but is not a square of this board")]
    DiscOffBoard(Square),
    /// Text left over after the board string.
    #[error("column {column}: unexpected `{token}` after the side to move")]
    Trailing {
        /// The offending text.
        token: String,
        /// 1-based character column.
        column: usize,
    },
}

fn column_of(s: &str, offset: usize) -> usize {
    s[..offset].chars().count() + 1
}

/// Parses one move: a square (`d3`, `D3`) or a pass (`pa`, `pass`, `ps`, `--`), ignoring case.
pub fn parse_move(s: &str) -> Result<Move, NotationError> {
    let t = s.trim();
    if is_pass_token(t) {
        return Ok(Move::Pass);
    }
    Square::parse(t)
        .map(Move::Play)
        .ok_or_else(|| NotationError::BadMove {
            token: clip(t, QUOTE_CHARS).into_owned(),
            offset: 0,
            column: 1,
        })
}

fn is_pass_token(t: &str) -> bool {
    t == "--" || ["pa", "pass", "ps"].iter().any(|p| t.eq_ignore_ascii_case(p))
}

/// Parses a transcript: squares written together (`f5d6c3`) or separated by spaces, commas or
/// semicolons, with optional pass tokens (`pa`, `pass`, `--`). Case does not matter.
pub fn parse_transcript(s: &str) -> Result<Vec<Move>, NotationError> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() || c == b',' || c == b';' {
            i += 1;
            continue;
        }
        if b[i..].starts_with(b"--") {
            out.push(Move::Pass);
            i += 2;
            continue;
        }
        let lower = |k: usize| b.get(i + k).map(u8::to_ascii_lowercase);
        if lower(0) == Some(b'p') && lower(1) == Some(b'a') {
            let len = if lower(2) == Some(b's') && lower(3) == Some(b's') {
                4
            } else {
                2
            };
            out.push(Move::Pass);
            i += len;
            continue;
        }
        if c.is_ascii_alphabetic() {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() && j - i <= 2 {
                j += 1;
            }
            if let Some(sq) = s.get(i..j).and_then(Square::parse) {
                out.push(Move::Play(sq));
                i = j;
                continue;
            }
        }
        let end = s[i..]
            .find(|ch: char| ch.is_whitespace() || ch == ',' || ch == ';')
            .map_or(s.len(), |k| i + k);
        let end = if end == i {
            i + s[i..].chars().next().map_or(1, char::len_utf8)
        } else {
            end
        };
        return Err(NotationError::BadMove {
            token: clip(&s[i..end], QUOTE_CHARS).into_owned(),
            offset: i,
            column: column_of(s, i),
        });
    }
    Ok(out)
}

/// Writes moves as a compact transcript (`f5d6c3`), leaving out passes (they are implied).
pub fn write_transcript(moves: &[Move]) -> String {
    moves
        .iter()
        .filter_map(|m| m.square())
        .map(|s| s.to_string())
        .collect()
}

/// Parses a board string (RULES.md §2) for `rules`' geometry: one character per square of the
/// `width`×`height` grid row by row from `a1` (whitespace between squares is ignored), then the side
/// to move. Missing squares (holes, cut corners) may be written `#` or as empty.
pub fn parse_board(rules: &Rules, s: &str) -> Result<AnyPosition, NotationError> {
    let (pos, rest) = parse_board_prefix(rules, s)?;
    let rest_trim = rest.trim_start();
    if let Some(tok) = rest_trim.split_whitespace().next() {
        let off = s.len() - rest_trim.len();
        return Err(NotationError::Trailing {
            token: clip(tok, QUOTE_CHARS).into_owned(),
            column: column_of(s, off),
        });
    }
    Ok(pos)
}

/// Parses a board string and side at the start of `s`; returns the position and the unread rest.
pub fn parse_board_prefix<'a>(rules: &Rules, s: &'a str) -> Result<(AnyPosition, &'a str), NotationError> {
    let (w, h) = (rules.width, rules.height);
    let expected = w as usize * h as usize;
    let mut black = WideBits::EMPTY;
    let mut white = WideBits::EMPTY;
    let mut n = 0;
    let mut iter = s.char_indices();
    let mut end = s.len();
    for (off, ch) in iter.by_ref() {
        if ch.is_whitespace() {
            continue;
        }
        let sq = Square::new((n % w as usize) as u8, (n / w as usize) as u8).expect("within 16×16");
        match ch {
            'X' | 'x' | '*' | 'B' | 'b' => black |= WideBits::square(sq),
            'O' | 'o' | 'W' | 'w' => white |= WideBits::square(sq),
            '-' | '.' | '_' | '#' => {}
            _ => {
                return Err(NotationError::BadBoardChar {
                    ch,
                    offset: off,
                    column: column_of(s, off),
                })
            }
        }
        n += 1;
        if n == expected {
            end = off + ch.len_utf8();
            break;
        }
    }
    if n < expected {
        return Err(NotationError::BoardTooShort {
            found: n,
            expected,
            width: w,
            height: h,
        });
    }
    if let Some(sq) = ((black | white) & !rules.playable).first() {
        return Err(NotationError::DiscOffBoard(sq));
    }
    let rest = &s[end..];
    let trimmed = rest.trim_start();
    let side_off = s.len() - trimmed.len();
    let mut chars = trimmed.chars();
    let side = match chars.next() {
        None => return Err(NotationError::MissingSide),
        Some(c) => {
            let tok_len = trimmed
                .find(|ch: char| ch.is_whitespace() || ch == ';')
                .unwrap_or(trimmed.len());
            let tok = &trimmed[..tok_len];
            match (Color::from_char(c), tok.chars().count()) {
                (Some(col), 1) if c != '*' => (col, &trimmed[tok_len..]),
                _ => {
                    return Err(NotationError::BadSide {
                        token: clip(tok, QUOTE_CHARS).into_owned(),
                        column: column_of(s, side_off),
                    });
                }
            }
        }
    };
    Ok((AnyPosition::with_discs(rules, black, white, side.0), side.1))
}

/// The squares of `pos` row by row, one character each: `X` black, `O` white, `.` empty and
/// playable, `#` not part of the board (a black hole, eight-stars' cut corners). The site's
/// pages draw boards from it.
pub fn cells(pos: &AnyPosition) -> String {
    let (w, h) = (pos.width(), pos.height());
    let mut cells = String::with_capacity(w as usize * h as usize);
    let playable = pos.playable();
    for r in 0..h {
        for c in 0..w {
            let sq = Square::new(c, r).expect("on the board");
            cells.push(match pos.disc(sq) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None if playable.has(sq) => '.',
                None => '#',
            });
        }
    }
    cells
}

/// Writes the board string of `pos`: one character per grid square (`X`, `O`, `-`), a space and
/// the side to move.
pub fn write_board(pos: &AnyPosition) -> String {
    let mut s = String::with_capacity(pos.width() as usize * pos.height() as usize + 2);
    for row in 0..pos.height() {
        for col in 0..pos.width() {
            let sq = Square::new(col, row).expect("within 16×16");
            s.push(match pos.disc(sq) {
                Some(c) => c.to_char(),
                None => '-',
            });
        }
    }
    s.push(' ');
    s.push(pos.side_to_move().to_char());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts() {
        let m = parse_transcript("F5d6 C3,d3; pa c4 -- PASS").unwrap();
        assert_eq!(write_transcript(&m), "f5d6c3d3c4");
        assert_eq!(m.iter().filter(|m| **m == Move::Pass).count(), 3);
        let e = parse_transcript("f5 d6 z9").unwrap_err();
        assert_eq!(
            e,
            NotationError::BadMove {
                token: "z9".into(),
                offset: 6,
                column: 7
            }
        );
        assert!(parse_transcript("f5d6c0").is_err());
        assert_eq!(parse_transcript("a10b1").unwrap().len(), 2);
    }

    #[test]
    fn board_strings_round_trip() {
        let r = Rules::othello();
        let start = AnyPosition::start(&r);
        let s = write_board(&start);
        assert_eq!(
            s,
            "---------------------------OX------XO--------------------------- X"
        );
        assert_eq!(parse_board(&r, &s).unwrap(), start);
        assert!(matches!(
            parse_board(&r, "---"),
            Err(NotationError::BoardTooShort { found: 3, .. })
        ));
        assert!(matches!(
            parse_board(&r, &s[..64]),
            Err(NotationError::MissingSide)
        ));
        let bad = s.replace('X', "Z");
        assert!(matches!(
            parse_board(&r, &bad),
            Err(NotationError::BadBoardChar {
                ch: 'Z',
                column: 29,
                ..
            })
        ));
    }
}
