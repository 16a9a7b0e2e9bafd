//! Measuring an evaluation: error by stage on held-out positions, error against exact scores,
//! and best-move accuracy of a fixed-depth search.

use crate::dataset::{mix, Sample};
use reversi_core::bitboard::{flips, moves};
use reversi_engine::endgame::{solve_window, Ctx, Kernel};
use reversi_engine::eval::pattern::{stage, STAGES};
use reversi_engine::tt::TranspositionTable;
use reversi_engine::{Engine, Evaluator, Limits, ResourceError};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Mean absolute error and count, per stage.
#[derive(Clone, Debug)]
pub struct ByStage {
    /// `(mae, n)` for each stage.
    pub stages: Vec<(f64, usize)>,
}

/// Errors of `eval` against the labels of the held-out positions, per stage; `exact_only` keeps
/// the positions whose label is an exact score.
pub fn heldout_error(samples: &[Sample], eval: &dyn Evaluator, exact_only: bool) -> ByStage {
    let mut acc = vec![(0.0f64, 0usize); STAGES];
    for s in samples
        .iter()
        .filter(|s| s.heldout() && s.labelled() && (!exact_only || s.exact()))
    {
        let e = &mut acc[stage(s.empties())];
        e.0 += (eval.eval(s.p, s.o) as f64 - s.label as f64).abs();
        e.1 += 1;
    }
    ByStage {
        stages: acc
            .into_iter()
            .map(|(sum, n)| (sum / n.max(1) as f64, n))
            .collect(),
    }
}

/// Picks up to `per_empties` held-out positions for each number of empties in `range`
/// (deterministically, by a hash) and solves them exactly with `threads` threads.
pub fn exact_sample(
    samples: &[Sample],
    range: std::ops::RangeInclusive<u32>,
    per_empties: usize,
    threads: usize,
    eval: &reversi_engine::Learned,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<(Sample, i32)>, ResourceError> {
    let mut picked: Vec<Sample> = Vec::new();
    for e in range {
        let mut c: Vec<Sample> = samples
            .iter()
            .filter(|s| s.heldout() && s.labelled() && s.empties() == e)
            .copied()
            .collect();
        c.sort_by_key(|s| mix(s.p ^ mix(s.o)));
        picked.extend(c.into_iter().take(per_empties));
    }
    let next = AtomicUsize::new(0);
    let out = Mutex::new(vec![0i32; picked.len()]);
    let stop = AtomicBool::new(false);
    let tables = (0..threads.max(1))
        .map(|_| TranspositionTable::new(64))
        .collect::<Result<Vec<_>, _>>()?;
    std::thread::scope(|sc| {
        for tt in &tables {
            sc.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(s) = picked.get(k) else { break };
                let mut c = Ctx::new(tt, &stop);
                c.eval = Some(eval);
                let (v, _) = solve_window(&mut c, Kernel::best(), s.p, s.o, -64, 64);
                out.lock().expect("no panics while locked")[k] = v;
                progress(k + 1, picked.len());
            });
        }
    });
    Ok(picked
        .into_iter()
        .zip(out.into_inner().expect("no panics while locked"))
        .collect())
}

/// Mean absolute error of `eval` against exact scores, per number of empties.
pub fn exact_error(solved: &[(Sample, i32)], eval: &dyn Evaluator) -> Vec<(u32, f64, usize)> {
    mean_by_empties(
        solved
            .iter()
            .map(|(s, v)| (s.empties(), (eval.eval(s.p, s.o) - v) as f64)),
    )
}

/// `(empties, mean, count)` of absolute errors given as `(empties, error)`, fewest empties first.
fn mean_by_empties(errors: impl Iterator<Item = (u32, f64)>) -> Vec<(u32, f64, usize)> {
    let mut acc: std::collections::BTreeMap<u32, (f64, usize)> = Default::default();
    for (empties, err) in errors {
        let e = acc.entry(empties).or_default();
        e.0 += err.abs();
        e.1 += 1;
    }
    acc.into_iter()
        .map(|(e, (sum, n))| (e, sum / n as f64, n))
        .collect()
}

/// Exact score of every legal move of a position (for the side to move); `eval` sorts the
/// solver's moves.
pub fn exact_move_scores(
    p: u64,
    o: u64,
    tt: &TranspositionTable,
    eval: &reversi_engine::Learned,
) -> Vec<(u32, i32)> {
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    let mut m = moves(p, o);
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        let f = flips(p, o, sq);
        let (np, no) = (o & !f, p | f | (1u64 << sq));
        let mut c = Ctx::new(tt, &stop);
        c.eval = Some(eval);
        let (v, _) = solve_window(&mut c, Kernel::best(), np, no, -64, 64);
        out.push((sq, -v));
    }
    out
}

/// Best-move accuracy of a `depth`-ply search (no selectivity, no exact endgame) with each of
/// `evals` on positions whose every move was solved (`solved`: position, move scores): the share of
/// positions where the move chosen is a best one, and the mean discs lost.
pub fn best_move_accuracy(
    solved: &[(Sample, Vec<(u32, i32)>)],
    evals: Vec<Box<dyn Evaluator>>,
    depth: u32,
) -> Result<Vec<(&'static str, f64, f64)>, ResourceError> {
    let limits = Limits {
        depth,
        selectivity: 0,
        exact_empties: 0,
        wld_empties: 0,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    evals
        .into_iter()
        .map(|ev| {
            let name = ev.name();
            let engine = Engine::with_evaluator(16, 1, ev)?;
            let (mut hits, mut loss) = (0usize, 0i64);
            for (s, scores) in solved {
                engine.clear();
                let r = engine.search(s.p, s.o, &limits, &stop, &mut |_| {});
                let best = scores.iter().map(|x| x.1).max().unwrap_or(0);
                let chosen = r
                    .best
                    .and_then(|m| scores.iter().find(|x| x.0 == m as u32))
                    .map_or(best, |x| x.1);
                hits += usize::from(chosen == best);
                loss += (best - chosen) as i64;
            }
            let n = solved.len().max(1) as f64;
            Ok((name, hits as f64 / n, loss as f64 / n))
        })
        .collect()
}

/// The value of a `depth`-ply search (no selectivity, no exact endgame) with `engine`.
pub fn search_value(engine: &Engine, p: u64, o: u64, depth: u32) -> i32 {
    let limits = Limits {
        depth,
        selectivity: 0,
        exact_empties: 0,
        wld_empties: 0,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    engine.search(p, o, &limits, &stop, &mut |_| {}).info.score
}

/// Mean absolute error of a `depth`-ply search with `engine` against exact scores, by empties.
pub fn search_error(solved: &[(Sample, i32)], engine: &Engine, depth: u32) -> Vec<(u32, f64, usize)> {
    mean_by_empties(
        solved
            .iter()
            .map(|(s, v)| (s.empties(), (search_value(engine, s.p, s.o, depth) - v) as f64)),
    )
}

/// Mean absolute error of the dataset's own label (the game result) against exact scores.
pub fn label_error(solved: &[(Sample, f32, i32)]) -> Vec<(u32, f64, usize)> {
    mean_by_empties(
        solved
            .iter()
            .map(|(s, label, v)| (s.empties(), *label as f64 - *v as f64)),
    )
}

/// For `per_stage` held-out positions of each stage with more than 24 empties: the mean absolute
/// difference between each evaluation and a `depth`-ply search of `reference`, by stage.
pub fn deep_error(
    samples: &[Sample],
    reference: &Engine,
    evals: &[&dyn Evaluator],
    per_stage: usize,
    depth: u32,
    mut tick: impl FnMut(),
) -> Vec<(usize, Vec<f64>, usize)> {
    let mut out = Vec::new();
    for st in (12..STAGES).filter(|s| s.is_multiple_of(2)) {
        let mut c: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.heldout() && s.labelled() && stage(s.empties()) == st)
            .collect();
        c.sort_by_key(|s| mix(s.p ^ mix(s.o)));
        c.truncate(per_stage);
        if c.is_empty() {
            continue;
        }
        let mut sums = vec![0f64; evals.len()];
        for s in &c {
            reference.clear();
            let v = search_value(reference, s.p, s.o, depth);
            for (k, e) in evals.iter().enumerate() {
                sums[k] += (e.eval(s.p, s.o) - v).abs() as f64;
            }
            tick();
        }
        out.push((st, sums.iter().map(|x| x / c.len() as f64).collect(), c.len()));
    }
    out
}
