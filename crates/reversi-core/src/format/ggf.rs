//! GGF, the Generic Game Format of the Generic Game Server (GGS), for Othello game records.
//!
//! A game is a list of tags between `(;` and `;)`; a file may hold several games:
//!
//! ```text
//! (;GM[Othello]PC[GGS/os]DT[2000-4-16 11:13 EST]PB[fangr]PW[patzer]RB[1457.12]RW[1631.74]
//!   TI[15:00//02:00]TY[8]RE[-40.00:r]BO[8 ---------------------------O*------*O--------------------------- *]
//!   B[E6//4.09]W[H8/40.00/0.01]B[PA]W[G7];)
//! ```
//!
//! | tag | meaning |
//! |---|---|
//! | `GM` | game (`Othello`) |
//! | `PC`, `DT` | place, date |
//! | `PB`, `PW`, `RB`, `RW` | black's and white's names and ratings |
//! | `TI` | time control (`TB`/`TW` per side are kept as extra tags) |
//! | `TY` | game type: board size, `a` for anti (`8`, `10`, `8a`; `s` and `r`/`k` modifiers are read and ignored) |
//! | `VA` | this project's tag: the [`Variant`] preset (`VA[eight-stars]`, `VA[black-hole:c3]`, `VA[xot:17]`); wins over `TY` |
//! | `RE` | result for black as a disc difference, with `:r` (resigned), `:t` (time) or `:s` (agreed); `?` unknown |
//! | `BO` | start: board size, one character a square from `a1` (`*` black, `O` white, `-` empty, `#` no square), side to move |
//! | `B`, `W` | a move: `B[d3]`, `B[d3/eval/time]`; a pass is `PA` (`pass`, `ps` and `--` are read too) |
//! | `C` | written: `C[Opening: Tiger]`, the named opening the moves went through (see [`crate::openings`]), unless the record has a comment of its own; such a comment is dropped when read, as it is derived from the moves |
//!
//! Every other tag is kept, in order, in [`GameInfo::extra`]. A value may contain `]` or `\` escaped
//! with a backslash. When a record leaves out a pass (two moves of one colour in a row), the pass is
//! put back.
//!
//! ```
//! use reversi_core::format::ggf::{parse_ggf, write_ggf};
//! let text = "(;GM[Othello]PB[a]PW[b]TY[8]C[Opening: Perpendicular Opening]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)";
//! let games = parse_ggf(text).unwrap();
//! assert_eq!(games[0].info.black, "a");
//! assert_eq!(games[0].to_game().unwrap().transcript(), "f5d6");
//! assert_eq!(write_ggf(&games[0]), text);
//! ```

use crate::bits::{Bits, WideBits};
use crate::color::Color;
use crate::game::{Game, GameError};
use crate::position::AnyPosition;
use crate::quote::{clip, QUOTE_CHARS};
use crate::rules::{xot_line_of, Rules, Variant, VariantError};
use crate::square::{Move, Square};
use std::fmt::Write as _;

/// How a game ended, as the flag after the score in `RE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Played to the end (no flag).
    Normal,
    /// A player resigned (`:r`).
    Resigned,
    /// A player ran out of time (`:t`).
    Timeout,
    /// The players agreed on the score (`:s`).
    Agreed,
}

/// A recorded result (`RE`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfResult {
    /// The disc difference for black, the first colour (positive: black won).
    pub black_margin: f64,
    /// How the game ended.
    pub ending: Ending,
}

/// A move's annotation in a GGF record: `B[d3/eval/time]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveNote {
    /// The evaluation written after the first `/`, as text.
    pub eval: Option<String>,
    /// The time written after the second `/`, as text.
    pub time: Option<String>,
}

/// Everything a record says about a game besides its moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// Black's name (`PB`).
    pub black: String,
    /// White's name (`PW`).
    pub white: String,
    /// Black's rating (`RB`).
    pub black_rating: Option<f64>,
    /// White's rating (`RW`).
    pub white_rating: Option<f64>,
    /// The date (`DT`), as written.
    pub date: Option<String>,
    /// Where the game was played (`PC`).
    pub place: Option<String>,
    /// The time control (`TI`), as written.
    pub time_control: Option<String>,
    /// The result (`RE`); `None` when unknown.
    pub result: Option<GgfResult>,
    /// Other tags, in file order, kept as written.
    pub extra: Vec<(String, String)>,
}

/// One game of a GGF file.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    /// The rules preset (always resolved when read: the hole and the XOT line are fixed).
    pub variant: Variant,
    /// The start position (`BO`).
    pub start: AnyPosition,
    /// The moves from the start, passes included.
    pub moves: Vec<Move>,
    /// Per-move annotations: as long as `moves`, or empty when there are none.
    pub notes: Vec<MoveNote>,
    /// Players, date, place, time control, result and other tags.
    pub info: GameInfo,
}

/// What is wrong with a GGF text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GgfErrorKind {
    /// Something other than what the grammar allows here.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What was expected.
        expected: &'static str,
        /// What was found (`end of text` at the end).
        found: String,
    },
    /// A tag value without its closing `]`.
    #[error("the value of {0} has no closing `]`")]
    UnclosedValue(String),
    /// A game without its closing `)`.
    #[error("the game has no closing `)`")]
    UnclosedGame,
    /// `GM` names another game.
    #[error("GM[{0}] is not an Othello game")]
    NotOthello(String),
    /// A tag that may appear once appears again.
    #[error("{0} appears twice")]
    Duplicate(String),
    /// `VA` is not a preset.
    #[error("VA[{value}]: {reason}")]
    BadVariant {
        /// The value.
        value: String,
        /// Why it is not a preset.
        reason: VariantError,
    },
    /// `TY` names a game type that no preset covers.
    #[error(
        "TY[{0}] is not a supported game type (a board size 4–16, even, optionally with `a` for anti on 8×8)"
    )]
    BadType(String),
    /// The variant leaves a random choice open and the board does not tell it.
    #[error("{0}: the board does not show which {1}")]
    Unresolved(String, &'static str),
    /// `BO` cannot be read or does not fit the variant.
    #[error("BO: {0}")]
    BadBoard(String),
    /// A `B`/`W` value that is not a move.
    #[error("{tag}[{value}] is not a move (expected a square such as d3, or PA for a pass)")]
    BadMove {
        /// `B` or `W`.
        tag: String,
        /// The value.
        value: String,
    },
    /// `RE` that is not a result.
    #[error("RE[{0}] is not a result (expected e.g. +18.00, -4.00:r or ?)")]
    BadResult(String),
    /// `RB`/`RW` that is not a number.
    #[error("{tag}[{value}] is not a rating")]
    BadRating {
        /// `RB` or `RW`.
        tag: String,
        /// The value.
        value: String,
    },
}

/// A GGF error: what is wrong and where (1-based line and character column).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct GgfError {
    /// 1-based line.
    pub line: usize,
    /// 1-based character column.
    pub column: usize,
    /// What is wrong.
    pub kind: GgfErrorKind,
}

/// A value or name as an error quotes it: cut to [`QUOTE_CHARS`] characters.
fn quoted(text: &str) -> String {
    clip(text, QUOTE_CHARS).into_owned()
}

fn error_at(text: &str, offset: usize, kind: GgfErrorKind) -> GgfError {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    GgfError {
        line,
        column: before[line_start..].chars().count() + 1,
        kind,
    }
}

/// A tag as read: name, value (unescaped) and the offsets of both.
struct Tag {
    name: String,
    value: String,
    at: usize,
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
}

impl Lexer<'_> {
    fn err(&self, offset: usize, kind: GgfErrorKind) -> GgfError {
        error_at(self.text, offset, kind)
    }

    fn skip_ws(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("`{c}`"),
            None => "end of text".to_string(),
        }
    }

    fn expect(&mut self, c: char, expected: &'static str) -> Result<(), GgfError> {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err(
                self.pos,
                GgfErrorKind::Expected {
                    expected,
                    found: self.found(),
                },
            ))
        }
    }

    /// Reads one game's tags, from `(` to `)`.
    fn game(&mut self) -> Result<(usize, Vec<Tag>), GgfError> {
        self.skip_ws();
        let start = self.pos;
        self.expect('(', "`(;` starting a game")?;
        self.expect(';', "`;` after `(`")?;
        let mut tags = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(')') => {
                    self.pos += 1;
                    return Ok((start, tags));
                }
                Some(';') => {
                    self.pos += 1;
                    self.skip_ws();
                    return match self.peek() {
                        Some(')') => {
                            self.pos += 1;
                            Ok((start, tags))
                        }
                        None => Err(self.err(start, GgfErrorKind::UnclosedGame)),
                        _ => Err(self.err(
                            self.pos,
                            GgfErrorKind::Expected {
                                expected: "`)` after `;`",
                                found: self.found(),
                            },
                        )),
                    };
                }
                None => return Err(self.err(start, GgfErrorKind::UnclosedGame)),
                Some(c) if c.is_ascii_alphabetic() => tags.push(self.tag()?),
                Some(_) => {
                    return Err(self.err(
                        self.pos,
                        GgfErrorKind::Expected {
                            expected: "a tag such as PB[...] or `;)`",
                            found: self.found(),
                        },
                    ));
                }
            }
        }
    }

    fn tag(&mut self) -> Result<Tag, GgfError> {
        let at = self.pos;
        let len = self.text[at..]
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(self.text.len() - at);
        let name = self.text[at..at + len].to_ascii_uppercase();
        self.pos += len;
        self.expect('[', "`[` after the tag name")?;
        let mut value = String::new();
        let mut chars = self.text[self.pos..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                ']' => {
                    self.pos += i + 1;
                    return Ok(Tag { name, value, at });
                }
                '\\' => {
                    if let Some((_, e)) = chars.next() {
                        value.push(e);
                    }
                }
                c => value.push(c),
            }
        }
        Err(self.err(at, GgfErrorKind::UnclosedValue(quoted(&name))))
    }
}

/// Parses every game of a GGF text. Whitespace may separate games and tags.
pub fn parse_ggf(text: &str) -> Result<Vec<GgfGame>, GgfError> {
    let mut lex = Lexer { text, pos: 0 };
    let mut games = Vec::new();
    loop {
        lex.skip_ws();
        if lex.pos == text.len() {
            return Ok(games);
        }
        let (start, tags) = lex.game()?;
        games.push(build(text, start, tags)?);
    }
}

/// The board cells of a `BO` value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty,
    Black,
    White,
    Missing,
}

struct Board {
    size: u8,
    cells: Vec<Cell>,
    side: Color,
}

fn parse_bo(value: &str) -> Result<Board, String> {
    let mut parts = value.split_whitespace();
    let size_text = parts.next().ok_or("empty value")?;
    let size = match size_text.parse::<u8>() {
        Ok(n) if (4..=16).contains(&n) && n % 2 == 0 => n,
        _ => {
            return Err(format!(
                "board size `{}` must be an even number from 4 to 16",
                clip(size_text, QUOTE_CHARS)
            ))
        }
    };
    let chars: Vec<char> = parts.flat_map(str::chars).collect();
    let need = size as usize * size as usize;
    if chars.len() != need + 1 {
        return Err(format!(
            "a {size}×{size} board needs {need} squares and the side to move; found {} characters",
            chars.len()
        ));
    }
    let cells = chars[..need]
        .iter()
        .map(|&c| match c {
            '*' | 'X' | 'x' | 'B' | 'b' => Ok(Cell::Black),
            'O' | 'o' | 'W' | 'w' => Ok(Cell::White),
            '-' | '.' | '_' => Ok(Cell::Empty),
            '#' => Ok(Cell::Missing),
            c => Err(format!(
                "`{c}` is not a square (* black, O white, - empty, # no square)"
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let side = match chars[need] {
        '*' | 'X' | 'x' | 'B' | 'b' => Color::Black,
        'O' | 'o' | 'W' | 'w' => Color::White,
        c => return Err(format!("`{c}` is not a side to move (* or O)")),
    };
    Ok(Board { size, cells, side })
}

impl Board {
    fn squares(&self, cell: Cell) -> WideBits {
        let n = self.size as usize;
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c == cell)
            .map(|(i, _)| WideBits::square(Square::new((i % n) as u8, (i / n) as u8).expect("within 16×16")))
            .fold(WideBits::EMPTY, |a, b| a | b)
    }
}

fn variant_from_type(ty: &str) -> Option<Variant> {
    let t = ty.trim().to_ascii_lowercase();
    let t = t.strip_prefix('s').unwrap_or(&t);
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let size: u8 = t[..digits].parse().ok()?;
    let anti = t[digits..].contains('a');
    match (size, anti) {
        (8, false) => Some(Variant::Othello),
        (8, true) => Some(Variant::Anti),
        (n, false) if (4..=16).contains(&n) && n % 2 == 0 => Some(Variant::Nxn(n)),
        _ => None,
    }
}

/// The `TY` value written for a variant.
fn type_of(variant: Variant) -> String {
    match variant {
        Variant::Nxn(n) | Variant::NxnParallel(n) => n.to_string(),
        Variant::Grand | Variant::EightStars => "10".to_string(),
        Variant::Anti => "8a".to_string(),
        _ => "8".to_string(),
    }
}

fn parse_result(value: &str) -> Option<Option<GgfResult>> {
    let v = value.trim();
    if v == "?" || v.is_empty() {
        return Some(None);
    }
    let (score, flag) = match v.split_once(':') {
        Some((s, f)) => (s, Some(f)),
        None => (v, None),
    };
    let ending = match flag.map(str::trim) {
        None | Some("") => Ending::Normal,
        Some("r") => Ending::Resigned,
        Some("t") => Ending::Timeout,
        Some("s") => Ending::Agreed,
        Some(_) => return None,
    };
    let black_margin: f64 = score.trim().parse().ok().filter(|m: &f64| m.is_finite())?;
    Some(Some(GgfResult { black_margin, ending }))
}

fn parse_move_value(value: &str) -> Option<(Move, MoveNote)> {
    let mut parts = value.splitn(3, '/');
    let mv_text = parts.next()?.trim();
    let mv = if mv_text == "--"
        || ["pa", "pass", "ps"]
            .iter()
            .any(|p| mv_text.eq_ignore_ascii_case(p))
    {
        Move::Pass
    } else {
        Move::Play(Square::parse(mv_text)?)
    };
    let field = |s: Option<&str>| s.map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
    let eval = field(parts.next());
    let time = field(parts.next());
    Some((mv, MoveNote { eval, time }))
}

/// Each once-only tag's index by name (`once`: the tag may appear once), in one pass with a map:
/// a check against every earlier tag was quadratic in the tag count. `Err(i)`: tag `i` repeats
/// an earlier one.
fn index_by_name<K: std::hash::Hash + Eq>(
    names: impl IntoIterator<Item = (K, bool)>,
) -> Result<std::collections::HashMap<K, usize>, usize> {
    let mut seen = std::collections::HashMap::new();
    for (i, (name, once)) in names.into_iter().enumerate() {
        if once && seen.insert(name, i).is_some() {
            return Err(i);
        }
    }
    Ok(seen)
}

/// Builds a game from its tags: the variant first (VA, else TY, else the board size), then the board
/// and the moves.
fn build(text: &str, game_at: usize, tags: Vec<Tag>) -> Result<GgfGame, GgfError> {
    let err = |at: usize, kind| error_at(text, at, kind);
    let named = tags
        .iter()
        .map(|t| (t.name.as_str(), !matches!(t.name.as_str(), "B" | "W")));
    let seen = match index_by_name(named) {
        Ok(seen) => seen,
        Err(i) => return Err(err(tags[i].at, GgfErrorKind::Duplicate(quoted(&tags[i].name)))),
    };
    let find = |name: &str| seen.get(name).map(|&i| &tags[i]);
    if let Some(gm) = find("GM") {
        if !gm.value.trim().eq_ignore_ascii_case("othello") {
            return Err(err(gm.at, GgfErrorKind::NotOthello(quoted(&gm.value))));
        }
    }
    let board = match find("BO") {
        Some(bo) => Some((
            parse_bo(&bo.value).map_err(|m| err(bo.at, GgfErrorKind::BadBoard(m)))?,
            bo.at,
        )),
        None => None,
    };
    // The variant: VA wins over TY; without either, the board size decides.
    let (mut variant, variant_at) = if let Some(va) = find("VA") {
        let v = va.value.parse::<Variant>().map_err(|reason| {
            err(
                va.at,
                GgfErrorKind::BadVariant {
                    value: quoted(&va.value),
                    reason,
                },
            )
        })?;
        (v, va.at)
    } else if let Some(ty) = find("TY") {
        let v = variant_from_type(&ty.value)
            .ok_or_else(|| err(ty.at, GgfErrorKind::BadType(quoted(&ty.value))))?;
        (v, ty.at)
    } else {
        match &board {
            Some((b, at)) if b.size != 8 => (Variant::Nxn(b.size), *at),
            _ => (Variant::Othello, game_at),
        }
    };
    if !variant.is_resolved() {
        variant = resolve_from_board(variant, board.as_ref().map(|(b, _)| b)).ok_or_else(|| {
            err(
                variant_at,
                GgfErrorKind::Unresolved(format!("VA[{variant}]"), what_is_open(variant)),
            )
        })?;
    }
    let rules = Rules::new(variant, 0);
    let start = match &board {
        None => AnyPosition::start(&rules),
        Some((b, at)) => board_position(&rules, b).map_err(|m| err(*at, GgfErrorKind::BadBoard(m)))?,
    };

    let mut moves = Vec::new();
    let mut notes = Vec::new();
    let mut expected = start.side_to_move();
    for t in tags.iter().filter(|t| t.name == "B" || t.name == "W") {
        let color = if t.name == "B" { Color::Black } else { Color::White };
        let (mv, note) = parse_move_value(&t.value).ok_or_else(|| {
            err(
                t.at,
                GgfErrorKind::BadMove {
                    tag: t.name.clone(),
                    value: quoted(&t.value),
                },
            )
        })?;
        if color != expected {
            // The record left out a pass.
            moves.push(Move::Pass);
            notes.push(MoveNote::default());
        }
        moves.push(mv);
        notes.push(note);
        expected = !color;
    }
    if notes.iter().all(|n| *n == MoveNote::default()) {
        notes.clear();
    }

    let mut info = GameInfo::default();
    for t in &tags {
        let text_value = || Some(t.value.clone());
        let rating = || -> Result<Option<f64>, GgfError> {
            let v = t.value.trim();
            if v.is_empty() {
                return Ok(None);
            }
            v.parse::<f64>()
                .ok()
                .filter(|r| r.is_finite())
                .map(Some)
                .ok_or_else(|| {
                    err(
                        t.at,
                        GgfErrorKind::BadRating {
                            tag: t.name.clone(),
                            value: quoted(&t.value),
                        },
                    )
                })
        };
        match t.name.as_str() {
            "GM" | "TY" | "VA" | "BO" | "B" | "W" => {}
            "PB" => info.black = t.value.clone(),
            "PW" => info.white = t.value.clone(),
            "RB" => info.black_rating = rating()?,
            "RW" => info.white_rating = rating()?,
            "DT" => info.date = text_value(),
            "PC" => info.place = text_value(),
            "TI" => info.time_control = text_value(),
            "RE" => {
                info.result = parse_result(&t.value)
                    .ok_or_else(|| err(t.at, GgfErrorKind::BadResult(quoted(&t.value))))?
            }
            // The opening's name is derived from the moves: written afresh, not kept.
            "C" if t.value.starts_with(OPENING_COMMENT) => {}
            _ => info.extra.push((t.name.clone(), t.value.clone())),
        }
    }
    Ok(GgfGame {
        variant,
        start,
        moves,
        notes,
        info,
    })
}

fn what_is_open(v: Variant) -> &'static str {
    match v {
        Variant::BlackHole(None) => "square is the hole (mark it `#`)",
        _ => "XOT opening was played",
    }
}

/// Fixes a random choice from the board: the `#` square of a black-hole board, or the XOT line whose
/// position it shows.
fn resolve_from_board(variant: Variant, board: Option<&Board>) -> Option<Variant> {
    let b = board.filter(|b| b.size == 8)?;
    match variant {
        Variant::BlackHole(None) => {
            let hole = b.squares(Cell::Missing);
            if hole.count() != 1 {
                return None;
            }
            let v = Variant::BlackHole(hole.first());
            v.to_string().parse::<Variant>().ok()
        }
        Variant::Xot(None) => {
            let (black, white) = (b.squares(Cell::Black), b.squares(Cell::White));
            xot_line_of(black, white, b.side).map(|i| Variant::Xot(Some(i)))
        }
        v => Some(v),
    }
}

/// The position a `BO` board shows under `rules`: the rules' own start when it matches (so that disc
/// supplies and the free opening are exact), otherwise those discs.
fn board_position(rules: &Rules, b: &Board) -> Result<AnyPosition, String> {
    if b.size != rules.width || b.size != rules.height {
        return Err(format!(
            "a {0}×{0} board, but the variant `{1}` is {2}×{3}",
            b.size, rules.variant, rules.width, rules.height
        ));
    }
    let (black, white, missing) = (
        b.squares(Cell::Black),
        b.squares(Cell::White),
        b.squares(Cell::Missing),
    );
    if let Some(sq) = ((black | white) & !rules.playable).first() {
        return Err(format!(
            "{sq} holds a disc but is not a square of `{}`",
            rules.variant
        ));
    }
    if let Some(sq) = (missing & rules.playable).first() {
        return Err(format!(
            "{sq} is marked `#` but is a square of `{}`",
            rules.variant
        ));
    }
    if black == rules.start_black && white == rules.start_white && b.side == rules.start_to_move {
        Ok(AnyPosition::start(rules))
    } else {
        Ok(AnyPosition::with_discs(rules, black, white, b.side))
    }
}

fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// Writes the `BO` value of a position: size, one character a square (`*`, `O`, `-`, `#` for a
/// square that does not exist) and the side to move.
fn write_bo(pos: &AnyPosition) -> String {
    let playable = pos.playable();
    let mut s = format!("{} ", pos.width().max(pos.height()));
    for row in 0..pos.height() {
        for col in 0..pos.width() {
            let sq = Square::new(col, row).expect("within 16×16");
            s.push(match pos.disc(sq) {
                Some(Color::Black) => '*',
                Some(Color::White) => 'O',
                None if playable.has(sq) => '-',
                None => '#',
            });
        }
    }
    s.push(' ');
    s.push(if pos.side_to_move() == Color::Black {
        '*'
    } else {
        'O'
    });
    s
}

/// How [`write_ggf`] begins the comment that names the game's opening.
pub const OPENING_COMMENT: &str = "Opening: ";

/// Writes one game as a single line `(;GM[Othello]…;)`: GM, PC, DT, PB, PW, RB, RW, TI, TY, VA
/// (unless standard Othello), RE, the extra tags, the named opening as a `C` comment (when
/// the game has one and the extra tags no comment), BO and the moves (`PA` for a pass).
pub fn write_ggf(game: &GgfGame) -> String {
    let info = &game.info;
    let mut s = String::from("(;GM[Othello]");
    let mut tag = |name: &str, value: &str| {
        let _ = write!(s, "{name}[{}]", escape(value));
    };
    if let Some(p) = &info.place {
        tag("PC", p);
    }
    if let Some(d) = &info.date {
        tag("DT", d);
    }
    tag("PB", &info.black);
    tag("PW", &info.white);
    if let Some(r) = info.black_rating {
        tag("RB", &r.to_string());
    }
    if let Some(r) = info.white_rating {
        tag("RW", &r.to_string());
    }
    if let Some(t) = &info.time_control {
        tag("TI", t);
    }
    tag("TY", &type_of(game.variant));
    if game.variant != Variant::Othello {
        tag("VA", &game.variant.to_string());
    }
    if let Some(r) = info.result {
        let flag = match r.ending {
            Ending::Normal => "",
            Ending::Resigned => ":r",
            Ending::Timeout => ":t",
            Ending::Agreed => ":s",
        };
        // GGS writes two decimals; a margin they would round is written in full.
        let mut margin = format!("{:+.2}", r.black_margin);
        if margin.parse::<f64>() != Ok(r.black_margin) {
            margin = format!("{:+}", r.black_margin);
        }
        tag("RE", &format!("{margin}{flag}"));
    }
    for (name, value) in &info.extra {
        tag(name, value);
    }
    // The named opening as a comment (the reader drops it: it is derived from the moves),
    // unless the record has a comment of its own: a tag may appear only once.
    let commented = info.extra.iter().any(|(name, _)| name == "C");
    if !commented {
        if let Ok(g) = game.to_game() {
            if let Some((_, o)) = crate::openings::of_game(&g, None) {
                tag("C", &format!("{OPENING_COMMENT}{}", o.english));
            }
        }
    }
    tag("BO", &write_bo(&game.start));
    let mut side = game.start.side_to_move();
    for (i, mv) in game.moves.iter().enumerate() {
        let mut v = match mv {
            Move::Play(sq) => sq.to_string(),
            Move::Pass => "PA".to_string(),
        };
        if let Some(note) = game.notes.get(i) {
            match (&note.eval, &note.time) {
                (None, None) => {}
                (e, None) => v = format!("{v}/{}", e.as_deref().unwrap_or("")),
                (e, Some(t)) => v = format!("{v}/{}/{t}", e.as_deref().unwrap_or("")),
            }
        }
        tag(if side == Color::Black { "B" } else { "W" }, &v);
        side = !side;
    }
    s.push_str(";)");
    s
}

impl GgfGame {
    /// The rules of the game's variant.
    pub fn rules(&self) -> Rules {
        Rules::new(self.variant, 0)
    }

    /// Replays the game legally from its start position; passes the record leaves out are put back.
    pub fn to_game(&self) -> Result<Game, GameError> {
        let mut game = Game::from_position(self.rules(), self.start);
        game.play_all(&self.moves)?;
        Ok(game)
    }

    /// The record of `game` up to its current ply, with `info` for the players and the rest. When
    /// `info` has no result and the game is over, the final score (RULES.md §1) is filled in.
    pub fn from_game(game: &Game, info: GameInfo) -> GgfGame {
        let mut info = info;
        if info.result.is_none() {
            info.result = game.outcome().map(|o| GgfResult {
                black_margin: o.margin(Color::Black) as f64,
                ending: Ending::Normal,
            });
        }
        GgfGame {
            variant: game.rules().variant,
            start: *game.start(),
            moves: game.moves().to_vec(),
            notes: Vec::new(),
            info,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

    fn one(text: &str) -> GgfGame {
        let mut g = parse_ggf(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g.len(), 1);
        g.pop().unwrap()
    }

    fn err(text: &str) -> GgfError {
        parse_ggf(text).unwrap_err()
    }

    #[test]
    fn reads_a_ggs_game() {
        let text = "(;GM[Othello]PC[GGS/os]DT[2000-4-16 11:13 EST]PB[fangr]PW[patzer]RB[1457.12]RW[1631.74]TI[15:00//02:00]TY[8]RE[-40.00:r]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[E6//4.09]W[f4/40.00/0.01]B[pass]W[f6];)";
        let g = one(text);
        assert_eq!(g.variant, Variant::Othello);
        assert_eq!(g.start, AnyPosition::start(&Rules::othello()));
        let i = &g.info;
        assert_eq!((i.black.as_str(), i.white.as_str()), ("fangr", "patzer"));
        assert_eq!((i.black_rating, i.white_rating), (Some(1457.12), Some(1631.74)));
        assert_eq!(i.date.as_deref(), Some("2000-4-16 11:13 EST"));
        assert_eq!(i.place.as_deref(), Some("GGS/os"));
        assert_eq!(i.time_control.as_deref(), Some("15:00//02:00"));
        assert_eq!(
            i.result,
            Some(GgfResult {
                black_margin: -40.0,
                ending: Ending::Resigned
            })
        );
        let sq = |s: &str| Move::Play(Square::parse(s).unwrap());
        assert_eq!(g.moves, vec![sq("e6"), sq("f4"), Move::Pass, sq("f6")]);
        assert_eq!(
            g.notes[0],
            MoveNote {
                eval: None,
                time: Some("4.09".into())
            }
        );
        assert_eq!(
            g.notes[1],
            MoveNote {
                eval: Some("40.00".into()),
                time: Some("0.01".into())
            }
        );
        // The pass is not legal here: the replay says so.
        assert!(matches!(
            g.to_game(),
            Err(GameError::Illegal {
                ply: 3,
                mv: Move::Pass,
                ..
            })
        ));
        // Writing keeps every field.
        let again = one(&write_ggf(&g));
        assert_eq!(again, g);
    }

    #[test]
    fn a_comment_of_its_own_replaces_the_opening_s_name() {
        let mut g = one(&format!("(;GM[Othello]{START}B[f5]W[d6];)"));
        assert!(write_ggf(&g).contains("C[Opening: "));
        g.info
            .extra
            .push(("C".into(), "forfeit: white lost on time".into()));
        let text = write_ggf(&g);
        assert_eq!(text.matches("C[").count(), 1, "{text}");
        assert_eq!(one(&text), g);
    }

    #[test]
    fn several_games_and_implied_passes() {
        let text = format!("\n(;GM[othello]{START}B[f5]W[d6];)\n  (; PB[x]\n B[f5] B[f4] ;)\n(;B[f5])");
        let games = parse_ggf(&text).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[1].info.black, "x");
        // Black twice in a row: white passed in between.
        assert_eq!(games[1].moves[1], Move::Pass);
        assert_eq!(games[1].moves.len(), 3);
        assert!(games[1].notes.is_empty());
        assert_eq!(games[2].start, AnyPosition::start(&Rules::othello()));
        assert!(parse_ggf("  \n ").unwrap().is_empty());
    }

    #[test]
    fn variants_from_type_and_va() {
        assert_eq!(one("(;TY[8a];)").variant, Variant::Anti);
        assert_eq!(one("(;TY[6];)").variant, Variant::Nxn(6));
        assert_eq!(one("(;TY[s8r16];)").variant, Variant::Othello);
        assert_eq!(one("(;TY[8a]VA[eight-stars];)").variant, Variant::EightStars);
        assert_eq!(one("(;BO[4 -----O*--*O----- *];)").variant, Variant::Nxn(4));
        // A black hole without a square is resolved from the `#` on the board.
        let mut bo = "-".repeat(64);
        bo.replace_range(18..19, "#");
        bo.replace_range(27..29, "O*");
        bo.replace_range(35..37, "*O");
        let g = one(&format!("(;VA[black-hole]BO[8 {bo} *];)"));
        assert_eq!(g.variant, Variant::BlackHole(Square::parse("c3")));
        assert_eq!(g.start, AnyPosition::start(&g.rules()));
        // An XOT line is found from the board.
        let r = Rules::new(Variant::Xot(Some(16)), 0);
        let bo = write_bo(&AnyPosition::start(&r));
        assert_eq!(
            one(&format!("(;VA[xot]BO[{bo}];)")).variant,
            Variant::Xot(Some(16))
        );
    }

    #[test]
    fn errors_say_where() {
        let e = err("(;GM[Othello]\nPB[a]  PW[b\n");
        assert_eq!((e.line, e.column), (2, 8));
        assert_eq!(e.kind, GgfErrorKind::UnclosedValue("PW".into()));
        let e = err("(;PB[a] ;) x");
        assert_eq!((e.line, e.column), (1, 12));
        assert_eq!(
            e.kind,
            GgfErrorKind::Expected {
                expected: "`(;` starting a game",
                found: "`x`".into()
            }
        );
        let e = err("(;PB[a]");
        assert_eq!((e.line, e.column, e.kind), (1, 1, GgfErrorKind::UnclosedGame));
        let e = err("(;GM[Amazons];)");
        assert_eq!(
            (e.column, e.kind),
            (3, GgfErrorKind::NotOthello("Amazons".into()))
        );
        let e = err("(;PB[a]PB[b];)");
        assert_eq!((e.column, e.kind), (8, GgfErrorKind::Duplicate("PB".into())));
        let e = err("(;\n  VA[chess];)");
        assert_eq!((e.line, e.column), (2, 3));
        assert!(matches!(e.kind, GgfErrorKind::BadVariant { .. }), "{e}");
        let e = err("(;TY[7];)");
        assert_eq!(e.kind, GgfErrorKind::BadType("7".into()));
        let e = err("(;B[f5]W[z9];)");
        assert_eq!(
            (e.column, e.kind),
            (
                8,
                GgfErrorKind::BadMove {
                    tag: "W".into(),
                    value: "z9".into()
                }
            )
        );
        let e = err("(;RE[+5:q];)");
        assert_eq!(e.kind, GgfErrorKind::BadResult("+5:q".into()));
        let e = err("(;RB[strong];)");
        assert!(matches!(e.kind, GgfErrorKind::BadRating { .. }));
        let e = err("(;BO[8 ---];)");
        assert!(matches!(e.kind, GgfErrorKind::BadBoard(_)), "{e}");
        let e = err("(;TY[10]BO[8 ---------------------------O*------*O--------------------------- *];)");
        assert!(
            matches!(&e.kind, GgfErrorKind::BadBoard(m) if m.contains("10×10")),
            "{e}"
        );
        let e = err("(;VA[black-hole];)");
        assert!(matches!(e.kind, GgfErrorKind::Unresolved(..)), "{e}");
        let e = err("(;PB[a]x b;)");
        assert!(matches!(e.kind, GgfErrorKind::Expected { .. }), "{e}");
        let e = err("(;PB[a]%;)");
        assert_eq!(e.column, 8);
        assert!(
            e.to_string().starts_with("line 1, column 8: expected a tag"),
            "{e}"
        );
    }

    #[test]
    fn escapes_round_trip() {
        let mut g = one("(;PB[a\\]b\\\\c]XX[keep me];)");
        assert_eq!(g.info.black, "a]b\\c");
        assert_eq!(g.info.extra, vec![("XX".to_string(), "keep me".to_string())]);
        g.info.white = "[x]".into();
        assert_eq!(one(&write_ggf(&g)), g);
    }

    #[test]
    fn results() {
        assert_eq!(one("(;RE[?];)").info.result, None);
        assert_eq!(
            one("(;RE[+18];)").info.result,
            Some(GgfResult {
                black_margin: 18.0,
                ending: Ending::Normal
            })
        );
        assert_eq!(
            one("(;RE[-3.00:t];)").info.result,
            Some(GgfResult {
                black_margin: -3.0,
                ending: Ending::Timeout
            })
        );
        assert_eq!(
            one("(;RE[0:s];)").info.result,
            Some(GgfResult {
                black_margin: 0.0,
                ending: Ending::Agreed
            })
        );
        let g = one("(;RE[+18];)");
        assert!(write_ggf(&g).contains("RE[+18.00]"));
        let g = one("(;RE[-40.001];)");
        assert!(write_ggf(&g).contains("RE[-40.001]"));
        assert_eq!(one(&write_ggf(&g)), g);
    }

    #[test]
    fn many_tags_are_read_in_linear_time() {
        // 60,000 tags took 9 s when each tag was checked against every earlier one (100,000
        // over 30 s). Counted, not timed: names compared, against n²/2 for that check.
        use std::cell::Cell;
        thread_local!(static COMPARED: Cell<u64> = const { Cell::new(0) });
        struct Counted(String);
        impl std::hash::Hash for Counted {
            fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
                self.0.hash(h);
            }
        }
        impl PartialEq for Counted {
            fn eq(&self, other: &Counted) -> bool {
                COMPARED.with(|c| c.set(c.get() + 1));
                self.0 == other.0
            }
        }
        impl Eq for Counted {}
        let n = 200_000;
        let names = (0..n).map(|i| (Counted(format!("T{i}")), true));
        assert_eq!(index_by_name(names).map(|m| m.len()), Ok(n));
        let compared = COMPARED.with(Cell::get);
        assert!(compared < n as u64, "{compared} comparisons for {n} names");
        let repeated = (0..n).chain([7]).map(|i| (Counted(format!("T{i}")), true));
        assert_eq!(index_by_name(repeated).err(), Some(n));
        // And through the reader, with its tags and a repeat.
        let tags: String = (0..n).map(|i| format!("T{i}[]")).collect();
        let text = format!("(;GM[Othello]{tags}B[f5];)");
        let games = parse_ggf(&text).unwrap();
        assert_eq!(games[0].info.extra.len(), n);
        let dup = format!("(;GM[Othello]{tags}T7[x];)");
        let e = parse_ggf(&dup).unwrap_err();
        assert_eq!(e.kind, GgfErrorKind::Duplicate("T7".into()));
    }

    #[test]
    fn xot_games_are_recognised_by_an_index() {
        // Each XOT game's line was found by rebuilding every line of the list from the start
        // (2 s a game): counted, the lines replayed stay those of one index, built once.
        let mut text = String::new();
        for i in (0..crate::rules::XOT_COUNT).step_by(36) {
            let rules = Rules::new(Variant::Xot(Some(i as u16)), 0);
            let pos = AnyPosition::start(&rules);
            text.push_str(&format!("(;GM[Othello]VA[xot]BO[{}];)\n", write_bo(&pos)));
        }
        let games = parse_ggf(&text).unwrap();
        let replayed = crate::rules::XOT_LINES_INDEXED.load(std::sync::atomic::Ordering::Relaxed);
        assert!(replayed <= crate::rules::XOT_COUNT, "{replayed} lines replayed");
        assert_eq!(games.len(), 300);
        for (k, g) in games.iter().enumerate() {
            // The first line with this position (a later one may transpose into it).
            let Variant::Xot(Some(line)) = g.variant else {
                panic!("{:?}", g.variant)
            };
            assert!(line as usize <= 36 * k, "{line} {k}");
            assert_eq!(AnyPosition::start(&Rules::new(g.variant, 0)), g.start);
        }
    }

    #[test]
    fn errors_quote_a_few_characters_at_most() {
        let long = "x".repeat(1_000_000);
        for text in [
            format!("(;GM[{long}];)"),
            format!("(;GM[Othello]B[{long}];)"),
            format!("(;GM[Othello]RE[{long}];)"),
            format!("(;GM[Othello]TY[{long}];)"),
            format!("(;GM[Othello]BO[{long}];)"),
            format!("(;GM[Othello]A[]{long}[]{long}[];)"),
        ] {
            let Err(e) = parse_ggf(&text) else {
                panic!("{} parses", &text[..20])
            };
            let e = e.to_string();
            assert!(e.len() < 300, "{} bytes: {}", e.len(), &e[..100]);
        }
    }
}
