//! `reversi eval`: every legal move of a position with its value, what kind of value it is and
//! how deep, refined iteration by iteration (the analysis board's core, in the terminal).

use super::engine_args::{book_choice, positive_seconds, threads};
use crate::out::outln;
use crate::setup::PositionArgs;
use anyhow::Result;
use reversi_engine::evaluate::{evaluate_moves, EvalOptions, MoveValue};
use reversi_engine::{Engine, SearchKind};
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Arguments of `reversi eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
    /// The deepest search of a move, in plies after it.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Solve exactly when a move leaves at most this many empties.
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(0..=30))]
    exact: u32,
    /// Stop after this many seconds (the values found so far stand).
    #[arg(long, value_parser = positive_seconds)]
    time: Option<Duration>,
    /// Opening book: `default`, `off` or a book file.
    #[arg(long, default_value = "default")]
    book: String,
    /// Search threads.
    #[arg(long, short = 't', default_value_t = 1, value_parser = threads)]
    threads: usize,
    /// Transposition table, MiB.
    #[arg(long, default_value_t = 128, value_parser = super::engine_args::hash_mib)]
    hash: usize,
    /// One JSON object at the end instead of a table.
    #[arg(long, conflicts_with = "stream")]
    json: bool,
    /// One JSON line per finished iteration (what the site's analysis board receives).
    #[arg(long)]
    stream: bool,
}

#[derive(Serialize)]
struct Value {
    #[serde(rename = "move")]
    mv: String,
    score: i32,
    kind: &'static str,
    depth: u32,
    pv: Vec<String>,
}

fn to_json(values: &[MoveValue]) -> Vec<Value> {
    values
        .iter()
        .map(|v| Value {
            mv: v.mv.to_string(),
            score: v.score,
            kind: v.kind.name(),
            depth: v.depth,
            pv: v.pv.iter().map(|m| m.to_string()).collect(),
        })
        .collect()
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let game = a.pos.game()?;
    let mut engine = Engine::new(a.hash, a.threads)?;
    let book = book_choice(&a.book)?;
    let opts = EvalOptions {
        max_depth: a.depth,
        exact_empties: a.exact,
        time: a.time,
        book: book.is_some(),
    };
    engine.set_book(book);
    let stop = AtomicBool::new(false);
    let mut failed = None;
    let last = evaluate_moves(&engine, game.position(), &opts, &stop, &mut |values| {
        if a.stream && failed.is_none() {
            let line = serde_json::json!({ "moves": to_json(values) });
            if let Err(e) = outln!("{line}") {
                failed = Some(e);
            }
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    if a.stream {
        return Ok(());
    }
    let opening = reversi_core::openings::of_game(&game, None).map(|(_, o)| o.english);
    if a.json {
        let out = serde_json::json!({ "opening": opening, "moves": to_json(&last) });
        outln!("{}", serde_json::to_string_pretty(&out)?)?;
        return Ok(());
    }
    if let Some(name) = opening {
        outln!("opening: {name}")?;
    }
    if last.is_empty() {
        outln!("the game is over")?;
    }
    for v in &last {
        let depth = match v.kind {
            SearchKind::Midgame => format!("depth {}", v.depth),
            SearchKind::Book => format!("book, level {}", v.depth),
            SearchKind::Exact => "exact".to_string(),
            SearchKind::WinLossDraw => "win/loss/draw".to_string(),
        };
        let pv: Vec<String> = v.pv.iter().map(|m| m.to_string()).collect();
        outln!(
            "{:<5} {:>+4}  {:<15} {}",
            v.mv.to_string(),
            v.score,
            depth,
            pv.join(" ")
        )?;
    }
    Ok(())
}
