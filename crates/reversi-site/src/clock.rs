//! Time controls, speed classes and Fischer clocks (RULES.md §6).
//!
//! A clock is plain data: both players' remaining time and, while a player is thinking, since
//! when. The server stores it after every move, so a restart resumes it exactly
//! ([`Clock::resume`]: the time the server was down is charged to nobody).
//!
//! As on lichess, the clock starts only once both players have made a move: each side's first
//! move is free, and the game is aborted instead if a first move does not come within
//! [`FIRST_MOVE_DEADLINE_MS`].

use crate::Millis;
use reversi_core::Color;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How long a player has for the first move of a timed game before it is aborted (no result):
/// 30 s, as on lichess for its fast games.
pub const FIRST_MOVE_DEADLINE_MS: Millis = 30_000;

/// The longest initial time of a Fischer control: 180 minutes.
pub const MAX_INITIAL_S: u32 = 180 * 60;

/// The largest increment: 180 seconds.
pub const MAX_INCREMENT_S: u32 = 180;

/// The days per move a correspondence game may give (RULES.md §6).
pub const CORRESPONDENCE_DAYS: [u8; 6] = [1, 2, 3, 5, 7, 14];

/// A day, in milliseconds.
pub const DAY_MS: Millis = 86_400_000;

/// How a game is timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeControl {
    /// A Fischer clock: initial time, and an increment added after each of a player's moves.
    Fischer {
        /// Initial time per player, seconds (a multiple of 15: ¼ minute steps).
        initial_s: u32,
        /// Added after each move, seconds.
        increment_s: u32,
    },
    /// A number of days for each move (the time left is reset by every move).
    Correspondence {
        /// Days per move: one of [`CORRESPONDENCE_DAYS`].
        days: u8,
    },
}

/// Why a time control cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Not `MINUTES+SECONDS` nor `Nd`.
    #[error("`{0}` is not a time control: write minutes+increment seconds (`5+3`, `0.5+1`) or days per move (`3d`)")]
    Syntax(String),
    /// The initial time is out of range or not in quarter minutes.
    #[error("the initial time must be 0 to 180 minutes in steps of ¼ minute, not {0} s")]
    Initial(u32),
    /// The increment is out of range.
    #[error("the increment must be 0 to 180 seconds, not {0}")]
    Increment(u32),
    /// No time at all (0+0).
    #[error("a clock needs some time: the initial time and the increment cannot both be 0")]
    NoTime,
    /// Days per move not offered.
    #[error("a correspondence game gives 1, 2, 3, 5, 7 or 14 days per move, not {0}")]
    Days(u32),
}

impl TimeControl {
    /// A Fischer control, checked.
    pub fn fischer(initial_s: u32, increment_s: u32) -> Result<TimeControl, TimeControlError> {
        if initial_s > MAX_INITIAL_S || !initial_s.is_multiple_of(15) {
            return Err(TimeControlError::Initial(initial_s));
        }
        if increment_s > MAX_INCREMENT_S {
            return Err(TimeControlError::Increment(increment_s));
        }
        if initial_s == 0 && increment_s == 0 {
            return Err(TimeControlError::NoTime);
        }
        Ok(TimeControl::Fischer {
            initial_s,
            increment_s,
        })
    }

    /// A correspondence control, checked.
    pub fn correspondence(days: u32) -> Result<TimeControl, TimeControlError> {
        match u8::try_from(days) {
            Ok(d) if CORRESPONDENCE_DAYS.contains(&d) => Ok(TimeControl::Correspondence { days: d }),
            _ => Err(TimeControlError::Days(days)),
        }
    }

    /// Checks a value that came from outside (a request body, a stored row).
    pub fn validate(self) -> Result<TimeControl, TimeControlError> {
        match self {
            TimeControl::Fischer {
                initial_s,
                increment_s,
            } => TimeControl::fischer(initial_s, increment_s),
            TimeControl::Correspondence { days } => TimeControl::correspondence(days as u32),
        }
    }

    /// The estimated duration of a game for one player, seconds: initial + 30 × increment
    /// (a game is about 30 moves each). `None` for correspondence.
    pub fn estimated_s(self) -> Option<u32> {
        match self {
            TimeControl::Fischer {
                initial_s,
                increment_s,
            } => Some(initial_s + 30 * increment_s),
            TimeControl::Correspondence { .. } => None,
        }
    }

    /// Whether a correspondence control (days per move).
    pub fn is_correspondence(self) -> bool {
        matches!(self, TimeControl::Correspondence { .. })
    }

    /// The speed class (RULES.md §6).
    pub fn speed(self) -> Speed {
        match self.estimated_s() {
            None => Speed::Correspondence,
            Some(s) if s < 3 * 60 => Speed::Bullet,
            Some(s) if s < 8 * 60 => Speed::Blitz,
            Some(s) if s < 25 * 60 => Speed::Rapid,
            Some(_) => Speed::Classical,
        }
    }

    /// Each player's time at the start (Fischer) or for every move (correspondence), ms.
    pub fn initial_ms(self) -> Millis {
        match self {
            TimeControl::Fischer { initial_s, .. } => initial_s as Millis * 1000,
            TimeControl::Correspondence { days } => days as Millis * DAY_MS,
        }
    }

    /// The increment, ms (0 for correspondence).
    pub fn increment_ms(self) -> Millis {
        match self {
            TimeControl::Fischer { increment_s, .. } => increment_s as Millis * 1000,
            TimeControl::Correspondence { .. } => 0,
        }
    }
}

impl fmt::Display for TimeControl {
    /// `5+3`, `0.5+1`, `1.25+0`; `3d` for correspondence.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Fischer {
                initial_s,
                increment_s,
            } => {
                let (whole, quarter) = (initial_s / 60, initial_s % 60 / 15);
                match quarter {
                    0 => write!(f, "{whole}+{increment_s}"),
                    2 => write!(f, "{whole}.5+{increment_s}"),
                    q => write!(f, "{whole}.{}+{increment_s}", q * 25),
                }
            }
            TimeControl::Correspondence { days } => write!(f, "{days}d"),
        }
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let t = s.trim();
        let syntax = || TimeControlError::Syntax(t.chars().take(40).collect());
        if let Some(days) = t.strip_suffix('d') {
            let d: u32 = days.parse().map_err(|_| syntax())?;
            return TimeControl::correspondence(d);
        }
        let (minutes, inc) = t.split_once('+').ok_or_else(syntax)?;
        let inc: u32 = inc.parse().map_err(|_| syntax())?;
        // Minutes: a whole number, or with .25/.5/.75; read as hundredths to stay exact.
        let (whole, frac) = minutes.split_once('.').unwrap_or((minutes, ""));
        if whole.is_empty()
            || whole.len() > 4
            || frac.len() > 2
            || !(whole.bytes().chain(frac.bytes())).all(|b| b.is_ascii_digit())
        {
            return Err(syntax());
        }
        let whole: u32 = whole.parse().map_err(|_| syntax())?;
        let hundredths: u32 = if frac.is_empty() {
            0
        } else {
            format!("{frac:0<2}").parse().map_err(|_| syntax())?
        };
        let centi_minutes = whole * 100 + hundredths;
        // 1 minute = 100 hundredths = 60 s; only quarter steps give whole seconds here.
        if !centi_minutes.is_multiple_of(25) {
            return Err(TimeControlError::Initial(centi_minutes * 60 / 100));
        }
        TimeControl::fischer(centi_minutes * 60 / 100, inc)
    }
}

/// The speed classes (RULES.md §6), the rated categories of standard Othello.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    /// Estimated duration under 3 minutes.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// Days per move.
    Correspondence,
}

impl Speed {
    /// All of them, fastest first.
    pub const ALL: [Speed; 5] = [
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The lowercase English name, used in URLs and stored rows.
    pub fn name(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

/// A player's time ran out: who, and when the clock says it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flag {
    /// The player out of time.
    #[serde(with = "color_name_serde")]
    pub color: Color,
    /// The moment the time reached zero.
    pub at: Millis,
}

/// A move that the clock cannot take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// The mover's time ran out before the move arrived.
    #[error("{} ran out of time", .0.color)]
    Flagged(Flag),
    /// It is not this player's turn on the clock.
    #[error("it is not {0}'s turn on the clock")]
    NotRunning(Color),
    /// The clock was stopped (the game is over).
    #[error("the clock is stopped")]
    Stopped,
}

/// Colours stored as `"black"` / `"white"` (the rules crate has no serde).
mod color_name_serde {
    use reversi_core::Color;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        match String::deserialize(d)?.as_str() {
            n if n == Color::Black.name() => Ok(Color::Black),
            n if n == Color::White.name() => Ok(Color::White),
            other => Err(serde::de::Error::custom(format_args!(
                "expected \"black\" or \"white\", not {other:?}"
            ))),
        }
    }
}

/// Whose clock runs, and since when.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Running {
    /// The player thinking.
    #[serde(with = "color_name_serde")]
    pub color: Color,
    /// Since when.
    pub since: Millis,
}

/// A Fischer (or correspondence) clock for one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// The control it keeps.
    pub control: TimeControl,
    /// Remaining time, ms, Black's then White's, as of the last press.
    pub remaining_ms: [Millis; 2],
    /// Moves each side has made (the clock starts once both made one).
    pub moves: [u32; 2],
    /// The player whose time is running, if any.
    pub running: Option<Running>,
    /// Stopped for good (the game ended; nothing runs then).
    pub stopped: bool,
}

impl Clock {
    /// A clock before the first move: full time each, nothing running.
    pub fn new(control: TimeControl) -> Clock {
        let t = control.initial_ms();
        Clock {
            control,
            remaining_ms: [t, t],
            moves: [0, 0],
            running: None,
            stopped: false,
        }
    }

    /// Whether the clock has started (both players made their first move).
    pub fn started(&self) -> bool {
        self.moves[0] > 0 && self.moves[1] > 0
    }

    /// `color`'s time left at `now`, ms (never below 0).
    pub fn remaining(&self, color: Color, now: Millis) -> Millis {
        let stored = self.remaining_ms[color.index()];
        match self.running {
            Some(r) if r.color == color => stored.saturating_sub(now.saturating_sub(r.since)),
            _ => stored,
        }
    }

    /// When the running player's time reaches zero, if a clock runs.
    pub fn flag_at(&self) -> Option<Flag> {
        let r = self.running?;
        Some(Flag {
            color: r.color,
            at: r.since.saturating_add(self.remaining_ms[r.color.index()]),
        })
    }

    /// The flag that has fallen by `now`, if any.
    pub fn flagged(&self, now: Millis) -> Option<Flag> {
        self.flag_at().filter(|f| f.at <= now)
    }

    /// `mover` made a move at `now` (the moment the server received it) and `next` is to move
    /// (the mover again when the opponent must pass: a forced pass costs no time).
    /// `compensation_ms` is the lag given back ([`crate::lag`]), never more than was spent;
    /// a move that arrives at or after the flag instant is refused whatever the lag.
    ///
    /// The clock starts running only once both players have made a move; before that a move
    /// costs nothing and adds no increment. In a correspondence game the time left is reset to
    /// the full days for every move.
    pub fn press(
        &mut self,
        mover: Color,
        next: Color,
        now: Millis,
        compensation_ms: Millis,
    ) -> Result<(), ClockError> {
        if self.stopped {
            return Err(ClockError::Stopped);
        }
        if let Some(r) = self.running {
            if r.color != mover {
                return Err(ClockError::NotRunning(mover));
            }
            let spent = now.saturating_sub(r.since);
            let left = self.remaining_ms[mover.index()];
            // The flag instant is authoritative (the server flags at it, connected or not), so
            // lag compensation lowers the charge of a move made in time and saves no late one.
            if spent >= left {
                let flag = Flag {
                    color: mover,
                    at: r.since + left,
                };
                return Err(ClockError::Flagged(flag));
            }
            let charged = spent.saturating_sub(compensation_ms.min(spent));
            let after = left.saturating_sub(charged);
            self.remaining_ms[mover.index()] = match self.control {
                TimeControl::Correspondence { .. } => self.control.initial_ms(),
                TimeControl::Fischer { .. } => after + self.control.increment_ms(),
            };
        }
        self.moves[mover.index()] += 1;
        self.running = self.started().then_some(Running {
            color: next,
            since: now,
        });
        Ok(())
    }

    /// A move taken back at `now`: the side thinking is charged the time it spent (no
    /// increment: it made no move) and `next` thinks from `now`. Before the clock has started
    /// nothing runs, and nothing changes. A flag that has fallen by `now` is refused.
    pub fn switch_to(&mut self, next: Color, now: Millis) -> Result<(), ClockError> {
        if self.stopped {
            return Err(ClockError::Stopped);
        }
        let Some(r) = self.running else {
            return Ok(());
        };
        if let Some(flag) = self.flagged(now) {
            return Err(ClockError::Flagged(flag));
        }
        self.remaining_ms[r.color.index()] = self.remaining(r.color, now);
        self.running = Some(Running {
            color: next,
            since: now,
        });
        Ok(())
    }

    /// Stops the clock for good at `now` (the game ended), keeping the time left as it was.
    pub fn stop(&mut self, now: Millis) {
        if let Some(r) = self.running {
            self.remaining_ms[r.color.index()] = self.remaining(r.color, now);
        }
        self.running = None;
        self.stopped = true;
    }

    /// The clock as it should run after a restart at `now`: the running player's time counts
    /// again from `now`, as stored at the last move, so the time the server was down is charged
    /// to nobody.
    pub fn resume(mut self, now: Millis) -> Clock {
        if let Some(r) = self.running.as_mut() {
            r.since = now;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::Color::{Black, White};

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    /// A clock of `control` after both free first moves at 0: Black's time runs from 0.
    fn started(control: &str) -> Clock {
        let mut c = Clock::new(tc(control));
        c.press(Black, White, 0, 0).unwrap();
        c.press(White, Black, 0, 0).unwrap();
        c
    }

    #[test]
    fn time_controls_read_and_print() {
        for s in [
            "1+0", "3+2", "0.5+1", "0.25+0", "1.75+3", "180+180", "0+1", "1d", "14d",
        ] {
            assert_eq!(tc(s).to_string(), s);
        }
        assert_eq!(
            tc("0.5+1"),
            TimeControl::Fischer {
                initial_s: 30,
                increment_s: 1
            }
        );
        assert_eq!(
            tc(" 5+3 "),
            TimeControl::Fischer {
                initial_s: 300,
                increment_s: 3
            }
        );
        for bad in [
            "", "5", "+3", "5+", "5+-1", "1.1+0", "0.333+0", "1e3+0", "181+0", "5+181", "0+0", "4d", "0d",
            "d", "x+y", "٣+2",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!("0+0".parse::<TimeControl>(), Err(TimeControlError::NoTime));
        assert_eq!("4d".parse::<TimeControl>(), Err(TimeControlError::Days(4)));
        assert!(TimeControl::Fischer {
            initial_s: 7,
            increment_s: 0
        }
        .validate()
        .is_err());
        assert!(TimeControl::Correspondence { days: 9 }.validate().is_err());
    }

    #[test]
    fn speed_classes_follow_rules_section_6() {
        // Estimated duration = initial + 30 × increment: < 3 min bullet, < 8 blitz, < 25 rapid.
        let cases = [
            ("1+0", Speed::Bullet),
            ("1+2", Speed::Bullet), // 60 + 60 = 120 s
            ("2+1", Speed::Bullet), // 150 s
            ("2+2", Speed::Blitz),  // 180 s: not under 3 min
            ("3+0", Speed::Blitz),
            ("5+3", Speed::Blitz),       // 390 s
            ("5+5", Speed::Blitz),       // 450 s
            ("8+0", Speed::Rapid),       // 480 s: not under 8 min
            ("10+5", Speed::Rapid),      // 750 s
            ("15+10", Speed::Rapid),     // 1200 s
            ("20+10", Speed::Classical), // 1500 s: not under 25 min
            ("30+0", Speed::Classical),
            ("3d", Speed::Correspondence),
        ];
        for (s, want) in cases {
            assert_eq!(tc(s).speed(), want, "{s}");
        }
    }

    #[test]
    fn the_clock_starts_after_both_first_moves() {
        let mut c = Clock::new(tc("1+2"));
        assert_eq!(c.flag_at(), None);
        c.press(Black, White, 10_000, 0).unwrap(); // Black's first move: free
        assert_eq!(c.flag_at(), None);
        assert_eq!(c.remaining(Black, 50_000), 60_000);
        c.press(White, Black, 40_000, 0).unwrap(); // White's: free, and Black's time starts
        assert_eq!(c.remaining_ms, [60_000, 60_000], "no increment for a free move");
        assert_eq!(
            c.flag_at(),
            Some(Flag {
                color: Black,
                at: 100_000
            })
        );
        assert_eq!(c.remaining(Black, 55_000), 45_000);
        assert_eq!(c.remaining(White, 55_000), 60_000);
    }

    #[test]
    fn a_move_charges_the_time_spent_and_adds_the_increment() {
        let mut c = started("1+2");
        c.press(Black, White, 7_500, 0).unwrap();
        assert_eq!(c.remaining_ms, [60_000 - 7_500 + 2_000, 60_000]);
        c.press(White, Black, 7_500 + 1_000, 300).unwrap();
        assert_eq!(
            c.remaining_ms[1],
            60_000 - 700 + 2_000,
            "300 ms of lag given back"
        );
        // White must pass: Black moves again, and Black's clock runs on at once.
        c.press(Black, Black, 10_000, 0).unwrap();
        assert_eq!(
            c.running.unwrap(),
            Running {
                color: Black,
                since: 10_000
            }
        );
        assert_eq!(
            c.press(White, Black, 11_000, 0),
            Err(ClockError::NotRunning(White))
        );
    }

    #[test]
    fn the_flag_falls_at_the_exact_instant() {
        let mut c = Clock::new(tc("0.25+0"));
        c.press(Black, White, 0, 0).unwrap();
        c.press(White, Black, 1_000, 0).unwrap();
        let flag = c.flag_at().unwrap();
        assert_eq!(
            flag,
            Flag {
                color: Black,
                at: 16_000
            }
        );
        assert_eq!(c.flagged(15_999), None);
        assert_eq!(c.flagged(16_000), Some(flag));
        assert_eq!(c.remaining(Black, 16_000), 0);
        // A move that arrives at or after the flag is refused, with the instant the time ran out.
        let mut late = c;
        assert_eq!(
            late.press(Black, White, 16_000, 0),
            Err(ClockError::Flagged(flag))
        );
        assert_eq!(late, c, "a refused move changes nothing");
        // Lag compensation lowers the charge of a move in time and saves no late one.
        assert_eq!(
            c.press(Black, White, 16_100, 5_000),
            Err(ClockError::Flagged(flag))
        );
        let mut in_time = c;
        in_time.press(Black, White, 15_900, 200).unwrap();
        assert_eq!(in_time.remaining_ms[0], 300);
    }

    #[test]
    fn correspondence_resets_the_days_every_move() {
        let mut c = Clock::new(tc("2d"));
        c.press(Black, White, 0, 0).unwrap();
        c.press(White, Black, DAY_MS, 0).unwrap();
        c.press(Black, White, 2 * DAY_MS, 0).unwrap();
        assert_eq!(c.remaining_ms, [2 * DAY_MS, 2 * DAY_MS]);
        assert_eq!(c.flag_at().unwrap().at, 4 * DAY_MS);
    }

    #[test]
    fn a_stopped_clock_keeps_its_times_and_a_restart_charges_nobody() {
        let mut c = started("3+0");
        c.press(Black, White, 20_000, 0).unwrap();
        // The server goes down at 25 s and is back at 90 s.
        let stored = serde_json::to_string(&c).unwrap();
        let back: Clock = serde_json::from_str(&stored).unwrap();
        let resumed = back.resume(90_000);
        assert_eq!(resumed.remaining(White, 90_000), 180_000);
        assert_eq!(resumed.flag_at().unwrap().at, 270_000);
        let mut s = resumed;
        s.stop(100_000);
        assert_eq!(s.remaining_ms, [160_000, 170_000]);
        assert_eq!(s.flag_at(), None);
        assert_eq!(s.press(White, Black, 100_001, 0), Err(ClockError::Stopped));
    }
}
