//! `reversi calibrate-probcut`: measure the Multi-ProbCut regressions on WTHOR positions.

use crate::out::out;
use anyhow::{Context, Result};
use reversi_core::format::wthor::parse_games;
use reversi_core::{AnyPosition, Bits};
use reversi_engine::probcut::{calibrate, table_source};
use reversi_engine::Engine;
use std::path::PathBuf;

/// Arguments of `reversi calibrate-probcut`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Samples positions with 20 to 50 empties from a WTHOR file, searches each by \
iterative deepening without pruning, fits deep ≈ a·shallow + b per depth, and writes the table that \
crates/reversi-engine/src/probcut_table.rs holds."
)]
pub struct Args {
    /// WTHOR games file to sample.
    #[arg(long, default_value = "data/wthor/WTH_2010.wtb")]
    wthor: PathBuf,
    /// Number of positions.
    #[arg(long, default_value_t = 400)]
    positions: usize,
    /// Deepest depth to fit.
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Where to write the table (`-` for standard output).
    #[arg(long, short = 'o', default_value = "-")]
    out: String,
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let bytes = crate::input::read_bytes(&a.wthor)?;
    let games = parse_games(&bytes).with_context(|| format!("{}", a.wthor.display()))?;
    let mut positions = Vec::new();
    // A fixed stride through the games and plies: reproducible, and spread over every stage.
    for (k, g) in games.games.iter().enumerate() {
        if positions.len() >= a.positions {
            break;
        }
        let game = g.to_game().context("replaying a WTHOR game")?;
        let target = 20 + (k * 7) % 31; // empties 20..=50
        for ply in 0..=game.moves().len() {
            let pos = game.position_at(ply).expect("ply in range");
            if pos.empties().count() as usize == target && !pos.legal_moves().is_empty() {
                if let AnyPosition::Small(p) = pos {
                    positions.push((p.discs(p.side_to_move()), p.discs(!p.side_to_move())));
                }
                break;
            }
        }
    }
    let engine = Engine::new(64, 1)?;
    let total = positions.len();
    let fits = calibrate(&engine, &positions, a.depth, &mut |i| {
        if i % 20 == 0 || i == total {
            eprintln!("{i}/{total} positions");
        }
    });
    let note = format!(
        "{} positions with 20-50 empties from {}, depths 3..={}, evaluation {}.",
        total,
        a.wthor
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
        a.depth,
        engine.evaluator().name()
    );
    let src = table_source(&fits, &note);
    if a.out == "-" {
        out!("{src}")?;
    } else {
        std::fs::write(&a.out, src).with_context(|| format!("cannot write {}", a.out))?;
    }
    for f in &fits {
        eprintln!(
            "depth {:>2} from {:>2}: a {:.3} b {:+.3} sigma {:.3}",
            f.depth, f.shallow, f.a, f.b, f.sigma
        );
    }
    Ok(())
}
