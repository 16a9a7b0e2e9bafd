//! `reversi puzzle generate`: puzzles from the WTHOR games, each proved by the exact solver
//! (reversi_train::puzzles says what makes one), written as the data file the site ships.

use crate::out::outln;
use anyhow::{Context, Result};
use reversi_train::puzzles::{first_puzzle, wthor_games, Puzzle, MAX_EMPTIES};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `reversi puzzle`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand, Debug)]
enum Action {
    /// Find puzzles in the games of a WTHOR folder (at most one per game), in a seeded order
    /// of the games: the same arguments give the same file, whatever the threads.
    Generate {
        /// The folder of `.wtb` files.
        #[arg(long, default_value = "data/wthor")]
        wthor: PathBuf,
        /// The file to write (tab-separated; see reversi_train::puzzles).
        #[arg(long, default_value = "data/puzzles/puzzles.tsv")]
        out: PathBuf,
        /// Puzzles wanted.
        #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        count: u32,
        /// Fewest empties of a puzzle.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=20))]
        min_empties: u32,
        /// Most empties of a puzzle (at most 20: every value is proved exactly).
        #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(1..=20))]
        max_empties: u32,
        /// The order of the games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads, each with its own engine.
        #[arg(long, short, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
    },
}

/// Games searched per thread between two looks at the count.
const CHUNK: usize = 32;

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let Action::Generate {
        wthor,
        out,
        count,
        min_empties,
        max_empties,
        seed,
        threads,
    } = a.action;
    anyhow::ensure!(
        min_empties <= max_empties,
        "--min-empties must not exceed --max-empties"
    );
    anyhow::ensure!(
        max_empties <= MAX_EMPTIES,
        "--max-empties is at most {MAX_EMPTIES}"
    );
    let started = std::time::Instant::now();
    let mut games = wthor_games(&wthor).with_context(|| format!("cannot read {}", wthor.display()))?;
    anyhow::ensure!(!games.is_empty(), "{}: no WTHOR games", wthor.display());
    // A seeded shuffle (Fisher–Yates with xorshift): puzzles from every era.
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for i in (1..games.len()).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        games.swap(i, (s % (i as u64 + 1)) as usize);
    }
    let bar = crate::progress::bar(count as u64, "puzzles");
    let engines: Vec<reversi_engine::Engine> = (0..threads)
        .map(|_| reversi_engine::Engine::new(16, 1))
        .collect::<Result<_, _>>()?;
    let mut found: Vec<Puzzle> = Vec::new();
    let mut searched = 0;
    let batch = CHUNK * threads as usize;
    for block in games.chunks(batch) {
        let results: Vec<Vec<Option<Puzzle>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = block
                .chunks(CHUNK)
                .zip(&engines)
                .map(|(part, engine)| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|g| first_puzzle(engine, g, min_empties, max_empties))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a puzzle worker panicked"))
                .collect()
        });
        searched += block.len();
        for p in results.into_iter().flatten().flatten() {
            if found.len() < count as usize {
                found.push(p);
                bar.inc(1);
            }
        }
        if found.len() >= count as usize {
            break;
        }
    }
    bar.finish_and_clear();
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    }
    let mut f = std::io::BufWriter::new(
        std::fs::File::create(&out).with_context(|| format!("cannot write {}", out.display()))?,
    );
    writeln!(
        f,
        "# id\tboard\tline\tscore\tkind\tthemes\tsource\tempties\trating"
    )?;
    for (i, p) in found.iter().enumerate() {
        writeln!(f, "{}", p.tsv(i + 1))?;
    }
    f.flush()?;
    let wins = found.iter().filter(|p| p.win).count();
    outln!(
        "{} puzzles ({} only-winning-move, {} only-best-score; all proved exactly) from {} of {} games in {:.0} s: {}",
        found.len(),
        wins,
        found.len() - wins,
        searched,
        games.len(),
        started.elapsed().as_secs_f64(),
        out.display()
    )?;
    Ok(())
}
