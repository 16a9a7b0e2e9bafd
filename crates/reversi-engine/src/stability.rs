//! Stable discs: discs that can never be flipped again. Their count bounds the final score, which
//! lets the endgame solver cut a node without searching it.

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

/// [`stable_discs`] on a board made of the squares in `mask`: a missing square ends a line just
/// as the edge does, so a disc next to one cannot be flipped along that axis.
#[inline]
pub fn stable_discs_on(p: u64, o: u64, mask: u64) -> u64 {
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
