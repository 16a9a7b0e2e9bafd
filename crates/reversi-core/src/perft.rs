//! Perft: counting the leaves of the game tree (RULES.md §3).
//!
//! A forced pass counts as one ply; a finished game is a leaf wherever it ends.

use crate::bitboard::{Kernel, Scalar};
use crate::bits::Bits;
use crate::position::{AnyPosition, Position};
use crate::square::Move;

/// Leaves of the tree of `pos` cut at `depth` plies.
pub fn perft(pos: &AnyPosition, depth: u32) -> u64 {
    match pos {
        AnyPosition::Small(p) if is_plain_8x8(p) => {
            let (me, opp) = (p.discs(p.side_to_move()), p.discs(!p.side_to_move()));
            perft_8x8(me, opp, depth)
        }
        AnyPosition::Small(p) => perft_generic(p, depth),
        AnyPosition::Wide(p) => perft_generic(p, depth),
    }
}

fn is_plain_8x8(p: &Position<u64>) -> bool {
    p.playable() == u64::MAX && p.supply(p.side_to_move()).is_none() && !p.in_free_opening()
}

/// Perft on a full 8×8 board with no supply limit: `p` to move against `o`. Uses the fastest
/// kernel this CPU supports.
pub fn perft_8x8(p: u64, o: u64, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Some(k) = crate::bitboard::Avx512::detect() {
        if std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("popcnt") {
            // SAFETY: `detect` proved the CPU has AVX2 and AVX-512 F, VL and CD; BMI2 and
            // POPCNT were checked just above.
            return unsafe { avx512::perft(k, p, o, depth) };
        }
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(k) = crate::bitboard::Avx2::detect() {
        if std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("popcnt") {
            // SAFETY: `detect` proved the CPU has AVX2; BMI2 and POPCNT (which every AVX2 CPU
            // of both vendors has) were checked just above.
            return unsafe { avx2::perft(k, p, o, depth) };
        }
    }
    // SAFETY: the scalar kernel has no CPU requirement.
    unsafe { scalar::perft(Scalar, p, o, depth) }
}

/// The same count with the portable kernel (to test and compare kernels).
pub fn perft_8x8_scalar(p: u64, o: u64, depth: u32) -> u64 {
    // SAFETY: the scalar kernel has no CPU requirement.
    unsafe { scalar::perft(Scalar, p, o, depth) }
}

/// One recursive perft per kernel, so that the whole recursion is compiled with the kernel's
/// CPU features and the kernel inlines into it.
macro_rules! perft_for_kernel {
    ($modname:ident, $kernel:ty, $($attr:meta),*) => {
        mod $modname {
            #[allow(unused_imports)]
            use super::*;

            $(#[$attr])*
            pub(super) unsafe fn perft(k: $kernel, p: u64, o: u64, depth: u32) -> u64 {
                if depth == 0 {
                    return 1;
                }
                let m = k.moves(p, o);
                if m == 0 {
                    if k.moves(o, p) == 0 {
                        return 1; // game over: a leaf at every depth
                    }
                    return if depth == 1 { 1 } else { perft(k, o, p, depth - 1) };
                }
                if depth == 1 {
                    return m.count_ones() as u64;
                }
                let mut m = m;
                let mut n = 0;
                while m != 0 {
                    let sq = m.trailing_zeros();
                    m &= m - 1;
                    let f = k.flips(p, o, sq);
                    let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                    n += if depth == 2 {
                        // Leaves one ply below: the move count, or 1 for a pass or a finished game.
                        let cm = k.moves(np, no);
                        if cm != 0 { cm.count_ones() as u64 } else { 1 }
                    } else {
                        perft(k, np, no, depth - 1)
                    };
                }
                n
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
perft_for_kernel!(
    avx2,
    crate::bitboard::Avx2,
    target_feature(enable = "avx2,bmi2,popcnt")
);
#[cfg(target_arch = "x86_64")]
perft_for_kernel!(
    avx512,
    crate::bitboard::Avx512,
    target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512vl,avx512cd")
);
perft_for_kernel!(scalar, Scalar, inline(never));

/// Perft for any position (every variant), through the general position API.
pub fn perft_generic<B: Bits>(pos: &Position<B>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let m = pos.legal_moves();
    if m.is_empty() {
        if pos.moves_of(!pos.side_to_move()).is_empty() {
            return 1;
        }
        let mut next = *pos;
        next.play_unchecked(Move::Pass);
        return perft_generic(&next, depth - 1);
    }
    if depth == 1 {
        return m.count() as u64;
    }
    m.squares()
        .map(|sq| {
            let mut next = *pos;
            next.play_unchecked(Move::Play(sq));
            perft_generic(&next, depth - 1)
        })
        .sum()
}

/// Perft split by first move: each legal move (or the pass) with its leaf count at `depth - 1`.
pub fn divide(pos: &AnyPosition, depth: u32) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = if pos.legal_moves().is_empty() {
        if pos.is_game_over() {
            return Vec::new();
        }
        vec![Move::Pass]
    } else {
        pos.legal_moves().squares().map(Move::Play).collect()
    };
    moves
        .into_iter()
        .map(|mv| {
            let mut next = *pos;
            next.play(mv).expect("legal");
            (mv, perft(&next, depth.saturating_sub(1)))
        })
        .collect()
}
