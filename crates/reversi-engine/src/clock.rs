//! Time management under a game clock (Fischer: time left plus an increment per move): how long
//! a move may think, and from how many empties the exact solver fits that time.
//!
//! The time left, less a small reserve for what happens outside the search (reading the
//! position, sending the move, the network), is spread over the moves still to think about:
//! the player's moves until the endgame gets cheap (about [`CHEAP_ENDGAME`] empties: the solver
//! then answers in a fraction of a second, and the moves after a full solve come from its
//! table), plus two for safety. Most of the increment is added, since it comes back with the
//! move. A move may take up to twice its share when the search needs it, never more than half
//! of what is left — so the clock can never run out while a move is allowed at all.
//!
//! The exact solver is used as soon as its expected time fits ([`crate::solve_time`]: a measured
//! model of this solver, started only when the model gives it a quarter of the move's limit).

use crate::search::Limits;
pub use crate::solve_time::{exact_fits, exact_solve_time};
use std::time::Duration;

/// Empties from which the endgame is cheap: the moves after this point cost little time.
pub const CHEAP_ENDGAME: u32 = 20;

/// The least time kept back from every move's share.
pub const MIN_RESERVE: Duration = Duration::from_millis(100);

/// The share of the time left kept back as well (3 %), at most [`MAX_RESERVE`].
pub const RESERVE_PER_MILLE: u32 = 30;

/// The most time kept back.
pub const MAX_RESERVE: Duration = Duration::from_secs(2);

/// How long a move may think: `remaining` on the clock, `increment` per move, `empties` on the
/// board, `lag` the caller's own reserve for its network and process (added to the clock's).
pub fn move_time(remaining: Duration, increment: Duration, empties: u32, lag: Duration) -> Duration {
    let max = crate::levels::MAX_TIME;
    let (remaining, increment) = (remaining.min(max), increment.min(max));
    let reserve = (MIN_RESERVE + remaining * RESERVE_PER_MILLE / 1000).min(MAX_RESERVE) + lag.min(max);
    let usable = remaining.saturating_sub(reserve);
    // The player's moves until the endgame is cheap, plus two.
    let thinking = empties.saturating_sub(CHEAP_ENDGAME).div_ceil(2) + 2;
    let share = usable / thinking + increment * 9 / 10;
    (share * 2).min(usable / 2)
}

/// `base` (a level's limits) for a move under a clock: the time limit of [`move_time`] (or
/// `base`'s own, when shorter), and endgame depths that fit it. A `strong` player (the highest levels) solves as early as the
/// time allows; the others keep their level's depths, lowered when the time is short.
pub fn clock_limits(
    base: Limits,
    strong: bool,
    remaining: Duration,
    increment: Duration,
    empties: u32,
    lag: Duration,
) -> Limits {
    within(base, strong, move_time(remaining, increment, empties, lag))
}

/// `base` limited to `t` (or its own time, when shorter), with endgame depths that fit it.
/// When `t` binds, time not spent is kept, and the search stops starting iterations early
/// ([`Limits::soft_time`] from `t`); `base`'s own shorter time keeps its own rule.
fn within(mut base: Limits, strong: bool, t: Duration) -> Limits {
    if base.time.is_none_or(|b| t < b) {
        base.time = Some(t);
        base.soft_time = None;
    }
    let t = base.time.unwrap_or(t);
    let fits = exact_fits(t);
    // A win/loss/draw search is about three times cheaper: one empty more.
    let wld_fits = fits + 1;
    if strong {
        base.exact_empties = fits;
        base.wld_empties = wld_fits;
    } else {
        base.exact_empties = base.exact_empties.min(fits);
        base.wld_empties = base.wld_empties.min(wld_fits).max(base.exact_empties);
    }
    base
}

/// `base` for a move that has `per_move` of its own, whatever the moves before took (byo-yomi;
/// a tournament's time per move): that time less a reserve (a tenth of it, at most
/// [`MIN_RESERVE`], and `lag`), and endgame depths that fit it, as [`clock_limits`] does. Time
/// not spent is lost, so the search thinks until its limit ([`Limits::spend_all`]).
pub fn per_move_limits(base: Limits, strong: bool, per_move: Duration, lag: Duration) -> Limits {
    let per_move = per_move.min(crate::levels::MAX_TIME);
    let t = per_move.saturating_sub((per_move / 10).min(MIN_RESERVE) + lag.min(per_move));
    within(base, strong, t).spend_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: f64) -> Duration {
        Duration::from_secs_f64(x)
    }

    #[test]
    fn a_move_never_takes_more_than_half_of_what_is_left() {
        for remaining in [0.0, 0.05, 0.2, 1.0, 5.0, 60.0, 600.0] {
            for inc in [0.0, 1.0, 5.0] {
                for empties in [1, 10, 20, 30, 40, 60] {
                    let t = move_time(s(remaining), s(inc), empties, Duration::ZERO);
                    assert!(t <= s(remaining) / 2, "{remaining} + {inc} at {empties}: {t:?}");
                }
            }
        }
        assert_eq!(
            move_time(Duration::ZERO, s(1.0), 30, Duration::ZERO),
            Duration::ZERO
        );
        let huge = Duration::MAX;
        assert!(move_time(huge, huge, 60, huge) <= crate::levels::MAX_TIME);
    }

    #[test]
    fn the_midgame_gets_more_than_the_endgame_and_the_increment_counts() {
        // 1 minute + 1 second at the start of the midgame: a few seconds a move.
        let mid = move_time(s(60.0), s(1.0), 44, Duration::ZERO);
        assert!(mid > s(4.0) && mid < s(12.0), "{mid:?}");
        // With the same time left at 20 empties, the rest is cheap: more per move.
        let late = move_time(s(60.0), s(1.0), 20, Duration::ZERO);
        assert!(late > mid);
        // No increment, little time: a little.
        let short = move_time(s(3.0), Duration::ZERO, 40, Duration::ZERO);
        assert!(short < s(0.5), "{short:?}");
        // The caller's lag comes off.
        assert!(move_time(s(3.0), Duration::ZERO, 40, s(2.0)) < short);
    }

    #[test]
    fn a_time_per_move_is_used_almost_whole() {
        let base = crate::levels::Level::new(30).limits(0);
        let l = per_move_limits(base.clone(), true, s(2.0), Duration::ZERO);
        assert_eq!(l.time, Some(s(1.9)));
        let l = per_move_limits(base.clone(), true, s(0.2), Duration::ZERO);
        assert_eq!(l.time, Some(s(0.18)));
        assert_eq!(
            per_move_limits(base, true, s(0.2), s(1.0)).time,
            Some(Duration::ZERO)
        );
    }

    #[test]
    fn time_lost_when_unused_is_spent_and_a_clock_s_is_kept() {
        let level = crate::levels::Level::new(30).limits(0);
        // A time per move: the search starts iterations until its limit.
        let l = per_move_limits(level.clone(), true, s(2.0), Duration::ZERO);
        assert_eq!(l.soft_time, l.time);
        let timed = crate::levels::timed(s(0.5));
        assert_eq!(timed.soft_time, Some(s(0.5)));
        // A clock's share: what the move does not use stays on the clock.
        let l = clock_limits(level, true, s(60.0), s(1.0), 40, Duration::ZERO);
        assert!(l.time.is_some() && l.soft_time.is_none(), "{l:?}");
        // A time per move under a clock: the shorter binds, with its own rule.
        let l = clock_limits(timed.clone(), true, s(60.0), s(1.0), 40, Duration::ZERO);
        assert_eq!((l.time, l.soft_time), (Some(s(0.5)), Some(s(0.5))));
        let l = clock_limits(timed, true, s(2.0), Duration::ZERO, 40, Duration::ZERO);
        assert!(l.time < Some(s(0.5)) && l.soft_time.is_none(), "{l:?}");
    }

    #[test]
    fn the_solver_starts_when_it_fits() {
        assert!(exact_solve_time(25) > exact_solve_time(24) * 2);
        assert_eq!(exact_fits(Duration::ZERO), 0);
        let a = exact_fits(s(1.0));
        let b = exact_fits(s(30.0));
        assert!((16..=22).contains(&a), "{a}");
        assert!(b > a + 3, "{a} {b}");
        // The strongest levels solve as early as it fits; the others keep their depths.
        let base = crate::levels::Level::new(30).limits(0);
        let l = clock_limits(base, true, s(60.0), s(1.0), 30, Duration::ZERO);
        assert_eq!(l.exact_empties, exact_fits(l.time.unwrap()));
        let base = crate::levels::Level::new(6).limits(0);
        let l = clock_limits(base.clone(), false, s(600.0), s(5.0), 30, Duration::ZERO);
        assert_eq!(
            (l.exact_empties, l.wld_empties),
            (base.exact_empties, base.wld_empties)
        );
        let level20 = crate::levels::Level::new(20);
        let l = clock_limits(
            level20.limits(0),
            false,
            s(2.0),
            Duration::ZERO,
            30,
            Duration::ZERO,
        );
        assert!(
            l.exact_empties < level20.exact_empties && l.wld_empties >= l.exact_empties,
            "{l:?}"
        );
    }
}
