//! Playing levels 1–30: how deep each searches, how selectively, and from how many empties it
//! plays the endgame perfectly.
//!
//! | level | midgame depth | selectivity | win/loss/draw from | exact from | noise |
//! |------:|--------------:|------------:|-------------------:|-----------:|------:|
//! | 1     | 1             | 87 %        | 2                  | 2          | ±6    |
//! | 2     | 2             | 87 %        | 4                  | 4          | ±4    |
//! | 3     | 3             | 87 %        | 6                  | 6          | ±2    |
//! | 4–10  | L             | 87 %        | 2L + 2             | 2L         | 0     |
//! | 11–20 | L             | 95 %        | 20 + (L−10)/2 + 2  | 20 + (L−10)/2 | 0  |
//! | 21–29 | L             | 98 %        | 25 + (L−20)/2 + 2  | 25 + (L−20)/2 | 0  |
//! | 30    | 30            | 99 %        | 32                 | 30         | 0     |
//!
//! Empties are counted before the engine's move. Noise is a random error in discs added to each
//! root move's score, so that the first levels make the mistakes a beginner can punish.

use crate::search::Limits;
use std::time::Duration;

/// The highest level.
pub const MAX_LEVEL: u32 = 30;

/// From this level up, a player under a clock solves the endgame as early as its time allows
/// (`crate::clock::clock_limits`); below, it keeps its level's endgame depths.
pub const STRONG_LEVEL: u32 = 20;

/// The longest time any search, clock or time setting may be given: one week. Longer values are
/// refused rather than searched: no analysis needs more, and every instant computed from a
/// time (a deadline, a clock's share) stays far from overflowing.
pub const MAX_TIME: Duration = Duration::from_secs(7 * 24 * 3600);

/// A time given in seconds that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeError {
    /// Not a number at all (the text, cut to a few dozen characters).
    NotANumber(String),
    /// Infinite or not a number (`inf`, `nan`).
    NotFinite,
    /// Below zero, or zero where a positive time is needed.
    TooSmall {
        /// Whether zero is allowed here.
        zero_allowed: bool,
    },
    /// Longer than [`MAX_TIME`].
    TooLarge,
}

impl std::fmt::Display for TimeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let max = MAX_TIME.as_secs();
        match self {
            TimeError::NotANumber(t) => write!(f, "`{t}` is not a number of seconds"),
            TimeError::NotFinite => f.write_str("the time must be a finite number of seconds"),
            TimeError::TooSmall { zero_allowed: true } => f.write_str("the time must be 0 seconds or more"),
            TimeError::TooSmall { zero_allowed: false } => {
                f.write_str("the time must be more than 0 seconds")
            }
            TimeError::TooLarge => write!(f, "the time must be at most {max} seconds (one week)"),
        }
    }
}

impl std::error::Error for TimeError {}

/// A number of seconds as a time: finite, at most [`MAX_TIME`], and positive (or zero, when
/// `zero_allowed`). A positive time below a microsecond becomes one microsecond, so that it
/// never reads as zero.
pub fn seconds(secs: f64, zero_allowed: bool) -> Result<Duration, TimeError> {
    if !secs.is_finite() {
        return Err(TimeError::NotFinite);
    }
    if secs < 0.0 || (secs == 0.0 && !zero_allowed) {
        return Err(TimeError::TooSmall { zero_allowed });
    }
    if secs > MAX_TIME.as_secs_f64() {
        return Err(TimeError::TooLarge);
    }
    if secs == 0.0 {
        return Ok(Duration::ZERO);
    }
    // In range, so the conversion cannot panic.
    Ok(Duration::from_secs_f64(secs).max(Duration::from_micros(1)))
}

/// Reads a time in seconds (`2`, `0.5`, `1e-3`), checked as [`seconds`] does.
pub fn parse_seconds(text: &str, zero_allowed: bool) -> Result<Duration, TimeError> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| TimeError::NotANumber(reversi_core::clip(text, 40).into_owned()))?;
    seconds(v, zero_allowed)
}

/// The settings of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The level, 1..=30.
    pub level: u32,
    /// Midgame search depth.
    pub depth: u32,
    /// Index into [`crate::probcut::CONFIDENCE`].
    pub selectivity: usize,
    /// Win/loss/draw search at or below this many empties.
    pub wld_empties: u32,
    /// Exact search at or below this many empties.
    pub exact_empties: u32,
    /// Random error added to root scores (discs).
    pub noise: i32,
}

impl Level {
    /// Level `l` (clamped to 1..=30).
    pub fn new(l: u32) -> Level {
        let l = l.clamp(1, MAX_LEVEL);
        let (selectivity, exact) = match l {
            1..=10 => (5, 2 * l),
            11..=20 => (3, 20 + (l - 10) / 2),
            21..=29 => (2, 25 + (l - 20) / 2),
            _ => (1, 30),
        };
        let wld = if l <= 3 { exact } else { exact + 2 };
        let noise = match l {
            1 => 6,
            2 => 4,
            3 => 2,
            _ => 0,
        };
        Level {
            level: l,
            depth: l,
            selectivity,
            wld_empties: wld,
            exact_empties: exact,
            noise,
        }
    }

    /// Search limits for this level (no time limit).
    pub fn limits(&self, seed: u64) -> Limits {
        Limits {
            depth: self.depth,
            selectivity: self.selectivity,
            exact_empties: self.exact_empties,
            wld_empties: self.wld_empties,
            time: None,
            soft_time: None,
            noise: self.noise,
            seed,
            book_margin: crate::book::margin_for_level(self.level),
        }
    }
}

/// The Multi-ProbCut selectivity of a search by time alone (an index into
/// [`crate::probcut::CONFIDENCE`]: 91 %). A search that may go as deep as its time allows gains
/// more from the depth that bolder cuts buy than it loses to their mistakes. Measured
/// (2026-12-05, the same binary against itself over GTP, `--time 0.1`, 400 XOT games with
/// colours swapped, no book): 91 % against the 98 % used before, 237½–162½ (+66 Elo, +31 …
/// +101); 87 % against 91 %, 200–200; at 0.3 s a move (200 games), 91 % against 98 %:
/// 117½–82½ (+61, +13 … +110). Longer times were not measured.
pub const TIMED_SELECTIVITY: usize = 4;

/// Limits for a search by time alone: as deep as the time allows (the whole of it: see
/// [`Limits::spend_all`]), and the endgame solved exactly from as many empties as the solver's
/// time model fits in a quarter of the time ([`crate::solve_time::exact_fits`], the rule a clock's
/// share follows), win/loss/draw from two more.
///
/// Until 2026-12-05 these depths came from a formula made for the hand-tuned evaluation's
/// solver: exact from 8 empties at 0.1 s (18 now), 11 at 0.3 s (19 now), 14 at 1 s (21 now),
/// and the endgames between were played by a selective midgame search. Measured (the same binary
/// against itself over GTP, `--time 0.1`, 400 XOT games with colours swapped, no book): the
/// quarter against the old formula, 240–160 (216 W, 48 D, 136 L; +70 Elo, +36 … +105); the
/// solver started when its model fits the whole time (exact from 20 empties at 0.1 s) against
/// the quarter, 168½–231½ (−55, −90 … −21): too many solves then run out of time; an eighth
/// (17 empties) against the quarter, 204–196 (+7, −27 … +41).
pub fn timed(time: Duration) -> Limits {
    let exact = crate::solve_time::exact_fits(time);
    Limits {
        depth: 60,
        selectivity: TIMED_SELECTIVITY,
        exact_empties: exact,
        wld_empties: exact + 2,
        time: Some(time),
        soft_time: Some(time),
        noise: 0,
        seed: 0,
        book_margin: Some(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow() {
        for l in 1..MAX_LEVEL {
            let (a, b) = (Level::new(l), Level::new(l + 1));
            assert!(b.depth > a.depth);
            assert!(b.exact_empties >= a.exact_empties);
            assert!(b.noise <= a.noise);
        }
        assert_eq!(Level::new(0), Level::new(1));
        assert_eq!(Level::new(99).level, 30);
    }

    #[test]
    fn times_are_checked() {
        assert_eq!(parse_seconds("1.5", false), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_seconds(" 0 ", true), Ok(Duration::ZERO));
        assert_eq!(
            parse_seconds("0", false),
            Err(TimeError::TooSmall { zero_allowed: false })
        );
        assert_eq!(
            parse_seconds("-1", true),
            Err(TimeError::TooSmall { zero_allowed: true })
        );
        for bad in ["inf", "-inf", "nan", "NaN", "infinity"] {
            assert_eq!(parse_seconds(bad, true), Err(TimeError::NotFinite), "{bad}");
        }
        for big in ["1e30", "1e19", "604801", "1e308"] {
            assert_eq!(parse_seconds(big, true), Err(TimeError::TooLarge), "{big}");
        }
        assert_eq!(parse_seconds("604800", false), Ok(MAX_TIME));
        assert_eq!(parse_seconds("1e-300", false), Ok(Duration::from_micros(1)));
        let long = "x".repeat(10_000);
        let e = parse_seconds(&long, true).unwrap_err().to_string();
        assert!(e.len() < 100, "{e}");
    }
}
