//! Problem sets that measure an evaluation the way the best engines are compared: positions
//! from real games with the **exact** score of every legal move, and a fixed-depth search on
//! each — how often it picks a best move, one of the two best, a move within 3 discs of the
//! best, how far its score is from the exact one, and how many discs its choice loses.
//!
//! The positions come from WTHOR games, at a given number of empties, and only from the
//! positions the training split holds out ([`is_heldout`], the rule of
//! [`crate::dataset::build`] with its defaults): no weight was fitted on them. A set is an OBF
//! file (`reversi_core::format::obf`) whose lines list every move with its exact score, best
//! first, so `reversi solve` checks it too.

use crate::dataset::mix;
use crate::puzzles::{exact_values, SourceGame};
use crate::replay::canonical;
use reversi_core::format::obf::ObfEntry;
use reversi_core::{AnyPosition, Move, Position};
use reversi_engine::{Engine, Limits};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The held-out share of the training split, per thousand (`reversi train positions
/// --heldout`'s default).
pub const HELDOUT_PER_MILLE: u64 = 30;
/// The seed of the training split (`reversi train positions --seed`'s default).
pub const SPLIT_SEED: u64 = 1;

/// Whether the training split with its defaults holds `(p, o)` out (whatever its symmetry).
pub fn is_heldout(p: u64, o: u64) -> bool {
    let (p, o) = canonical(p, o);
    mix(p ^ mix(o ^ SPLIT_SEED)) % 1000 < HELDOUT_PER_MILLE
}

/// Up to `count` held-out positions with `empties` empty squares, one a game at most, from
/// `games` in a seeded order; each with at least two legal moves (a single move tells nothing).
/// Returns the positions and where each comes from.
pub fn pick(games: &[SourceGame], empties: u32, count: usize, seed: u64) -> Vec<(Position<u64>, String)> {
    let mut order: Vec<usize> = (0..games.len()).collect();
    order.sort_by_key(|&i| mix(i as u64 ^ mix(seed)));
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for i in order {
        let g = &games[i];
        for ply in 0..=g.game.moves().len() {
            let Some(AnyPosition::Small(pos)) = g.game.position_at(ply) else {
                continue;
            };
            if (!(pos.black() | pos.white())).count_ones() != empties {
                continue;
            }
            let me = pos.side_to_move();
            let (p, o) = (pos.discs(me), pos.discs(!me));
            if pos.legal_moves().count_ones() >= 2 && is_heldout(p, o) && seen.insert(canonical(p, o)) {
                out.push((*pos, format!("{}:{ply}", g.label)));
            }
            break;
        }
        if out.len() >= count {
            break;
        }
    }
    out
}

/// The problem of `pos`: every legal move with its exact score, best first.
pub fn problem(engine: &Engine, pos: &Position<u64>) -> ObfEntry {
    ObfEntry {
        position: AnyPosition::Small(*pos),
        moves: exact_values(engine, pos),
    }
}

/// What a fixed-depth search did on a set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Positions searched.
    pub positions: usize,
    /// It chose a best move.
    pub best: usize,
    /// It chose one of the two best moves (moves with the best or the second-best score).
    pub top2: usize,
    /// It chose a move at most 3 discs worse than the best.
    pub within3: usize,
    /// Sum of |its score − the exact best score|.
    pub score_error: f64,
    /// Sum of the discs its choice loses against the best move.
    pub loss: f64,
    /// Positions visited by the searches.
    pub nodes: u64,
    /// Time of the searches.
    pub time: Duration,
}

impl Report {
    fn share(&self, n: usize) -> f64 {
        100.0 * n as f64 / self.positions.max(1) as f64
    }

    /// Best-move rate, in percent.
    pub fn best_pct(&self) -> f64 {
        self.share(self.best)
    }
    /// One-of-the-two-best rate, in percent.
    pub fn top2_pct(&self) -> f64 {
        self.share(self.top2)
    }
    /// Within-3-discs rate, in percent.
    pub fn within3_pct(&self) -> f64 {
        self.share(self.within3)
    }
    /// Mean absolute error of the score, in discs.
    pub fn mean_score_error(&self) -> f64 {
        self.score_error / self.positions.max(1) as f64
    }
    /// Mean discs lost by the chosen move.
    pub fn mean_loss(&self) -> f64 {
        self.loss / self.positions.max(1) as f64
    }

    /// Adds another report's counts.
    pub fn add(&mut self, r: &Report) {
        self.positions += r.positions;
        self.best += r.best;
        self.top2 += r.top2;
        self.within3 += r.within3;
        self.score_error += r.score_error;
        self.loss += r.loss;
        self.nodes += r.nodes;
        self.time += r.time;
    }
}

/// The limits of a fixed-depth midgame search: `depth` plies with `selectivity` (an index of
/// `reversi_engine::probcut::CONFIDENCE`, as the levels use), never solving the endgame.
pub fn depth_limits(depth: u32, selectivity: usize) -> Limits {
    Limits {
        depth,
        selectivity,
        exact_empties: 0,
        wld_empties: 0,
        ..Limits::default()
    }
}

/// Searches problem `e` (from an empty table) and scores the answer. A position with no
/// listed move counts nothing.
pub fn score_one(engine: &Engine, e: &ObfEntry, limits: &Limits) -> Report {
    let AnyPosition::Small(pos) = e.position else {
        return Report::default();
    };
    let Some(best) = e.best_score() else {
        return Report::default();
    };
    let stop = AtomicBool::new(false);
    let me = pos.side_to_move();
    engine.clear();
    let start = Instant::now();
    let r = engine.search(pos.discs(me), pos.discs(!me), limits, &stop, &mut |_| {});
    let time = start.elapsed();
    let chosen = r
        .best
        .map(|b| Move::Play(reversi_core::Square::from_bit8(u32::from(b))));
    let value = |m: Option<Move>| e.moves.iter().find(|(x, _)| Some(*x) == m).map(|&(_, v)| v);
    let got = value(chosen).unwrap_or(i32::MIN / 2);
    let mut scores: Vec<i32> = e.moves.iter().map(|&(_, v)| v).collect();
    scores.sort_unstable_by(|a, b| b.cmp(a));
    scores.dedup();
    let second = scores.get(1).copied().unwrap_or(best);
    Report {
        positions: 1,
        best: (got == best) as usize,
        top2: (got >= second) as usize,
        within3: (got >= best - 3) as usize,
        score_error: (r.info.score - best).abs() as f64,
        loss: (best - got).clamp(0, 128) as f64,
        nodes: r.info.nodes,
        time,
    }
}

/// Every problem of `set`, searched with `limits`; the report of each number of empties and
/// of the whole set, on `engines.len()` threads (each with its engine).
pub fn run(
    engines: &[Engine],
    set: &[ObfEntry],
    limits: &Limits,
    tick: &(dyn Fn() + Sync),
) -> Vec<(u32, Report)> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(vec![Report::default(); set.len()]);
    std::thread::scope(|s| {
        for engine in engines {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(p) = set.get(i) else { break };
                let r = score_one(engine, p, limits);
                results.lock().expect("no panics while locked")[i] = r;
                tick();
            });
        }
    });
    let results = results.into_inner().expect("no panics while locked");
    let mut by: std::collections::BTreeMap<u32, Report> = std::collections::BTreeMap::new();
    for (p, r) in set.iter().zip(&results) {
        by.entry(p.empties()).or_default().add(r);
    }
    by.into_iter().collect()
}
