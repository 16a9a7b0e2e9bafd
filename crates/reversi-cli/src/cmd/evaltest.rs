//! `reversi evaltest`: problem sets with the exact score of every move, or a deep search's where
//! the solver does not reach (made from held-out WTHOR positions), and how a fixed-depth search
//! does on them (reversi_train::evaltest).

use crate::out::outln;
use anyhow::{Context, Result};
use reversi_core::format::obf::{parse_obf, write_obf_line};
use reversi_engine::Engine;
use reversi_train::evaltest::{
    depth_limits, pick, problem, problem_by_search, run as run_set, Reference, Report,
};
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
    /// training split), every legal move solved exactly (or, with `--depth`, searched deep).
    /// Appends to the file, so a rerun with the same arguments goes on where it stopped.
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
        /// Score every move by a search of this many plies (the move included) instead of
        /// solving it: for sets deeper than the solver reaches (on two cores, about 26
        /// empties). The file says so in its first line.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=60))]
        depth: Option<u32>,
        /// Multi-ProbCut selectivity of those searches (0 full width, 1 99 % … 5 87 %).
        #[arg(long, default_value_t = 1, requires = "depth", value_parser = clap::value_parser!(u32).range(0..=5))]
        selectivity: u32,
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
    /// of the score against the best move's, the mean loss of the move chosen, nodes and time
    /// (against the set's own scores: exact, or a deep search's when it was made with `--depth`).
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
            depth,
            selectivity,
            threads,
            hash,
            out,
        } => {
            let reference = depth.map_or(Reference::Exact, |depth| Reference::Search {
                depth,
                selectivity: selectivity as usize,
            });
            make(
                wthor,
                empties,
                count as usize,
                seed,
                reference,
                threads as usize,
                hash,
                out,
            )
        }
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

#[allow(clippy::too_many_arguments)]
fn make(
    wthor: PathBuf,
    empties: u32,
    count: usize,
    seed: u64,
    reference: Reference,
    threads: usize,
    hash: usize,
    out: PathBuf,
) -> Result<()> {
    let started = std::time::Instant::now();
    let games = wthor_games(&wthor).with_context(|| format!("cannot read {}", wthor.display()))?;
    anyhow::ensure!(!games.is_empty(), "{}: no WTHOR games", wthor.display());
    let picked = pick(&games, empties, count, seed);
    let mut fresh = true;
    let done = if out.exists() {
        let text = crate::input::read_text(&out)?;
        let held = parse_obf(&text).with_context(|| out.display().to_string())?.len();
        let has = Reference::of(&text);
        fresh = text.trim().is_empty();
        anyhow::ensure!(
            has == reference || fresh,
            "{} holds a set scored by {has}, not by {reference}: give another file",
            out.display()
        );
        held
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
    if fresh {
        if let Some(header) = reference.header() {
            writeln!(&file, "{header}").context("writing the header")?;
        }
    }
    let bar = crate::progress::bar(picked.len() as u64, "positions");
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
                        let entry = match reference {
                            Reference::Exact => problem(engine, pos),
                            Reference::Search { depth, selectivity } => {
                                problem_by_search(engine, pos, depth, selectivity)
                            }
                        };
                        let line = format!("{} % {source}", write_obf_line(&entry));
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
    let how = match reference {
        Reference::Exact => "solved".to_string(),
        Reference::Search { depth, .. } => format!("searched {depth} plies"),
    };
    outln!(
        "{} positions with {empties} empties, every move {how}, in {:.0} s: {}",
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
    let mut reference = None;
    for f in &files {
        let text = crate::input::read_text(f)?;
        let this = Reference::of(&text);
        // One report per number of empties: its scores must all mean the same thing.
        if let Some(r) = reference.filter(|&r| r != this) {
            anyhow::bail!(
                "{} is scored by {this}, the files before it by {r}: measure them apart",
                f.display()
            );
        }
        reference = Some(this);
        set.extend(parse_obf(&text).with_context(|| f.display().to_string())?);
    }
    let reference = reference.unwrap_or(Reference::Exact);
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
    let bar = crate::progress::bar(set.len() as u64, "positions");
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
                    "within3_pct": r.within3_pct(), "score_error": r.mean_score_error(),
                    "score_bias": r.mean_score_bias(), "loss": r.mean_loss(),
                    "nodes": r.nodes, "seconds": r.time.as_secs_f64(),
                })
            })
            .collect();
        outln!(
            "{}",
            serde_json::json!({
                "depth": depth, "selectivity": sel, "eval": eval, "reference": reference.to_string(), "sets": v,
            })
        )?;
        return Ok(());
    }
    outln!("depth {depth}, selectivity {sel}, evaluation {eval}, against {reference}")?;
    outln!("empties  positions   best   top-2  ±3 discs  score error   bias  loss   nodes        time")?;
    for (e, r) in rows {
        outln!(
            "{e:>7}  {:>9}  {:>5.1}%  {:>5.1}%  {:>7.1}%  {:>11.2}  {:>+5.2}  {:>4.2}  {:>11}  {:>6.1} s",
            r.positions,
            r.best_pct(),
            r.top2_pct(),
            r.within3_pct(),
            r.mean_score_error(),
            r.mean_score_bias(),
            r.mean_loss(),
            r.nodes,
            r.time.as_secs_f64()
        )?;
    }
    Ok(())
}
