//! Fitting the pattern weights: weighted least squares with L2 regularisation, one stage at a
//! time, solved by conjugate gradient on the normal equations.
//!
//! For a stage, the model is `label ≈ Σ w[f]` over the position's [`features`]. The fit minimises
//! `Σ c_i (y_i − x_i·w)² + λ |w|²`, with `c_i` the number of games the position occurred in
//! (capped). Sums are taken in a fixed order over fixed chunks, so the result does not depend on
//! the number of threads. Stages are fitted from the end of the game backwards, each starting
//! from its neighbour's solution, and each is saved as soon as it is done so an interrupted run
//! resumes.

use crate::dataset::Sample;
use crate::{Result, TrainError};
use reversi_engine::eval::pattern::{features, fold, stage, FEATURES, SCALE, STAGES, STAGE_SIZE};
use reversi_engine::eval::Learned;
use std::path::{Path, PathBuf};

/// Settings of the fit.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// L2 weight λ, in units of sample weight.
    pub lambda: f64,
    /// Conjugate-gradient iterations at most.
    pub iterations: usize,
    /// Stop when the residual norm falls below this fraction of its start.
    pub tolerance: f64,
    /// Neighbouring stages on each side whose positions are also fitted (smooths the stages).
    pub window: usize,
    /// Cap on a position's weight (its game count).
    pub max_weight: f32,
    /// Worker threads.
    pub threads: usize,
    /// Early stopping: the held-out error of the stage (mean squared, the fit's own measure)
    /// is measured every [`CHECK_EVERY`] iterations, and the fit stops after this many measures
    /// without a new best, keeping the best weights (0: no early stopping).
    pub patience: usize,
}

/// Iterations between two measures of the held-out error (early stopping).
pub const CHECK_EVERY: usize = 5;

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            lambda: 4.0,
            iterations: 60,
            tolerance: 1e-4,
            window: 1,
            max_weight: 8.0,
            threads: 2,
            patience: 3,
        }
    }
}

/// How one stage's fit went.
#[derive(Clone, Debug)]
pub struct StageReport {
    /// The stage.
    pub stage: usize,
    /// Positions fitted.
    pub positions: usize,
    /// Iterations run.
    pub iterations: usize,
    /// Mean absolute error on the fitted positions of the stage itself.
    pub train_mae: f64,
    /// Mean absolute error on the held-out positions of the stage (NaN if none).
    pub heldout_mae: f64,
    /// Held-out positions of the stage.
    pub heldout: usize,
    /// Whether the stage came from an earlier run.
    pub resumed: bool,
}

const CHUNKS: usize = 32;

struct Problem {
    idx: Vec<u32>,
    y: Vec<f32>,
    c: Vec<f32>,
}

impl Problem {
    fn new(samples: &[&Sample], max_weight: f32, threads: usize) -> Problem {
        let n = samples.len();
        let mut idx = vec![0u32; n * FEATURES];
        let per = n.div_ceil(threads.max(1)).max(1);
        std::thread::scope(|s| {
            for (part, out) in samples.chunks(per).zip(idx.chunks_mut(per * FEATURES)) {
                s.spawn(move || {
                    for (smp, o) in part.iter().zip(out.chunks_mut(FEATURES)) {
                        o.copy_from_slice(&features(smp.p, smp.o));
                    }
                });
            }
        });
        Problem {
            idx,
            y: samples.iter().map(|s| s.label).collect(),
            c: samples.iter().map(|s| (s.count as f32).min(max_weight)).collect(),
        }
    }

    fn len(&self) -> usize {
        self.y.len()
    }

    /// `Xᵀ C (X v − y·with_y)` computed in fixed chunks, plus `λ v`.
    fn normal(&self, v: &[f32], with_y: bool, lambda: f64, threads: usize) -> Vec<f64> {
        let n = self.len();
        let chunk = n.div_ceil(CHUNKS).max(1);
        let ranges: Vec<(usize, usize)> = (0..n).step_by(chunk).map(|a| (a, (a + chunk).min(n))).collect();
        let mut parts: Vec<Vec<f64>> = Vec::with_capacity(ranges.len());
        let threads = threads.max(1);
        for group in ranges.chunks(threads) {
            let results: Vec<Vec<f64>> = std::thread::scope(|s| {
                let handles: Vec<_> = group
                    .iter()
                    .map(|&(a, b)| {
                        s.spawn(move || {
                            let mut acc = vec![0f64; STAGE_SIZE];
                            for i in a..b {
                                let f = &self.idx[i * FEATURES..(i + 1) * FEATURES];
                                let mut x: f32 = f.iter().map(|&j| v[j as usize]).sum();
                                if with_y {
                                    x -= self.y[i];
                                }
                                let g = (x * self.c[i]) as f64;
                                for &j in f {
                                    acc[j as usize] += g;
                                }
                            }
                            acc
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("worker")).collect()
            });
            parts.extend(results);
        }
        let mut out = vec![0f64; STAGE_SIZE];
        for p in &parts {
            for (o, x) in out.iter_mut().zip(p) {
                *o += x;
            }
        }
        for (o, x) in out.iter_mut().zip(v) {
            *o += lambda * *x as f64;
        }
        out
    }

    /// Prediction minus label for sample `i`.
    fn error(&self, w: &[f32], i: usize) -> f64 {
        let x: f32 = self.idx[i * FEATURES..(i + 1) * FEATURES]
            .iter()
            .map(|&j| w[j as usize])
            .sum();
        (x - self.y[i]) as f64
    }

    /// Mean absolute error over every sample.
    fn mae(&self, w: &[f32]) -> f64 {
        (0..self.len()).map(|i| self.error(w, i).abs()).sum::<f64>() / self.len().max(1) as f64
    }

    /// Mean squared error over every sample (what the fit minimises).
    fn mse(&self, w: &[f32]) -> f64 {
        (0..self.len()).map(|i| self.error(w, i).powi(2)).sum::<f64>() / self.len().max(1) as f64
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Fits one stage from `init`; `fitted` are the training positions, `heldout` the held-out ones
/// of the stage itself (which also decide when to stop: see [`FitOptions::patience`]).
/// `on_iteration(i, relative residual)` reports progress.
pub fn fit_stage(
    fitted: &[&Sample],
    heldout: &[&Sample],
    own: impl Fn(&Sample) -> bool,
    init: &[f32],
    opts: &FitOptions,
    on_iteration: &mut dyn FnMut(usize, f64),
) -> (Vec<f32>, usize, f64, f64) {
    let prob = Problem::new(fitted, opts.max_weight, opts.threads);
    let held = Problem::new(heldout, 1.0, opts.threads);
    let early = opts.patience > 0 && !heldout.is_empty();
    let mut w: Vec<f32> = init.to_vec();
    // The best weights on the held-out positions so far, their error, and measures since.
    let mut best = (held.mse(&w), w.clone(), 0usize, 0usize);
    // r = b − A w = −(Xᵀ C (X w − y) + λ w)
    let mut r: Vec<f64> = prob
        .normal(&w, true, opts.lambda, opts.threads)
        .iter()
        .map(|x| -x)
        .collect();
    let r0 = dot(&r, &r).sqrt().max(1e-30);
    let mut d = r.clone();
    let mut rs = dot(&r, &r);
    let mut iterations = 0;
    for it in 0..opts.iterations {
        let d32: Vec<f32> = d.iter().map(|&x| x as f32).collect();
        let ad = prob.normal(&d32, false, opts.lambda, opts.threads);
        let dad = dot(&d, &ad);
        if dad <= 0.0 {
            break;
        }
        let alpha = rs / dad;
        for (wi, di) in w.iter_mut().zip(&d) {
            *wi += (alpha * di) as f32;
        }
        for (ri, ai) in r.iter_mut().zip(&ad) {
            *ri -= alpha * ai;
        }
        let rs_new = dot(&r, &r);
        iterations = it + 1;
        on_iteration(iterations, rs_new.sqrt() / r0);
        if early && iterations % CHECK_EVERY == 0 {
            let mse = held.mse(&w);
            if mse < best.0 {
                best = (mse, w.clone(), iterations, 0);
            } else {
                best.3 += 1;
                if best.3 >= opts.patience {
                    break;
                }
            }
        }
        if rs_new.sqrt() < opts.tolerance * r0 {
            break;
        }
        let beta = rs_new / rs;
        for (di, ri) in d.iter_mut().zip(&r) {
            *di = ri + beta * *di;
        }
        rs = rs_new;
    }
    if early && held.mse(&w) > best.0 {
        // Stopped past the best: go back to it.
        w = best.1;
        iterations = best.2;
    }
    // Training error on the stage's own positions only (the window's neighbours excluded).
    let own_idx: Vec<usize> = (0..fitted.len()).filter(|&i| own(fitted[i])).collect();
    let train_mae =
        own_idx.iter().map(|&i| prob.error(&w, i).abs()).sum::<f64>() / own_idx.len().max(1) as f64;
    let heldout_mae = if heldout.is_empty() {
        f64::NAN
    } else {
        held.mae(&w)
    };
    (w, iterations, train_mae, heldout_mae)
}

fn stage_path(dir: &Path, s: usize) -> PathBuf {
    dir.join(format!("stage-{s:02}.f32"))
}

fn load_stage(path: &Path) -> Option<Vec<f32>> {
    let bytes = std::fs::read(path).ok()?;
    (bytes.len() == 4 * STAGE_SIZE).then(|| {
        bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    })
}

/// Fits every stage (resuming from the stages already in `dir`) and returns the training weights
/// of each stage, with reports.
pub fn fit_all(
    samples: &[Sample],
    dir: &Path,
    opts: &FitOptions,
    on_stage: &mut dyn FnMut(&StageReport),
    on_iteration: &mut dyn FnMut(usize, usize, f64),
) -> Result<Vec<Vec<f32>>> {
    std::fs::create_dir_all(dir).map_err(|e| TrainError::io(dir, e))?;
    let mut all: Vec<Vec<f32>> = Vec::with_capacity(STAGES);
    let mut prev = vec![0f32; STAGE_SIZE];
    for s in 0..STAGES {
        let path = stage_path(dir, s);
        let lo = s.saturating_sub(opts.window);
        let hi = (s + opts.window).min(STAGES - 1);
        let in_stage = |x: &Sample| stage(x.empties()) == s;
        let heldout: Vec<&Sample> = samples
            .iter()
            .filter(|x| x.heldout() && x.labelled() && in_stage(x))
            .collect();
        if let Some(w) = load_stage(&path) {
            let held = Problem::new(&heldout, 1.0, opts.threads);
            let mae = if heldout.is_empty() {
                f64::NAN
            } else {
                held.mae(&w)
            };
            on_stage(&StageReport {
                stage: s,
                positions: 0,
                iterations: 0,
                train_mae: f64::NAN,
                heldout_mae: mae,
                heldout: heldout.len(),
                resumed: true,
            });
            prev = w.clone();
            all.push(w);
            continue;
        }
        let fitted: Vec<&Sample> = samples
            .iter()
            .filter(|x| !x.heldout() && x.labelled() && (lo..=hi).contains(&stage(x.empties())))
            .collect();
        let (w, iterations, train_mae, heldout_mae) =
            fit_stage(&fitted, &heldout, in_stage, &prev, opts, &mut |i, r| {
                on_iteration(s, i, r)
            });
        let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, bytes).map_err(|e| TrainError::io(&tmp, e))?;
        std::fs::rename(&tmp, &path).map_err(|e| TrainError::io(&path, e))?;
        on_stage(&StageReport {
            stage: s,
            positions: fitted.len(),
            iterations,
            train_mae,
            heldout_mae,
            heldout: heldout.len(),
            resumed: false,
        });
        prev = w.clone();
        all.push(w);
    }
    Ok(all)
}

/// Folds and rounds training weights into the engine's evaluation.
pub fn to_learned(stages: &[Vec<f32>]) -> Learned {
    let mut out = Vec::with_capacity(STAGES * STAGE_SIZE);
    for w in stages {
        out.extend(
            fold(w)
                .iter()
                .map(|&x| (x * SCALE as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16),
        );
    }
    Learned::from_weights(out)
}

/// FNV-1a, 64 bits: the content hash in the weights file's name.
pub fn content_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// Writes `learned` compressed into `dir` as `eval-<hash>.zst` and returns the path.
pub fn write_weights(learned: &Learned, dir: &Path) -> Result<PathBuf> {
    let raw = learned.to_raw();
    let packed = zstd::stream::encode_all(&raw[..], 19).map_err(|e| TrainError::io(dir, e))?;
    let name = format!("eval-{:016x}.zst", content_hash(&packed));
    let path = dir.join(&name);
    std::fs::create_dir_all(dir).map_err(|e| TrainError::io(dir, e))?;
    std::fs::write(&path, &packed).map_err(|e| TrainError::io(&path, e))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::HELDOUT;

    /// A xorshift sequence from `seed`: random boards without a dependency.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// One stage fitted from zero weights on every position, quietly.
    fn fit(fitted: &[&Sample], held: &[&Sample], opts: &FitOptions) -> (Vec<f32>, usize, f64, f64) {
        fit_stage(
            fitted,
            held,
            |_| true,
            &vec![0.0; STAGE_SIZE],
            opts,
            &mut |_, _| {},
        )
    }

    /// A planted model: labels made by known weights on random positions are recovered.
    #[test]
    fn recovers_a_planted_linear_model() {
        let mut next = xorshift(12345);
        // Only the extra tables (mobility, parity, constant) carry weight: few enough to learn.
        let mut truth = vec![0f32; STAGE_SIZE];
        let extra0 =
            reversi_engine::eval::pattern::OFFSETS[reversi_engine::eval::pattern::PATTERNS.len()] as usize;
        for (k, t) in truth[extra0..].iter_mut().enumerate() {
            *t = ((k * 7) % 11) as f32 - 5.0;
        }
        let samples: Vec<Sample> = (0..6000)
            .map(|i| {
                let (a, b) = (next(), next());
                let (p, o) = (
                    a & b & 0x00FF_FFFF_FFFF_FF00 | 0x0000_0008_1000_0000,
                    a & !b & 0x00FF_FFFF_FFFF_FF00,
                );
                let (p, o) = (p & !o, o & !p);
                let y: f32 = features(p, o).iter().map(|&j| truth[j as usize]).sum();
                Sample {
                    p,
                    o,
                    label: y,
                    count: 1,
                    flags: if i % 10 == 0 { HELDOUT } else { 0 },
                }
            })
            .collect();
        let fitted: Vec<&Sample> = samples.iter().filter(|s| !s.heldout()).collect();
        let held: Vec<&Sample> = samples.iter().filter(|s| s.heldout()).collect();
        let opts = FitOptions {
            lambda: 1e-3,
            iterations: 300,
            tolerance: 1e-7,
            patience: 0,
            ..FitOptions::default()
        };
        let (_, _, train, heldout) = fit(&fitted, &held, &opts);
        assert!(train < 0.05, "train MAE {train}");
        // Patterns soak up some of the signal on so few positions; the held-out error must still be
        // a small fraction of what guessing the mean gives.
        let mean = held.iter().map(|s| s.label as f64).sum::<f64>() / held.len() as f64;
        let baseline = held.iter().map(|s| (s.label as f64 - mean).abs()).sum::<f64>() / held.len() as f64;
        assert!(
            heldout < 0.2 * baseline,
            "held-out MAE {heldout}, baseline {baseline}"
        );
        // Same answer with another number of threads: the sums are in a fixed order.
        let one = FitOptions {
            threads: 1,
            iterations: 5,
            ..opts.clone()
        };
        let three = FitOptions {
            threads: 3,
            iterations: 5,
            ..opts
        };
        let a = fit(&fitted, &held, &one).0;
        let b = fit(&fitted, &held, &three).0;
        assert_eq!(a, b);
    }

    /// On labels that are mostly noise, the held-out error stops improving early: the fit stops
    /// there and keeps its best weights, which are no worse on the held-out positions than the
    /// weights of a fit run to the end.
    #[test]
    fn early_stopping_keeps_the_best_held_out_weights() {
        let mut next = xorshift(99);
        let samples: Vec<Sample> = (0..3000)
            .map(|i| {
                let (a, b) = (next(), next());
                let (p, o) = (a & b, a & !b);
                let noise = (next() % 41) as f32 - 20.0;
                Sample {
                    p,
                    o,
                    label: (p.count_ones() as f32 - o.count_ones() as f32) + noise,
                    count: 1,
                    flags: if i % 5 == 0 { HELDOUT } else { 0 },
                }
            })
            .collect();
        let fitted: Vec<&Sample> = samples.iter().filter(|s| !s.heldout()).collect();
        let held: Vec<&Sample> = samples.iter().filter(|s| s.heldout()).collect();
        let base = FitOptions {
            lambda: 1e-3,
            iterations: 200,
            tolerance: 1e-9,
            threads: 1,
            ..FitOptions::default()
        };
        let run = |patience| {
            fit(
                &fitted,
                &held,
                &FitOptions {
                    patience,
                    ..base.clone()
                },
            )
        };
        let (w_early, it_early, _, _) = run(2);
        let (w_full, it_full, _, _) = run(0);
        assert!(it_early < it_full, "{it_early} vs {it_full}");
        let p = Problem::new(&held, 1.0, 1);
        assert!(
            p.mse(&w_early) <= p.mse(&w_full),
            "{} > {}",
            p.mse(&w_early),
            p.mse(&w_full)
        );
    }
}
