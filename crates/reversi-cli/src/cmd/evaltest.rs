//! `reversi evaltest`: problem sets with the exact score of every move (made from held-out
//! WTHOR positions), and how a fixed-depth search does on them (reversi_train::evaltest).

use crate::out::outln;
use anyhow::{Context, Result};
use reversi_core::format::obf::{parse_obf, write_obf_line};
use reversi_engine::Engine;
use reversi_train::evaltest::{depth_limits, pick, problem, run as run_set, Report};
use reversi_train::puzzles::wthor_games;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `reversi evaltest`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand, Debug)]
enum Action {
    /// Make a set: positions with `--empties` empties from WTHOR games (held out of the
    /// training split), every legal move solved exactly. Appends to the file, so a rerun with
    /// the same arguments goes on where it stopped.
    Make {
        /// The folder of `.wtb` files.
        #[arg(long, default_value = "data/wthor")]
        wthor: PathBuf,
        /// Empty squares of the positions.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=40))]
        empties: u32,
        /// Positions wanted.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        count: u32,
        /// The order the games are taken in.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Solver threads (one position each).
        #[arg(long, short, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Transposition table per thread, MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// The OBF file to write.
        #[arg(long, short = 'o')]
        out: PathBuf,
    },
    /// Search every position of the sets at a fixed depth, from an empty table, and print per
    /// number of empties: best-move rate, one of the two best, within 3 discs, the mean error
    /// of the score against the exact best, the mean loss of the move chosen, nodes and time.
    Run {
        /// OBF files whose lines score every move (as `make` writes them).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Search depth, plies.
        #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
        /// Multi-ProbCut selectivity index (0 none … 5 the most; the levels use 3 at depths
        /// 11–20); default: the level of that depth's.
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=5))]
        selectivity: Option<u32>,
        /// Evaluation: `learned`, `hand`, or a weights file.
        #[arg(long, default_value = "learned")]
        eval: String,
        /// Threads (one position each).
        #[arg(long, short, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Transposition table per thread, MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    match a.action {
        Action::Make {
            wthor,
            empties,
            count,
            seed,
            threads,
            hash,
            out,
        } => make(wthor, empties, count as usize, seed, threads as usize, hash, out),
        Action::Run {
            files,
            depth,
            selectivity,
            eval,
            threads,
            hash,
            json,
        } => measure(files, depth, selectivity, &eval, threads as usize, hash, json),
    }
}

fn make(
    wthor: PathBuf,
    empties: u32,
    count: usize,
    seed: u64,
    threads: usize,
    hash: usize,
    out: PathBuf,
) -> Result<()> {
    let started = std::time::Instant::now();
    let games = wthor_games(&wthor).with_context(|| format!("cannot read {}", wthor.display()))?;
    anyhow::ensure!(!games.is_empty(), "{}: no WTHOR games", wthor.display());
    let picked = pick(&games, empties, count, seed);
    let done = if out.exists() {
        let text = crate::input::read_text(&out)?;
        parse_obf(&text).with_context(|| out.display().to_string())?.len()
    } else {
        0
    };
    if done >= picked.len() {
        outln!("{} already holds {done} positions", out.display())?;
        return Ok(());
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out)
        .with_context(|| format!("cannot write {}", out.display()))?;
    let bar = super::train::bar(picked.len() as u64, "positions");
    bar.set_position(done as u64);
    let engines: Vec<Engine> = (0..threads)
        .map(|_| Engine::new(hash, 1))
        .collect::<Result<_, _>>()?;
    let next = std::sync::atomic::AtomicUsize::new(done);
    // Lines are written in the set's order, whatever the threads: the file is the same, and
    // a rerun knows where to go on.
    let state = std::sync::Mutex::new((file, std::collections::BTreeMap::<usize, String>::new(), done));
    std::thread::scope(|s| -> Result<()> {
        let handles: Vec<_> = engines
            .iter()
            .map(|engine| {
                s.spawn(|| -> Result<()> {
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((pos, source)) = picked.get(i) else {
                            return Ok(());
                        };
                        engine.clear();
                        let line = format!("{} % {source}", write_obf_line(&problem(engine, pos)));
                        let mut g = state.lock().expect("no panics while locked");
                        let (file, pending, written) = &mut *g;
                        pending.insert(i, line);
                        while let Some(line) = pending.remove(written) {
                            writeln!(file, "{line}").context("writing a position")?;
                            *written += 1;
                            bar.inc(1);
                        }
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().expect("a solver thread panicked")?;
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    outln!(
        "{} positions with {empties} empties, every move solved, in {:.0} s: {}",
        picked.len(),
        started.elapsed().as_secs_f64(),
        out.display()
    )?;
    Ok(())
}

fn measure(
    files: Vec<PathBuf>,
    depth: u32,
    selectivity: Option<u32>,
    eval: &str,
    threads: usize,
    hash: usize,
    json: bool,
) -> Result<()> {
    let mut set = Vec::new();
    for f in &files {
        let text = crate::input::read_text(f)?;
        set.extend(parse_obf(&text).with_context(|| f.display().to_string())?);
    }
    anyhow::ensure!(!set.is_empty(), "no positions in the files");
    let choice = super::engine_args::eval_choice(eval)?;
    let engines: Vec<Engine> = (0..threads)
        .map(|_| Engine::with_evaluator(hash, 1, choice.evaluator()))
        .collect::<Result<_, _>>()?;
    let sel = selectivity.map_or_else(
        || reversi_engine::levels::Level::new(depth).selectivity,
        |s| s as usize,
    );
    let limits = depth_limits(depth, sel);
    let bar = super::train::bar(set.len() as u64, "positions");
    let by = run_set(&engines, &set, &limits, &|| bar.inc(1));
    bar.finish_and_clear();
    let mut all = Report::default();
    for (_, r) in &by {
        all.add(r);
    }
    let rows: Vec<(String, &Report)> = by
        .iter()
        .map(|(e, r)| (e.to_string(), r))
        .chain((by.len() > 1).then(|| ("all".to_string(), &all)))
        .collect();
    if json {
        let v: Vec<serde_json::Value> = rows
            .iter()
            .map(|(e, r)| {
                serde_json::json!({
                    "empties": e, "positions": r.positions, "best_pct": r.best_pct(), "top2_pct": r.top2_pct(),
                    "within3_pct": r.within3_pct(), "score_error": r.mean_score_error(), "loss": r.mean_loss(),
                    "nodes": r.nodes, "seconds": r.time.as_secs_f64(),
                })
            })
            .collect();
        outln!(
            "{}",
            serde_json::json!({ "depth": depth, "selectivity": sel, "eval": eval, "sets": v })
        )?;
        return Ok(());
    }
    outln!("depth {depth}, selectivity {sel}, evaluation {eval}")?;
    outln!("empties  positions   best   top-2  ±3 discs  score error  loss   nodes        time")?;
    for (e, r) in rows {
        outln!(
            "{e:>7}  {:>9}  {:>5.1}%  {:>5.1}%  {:>7.1}%  {:>11.2}  {:>4.2}  {:>11}  {:>6.1} s",
            r.positions,
            r.best_pct(),
            r.top2_pct(),
            r.within3_pct(),
            r.mean_score_error(),
            r.mean_loss(),
            r.nodes,
            r.time.as_secs_f64()
        )?;
    }
    Ok(())
}
