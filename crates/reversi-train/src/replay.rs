//! Replaying a game's squares into 8×8 bitboard positions, and the canonical form under the
//! eight symmetries.

use reversi_core::bitboard::{flips, moves};

/// The standard start: black on d5 and e4, white on d4 and e5; black to move.
pub const START: (u64, u64) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);

/// One position of a game: discs of the side to move, of the other side, and who moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// Discs of the side to move.
    pub p: u64,
    /// Discs of the other side.
    pub o: u64,
    /// Whether black is to move.
    pub black: bool,
}

impl Ply {
    /// Black's final margin (empties to the winner) of a finished position.
    pub fn black_margin(&self) -> i32 {
        let margin = reversi_engine::endgame::final_score(self.p, self.o);
        if self.black {
            margin
        } else {
            -margin
        }
    }
}

/// Plays one of the legal moves `m` (not empty) of the side to move `p`, the one `r` picks:
/// returns the square and the position after it (the other side to move).
pub(crate) fn play_random(p: u64, o: u64, m: u64, r: u64) -> (u32, u64, u64) {
    let mut mm = m;
    for _ in 0..r % m.count_ones() as u64 {
        mm &= mm - 1;
    }
    let sq = mm.trailing_zeros();
    let f = flips(p, o, sq);
    (sq, o & !f, p | f | (1u64 << sq))
}

/// Replays `squares` (bit indices, passes implicit) from `start` with black to move. Returns the
/// positions before each move and the final position, or the index of the first illegal move.
pub fn replay(start: (u64, u64), squares: &[u32]) -> Result<(Vec<Ply>, Ply), usize> {
    let (mut p, mut o) = start;
    let mut black = true;
    let mut plies = Vec::with_capacity(squares.len());
    for (i, &sq) in squares.iter().enumerate() {
        if moves(p, o) == 0 {
            if moves(o, p) == 0 {
                return Err(i);
            }
            std::mem::swap(&mut p, &mut o);
            black = !black;
        }
        if moves(p, o) >> sq & 1 == 0 {
            return Err(i);
        }
        plies.push(Ply { p, o, black });
        let f = flips(p, o, sq);
        let np = p | f | (1u64 << sq);
        let no = o & !f;
        p = no;
        o = np;
        black = !black;
    }
    if moves(p, o) == 0 && moves(o, p) != 0 {
        std::mem::swap(&mut p, &mut o);
        black = !black;
    }
    Ok((plies, Ply { p, o, black }))
}

/// Whether neither side can move.
pub fn is_over(p: u64, o: u64) -> bool {
    moves(p, o) == 0 && moves(o, p) == 0
}

/// The least of the eight images of `(p, o)`: equal for all symmetric positions.
pub fn canonical(p: u64, o: u64) -> (u64, u64) {
    let (p, o, _) = reversi_core::symmetry::canonical_u64(p, o);
    (p, o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::Symmetry;

    #[test]
    fn replays_a_wipeout() {
        // f5d6c5f4e3f6g5e6e7: white wiped out after nine moves (a shortest game).
        let sq = |s: &str| {
            let b = s.as_bytes();
            (b[0] - b'a') as u32 + 8 * (b[1] - b'1') as u32
        };
        let squares: Vec<u32> = ["f5", "d6", "c5", "f4", "e3", "f6", "g5", "e6", "e7"]
            .map(sq)
            .to_vec();
        let (plies, last) = replay(START, &squares).unwrap();
        assert_eq!(plies.len(), 9);
        assert!(is_over(last.p, last.o));
        assert_eq!(last.black_margin(), 64);
        assert_eq!(replay(START, &[sq("a1")]), Err(0));
    }

    #[test]
    fn canonical_is_symmetric() {
        let (p, o) = (0x0000_0018_3C00_0100u64, 0x0102_0400_0000_0000u64);
        let c = canonical(p, o);
        for s in Symmetry::ALL {
            assert_eq!(canonical(s.apply_u64(p), s.apply_u64(o)), c);
        }
    }
}
