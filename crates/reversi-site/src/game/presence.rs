//! Who is at the board: whether each player has a connection open to the game (at any server
//! instance) or since when they have been away, and how many spectators watch. From it comes
//! the right to **claim the win** from a player who left.
//!
//! Each instance counts the websockets open on a game there and stores the counts (one row per
//! game and instance); the game's presence is the sum over the instances still alive. An
//! instance that stops answering for [`STALE_MS`] counts as gone, its players as away since its
//! last sign of life. Away times are never earlier than the start of the instance that reads
//! them, so that after the whole site was down nobody can claim against a player who had no
//! chance to reconnect yet.
//!
//! The claim (documented in docs/api.md): in a game between two people, once both have moved,
//! a player whose opponent has had no connection to the game for [`CLAIM_AFTER_LIVE_MS`]
//! (games with a real-time clock) or [`CLAIM_AFTER_UNTIMED_MS`] (games without a clock) may
//! claim the win; the result is recorded as the absent player's resignation (RULES.md §6).
//! Correspondence games have no claim: their clock of days per move decides. Before both have
//! moved, the player who stays may abort instead.

/// How long an opponent must be away before the win may be claimed, in a game with a
/// real-time clock, ms. lichess offers the claim after a similar wait; long enough for a page
/// reload or a phone switching networks, short next to a blitz game.
pub const CLAIM_AFTER_LIVE_MS: u64 = 30_000;

/// The same wait in a game without a clock, ms: a friend may step away for a moment.
pub const CLAIM_AFTER_UNTIMED_MS: u64 = 300_000;

/// An instance silent this long counts as gone, ms. Instances say they are alive every second;
/// ten missed in a row is a stopped process, not a slow one.
pub const STALE_MS: i64 = 10_000;

/// One instance's counts for one game, as stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InstanceCounts {
    /// Sockets holding Black's and White's seats.
    pub seats: [u32; 2],
    /// Sockets of spectators.
    pub spectators: u32,
    /// When each seat's last socket at this instance closed (Unix ms).
    pub left: [Option<i64>; 2],
    /// The instance's last sign of life (Unix ms).
    pub alive_at: i64,
    /// The row is the reading instance's own (alive, whatever its last heartbeat says).
    pub mine: bool,
}

/// The presence of a game's players and spectators, summed over the instances.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Presence {
    /// Per colour: `None` while the player is connected somewhere, or since when (Unix ms)
    /// they have been away.
    pub away_since: [Option<i64>; 2],
    /// Spectators connected, at every instance together.
    pub spectators: u32,
}

impl Presence {
    /// Sums the rows of one game at `now`. `floor` is the earliest an absence may be counted
    /// from (the game's creation, or the reading instance's start if later).
    pub fn of(rows: &[InstanceCounts], now: i64, floor: i64) -> Presence {
        let alive = |r: &InstanceCounts| r.mine || now - r.alive_at <= STALE_MS;
        let away = |c: usize| {
            if rows.iter().any(|r| alive(r) && r.seats[c] > 0) {
                return None;
            }
            let last = rows.iter().filter_map(|r| match r.seats[c] {
                // A gone instance's players were there at its last sign of life at most.
                0 => r.left[c],
                _ => Some(r.alive_at),
            });
            Some(last.fold(floor, i64::max))
        };
        Presence {
            away_since: [away(0), away(1)],
            spectators: rows.iter().filter(|r| alive(r)).map(|r| r.spectators).sum(),
        }
    }

    /// How long (ms) `color`'s player has been away at `now`; `None` while connected.
    pub fn away_for(&self, color: usize, now: i64) -> Option<u64> {
        self.away_since[color].map(|t| now.saturating_sub(t).max(0) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_000_000;

    fn row(seats: [u32; 2], left: [Option<i64>; 2], alive_at: i64) -> InstanceCounts {
        InstanceCounts {
            seats,
            spectators: 2,
            left,
            alive_at,
            mine: false,
        }
    }

    #[test]
    fn nobody_seen_is_away_since_the_floor() {
        let p = Presence::of(&[], NOW, 400_000);
        assert_eq!(p.away_since, [Some(400_000), Some(400_000)]);
        assert_eq!(p.spectators, 0);
        assert_eq!(p.away_for(0, NOW), Some(600_000));
    }

    #[test]
    fn a_socket_at_any_live_instance_means_connected() {
        let rows = [
            row([0, 0], [Some(900_000), Some(950_000)], NOW - 1_000),
            row([1, 0], [None, None], NOW - 5_000),
        ];
        let p = Presence::of(&rows, NOW, 0);
        assert_eq!(p.away_since, [None, Some(950_000)]);
        assert_eq!(p.spectators, 4, "spectators add up over the instances");
    }

    #[test]
    fn the_order_of_rows_does_not_matter() {
        let a = row([1, 0], [None, Some(10)], NOW);
        let b = row([0, 0], [Some(990_000), Some(20)], NOW);
        assert_eq!(Presence::of(&[a, b], NOW, 0), Presence::of(&[b, a], NOW, 0));
        assert_eq!(Presence::of(&[a, b], NOW, 0).away_since, [None, Some(20)]);
    }

    #[test]
    fn a_gone_instance_counts_its_players_away_since_its_last_heartbeat() {
        let gone = NOW - STALE_MS - 1;
        let rows = [row([1, 1], [None, None], gone)];
        let p = Presence::of(&rows, NOW, 0);
        assert_eq!(p.away_since, [Some(gone), Some(gone)]);
        assert_eq!(p.spectators, 0, "a gone instance's spectators are gone too");
        // Not earlier than the floor, though.
        let p = Presence::of(&rows, NOW, NOW - 10);
        assert_eq!(p.away_since, [Some(NOW - 10), Some(NOW - 10)]);
    }

    #[test]
    fn the_readers_own_row_is_alive_without_a_heartbeat() {
        let mut own = row([1, 0], [None, None], 0);
        own.mine = true;
        assert_eq!(Presence::of(&[own], NOW, 0).away_since, [None, Some(0)]);
        assert_eq!(Presence::of(&[own], NOW, 0).spectators, 2);
    }

    #[test]
    fn the_latest_departure_counts() {
        let rows = [
            row([0, 0], [Some(100), None], NOW),
            row([0, 0], [Some(700), None], NOW),
        ];
        assert_eq!(Presence::of(&rows, NOW, 50).away_since, [Some(700), Some(50)]);
    }

    #[test]
    fn an_instance_just_within_the_stale_limit_is_alive() {
        let rows = [row([0, 1], [None, None], NOW - STALE_MS)];
        assert_eq!(Presence::of(&rows, NOW, 0).away_since[1], None);
    }
}
