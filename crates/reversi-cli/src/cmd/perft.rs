//! `reversi perft`: leaf counts of the game tree (RULES.md §3).

use crate::out::outln;
use crate::setup::PositionArgs;
use anyhow::Result;
use reversi_core::perft::{divide, perft};
use std::time::Instant;

/// Arguments of `reversi perft`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Prints one line per depth 1..=DEPTH: depth, leaves, seconds, leaves per second.\n\
A forced pass counts as a ply; a finished game is a leaf wherever it ends."
)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
    /// Also print the leaf count below each first move at the last depth.
    #[arg(long)]
    divide: bool,
    /// Deepest depth to count.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=30))]
    depth: u32,
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let game = a.pos.game()?;
    let pos = *game.position();
    for d in 1..=a.depth {
        let t = Instant::now();
        let n = perft(&pos, d);
        let s = t.elapsed().as_secs_f64();
        outln!(
            "{d:>2} {n:>16} {s:>10.3}s {:>14.0} leaves/s",
            n as f64 / s.max(1e-9)
        )?;
    }
    if a.divide && a.depth > 0 {
        for (mv, n) in divide(&pos, a.depth) {
            outln!("{mv} {n}")?;
        }
    }
    Ok(())
}
