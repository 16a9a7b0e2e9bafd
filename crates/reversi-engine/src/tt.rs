//! The transposition table: packed 16-byte entries in 64-byte clusters, shared between threads
//! without locks.
//!
//! Each entry is two atomic words, `key ^ data` and `data`. A reader accepts an entry only if the
//! two words agree with its key, so a torn write (two threads storing at once) reads as a miss,
//! never as wrong data (the "lockless hashing" scheme of Hyatt and Mann).

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// What the table remembers of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtData {
    /// The score is at least this (discs, side to move).
    pub lower: i8,
    /// The score is at most this.
    pub upper: i8,
    /// Search depth (plies; the number of empties for an exact endgame result).
    pub depth: u8,
    /// Selectivity the search ran at (0 = none; higher = more pruning, see `probcut`).
    pub selectivity: u8,
    /// The best move's bit index, or [`NO_MOVE`].
    pub best: u8,
}

/// The `best` value of an entry that has no move.
pub const NO_MOVE: u8 = 64;

impl TtData {
    /// The entry for a fail-soft `score` searched in the window `(alpha, beta)`: a lower bound at
    /// or above beta, an upper bound at or below alpha, exact between. The open side of a bound
    /// is ±127, beyond any score that fits (wide variant boards score past ±64).
    #[inline(always)]
    pub fn from_window(
        score: i32,
        alpha: i32,
        beta: i32,
        depth: u32,
        selectivity: usize,
        best: u8,
    ) -> TtData {
        let (lower, upper) = if score >= beta {
            (score, i8::MAX as i32)
        } else if score > alpha {
            (score, score)
        } else {
            (-(i8::MAX as i32), score)
        };
        TtData {
            lower: lower as i8,
            upper: upper as i8,
            depth: depth as u8,
            selectivity: selectivity as u8,
            best,
        }
    }

    fn pack(self, age: u8) -> u64 {
        (self.lower as u8 as u64)
            | (self.upper as u8 as u64) << 8
            | (self.depth as u64) << 16
            | (self.selectivity as u64) << 24
            | (self.best as u64) << 32
            | (age as u64) << 40
    }

    fn unpack(d: u64) -> (TtData, u8) {
        (
            TtData {
                lower: d as u8 as i8,
                upper: (d >> 8) as u8 as i8,
                depth: (d >> 16) as u8,
                selectivity: (d >> 24) as u8,
                best: (d >> 32) as u8,
            },
            (d >> 40) as u8,
        )
    }
}

#[repr(align(64))]
struct Cluster {
    entries: [[AtomicU64; 2]; 4],
}

/// The clusters, in one zeroed block. On Linux it is a fresh anonymous mapping aligned to 2 MiB
/// and marked for huge pages: a search probes the table at random, and with 4 KiB pages almost
/// every probe of a 256 MiB table also misses the TLB. Its pages read as zero until first
/// written, so nothing is cleared up front; they are made when the table is made (see
/// `zeroed`), outside any search's clock.
struct Clusters {
    ptr: std::ptr::NonNull<Cluster>,
    len: usize,
    /// The whole mapping (`ptr` lies inside it, aligned).
    #[cfg(target_os = "linux")]
    mapping: (*mut libc::c_void, usize),
    #[cfg(not(target_os = "linux"))]
    layout: std::alloc::Layout,
}

// SAFETY: `Clusters` owns its block like a `Box<[Cluster]>`, and a `Cluster` is made of atomics.
unsafe impl Send for Clusters {}
// SAFETY: as above; shared access only goes through the atomics.
unsafe impl Sync for Clusters {}

/// The largest table, in MiB (64 GiB): far beyond what a search can fill, and small enough that
/// every size computed from it fits in a `usize`.
pub const MAX_HASH_MIB: usize = 64 * 1024;

/// The alignment (and huge-page size) of the table's block.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 * 1024 * 1024;

impl Clusters {
    /// `len` zeroed clusters, or `None` when the system cannot give that much memory.
    #[cfg(target_os = "linux")]
    fn zeroed(len: usize) -> Option<Clusters> {
        // Checked: a size that wraps would map less than `len` clusters, and the slice built on
        // top of the mapping would reach past its end.
        let bytes = len.checked_mul(std::mem::size_of::<Cluster>())?;
        let size = bytes.checked_add(HUGE_PAGE)?;
        if len == 0 || size > isize::MAX as usize {
            return None;
        }
        // SAFETY: a new private anonymous mapping of `size` bytes; no existing memory is
        // involved, and the result is checked before use.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        // The mapping is `bytes + HUGE_PAGE` long, so rounding its start up to the next
        // 2 MiB boundary (at most `HUGE_PAGE - 1` bytes on) leaves `bytes` inside it.
        let start = (base as usize).next_multiple_of(HUGE_PAGE);
        debug_assert!(start + bytes <= base as usize + size);
        // SAFETY: `[start, start + bytes)` lies inside the mapping (above). A refusal only
        // costs speed.
        unsafe { libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE) };
        // The pages are made now, not at a search's first touch of each: in a VM each 2 MiB
        // page first touched cost the search about a millisecond, and a move timed at 0.1 s
        // spent nearly all of it faulting (`best --time 0.1`: 2,152 nodes in 54 ms with a
        // 64 MiB table, 470,350 in 42 ms with 1 MiB). Only while the table takes at most half
        // of the free memory: a larger one stays lazy, as before, rather than push the system
        // into reclaim or out of memory for pages a search may never use. Tried and not kept:
        // making them on a background thread, so that a one-shot command need not wait —
        // `best --level 4` then took 0.08–0.30 s (median 0.10 s, 12 runs) against 0.08 s
        // (one run in 12 at 0.35 s) made here, and 0.07 s lazily.
        if bytes <= free_memory() / 2 {
            // SAFETY: as above; the advice only makes pages of the mapping.
            let advised =
                unsafe { libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_POPULATE_WRITE) };
            if advised != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL) {
                // A kernel before 5.14 does not know the advice: each page is touched instead.
                for page in (start..start + bytes).step_by(4096) {
                    // SAFETY: `page` lies inside the mapping, which nothing else uses yet;
                    // writing the zero it already holds makes the page, not a change.
                    unsafe { std::ptr::write_volatile(page as *mut u8, 0) };
                }
            }
        }
        Some(Clusters {
            ptr: std::ptr::NonNull::new(start as *mut Cluster)?,
            len,
            mapping: (base, size),
        })
    }

    /// `len` zeroed clusters, or `None` when the system cannot give that much memory.
    #[cfg(not(target_os = "linux"))]
    fn zeroed(len: usize) -> Option<Clusters> {
        if len == 0 {
            return None;
        }
        let layout = std::alloc::Layout::array::<Cluster>(len).ok()?;
        // SAFETY: the layout has a non-zero size (`len >= 1`); all-zero atomics are valid
        // `Cluster`s (a zero entry reads as empty).
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let ptr = std::ptr::NonNull::new(raw as *mut Cluster)?;
        Some(Clusters { ptr, len, layout })
    }
}

/// The system's free memory in bytes (0 when it cannot be read).
#[cfg(target_os = "linux")]
fn free_memory() -> usize {
    // SAFETY: `sysinfo` is a C struct of integers, for which all zeros is a valid value.
    let mut info: libc::sysinfo = unsafe { std::mem::zeroed() };
    // SAFETY: `info` is a valid, writable `sysinfo` struct.
    if unsafe { libc::sysinfo(&mut info) } != 0 {
        return 0;
    }
    (info.freeram as usize).saturating_mul(info.mem_unit.max(1) as usize)
}

impl std::ops::Deref for Clusters {
    type Target = [Cluster];
    fn deref(&self) -> &[Cluster] {
        // SAFETY: `ptr` points to `len` clusters owned by `self` (`zeroed` mapped or allocated
        // at least `len * size_of::<Cluster>()` bytes behind it, with checked arithmetic), all
        // valid: the block starts zeroed, and zero atomics are valid values. The clusters are
        // only ever changed through their atomics, so shared references are sound.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Clusters {
    fn drop(&mut self) {
        // SAFETY: the mapping (or allocation) made in `zeroed`, released once: `Clusters` is
        // neither `Clone` nor `Copy`, and no reference into it outlives `self`.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::munmap(self.mapping.0, self.mapping.1);
        }
        // SAFETY: as above.
        #[cfg(not(target_os = "linux"))]
        unsafe {
            std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, self.layout)
        }
    }
}

/// A transposition table of a fixed size.
pub struct TranspositionTable {
    clusters: Clusters,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mib` MiB (1..=[`MAX_HASH_MIB`]).
    pub fn new(mib: usize) -> Result<TranspositionTable, crate::ResourceError> {
        if !(1..=MAX_HASH_MIB).contains(&mib) {
            return Err(crate::ResourceError::HashSize(mib));
        }
        // No overflow: `mib <= MAX_HASH_MIB` keeps the product far below `usize::MAX`.
        let n = mib * 1024 * 1024 / std::mem::size_of::<Cluster>();
        Ok(TranspositionTable {
            clusters: Clusters::zeroed(n).ok_or(crate::ResourceError::OutOfMemory(mib))?,
            age: AtomicU8::new(0),
        })
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>()
    }

    /// Empties the table.
    pub fn clear(&self) {
        for c in self.clusters.iter() {
            for e in &c.entries {
                e[0].store(0, Relaxed);
                e[1].store(0, Relaxed);
            }
        }
        self.age.store(0, Relaxed);
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    #[inline]
    fn cluster(&self, key: u64) -> &Cluster {
        let i = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[i]
    }

    /// Hints the CPU to fetch the cluster of `key`.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        // Elsewhere (the browser's wasm32) there is no prefetch to ask for.
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch reads nothing and cannot fault, whatever the address; this one is
        // a cluster of the table anyway.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(self.cluster(key) as *const Cluster as *const i8, _MM_HINT_T0);
        }
    }

    /// What is stored for `key`, if anything.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtData> {
        let c = self.cluster(key);
        for e in &c.entries {
            let d = e[1].load(Relaxed);
            if e[0].load(Relaxed) ^ d == key && d != 0 {
                return Some(TtData::unpack(d).0);
            }
        }
        None
    }

    /// Stores a search result for `key`. A result of the same depth and selectivity narrows the
    /// bounds already stored; a deeper one replaces them.
    #[inline]
    pub fn store(&self, key: u64, mut data: TtData) {
        let age = self.age.load(Relaxed);
        let c = self.cluster(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, e) in c.entries.iter().enumerate() {
            let d = e[1].load(Relaxed);
            if e[0].load(Relaxed) ^ d == key && d != 0 {
                let (old, _) = TtData::unpack(d);
                if old.depth > data.depth || (old.depth == data.depth && old.selectivity < data.selectivity) {
                    // Keep the deeper (or less selective) result, but remember the newer best move.
                    if data.best == NO_MOVE {
                        return;
                    }
                    let kept = TtData {
                        best: data.best,
                        ..old
                    };
                    let nd = kept.pack(age);
                    e[0].store(key ^ nd, Relaxed);
                    e[1].store(nd, Relaxed);
                    return;
                }
                if old.depth == data.depth && old.selectivity == data.selectivity {
                    data.lower = data.lower.max(old.lower);
                    data.upper = data.upper.min(old.upper);
                    if data.lower > data.upper {
                        // Bounds from an unstable (selective) search disagree: trust the new one.
                        data.lower = data.lower.min(old.upper);
                        data.upper = data.upper.max(data.lower);
                    }
                    if data.best == NO_MOVE {
                        data.best = old.best;
                    }
                }
                victim = i;
                break;
            }
            let (old, old_age) = TtData::unpack(d);
            let stale = if d == 0 {
                -1000
            } else {
                age.wrapping_sub(old_age) as i32 * -16
            };
            let worth = old.depth as i32 + stale;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let nd = data.pack(age);
        let e = &c.entries[victim];
        e[0].store(key ^ nd, Relaxed);
        e[1].store(nd, Relaxed);
    }
}

/// The hash of an 8×8 position (`p` to move against `o`).
#[inline(always)]
pub fn hash(p: u64, o: u64) -> u64 {
    let m = ((p ^ 0x9E37_79B9_7F4A_7C15) as u128).wrapping_mul((o ^ 0xD6E8_FEB8_6659_FD93) as u128);
    let h = (m as u64) ^ ((m >> 64) as u64);
    h ^ (p.rotate_left(23) ^ o).wrapping_mul(0xA076_1D64_78BD_642F)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1).unwrap();
        let d = TtData {
            lower: -4,
            upper: 10,
            depth: 12,
            selectivity: 0,
            best: 19,
        };
        tt.store(42, d);
        assert_eq!(tt.probe(42), Some(d));
        assert_eq!(tt.probe(43), None);
        // Same depth narrows the window.
        tt.store(
            42,
            TtData {
                lower: 2,
                upper: 64,
                best: NO_MOVE,
                ..d
            },
        );
        assert_eq!(
            tt.probe(42),
            Some(TtData {
                lower: 2,
                upper: 10,
                ..d
            })
        );
        // A shallower result does not replace a deeper one.
        tt.store(
            42,
            TtData {
                lower: -64,
                upper: 64,
                depth: 3,
                selectivity: 0,
                best: 7,
            },
        );
        assert_eq!(tt.probe(42).unwrap().depth, 12);
        assert_eq!(tt.probe(42).unwrap().best, 7);
        assert!(tt.bytes() <= 1024 * 1024);
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;
    use crate::ResourceError;

    #[test]
    fn sizes_out_of_range_are_refused_before_any_arithmetic() {
        // These sizes wrapped `mib * 1024 * 1024` (or `bytes + HUGE_PAGE`) and then built a
        // slice longer than the mapping: a segmentation fault in safe code.
        for mib in [
            0,
            MAX_HASH_MIB + 1,
            17_592_186_044_415,
            9_223_372_036_854_775_807,
            usize::MAX,
        ] {
            assert_eq!(
                TranspositionTable::new(mib).err(),
                Some(ResourceError::HashSize(mib)),
                "{mib}"
            );
        }
        assert!(ResourceError::HashSize(0)
            .to_string()
            .contains("from 1 to 65536 MiB"));
    }

    #[test]
    fn the_cluster_count_checks_its_arithmetic() {
        let cluster = std::mem::size_of::<Cluster>();
        assert!(Clusters::zeroed(0).is_none());
        assert!(
            Clusters::zeroed(usize::MAX / cluster + 1).is_none(),
            "bytes overflow"
        );
        assert!(
            Clusters::zeroed(usize::MAX / cluster).is_none(),
            "bytes + alignment overflow"
        );
        assert!(
            Clusters::zeroed(isize::MAX as usize / cluster).is_none(),
            "larger than an allocation"
        );
    }

    #[test]
    fn every_cluster_is_inside_the_block() {
        // The invariant behind `Deref`: the slice covers exactly the clusters mapped, and every
        // key, the extreme ones included, lands on one of them.
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.bytes(), 1024 * 1024);
        assert_eq!(tt.clusters.len() * std::mem::size_of::<Cluster>(), tt.bytes());
        let first = tt.clusters.as_ptr() as usize;
        assert_eq!(first % std::mem::align_of::<Cluster>(), 0);
        let d = TtData::from_window(3, -64, 64, 5, 0, 9);
        for key in [0, 1, u64::MAX / 2, u64::MAX - 1, u64::MAX] {
            let c = tt.cluster(key) as *const Cluster as usize;
            assert!(c >= first && c < first + tt.bytes(), "{key}");
            tt.store(key, d);
            assert_eq!(tt.probe(key), Some(d), "{key}");
        }
        // Every byte of the block can be written and read (a short mapping would fault).
        tt.clear();
        assert_eq!(tt.probe(u64::MAX), None);
    }
}

#[cfg(test)]
mod hash_tests {
    use super::hash;
    use reversi_core::bitboard::{flips, moves};
    use std::collections::HashMap;

    fn walk(p: u64, o: u64, d: u32, seen: &mut HashMap<u64, (u64, u64)>) {
        if let Some(prev) = seen.insert(hash(p, o), (p, o)) {
            assert_eq!(prev, (p, o), "hash collision");
        }
        if d == 0 {
            return;
        }
        let m = moves(p, o);
        if m == 0 {
            if moves(o, p) != 0 {
                walk(o, p, d - 1, seen);
            }
            return;
        }
        let mut mm = m;
        while mm != 0 {
            let sq = mm.trailing_zeros();
            mm &= mm - 1;
            let f = flips(p, o, sq);
            walk(o ^ f, p ^ f ^ (1 << sq), d - 1, seen);
        }
    }

    #[test]
    fn no_collisions_in_the_opening_tree() {
        let mut seen = HashMap::new();
        walk(0x0000_0008_1000_0000, 0x0000_0010_0800_0000, 7, &mut seen);
        assert!(seen.len() > 30_000, "{}", seen.len());
        // Mirror-image and swapped pairs must differ too.
        assert_ne!(hash(1, 2), hash(2, 1));
        assert_ne!(hash(1, 0), hash(0, 1));
    }
}
