//! What a game between two people who met on the site adds to a game: who they are (account or
//! guest, name, rating when it started, bot or not), whether it is rated, and its clock. The
//! clock arithmetic is [`crate::clock`]'s.

use crate::clock::{Clock, TimeControl, FIRST_MOVE_DEADLINE_MS};
use crate::rating::Category;
use crate::Millis;
use reversi_core::{Color, Variant};
use reversi_site_api::{ClockView, OnlineView, SeatView};
use serde::{Deserialize, Serialize};

/// The prefix of a guest's player key (accounts use their id, which never has a colon).
pub const GUEST_PREFIX: &str = "g:";

/// One side of an online game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// The account's id, or [`GUEST_PREFIX`] and the guest's key.
    pub key: String,
    /// The name shown; `None` for a guest, and for an account deleted since.
    pub name: Option<String>,
    /// The rating in the game's category when it started (rounded), for accounts.
    pub rating: Option<i32>,
    /// Whether that rating was provisional.
    #[serde(default)]
    pub provisional: bool,
    /// Whether the account is a bot.
    #[serde(default)]
    pub bot: bool,
    /// The rating change the game brought, once applied.
    #[serde(default)]
    pub diff: Option<i32>,
    /// The country the account named when the game began (ISO 3166-1 alpha-2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
}

impl SeatInfo {
    /// Whether this side is a guest.
    pub fn is_guest(&self) -> bool {
        self.key.starts_with(GUEST_PREFIX)
    }
}

/// A clock and the moment the side to move began to think: before the clock starts (both
/// players' first moves) that moment sets the deadline of the first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    /// The Fischer (or correspondence) clock.
    pub clock: Clock,
    /// When the side to move began to think (Unix ms).
    pub turn_since: Millis,
}

/// What happens at a game's deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deadline {
    /// `color` loses on time at `at`.
    Flag {
        /// Who runs out.
        color: Color,
        /// When (Unix ms).
        at: Millis,
    },
    /// Nobody made the first move of `color` in time: the game is aborted at `at` (a
    /// tournament game is lost by forfeit instead).
    NoFirstMove {
        /// Who did not move.
        color: Color,
        /// When (Unix ms).
        at: Millis,
    },
}

impl Deadline {
    /// The instant.
    pub fn at(self) -> Millis {
        match self {
            Deadline::Flag { at, .. } | Deadline::NoFirstMove { at, .. } => at,
        }
    }
}

impl Timing {
    /// A new game's timing, the first move awaited from `now`.
    pub fn new(control: TimeControl, now: Millis) -> Timing {
        Timing {
            clock: Clock::new(control),
            turn_since: now,
        }
    }

    /// The next deadline while `to_move` is to move: the flag of a running clock, or the end of
    /// the time given for a first move (a correspondence game gives its days per move).
    pub fn deadline(&self, to_move: Color) -> Option<Deadline> {
        if self.clock.stopped {
            return None;
        }
        if let Some(f) = self.clock.flag_at() {
            return Some(Deadline::Flag {
                color: f.color,
                at: f.at,
            });
        }
        let allowed = match self.clock.control {
            TimeControl::Correspondence { .. } => self.clock.control.initial_ms(),
            TimeControl::Fischer { .. } => FIRST_MOVE_DEADLINE_MS,
        };
        Some(Deadline::NoFirstMove {
            color: to_move,
            at: self.turn_since.saturating_add(allowed),
        })
    }

    /// Shifts every instant by `ms` (a restart after the whole site was down for `ms`).
    pub fn shift(&mut self, ms: Millis) {
        self.turn_since = self.turn_since.saturating_add(ms);
        if let Some(r) = self.clock.running.as_mut() {
            r.since = r.since.saturating_add(ms);
        }
    }
}

/// The online part of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Online {
    /// Black's and White's side.
    pub seats: [SeatInfo; 2],
    /// Whether the game is rated.
    pub rated: bool,
    /// The clock (`None`: an untimed game).
    pub timing: Option<Timing>,
    /// Who lost on time.
    pub flagged: Option<Color>,
    /// The tournament the game belongs to: a missed first move loses it by forfeit, and it
    /// cannot be aborted.
    pub tournament: Option<String>,
    /// Whether that tournament is by invitation only: the game is left out of the public
    /// lists, and only its players see which tournament it belongs to.
    pub private: bool,
}

impl Online {
    /// The rated category of the game (`None` for a variant without rated play, or no clock).
    pub fn category(&self, variant: Variant) -> Option<Category> {
        self.timing.and_then(|t| Category::of(variant, t.clock.control))
    }

    /// The colour `key` plays, if any.
    pub fn colour_of(&self, key: &str) -> Option<Color> {
        Color::ALL.into_iter().find(|c| self.seats[c.index()].key == key)
    }
}

impl Online {
    /// The view at `now` of a game whose side to move is `to_move` (`None` once over).
    pub fn view(&self, variant: Variant, to_move: Option<Color>, now: Millis) -> OnlineView {
        let seat = |s: &SeatInfo| SeatView {
            name: s.name.clone(),
            guest: s.is_guest(),
            rating: s.rating,
            provisional: s.provisional,
            bot: s.bot,
            diff: s.diff,
            country: s.country.clone(),
        };
        let clock = self.timing.map(|t| {
            let first = match (to_move, t.deadline(to_move.unwrap_or(Color::Black))) {
                (Some(_), Some(Deadline::NoFirstMove { at, .. })) => Some(at),
                _ => None,
            };
            ClockView {
                control: t.clock.control.to_string(),
                speed: t.clock.control.speed().name().to_string(),
                black_ms: t.clock.remaining(Color::Black, now),
                white_ms: t.clock.remaining(Color::White, now),
                running: t.clock.running.map(|r| super::side(r.color)),
                first_move_by: first,
                now,
            }
        });
        OnlineView {
            black: seat(&self.seats[0]),
            white: seat(&self.seats[1]),
            rated: self.rated,
            category: self.category(variant).map(|c| c.name().to_string()),
            clock,
            tournament: self.tournament.clone(),
            private: self.private,
        }
    }
}
