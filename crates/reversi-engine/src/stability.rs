//! Stable discs: discs that can never be flipped again. Their count bounds the final score, which
//! lets the endgame solver cut a node without searching it.

use crate::ternary::TERNARY;
use reversi_core::bitboard::{NOT_A, NOT_H};

const EDGE: u64 = 0xFF81_8181_8181_81FF;
const COLS_AH: u64 = 0x8181_8181_8181_8181;
const ROWS_18: u64 = 0xFF00_0000_0000_00FF;

/// The columns `from..=to` (a = 0).
const fn cols(from: u32, to: u32) -> u64 {
    let mut m = 0;
    let mut x = from;
    while x <= to {
        m |= 0x0101_0101_0101_0101 << x;
        x += 1;
    }
    m
}

/// The rows `from..=to` (rank 1 = 0).
const fn rows(from: u32, to: u32) -> u64 {
    let mut m = 0;
    let mut y = from;
    while y <= to {
        m |= 0xFF << (8 * y);
        y += 1;
    }
    m
}

/// Squares from which every square along direction `+s` (bit index rising by `s`) is filled up
/// to the edge. `edge[k]` are the squares with fewer than `2^k` squares left that way: doubling
/// the reach three times covers a whole line.
#[inline(always)]
fn filled_up(f: u64, s: u32, edge: [u64; 3]) -> u64 {
    let r = f & ((f >> s) | edge[0]);
    let r = r & ((r >> (2 * s)) | edge[1]);
    r & ((r >> (4 * s)) | edge[2])
}

/// [`filled_up`] in direction `-s`.
#[inline(always)]
fn filled_down(f: u64, s: u32, edge: [u64; 3]) -> u64 {
    let r = f & ((f << s) | edge[0]);
    let r = r & ((r << (2 * s)) | edge[1]);
    r & ((r << (4 * s)) | edge[2])
}

/// Squares lying on a completely filled line in each of the four axes (horizontal, vertical,
/// `a1`–`h8` diagonal, anti-diagonal).
#[inline]
fn full_lines(filled: u64) -> (u64, u64, u64, u64) {
    // A row is full when its 8 bits are: fold them onto the a-file, then spread back.
    let mut h = filled;
    h &= h >> 1;
    h &= h >> 2;
    h &= h >> 4;
    let h = (h & 0x0101_0101_0101_0101).wrapping_mul(0xFF);
    let mut v = filled;
    v &= v.rotate_right(8);
    v &= v.rotate_right(16);
    v &= v.rotate_right(32);
    let up_right = [
        cols(7, 7) | rows(7, 7),
        cols(6, 7) | rows(6, 7),
        cols(4, 7) | rows(4, 7),
    ];
    let down_left = [
        cols(0, 0) | rows(0, 0),
        cols(0, 1) | rows(0, 1),
        cols(0, 3) | rows(0, 3),
    ];
    let up_left = [
        cols(0, 0) | rows(7, 7),
        cols(0, 1) | rows(6, 7),
        cols(0, 3) | rows(4, 7),
    ];
    let down_right = [
        cols(7, 7) | rows(0, 0),
        cols(6, 7) | rows(0, 1),
        cols(4, 7) | rows(0, 3),
    ];
    let d = filled_up(filled, 9, up_right) & filled_down(filled, 9, down_left);
    let a = filled_up(filled, 7, up_left) & filled_down(filled, 7, down_right);
    (h, v, d, a)
}

/// The discs of `p` that can never be flipped, whatever is played (a subset of the truly stable
/// discs: it finds discs on full lines, and discs anchored to stable neighbours on every axis).
pub fn stable_discs(p: u64, o: u64) -> u64 {
    stable_discs_on(p, o, u64::MAX)
}

/// The corners of a board made of the squares in `mask`: squares with a missing (or off-board)
/// neighbour on every axis, so a disc there can never be flipped.
pub fn corners_of(mask: u64) -> u64 {
    let gone = !mask;
    let h = ((gone << 1) & NOT_A) | ((gone >> 1) & NOT_H) | COLS_AH;
    let v = (gone << 8) | (gone >> 8) | ROWS_18;
    let d = ((gone << 9) & NOT_A) | ((gone >> 9) & NOT_H) | EDGE;
    let a = ((gone << 7) & NOT_H) | ((gone >> 7) & NOT_A) | EDGE;
    mask & h & v & d & a
}

/// Discs of the opponent flipped along one line of 8 squares by a move at `x`, when the mover
/// owns the squares in `m` and the opponent those in `n` (the edge table here, the solver's
/// last-move counts).
pub(crate) const fn line_flips(m: u32, n: u32, x: u32) -> u32 {
    let mut f = 0;
    let mut run = 0;
    let mut y = x + 1;
    while y < 8 && n & (1 << y) != 0 {
        run |= 1 << y;
        y += 1;
    }
    if y < 8 && m & (1 << y) != 0 {
        f |= run;
    }
    run = 0;
    let mut y = x as i32 - 1;
    while y >= 0 && n & (1 << y) != 0 {
        run |= 1 << y;
        y -= 1;
    }
    if y >= 0 && m & (1 << y) != 0 {
        f |= run;
    }
    f
}

/// The index of the edge where `p` owns the squares `p` and the opponent those of `o`: the edge
/// as a number in base 3 (a square's digit 0 empty, 1 `p`, 2 `o`), so that [`EDGE_STABLE`] has
/// only the 6,561 possible edges and stays in the first-level cache.
#[inline(always)]
const fn edge_index(p: usize, o: usize) -> usize {
    TERNARY[p] as usize + 2 * TERNARY[o] as usize
}

/// The discs of `p` on an edge that nothing can flip, by [`edge_index`] (`o` the opponent's
/// discs). A disc on an edge can be flipped only along the edge, so the edge alone decides;
/// every empty square is assumed playable by either side, with or without flips, which
/// over-counts the moves and so keeps the answer safe. Built from the full edges down: a disc
/// is stable when it is `p`'s and stays stable after every move.
static EDGE_STABLE: [u8; 6561] = {
    let mut t = [0u8; 6561];
    let mut empties = 0;
    while empties <= 8 {
        let mut i: u32 = 0;
        while i < 1 << 16 {
            let (p, o) = (i & 0xFF, i >> 8);
            if p & o == 0 && 8 - (p | o).count_ones() == empties {
                let mut stable = p;
                let mut x = 0;
                while x < 8 {
                    let b = 1 << x;
                    if (p | o) & b == 0 {
                        let f = line_flips(o, p, x);
                        stable &= t[edge_index((p & !f) as usize, (o | f | b) as usize)] as u32;
                        let f = line_flips(p, o, x);
                        stable &= t[edge_index((p | f | b) as usize, (o & !f) as usize)] as u32;
                    }
                    x += 1;
                }
                t[edge_index(p as usize, o as usize)] = stable as u8;
            }
            i += 1;
        }
        empties += 1;
    }
    t
};

/// The a-file folded into a byte (row `r` to one bit of it, the inverse of [`A_FILE`]).
#[inline(always)]
const fn a_file_byte(x: u64) -> usize {
    ((x & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// A byte of [`a_file_byte`] spread back onto the a-file.
static A_FILE: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut r = 0;
        while r < 8 {
            if a_file_byte(1 << (8 * r)) & b != 0 {
                t[b] |= 1 << (8 * r);
            }
            r += 1;
        }
        b += 1;
    }
    t
};

/// The stable discs of `p` on the four edges of the full board, by [`EDGE_STABLE`].
#[inline(always)]
fn edge_stable(p: u64, o: u64) -> u64 {
    let row = |shift: u32| {
        EDGE_STABLE[edge_index((p >> shift) as usize & 0xFF, (o >> shift) as usize & 0xFF)] as u64
    };
    let col = |shift: u32| EDGE_STABLE[edge_index(a_file_byte(p >> shift), a_file_byte(o >> shift))] as usize;
    row(0) | row(56) << 56 | A_FILE[col(0)] | A_FILE[col(7)] << 7
}

const INNER: u64 = 0x007E_7E7E_7E7E_7E00;

/// One round of anchoring: the inner discs of `p` safe on every axis, each axis by a full line
/// or by a neighbour on it in `anchors`.
#[inline(always)]
fn anchored(inner: u64, anchors: u64, (fh, fv, fd, fa): (u64, u64, u64, u64)) -> u64 {
    let s = anchors;
    let h = fh | ((s << 1) & NOT_A) | ((s >> 1) & NOT_H);
    let v = fv | (s << 8) | (s >> 8);
    let d = fd | ((s << 9) & NOT_A) | ((s >> 9) & NOT_H);
    let a = fa | ((s << 7) & NOT_H) | ((s >> 7) & NOT_A);
    inner & h & v & d & a
}

/// Where the search for the stable discs of `p` on the full board starts: the edges by table,
/// exactly, and the inner discs on four full lines; with the inner discs of `p` and the full
/// lines, for the rounds of anchoring that follow.
#[inline(always)]
fn seed(p: u64, o: u64) -> (u64, u64, (u64, u64, u64, u64)) {
    let lines = full_lines(p | o);
    let inner = p & INNER;
    (edge_stable(p, o) | anchored(inner, 0, lines), inner, lines)
}

/// [`stable_discs`] on the full 8×8 board: the [`seed`], then the inner discs anchored to stable
/// neighbours on every axis. The edges done at once, the anchoring spreads inwards in fewer
/// rounds than from the corners along the edges.
#[inline]
fn stable_discs_full(p: u64, o: u64) -> u64 {
    let (mut stable, inner, lines) = seed(p, o);
    loop {
        let s = stable;
        stable |= anchored(inner, s, lines);
        if stable == s {
            return stable;
        }
    }
}

/// Whether `p` has at least `need` stable discs (as [`stable_discs_on`] finds them) against `o`
/// on the board `mask`: `Some` of a count of stable discs that reaches `need`, or `None`.
/// Faster than counting them all: it stops once `need` is reached, and gives up early when even
/// the discs anchored to any disc of `p` would fall short.
#[inline(always)]
pub fn stable_at_least(p: u64, o: u64, mask: u64, need: u32) -> Option<u32> {
    if mask != u64::MAX {
        let n = stable_discs_masked(p, o, mask).count_ones();
        return (n >= need).then_some(n);
    }
    let (mut stable, inner, lines) = seed(p, o);
    let mut n = stable.count_ones();
    if n >= need {
        return Some(n);
    }
    // Every stable disc is anchored to stable ones, so to discs of `p`: the discs anchored to
    // `p` bound the final set from above.
    if (stable | anchored(inner, p, lines)).count_ones() < need {
        return None;
    }
    loop {
        let s = stable;
        stable |= anchored(inner, s, lines);
        n = stable.count_ones();
        if n >= need {
            return Some(n);
        }
        if stable == s {
            return None;
        }
    }
}

/// [`stable_discs`] on a board made of the squares in `mask`: a missing square ends a line just
/// as the edge does, so a disc next to one cannot be flipped along that axis.
#[inline]
pub fn stable_discs_on(p: u64, o: u64, mask: u64) -> u64 {
    if mask == u64::MAX {
        stable_discs_full(p, o)
    } else {
        stable_discs_masked(p, o, mask)
    }
}

/// [`stable_discs_on`] on any board: the edges found as the inner discs are, by anchoring (the
/// edge table knows only the full board's edges).
fn stable_discs_masked(p: u64, o: u64, mask: u64) -> u64 {
    let (fh, fv, fd, fa) = full_lines(p | o);
    let gone = !mask;
    // Squares with a missing neighbour on each axis (either side).
    let (gh, gv, gd, ga) = if gone == 0 {
        (0, 0, 0, 0)
    } else {
        (
            ((gone << 1) & NOT_A) | ((gone >> 1) & NOT_H),
            (gone << 8) | (gone >> 8),
            ((gone << 9) & NOT_A) | ((gone >> 9) & NOT_H),
            ((gone << 7) & NOT_H) | ((gone >> 7) & NOT_A),
        )
    };
    let h0 = fh | COLS_AH | gh;
    let v0 = fv | ROWS_18 | gv;
    let d0 = fd | EDGE | gd;
    let a0 = fa | EDGE | ga;
    let mut stable = p & h0 & v0 & d0 & a0;
    if stable == 0 {
        return 0;
    }
    loop {
        let s = stable;
        let h = h0 | ((s << 1) & NOT_A) | ((s >> 1) & NOT_H);
        let v = v0 | (s << 8) | (s >> 8);
        let d = d0 | ((s << 9) & NOT_A) | ((s >> 9) & NOT_H);
        let a = a0 | ((s << 7) & NOT_H) | ((s >> 7) & NOT_A);
        stable |= p & h & v & d & a;
        if stable == s {
            return stable;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_and_full_board() {
        assert_eq!(stable_discs(1, 0), 1);
        assert_eq!(stable_discs(0x0000_0000_0000_0003, 0), 3); // a1 b1
        assert_eq!(stable_discs(u64::MAX, 0), u64::MAX);
        assert_eq!(stable_discs(0x0000_0008_1000_0000, 0x0000_0010_0800_0000), 0);
        // A full row anchored at a corner: the whole row is stable.
        assert_eq!(stable_discs(0xFF, 0) & 0xFF, 0xFF);
        // On a 6×6 board (a1..f6), f1 is a corner.
        let six: u64 = (0..6).map(|r| 0x3Fu64 << (8 * r)).fold(0, |a, b| a | b);
        assert_eq!(stable_discs_on(1 << 5, 0, six), 1 << 5);
        assert_eq!(stable_discs(1 << 5, 0), 0);
        assert_eq!(corners_of(u64::MAX), 0x8100_0000_0000_0081);
        assert_eq!(corners_of(six), 1 | 1 << 5 | 1 << 40 | 1 << 45);
    }

    /// A random position: `p` and `o` disjoint, `empties` squares left (about).
    fn random_position(rnd: &mut impl FnMut() -> u64, empties: u32) -> (u64, u64) {
        let mut filled = u64::MAX;
        for _ in 0..empties {
            filled &= !(1 << (rnd() % 64));
        }
        let p = rnd() & filled;
        (p, filled & !p)
    }

    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    #[test]
    fn edge_table_examples() {
        // A full edge: all of it stable, for either side.
        assert_eq!(EDGE_STABLE[edge_index(0b1010_0110, 0b0101_1001)], 0b1010_0110);
        // A corner alone, and a run from it.
        assert_eq!(EDGE_STABLE[edge_index(0b0000_0001, 0)], 0b0000_0001);
        assert_eq!(EDGE_STABLE[edge_index(0b0000_0111, 0b0000_1000)], 0b0000_0111);
        // b1 next to an empty corner can be flipped (by a1 against a disc on c1).
        assert_eq!(EDGE_STABLE[edge_index(0b0000_0010, 0b0000_0100)], 0);
        // b1..g1 with both corners empty: nothing is safe.
        assert_eq!(EDGE_STABLE[edge_index(0b0111_1110, 0)], 0);
        // `p` on a1, b1 and h1, `o` on c1..g1: all of `p` safe, but none of `o`.
        assert_eq!(EDGE_STABLE[edge_index(0b1000_0011, 0b0111_1100)], 0b1000_0011);
        // A full edge but for d1: a1..c1 and e1..h1 anchored to the corners.
        assert_eq!(EDGE_STABLE[edge_index(0b1111_0111, 0)], 0b1111_0111);
        assert_eq!(EDGE_STABLE[edge_index(0b0001_0000, 0b1110_0111)], 0);
    }

    #[test]
    fn edge_table_finds_at_least_what_anchoring_finds() {
        // The table is exact on the edges; anchoring along them alone finds a subset.
        let mut rnd = xorshift(0xDEAD_BEEF);
        for i in 0..20_000 {
            let (p, o) = random_position(&mut rnd, i % 40);
            let full = stable_discs_full(p, o);
            let masked = stable_discs_masked(p, o, u64::MAX);
            assert_eq!(full & masked, masked, "p={p:#x} o={o:#x}");
        }
    }

    #[test]
    fn stable_at_least_agrees_with_the_count() {
        let mut rnd = xorshift(0x0BAD_CAFE);
        let six: u64 = (0..6).map(|r| 0x3Fu64 << (8 * r)).fold(0, |a, b| a | b);
        for i in 0..20_000 {
            let (p, o) = random_position(&mut rnd, i % 30);
            for mask in [u64::MAX, six] {
                let (p, o) = (p & mask, o & mask);
                let all = stable_discs_on(p, o, mask).count_ones();
                for need in [0, all.saturating_sub(3), all, all + 1, all + 5] {
                    match stable_at_least(p, o, mask, need) {
                        Some(k) => assert!(need <= k && k <= all, "p={p:#x} o={o:#x} need {need}"),
                        None => assert!(all < need, "p={p:#x} o={o:#x} need {need}"),
                    }
                }
            }
        }
    }

    /// The full lines by plain scanning of every line, for comparison.
    fn full_lines_by_scan(filled: u64) -> (u64, u64, u64, u64) {
        let full = |line: &dyn Fn(i32, i32) -> bool| -> u64 {
            let mut m = 0;
            for sq in 0..64 {
                let (x, y) = (sq % 8, sq / 8);
                let on_full_line = (0..64)
                    .filter(|&t| line(t % 8 - x, t / 8 - y))
                    .all(|t| filled >> t & 1 == 1);
                if on_full_line {
                    m |= 1 << sq;
                }
            }
            m
        };
        (
            full(&|_, dy| dy == 0),
            full(&|dx, _| dx == 0),
            full(&|dx, dy| dx == dy),
            full(&|dx, dy| dx == -dy),
        )
    }

    #[test]
    fn full_lines_equal_a_scan_of_every_line() {
        let mut seed = 0x9E37_79B9u64;
        for i in 0..3000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Dense boards, so that many lines are full.
            let filled = match i % 3 {
                0 => seed | seed.rotate_left(7),
                1 => seed | seed.rotate_left(7) | seed.rotate_left(29),
                _ => !(1u64 << (seed % 64)),
            };
            assert_eq!(
                full_lines(filled),
                full_lines_by_scan(filled),
                "filled={filled:#x}"
            );
        }
        assert_eq!(full_lines(u64::MAX), (u64::MAX, u64::MAX, u64::MAX, u64::MAX));
    }

    /// No disc reported stable is ever flipped later, in random games.
    #[test]
    fn stable_discs_never_flip() {
        use reversi_core::bitboard::{flips, moves};
        let mut seed = 0x1234_5678u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut found = 0;
        for _ in 0..300 {
            // [black, white] and the side to move.
            let mut discs = [0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64];
            let mut side = 0;
            let mut stable_so_far = [0u64; 2];
            loop {
                for c in 0..2 {
                    assert_eq!(
                        discs[c] & stable_so_far[c],
                        stable_so_far[c],
                        "a stable disc flipped"
                    );
                    let s = stable_discs(discs[c], discs[1 - c]);
                    found += (s & !stable_so_far[c]).count_ones();
                    stable_so_far[c] |= s;
                }
                let (p, o) = (discs[side], discs[1 - side]);
                let m = moves(p, o);
                if m == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    side = 1 - side;
                    continue;
                }
                let mut mm = m;
                for _ in 0..(rnd() % m.count_ones() as u64) {
                    mm &= mm - 1;
                }
                let sq = mm.trailing_zeros();
                let f = flips(p, o, sq);
                discs[side] = p ^ f ^ (1 << sq);
                discs[1 - side] = o ^ f;
                side = 1 - side;
            }
        }
        assert!(found > 1000, "{found}");
    }
}
