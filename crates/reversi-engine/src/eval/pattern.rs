//! The features of the learned 8×8 evaluation: board patterns (Logistello/Edax style) plus
//! mobility, potential mobility and parity, per game stage.
//!
//! A pattern is a set of squares read as a base-3 number (0 empty, 1 own, 2 opponent). Each
//! pattern is read on all eight symmetric images of the board with the same weight table, so the
//! evaluation is exactly symmetric. Training sees all eight readings ([`features`]); the shipped
//! weights are *folded* so that evaluation reads each distinct square set once (58 readings:
//! Edax's 46 and 12 of three 10-square shapes) and still gives the same sum ([`fold`]).
//!
//! Squares are gathered with shifts, masks and one multiplication for diagonals: no per-square
//! loops and no BMI2, so the code is the same (and fast) on every x86-64 and elsewhere.

use reversi_core::bitboard::{around, flip_diagonal, flip_horizontal, moves};
use reversi_core::Symmetry;
use std::sync::OnceLock;

/// Number of game stages: stage `s` holds positions with `2s+1` or `2s+2` empty squares.
pub const STAGES: usize = 30;

/// The stage of a position with `empties` empty squares.
#[inline]
pub fn stage(empties: u32) -> usize {
    ((empties.max(1) - 1) / 2).min(STAGES as u32 - 1) as usize
}

/// One pattern: its name, the number of squares and how to gather them from a board.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// Short name, e.g. `corner3x3`.
    pub name: &'static str,
    /// The squares read on the untransformed board.
    pub mask: u64,
    /// Number of squares (the table has `3^len` entries).
    pub len: u32,
    gather: fn(u64) -> u32,
}

const DIAG_MUL: u64 = 0x0101_0101_0101_0101;

/// The patterns, in the order of the weight tables.
pub const PATTERNS: [Pattern; 14] = [
    Pattern {
        name: "corner3x3",
        mask: 0x0007_0707,
        len: 9,
        gather: |b| ((b & 7) | ((b >> 5) & 0x38) | ((b >> 10) & 0x1C0)) as u32,
    },
    Pattern {
        name: "corner2x5",
        mask: 0x1F1F,
        len: 10,
        gather: |b| ((b & 0x1F) | ((b >> 3) & 0x3E0)) as u32,
    },
    Pattern {
        name: "edge+2x",
        mask: 0x42FF,
        len: 10,
        gather: |b| ((b & 0xFF) | ((b >> 1) & 0x100) | ((b >> 5) & 0x200)) as u32,
    },
    Pattern {
        name: "row2",
        mask: 0xFF00,
        len: 8,
        gather: |b| ((b >> 8) & 0xFF) as u32,
    },
    Pattern {
        name: "row3",
        mask: 0xFF_0000,
        len: 8,
        gather: |b| ((b >> 16) & 0xFF) as u32,
    },
    Pattern {
        name: "row4",
        mask: 0xFF00_0000,
        len: 8,
        gather: |b| ((b >> 24) & 0xFF) as u32,
    },
    Pattern {
        name: "diag8",
        mask: 0x8040_2010_0804_0201,
        len: 8,
        gather: |b| ((b & 0x8040_2010_0804_0201).wrapping_mul(DIAG_MUL) >> 56) as u32,
    },
    Pattern {
        name: "diag7",
        mask: 0x0080_4020_1008_0402,
        len: 7,
        gather: |b| ((b & 0x0080_4020_1008_0402).wrapping_mul(DIAG_MUL) >> 57) as u32,
    },
    Pattern {
        name: "diag6",
        mask: 0x0000_8040_2010_0804,
        len: 6,
        gather: |b| ((b & 0x0000_8040_2010_0804).wrapping_mul(DIAG_MUL) >> 58) as u32,
    },
    Pattern {
        name: "diag5",
        mask: 0x0000_0080_4020_1008,
        len: 5,
        gather: |b| ((b & 0x0000_0080_4020_1008).wrapping_mul(DIAG_MUL) >> 59) as u32,
    },
    Pattern {
        name: "diag4",
        mask: 0x0000_0000_8040_2010,
        len: 4,
        gather: |b| ((b & 0x0000_0000_8040_2010).wrapping_mul(DIAG_MUL) >> 60) as u32,
    },
    // a1 b1 c1 d1 / a2 b2 c2 / a3 b3 / a4: the corner's triangle.
    Pattern {
        name: "triangle",
        mask: 0x0103_070F,
        len: 10,
        gather: |b| ((b & 0xF) | ((b >> 4) & 0x70) | ((b >> 9) & 0x180) | ((b >> 15) & 0x200)) as u32,
    },
    // a1 c1 d1 e1 f1 h1 / c2 d2 e2 f2: an edge's corners with the block in its middle.
    Pattern {
        name: "edge-block",
        mask: 0x3CBD,
        len: 10,
        gather: |b| ((b & 1) | ((b >> 1) & 0x1E) | ((b >> 2) & 0x20) | ((b >> 4) & 0x3C0)) as u32,
    },
    // a1 b1 / a2 b2 c2 / b3 c3 d3 / c4 d4: the main diagonal from a corner with its neighbours.
    Pattern {
        name: "cross",
        mask: 0x0C0E_0703,
        len: 10,
        gather: |b| ((b & 3) | ((b >> 6) & 0x1C) | ((b >> 12) & 0xE0) | ((b >> 18) & 0x300)) as u32,
    },
];

/// Mobility counts above this share the last entry.
pub const MOBILITY_MAX: u32 = 30;
/// Potential-mobility counts above this share the last entry.
pub const POTENTIAL_MAX: u32 = 40;

/// Sizes of the tables that follow the patterns: own mobility, opponent mobility, own and
/// opponent potential mobility, parity (empties even/odd) and a constant.
const EXTRA_TABLES: [u32; 6] = [
    MOBILITY_MAX + 1,
    MOBILITY_MAX + 1,
    POTENTIAL_MAX + 1,
    POTENTIAL_MAX + 1,
    2,
    1,
];

/// Number of pattern readings in [`features`] (8 per pattern).
pub const PATTERN_READINGS: usize = PATTERNS.len() * 8;
/// Number of feature indices [`features`] writes per position.
pub const FEATURES: usize = PATTERN_READINGS + EXTRA_TABLES.len();

const fn pow3(n: u32) -> u32 {
    let mut r = 1;
    let mut i = 0;
    while i < n {
        r *= 3;
        i += 1;
    }
    r
}

const fn offsets() -> [u32; PATTERNS.len() + EXTRA_TABLES.len() + 1] {
    let mut out = [0; PATTERNS.len() + EXTRA_TABLES.len() + 1];
    let mut i = 0;
    while i < PATTERNS.len() {
        out[i + 1] = out[i] + pow3(PATTERNS[i].len);
        i += 1;
    }
    let mut j = 0;
    while j < EXTRA_TABLES.len() {
        out[i + j + 1] = out[i + j] + EXTRA_TABLES[j];
        j += 1;
    }
    out
}

/// Where each table starts in a stage's weights; the last entry is the stage's size.
pub const OFFSETS: [u32; PATTERNS.len() + EXTRA_TABLES.len() + 1] = offsets();
/// Number of weights per stage.
pub const STAGE_SIZE: usize = OFFSETS[OFFSETS.len() - 1] as usize;

pub(crate) use crate::ternary::TERNARY;

#[inline(always)]
fn index(pat: &Pattern, p: u64, o: u64) -> u32 {
    TERNARY[(pat.gather)(p) as usize] as u32 + 2 * TERNARY[(pat.gather)(o) as usize] as u32
}

/// The eight images of a board, in [`Symmetry::ALL`] order, sharing the work: one transpose, two
/// left-right mirrors, and byte swaps (top-bottom mirrors) for the rest.
#[inline]
fn images_of(b: u64) -> [u64; 8] {
    let d = flip_diagonal(b);
    let h = flip_horizontal(b);
    let r90 = flip_horizontal(d);
    [
        b,
        r90,
        h.swap_bytes(),
        d.swap_bytes(),
        h,
        b.swap_bytes(),
        d,
        r90.swap_bytes(),
    ]
}

/// The eight images of `(p, o)`, in [`Symmetry::ALL`] order.
#[inline]
fn images(p: u64, o: u64) -> [(u64, u64); 8] {
    let (ip, io) = (images_of(p), images_of(o));
    std::array::from_fn(|k| (ip[k], io[k]))
}

/// Indices of the extra tables (mobility, potential mobility, parity, constant), offsets added.
#[inline(always)]
fn extras(p: u64, o: u64) -> [u32; EXTRA_TABLES.len()] {
    let empty = !(p | o);
    let base = PATTERNS.len();
    let mob_p = moves(p, o).count_ones().min(MOBILITY_MAX);
    let mob_o = moves(o, p).count_ones().min(MOBILITY_MAX);
    let pot_p = (around(o) & empty).count_ones().min(POTENTIAL_MAX);
    let pot_o = (around(p) & empty).count_ones().min(POTENTIAL_MAX);
    [
        OFFSETS[base] + mob_p,
        OFFSETS[base + 1] + mob_o,
        OFFSETS[base + 2] + pot_p,
        OFFSETS[base + 3] + pot_o,
        OFFSETS[base + 4] + (empty.count_ones() & 1),
        OFFSETS[base + 5],
    ]
}

/// Every feature index of a position, for training: each pattern read on all eight images
/// (so symmetric readings repeat), then the extra tables. The value is the sum of the weights at
/// these indices.
pub fn features(p: u64, o: u64) -> [u32; FEATURES] {
    let mut out = [0u32; FEATURES];
    let imgs = images(p, o);
    let mut n = 0;
    for (k, pat) in PATTERNS.iter().enumerate() {
        for &(ip, io) in &imgs {
            out[n] = OFFSETS[k] + index(pat, ip, io);
            n += 1;
        }
    }
    out[n..].copy_from_slice(&extras(p, o));
    out
}

/// For each pattern, the symmetries (indices into [`Symmetry::ALL`]) whose readings cover a
/// distinct square set: evaluation reads only these.
pub struct Readings {
    /// `reps[k]` lists the symmetries read for pattern `k`.
    pub reps: [Vec<usize>; PATTERNS.len()],
}

fn preimage(s: Symmetry, mask: u64) -> u64 {
    (0..64)
        .filter(|&sq| s.apply_u64(1u64 << sq) & mask != 0)
        .fold(0, |a, sq| a | 1u64 << sq)
}

/// How many images of each pattern evaluation reads: the first `READ_COUNT[k]` of
/// [`Symmetry::ALL`] cover each distinct square set of pattern `k` once (what [`readings`]
/// computes; a test keeps the two equal). A constant, so that each pattern's loop unrolls.
const READ_COUNT: [usize; PATTERNS.len()] = [4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4, 4, 4, 4];

/// The readings evaluation uses (computed once).
pub fn readings() -> &'static Readings {
    static R: OnceLock<Readings> = OnceLock::new();
    R.get_or_init(|| Readings {
        reps: std::array::from_fn(|k| {
            let mut seen = Vec::new();
            let mut reps = Vec::new();
            for (i, &s) in Symmetry::ALL.iter().enumerate() {
                let set = preimage(s, PATTERNS[k].mask);
                if !seen.contains(&set) {
                    seen.push(set);
                    reps.push(i);
                }
            }
            reps
        }),
    })
}

/// Folds one stage of training weights (indexed like [`features`]) into evaluation weights, so
/// that reading each distinct square set once gives the same total as reading all eight images.
///
/// A pattern whose square set is mapped onto itself by a group `G` of symmetries is read `|G|`
/// times per set in training; the folded entry of index `i` is the sum of the training entries
/// of `g(i)` over `G`.
pub fn fold(weights: &[f32]) -> Vec<f32> {
    assert_eq!(weights.len(), STAGE_SIZE);
    let mut out = weights.to_vec();
    for (k, pat) in PATTERNS.iter().enumerate() {
        let group: Vec<Symmetry> = Symmetry::ALL
            .into_iter()
            .filter(|&s| s.apply_u64(pat.mask) == pat.mask)
            .collect();
        let off = OFFSETS[k] as usize;
        let bits: Vec<u64> = (0..64)
            .filter(|&sq| pat.mask >> sq & 1 == 1)
            .map(|sq| 1u64 << sq)
            .collect();
        for i in 0..pow3(pat.len) {
            // Put the pattern value `i` on an otherwise empty board, in gather order.
            let (mut p, mut o, mut v) = (0u64, 0u64, i);
            for &b in &bits {
                match v % 3 {
                    1 => p |= b,
                    2 => o |= b,
                    _ => {}
                }
                v /= 3;
            }
            out[off + i as usize] = group
                .iter()
                .map(|g| weights[off + index(pat, g.apply_u64(p), g.apply_u64(o)) as usize])
                .sum();
        }
    }
    out
}

/// Evaluation weights of one stage in 1/[`SCALE`] disc, laid out like [`features`].
pub type StageWeights = [i16];

/// Weights are stored in 1/`SCALE` of a disc.
pub const SCALE: i32 = 64;

/// The evaluation with folded weights, in 1/[`SCALE`] disc, for the side to move.
#[inline]
pub fn evaluate(w: &StageWeights, p: u64, o: u64) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if crate::kernel::Kernel::Avx2.available() {
        // SAFETY: `available` checked the features `evaluate_avx2` needs.
        return unsafe { evaluate_avx2(w, p, o) };
    }
    evaluate_portable(w, p, o)
}

/// [`evaluate`] compiled for AVX2 machines: native population counts and the AVX2 move
/// generation inlined (the evaluation is called once per node near the solver's root).
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT (what `Kernel::Avx2` checks).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2,popcnt")]
unsafe fn evaluate_avx2(w: &StageWeights, p: u64, o: u64) -> i32 {
    evaluate_portable(w, p, o)
}

/// [`evaluate`] for any CPU.
#[inline(always)]
fn evaluate_portable(w: &StageWeights, p: u64, o: u64) -> i32 {
    let imgs = images(p, o);
    let mut sum = 0i32;
    // One block per pattern with a constant index, so that its gather is a known function and
    // inlines (a loop over `PATTERNS` calls each through a pointer).
    macro_rules! read {
        ($($k:literal)*) => {$(
            let off = OFFSETS[$k] as usize;
            for &(ip, io) in &imgs[..READ_COUNT[$k]] {
                sum += w[off + index(&PATTERNS[$k], ip, io) as usize] as i32;
            }
        )*};
    }
    const { assert!(PATTERNS.len() == 14, "list every pattern in read!") };
    read!(0 1 2 3 4 5 6 7 8 9 10 11 12 13);
    for e in extras(p, o) {
        sum += w[e as usize] as i32;
    }
    sum
}

/// Number of pattern readings evaluation makes (the sum of [`READ_COUNT`]).
pub const READINGS: usize = {
    let mut sum = 0;
    let mut k = 0;
    while k < READ_COUNT.len() {
        sum += READ_COUNT[k];
        k += 1;
    }
    sum
};
/// Lanes of an [`Indices`] vector: [`READINGS`] rounded up to a whole number of 16-lane
/// vectors, the extra lanes always 0.
const LANES: usize = READINGS.div_ceil(16) * 16;

/// The pattern index of every reading evaluation makes, from both sides: `own` as the side to
/// move sees the board (its discs digit 1, the opponent's 2), `opp` as the opponent sees it.
///
/// A child's indices follow from its parent's by adding the digits the move changes
/// ([`Indices::after`]), so a search evaluating every child of a node reads the board once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indices {
    own: [u16; LANES],
    opp: [u16; LANES],
}

/// The tables behind [`Indices`]: where each reading's weights start, and what one disc on each
/// square adds to each reading (`3^k` for its `k`-th square, 0 if the reading skips it).
struct IndexTables {
    offset: [u32; LANES],
    digit: [[u16; LANES]; 64],
}

fn index_tables() -> &'static IndexTables {
    static T: OnceLock<IndexTables> = OnceLock::new();
    T.get_or_init(|| {
        let mut offset = [0u32; LANES];
        let mut r = 0;
        for (k, &count) in READ_COUNT.iter().enumerate() {
            for _ in 0..count {
                offset[r] = OFFSETS[k];
                r += 1;
            }
        }
        assert_eq!(r, READINGS);
        // A lone own disc on `sq` reads as its digit weight in each reading.
        let digit = std::array::from_fn(|sq| Indices::of(1u64 << sq, 0).own);
        IndexTables { offset, digit }
    })
}

impl Indices {
    /// The indices of the position `p` (to move) against `o`, read from the board.
    #[inline]
    pub fn of(p: u64, o: u64) -> Indices {
        let imgs = images(p, o);
        let mut own = [0u16; LANES];
        let mut opp = [0u16; LANES];
        let mut r = 0;
        macro_rules! read {
            ($($k:literal)*) => {$(
                for &(ip, io) in &imgs[..READ_COUNT[$k]] {
                    let tp = TERNARY[(PATTERNS[$k].gather)(ip) as usize];
                    let to = TERNARY[(PATTERNS[$k].gather)(io) as usize];
                    own[r] = tp + 2 * to;
                    opp[r] = to + 2 * tp;
                    r += 1;
                }
            )*};
        }
        const { assert!(PATTERNS.len() == 14, "list every pattern in read!") };
        read!(0 1 2 3 4 5 6 7 8 9 10 11 12 13);
        Indices { own, opp }
    }

    /// The same position with the other side to move (after a pass).
    #[inline]
    pub fn swapped(&self) -> Indices {
        Indices {
            own: self.opp,
            opp: self.own,
        }
    }

    /// The indices after the side to move plays `sq` flipping `flips`, from the side of the
    /// player to move next (the opponent).
    #[inline]
    pub fn after(&self, sq: u32, flips: u64) -> Indices {
        let t = index_tables();
        // For the opponent, who moves next: each flipped disc goes from digit 1 to 2, the new
        // disc from 0 to 2. For the mover: flipped discs from 2 to 1, the new disc from 0 to 1.
        let gained = digits_of(t, flips);
        let x = &t.digit[sq as usize];
        let mut next = *self;
        for i in 0..LANES {
            next.own[i] = self.opp[i].wrapping_add(gained[i]).wrapping_add(2 * x[i]);
            next.opp[i] = self.own[i].wrapping_sub(gained[i]).wrapping_add(x[i]);
        }
        next
    }
}

/// The sum of the digit weights of the squares in `discs`, lane by lane.
#[inline(always)]
fn digits_of(t: &IndexTables, discs: u64) -> [u16; LANES] {
    let mut sum = [0u16; LANES];
    let mut b = discs;
    while b != 0 {
        let d = &t.digit[b.trailing_zeros() as usize];
        for i in 0..LANES {
            sum[i] = sum[i].wrapping_add(d[i]);
        }
        b &= b - 1;
    }
    sum
}

/// [`evaluate`] of the position `(np, no)` that playing `sq` (flipping `flips`) leads to from
/// the position with indices `parent` (the same value, without reading the child's board).
/// `all` holds the weights of every stage; the child's is picked here, where the population
/// count is a single instruction on AVX2 machines.
#[inline]
pub fn evaluate_child(all: &[i16], parent: &Indices, sq: u32, flips: u64, np: u64, no: u64) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if crate::kernel::Kernel::Avx2.available() {
        // SAFETY: `available` checked the features the function needs.
        return unsafe { evaluate_child_avx2(all, parent, sq, flips, np, no) };
    }
    evaluate_child_portable(all, parent, sq, flips, np, no)
}

/// [`evaluate`] of the position `(p, o)` whose indices `idx` the caller already has (the same
/// value, without reading the board's patterns again). `all` holds the weights of every stage.
#[inline]
pub fn evaluate_indexed(all: &[i16], idx: &Indices, p: u64, o: u64) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if crate::kernel::Kernel::Avx2.available() {
        // SAFETY: `available` checked the features the function needs.
        return unsafe { weights_sum_avx2(all, &idx.own, p, o) };
    }
    weights_sum_portable(all, &idx.own, p, o)
}

/// [`weights_sum_portable`] with native population counts.
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT (what `Kernel::Avx2` checks).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2,popcnt")]
unsafe fn weights_sum_avx2(all: &[i16], own: &[u16; LANES], p: u64, o: u64) -> i32 {
    weights_sum_portable(all, own, p, o)
}

/// [`evaluate_child`] compiled for AVX2 machines: the index lanes add 16 at a time, and the
/// weights are read one by one. The same code runs on AVX-512 machines: AVX-512 gathers of the
/// weights (four 16-lane gathers), used until 2026-12, were slower on this project's AMD EPYC
/// machines — midgame search (`reversi evaltest run data/evaltest/e24.obf --depth 14`,
/// 1 thread, two runs each) 6.5 s against 5.9–6.1 s, endgame (FFO #45 + #49 + #52, three runs)
/// 14.47 s against 14.10 s — and within a run's noise on an Intel Xeon (scalar loads 15.22 s,
/// gathers 15.01 s, one run each).
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT (what `Kernel::Avx2` checks).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2,popcnt")]
unsafe fn evaluate_child_avx2(all: &[i16], parent: &Indices, sq: u32, flips: u64, np: u64, no: u64) -> i32 {
    evaluate_child_portable(all, parent, sq, flips, np, no)
}

/// The child's own indices, as its side to move sees them (see `Indices::after`).
#[inline(always)]
fn child_indices(t: &IndexTables, parent: &Indices, sq: u32, flips: u64) -> [u16; LANES] {
    let mut own = digits_of(t, flips);
    let x = &t.digit[sq as usize];
    for i in 0..LANES {
        own[i] = own[i].wrapping_add(parent.opp[i]).wrapping_add(2 * x[i]);
    }
    own
}

#[inline(always)]
fn evaluate_child_portable(all: &[i16], parent: &Indices, sq: u32, flips: u64, np: u64, no: u64) -> i32 {
    weights_sum_portable(all, &child_indices(index_tables(), parent, sq, flips), np, no)
}

/// The evaluation of `(np, no)` from its own indices `own`.
#[inline(always)]
fn weights_sum_portable(all: &[i16], own: &[u16; LANES], np: u64, no: u64) -> i32 {
    let s = stage(64 - (np | no).count_ones());
    let w = &all[s * STAGE_SIZE..(s + 1) * STAGE_SIZE];
    let t = index_tables();
    let mut sum = 0i32;
    for (&offset, &digits) in t.offset.iter().zip(own).take(READINGS) {
        // Capped so that no reading can reach past the stage, whatever `own` holds: the
        // indices of a real position are never capped, but `evaluate_child` is safe to call
        // with any `parent` and `flips` (the same value on every path, and no panic).
        let i = ((offset + digits as u32) as usize).min(STAGE_SIZE - 1);
        sum += w[i] as i32;
    }
    for e in extras(np, no) {
        sum += w[e as usize] as i32;
    }
    sum
}

/// The same value from training (unfolded) weights in discs: the reference [`evaluate`] must
/// match after [`fold`].
pub fn evaluate_unfolded(w: &[f32], p: u64, o: u64) -> f32 {
    features(p, o).iter().map(|&i| w[i as usize]).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_position(seed: &mut u64) -> (u64, u64) {
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        };
        let a = next();
        let b = next();
        (a & b, a & !b & next())
    }

    /// The invariant the weight lookups rest on: every index of a real position, read from the
    /// board or derived move by move, is a weight of its pattern's table.
    #[test]
    fn indices_stay_inside_their_tables() {
        let t = index_tables();
        let mut limit = [0u32; LANES];
        let mut r = 0;
        for (k, &count) in READ_COUNT.iter().enumerate() {
            for _ in 0..count {
                limit[r] = pow3(PATTERNS[k].len);
                r += 1;
            }
        }
        let check = |idx: &Indices| {
            for (i, &top) in limit.iter().enumerate().take(READINGS) {
                for v in [idx.own[i], idx.opp[i]] {
                    assert!((v as u32) < top, "reading {i}: {v} of {top}");
                    assert!(t.offset[i] + (v as u32) + 1 < STAGE_SIZE as u32);
                }
            }
        };
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..200 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut idx = Indices::of(p, o);
            loop {
                check(&idx);
                let m = reversi_core::bitboard::moves(p, o);
                if m == 0 {
                    if reversi_core::bitboard::moves(o, p) == 0 {
                        break;
                    }
                    (p, o) = (o, p);
                    idx = idx.swapped();
                    continue;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let pick = (seed % m.count_ones() as u64) as usize;
                let sq = (0..64).filter(|&b| m >> b & 1 == 1).nth(pick).unwrap();
                let f = reversi_core::bitboard::flips(p, o, sq);
                idx = idx.after(sq, f);
                (p, o) = (o & !f, p | f | (1 << sq));
                assert_eq!(idx.own, Indices::of(p, o).own);
            }
        }
    }

    /// Indices that no position has (a caller's inconsistent `flips`) give some value on every
    /// path, never a read outside the weights.
    #[test]
    fn nonsense_indices_read_inside_the_weights() {
        let weights: Vec<i16> = vec![1; STAGE_SIZE * STAGES];
        let junk = Indices {
            own: [u16::MAX; LANES],
            opp: [u16::MAX; LANES],
        };
        let portable = weights_sum_portable(&weights, &junk.own, 1, 2);
        assert_eq!(evaluate_indexed(&weights, &junk, 1, 2), portable);
        let _ = evaluate_child(&weights, &junk, 3, u64::MAX, 1, 2);
        #[cfg(target_arch = "x86_64")]
        if crate::kernel::Kernel::Avx2.available() {
            // SAFETY: just checked.
            assert_eq!(unsafe { weights_sum_avx2(&weights, &junk.own, 1, 2) }, portable);
        }
    }

    #[test]
    fn gathers_read_the_mask_squares_in_order() {
        for pat in &PATTERNS {
            assert_eq!((pat.gather)(pat.mask), (1 << pat.len) - 1, "{}", pat.name);
            assert_eq!((pat.gather)(!pat.mask), 0, "{}", pat.name);
            // Each mask square, alone, lands on its own bit, lowest square first.
            let squares: Vec<u32> = (0..64).filter(|&sq| pat.mask >> sq & 1 == 1).collect();
            for (k, sq) in squares.iter().enumerate() {
                assert_eq!((pat.gather)(1u64 << sq), 1 << k, "{} square {sq}", pat.name);
            }
        }
    }

    #[test]
    fn readings_match_edax_count() {
        let r = readings();
        let counts: Vec<usize> = r.reps.iter().map(Vec::len).collect();
        assert_eq!(counts, [4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4, 4, 4, 4]);
        for (k, reps) in r.reps.iter().enumerate() {
            assert_eq!(
                *reps,
                (0..READ_COUNT[k]).collect::<Vec<_>>(),
                "{}",
                PATTERNS[k].name
            );
        }
        assert_eq!(counts.iter().sum::<usize>(), 58);
        assert_eq!(
            STAGE_SIZE,
            19683 + 5 * 59049 + 4 * 6561 + 2187 + 729 + 243 + 81 + 31 * 2 + 41 * 2 + 2 + 1
        );
    }

    #[test]
    fn folded_evaluation_equals_training_sum() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let w: Vec<f32> = (0..STAGE_SIZE)
            .map(|i| ((i as u64).wrapping_mul(0x2545_F491_4F6C_DD1D) >> 54) as f32 / 64.0 - 8.0)
            .collect();
        let folded = fold(&w);
        // Exact in f32 for these small multiples of 1/64: compare to the integer evaluation.
        let wi: Vec<i16> = folded
            .iter()
            .map(|&x| (x * SCALE as f32).round() as i16)
            .collect();
        for _ in 0..2000 {
            let (p, o) = random_position(&mut seed);
            let full = evaluate_unfolded(&w, p, o);
            let fast = evaluate(&wi, p, o);
            assert_eq!((full * SCALE as f32).round() as i32, fast, "{p:#x} {o:#x}");
            // Both compiled paths agree (the AVX2 one where this CPU has it).
            assert_eq!(evaluate_portable(&wi, p, o), fast, "{p:#x} {o:#x}");
        }
    }

    /// Indices kept up to date move by move equal indices read from the board, and so do the
    /// evaluations, along random games (every legal move tried at each position).
    #[test]
    fn incremental_indices_equal_a_fresh_reading() {
        use reversi_core::bitboard::flips;
        let weights: Vec<i16> = {
            let mut seed = 0x51u64;
            (0..STAGES * STAGE_SIZE)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    (seed % 2001) as i16 - 1000
                })
                .collect()
        };
        let mut seed = 0x0DDB_1A5E_5BAD_5EEDu64;
        let mut checked = 0;
        for _ in 0..60 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut idx = Indices::of(p, o);
            loop {
                let m = moves(p, o);
                if m == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    (p, o) = (o, p);
                    idx = idx.swapped();
                    assert_eq!(idx, Indices::of(p, o), "after a pass");
                    continue;
                }
                let mut mm = m;
                let mut chosen = None;
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let pick = seed % m.count_ones() as u64;
                let mut k = 0;
                while mm != 0 {
                    let sq = mm.trailing_zeros();
                    mm &= mm - 1;
                    let f = flips(p, o, sq);
                    let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
                    let next = idx.after(sq, f);
                    assert_eq!(next, Indices::of(np, no), "after {sq} from {p:#x} {o:#x}");
                    let s = stage(64 - (np | no).count_ones());
                    let fresh = evaluate(&weights[s * STAGE_SIZE..(s + 1) * STAGE_SIZE], np, no);
                    assert_eq!(evaluate_child(&weights, &idx, sq, f, np, no), fresh);
                    // The child's own indices give it too, on every path this CPU has.
                    assert_eq!(evaluate_indexed(&weights, &next, np, no), fresh);
                    assert_eq!(weights_sum_portable(&weights, &next.own, np, no), fresh);
                    #[cfg(target_arch = "x86_64")]
                    if crate::kernel::Kernel::Avx2.available() {
                        // SAFETY: just checked.
                        assert_eq!(unsafe { weights_sum_avx2(&weights, &next.own, np, no) }, fresh);
                    }
                    // Every build this CPU runs, whichever one `evaluate_child` picked here.
                    assert_eq!(evaluate_child_portable(&weights, &idx, sq, f, np, no), fresh);
                    #[cfg(target_arch = "x86_64")]
                    if crate::kernel::Kernel::Avx2.available() {
                        assert_eq!(
                            // SAFETY: just checked.
                            unsafe { evaluate_child_avx2(&weights, &idx, sq, f, np, no) },
                            fresh
                        );
                    }
                    checked += 1;
                    if k == pick {
                        chosen = Some((np, no, next));
                    }
                    k += 1;
                }
                let (np, no, next) = chosen.expect("a move was picked");
                (p, o, idx) = (np, no, next);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn images_follow_symmetry_order() {
        let mut seed = 5u64;
        for _ in 0..200 {
            let (p, _) = random_position(&mut seed);
            let want: Vec<u64> = Symmetry::ALL.iter().map(|s| s.apply_u64(p)).collect();
            assert_eq!(images_of(p).to_vec(), want);
        }
    }

    #[test]
    fn features_are_symmetric() {
        let mut seed = 77u64;
        for _ in 0..500 {
            let (p, o) = random_position(&mut seed);
            let mut base = features(p, o);
            base.sort_unstable();
            for s in Symmetry::ALL {
                let mut f = features(s.apply_u64(p), s.apply_u64(o));
                f.sort_unstable();
                assert_eq!(base, f);
            }
        }
    }
}
