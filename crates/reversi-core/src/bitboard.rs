//! The 8×8 fast path: move generation and flips on two `u64` bitboards.
//!
//! Bit `row * 8 + col` is a square (`a1` = bit 0, `h8` = bit 63). Every function takes the
//! player to move (`p`) and the opponent (`o`) and is branch-free. [`moves`] and [`flips`] pick the
//! fastest kernel for this CPU at run time; the [`Kernel`] implementations let a hot loop choose
//! once and be compiled for that kernel (see `perft`).

/// All squares but column `a` (bits that may receive a disc shifted east).
pub const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
/// All squares but column `h`.
pub const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
/// Columns `b`–`g`: the squares that can be inside a horizontal or diagonal line.
const INNER_COLS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Legal moves of `p` against `o` (Kogge–Stone fill in the four axis pairs).
#[inline(always)]
pub fn moves_scalar(p: u64, o: u64) -> u64 {
    #[inline(always)]
    fn dir(p: u64, m: u64, s: u32) -> u64 {
        // Doubling fill: at most six opponent discs lie between a player disc and a move.
        let mut l = m & (p << s);
        let mut r = m & (p >> s);
        l |= m & (l << s);
        r |= m & (r >> s);
        let pl = m & (m << s);
        let pr = pl >> s;
        l |= pl & (l << (2 * s));
        r |= pr & (r >> (2 * s));
        l |= pl & (l << (2 * s));
        r |= pr & (r >> (2 * s));
        (l << s) | (r >> s)
    }
    let inner = o & INNER_COLS;
    let m = dir(p, inner, 1) | dir(p, o, 8) | dir(p, inner, 7) | dir(p, inner, 9);
    m & !(p | o)
}

/// Ray masks from each square in each of the eight directions (square itself excluded).
/// Directions 0..4 point to higher bits (E, SW, S, SE), 4..8 to lower bits (W, NE, N, NW).
static RAYS: [[u64; 8]; 64] = {
    let mut t = [[0u64; 8]; 64];
    const D: [(i32, i32); 8] = [
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
        (-1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
    ];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = D[d];
            let mut x = (sq % 8) as i32 + dx;
            let mut y = (sq / 8) as i32 + dy;
            let mut m = 0u64;
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                m |= 1u64 << (y * 8 + x);
                x += dx;
                y += dy;
            }
            t[sq][d] = m;
            d += 1;
        }
        sq += 1;
    }
    t
};

/// Discs of `o` flipped when `p` plays on bit `sq` (0..64); zero if the move flips nothing.
/// `sq` must be empty.
#[inline(always)]
pub fn flips_scalar(p: u64, o: u64, sq: u32) -> u64 {
    let rays = &RAYS[sq as usize];
    let mut f = 0;
    // Rays towards higher bits: the carry of `+ lowest ray bit` runs through the opponent run and
    // stops on the first square that is not the opponent's.
    let mut d = 0;
    while d < 4 {
        let ray = rays[d];
        let low = ray & ray.wrapping_neg();
        let outflank = ((o | !ray).wrapping_add(low)) & ray & p;
        f |= outflank.wrapping_sub((outflank != 0) as u64) & ray;
        d += 1;
    }
    // Rays towards lower bits: the highest ray square that is not the opponent's.
    while d < 8 {
        let ray = rays[d];
        let stop = ray & !o;
        let top = (1u64 << 63) >> (stop | 1).leading_zeros();
        let outflank = top & p & stop;
        f |= ray & (outflank.wrapping_neg() << 1);
        d += 1;
    }
    f
}

/// A move-generation kernel; the whole hot loop is instantiated once per kernel so that the
/// CPU-specific code inlines (see [`crate::perft`]).
pub trait Kernel: Copy {
    /// Legal moves of `p` against `o`.
    fn moves(self, p: u64, o: u64) -> u64;
    /// Discs flipped by `p` playing on bit `sq`.
    fn flips(self, p: u64, o: u64, sq: u32) -> u64;
}

/// Portable kernel: plain 64-bit integer code, runs on any CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scalar;

impl Kernel for Scalar {
    #[inline(always)]
    fn moves(self, p: u64, o: u64) -> u64 {
        moves_scalar(p, o)
    }
    #[inline(always)]
    fn flips(self, p: u64, o: u64, sq: u32) -> u64 {
        flips_scalar(p, o, sq)
    }
}

#[cfg(target_arch = "x86_64")]
pub use x86::{flips_avx2, flips_avx512, moves_avx2, moves_avx512, Avx2, Avx512};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use std::arch::x86_64::*;

    /// AVX2 kernel: the four direction pairs filled side by side in one 256-bit register.
    /// Construct it only through [`Avx2::detect`], which proves the CPU supports AVX2.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx2(());

    impl Avx2 {
        /// The kernel, if this CPU has AVX2.
        pub fn detect() -> Option<Avx2> {
            is_x86_feature_detected!("avx2").then_some(Avx2(()))
        }
    }

    impl Kernel for Avx2 {
        #[inline(always)]
        fn moves(self, p: u64, o: u64) -> u64 {
            // SAFETY: an `Avx2` value exists only when the CPU supports AVX2.
            unsafe { moves_avx2(p, o) }
        }
        #[inline(always)]
        fn flips(self, p: u64, o: u64, sq: u32) -> u64 {
            // SAFETY: an `Avx2` value exists only when the CPU supports AVX2.
            unsafe { flips_avx2(p, o, sq) }
        }
    }

    /// The rays from `sq` towards higher bits and towards lower bits, four to a register.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn rays_of(sq: u32) -> (__m256i, __m256i) {
        let rays = &RAYS[sq as usize];
        // SAFETY: `rays` is 8 `u64`s: two unaligned 256-bit loads stay inside it.
        unsafe {
            (
                _mm256_loadu_si256(rays.as_ptr() as *const __m256i),
                _mm256_loadu_si256(rays.as_ptr().add(4) as *const __m256i),
            )
        }
    }

    /// The OR of the four 64-bit lanes of `v`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn or_lanes(v: __m256i) -> u64 {
        let v2 = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        _mm_cvtsi128_si64(_mm_or_si128(v2, _mm_unpackhi_epi64(v2, v2))) as u64
    }

    /// Discs of `o` flipped when `p` plays on bit `sq` (empty), with AVX2: the four rays
    /// towards higher bits in one register, the four towards lower bits in another.
    ///
    /// Towards higher bits a carry runs through the opponent's run, as in [`flips_scalar`].
    /// Towards lower bits the first square that is not the opponent's is the highest set bit of
    /// a ray; AVX2 has no vector bit scan, so each ray is filled downwards from it (3 shifts)
    /// and the fill's top bit kept. The compiler's own vectorisation of the scalar code
    /// emulates the bit scan instead, at about twice the instructions.
    ///
    /// # Safety
    /// Safe to call from code compiled with AVX2; elsewhere the caller must check the CPU.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn flips_avx2(p: u64, o: u64, sq: u32) -> u64 {
        let (hi, lo) = rays_of(sq);
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();
        let ones = _mm256_cmpeq_epi64(zero, zero);

        // Higher bits: (o | !ray) + lowest ray bit carries up to the first non-opponent square.
        let low = _mm256_and_si256(hi, _mm256_sub_epi64(zero, hi));
        let carry = _mm256_add_epi64(_mm256_or_si256(oo, _mm256_xor_si256(hi, ones)), low);
        let out_hi = _mm256_and_si256(_mm256_and_si256(carry, hi), pp);
        // The run below the outflanking disc, none when there is no such disc.
        let run = _mm256_and_si256(_mm256_add_epi64(out_hi, ones), hi);
        let f_hi = _mm256_andnot_si256(_mm256_cmpeq_epi64(out_hi, zero), run);

        // Lower bits (directions W, NE, N, NW: steps 1, 7, 8, 9).
        let step = _mm256_set_epi64x(9, 8, 7, 1);
        let stop = _mm256_andnot_si256(oo, lo);
        let mut fill = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, step));
        fill = _mm256_or_si256(fill, _mm256_srlv_epi64(fill, _mm256_add_epi64(step, step)));
        fill = _mm256_or_si256(fill, _mm256_srlv_epi64(fill, _mm256_slli_epi64(step, 2)));
        let top = _mm256_andnot_si256(_mm256_srlv_epi64(fill, step), fill);
        let out_lo = _mm256_and_si256(top, pp);
        // Every ray square above the outflanking disc (all opponent's by construction).
        let f_lo = _mm256_and_si256(lo, _mm256_sub_epi64(zero, _mm256_add_epi64(out_lo, out_lo)));

        or_lanes(_mm256_or_si256(f_hi, f_lo))
    }

    /// Legal moves of `p` against `o` with AVX2: the four direction pairs side by side.
    ///
    /// # Safety
    /// Safe to call from code compiled with AVX2; elsewhere the caller must check the CPU.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn moves_avx2(p: u64, o: u64) -> u64 {
        let shift1 = _mm256_set_epi64x(7, 9, 8, 1);
        let shift2 = _mm256_set_epi64x(14, 18, 16, 2);
        let pp = _mm256_set1_epi64x(p as i64);
        let mask = _mm256_and_si256(
            _mm256_set1_epi64x(o as i64),
            _mm256_set_epi64x(INNER_COLS as i64, INNER_COLS as i64, -1, INNER_COLS as i64),
        );
        let mut l = _mm256_and_si256(mask, _mm256_sllv_epi64(pp, shift1));
        let mut r = _mm256_and_si256(mask, _mm256_srlv_epi64(pp, shift1));
        l = _mm256_or_si256(l, _mm256_and_si256(mask, _mm256_sllv_epi64(l, shift1)));
        r = _mm256_or_si256(r, _mm256_and_si256(mask, _mm256_srlv_epi64(r, shift1)));
        let pl = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, shift1));
        let pr = _mm256_srlv_epi64(pl, shift1);
        l = _mm256_or_si256(l, _mm256_and_si256(pl, _mm256_sllv_epi64(l, shift2)));
        r = _mm256_or_si256(r, _mm256_and_si256(pr, _mm256_srlv_epi64(r, shift2)));
        l = _mm256_or_si256(l, _mm256_and_si256(pl, _mm256_sllv_epi64(l, shift2)));
        r = _mm256_or_si256(r, _mm256_and_si256(pr, _mm256_srlv_epi64(r, shift2)));
        let m = _mm256_or_si256(_mm256_sllv_epi64(l, shift1), _mm256_srlv_epi64(r, shift1));
        or_lanes(m) & !(p | o)
    }
    /// AVX-512 kernel (F, VL and CD): the lower rays of [`flips_avx512`] found with a vector
    /// leading-zero count, [`moves_avx512`] filling all eight directions in one 512-bit register.
    /// Construct it only through [`Avx512::detect`], which proves the CPU supports it.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx512(());

    impl Avx512 {
        /// The kernel, if this CPU has AVX2 and AVX-512 F, VL and CD.
        pub fn detect() -> Option<Avx512> {
            (is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("avx512cd"))
            .then_some(Avx512(()))
        }
    }

    impl Kernel for Avx512 {
        #[inline(always)]
        fn moves(self, p: u64, o: u64) -> u64 {
            // SAFETY: an `Avx512` value exists only when the CPU supports these features.
            unsafe { moves_avx512(p, o) }
        }
        #[inline(always)]
        fn flips(self, p: u64, o: u64, sq: u32) -> u64 {
            // SAFETY: an `Avx512` value exists only when the CPU supports these features.
            unsafe { flips_avx512(p, o, sq) }
        }
    }

    /// `a | !b`, `a & b & c` and `a | (b & c)` as `vpternlogq` truth tables.
    const A_OR_NOT_B: i32 = 0xF3;
    const AND3: i32 = 0x80;
    const A_OR_B_AND_C: i32 = 0xF8;

    /// Discs of `o` flipped when `p` plays on bit `sq` (empty), with AVX-512 on 256-bit
    /// registers: as [`flips_avx2`], but the first non-opponent square of each lower ray is
    /// found with one leading-zero count instead of a three-step fill, and pairs of logic
    /// operations are fused into ternary ones.
    ///
    /// # Safety
    /// The CPU must support AVX2 and AVX-512 F, VL and CD.
    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
    pub fn flips_avx512(p: u64, o: u64, sq: u32) -> u64 {
        let (hi, lo) = rays_of(sq);
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();

        // Higher bits: (o | !ray) + lowest ray bit carries up to the first non-opponent square.
        let low = _mm256_and_si256(hi, _mm256_sub_epi64(zero, hi));
        let carry = _mm256_add_epi64(_mm256_ternarylogic_epi64::<A_OR_NOT_B>(oo, hi, hi), low);
        let out_hi = _mm256_ternarylogic_epi64::<AND3>(carry, hi, pp);
        // The run below the outflanking disc, none when there is no such disc.
        let found = _mm256_test_epi64_mask(out_hi, out_hi);
        let f_hi = _mm256_maskz_and_epi64(found, _mm256_sub_epi64(out_hi, _mm256_set1_epi64x(1)), hi);

        // Lower bits: the highest ray square that is not the opponent's (none: a count of 64,
        // and a shift by 64 gives zero).
        let stop = _mm256_andnot_si256(oo, lo);
        let top = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(stop));
        let out_lo = _mm256_and_si256(top, pp);
        // Every ray square above the outflanking disc (all opponent's by construction).
        let f_lo = _mm256_and_si256(lo, _mm256_sub_epi64(zero, _mm256_add_epi64(out_lo, out_lo)));

        or_lanes(_mm256_or_si256(f_hi, f_lo))
    }

    /// Legal moves of `p` against `o` with AVX-512: all eight directions in one 512-bit
    /// register. Shifts towards lower bits are rotations the other way; the opponent's discs
    /// are masked to the squares that can lie inside a line in each direction (rows 2–7 for
    /// vertical and diagonal lines, columns b–g for horizontal and diagonal ones), which also
    /// discards every bit a rotation wraps around.
    ///
    /// # Safety
    /// The CPU must support AVX2 and AVX-512 F, VL and CD.
    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
    pub fn moves_avx512(p: u64, o: u64) -> u64 {
        const ROWS: i64 = 0x00FF_FFFF_FFFF_FF00;
        const COLS: i64 = INNER_COLS as i64;
        const DIAG: i64 = ROWS & COLS;
        let shift1 = _mm512_set_epi64(57, 55, 56, 63, 7, 9, 8, 1);
        let shift2 = _mm512_set_epi64(50, 46, 48, 62, 14, 18, 16, 2);
        let inside = _mm512_set_epi64(DIAG, DIAG, ROWS, COLS, DIAG, DIAG, ROWS, COLS);
        let pp = _mm512_set1_epi64(p as i64);
        let mask = _mm512_and_si512(_mm512_set1_epi64(o as i64), inside);
        let mut l = _mm512_and_si512(mask, _mm512_rolv_epi64(pp, shift1));
        l = _mm512_ternarylogic_epi64::<A_OR_B_AND_C>(l, mask, _mm512_rolv_epi64(l, shift1));
        let pairs = _mm512_and_si512(mask, _mm512_rolv_epi64(mask, shift1));
        l = _mm512_ternarylogic_epi64::<A_OR_B_AND_C>(l, pairs, _mm512_rolv_epi64(l, shift2));
        l = _mm512_ternarylogic_epi64::<A_OR_B_AND_C>(l, pairs, _mm512_rolv_epi64(l, shift2));
        let m = _mm512_rolv_epi64(l, shift1);
        or_lanes(_mm256_or_si256(
            _mm512_castsi512_si256(m),
            _mm512_extracti64x4_epi64::<1>(m),
        )) & !(p | o)
    }
}

/// Legal moves of `p` against `o`, with the fastest kernel this CPU has.
#[inline]
pub fn moves(p: u64, o: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: just checked that the CPU supports AVX2.
        return unsafe { x86::moves_avx2(p, o) };
    }
    moves_scalar(p, o)
}

/// Discs of `o` flipped when `p` plays on bit `sq`.
#[inline]
pub fn flips(p: u64, o: u64, sq: u32) -> u64 {
    flips_scalar(p, o, sq)
}

/// Every square next to a square of `b`, in the eight directions (potential mobility counts the
/// empty ones next to the opponent's discs).
#[inline(always)]
pub const fn around(b: u64) -> u64 {
    // The diagonal neighbours are the horizontal ones moved a row up or down: shifting `b`
    // with its horizontal neighbours by a row covers both at once.
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let x = b | h;
    h | (x << 8) | (x >> 8)
}

/// Mirror top to bottom (row 1 ↔ row 8).
#[inline]
pub const fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

/// Mirror left to right (column a ↔ column h).
#[inline]
pub const fn flip_horizontal(b: u64) -> u64 {
    let b = ((b >> 1) & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    let b = ((b >> 2) & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    ((b >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((b & 0x0F0F_0F0F_0F0F_0F0F) << 4)
}

/// Mirror in the `a1`–`h8` diagonal (transpose: `b1` ↔ `a2`).
#[inline]
pub const fn flip_diagonal(b: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (b ^ (b << 28));
    let b = b ^ t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (b ^ (b << 14));
    let b = b ^ t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The eight directions as (file, rank) steps.
    const DIRECTIONS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];

    /// Square-by-square reference, deliberately naive.
    fn naive_flips(p: u64, o: u64, sq: u32) -> u64 {
        let (x0, y0) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut all = 0;
        for (dx, dy) in DIRECTIONS {
            let (mut x, mut y, mut run) = (x0 + dx, y0 + dy, 0u64);
            while (0..8).contains(&x) && (0..8).contains(&y) {
                let bit = 1u64 << (y * 8 + x);
                if o & bit != 0 {
                    run |= bit;
                } else {
                    if p & bit != 0 {
                        all |= run;
                    }
                    break;
                }
                x += dx;
                y += dy;
            }
        }
        all
    }

    /// `around` equals a square-by-square scan of the eight neighbours.
    #[test]
    fn around_equals_neighbour_scan() {
        let naive = |b: u64| {
            let mut m = 0u64;
            for sq in 0..64i32 {
                let (x, y) = (sq % 8, sq / 8);
                for (dx, dy) in DIRECTIONS {
                    let (nx, ny) = (x + dx, y + dy);
                    if (0..8).contains(&nx) && (0..8).contains(&ny) && b >> (ny * 8 + nx) & 1 == 1 {
                        m |= 1 << sq;
                    }
                }
            }
            m
        };
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for k in 0..2000 {
            let r = xorshift(&mut seed);
            let b = match k % 3 {
                0 => r,
                1 => r & xorshift(&mut seed) & xorshift(&mut seed),
                _ => 1u64 << (r % 64),
            };
            assert_eq!(around(b), naive(b), "b={b:#x}");
        }
        assert_eq!(around(u64::MAX), u64::MAX);
        assert_eq!(around(1), 0x302);
    }

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn kernels_agree_with_naive_on_random_boards() {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            let a = xorshift(&mut s);
            let b = xorshift(&mut s);
            let (p, o) = (a & b, !a & xorshift(&mut s));
            let empty = !(p | o);
            let mut naive_moves = 0;
            for sq in 0..64 {
                if empty >> sq & 1 == 1 {
                    let f = naive_flips(p, o, sq);
                    assert_eq!(flips_scalar(p, o, sq), f, "p={p:#x} o={o:#x} sq={sq}");
                    #[cfg(target_arch = "x86_64")]
                    if Avx2::detect().is_some() {
                        // SAFETY: the CPU has AVX2.
                        assert_eq!(unsafe { flips_avx2(p, o, sq) }, f, "p={p:#x} o={o:#x} sq={sq}");
                    }
                    #[cfg(target_arch = "x86_64")]
                    if let Some(k) = Avx512::detect() {
                        assert_eq!(k.flips(p, o, sq), f, "p={p:#x} o={o:#x} sq={sq}");
                    }
                    if f != 0 {
                        naive_moves |= 1 << sq;
                    }
                }
            }
            assert_eq!(moves_scalar(p, o), naive_moves);

            assert_eq!(moves(p, o), naive_moves);
            #[cfg(target_arch = "x86_64")]
            if let Some(k) = Avx2::detect() {
                assert_eq!(k.moves(p, o), naive_moves);
            }
            #[cfg(target_arch = "x86_64")]
            if let Some(k) = Avx512::detect() {
                assert_eq!(k.moves(p, o), naive_moves, "p={p:#x} o={o:#x}");
            }
        }
    }

    #[test]
    fn symmetries_are_involutions() {
        let b = 0x0123_4567_89AB_CDEFu64;
        assert_eq!(flip_vertical(flip_vertical(b)), b);
        assert_eq!(flip_horizontal(flip_horizontal(b)), b);
        assert_eq!(flip_diagonal(flip_diagonal(b)), b);
        assert_eq!(flip_diagonal(1 << 1), 1 << 8); // b1 -> a2
        assert_eq!(flip_horizontal(1), 1 << 7); // a1 -> h1
    }
}
