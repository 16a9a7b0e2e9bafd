//! OBF, the test-position format of the FFO endgame suite (`data/ffo/*.obf`, RULES.md §2).
//!
//! One position a line: a 64-character board string from `a1` (`X` black, `O` white, `-` empty),
//! the side to move, then `;`-separated moves with their exact scores, best first:
//!
//! ```text
//! --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; A4:-22;
//! ```
//!
//! Moves are read case-insensitively (a pass may be written `PS`, `PA` or `pass`); scores are signed
//! disc differences for the side to move (`+18`, `-4`, `+0`, `0`). A `%` starts a comment that runs
//! to the end of the line. [`parse_obf`] skips blank lines and lines starting with `%` or `#`.
//!
//! ```
//! use reversi_core::format::obf::{parse_obf_line, write_obf_line};
//! let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;";
//! let entry = parse_obf_line(line).unwrap();
//! assert_eq!(entry.best_score(), Some(18));
//! assert_eq!(write_obf_line(&entry), line);
//! ```

use crate::bits::Bits;
use crate::notation::{self, NotationError};
use crate::position::AnyPosition;
use crate::quote::{clip, QUOTE_CHARS};
use crate::rules::Rules;
use crate::square::Move;

/// One OBF line: a position and the scored moves listed after it (best first in the FFO files).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfEntry {
    /// The position (standard 8×8 rules).
    pub position: AnyPosition,
    /// Moves with their exact scores for the side to move, in file order.
    pub moves: Vec<(Move, i32)>,
}

impl ObfEntry {
    /// The score of the first listed move (the best, in the FFO files).
    pub fn best_score(&self) -> Option<i32> {
        self.moves.first().map(|&(_, s)| s)
    }

    /// Every move whose score equals the best score.
    pub fn best_moves(&self) -> Vec<Move> {
        match self.best_score() {
            Some(best) => self
                .moves
                .iter()
                .filter(|&&(_, s)| s == best)
                .map(|&(m, _)| m)
                .collect(),
            None => Vec::new(),
        }
    }

    /// The number of empty squares.
    pub fn empties(&self) -> u32 {
        self.position.empties().count()
    }
}

/// What is wrong with an OBF line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ObfErrorKind {
    /// The board string or side to move could not be read.
    #[error("bad board: {0}")]
    Board(NotationError),
    /// The board is not followed by `;`.
    #[error("expected `;` after the side to move, found `{0}`")]
    MissingSemicolon(String),
    /// A move entry without the `:` between move and score.
    #[error("`{0}` is not MOVE:SCORE (expected e.g. G8:+18)")]
    MissingColon(String),
    /// A move that is neither a square nor a pass.
    #[error("`{0}` is not a move (expected a square such as G8, or PS for a pass)")]
    BadMove(String),
    /// A score that is not a signed integer.
    #[error("`{0}` is not a score (expected a signed disc difference such as +18, -4 or +0)")]
    BadScore(String),
}

/// An OBF error: what is wrong and where (1-based line and character column).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ObfError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based character column.
    pub column: usize,
    /// What is wrong.
    pub kind: ObfErrorKind,
}

fn column_of(s: &str, offset: usize) -> usize {
    s[..offset].chars().count() + 1
}

/// Parses one OBF line (a trailing `%` comment is ignored). Errors report line 1.
pub fn parse_obf_line(line: &str) -> Result<ObfEntry, ObfError> {
    parse_line(line, 1)
}

fn parse_line(full: &str, line_no: usize) -> Result<ObfEntry, ObfError> {
    let err = |offset: usize, kind| ObfError {
        line: line_no,
        column: column_of(full, offset),
        kind,
    };
    let line = full.find('%').map_or(full, |i| &full[..i]);
    let rules = Rules::othello();
    let (position, rest) = notation::parse_board_prefix(&rules, line).map_err(|e| {
        let column = match &e {
            NotationError::BadBoardChar { column, .. }
            | NotationError::BadSide { column, .. }
            | NotationError::Trailing { column, .. } => *column,
            _ => column_of(full, line.trim_end().len()),
        };
        ObfError {
            line: line_no,
            column,
            kind: ObfErrorKind::Board(e),
        }
    })?;
    let mut offset = line.len() - rest.len();
    let mut moves = Vec::new();
    let mut first = true;
    for field in rest.split(';') {
        let start = offset;
        offset += field.len() + 1;
        let text = field.trim();
        let at = start + (field.len() - field.trim_start().len());
        if first {
            first = false;
            // Text between the side to move and the first `;` (or a missing `;`).
            if !text.is_empty() {
                return Err(err(
                    at,
                    ObfErrorKind::MissingSemicolon(clip(text, QUOTE_CHARS).into_owned()),
                ));
            }
            continue;
        }
        if text.is_empty() {
            continue;
        }
        let Some((mv, score)) = text.split_once(':') else {
            return Err(err(
                at,
                ObfErrorKind::MissingColon(clip(text, QUOTE_CHARS).into_owned()),
            ));
        };
        let mv_text = mv.trim();
        let mv = if mv_text.eq_ignore_ascii_case("ps") {
            Move::Pass
        } else {
            notation::parse_move(mv_text)
                .map_err(|_| err(at, ObfErrorKind::BadMove(clip(mv_text, QUOTE_CHARS).into_owned())))?
        };
        let score_text = score.trim();
        let score_at = at + text.find(':').map_or(0, |i| i + 1) + (score.len() - score.trim_start().len());
        let digits = score_text.strip_prefix(['+', '-']).unwrap_or(score_text);
        let score: i32 = match score_text.parse() {
            Ok(s) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => s,
            _ => {
                return Err(err(
                    score_at,
                    ObfErrorKind::BadScore(clip(score_text, QUOTE_CHARS).into_owned()),
                ))
            }
        };
        moves.push((mv, score));
    }
    Ok(ObfEntry { position, moves })
}

/// Parses an OBF file: one entry per line, skipping blank lines and lines that start with `%` or
/// `#`.
pub fn parse_obf(text: &str) -> Result<Vec<ObfEntry>, ObfError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim_start();
            !(t.is_empty() || t.starts_with('%') || t.starts_with('#'))
        })
        .map(|(i, l)| parse_line(l, i + 1))
        .collect()
}

/// Writes one OBF line in the style of the FFO files: board, side, then `; MOVE:score` for each
/// move (upper-case squares, `PS` for a pass, explicitly signed scores) and a final `;`.
pub fn write_obf_line(entry: &ObfEntry) -> String {
    let mut s = notation::write_board(&entry.position);
    s.push(';');
    for &(mv, score) in &entry.moves {
        let name = match mv {
            Move::Play(sq) => sq.to_string().to_ascii_uppercase(),
            Move::Pass => "PS".to_string(),
        };
        s.push_str(&format!(" {name}:{score:+};"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;
    use crate::square::Square;

    const LINE: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

    #[test]
    fn reads_an_ffo_line() {
        let e = parse_obf_line(LINE).unwrap();
        assert_eq!(e.position.side_to_move(), Color::Black);
        assert_eq!(e.empties(), 14);
        assert_eq!(e.moves.len(), 8);
        assert_eq!(e.moves[0], (Move::Play(Square::parse("g8").unwrap()), 18));
        assert_eq!(e.moves[7], (Move::Play(Square::parse("g2").unwrap()), -24));
        assert_eq!(e.best_moves(), vec![Move::Play(Square::parse("g8").unwrap())]);
        assert_eq!(write_obf_line(&e), LINE);
    }

    #[test]
    fn lenient_forms() {
        let board = &LINE[..66];
        let e = parse_obf_line(&format!("{board};g8:18;h1:-0; ps:+2 % comment")).unwrap();
        assert_eq!(
            e.moves,
            vec![
                (Move::Play(Square::parse("g8").unwrap()), 18),
                (Move::Play(Square::parse("h1").unwrap()), 0),
                (Move::Pass, 2)
            ]
        );
        let e = parse_obf_line(&format!("{board};")).unwrap();
        assert!(e.moves.is_empty());
        assert_eq!(e.best_score(), None);
        let e = parse_obf_line(board).unwrap();
        assert!(e.moves.is_empty());
    }

    #[test]
    fn errors_say_where() {
        let board = &LINE[..66];
        let e = parse_obf_line(&format!("{board}; G8:+18; Z9:+2;")).unwrap_err();
        assert_eq!((e.line, e.column), (1, 77));
        assert_eq!(e.kind, ObfErrorKind::BadMove("Z9".into()));
        let e = parse_obf_line(&format!("{board}; G8:+1x;")).unwrap_err();
        assert_eq!(
            (e.column, e.kind.clone()),
            (72, ObfErrorKind::BadScore("+1x".into()))
        );
        let e = parse_obf_line(&format!("{board}; G8 +18;")).unwrap_err();
        assert_eq!(
            (e.column, e.kind.clone()),
            (69, ObfErrorKind::MissingColon("G8 +18".into()))
        );
        let e = parse_obf_line(&format!("{board} G8:+18;")).unwrap_err();
        assert!(matches!(e.kind, ObfErrorKind::MissingSemicolon(_)), "{e}");
        assert_eq!(e.column, 68);
        let e = parse_obf(&format!("% header\n\n{}\n{}Q", LINE, &LINE[..20])).unwrap_err();
        assert_eq!((e.line, e.column), (4, 21));
        assert!(matches!(
            e.kind,
            ObfErrorKind::Board(NotationError::BadBoardChar { ch: 'Q', .. })
        ));
        assert!(e.to_string().starts_with("line 4, column 21: bad board"), "{e}");
        let e = parse_obf(&format!("{LINE}\n----")).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(matches!(
            e.kind,
            ObfErrorKind::Board(NotationError::BoardTooShort { .. })
        ));
        let e = parse_obf_line(&LINE[..65]).unwrap_err();
        assert!(matches!(e.kind, ObfErrorKind::Board(NotationError::MissingSide)));
        let e = parse_obf_line(&format!("{board}; G8:+-3;")).unwrap_err();
        assert_eq!(e.kind, ObfErrorKind::BadScore("+-3".into()));
    }
}
