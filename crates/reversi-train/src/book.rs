//! Building the opening book (`reversi book build`, `deepen`, `merge`): positions from game
//! databases, deduplicated by symmetry, scored by the engine, then grown along the lines whose
//! error stays within budgets (as Edax's `deviate` and Egaroucid's book learning).
//!
//! The steps, each of which leaves a valid book behind (a build stopped half way resumes):
//! 1. [`collect`] — every position of the first plies of the games that at least a number of
//!    games reach (one entry per class of 8 symmetric positions);
//! 2. [`score`] — each unscored position's best move out of the book ("leaf"), by a search of
//!    every such move at the book's level, in parallel and deterministically (each search
//!    starts from an empty table);
//! 3. [`Book::negamax`] — values from the leaves up;
//! 4. [`learn`] — from the start, along every move within the per-move error of the best and
//!    with the path's cumulated error within the budget, the leaves become book positions
//!    (scored in the next round).

use crate::replay::{replay, START};
use crate::sources::TrainingGame;
use crate::Result;
use reversi_core::bitboard::moves;
use reversi_engine::book::{canonical, child, Book, Entry, NO_LEAF, NO_LEAF_MOVE};
use reversi_engine::levels::Level;
use reversi_engine::Engine;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// The engine's table per scoring thread, MiB (cleared for every position, so small).
const SCORE_HASH_MIB: usize = 8;

/// Positions at plies `0..=max_ply` of `games` reached by at least `min_games` of them,
/// with their game counts. Positions after which the side to move must pass are taken after
/// the pass (as the book stores them); finished games stop there.
pub fn collect(games: &[TrainingGame], max_ply: u32, min_games: u32) -> Vec<Entry> {
    let mut counts: HashMap<(u64, u64), u32> = HashMap::new();
    for g in games {
        let upto = g.squares.len().min(max_ply as usize);
        let Ok((mut plies, last)) = replay(START, &g.squares[..upto]) else {
            continue;
        };
        plies.push(last);
        // A game's transpositions of itself are counted once.
        let mut seen = Vec::with_capacity(plies.len());
        for ply in plies {
            let (p, o) = match (moves(ply.p, ply.o), moves(ply.o, ply.p)) {
                (0, 0) => continue,
                (0, _) => (ply.o, ply.p),
                _ => (ply.p, ply.o),
            };
            let (p, o, _) = canonical(p, o);
            if !seen.contains(&(p, o)) {
                seen.push((p, o));
                *counts.entry((p, o)).or_default() += 1;
            }
        }
    }
    let mut out: Vec<Entry> = counts
        .into_iter()
        .filter(|&(_, n)| n >= min_games)
        .map(|((p, o), n)| Entry::new(p, o, n))
        .collect();
    out.sort_by_key(|e| (e.player, e.opponent));
    out
}

/// What [`score`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScoreStats {
    /// Positions scored.
    pub scored: usize,
    /// Searches run (one per move out of the book).
    pub searches: u64,
    /// Positions visited by them.
    pub nodes: u64,
}

/// Scores every entry whose level is below `level` (unscored ones, or all of them to deepen):
/// the best move that leaves the book and its value, by a `level` search of the position after
/// each such move. `threads` workers; `checkpoint(book)` is called every `every` positions so a
/// long build can be saved and resumed; `progress(done, total)` now and then. Values are not
/// propagated: call [`Book::negamax`] after.
pub fn score(
    book: &mut Book,
    level: u32,
    threads: usize,
    every: usize,
    checkpoint: &mut dyn FnMut(&Book) -> Result<()>,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<ScoreStats> {
    let level = level.clamp(1, u8::MAX as u32) as u8;
    let todo: Vec<usize> = (0..book.len())
        .filter(|&i| book.entries()[i].level < level)
        .collect();
    let total = todo.len() as u64;
    let mut stats = ScoreStats::default();
    let engines: Vec<Engine> = (0..threads.max(1))
        .map(|_| Engine::new(SCORE_HASH_MIB, 1))
        .collect::<std::result::Result<_, _>>()?;
    progress(0, total);
    for chunk in todo.chunks(every.max(1)) {
        let next = AtomicUsize::new(0);
        let results = Mutex::new(Vec::with_capacity(chunk.len()));
        let (searches, nodes) = (AtomicU64::new(0), AtomicU64::new(0));
        let frozen: &Book = book;
        std::thread::scope(|s| {
            for engine in &engines {
                let (next, results, searches, nodes) = (&next, &results, &searches, &nodes);
                s.spawn(move || loop {
                    let k = next.fetch_add(1, Relaxed);
                    let Some(&i) = chunk.get(k) else { break };
                    let e = frozen.entries()[i];
                    let (leaf, n, visited) = best_leaf(engine, frozen, e.player, e.opponent, level as u32);
                    searches.fetch_add(n, Relaxed);
                    nodes.fetch_add(visited, Relaxed);
                    results
                        .lock()
                        .expect("no worker panics holding it")
                        .push((i, leaf));
                });
            }
        });
        for (i, leaf) in results.into_inner().expect("workers ended") {
            let e = &mut book.entries_mut()[i];
            e.level = level;
            (e.leaf_move, e.leaf_value) = leaf.map_or((NO_LEAF_MOVE, NO_LEAF), |(m, v)| (m, v as i8));
        }
        stats.scored += chunk.len();
        stats.searches += searches.into_inner();
        stats.nodes += nodes.into_inner();
        progress(stats.scored as u64, total);
        checkpoint(book)?;
    }
    Ok(stats)
}

/// The best move of `(p, o)` whose position after it is not in `book`, with its value (a
/// search at `level`, one ply less after the move), how many searches it took and their nodes.
fn best_leaf(engine: &Engine, book: &Book, p: u64, o: u64, level: u32) -> (Option<(u8, i32)>, u64, u64) {
    let mut limits = Level::new(level).limits(0);
    limits.depth = limits.depth.saturating_sub(1).max(1);
    limits.noise = 0;
    let stop = AtomicBool::new(false);
    let (mut best, mut searches, mut nodes): (Option<(u8, i32)>, u64, u64) = (None, 0, 0);
    let mut legal = moves(p, o);
    while legal != 0 {
        let sq = legal.trailing_zeros();
        legal &= legal - 1;
        let value = match child(p, o, sq) {
            Err(margin) => margin,
            Ok((cp, co, sign)) => {
                if book.entry(cp, co).is_some() {
                    continue;
                }
                engine.clear();
                let r = engine.search(cp, co, &limits, &stop, &mut |_| {});
                searches += 1;
                nodes += r.info.nodes;
                sign * r.info.score
            }
        };
        // The first of equal values (lowest square): deterministic.
        if best.is_none_or(|(_, b)| value > b) {
            best = Some((sq as u8, value.clamp(-64, 64)));
        }
    }
    // The leaf move is stored in the entry's canonical orientation.
    let best = best.map(|(sq, v)| {
        let (_, _, s) = canonical(p, o);
        (s.apply_u64(1u64 << sq).trailing_zeros() as u8, v)
    });
    (best, searches, nodes)
}

/// Error budgets of [`learn`], in discs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// The most a move may lose against the best of its position to be followed.
    pub per_move: i32,
    /// The most a line may lose in all, from the start.
    pub cumulative: i32,
    /// No position is added beyond this ply.
    pub max_ply: u32,
}

/// Adds the leaves reached from the start within `budgets` as new (unscored) positions and
/// returns how many were added. Every position is visited once, with the smallest error by
/// which it was reached (a breadth-first walk by ply, as children have one ply more).
pub fn learn(book: &mut Book, budgets: Budgets) -> usize {
    let (p, o) = START;
    let mut frontier: HashMap<(u64, u64), i32> = HashMap::new();
    let (cp, co, _) = canonical(p, o);
    if book.get(cp, co).is_none() {
        return 0;
    }
    frontier.insert((cp, co), 0);
    let mut added = Vec::new();
    while !frontier.is_empty() {
        let mut next: HashMap<(u64, u64), i32> = HashMap::new();
        let mut level: Vec<((u64, u64), i32)> = frontier.into_iter().collect();
        level.sort();
        for ((p, o), err) in level {
            let Some(e) = book.get(p, o) else { continue };
            let best = e.value as i32;
            for m in book.moves(p, o) {
                let loss = best - m.value;
                if loss > budgets.per_move || err + loss > budgets.cumulative {
                    continue;
                }
                let Ok((np, no, _)) = child(p, o, m.square as u32) else {
                    continue;
                };
                let (kp, ko, _) = canonical(np, no);
                match m.kind {
                    reversi_engine::book::BookValueKind::Book => {
                        let slot = next.entry((kp, ko)).or_insert(i32::MAX);
                        *slot = (*slot).min(err + loss);
                    }
                    reversi_engine::book::BookValueKind::Leaf => {
                        if e.ply() < budgets.max_ply && book.entry(kp, ko).is_none() {
                            added.push(Entry::new(kp, ko, 0));
                        }
                    }
                    reversi_engine::book::BookValueKind::Final => {}
                }
            }
        }
        frontier = next;
    }
    added.sort_by_key(|e| (e.player, e.opponent));
    added.dedup_by_key(|e| (e.player, e.opponent));
    let n = added.len();
    book.extend(added);
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::Source;
    use reversi_engine::book::BookMeta;

    fn game(t: &str) -> TrainingGame {
        let b = t.as_bytes();
        let squares = b
            .chunks(2)
            .map(|c| (c[0] - b'a') as u32 + 8 * (c[1] - b'1') as u32)
            .collect();
        TrainingGame {
            source: Source::Wthor,
            squares,
            theoretical: None,
        }
    }

    #[test]
    fn collects_by_symmetry_and_count() {
        // f5 and d3 (and c4, e6) are one opening up to symmetry; f5d6 (perpendicular) and
        // d3c5 are the same too.
        let games = [game("f5d6c3"), game("d3c5f6"), game("f5f6e6")];
        let e = collect(&games, 2, 2);
        // The start (3 games), the first move (3), f5d6 ≡ d3c5 (2); f5f6 once: left out.
        assert_eq!(e.len(), 3, "{e:?}");
        let mut counts: Vec<u32> = e.iter().map(|e| e.games).collect();
        counts.sort();
        assert_eq!(counts, vec![2, 3, 3]);
    }

    #[test]
    fn scores_learns_and_is_deterministic() {
        let games = [game("f5d6c3d3c4"), game("f5f6e6f4"), game("f5d6c5f4e3")];
        let build = |threads| {
            let mut book = Book::from_entries(collect(&games, 2, 1), BookMeta::default());
            score(&mut book, 3, threads, 2, &mut |_| Ok(()), &|_, _| {}).unwrap();
            book.negamax();
            let added = learn(
                &mut book,
                Budgets {
                    per_move: 64,
                    cumulative: 64,
                    max_ply: 3,
                },
            );
            assert!(added > 0);
            score(&mut book, 3, threads, 100, &mut |_| Ok(()), &|_, _| {}).unwrap();
            book.negamax();
            book
        };
        let one = build(1);
        assert!(one.entries().iter().all(|e| e.scored()));
        assert_eq!(one, build(2), "threads do not change the book");
        // Every known move of the start has a value, and the start's value is the best of them.
        let (p, o) = START;
        let m = one.moves(p, o);
        assert_eq!(m.len(), 4);
        assert_eq!(one.value(p, o), Some(m[0].value));
        // Deepening rescores everything at the higher level.
        let mut deeper = one.clone();
        let s = score(&mut deeper, 4, 1, 100, &mut |_| Ok(()), &|_, _| {}).unwrap();
        assert_eq!(s.scored, one.len());
        assert!(deeper.entries().iter().all(|e| e.level == 4));
    }
}
