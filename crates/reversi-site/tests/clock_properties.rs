//! The clock's arithmetic under random games: a move is accepted exactly when it arrives before
//! the flag instant, charges what was spent less the lag given back, adds the increment, and
//! a refused move changes nothing.

use proptest::prelude::*;
use reversi_core::Color;
use reversi_site::clock::{Clock, ClockError, TimeControl};

proptest! {
    #[test]
    fn presses_follow_the_flag_instant(
        initial_quarters in 1u32..20,
        increment_s in 0u32..5,
        steps in prop::collection::vec((0u64..40_000, 0u64..600, any::<bool>()), 1..80),
    ) {
        let control = TimeControl::fischer(initial_quarters * 15, increment_s).unwrap();
        let mut clock = Clock::new(control);
        let mut now = 0u64;
        let mut to_move = Color::Black;
        for (think, lag, pass) in steps {
            now += think;
            let before = clock;
            let flag = clock.flag_at();
            // The opponent must pass now and then: the mover moves again.
            let next = if pass { to_move } else { to_move.opponent() };
            match clock.press(to_move, next, now, lag.min(think)) {
                Ok(()) => {
                    if let Some(f) = flag {
                        prop_assert!(now < f.at, "accepted at {now} after the flag at {}", f.at);
                        let i = if to_move == Color::Black { 0 } else { 1 };
                        let spent = now - before.running.unwrap().since;
                        let charged = spent - lag.min(think).min(spent);
                        prop_assert_eq!(clock.remaining_ms[i], before.remaining_ms[i] - charged + control.increment_ms());
                    } else {
                        prop_assert_eq!(clock.remaining_ms, before.remaining_ms, "free first moves");
                    }
                    to_move = next;
                }
                Err(ClockError::Flagged(f)) => {
                    prop_assert_eq!(Some(f), flag);
                    prop_assert!(now >= f.at);
                    prop_assert_eq!(clock, before, "a refused move changes nothing");
                    prop_assert_eq!(clock.remaining(to_move, now), 0);
                    break;
                }
                Err(e) => prop_assert!(false, "unexpected {e}"),
            }
        }
    }
}
