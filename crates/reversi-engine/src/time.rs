//! The engine's clock. Natively it is `std::time::Instant`. In the browser
//! (`wasm32-unknown-unknown`) the standard library has no clock (`Instant::now` panics there),
//! so the page that hosts the engine passes one in: the module imports `env.now_ms`, the
//! milliseconds of a monotonic clock (`performance.now()` in a worker).
//!
//! On that target there are no threads either, so the deadline a watchdog thread would watch
//! natively is kept here ([`set_deadline`]) and read where the search polls its stop flag
//! ([`halted`]).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use wasm::{set_deadline, Instant};

/// Whether the search must stop: `flag` is up, or (in the browser) the deadline has passed —
/// then the flag is raised too, so every later check agrees.
#[inline(always)]
pub fn halted(flag: &AtomicBool) -> bool {
    if flag.load(Relaxed) {
        return true;
    }
    #[cfg(target_arch = "wasm32")]
    if wasm::past_deadline() {
        flag.store(true, Relaxed);
        return true;
    }
    false
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use std::cell::Cell;
    use std::time::Duration;

    #[link(wasm_import_module = "env")]
    extern "C" {
        /// Milliseconds of the host's monotonic clock.
        fn now_ms() -> f64;
    }

    /// A moment of the host's monotonic clock, in whole nanoseconds.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(u64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: the import takes nothing and returns a number; the loader provides it.
            let ms = unsafe { now_ms() };
            Instant((ms.max(0.0) * 1e6) as u64)
        }

        /// The time since `earlier` (zero when `earlier` is later).
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_nanos(self.0.saturating_sub(earlier.0))
        }

        /// The time since `earlier` (zero when `earlier` is later, as `std`'s does today).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }

        /// The time since this moment.
        pub fn elapsed(&self) -> Duration {
            Instant::now().saturating_duration_since(*self)
        }
    }

    impl std::ops::Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0.saturating_add(d.as_nanos().min(u64::MAX as u128) as u64))
        }
    }

    impl std::ops::Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }
    }

    thread_local! {
        static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    }

    /// The moment the running search must stop (`None`: no limit). Returns the previous one,
    /// so nested searches restore it.
    pub fn set_deadline(at: Option<Instant>) -> Option<Instant> {
        DEADLINE.with(|d| d.replace(at))
    }

    pub(super) fn past_deadline() -> bool {
        DEADLINE.with(|d| d.get()).is_some_and(|at| Instant::now() >= at)
    }
}
