//! Exact labels: the solver's score for every position with few enough empties.
//!
//! Work is split among threads (each with its own table); solved scores are checkpointed to a
//! side file every few seconds, so an interrupted run resumes where it stopped.

use crate::dataset::{Sample, EXACT};
use crate::{Result, TrainError};
use reversi_engine::endgame::{solve_window, Ctx, Kernel};
use reversi_engine::tt::TranspositionTable;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Score not known yet, in the checkpoint file.
const UNKNOWN: i8 = i8::MIN;

/// What labelling did.
#[derive(Clone, Debug, Default)]
pub struct LabelStats {
    /// Positions solved in this run.
    pub solved: usize,
    /// Positions found already solved (checkpoint or earlier run).
    pub resumed: usize,
    /// Solver nodes of this run.
    pub nodes: u64,
    /// Mean absolute difference between the game label and the exact score, by empties.
    pub label_error: Vec<(u32, f64, usize)>,
}

/// Solves every sample with `1..=max_empties` empties that has no exact label yet, with
/// `threads` threads; `eval` sorts the solver's moves near the root (any evaluation gives the
/// same scores). `checkpoint` keeps partial results. `progress(done, total)` is called now and
/// then.
pub fn label_exact(
    samples: &mut [Sample],
    max_empties: u32,
    threads: usize,
    eval: &reversi_engine::Learned,
    checkpoint: &Path,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<LabelStats> {
    let todo: Vec<usize> = (0..samples.len())
        .filter(|&i| !samples[i].exact() && samples[i].empties() <= max_empties)
        .collect();
    let mut scores = vec![UNKNOWN; samples.len()];
    if let Ok(bytes) = std::fs::read(checkpoint) {
        if bytes.len() == samples.len() {
            scores = bytes.iter().map(|&b| b as i8).collect();
        }
    }
    let mut stats = LabelStats {
        resumed: todo.iter().filter(|&&i| scores[i] != UNKNOWN).count(),
        ..LabelStats::default()
    };
    let pending: Vec<usize> = todo.iter().copied().filter(|&i| scores[i] == UNKNOWN).collect();
    let total = pending.len() as u64;
    let next = AtomicUsize::new(0);
    let done = AtomicU64::new(0);
    let nodes = AtomicU64::new(0);
    let shared = Mutex::new(scores);
    let stop = AtomicBool::new(false);
    let snapshot: &[Sample] = samples;
    let save = |scores: &[i8]| -> Result<()> {
        let tmp = checkpoint.with_extension("tmp");
        let bytes: Vec<u8> = scores.iter().map(|&s| s as u8).collect();
        std::fs::write(&tmp, bytes).map_err(|e| TrainError::io(&tmp, e))?;
        std::fs::rename(&tmp, checkpoint).map_err(|e| TrainError::io(checkpoint, e))
    };
    let mut last_save = Instant::now();
    let tables = (0..threads.max(1))
        .map(|_| TranspositionTable::new(16))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    std::thread::scope(|scope| -> Result<()> {
        for tt in &tables {
            scope.spawn(|| {
                let kernel = Kernel::best();
                let mut batch = Vec::new();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = pending.get(k) else { break };
                    let s = snapshot[i];
                    let mut c = Ctx::new(tt, &stop);
                    c.eval = Some(eval);
                    let (score, _) = solve_window(&mut c, kernel, s.p, s.o, -64, 64);
                    nodes.fetch_add(c.nodes, Ordering::Relaxed);
                    batch.push((i, score as i8));
                    if batch.len() >= 64 {
                        let mut g = shared.lock().expect("no panics while locked");
                        for (i, v) in batch.drain(..) {
                            g[i] = v;
                        }
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                }
                let mut g = shared.lock().expect("no panics while locked");
                for (i, v) in batch.drain(..) {
                    g[i] = v;
                }
            });
        }
        while done.load(Ordering::Relaxed) < total {
            std::thread::sleep(Duration::from_millis(200));
            progress(done.load(Ordering::Relaxed), total);
            if last_save.elapsed() > Duration::from_secs(20) {
                let copy = shared.lock().expect("no panics while locked").clone();
                save(&copy)?;
                last_save = Instant::now();
            }
        }
        Ok(())
    })?;
    progress(total, total);
    let scores = shared.into_inner().expect("no panics while locked");
    save(&scores)?;
    let mut by_empties: Vec<(f64, usize)> = vec![(0.0, 0); 61];
    // Scores a checkpoint holds beyond `max_empties` (from an interrupted run with a larger
    // limit) are exact too: keep them rather than throw the work away.
    for (i, s) in samples.iter_mut().enumerate() {
        if scores[i] == UNKNOWN || s.exact() {
            continue;
        }
        let exact = scores[i] as f32;
        // Positions from no game (`reversi train augment`) had no label to compare.
        if s.count > 0 {
            let e = s.empties() as usize;
            by_empties[e].0 += (s.label - exact).abs() as f64;
            by_empties[e].1 += 1;
        }
        s.label = exact;
        s.flags |= EXACT;
        s.count = s.count.max(1);
    }
    stats.solved = pending.len();
    stats.nodes = nodes.load(Ordering::Relaxed);
    stats.label_error = by_empties
        .iter()
        .enumerate()
        .filter(|(_, (_, n))| *n > 0)
        .map(|(e, &(sum, n))| (e as u32, sum / n as f64, n))
        .collect();
    Ok(stats)
}

/// Replaces the labels of the samples with `range` empties (not exact) by `mix × search +
/// (1 − mix) × old label`, the search being `depth` plies deep with an engine from `make_engine`
/// (one per thread). Returns the number relabelled.
pub fn label_search(
    samples: &mut [Sample],
    range: std::ops::RangeInclusive<u32>,
    depth: u32,
    mix: f32,
    threads: usize,
    make_engine: &(dyn Fn() -> std::result::Result<reversi_engine::Engine, reversi_engine::ResourceError>
          + Sync),
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<usize> {
    let todo: Vec<usize> = (0..samples.len())
        .filter(|&i| !samples[i].exact() && range.contains(&samples[i].empties()))
        .collect();
    let next = AtomicUsize::new(0);
    let done = AtomicU64::new(0);
    let values = Mutex::new(vec![0i32; todo.len()]);
    let snapshot: &[Sample] = samples;
    let engines = (0..threads.max(1))
        .map(|_| make_engine())
        .collect::<std::result::Result<Vec<_>, _>>()?;
    std::thread::scope(|scope| {
        for engine in &engines {
            scope.spawn(|| {
                let mut local = Vec::new();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = todo.get(k) else { break };
                    let s = snapshot[i];
                    local.push((k, crate::measure::search_value(engine, s.p, s.o, depth)));
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if d.is_multiple_of(4096) {
                        progress(d, todo.len() as u64);
                    }
                }
                let mut g = values.lock().expect("no panics while locked");
                for (k, v) in local {
                    g[k] = v;
                }
            });
        }
    });
    let values = values.into_inner().expect("no panics while locked");
    for (k, &i) in todo.iter().enumerate() {
        samples[i].label = mix * values[k] as f32 + (1.0 - mix) * samples[i].label;
    }
    Ok(todo.len())
}
