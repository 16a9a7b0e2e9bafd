//! More positions near the end of the game, for the stages whose labels the solver can give:
//! random play from the positions of real games down to a few empties. The new positions are
//! added unlabelled; [`crate::label::label_exact`] then solves them.
//!
//! The games give about 170,000 positions for each number of empties; the pattern tables of a
//! stage have up to 59,049 entries each, and the fit underfits the positions it has (training
//! and held-out errors are the same), so the endgame stages gain from more, exactly labelled,
//! and more varied positions than tournament play reaches.

use crate::dataset::{mix, Sample, HELDOUT};
use crate::evaltest::is_heldout;
use crate::replay::{canonical, play_random};
use reversi_core::bitboard::moves;
use std::collections::HashSet;

/// Adds up to `per_empties` new positions for each number of empties in `range`, each reached by
/// random legal moves from a position of `samples` with 4 to 12 more empties (picked in a
/// seeded order): new up to symmetry, the side to move with a move, held out by the split's
/// rule. Returns how many were added: unlabelled, seen in no game (count 0), so that fitting
/// and measuring pass them by until [`crate::label::label_exact`] solves them.
pub fn add_random_endgames(
    samples: &mut Vec<Sample>,
    range: std::ops::RangeInclusive<u32>,
    per_empties: usize,
    seed: u64,
) -> usize {
    let mut known: HashSet<(u64, u64)> = samples.iter().map(|s| (s.p, s.o)).collect();
    let (lo, hi) = (*range.start(), *range.end());
    // Starting points: real positions a few moves before the range.
    let mut starts: Vec<(u64, u64)> = samples
        .iter()
        .filter(|s| (lo + 4..=hi + 12).contains(&s.empties()))
        .map(|s| (s.p, s.o))
        .collect();
    starts.sort_by_key(|&(p, o)| mix(p ^ mix(o ^ seed)));
    let mut wanted: Vec<usize> = (0..=60)
        .map(|e| {
            if range.contains(&(e as u32)) {
                per_empties
            } else {
                0
            }
        })
        .collect();
    let mut added = 0;
    let mut rng = mix(seed ^ 0x5EED);
    let mut next = || {
        rng = mix(rng.wrapping_add(0x9E37_79B9_7F4A_7C15));
        rng
    };
    'outer: for _ in 0..64 {
        for &(sp, so) in &starts {
            if wanted.iter().all(|&w| w == 0) {
                break 'outer;
            }
            let target = lo + (next() % (hi - lo + 1) as u64) as u32;
            if wanted[target as usize] == 0 {
                continue;
            }
            let (mut p, mut o) = (sp, so);
            // Random moves down to the target (passes followed; a finished game gives up).
            while 64 - (p | o).count_ones() > target {
                let m = moves(p, o);
                if m == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    (p, o) = (o, p);
                    continue;
                }
                (_, p, o) = play_random(p, o, m, next());
            }
            let empties = 64 - (p | o).count_ones();
            if empties != target || moves(p, o) == 0 {
                continue;
            }
            let key = canonical(p, o);
            if !known.insert(key) {
                continue;
            }
            samples.push(Sample {
                p: key.0,
                o: key.1,
                label: 0.0,
                count: 0,
                flags: if is_heldout(key.0, key.1) { HELDOUT } else { 0 },
            });
            wanted[target as usize] -= 1;
            added += 1;
        }
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_positions_are_distinct_in_range_and_playable() {
        // Positions to start from: those of a random game.
        let squares = crate::selfplay::opening(1, 7, &[], 60);
        let (plies, _) = crate::replay::replay(crate::replay::START, &squares).unwrap();
        let mut samples: Vec<Sample> = plies
            .iter()
            .map(|ply| {
                let (p, o) = canonical(ply.p, ply.o);
                Sample {
                    p,
                    o,
                    label: 0.0,
                    count: 1,
                    flags: 0,
                }
            })
            .collect();
        let before = samples.len();
        let added = add_random_endgames(&mut samples, 8..=12, 30, 7);
        assert!(added > 50, "{added}");
        assert_eq!(samples.len(), before + added);
        let new = &samples[before..];
        let distinct: HashSet<(u64, u64)> = samples.iter().map(|s| (s.p, s.o)).collect();
        assert_eq!(distinct.len(), samples.len(), "no position twice");
        for s in new {
            assert!((8..=12).contains(&s.empties()), "{}", s.empties());
            assert!(moves(s.p, s.o) != 0);
            assert!(!s.labelled(), "no label before the solver gives one");
            assert_eq!((s.p, s.o), canonical(s.p, s.o));
        }
        // The same seed, the same positions.
        let mut again: Vec<Sample> = samples[..before].to_vec();
        add_random_endgames(&mut again, 8..=12, 30, 7);
        assert_eq!(again, samples);
    }
}
