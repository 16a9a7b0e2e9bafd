//! The server's one clock: Unix time, injected through [`crate::config::Config::clock`] and held
//! by the storage ([`crate::db::Db::clock`]), so that every part of a server reads the same
//! time. Production uses [`Clock::system`]; tests of timed games use [`Clock::adjustable`] and
//! move it forward with [`Clock::advance`] instead of waiting for a flag to fall. Two servers of
//! one test may share one clock (it is a handle); unrelated tests no longer shift each other's.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

/// A source of Unix time: the system clock, plus, for tests, an offset they move.
#[derive(Clone, Debug, Default)]
pub struct Clock(Arc<Inner>);

#[derive(Debug, Default)]
struct Inner {
    /// What [`Clock::advance`] added, in ms.
    skew_ms: AtomicI64,
    /// Whether [`Clock::advance`] may move this clock.
    adjustable: bool,
    /// Wakes whoever sleeps until a deadline when the clock jumps ([`Clock::moved`]).
    moved: tokio::sync::Notify,
}

impl Clock {
    /// The system clock (what a server runs on).
    pub fn system() -> Clock {
        Clock::default()
    }

    /// The system clock plus what [`Clock::advance`] adds: for tests.
    pub fn adjustable() -> Clock {
        Clock(Arc::new(Inner {
            adjustable: true,
            ..Inner::default()
        }))
    }

    /// Milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        let real = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        real + self.0.skew_ms.load(Ordering::Relaxed)
    }

    /// [`Clock::now_ms`] as the game clocks count it (never negative).
    pub fn clock_ms(&self) -> u64 {
        self.now_ms().max(0) as u64
    }

    /// Whole seconds since the Unix epoch (what the stored timestamps hold).
    pub fn now_s(&self) -> i64 {
        self.now_ms().div_euclid(1000)
    }

    /// Moves an [adjustable](Clock::adjustable) clock forward by `ms` and wakes the timers.
    ///
    /// # Panics
    /// On the system clock: a server never moves its time.
    pub fn advance(&self, ms: i64) {
        assert!(self.0.adjustable, "the system clock cannot be moved");
        self.0.skew_ms.fetch_add(ms, Ordering::Relaxed);
        self.0.moved.notify_waiters();
    }

    /// Completes when [`Clock::advance`] next moves the clock (never, on the system clock).
    pub async fn moved(&self) {
        self.0.moved.notified().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_adjustable_clock_moves_alone() {
        let (a, b) = (Clock::adjustable(), Clock::adjustable());
        let before = b.now_ms();
        a.advance(3_600_000);
        assert!(a.now_ms() - b.now_ms() >= 3_599_000);
        assert!(b.now_ms() - before < 3_600_000);
        assert_eq!(a.now_s(), a.now_ms().div_euclid(1000));
    }

    #[test]
    #[should_panic(expected = "cannot be moved")]
    fn the_system_clock_does_not_move() {
        Clock::system().advance(1);
    }
}
