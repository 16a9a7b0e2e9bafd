//! Fischer clocks for engine tournaments (RULES.md §6): an initial time per player and an
//! increment added after each of that player's moves.
//!
//! Unlike the game site's clocks (whole minutes and seconds, for people), an engine match is
//! often played in seconds and fractions of one, so a control is written in seconds, as
//! cutechess-cli writes it: `60+1` is one minute each plus one second a move, `10+0.1` ten
//! seconds plus a tenth; a part may end in `s`, and the initial time in `m` for minutes
//! (`1m+1s`). A forced pass costs no time. Each move is timed from when it is asked for until
//! the answer is back, so the engine's process and its pipe are on its own clock; a player whose
//! time runs out before its answer loses on time.

use reversi_core::quote::{clip, QUOTE_CHARS};
use reversi_core::Color;
use reversi_engine::levels::seconds;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// A Fischer time control, in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fischer {
    /// Each player's time at the start, seconds (more than 0, at most a week).
    pub initial: f64,
    /// Added after each of a player's moves, seconds (0 to a week).
    pub increment: f64,
}

/// Why a time control cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// Not `INITIAL+INCREMENT`.
    #[error("`{0}` is not a clock: write initial seconds + increment seconds (`60+1`, `10+0.1`, `1m+1s`)")]
    Syntax(String),
    /// A part is out of range.
    #[error("the {what} of the clock: {why}")]
    Range {
        /// `initial time` or `increment`.
        what: &'static str,
        /// What is wrong with it.
        why: String,
    },
}

impl Fischer {
    /// A control, checked: the initial time more than 0, both at most a week.
    pub fn new(initial: f64, increment: f64) -> Result<Fischer, ClockError> {
        let f = Fischer { initial, increment };
        f.check()?;
        Ok(f)
    }

    /// Whether both times can be used (a state file is read without [`Fischer::new`]).
    pub fn check(&self) -> Result<(), ClockError> {
        seconds(self.initial, false).map_err(|e| ClockError::Range {
            what: "initial time",
            why: e.to_string(),
        })?;
        seconds(self.increment, true).map_err(|e| ClockError::Range {
            what: "increment",
            why: e.to_string(),
        })?;
        Ok(())
    }

    /// The initial time.
    pub fn initial_time(&self) -> Duration {
        seconds(self.initial, false).unwrap_or(Duration::ZERO)
    }

    /// The increment.
    pub fn increment_time(&self) -> Duration {
        seconds(self.increment, true).unwrap_or(Duration::ZERO)
    }

    /// The control as a GGF `TI` value: `MM:SS/MM:SS`, initial time and increment (GGS writes a
    /// clock as time/increment/extension; there is no extension here).
    pub fn ggf(&self) -> String {
        format!("{}/{}", mm_ss(self.initial), mm_ss(self.increment))
    }
}

/// Seconds as `MM:SS`, with the fraction when there is one (`00:10.5`).
fn mm_ss(secs: f64) -> String {
    let minutes = (secs / 60.0).floor();
    let rest = secs - minutes * 60.0;
    if rest.fract() == 0.0 {
        format!("{minutes:02}:{rest:02}")
    } else {
        let text = format!("{rest:06.3}");
        let text = text.trim_end_matches('0');
        format!("{minutes:02}:{text}")
    }
}

impl fmt::Display for Fischer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.initial, self.increment)
    }
}

impl FromStr for Fischer {
    type Err = ClockError;

    fn from_str(text: &str) -> Result<Fischer, ClockError> {
        let syntax = || ClockError::Syntax(clip(text, QUOTE_CHARS).into_owned());
        let (a, b) = text.trim().split_once('+').ok_or_else(syntax)?;
        let part = |s: &str, minutes_allowed: bool| -> Option<f64> {
            let s = s.trim();
            let (number, scale) = if let Some(n) = s.strip_suffix('s') {
                (n, 1.0)
            } else if let Some(n) = s.strip_suffix('m').filter(|_| minutes_allowed) {
                (n, 60.0)
            } else {
                (s, 1.0)
            };
            // `parse` takes `inf` and `nan` too: `check` refuses them.
            let v: f64 = number.trim().parse().ok()?;
            Some(v * scale)
        };
        let initial = part(a, true).ok_or_else(syntax)?;
        let increment = part(b, false).ok_or_else(syntax)?;
        Fischer::new(initial, increment)
    }
}

/// What a player's clock gives the move it is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Time left on the mover's clock when the move was asked for.
    pub left: Duration,
    /// The increment the move will bring.
    pub increment: Duration,
    /// When the mover's time runs out.
    pub deadline: Instant,
}

/// Both players' clocks during one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    left: [Duration; 2],
    increment: Duration,
}

/// A player's time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged {
    /// What the move took.
    pub used: Duration,
    /// What the clock had left.
    pub left: Duration,
}

impl GameClock {
    /// Both clocks at the control's initial time.
    pub fn new(control: Fischer) -> GameClock {
        let t = control.initial_time();
        GameClock {
            left: [t, t],
            increment: control.increment_time(),
        }
    }

    /// Time left on `color`'s clock.
    pub fn left(&self, color: Color) -> Duration {
        self.left[color.index()]
    }

    /// The turn of `color` asked for at `now`.
    pub fn turn(&self, color: Color, now: Instant) -> Turn {
        let left = self.left(color);
        Turn {
            left,
            increment: self.increment,
            deadline: now + left,
        }
    }

    /// Charges `color` for a move that took `used`, and adds the increment; a move that took
    /// all of the time left or more flags (the time ran out before it was made).
    pub fn charge(&mut self, color: Color, used: Duration) -> Result<(), Flagged> {
        let left = &mut self.left[color.index()];
        if used >= *left {
            return Err(Flagged { used, left: *left });
        }
        *left = *left - used + self.increment;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: f64) -> Duration {
        Duration::from_secs_f64(x)
    }

    #[test]
    fn controls_read_in_seconds_or_minutes() {
        let f = |t: &str| t.parse::<Fischer>();
        assert_eq!(f("60+1"), Ok(Fischer::new(60.0, 1.0).unwrap()));
        assert_eq!(f(" 10 + 0.1 "), Ok(Fischer::new(10.0, 0.1).unwrap()));
        assert_eq!(f("1m+1s"), Ok(Fischer::new(60.0, 1.0).unwrap()));
        assert_eq!(f("0.5m+0"), Ok(Fischer::new(30.0, 0.0).unwrap()));
        assert_eq!(f("90s+2s").unwrap().to_string(), "90+2");
        for bad in ["60", "+1", "60+", "a+1", "60+1m", "60+1+2", "", "1h+1"] {
            assert!(matches!(f(bad), Err(ClockError::Syntax(_))), "{bad}");
        }
        for bad in ["0+1", "-5+1", "inf+1", "nan+0", "60+-1", "60+inf", "1e9+0"] {
            assert!(matches!(f(bad), Err(ClockError::Range { .. })), "{bad}");
        }
        let e = f("0+1").unwrap_err().to_string();
        assert!(e.contains("initial time"), "{e}");
        // An endless argument is quoted short.
        let long = "x".repeat(10_000) + "+1";
        assert!(f(&long).unwrap_err().to_string().len() < 400);
    }

    #[test]
    fn ggf_writes_minutes_and_seconds() {
        assert_eq!(Fischer::new(60.0, 1.0).unwrap().ggf(), "01:00/00:01");
        assert_eq!(Fischer::new(300.0, 2.0).unwrap().ggf(), "05:00/00:02");
        assert_eq!(Fischer::new(10.0, 0.1).unwrap().ggf(), "00:10/00:00.1");
        assert_eq!(Fischer::new(95.5, 0.25).unwrap().ggf(), "01:35.5/00:00.25");
    }

    #[test]
    fn a_move_charges_its_time_and_earns_the_increment() {
        let mut c = GameClock::new(Fischer::new(10.0, 0.5).unwrap());
        let now = Instant::now();
        let t = c.turn(Color::Black, now);
        assert_eq!(
            (t.left, t.increment, t.deadline),
            (s(10.0), s(0.5), now + s(10.0))
        );
        c.charge(Color::Black, s(3.0)).unwrap();
        assert_eq!(c.left(Color::Black), s(7.5));
        assert_eq!(c.left(Color::White), s(10.0));
        c.charge(Color::White, Duration::ZERO).unwrap();
        assert_eq!(c.left(Color::White), s(10.5));
        // All the time left, or more: the flag fell before the move was made.
        assert_eq!(
            c.clone().charge(Color::Black, s(7.5)),
            Err(Flagged {
                used: s(7.5),
                left: s(7.5)
            })
        );
        assert!(c.charge(Color::Black, s(9.0)).is_err());
        assert_eq!(c.left(Color::Black), s(7.5), "a flag changes nothing");
    }
}
