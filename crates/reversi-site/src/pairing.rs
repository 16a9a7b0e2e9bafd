//! Quick pairing: pools of players waiting for a game at one time control, matched by rating.
//!
//! A waiting player accepts an opponent within [`max_gap`] rating points, a window that starts at
//! ±100 and widens by 20 points per second waited, until after a minute anyone will do. A pair is
//! possible when the gap is within the wider of the two windows (the one who waited longer
//! decides). Of all possible pairs the closest in rating are made first (ties: the longest
//! combined wait, then the keys, so a run is deterministic); nobody is paired twice in a run, and
//! never with themselves (one account in two tabs). The server runs a pass whenever someone joins
//! and every second or so while anyone waits.

use crate::Millis;
use reversi_core::Color;

/// The quick-pairing pools' time controls, as the home page shows them (each rated or casual).
pub const POOLS: [&str; 8] = ["1+1", "3+2", "5+0", "5+3", "10+5", "15+10", "30+0", "1d"];

/// The window a new arrival accepts: ±100 points.
pub const START_GAP: f64 = 100.0;
/// Widening per second waited: 20 points.
pub const GAP_PER_SECOND: f64 = 20.0;
/// After this long anyone in the pool will do: 60 s.
pub const ANYONE_AFTER_MS: Millis = 60_000;

/// A player waiting in a pool.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiter {
    /// A stable key: the account's id, or the guest's session.
    pub key: String,
    /// Rating in the pool's category (1500 for a new or guest player).
    pub rating: f64,
    /// Since when.
    pub since: Millis,
}

/// The rating gap a player who has waited `waited_ms` accepts.
pub fn max_gap(waited_ms: Millis) -> f64 {
    if waited_ms >= ANYONE_AFTER_MS {
        f64::INFINITY
    } else {
        START_GAP + GAP_PER_SECOND * (waited_ms as f64 / 1000.0)
    }
}

/// The pairs to make now, as indices into `pool` (each at most once), closest first.
pub fn pair(pool: &[Waiter], now: Millis) -> Vec<(usize, usize)> {
    pair_apart(pool, now, |_, _| false)
}

/// [`pair`], never pairing two waiters for whom `apart(a, b)` holds (one blocks the other).
pub fn pair_apart(pool: &[Waiter], now: Millis, apart: impl Fn(&str, &str) -> bool) -> Vec<(usize, usize)> {
    let mut candidates = Vec::new();
    for i in 0..pool.len() {
        for j in i + 1..pool.len() {
            let (a, b) = (&pool[i], &pool[j]);
            if a.key == b.key || apart(&a.key, &b.key) {
                continue;
            }
            let gap = (a.rating - b.rating).abs();
            let wait_a = now.saturating_sub(a.since);
            let wait_b = now.saturating_sub(b.since);
            if gap <= max_gap(wait_a).max(max_gap(wait_b)) {
                candidates.push((gap, wait_a + wait_b, i, j));
            }
        }
    }
    candidates.sort_by(|x, y| {
        x.0.total_cmp(&y.0)
            .then(y.1.cmp(&x.1))
            .then_with(|| (&pool[x.2].key, &pool[x.3].key).cmp(&(&pool[y.2].key, &pool[y.3].key)))
    });
    let mut taken = vec![false; pool.len()];
    let mut pairs = Vec::new();
    for (_, _, i, j) in candidates {
        if !taken[i] && !taken[j] {
            taken[i] = true;
            taken[j] = true;
            pairs.push((i, j));
        }
    }
    pairs
}

/// The colour of `a` in a new game against `b`: the other colour than last time they met
/// (`a_was_black` in their previous game), else decided by `coin`.
pub fn colour_of_first(a_was_black_last_time: Option<bool>, coin: bool) -> Color {
    match a_was_black_last_time {
        Some(true) => Color::White,
        Some(false) => Color::Black,
        None if coin => Color::Black,
        None => Color::White,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(key: &str, rating: f64, since: Millis) -> Waiter {
        Waiter {
            key: key.into(),
            rating,
            since,
        }
    }

    #[test]
    fn the_window_widens_with_waiting() {
        assert_eq!(max_gap(0), 100.0);
        assert_eq!(max_gap(10_000), 300.0);
        assert_eq!(max_gap(59_999), 100.0 + 20.0 * 59.999);
        assert_eq!(max_gap(60_000), f64::INFINITY);
    }

    #[test]
    fn closest_pairs_first_and_nobody_twice() {
        let pool = [
            w("a", 1500.0, 0),
            w("b", 1550.0, 0),
            w("c", 1540.0, 0),
            w("d", 2400.0, 0),
        ];
        // b–c (10) first, then a is left with nobody within 100 but d far away.
        assert_eq!(pair(&pool, 0), vec![(1, 2)]);
        // After 60 s everyone accepts anyone: a–d too.
        assert_eq!(pair(&pool, 60_000), vec![(1, 2), (0, 3)]);
    }

    #[test]
    fn the_one_who_waited_longer_decides() {
        let pool = [w("old", 1500.0, 0), w("new", 1801.0, 10_000)];
        assert_eq!(pair(&pool, 10_000), vec![], "old accepts 300, not 301");
        assert_eq!(pair(&pool, 10_050), vec![(0, 1)], "now 301 for old");
    }

    #[test]
    fn one_account_is_never_paired_with_itself() {
        let pool = [w("a", 1500.0, 0), w("a", 1500.0, 0)];
        assert_eq!(pair(&pool, 100_000), vec![]);
    }

    #[test]
    fn a_pool_of_twenty_spread_ratings() {
        // Twenty players 1000, 1100, …, 2900 who all just arrived: ±100 pairs each with a
        // neighbour, closest first; ties (all gaps 100) go by keys, so p00–p01, p02–p03, …
        let pool: Vec<_> = (0..20)
            .map(|i| w(&format!("p{i:02}"), 1000.0 + 100.0 * i as f64, 0))
            .collect();
        let pairs = pair(&pool, 0);
        let want: Vec<_> = (0..10).map(|k| (2 * k, 2 * k + 1)).collect();
        assert_eq!(pairs, want);
        // Spread wider (150 apart): nobody pairs at once, neighbours after 2.5 s.
        let pool: Vec<_> = (0..20)
            .map(|i| w(&format!("p{i:02}"), 1000.0 + 150.0 * i as f64, 0))
            .collect();
        assert_eq!(pair(&pool, 0), vec![]);
        assert_eq!(pair(&pool, 2_500).len(), 10);
        // After a minute's wait anyone will do: neighbours pair off, and a newcomer far above
        // the pool meets the one left over at its top.
        let mut pool: Vec<_> = (0..19)
            .map(|i| w(&format!("p{i:02}"), 1000.0 + 150.0 * i as f64, 0))
            .collect();
        pool.push(w("late", 5000.0, 100_000));
        let pairs = pair(&pool, 100_000);
        assert_eq!(pairs.len(), 10, "everyone paired: {pairs:?}");
        assert!(
            pairs.contains(&(18, 19)),
            "the late one meets the top of the pool: {pairs:?}"
        );
    }

    #[test]
    fn colours_alternate_between_the_same_two() {
        assert_eq!(colour_of_first(Some(true), true), Color::White);
        assert_eq!(colour_of_first(Some(false), false), Color::Black);
        assert_eq!(colour_of_first(None, true), Color::Black);
        assert_eq!(colour_of_first(None, false), Color::White);
    }
}
