//! The rules value: one description of a game (RULES.md §4) and every preset of it.

use crate::bits::{Bits, WideBits};
use crate::color::Color;
use crate::square::Square;
use std::fmt;
use std::str::FromStr;

/// What a player tries to do with discs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Most discs wins (Othello).
    MostDiscs,
    /// Fewest discs wins (anti-reversi).
    FewestDiscs,
}

/// What an equal count means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TieRule {
    /// A draw (every preset).
    #[default]
    Draw,
    /// The player who moved second wins (one box edition's rule; an option, not a preset).
    SecondPlayerWins,
}

impl TieRule {
    /// The rule's name in options and records: `draw` or `second-wins`.
    pub fn name(self) -> &'static str {
        match self {
            TieRule::Draw => "draw",
            TieRule::SecondPlayerWins => "second-wins",
        }
    }

    /// The rule of a name written by [`TieRule::name`].
    pub fn parse(s: &str) -> Option<TieRule> {
        match s {
            "draw" => Some(TieRule::Draw),
            "second-wins" => Some(TieRule::SecondPlayerWins),
            _ => None,
        }
    }
}

/// The number of openings in the embedded XOT list.
pub const XOT_COUNT: usize = 10_784;

/// The XOT openings (Matthias Berg's list, as distributed with Othello Sensei), one 8-move line each.
pub fn xot_openings() -> impl Iterator<Item = &'static str> {
    xot_lines().iter().copied()
}

/// The XOT lines, split once.
fn xot_lines() -> &'static [&'static str] {
    static LINES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    LINES.get_or_init(|| {
        include_str!("../../../data/xot/sensei_xot_large.txt")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect()
    })
}

/// How many XOT lines were replayed to build the index of [`xot_line_of`] (once per process:
/// tests count it instead of timing the look-ups).
#[cfg(test)]
pub(crate) static XOT_LINES_INDEXED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The XOT line (0-based) whose start position has these discs and side to move, if one does.
/// The first line wins where two lines transpose. The index is built once, on first use.
pub fn xot_line_of(black: WideBits, white: WideBits, to_move: Color) -> Option<u16> {
    type Key = (WideBits, WideBits, Color);
    static INDEX: std::sync::OnceLock<std::collections::HashMap<Key, u16>> = std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut map = std::collections::HashMap::with_capacity(XOT_COUNT);
        for i in 0..xot_lines().len() {
            let r = Rules::new(Variant::Xot(Some(i as u16)), 0);
            #[cfg(test)]
            XOT_LINES_INDEXED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            map.entry((r.start_black, r.start_white, r.start_to_move))
                .or_insert(i as u16);
        }
        map
    });
    index.get(&(black, white, to_move)).copied()
}

/// A preset of the rules (RULES.md §4), as named on the command line.
///
/// Random choices (`black-hole` without a square, `xot` without a line) are [`Variant::resolve`]d
/// into a concrete choice when a game starts, so that records can replay it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Standard 8×8 Othello (§1).
    Othello,
    /// N×N board, diagonal centre.
    Nxn(u8),
    /// N×N board, each colour side by side in the centre.
    NxnParallel(u8),
    /// 10×10 "Grand Othello".
    Grand,
    /// 10×10 with three squares cut from each corner (88 squares).
    EightStars,
    /// 8×8 with one missing square; `None` until chosen at random.
    BlackHole(Option<Square>),
    /// Fewest discs wins.
    Anti,
    /// A balanced 8-move opening from the XOT list; the 0-based line number, `None` until chosen.
    Xot(Option<u16>),
    /// 1880s Reversi: empty board, free centre opening, 32 discs each; who moves first.
    Reversi1880(Color),
}

/// A variant name that is not a preset, or a preset with a bad parameter.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// The name matches no preset.
    #[error("unknown variant `{0}`; presets: othello, nxn:N, nxn-parallel:N, grand, eight-stars, black-hole[:SQUARE], anti, xot[:LINE], reversi-1880[:white]")]
    Unknown(String),
    /// A board size that is odd or out of range.
    #[error("board size `{0}` must be an even number from 4 to 16")]
    BadSize(String),
    /// A black-hole square that is not on the board or is a centre square.
    #[error("black-hole square `{0}` must be on the 8×8 board and not one of the four centre squares")]
    BadHole(String),
    /// An XOT line number out of range.
    #[error("XOT line `{0}` must be a number from 1 to {XOT_COUNT}")]
    BadXotLine(String),
    /// A first-player option that is not a colour.
    #[error("first player `{0}` must be `black` or `white`")]
    BadFirst(String),
}

/// User text as an error quotes it: clipped, so a huge name does not make a huge message.
fn quoted(text: &str) -> String {
    crate::quote::clip(text, crate::quote::QUOTE_CHARS).into_owned()
}

impl Variant {
    /// Fills in random choices (hole square, XOT line) from `seed`; a resolved variant is unchanged.
    pub fn resolve(self, seed: u64) -> Variant {
        let r = splitmix(seed);
        match self {
            Variant::BlackHole(None) => {
                let candidates: Vec<Square> = (0..64)
                    .map(Square::from_bit8)
                    .filter(|&sq| !is_centre8(sq))
                    .collect();
                Variant::BlackHole(Some(candidates[(r % candidates.len() as u64) as usize]))
            }
            Variant::Xot(None) => Variant::Xot(Some((r % XOT_COUNT as u64) as u16)),
            v => v,
        }
    }

    /// Whether random choices remain to be made.
    pub fn is_resolved(self) -> bool {
        !matches!(self, Variant::BlackHole(None) | Variant::Xot(None))
    }

    /// Every preset family with a representative parameter (for tests and menus).
    pub fn examples() -> Vec<Variant> {
        vec![
            Variant::Othello,
            Variant::Nxn(4),
            Variant::Nxn(6),
            Variant::Nxn(10),
            Variant::Nxn(16),
            Variant::NxnParallel(4),
            Variant::NxnParallel(8),
            Variant::Grand,
            Variant::EightStars,
            Variant::BlackHole(Some(Square::parse("c3").expect("valid"))),
            Variant::Anti,
            Variant::Xot(Some(0)),
            Variant::Reversi1880(Color::Black),
            Variant::Reversi1880(Color::White),
        ]
    }
}

fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn is_centre8(sq: Square) -> bool {
    (3..=4).contains(&sq.col()) && (3..=4).contains(&sq.row())
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Variant::Othello => f.write_str("othello"),
            Variant::Nxn(n) => write!(f, "nxn:{n}"),
            Variant::NxnParallel(n) => write!(f, "nxn-parallel:{n}"),
            Variant::Grand => f.write_str("grand"),
            Variant::EightStars => f.write_str("eight-stars"),
            Variant::BlackHole(None) => f.write_str("black-hole"),
            Variant::BlackHole(Some(sq)) => write!(f, "black-hole:{sq}"),
            Variant::Anti => f.write_str("anti"),
            Variant::Xot(None) => f.write_str("xot"),
            Variant::Xot(Some(i)) => write!(f, "xot:{}", i + 1),
            Variant::Reversi1880(Color::Black) => f.write_str("reversi-1880"),
            Variant::Reversi1880(Color::White) => f.write_str("reversi-1880:white"),
        }
    }
}

impl FromStr for Variant {
    type Err = VariantError;

    /// Parses a preset name (case-insensitive): `othello`, `nxn:6`, `nxn-parallel:6`, `grand`,
    /// `eight-stars`, `black-hole`, `black-hole:c3`, `anti`, `xot`, `xot:17` (1-based line),
    /// `reversi-1880`, `reversi-1880:white`.
    fn from_str(s: &str) -> Result<Variant, VariantError> {
        let lower = s.trim().to_ascii_lowercase();
        let (name, arg) = match lower.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (lower.as_str(), None),
        };
        let size = |a: Option<&str>| -> Result<u8, VariantError> {
            let a = a.ok_or_else(|| VariantError::BadSize(String::new()))?;
            match a.parse::<u8>() {
                Ok(n) if (4..=16).contains(&n) && n % 2 == 0 => Ok(n),
                _ => Err(VariantError::BadSize(quoted(a))),
            }
        };
        Ok(match (name, arg) {
            ("othello" | "standard", None) => Variant::Othello,
            ("nxn", a) => Variant::Nxn(size(a)?),
            ("nxn-parallel", a) => Variant::NxnParallel(size(a)?),
            ("grand", None) => Variant::Grand,
            ("eight-stars", None) => Variant::EightStars,
            ("black-hole", None) => Variant::BlackHole(None),
            ("black-hole", Some(a)) => match Square::parse(a) {
                Some(sq) if sq.bit8().is_some() && !is_centre8(sq) => Variant::BlackHole(Some(sq)),
                _ => return Err(VariantError::BadHole(quoted(a))),
            },
            ("anti", None) => Variant::Anti,
            ("xot", None) => Variant::Xot(None),
            ("xot", Some(a)) => match a.parse::<usize>() {
                Ok(i) if (1..=XOT_COUNT).contains(&i) => Variant::Xot(Some((i - 1) as u16)),
                _ => return Err(VariantError::BadXotLine(quoted(a))),
            },
            ("reversi-1880", None) => Variant::Reversi1880(Color::Black),
            ("reversi-1880", Some(a)) => match a {
                "black" | "b" => Variant::Reversi1880(Color::Black),
                "white" | "w" => Variant::Reversi1880(Color::White),
                _ => return Err(VariantError::BadFirst(quoted(a))),
            },
            _ => return Err(VariantError::Unknown(quoted(s.trim()))),
        })
    }
}

/// One complete description of a game: geometry, start, first player, disc supply, goal, tie
/// rule and scoring (RULES.md §4).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The preset this value was made from (resolved: random choices are fixed).
    pub variant: Variant,
    /// Board width in columns.
    pub width: u8,
    /// Board height in rows.
    pub height: u8,
    /// The squares that exist.
    pub playable: WideBits,
    /// Black's discs at the start (after any XOT opening).
    pub start_black: WideBits,
    /// White's discs at the start.
    pub start_white: WideBits,
    /// The side to move at the start (after any XOT opening).
    pub start_to_move: Color,
    /// The moves that led from the standard start to the start position (the XOT line).
    pub opening: Vec<Square>,
    /// Who moves first in the game as a whole.
    pub first: Color,
    /// Discs each player has; `None` for a shared, unlimited supply.
    pub supply: Option<u8>,
    /// The 1880s opening: the centre squares are filled first, one disc at a time, flipping nothing.
    pub free_centre_opening: bool,
    /// What counts as winning.
    pub goal: Goal,
    /// What a tie means.
    pub tie: TieRule,
}

impl Rules {
    /// Standard Othello (§1).
    pub fn othello() -> Rules {
        Rules::new(Variant::Othello, 0)
    }

    /// The rules of `variant`; `seed` resolves any random choice it leaves open.
    pub fn new(variant: Variant, seed: u64) -> Rules {
        let variant = variant.resolve(seed);
        let (w, h) = match variant {
            Variant::Nxn(n) | Variant::NxnParallel(n) => (n, n),
            Variant::Grand | Variant::EightStars => (10, 10),
            _ => (8, 8),
        };
        let sq = |c: u8, r: u8| WideBits::square(Square::new(c, r).expect("on board"));
        let mut playable = WideBits::rect(w, h);
        match variant {
            Variant::EightStars => {
                for (c, r) in [
                    (0, 0),
                    (1, 0),
                    (0, 1),
                    (9, 0),
                    (8, 0),
                    (9, 1),
                    (0, 9),
                    (0, 8),
                    (1, 9),
                    (9, 9),
                    (8, 9),
                    (9, 8),
                ] {
                    playable ^= sq(c, r);
                }
            }
            Variant::BlackHole(Some(hole)) => playable ^= WideBits::square(hole),
            _ => {}
        }
        let (lo_c, lo_r) = (w / 2 - 1, h / 2 - 1);
        let (mut black, mut white) = match variant {
            Variant::NxnParallel(_) => (
                sq(lo_c, lo_r) | sq(lo_c, lo_r + 1),
                sq(lo_c + 1, lo_r) | sq(lo_c + 1, lo_r + 1),
            ),
            Variant::Reversi1880(_) => (WideBits::EMPTY, WideBits::EMPTY),
            _ => (
                sq(lo_c, lo_r + 1) | sq(lo_c + 1, lo_r),
                sq(lo_c, lo_r) | sq(lo_c + 1, lo_r + 1),
            ),
        };
        let first = match variant {
            Variant::Reversi1880(c) => c,
            _ => Color::Black,
        };
        let mut to_move = first;
        let mut opening = Vec::new();
        if let Variant::Xot(Some(i)) = variant {
            let line = xot_lines()[i as usize];
            let (mut p, mut o) = (u64::from_wide(black), u64::from_wide(white));
            for k in 0..line.len() / 2 {
                let s = Square::parse(&line[2 * k..2 * k + 2]).expect("XOT list holds valid squares");
                let bit = s.bit8().expect("8×8 square");
                let f = crate::bitboard::flips(p, o, bit);
                assert!(f != 0, "XOT line {} is legal", i + 1);
                p |= f | (1 << bit);
                o &= !f;
                std::mem::swap(&mut p, &mut o);
                to_move = !to_move;
                opening.push(s);
            }
            let (b, wh) = if to_move == Color::Black { (p, o) } else { (o, p) };
            black = b.to_wide();
            white = wh.to_wide();
        }
        Rules {
            variant,
            width: w,
            height: h,
            playable,
            start_black: black,
            start_white: white,
            start_to_move: to_move,
            opening,
            first,
            supply: matches!(variant, Variant::Reversi1880(_)).then_some(32),
            free_centre_opening: matches!(variant, Variant::Reversi1880(_)),
            goal: if variant == Variant::Anti {
                Goal::FewestDiscs
            } else {
                Goal::MostDiscs
            },
            tie: TieRule::Draw,
        }
    }

    /// The same rules with another tie rule.
    pub fn with_tie_rule(mut self, tie: TieRule) -> Rules {
        self.tie = tie;
        self
    }

    /// The same rules with `discs` in each player's supply, for a variant that has supplies
    /// (`reversi-1880`: 32 by default, 30 as one source gives the old game); `None` for the
    /// others.
    pub fn with_supply(mut self, discs: u8) -> Option<Rules> {
        self.supply?;
        self.supply = Some(discs);
        Some(self)
    }

    /// The four centre squares.
    pub fn centre(&self) -> WideBits {
        let (c, r) = (self.width / 2 - 1, self.height / 2 - 1);
        [(c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)]
            .into_iter()
            .map(|(c, r)| WideBits::square(Square::new(c, r).expect("on board")))
            .fold(WideBits::EMPTY, |a, b| a | b)
    }

    /// The number of squares that exist.
    pub fn square_count(&self) -> u32 {
        self.playable.count()
    }

    /// Whether the board fits the 8×8 `u64` fast path.
    pub fn fits_u64(&self) -> bool {
        self.width <= 8 && self.height <= 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bad name of any length is quoted clipped (the fuzzer sent a 6,000-character one).
    #[test]
    fn a_huge_variant_name_makes_a_short_error() {
        let long = "g".repeat(6_000);
        for name in [
            long.clone(),
            format!("nxn:{long}"),
            format!("xot:{long}"),
            format!("black-hole:{long}"),
            format!("reversi-1880:{long}"),
        ] {
            let e = Variant::from_str(&name).unwrap_err().to_string();
            assert!(e.len() < 300, "{} bytes", e.len());
            assert!(e.contains("ggg"), "{e}");
        }
    }

    #[test]
    fn names_round_trip() {
        for v in Variant::examples() {
            assert_eq!(v.to_string().parse::<Variant>().unwrap(), v);
        }
        assert_eq!("OTHELLO".parse::<Variant>().unwrap(), Variant::Othello);
        assert_eq!("black-hole".parse::<Variant>().unwrap(), Variant::BlackHole(None));
        assert!(matches!(
            "nxn:5".parse::<Variant>(),
            Err(VariantError::BadSize(_))
        ));
        assert!(matches!(
            "nxn:18".parse::<Variant>(),
            Err(VariantError::BadSize(_))
        ));
        assert!(matches!(
            "black-hole:d4".parse::<Variant>(),
            Err(VariantError::BadHole(_))
        ));
        assert!(matches!(
            "xot:0".parse::<Variant>(),
            Err(VariantError::BadXotLine(_))
        ));
        assert!(matches!(
            "chess".parse::<Variant>(),
            Err(VariantError::Unknown(_))
        ));
    }

    #[test]
    fn xot_list_is_complete() {
        assert_eq!(xot_openings().count(), XOT_COUNT);
        assert!(xot_openings().all(|l| l.len() == 16));
    }

    #[test]
    fn random_choices_resolve_deterministically() {
        for seed in 0..200 {
            let v = Variant::BlackHole(None).resolve(seed);
            let Variant::BlackHole(Some(sq)) = v else { panic!() };
            assert!(!is_centre8(sq) && sq.bit8().is_some());
            assert_eq!(v, Variant::BlackHole(None).resolve(seed));
            assert!(Variant::Xot(None).resolve(seed).is_resolved());
        }
    }

    #[test]
    fn eight_stars_has_88_squares() {
        let r = Rules::new(Variant::EightStars, 0);
        assert_eq!(r.square_count(), 88);
        assert!(!r.playable.has(Square::parse("b1").unwrap()));
        assert!(r.playable.has(Square::parse("c1").unwrap()));
    }
}
