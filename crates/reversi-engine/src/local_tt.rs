//! A small transposition table private to one solver thread, for the nodes just above the
//! shallow search.
//!
//! Those nodes are the most numerous that use a table at all, and each of them costs a cache miss
//! in the shared table (tens of MiB, far beyond the caches). Their subtrees are small, so they
//! mostly meet their transpositions soon: a table of the last thousand or so positions per depth,
//! small enough to stay in the core's own cache, finds most of them (Egaroucid keeps a table of
//! this kind too).
//!
//! Measured against the shared 64 MiB table at 7 to 10 empties (1 thread): FFO #40–47 313.2 M nodes
//! 9.5 s → 334.9 M nodes 8.9 s. The bounds (from 9 to 12 empties) and the size (256 to 4,096
//! entries per depth) all measured within noise of each other (9.1–9.2 s). With the replies
//! handed down (see `endgame`), all of FFO #40–59: 22.54 G nodes 718.5 s → 23.59 G 636.6 s; then
//! with the shallow search one empty shorter and this table from 6 empties, 20.22 G 599.0 s.

use crate::tt::{TtData, NO_MOVE};

/// Entries per depth: `1 << BITS`.
const BITS: u32 = 10;
const SIZE: usize = 1 << BITS;

/// Null-window nodes with `LOWEST..=HIGHEST` empties use this table instead of the shared one
/// (from just above the solver's shallow search, which uses no table: `endgame` checks that
/// this is one more than its `SHALLOW`).
pub const LOWEST: u32 = 6;
/// See [`LOWEST`].
pub const HIGHEST: u32 = 10;

const DEPTHS: usize = (HIGHEST - LOWEST + 1) as usize;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    lower: i8,
    upper: i8,
    selectivity: u8,
    best: u8,
}

/// One thread's table: a direct-mapped array per number of empties, the newest result replacing
/// the old one.
pub struct LocalTable {
    entries: Box<[[Entry; SIZE]; DEPTHS]>,
}

impl LocalTable {
    /// An empty table (on the heap: it is too large for a stack frame).
    pub fn new() -> LocalTable {
        let rows = vec![[Entry::default(); SIZE]; DEPTHS].into_boxed_slice();
        LocalTable {
            entries: rows
                .try_into()
                .unwrap_or_else(|_| unreachable!("made with DEPTHS rows")),
        }
    }

    #[inline(always)]
    fn slot(&mut self, key: u64, n: u32) -> &mut Entry {
        &mut self.entries[(n - LOWEST) as usize][(key >> (64 - BITS)) as usize]
    }

    /// What is known of the position with `key` and `n` empties.
    #[inline(always)]
    pub fn probe(&mut self, key: u64, n: u32) -> Option<TtData> {
        let e = *self.slot(key, n);
        (e.key == key && key != 0).then_some(TtData {
            lower: e.lower,
            upper: e.upper,
            depth: n as u8,
            selectivity: e.selectivity,
            best: e.best,
        })
    }

    /// Records a result; bounds of the same position at the same selectivity are merged.
    #[inline(always)]
    pub fn store(&mut self, key: u64, n: u32, d: TtData) {
        let e = self.slot(key, n);
        if e.key == key && e.selectivity == d.selectivity {
            let (lower, upper) = (e.lower.max(d.lower), e.upper.min(d.upper));
            if lower <= upper {
                e.lower = lower;
                e.upper = upper;
                if d.best != NO_MOVE {
                    e.best = d.best;
                }
                return;
            }
        }
        *e = Entry {
            key,
            lower: d.lower,
            upper: d.upper,
            selectivity: d.selectivity,
            best: d.best,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(lower: i8, upper: i8, selectivity: u8, best: u8, n: u32) -> TtData {
        TtData {
            lower,
            upper,
            depth: n as u8,
            selectivity,
            best,
        }
    }

    #[test]
    fn stores_and_finds_by_key_and_depth() {
        let mut t = LocalTable::new();
        let key = 0x1234_5678_9ABC_DEF1;
        assert_eq!(t.probe(key, 8), None);
        t.store(key, 8, data(-4, 10, 0, 19, 8));
        assert_eq!(t.probe(key, 8), Some(data(-4, 10, 0, 19, 8)));
        // Each number of empties has its own entries.
        assert_eq!(t.probe(key, 9), None);
        assert_eq!(t.probe(key ^ 1, 8), None);
    }

    #[test]
    fn merges_bounds_of_one_position_and_replaces_others() {
        let mut t = LocalTable::new();
        let key = 0x0F0F_0000_1111_2222;
        t.store(key, LOWEST, data(-127, 6, 0, 3, LOWEST));
        t.store(key, LOWEST, data(2, 127, 0, 5, LOWEST));
        assert_eq!(t.probe(key, LOWEST), Some(data(2, 6, 0, 5, LOWEST)));
        // Bounds from another selectivity are not merged: the newer result replaces them.
        t.store(key, LOWEST, data(8, 127, 1, 7, LOWEST));
        assert_eq!(t.probe(key, LOWEST), Some(data(8, 127, 1, 7, LOWEST)));
        // Another position in the same slot replaces it.
        let other = key ^ 0xFF;
        t.store(other, LOWEST, data(0, 0, 0, 9, LOWEST));
        assert_eq!(t.probe(key, LOWEST), None);
        assert_eq!(t.probe(other, HIGHEST), None);
        assert_eq!(t.probe(other, LOWEST), Some(data(0, 0, 0, 9, LOWEST)));
    }
}
