//! `reversi best`: the engine's move, its score and the principal variation.

use super::engine_args::{score_text, EngineArgs};
use crate::out::outln;
use crate::setup::{random_seed, PositionArgs};
use anyhow::Result;
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// Arguments of `reversi best`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
    #[command(flatten)]
    engine: EngineArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Print each finished iteration as it comes.
    #[arg(long)]
    verbose: bool,
}

#[derive(Serialize)]
struct Out {
    best: Option<String>,
    score: i32,
    kind: &'static str,
    depth: u32,
    selectivity: u32,
    pv: Vec<String>,
    nodes: u64,
    seconds: f64,
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let game = a.pos.game()?;
    let engine = a.engine.engine()?;
    let limits = a.engine.limits(random_seed());
    let stop = AtomicBool::new(false);
    let verbose = a.verbose && !a.json;
    let mut printed = crate::out::Lines::default();
    let r = engine.search_position(game.position(), &limits, &stop, &mut |p| {
        if verbose {
            let pv: Vec<String> = p.pv.iter().map(|&b| bit_name(b)).collect();
            printed.line(format_args!(
                "depth {:>2}@{:>3}%  {:>+4}  {:>12} nodes  {:>7.3}s  {}",
                p.depth,
                p.selectivity_pct,
                p.score,
                p.nodes,
                p.elapsed.as_secs_f64(),
                pv.join(" ")
            ));
        }
    });
    printed.finish()?;
    let kind = match r.kind {
        reversi_engine::SearchKind::Exact => "exact",
        reversi_engine::SearchKind::WinLossDraw => "wld",
        reversi_engine::SearchKind::Midgame => "midgame",
        reversi_engine::SearchKind::Book => "book",
    };
    let out = Out {
        best: r.best.map(|m| m.to_string()),
        score: r.score,
        kind,
        depth: r.depth,
        selectivity: r.selectivity_pct,
        pv: r.pv.iter().map(|m| m.to_string()).collect(),
        nodes: r.nodes,
        seconds: r.elapsed.as_secs_f64(),
    };
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&out)?)?;
        return Ok(());
    }
    match &out.best {
        None => outln!("The game is over: {}", score_text(r.score, r.kind))?,
        Some(b) => {
            outln!("best move: {b}")?;
            outln!("score:     {}", score_text(r.score, r.kind))?;
            outln!(
                "depth:     {}{}",
                r.depth,
                if r.selectivity_pct < 100 {
                    format!(" @{}%", r.selectivity_pct)
                } else {
                    String::new()
                }
            )?;
            outln!("pv:        {}", out.pv.join(" "))?;
            outln!(
                "nodes:     {} in {:.3}s ({:.0} nodes/s)",
                r.nodes,
                out.seconds,
                r.nodes as f64 / out.seconds.max(1e-9)
            )?;
        }
    }
    Ok(())
}

fn bit_name(b: u8) -> String {
    if b >= 64 {
        "pass".into()
    } else {
        reversi_core::Square::from_bit8(b as u32).to_string()
    }
}
