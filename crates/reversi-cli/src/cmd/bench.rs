//! `reversi bench`: the fixed benchmark; its node count is a fingerprint of the search.

use crate::out::outln;
use anyhow::Result;
use reversi_core::Square;
use reversi_engine::{bench, Engine};
use std::time::Instant;

/// Arguments of `reversi bench`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Searches four XOT openings and four FFO middlegames at a fixed depth and solves \
three FFO endgames exactly, clearing the table before each. With one thread the node total is \
the same on every machine; it changes only when the search changes."
)]
pub struct Args {
    /// Midgame depth.
    #[arg(default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Search threads (node counts are reproducible with 1).
    #[arg(long, short = 't', default_value_t = 1, value_parser = super::engine_args::threads)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = super::engine_args::hash_mib)]
    hash: usize,
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let engine = Engine::new(a.hash, a.threads)?;
    let start = Instant::now();
    let mut printed = crate::out::Lines::default();
    let lines = bench::run(&engine, a.depth, &mut |l| {
        let best = l
            .best
            .map_or("pass".to_string(), |b| Square::from_bit8(b as u32).to_string());
        printed.line(format_args!(
            "{:<14} {:>4} {:>+4} {:>12} nodes {:>8.3}s",
            l.name,
            best,
            l.score,
            l.nodes,
            l.time.as_secs_f64()
        ));
    });
    printed.finish()?;
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let secs = start.elapsed().as_secs_f64();
    outln!(
        "{nodes} nodes {:.0} nps ({secs:.3}s, depth {}, {} thread(s))",
        nodes as f64 / secs.max(1e-9),
        a.depth,
        a.threads
    )?;
    Ok(())
}
