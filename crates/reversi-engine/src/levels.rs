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
            noise: self.noise,
            seed,
        }
    }
}

/// Limits for a search by time alone: as deep as the time allows, exact when the endgame is
/// small enough to finish.
pub fn timed(time: Duration) -> Limits {
    let secs = time.as_secs_f64();
    // The exact solver's cost grows about 3× per empty; these bounds finish in the budget on
    // typical positions with the hand-tuned ordering.
    let exact = (14.0 + 2.5 * (secs.max(0.01)).log(3.0)).clamp(8.0, 30.0) as u32;
    Limits {
        depth: 60,
        selectivity: 2,
        exact_empties: exact,
        wld_empties: exact + 2,
        time: Some(time),
        noise: 0,
        seed: 0,
    }
}

/// Time for one move from a game clock: the remaining time spread over the moves still to play
/// (about half the empties), plus most of the increment.
pub fn time_for_move(remaining: Duration, increment: Duration, empties: u32) -> Duration {
    let moves_left = (empties / 2).max(1);
    let base = remaining / (moves_left + 2);
    let t = base + increment.mul_f64(0.8);
    // Never plan to use more than 40 % of what is left.
    t.min(remaining.mul_f64(0.4))
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
    fn clock() {
        let t = time_for_move(Duration::from_secs(60), Duration::from_secs(2), 40);
        assert!(t > Duration::from_secs(4) && t < Duration::from_secs(24));
        assert!(time_for_move(Duration::from_secs(1), Duration::ZERO, 2) <= Duration::from_millis(400));
    }
}
