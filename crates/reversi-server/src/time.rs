//! The server's clock: Unix time, which tests of timed games may move forward (a process-wide
//! offset) instead of waiting for a flag to fall.

use std::sync::atomic::{AtomicI64, Ordering};

static SKEW_MS: AtomicI64 = AtomicI64::new(0);

/// Milliseconds since the Unix epoch (plus what [`advance`] added).
pub fn now_ms() -> i64 {
    let real = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    real + SKEW_MS.load(Ordering::Relaxed)
}

/// [`now_ms`] as the clocks count it (never negative).
pub fn clock_ms() -> u64 {
    now_ms().max(0) as u64
}

/// Moves the server's clock forward by `ms` for the whole process: for tests of clocks and
/// deadlines, which would otherwise wait for real minutes. A server never calls it.
pub fn advance(ms: i64) {
    SKEW_MS.fetch_add(ms, Ordering::Relaxed);
}
