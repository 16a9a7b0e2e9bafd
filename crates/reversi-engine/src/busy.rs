//! Which positions the solver's threads are searching right now, so that a thread arriving at a
//! node another one is working in takes its other moves first (simplified ABDADA, after Tom
//! Kerrigan's description of Weill's algorithm): two threads in one subtree then split it
//! instead of searching the same moves side by side.
//!
//! The table is lossy by design. A slot holds one position's key; a second position with the
//! same slot overwrites it, and a thread that leaves clears the slot only if it still holds its
//! own key. A wrong answer only changes the order in which a thread searches its moves, never a
//! result: a move reported busy is searched later, not skipped.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// Slots in the table (a power of two). With two threads, a few dozen positions are marked at
/// once (one per node at or above the sharing depth along each thread's path).
const SLOTS: usize = 1 << 12;

/// The positions being searched, by their table key (`tt::hash`).
pub struct Busy {
    slots: Box<[AtomicU64]>,
    /// Threads helping with another's search now: only then do the threads mark and check
    /// positions (two threads in different subtrees gain nothing from it, and the marks cost
    /// them cache lines written by both).
    helpers: AtomicU32,
}

impl Default for Busy {
    fn default() -> Busy {
        Busy::new()
    }
}

impl Busy {
    /// An empty table.
    pub fn new() -> Busy {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
            helpers: AtomicU32::new(0),
        }
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &AtomicU64 {
        // The low bits pick the table's bucket; the high ones are as well spread.
        &self.slots[(key >> 52) as usize & (SLOTS - 1)]
    }

    /// Whether threads share a subtree now (see [`Busy::helping`]).
    #[inline(always)]
    pub fn active(&self) -> bool {
        self.helpers.load(Relaxed) != 0
    }

    /// Runs `help` (a search of a subtree another thread is searching) with the marks on.
    pub fn helping<T>(&self, help: impl FnOnce() -> T) -> T {
        self.helpers.fetch_add(1, Relaxed);
        let out = help();
        self.helpers.fetch_sub(1, Relaxed);
        out
    }

    /// Whether a thread marked the position `key` and has not left it yet. A mark overwritten
    /// by another position of the same slot reads as not busy (see the module).
    #[inline(always)]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == key
    }

    /// Marks `key` as searched by the calling thread.
    #[inline(always)]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    /// Unmarks `key`, unless another position has taken its slot since.
    #[inline(always)]
    pub fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_busy_between_enter_and_leave() {
        let b = Busy::new();
        let k = 0x1234_5678_9ABC_DEF1;
        assert!(!b.is_busy(k));
        b.enter(k);
        assert!(b.is_busy(k));
        b.leave(k);
        assert!(!b.is_busy(k));
    }

    #[test]
    fn leaving_does_not_clear_a_position_that_took_the_slot() {
        let b = Busy::new();
        let (k1, k2) = (0xABC0_0000_0000_0001, 0xABC0_0000_0000_0002);
        b.enter(k1);
        b.enter(k2);
        assert!(!b.is_busy(k1), "one slot, the last key wins");
        b.leave(k1);
        assert!(b.is_busy(k2));
    }
}
