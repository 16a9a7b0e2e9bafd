//! `reversi solve`: exact (or win/loss/draw) scores of the positions in an OBF file.

use crate::out::outln;
use anyhow::{bail, Context, Result};
use reversi_core::format::obf::parse_obf;
use reversi_core::{AnyPosition, Square};
use reversi_engine::endgame::Kernel;
use reversi_engine::tt::NO_MOVE;
use reversi_engine::Engine;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `reversi solve`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Each line of the file: a 64-character board from a1 (X black, O white, - empty), \
the side to move, and optionally `; move:score; ...` with the expected scores (as in the FFO files).\n\
Scores are disc differences for the side to move, empties to the winner. The command exits with \
status 1 if any score differs from the expected one (a file scored by search, as `reversi evaltest \
make --depth` writes it, has its scores shown but not checked)."
)]
pub struct Args {
    /// OBF file of positions.
    file: PathBuf,
    /// Search threads (1–256).
    #[arg(long, short = 't', default_value_t = 1, value_parser = super::engine_args::threads)]
    threads: usize,
    /// Only decide win, loss or draw (faster).
    #[arg(long)]
    wld: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Transposition table size in MiB.
    // 64 rather than 256: fewer nodes and less time even on the largest FFO positions (1
    // thread, same build): #55 9.78 G nodes 327 s against 10.0 G 339 s; #45, 48, 49, 50
    // 1,302 M 52.9 s against 1,315 M 54.7 s. Every probe is a random access, and the smaller
    // table also misses the TLB less. Smaller still is faster on small positions, not overall
    // (1 thread): 4 MiB took #40–47 in 9.3–9.5 s against 10.0–10.5 s, but 8 MiB took #40–59 in
    // 746 s (23.19 G nodes) against 719 s (22.54 G). Nor did a separate 4 MiB part for
    // positions of at most 14 empties pay: 33–36 M nodes/s on #40–47 instead of 31 M, but more
    // nodes (#50 1.01 G against 764 M, #53 2.94 G against 2.61 G) for about the same time.
    // Once the nodes of 6–10 empties kept a small table per thread (`local_tt`), 16 MiB took
    // #40–59 in 594.5 s (19.97 G nodes) against 599.0 s (20.22 G): within noise, so 64 stays.
    #[arg(long, default_value_t = 64, value_parser = super::engine_args::hash_mib)]
    hash: usize,
    /// Evaluation that sorts moves near the root: `learned`, `hand`, or a weights file.
    #[arg(long, default_value = "learned")]
    eval: String,
    /// Number of the first position (FFO files start at 1, 20, 40 and 60).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    first: u32,
    /// Move-generation kernel: `best` (the fastest this CPU runs), `portable`, `avx2` or
    /// `avx512`. All make the same search (the same nodes); they differ only in speed.
    #[arg(long, value_enum, default_value_t = KernelArg::Best)]
    kernel: KernelArg,
}

/// The `--kernel` choices.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum KernelArg {
    Best,
    Portable,
    Avx2,
    Avx512,
}

#[derive(Serialize)]
struct Line {
    index: u64,
    empties: u32,
    best: String,
    score: i32,
    expected: Option<i32>,
    ok: Option<bool>,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
}

#[derive(Serialize)]
struct Report {
    positions: Vec<Line>,
    total_nodes: u64,
    total_seconds: f64,
    nodes_per_second: f64,
    mismatches: usize,
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let text = crate::input::read_text(&a.file)?;
    let entries = parse_obf(&text).with_context(|| format!("{}", a.file.display()))?;
    // A set scored by search (`reversi evaltest make --depth`) has no exact scores to check.
    let reference = reversi_train::evaltest::Reference::of(&text);
    let check = reference == reversi_train::evaltest::Reference::Exact;
    if !check {
        eprintln!(
            "{}: its scores come from {reference}, not the solver: they are shown, not checked",
            a.file.display()
        );
    }
    let eval = super::engine_args::eval_choice(&a.eval)?;
    let mut engine = Engine::with_evaluator(a.hash, a.threads, eval.evaluator())?;
    let kernel = match a.kernel {
        KernelArg::Best => Kernel::best(),
        KernelArg::Portable => Kernel::Portable,
        KernelArg::Avx2 => Kernel::Avx2,
        KernelArg::Avx512 => Kernel::Avx512,
    };
    if !kernel.available() {
        let name = |k: Kernel| format!("{k:?}").to_lowercase();
        bail!(
            "--kernel {}: this CPU lacks the instructions it needs; use --kernel best (here: {})",
            name(kernel),
            name(Kernel::best())
        );
    }
    engine.set_kernel(kernel);
    let stop = AtomicBool::new(false);
    let mut lines = Vec::new();
    if !a.json {
        outln!("   #  emp  move  score  expect          nodes      time        nodes/s")?;
    }
    let start = Instant::now();
    for (i, e) in entries.iter().enumerate() {
        let AnyPosition::Small(pos) = &e.position else {
            bail!("position {} is not 8×8", i + 1)
        };
        let me = pos.side_to_move();
        engine.clear();
        let t = Instant::now();
        let r = engine.solve(pos.discs(me), pos.discs(!me), a.wld, &stop, &mut |_| {});
        let secs = t.elapsed().as_secs_f64();
        let expected = e.best_score().map(|s| if a.wld { s.signum() } else { s });
        let best = match r.best {
            Some(b) if b != NO_MOVE => Square::from_bit8(b as u32).to_string(),
            _ => "pass".to_string(),
        };
        let line = Line {
            index: u64::from(a.first) + i as u64,
            empties: e.empties(),
            best,
            score: r.info.score,
            expected,
            ok: expected.filter(|_| check).map(|x| x == r.info.score),
            nodes: r.info.nodes,
            seconds: secs,
            nodes_per_second: r.info.nodes as f64 / secs.max(1e-9),
        };
        if !a.json {
            outln!(
                "{:>4}  {:>3}  {:>4}  {:>+5}  {:>6}  {:>13}  {:>8.3}s  {:>13.0}{}",
                line.index,
                line.empties,
                line.best,
                line.score,
                expected.map_or("-".to_string(), |x| format!("{x:+}")),
                line.nodes,
                line.seconds,
                line.nodes_per_second,
                if line.ok == Some(false) { "  MISMATCH" } else { "" }
            )?;
        }
        lines.push(line);
    }
    let total_nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let total = start.elapsed().as_secs_f64();
    let mismatches = lines.iter().filter(|l| l.ok == Some(false)).count();
    let report = Report {
        total_nodes,
        total_seconds: total,
        nodes_per_second: total_nodes as f64 / total.max(1e-9),
        mismatches,
        positions: lines,
    };
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        outln!(
            "{} positions, {} nodes in {:.3}s ({:.0} nodes/s); {} mismatches",
            report.positions.len(),
            report.total_nodes,
            report.total_seconds,
            report.nodes_per_second,
            mismatches
        )?;
    }
    if mismatches > 0 {
        std::process::exit(1);
    }
    Ok(())
}
