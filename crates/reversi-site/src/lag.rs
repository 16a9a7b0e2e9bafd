//! Lag compensation: a move's network delay is given back to the mover, a little and capped.
//!
//! The server times a move from when it sent the opponent's move to when it received the reply,
//! so a player's own network delay would count against them. As lichess does, the server
//! measures each player's round trip (websocket pings), estimates the one-way delay, and gives
//! that back on each move, drawn from a quota: the quota starts at [`QUOTA_START_MS`], gains
//! [`QUOTA_GAIN_MS`] per move up to [`QUOTA_MAX_MS`], and no single move gets more than
//! [`MOVE_CAP_MS`]. Over a 30-move game a player thus gets back at most 0.5 s + 29 × 0.1 s =
//! 3.4 s, however bad the connection, and a cheater who fakes lag gains no more.

use crate::Millis;
use serde::{Deserialize, Serialize};

/// The most given back on one move: 500 ms.
pub const MOVE_CAP_MS: Millis = 500;
/// The quota a player starts a game with: 500 ms.
pub const QUOTA_START_MS: Millis = 500;
/// Added to the quota after each move: 100 ms.
pub const QUOTA_GAIN_MS: Millis = 100;
/// The largest quota: 1 s.
pub const QUOTA_MAX_MS: Millis = 1_000;
/// Round trips above this are taken as this (a stalled ping says nothing about the next move).
pub const RTT_CEILING_MS: Millis = 5_000;

/// One player's lag in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lag {
    /// Smoothed one-way delay estimate, ms.
    pub estimate_ms: Millis,
    /// Compensation still available, ms.
    pub quota_ms: Millis,
}

impl Default for Lag {
    fn default() -> Lag {
        Lag {
            estimate_ms: 0,
            quota_ms: QUOTA_START_MS,
        }
    }
}

impl Lag {
    /// Records a measured round trip: the estimate moves a quarter of the way to half of it.
    pub fn observe_round_trip(&mut self, rtt_ms: Millis) {
        let one_way = rtt_ms.min(RTT_CEILING_MS) / 2;
        if self.estimate_ms == 0 {
            self.estimate_ms = one_way;
        } else {
            self.estimate_ms = (3 * self.estimate_ms + one_way) / 4;
        }
    }

    /// The compensation for a move that took `spent_ms` on the server's clock, taken from the
    /// quota (which then gains [`QUOTA_GAIN_MS`]). Never more than the move took.
    pub fn compensate(&mut self, spent_ms: Millis) -> Millis {
        let given = self.estimate_ms.min(MOVE_CAP_MS).min(self.quota_ms).min(spent_ms);
        self.quota_ms = (self.quota_ms - given + QUOTA_GAIN_MS).min(QUOTA_MAX_MS);
        given
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_measurement_gives_nothing() {
        let mut l = Lag::default();
        assert_eq!(l.compensate(3_000), 0);
        assert_eq!(l.quota_ms, QUOTA_START_MS + QUOTA_GAIN_MS);
    }

    #[test]
    fn the_estimate_smooths_round_trips() {
        let mut l = Lag::default();
        l.observe_round_trip(200);
        assert_eq!(l.estimate_ms, 100);
        l.observe_round_trip(600);
        assert_eq!(l.estimate_ms, (300 + 300) / 4);
        l.observe_round_trip(1_000_000);
        assert_eq!(l.estimate_ms, (3 * 150 + RTT_CEILING_MS / 2) / 4);
    }

    #[test]
    fn compensation_is_capped_per_move_and_by_the_quota() {
        let mut l = Lag {
            estimate_ms: 2_000,
            quota_ms: QUOTA_START_MS,
        };
        assert_eq!(l.compensate(10_000), 500);
        assert_eq!(l.quota_ms, 100);
        assert_eq!(l.compensate(10_000), 100);
        assert_eq!(l.quota_ms, 100);
        assert_eq!(l.compensate(40), 40, "never more than the move took");
        // Over a 30-move game a faked huge lag wins back at most start + 29 gains.
        let mut l = Lag {
            estimate_ms: 10_000,
            quota_ms: QUOTA_START_MS,
        };
        let total: Millis = (0..30).map(|_| l.compensate(60_000)).sum();
        assert!(total <= QUOTA_START_MS + 29 * QUOTA_GAIN_MS, "{total}");
        // A fast connection's quota fills up to the maximum and no further.
        let mut l = Lag {
            estimate_ms: 10,
            quota_ms: QUOTA_START_MS,
        };
        for _ in 0..100 {
            l.compensate(1_000);
        }
        assert_eq!(l.quota_ms, QUOTA_MAX_MS);
    }
}
