//! `reversi train`: the pipeline that makes the learned evaluation (see `reversi-train`).

use crate::out::outln;
use crate::progress::bar;
use anyhow::{bail, Context, Result};
use reversi_core::Square;
use reversi_engine::eval::pattern::STAGES;
use reversi_engine::eval::{HandTuned, Learned};
use reversi_engine::{Engine, Evaluator};
use reversi_train::dataset::{self, Sample};
use reversi_train::fit::{self, FitOptions};
use reversi_train::{label, measure, selfplay, sources};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Arguments of `reversi train`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Steps, in order: generate → positions → label → fit → test. Each writes a file \
and can be rerun; label and fit resume after an interruption. The \"Learned evaluation\" section of \
docs/engine.md gives the commands that made the shipped weights."
)]
pub struct Args {
    #[command(subcommand)]
    step: Step,
}

#[derive(clap::Subcommand, Debug)]
enum Step {
    /// Self-play games from XOT and random openings, one transcript a line.
    Generate(GenerateArgs),
    /// Collect the positions of game files, deduplicate them by symmetry, label them with the
    /// game results and hold some out.
    Positions(PositionsArgs),
    /// Add positions near the end by random play from the positions of the file (unlabelled:
    /// `label` then solves them).
    Augment(AugmentArgs),
    /// Replace the labels of positions with few empties by exact solver scores.
    Label(LabelArgs),
    /// Fit the weights stage by stage and write the compressed weights file.
    Fit(FitArgs),
    /// Measure an evaluation on the held-out positions.
    Test(TestArgs),
}

#[derive(clap::Args, Debug)]
struct GenerateArgs {
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Engine level of both players.
    #[arg(long, default_value_t = 4)]
    level: u32,
    /// Random opening moves (odd-numbered games; even ones start from an XOT line).
    #[arg(long, default_value_t = 12)]
    random_plies: u32,
    /// XOT list (one opening a line).
    #[arg(long, default_value = "data/xot/sensei_xot_large.txt")]
    xot: PathBuf,
    /// Seed of the openings and the level's noise.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (games are played in parallel).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Output file (appended to: a rerun with the same seed continues where it stopped).
    #[arg(long, short = 'o')]
    out: PathBuf,
}

#[derive(clap::Args, Debug)]
struct PositionsArgs {
    /// A folder of WTHOR `.wtb` files.
    #[arg(long)]
    wthor: Option<PathBuf>,
    /// Logistello's `logbook.gam` (gzipped or not).
    #[arg(long)]
    logistello: Option<PathBuf>,
    /// Transcript files (e.g. from `reversi train generate`).
    #[arg(long)]
    games: Vec<PathBuf>,
    /// Positions held out of the fit, per thousand.
    #[arg(long, default_value_t = 30)]
    heldout: u64,
    /// Seed of the held-out split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output positions file.
    #[arg(long, short = 'o')]
    out: PathBuf,
}

#[derive(clap::Args, Debug)]
struct AugmentArgs {
    /// Positions file (rewritten with the new positions added).
    positions: PathBuf,
    /// Empties of the new positions, `LO-HI`.
    #[arg(long, default_value = "4-16", value_parser = parse_range)]
    empties: (u32, u32),
    /// New positions wanted for each number of empties.
    #[arg(long, default_value_t = 100_000)]
    per_empties: usize,
    /// Seed of the random play.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(clap::Args, Debug)]
struct LabelArgs {
    /// Positions file (rewritten with the exact labels).
    positions: PathBuf,
    /// Solve positions with at most this many empties.
    #[arg(long, default_value_t = 14)]
    empties: u32,
    /// Solver threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Instead of solving: label positions with `--search-empties` empties by a search this
    /// many plies deep with the evaluation of `--eval`.
    #[arg(long)]
    search_depth: Option<u32>,
    /// Empties of the positions to label by search, `LO-HI`.
    #[arg(long, default_value = "13-23", value_parser = parse_range)]
    search_empties: (u32, u32),
    /// Share of the search value in the new label (the rest is the old label).
    #[arg(long, default_value_t = 1.0)]
    mix: f32,
    /// Evaluation of the labelling search (and the one that sorts the solver's moves):
    /// `learned`, `hand`, or a weights file.
    #[arg(long, default_value = "learned")]
    eval: String,
}

fn parse_range(s: &str) -> std::result::Result<(u32, u32), String> {
    let (a, b) = s
        .split_once('-')
        .ok_or_else(|| format!("expected LO-HI, got {s:?}"))?;
    let a: u32 = a.trim().parse().map_err(|_| format!("not a number: {a:?}"))?;
    let b: u32 = b.trim().parse().map_err(|_| format!("not a number: {b:?}"))?;
    if a > b || b > 60 {
        return Err(format!("bad range {a}-{b}"));
    }
    Ok((a, b))
}

#[derive(clap::Args, Debug)]
struct FitArgs {
    /// Positions file.
    positions: PathBuf,
    /// Folder for the per-stage checkpoints (a rerun resumes from them).
    #[arg(long, default_value = "train/fit")]
    work: PathBuf,
    /// Folder for the final weights file `eval-<hash>.zst`.
    #[arg(long, default_value = "crates/reversi-engine/weights")]
    out: PathBuf,
    /// L2 regularisation λ.
    #[arg(long, default_value_t = 4.0)]
    lambda: f64,
    /// Conjugate-gradient iterations per stage, at most.
    #[arg(long, default_value_t = 60)]
    iterations: usize,
    /// Neighbouring stages on each side fitted together with a stage.
    #[arg(long, default_value_t = 1)]
    window: usize,
    /// Early stopping: stop a stage after this many measures of its held-out error (one every
    /// 5 iterations) without a new best, and keep the best (0: off).
    #[arg(long, default_value_t = 3)]
    patience: usize,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

#[derive(clap::Args, Debug)]
struct TestArgs {
    /// Positions file.
    positions: PathBuf,
    /// Weights file to test (default: the embedded weights).
    #[arg(long)]
    eval: Option<PathBuf>,
    /// Held-out positions solved exactly per number of empties from 20 to 24.
    #[arg(long, default_value_t = 60)]
    exact: usize,
    /// Held-out positions (16 empties) for best-move accuracy.
    #[arg(long, default_value_t = 300)]
    moves: usize,
    /// Search depth for best-move accuracy.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Threads for the exact solving.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Depth of the searches compared with exact scores (and of the deep reference search).
    #[arg(long, default_value_t = 4)]
    search_depth: u32,
    /// Held-out positions per stage (over 24 empties) compared with a deep search.
    #[arg(long, default_value_t = 0)]
    deep: usize,
    /// Depth of that reference search (learned evaluation).
    #[arg(long, default_value_t = 10)]
    deep_depth: u32,
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    match a.step {
        Step::Generate(g) => generate(g),
        Step::Positions(p) => positions(p),
        Step::Augment(a) => augment(a),
        Step::Label(l) => label_step(l),
        Step::Fit(f) => fit_step(f),
        Step::Test(t) => test(t),
    }
}

fn parse_xot(path: &Path) -> Result<Vec<Vec<u32>>> {
    let games = sources::transcript_games(path)?;
    Ok(games.into_iter().map(|g| g.squares).collect())
}

fn generate(a: GenerateArgs) -> Result<()> {
    let xot = parse_xot(&a.xot).with_context(|| format!("reading the XOT list {}", a.xot.display()))?;
    let done = if a.out.exists() {
        crate::input::read_text(&a.out)?
            .lines()
            .filter(|l| !l.trim().is_empty())
            .count() as u64
    } else {
        0
    };
    if done >= a.games {
        eprintln!("{} already holds {done} games", a.out.display());
        return Ok(());
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.out)
        .with_context(|| format!("opening {}", a.out.display()))?;
    let out = std::sync::Mutex::new((file, std::collections::BTreeMap::<u64, String>::new(), done));
    let next = AtomicU64::new(done);
    let pb = bar(a.games, "games");
    pb.set_position(done);
    let start = Instant::now();
    std::thread::scope(|s| -> Result<()> {
        let mut handles = Vec::new();
        for _ in 0..a.threads.max(1) {
            handles.push(s.spawn(|| -> Result<()> {
                let engine = Engine::new(16, 1)?;
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= a.games {
                        return Ok(());
                    }
                    engine.clear();
                    let squares = selfplay::play(&engine, a.level, n, a.seed, &xot, a.random_plies);
                    let line: String = squares
                        .iter()
                        .map(|&sq| Square::from_bit8(sq).to_string())
                        .collect();
                    // Lines are written in game order so that the file is the same whatever the
                    // number of threads, and a rerun knows how many games are done.
                    let mut guard = out.lock().expect("no panics while locked");
                    let (file, pending, written) = &mut *guard;
                    pending.insert(n, line);
                    while let Some(line) = pending.remove(written) {
                        writeln!(file, "{line}").context("writing a game")?;
                        *written += 1;
                    }
                    pb.inc(1);
                }
            }));
        }
        for h in handles {
            h.join().expect("worker")?;
        }
        Ok(())
    })?;
    pb.finish();
    eprintln!(
        "{} games at level {} in {:.1} s → {}",
        a.games - done,
        a.level,
        start.elapsed().as_secs_f64(),
        a.out.display()
    );
    Ok(())
}

fn positions(a: PositionsArgs) -> Result<()> {
    let mut games = Vec::new();
    if let Some(dir) = &a.wthor {
        let g = sources::wthor_games(dir)?;
        eprintln!("WTHOR: {} games", g.len());
        games.extend(g);
    }
    if let Some(f) = &a.logistello {
        let g = sources::logistello_games(f)?;
        eprintln!("Logistello: {} games", g.len());
        games.extend(g);
    }
    for f in &a.games {
        let g = sources::transcript_games(f)?;
        eprintln!("{}: {} games", f.display(), g.len());
        games.extend(g);
    }
    if games.is_empty() {
        bail!("no games: give --wthor, --logistello or --games");
    }
    let pb = bar(games.len() as u64, "games");
    let (samples, stats) = dataset::build(&games, a.heldout, a.seed, || pb.inc(1));
    pb.finish();
    dataset::save(&a.out, &samples)?;
    outln!(
        "games: WTHOR {}, Logistello {}, transcripts {}; skipped (illegal or unfinished) {}",
        stats.games[0],
        stats.games[1],
        stats.games[2],
        stats.skipped
    )?;
    outln!(
        "positions: {} seen, {} distinct up to symmetry, {} held out → {}",
        stats.positions,
        stats.distinct,
        stats.heldout,
        a.out.display()
    )?;
    Ok(())
}

fn augment(a: AugmentArgs) -> Result<()> {
    let mut samples = dataset::load(&a.positions)?;
    let start = Instant::now();
    let added = reversi_train::augment::add_random_endgames(
        &mut samples,
        a.empties.0..=a.empties.1,
        a.per_empties,
        a.seed,
    );
    dataset::save(&a.positions, &samples)?;
    outln!(
        "added {added} positions with {}–{} empties by random play in {:.0} s ({} in all); `reversi train label {} --empties {}` solves them",
        a.empties.0,
        a.empties.1,
        start.elapsed().as_secs_f64(),
        samples.len(),
        a.positions.display(),
        a.empties.1
    )?;
    Ok(())
}

fn label_step(a: LabelArgs) -> Result<()> {
    let mut samples = dataset::load(&a.positions)?;
    if let Some(depth) = a.search_depth {
        let eval = super::engine_args::eval_choice(&a.eval)?;
        let pb = bar(0, "searched");
        let start = Instant::now();
        let n = label::label_search(
            &mut samples,
            a.search_empties.0..=a.search_empties.1,
            depth,
            a.mix,
            a.threads,
            &|| Engine::with_evaluator(8, 1, eval.evaluator()),
            &|d, t| {
                pb.set_length(t);
                pb.set_position(d);
            },
        )?;
        pb.finish();
        dataset::save(&a.positions, &samples)?;
        outln!(
            "labelled {n} positions ({}–{} empties) by {}-ply search × {} + old label × {} in {:.0} s",
            a.search_empties.0,
            a.search_empties.1,
            depth,
            a.mix,
            1.0 - a.mix,
            start.elapsed().as_secs_f64()
        )?;
        return Ok(());
    }
    let checkpoint = a.positions.with_extension("exact");
    let pb = bar(0, "solved");
    let start = Instant::now();
    // The solver sorts moves with learned weights: the file given, else the embedded ones.
    let choice = super::engine_args::eval_choice(&a.eval)?;
    let ordering: &Learned = match &choice {
        reversi_engine::EvalChoice::Weights(w) => w,
        _ => Learned::embedded(),
    };
    let stats = label::label_exact(
        &mut samples,
        a.empties,
        a.threads,
        ordering,
        &checkpoint,
        &|d, t| {
            pb.set_length(t);
            pb.set_position(d);
        },
    )?;
    pb.finish();
    dataset::save(&a.positions, &samples)?;
    let secs = start.elapsed().as_secs_f64();
    outln!(
        "solved {} positions (≤ {} empties; {} from a checkpoint) in {:.1} s, {} nodes ({:.1} M nodes/s)",
        stats.solved,
        a.empties,
        stats.resumed,
        secs,
        stats.nodes,
        stats.nodes as f64 / secs / 1e6
    )?;
    outln!("game-result label vs exact score, mean absolute difference by empties:")?;
    for (e, mae, n) in &stats.label_error {
        outln!("  {e:>2} empties: {mae:6.2} discs ({n} positions)")?;
    }
    let _ = std::fs::remove_file(&checkpoint);
    Ok(())
}

fn fit_step(a: FitArgs) -> Result<()> {
    let samples = dataset::load(&a.positions)?;
    let opts = FitOptions {
        lambda: a.lambda,
        iterations: a.iterations,
        window: a.window,
        threads: a.threads,
        patience: a.patience,
        ..FitOptions::default()
    };
    let pb = bar(STAGES as u64 * opts.iterations as u64, "fit");
    let start = Instant::now();
    outln!("stage empties positions iterations train-MAE held-out-MAE (n)")?;
    let mut printed = crate::out::Lines::default();
    let stages = fit::fit_all(
        &samples,
        &a.work,
        &opts,
        &mut |r| {
            pb.set_position((r.stage as u64 + 1) * opts.iterations as u64);
            pb.suspend(|| {
                printed.line(format_args!(
                    "{:>5} {:>3}-{:<3} {:>9} {:>10} {:>9.2} {:>12.2} ({}){}",
                    r.stage,
                    2 * r.stage + 1,
                    2 * r.stage + 2,
                    r.positions,
                    r.iterations,
                    r.train_mae,
                    r.heldout_mae,
                    r.heldout,
                    if r.resumed { " resumed" } else { "" }
                ))
            });
        },
        &mut |s, i, res| {
            pb.set_position(s as u64 * opts.iterations as u64 + i as u64);
            pb.set_message(format!("st {s} r {res:.0e}"));
        },
    )?;
    printed.finish()?;
    pb.finish();
    let learned = fit::to_learned(&stages);
    let path = fit::write_weights(&learned, &a.out)?;
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    outln!(
        "fitted in {:.0} s → {} ({:.2} MiB)",
        start.elapsed().as_secs_f64(),
        path.display(),
        size as f64 / 1048576.0
    )?;
    Ok(())
}

fn load_eval(path: &Option<PathBuf>) -> Result<Learned> {
    match path {
        Some(p) => {
            let bytes = crate::input::read_weights(p)?;
            Learned::from_compressed(&bytes).with_context(|| format!("{}", p.display()))
        }
        None => Ok(Learned::embedded().clone()),
    }
}

fn test(a: TestArgs) -> Result<()> {
    let samples = dataset::load(&a.positions)?;
    let learned = load_eval(&a.eval)?;
    let evals: [(&str, &dyn Evaluator); 2] = [("learned", &learned), ("hand-tuned", &HandTuned)];
    outln!("held-out error by stage (label: exact score where solved, else game result), discs:")?;
    outln!("stage empties {:>10} {:>10}      n", evals[0].0, evals[1].0)?;
    let errs: Vec<_> = evals
        .iter()
        .map(|(_, e)| measure::heldout_error(&samples, *e, false))
        .collect();
    for s in 0..STAGES {
        let n = errs[0].stages[s].1;
        if n > 0 {
            outln!(
                "{s:>5} {:>3}-{:<3} {:>10.2} {:>10.2} {n:>6}",
                2 * s + 1,
                2 * s + 2,
                errs[0].stages[s].0,
                errs[1].stages[s].0
            )?;
        }
    }
    if a.exact > 0 {
        // Solving is the slow part: the solved sample is kept next to the positions file.
        let cache = a.positions.with_extension(format!("test-exact-{}", a.exact));
        let solved: Vec<(Sample, i32)> = match dataset::load(&cache) {
            Ok(c) => c.into_iter().map(|s| (s, s.label as i32)).collect(),
            Err(_) => {
                let pb = bar(0, "solving");
                let solved =
                    measure::exact_sample(&samples, 20..=24, a.exact, a.threads, &learned, &|d, t| {
                        pb.set_length(t as u64);
                        pb.set_position(d as u64);
                    })?;
                pb.finish();
                let keep: Vec<Sample> = solved
                    .iter()
                    .map(|(s, v)| Sample {
                        label: *v as f32,
                        ..*s
                    })
                    .collect();
                dataset::save(&cache, &keep)?;
                solved
            }
        };
        // The same positions' labels in the dataset (game results or search labels).
        let index: std::collections::HashMap<(u64, u64), f32> = samples
            .iter()
            .filter(|s| s.heldout())
            .map(|s| ((s.p, s.o), s.label))
            .collect();
        let with_labels: Vec<(Sample, f32, i32)> = solved
            .iter()
            .filter_map(|(s, v)| index.get(&(s.p, s.o)).map(|l| (*s, *l, *v)))
            .collect();
        outln!("dataset label against exact scores (held-out, 20–24 empties), mean absolute error:")?;
        for (e, mae, n) in measure::label_error(&with_labels) {
            outln!("  {e} empties: {mae:.2} ({n} positions)")?;
        }
        outln!("{}-ply search against exact scores:", a.search_depth)?;
        let engines = [
            Engine::with_evaluator(16, 1, Box::new(learned.clone()))?,
            Engine::with_evaluator(16, 1, Box::new(HandTuned))?,
        ];
        let s0 = measure::search_error(&solved, &engines[0], a.search_depth);
        let s1 = measure::search_error(&solved, &engines[1], a.search_depth);
        for (k, (e, mae, n)) in s0.iter().enumerate() {
            outln!(
                "  {e} empties: learned {mae:.2}, hand-tuned {:.2} ({n} positions)",
                s1[k].1
            )?;
        }
        outln!("against exact scores (held-out, 20–24 empties), mean absolute error in discs:")?;
        let by: Vec<_> = evals
            .iter()
            .map(|(_, e)| measure::exact_error(&solved, *e))
            .collect();
        for (k, (e, mae, n)) in by[0].iter().enumerate() {
            outln!(
                "  {e} empties: learned {mae:.2}, hand-tuned {:.2} ({n} positions)",
                by[1][k].1
            )?;
        }
    }
    if a.deep > 0 {
        let reference = Engine::with_evaluator(64, 1, Box::new(learned.clone()))?;
        let pb = bar(0, "deep");
        let by = measure::deep_error(
            &samples,
            &reference,
            &[&learned, &HandTuned],
            a.deep,
            a.deep_depth,
            || pb.inc(1),
        );
        pb.finish();
        outln!(
            "against a {}-ply search (learned evaluation), held-out, mean absolute difference:",
            a.deep_depth
        )?;
        for (st, maes, n) in by {
            outln!(
                "  stage {st:>2} ({}-{} empties): learned {:.2}, hand-tuned {:.2} ({n} positions)",
                2 * st + 1,
                2 * st + 2,
                maes[0],
                maes[1]
            )?;
        }
    }
    if a.moves > 0 {
        let mut picked: Vec<Sample> = samples
            .iter()
            .filter(|s| s.heldout() && s.empties() == 16)
            .copied()
            .collect();
        picked.sort_by_key(|s| dataset::mix(s.p ^ dataset::mix(s.o)));
        picked.truncate(a.moves);
        let pb = bar(picked.len() as u64, "moves");
        let tt = reversi_engine::tt::TranspositionTable::new(64)?;
        let solved: Vec<(Sample, Vec<(u32, i32)>)> = picked
            .into_iter()
            .map(|s| {
                pb.inc(1);
                let m = measure::exact_move_scores(s.p, s.o, &tt, &learned);
                (s, m)
            })
            .collect();
        pb.finish();
        let res = measure::best_move_accuracy(
            &solved,
            vec![Box::new(learned.clone()), Box::new(HandTuned)],
            a.depth,
        )?;
        outln!(
            "best move at depth {} on {} held-out positions with 16 empties:",
            a.depth,
            solved.len()
        )?;
        for (name, acc, loss) in res {
            outln!(
                "  {name:>10}: best move {:.1} %, mean loss {loss:.2} discs",
                100.0 * acc
            )?;
        }
    }
    Ok(())
}
