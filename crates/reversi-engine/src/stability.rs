//! Stable discs: discs that can never be flipped again. Their count bounds the final score, which
//! lets the endgame solver cut a node without searching it.

use reversi_core::bitboard::{NOT_A, NOT_H};

const EDGE: u64 = 0xFF81_8181_8181_81FF;
const COLS_AH: u64 = 0x8181_8181_8181_8181;
const ROWS_18: u64 = 0xFF00_0000_0000_00FF;

/// Masks of the 15 diagonals (`a1`–`h8` direction) and 15 anti-diagonals.
static DIAGONALS: ([u64; 15], [u64; 15]) = {
    let mut d = [0u64; 15];
    let mut a = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = (sq % 8, sq / 8);
        d[x + 7 - y] |= 1 << sq;
        a[x + y] |= 1 << sq;
        sq += 1;
    }
    (d, a)
};

/// Squares lying on a completely filled line in each of the four axes.
#[inline]
fn full_lines(filled: u64) -> (u64, u64, u64, u64) {
    let mut h = 0;
    for r in 0..8 {
        let row = 0xFFu64 << (8 * r);
        if filled & row == row {
            h |= row;
        }
    }
    let mut v = filled;
    v &= v.rotate_right(8);
    v &= v.rotate_right(16);
    v &= v.rotate_right(32);
    let (ds, as_) = &DIAGONALS;
    let mut d = 0;
    let mut a = 0;
    for i in 0..15 {
        if filled & ds[i] == ds[i] {
            d |= ds[i];
        }
        if filled & as_[i] == as_[i] {
            a |= as_[i];
        }
    }
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
