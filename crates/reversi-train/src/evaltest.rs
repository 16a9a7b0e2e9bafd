//! Problem sets that measure an evaluation the way the best engines are compared: positions
//! from real games with the **exact** score of every legal move, and a fixed-depth search on
//! each — how often it picks a best move, one of the two best, a move within 3 discs of the
//! best, how far its score is from the exact one, and how many discs its choice loses.
//!
//! Beyond the solver's reach (28–30 empties take minutes to an hour a position on two cores),
//! a set may score its moves by a deep search instead ([`problem_by_search`]): every move
//! searched `depth` plies, with little or no selectivity. Such a file starts with a [`Reference`] header line, so
//! that `evaltest run` says what it measured against and `evaltest make` never mixes the two in
//! one file; `reversi solve` does not apply to it (its scores are not exact).
//!
//! The positions come from WTHOR games, at a given number of empties, and only from the
//! positions the training split holds out ([`is_heldout`], the rule of
//! [`crate::dataset::build`] with its defaults): no weight was fitted on them. A set is an OBF
//! file (`reversi_core::format::obf`) whose lines list every move with its exact score, best
//! first, so `reversi solve` checks it too.

use crate::dataset::mix;
use crate::puzzles::{exact_values, move_values, SourceGame};
use crate::replay::canonical;
use reversi_core::format::obf::ObfEntry;
use reversi_core::{AnyPosition, Move, Position};
use reversi_engine::probcut::CONFIDENCE_PCT;
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

/// What the scores of a set are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// Every move solved exactly.
    Exact,
    /// Every move scored by a search of this many plies (the move and the rest).
    Search {
        /// Plies, the move included.
        depth: u32,
        /// Multi-ProbCut selectivity (an index of `reversi_engine::probcut::CONFIDENCE`; 0:
        /// full width).
        selectivity: usize,
    },
}

/// How a set's header line begins (`% reference: a search of 22 plies a move, selectivity 1
/// (99 %)`).
const HEADER: &str = "% reference: a search of ";

impl Reference {
    /// What a set's text says of its scores: [`Reference::Search`] when it has the header line
    /// [`Reference::header`] writes, else [`Reference::Exact`].
    pub fn of(text: &str) -> Reference {
        text.lines()
            .take_while(|l| l.trim_start().starts_with('%') || l.trim().is_empty())
            .find_map(|l| {
                let rest = l.trim_start().strip_prefix(HEADER)?;
                let depth = rest.split_whitespace().next()?.parse().ok()?;
                let (_, sel) = rest.split_once("selectivity ")?;
                let selectivity = sel.split_whitespace().next()?.parse().ok()?;
                Some(Reference::Search { depth, selectivity })
            })
            .unwrap_or(Reference::Exact)
    }

    /// The header line of a set with these scores (none for exact ones).
    pub fn header(self) -> Option<String> {
        match self {
            Reference::Exact => None,
            Reference::Search { depth, selectivity } => Some(format!(
                "{HEADER}{depth} plies a move, selectivity {selectivity} ({} %); not exact: `reversi solve` does not apply",
                CONFIDENCE_PCT.get(selectivity).copied().unwrap_or(0)
            )),
        }
    }
}

impl std::fmt::Display for Reference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reference::Exact => f.write_str("exact scores"),
            Reference::Search { depth, selectivity } => write!(
                f,
                "a {depth}-ply search ({} %)",
                CONFIDENCE_PCT.get(*selectivity).copied().unwrap_or(0)
            ),
        }
    }
}

/// The problem of `pos` scored by search: every legal move followed by a search of `depth − 1`
/// plies with Multi-ProbCut at `selectivity` (exact where that reaches the end), best first.
/// One engine searches the moves in turn, keeping its table between them (it orders the next
/// move's search sooner), so the result depends on `pos`, `depth` and `selectivity` alone when
/// the engine has one thread and starts cleared.
pub fn problem_by_search(engine: &Engine, pos: &Position<u64>, depth: u32, selectivity: usize) -> ObfEntry {
    let stop = AtomicBool::new(false);
    let limits = depth_limits(depth.saturating_sub(1).max(1), selectivity);
    let moves = move_values(pos, |p, o| {
        // Where the search would reach the end, the solver does it (a midgame search stops
        // one ply short of the last move).
        let r = if limits.depth >= (!(p | o)).count_ones() {
            engine.solve(p, o, false, &stop, &mut |_| {})
        } else {
            engine.search(p, o, &limits, &stop, &mut |_| {})
        };
        r.info.score
    });
    ObfEntry {
        position: AnyPosition::Small(*pos),
        moves,
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
    /// Sum of (its score − the exact best score): a search that scores positions too well for
    /// the side to move (or too badly) on the whole shows it here, where the absolute error
    /// cannot tell an offset from noise.
    pub score_bias: f64,
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
    /// Mean signed error of the score (its score − the best score), in discs: positive when
    /// the search overrates the side to move.
    pub fn mean_score_bias(&self) -> f64 {
        self.score_bias / self.positions.max(1) as f64
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
        self.score_bias += r.score_bias;
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
        score_bias: (r.info.score - best) as f64,
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

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::format::obf::parse_obf_line;

    /// FFO #1 (14 empties): small enough for a search to reach the end.
    const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

    fn position(line: &str) -> Position<u64> {
        match parse_obf_line(line).unwrap().position {
            AnyPosition::Small(p) => p,
            other => panic!("not 8×8: {other:?}"),
        }
    }

    #[test]
    fn the_bias_keeps_the_sign_the_error_drops() {
        let mut all = Report::default();
        for signed in [2.0, -4.0, -1.0] {
            all.add(&Report {
                positions: 1,
                score_error: f64::abs(signed),
                score_bias: signed,
                ..Report::default()
            });
        }
        assert_eq!(all.mean_score_error(), 7.0 / 3.0);
        assert_eq!(all.mean_score_bias(), -1.0);
    }

    #[test]
    fn a_sets_header_says_what_its_scores_are() {
        let r = Reference::Search {
            depth: 22,
            selectivity: 1,
        };
        let header = r.header().unwrap();
        assert!(header.starts_with('%'), "a comment to every OBF reader: {header}");
        let text = format!("{header}\n{FFO1}; G8:+18; H1:+12;\n");
        assert_eq!(Reference::of(&text), r);
        assert_eq!(parse_obf_line(FFO1).unwrap().moves, vec![]);
        assert_eq!(reversi_core::format::obf::parse_obf(&text).unwrap().len(), 1);
        assert_eq!(Reference::of(&format!("{FFO1}; G8:+18;\n")), Reference::Exact);
        assert_eq!(Reference::Exact.header(), None);
        // Only a header before the first position counts.
        assert_eq!(
            Reference::of(&format!("{FFO1}; G8:+18;\n{header}\n")),
            Reference::Exact
        );
        assert_eq!(r.to_string(), "a 22-ply search (99 %)");
    }

    #[test]
    fn a_search_that_reaches_the_end_scores_every_move_exactly() {
        let pos = position(FFO1);
        let engine = Engine::new(16, 1).unwrap();
        let exact = problem(&engine, &pos);
        engine.clear();
        let searched = problem_by_search(&engine, &pos, 14, 0);
        assert_eq!(searched, exact);
        assert_eq!(exact.best_score(), Some(18), "FFO #1 is +18");
        // A shallow one sees less, and still lists every move, best first.
        engine.clear();
        let shallow = problem_by_search(&engine, &pos, 2, 1);
        assert_eq!(shallow.moves.len(), exact.moves.len());
        assert!(shallow.moves.windows(2).all(|w| w[0].1 >= w[1].1));
        assert_ne!(shallow.moves, exact.moves);
    }
}
