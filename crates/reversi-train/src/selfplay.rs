//! Self-play games for training: the engine against itself from XOT openings and from random
//! openings, at a fixed level, deterministic from a seed.

use crate::dataset::mix;
use crate::replay::{is_over, play_random, START};
use reversi_core::bitboard::{flips, moves};
use reversi_engine::levels::Level;
use reversi_engine::Engine;
use std::sync::atomic::AtomicBool;

/// The opening of game `n`: an XOT line (even `n`, when `xot` is not empty) or a random
/// sequence of `random_plies` legal moves.
pub fn opening(n: u64, seed: u64, xot: &[Vec<u32>], random_plies: u32) -> Vec<u32> {
    let r = mix(seed ^ mix(n));
    if n.is_multiple_of(2) && !xot.is_empty() {
        return xot[(r % xot.len() as u64) as usize].clone();
    }
    let (mut p, mut o) = START;
    let mut out = Vec::new();
    let mut state = r;
    for _ in 0..random_plies {
        let m = moves(p, o);
        if m == 0 {
            break;
        }
        state = mix(state);
        let sq;
        (sq, p, o) = play_random(p, o, m, state);
        out.push(sq);
        if moves(p, o) == 0 {
            break;
        }
    }
    out
}

/// Plays game `n` from its opening to the end at `level` and returns its squares.
pub fn play(engine: &Engine, level: u32, n: u64, seed: u64, xot: &[Vec<u32>], random_plies: u32) -> Vec<u32> {
    let mut squares = opening(n, seed, xot, random_plies);
    let (mut p, mut o) = START;
    for &sq in &squares {
        if moves(p, o) == 0 {
            std::mem::swap(&mut p, &mut o);
        }
        let f = flips(p, o, sq);
        (p, o) = (o & !f, p | f | (1u64 << sq));
    }
    let stop = AtomicBool::new(false);
    let limits = Level::new(level).limits(mix(seed ^ n));
    while !is_over(p, o) {
        if moves(p, o) == 0 {
            std::mem::swap(&mut p, &mut o);
            continue;
        }
        let r = engine.search(p, o, &limits, &stop, &mut |_| {});
        let sq = r
            .best
            .map(u32::from)
            .unwrap_or_else(|| moves(p, o).trailing_zeros());
        let f = flips(p, o, sq);
        (p, o) = (o & !f, p | f | (1u64 << sq));
        squares.push(sq);
    }
    squares
}
