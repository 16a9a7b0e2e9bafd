//! Glicko-2 ratings (Glickman's 2012 description) with lichess's parameters, one per category.
//!
//! Each rated game is a rating period of its own for both players, computed from their ratings
//! before the game ([`rate_game`]). Before it, a player's deviation grows with the time since
//! their last rated game ([`Rating::at`]), at lichess's 0.21436 rating periods per day, so a
//! rating not defended for months becomes uncertain again. The arithmetic is the `skillratings`
//! crate's; the parameters, the idle growth and the bounds are lichess's:
//!
//! | parameter | value |
//! |---|---|
//! | new player | 1500, RD 500, volatility 0.09 |
//! | τ (system constant) | 0.75 |
//! | RD bounds | [45, 500] |
//! | volatility cap | 0.1 |
//! | provisional ("?") | RD ≥ 110 |

use crate::clock::{Speed, TimeControl};
use crate::Millis;
use reversi_core::Variant;
use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's rating deviation (the largest).
pub const START_DEVIATION: f64 = 500.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.09;
/// The system constant τ.
pub const TAU: f64 = 0.75;
/// The smallest rating deviation: the most certain a rating gets.
pub const MIN_DEVIATION: f64 = 45.0;
/// The largest rating deviation.
pub const MAX_DEVIATION: f64 = 500.0;
/// The largest volatility.
pub const MAX_VOLATILITY: f64 = 0.1;
/// A rating is provisional (shown with "?", left off leaderboards) while RD is at least this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Glicko-2 rating periods per day of idle time, for the growth of RD.
pub const RATING_PERIODS_PER_DAY: f64 = 0.21436;

/// The rated categories: standard Othello by speed, and one per variant family with rated play
/// (XOT at any speed, Grand Othello 10×10, Anti-Othello). Other variants are played casual only:
/// too few players to rate them apart, and too different to share a rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Standard 8×8, estimated duration under 3 minutes.
    Bullet,
    /// Standard 8×8, under 8 minutes.
    Blitz,
    /// Standard 8×8, under 25 minutes.
    Rapid,
    /// Standard 8×8, 25 minutes or more.
    Classical,
    /// Standard 8×8, days per move.
    Correspondence,
    /// XOT openings, any speed.
    Xot,
    /// Grand Othello (10×10), any speed.
    Grand,
    /// Anti-Othello (fewest discs wins), any speed.
    Anti,
}

impl Category {
    /// All categories, in the order a profile lists them.
    pub const ALL: [Category; 8] = [
        Category::Bullet,
        Category::Blitz,
        Category::Rapid,
        Category::Classical,
        Category::Correspondence,
        Category::Xot,
        Category::Grand,
        Category::Anti,
    ];

    /// The category of a game of `variant` under `control`; `None` if such games are casual only.
    pub fn of(variant: Variant, control: TimeControl) -> Option<Category> {
        Some(match variant {
            Variant::Othello => match control.speed() {
                Speed::Bullet => Category::Bullet,
                Speed::Blitz => Category::Blitz,
                Speed::Rapid => Category::Rapid,
                Speed::Classical => Category::Classical,
                Speed::Correspondence => Category::Correspondence,
            },
            Variant::Xot(_) => Category::Xot,
            Variant::Grand => Category::Grand,
            Variant::Anti => Category::Anti,
            _ => return None,
        })
    }

    /// The lowercase name used in URLs, stored rows and message ids.
    pub fn name(self) -> &'static str {
        match self {
            Category::Bullet => "bullet",
            Category::Blitz => "blitz",
            Category::Rapid => "rapid",
            Category::Classical => "classical",
            Category::Correspondence => "correspondence",
            Category::Xot => "xot",
            Category::Grand => "grand",
            Category::Anti => "anti",
        }
    }

    /// The category named `name` ([`Category::name`]).
    pub fn named(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// A player's rating in one category.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// The rating deviation as of `last_rated`.
    pub deviation: f64,
    /// The volatility.
    pub volatility: f64,
    /// Rated games played in this category.
    pub games: u32,
    /// When the last rated game ended (`None` before the first).
    pub last_rated: Option<Millis>,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: START_RATING,
            deviation: START_DEVIATION,
            volatility: START_VOLATILITY,
            games: 0,
            last_rated: None,
        }
    }
}

impl Rating {
    /// The rating as it stands at `now`: the deviation grown by the idle time since the last
    /// rated game, φ* = √(φ² + t·σ²) with t in rating periods, within the bounds.
    pub fn at(&self, now: Millis) -> Rating {
        let Some(last) = self.last_rated else { return *self };
        let days = now.saturating_sub(last) as f64 / 86_400_000.0;
        let periods = days * RATING_PERIODS_PER_DAY;
        // On the Glicko-2 scale (÷ 173.7178) φ² grows by t·σ²; on the Glicko scale that is ×173.7178².
        let scale = 173.7178_f64;
        let phi = self.deviation / scale;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * scale;
        Rating {
            deviation: grown.clamp(MIN_DEVIATION, MAX_DEVIATION),
            ..*self
        }
    }

    /// Whether the rating is provisional at `now` (shown with "?").
    pub fn provisional(&self, now: Millis) -> bool {
        self.at(now).deviation >= PROVISIONAL_DEVIATION
    }

    /// The rating rounded for display, with "?" while provisional: `1500?`, `1732`.
    pub fn display(&self, now: Millis) -> String {
        let mark = if self.provisional(now) { "?" } else { "" };
        format!("{}{mark}", self.rating.round() as i64)
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// A game's result for the player being rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// Won (1 point).
    Win,
    /// Drew (½).
    Draw,
    /// Lost (0).
    Loss,
}

impl Score {
    /// The other player's score.
    pub fn flipped(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }

    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }
}

/// One rating period for `player`: `results` against opponents as they stood, with system
/// constant `tau`, no idle growth and no bounds (the bare algorithm, as Glickman's example
/// computes it).
pub fn rating_period(player: &Rating, results: &[(Rating, Score)], tau: f64) -> Rating {
    let config = Glicko2Config {
        tau,
        ..Glicko2Config::new()
    };
    let results: Vec<_> = results.iter().map(|(o, s)| (o.glicko(), s.outcome())).collect();
    let r = glicko2_rating_period(&player.glicko(), &results, &config);
    Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
        games: player.games + results.len() as u32,
        last_rated: player.last_rated,
    }
}

/// Both players' ratings after a rated game that ended at `now`, `score` being the first
/// player's: each is rated against the other's rating before the game, after idle growth, and
/// kept within lichess's bounds.
pub fn rate_game(a: &Rating, b: &Rating, score: Score, now: Millis) -> (Rating, Rating) {
    let (a0, b0) = (a.at(now), b.at(now));
    let one = |p: &Rating, o: &Rating, s: Score| {
        let r = rating_period(p, &[(*o, s)], TAU);
        Rating {
            deviation: r.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: r.volatility.min(MAX_VOLATILITY),
            last_rated: Some(now),
            ..r
        }
    };
    (one(&a0, &b0, score), one(&b0, &a0, score.flipped()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility,
            games: 0,
            last_rated: None,
        }
    }

    #[test]
    fn glickmans_worked_example() {
        // Glickman, "Example of the Glicko-2 system": a 1500/200/0.06 player beats 1400/30,
        // loses to 1550/100 and to 1700/300, with τ = 0.5 → 1464.06 / 151.52 / 0.05999.
        let p = r(1500.0, 200.0, 0.06);
        let results = [
            (r(1400.0, 30.0, 0.06), Score::Win),
            (r(1550.0, 100.0, 0.06), Score::Loss),
            (r(1700.0, 300.0, 0.06), Score::Loss),
        ];
        let after = rating_period(&p, &results, 0.5);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
        assert_eq!(after.games, 3);
    }

    #[test]
    fn a_new_players_first_game() {
        let (w, l) = rate_game(&Rating::default(), &Rating::default(), Score::Win, 1_000);
        // Two 1500/500 players: the winner gains what the loser loses, both RDs fall.
        assert!(w.rating > 1500.0 && l.rating < 1500.0);
        assert!(((w.rating - 1500.0) - (1500.0 - l.rating)).abs() < 1e-9);
        assert!(w.deviation < 500.0 && l.deviation < 500.0);
        assert_eq!((w.games, l.games), (1, 1));
        assert_eq!(w.last_rated, Some(1_000));
        assert!(w.provisional(1_000), "one game is not enough");
        let (d1, d2) = rate_game(&Rating::default(), &Rating::default(), Score::Draw, 0);
        assert!((d1.rating - 1500.0).abs() < 1e-9 && (d2.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn deviation_stays_within_bounds_and_volatility_under_its_cap() {
        let mut a = Rating::default();
        let mut b = Rating::default();
        for i in 0..500 {
            let s = if i % 3 == 0 { Score::Loss } else { Score::Win };
            (a, b) = rate_game(&a, &b, s, i * 60_000);
            assert!((MIN_DEVIATION..=MAX_DEVIATION).contains(&a.deviation), "{a:?}");
            assert!(a.volatility <= MAX_VOLATILITY);
        }
        assert!(!a.provisional(500 * 60_000), "500 games settle a rating: {a:?}");
        assert!(a.display(500 * 60_000).parse::<i64>().is_ok());
    }

    #[test]
    fn idle_time_makes_a_rating_uncertain_again() {
        let settled = Rating {
            rating: 1800.0,
            deviation: 60.0,
            volatility: 0.06,
            games: 100,
            last_rated: Some(0),
        };
        let day = 86_400_000;
        assert!((settled.at(0).deviation - 60.0).abs() < 1e-9);
        let year = settled.at(365 * day).deviation;
        // φ*² = φ² + t·σ² with t = 365 × 0.21436 periods, on the Glicko-2 scale.
        let want =
            ((60.0_f64 / 173.7178).powi(2) + 365.0 * RATING_PERIODS_PER_DAY * 0.06 * 0.06).sqrt() * 173.7178;
        assert!((year - want).abs() < 1e-9, "{year} vs {want}");
        assert!(settled.at(30 * day).deviation < settled.at(365 * day).deviation);
        assert_eq!(settled.at(1_000_000 * day).deviation, MAX_DEVIATION);
        assert_eq!(settled.display(0), "1800");
        assert!(settled.display(100_000 * day).ends_with('?'));
    }

    #[test]
    fn categories() {
        let blitz: TimeControl = "3+2".parse().unwrap();
        let corr: TimeControl = "1d".parse().unwrap();
        assert_eq!(Category::of(Variant::Othello, blitz), Some(Category::Blitz));
        assert_eq!(
            Category::of(Variant::Othello, corr),
            Some(Category::Correspondence)
        );
        assert_eq!(Category::of(Variant::Xot(Some(3)), corr), Some(Category::Xot));
        assert_eq!(Category::of(Variant::Grand, blitz), Some(Category::Grand));
        assert_eq!(Category::of(Variant::Anti, blitz), Some(Category::Anti));
        assert_eq!(Category::of(Variant::Nxn(6), blitz), None);
        for c in Category::ALL {
            assert_eq!(Category::named(c.name()), Some(c));
        }
        assert_eq!(Category::named("Blitz"), None);
    }
}
