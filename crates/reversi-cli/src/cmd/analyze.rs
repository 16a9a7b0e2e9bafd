//! `reversi analyze`: every move of a game against the engine's choice.

use super::engine_args::EngineArgs;
use crate::out::outln;
use anyhow::{Context, Result};
use reversi_core::format::ggf::parse_ggf;
use reversi_core::{Color, Game, Rules, Variant};
use reversi_engine::analyze::{analyze_game, summarize};
use std::sync::atomic::AtomicBool;

/// Arguments of `reversi analyze`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "GAME is a transcript (`f5d6c3...`) or a file: a GGF record (the first game) or a \
transcript. For each move: who played it, the move, the engine's move, both scores for the player \
and the discs lost; then each player's total loss and largest mistakes."
)]
pub struct Args {
    /// A transcript or a file holding one.
    game: String,
    /// Rules preset of a transcript (GGF records name their own).
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Also draw the evaluation after every move (Black's view, largest mistakes marked) to this
    /// file: .svg, .png or .pdf.
    #[arg(long, value_name = "FILE")]
    chart: Option<std::path::PathBuf>,
    /// Language of the chart's words: en or ru.
    #[arg(long, default_value = "en")]
    lang: reversi_render::Lang,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The chart of an analysis: Black's score after each move and the five largest mistakes.
fn chart_svg(moves: &[reversi_engine::analyze::MoveAnalysis], lang: reversi_render::Lang) -> String {
    let scores: Vec<f64> = moves
        .iter()
        .map(|m| match m.player {
            Color::Black => m.played_score as f64,
            Color::White => -m.played_score as f64,
        })
        .collect();
    let mut worst: Vec<(usize, &reversi_engine::analyze::MoveAnalysis)> =
        moves.iter().enumerate().filter(|(_, m)| m.loss > 0).collect();
    worst.sort_by_key(|(i, m)| (std::cmp::Reverse(m.loss), *i));
    let marks: Vec<reversi_render::ChartMark> = worst
        .iter()
        .take(5)
        .map(|(i, m)| reversi_render::ChartMark {
            ply: i + 1,
            label: format!("{}. {} −{}", m.ply, m.played, m.loss),
        })
        .collect();
    reversi_render::score_chart_svg(&scores, &marks, lang)
}

fn load(a: &Args) -> Result<Game> {
    let path = std::path::Path::new(&a.game);
    let text = if path.exists() {
        crate::input::read_text(path)?
    } else {
        a.game.clone()
    };
    if text.trim_start().starts_with("(;") {
        let games = parse_ggf(&text).context("cannot read the GGF record")?;
        let g = games.into_iter().next().context("the GGF file holds no game")?;
        return g.to_game().context("cannot replay the GGF game");
    }
    Game::from_transcript(Rules::new(a.variant, 0), text.trim()).context("cannot replay the transcript")
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let game = load(&a)?;
    let engine = a.engine.engine()?;
    let limits = a.engine.limits(0);
    let stop = AtomicBool::new(false);
    if let Some((ply, o)) = reversi_core::openings::of_game(&game, None) {
        outln!(
            "opening: {} ({}, through ply {ply})",
            o.name(a.lang.code()),
            o.moves
        )?;
    }
    outln!("ply  player  played  best   played  best    loss")?;
    let mut printed = crate::out::Lines::default();
    let moves = analyze_game(&engine, &game, &limits, &stop, &mut |m| {
        printed.line(format_args!(
            "{:>3}  {:<6}  {:<6}  {:<5}  {:>+6}  {:>+5}  {:>5}{}",
            m.ply,
            m.player.name(),
            m.played.to_string(),
            m.best.to_string(),
            m.played_score,
            m.best_score,
            if m.loss > 0 {
                format!("-{}", m.loss)
            } else {
                "0".to_string()
            },
            if m.exact { "  exact" } else { "" }
        ));
    });
    printed.finish()?;
    outln!()?;
    for c in Color::ALL {
        let s = summarize(&moves, c);
        let worst: Vec<String> = s
            .worst
            .iter()
            .map(|(ply, loss)| format!("move {ply} (-{loss})"))
            .collect();
        outln!(
            "{:<6} total loss {:>3} over {} moves, {} mistakes{}",
            c.name(),
            s.total_loss,
            s.moves,
            s.mistakes,
            if worst.is_empty() {
                String::new()
            } else {
                format!("; largest: {}", worst.join(", "))
            }
        )?;
    }
    if let Some(o) = game.outcome() {
        outln!(
            "result {}–{} ({:+} for black)",
            o.black,
            o.white,
            o.margin(Color::Black)
        )?;
    }
    if let Some(path) = &a.chart {
        let format = super::print::choose_format(None, path, reversi_render::Format::Svg);
        for f in super::print::write_pages(&[chart_svg(&moves, a.lang)], format, path)? {
            outln!("chart: {}", f.display())?;
        }
    }
    Ok(())
}
