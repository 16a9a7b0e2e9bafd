//! `reversi diagram`: a position diagram at any ply, or the numbered game record.

use super::print::{choose_format, write_pages};
use crate::out::outln;
use anyhow::{bail, Context, Result};
use reversi_core::format::ggf::{parse_ggf, Ending};
use reversi_core::{Game, Rules, Variant};
use reversi_render::{diagram_svg, DiagramInfo, Format, Lang};
use std::path::PathBuf;

/// Arguments of `reversi diagram`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The game is a transcript given with --moves, or a file: a GGF record (the \
first game; its players and result go in the caption) or a transcript. Without --numbered the \
diagram shows the position after --ply moves (passes count; default: the end); with --numbered it \
shows that position with each disc numbered by the move that placed it."
)]
pub struct Args {
    /// A file holding a GGF record or a transcript.
    file: Option<PathBuf>,
    /// A transcript such as f5d6c3d3c4.
    #[arg(long, conflicts_with = "file")]
    moves: Option<String>,
    /// Rules preset of a transcript (GGF records name their own).
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Number each disc by the move that placed it (the game record).
    #[arg(long)]
    numbered: bool,
    /// Show the position after this many moves (passes count).
    #[arg(long)]
    ply: Option<usize>,
    /// Language of the caption: en or ru.
    #[arg(long, default_value = "en")]
    lang: Lang,
    /// Output format: svg, png or pdf (default: from the file's extension, else svg).
    #[arg(long)]
    format: Option<Format>,
    /// Output file.
    #[arg(short, long)]
    output: PathBuf,
}

fn load(a: &Args) -> Result<(Game, DiagramInfo)> {
    let mut info = DiagramInfo {
        lang: a.lang,
        ..DiagramInfo::default()
    };
    let text = match (&a.moves, &a.file) {
        (Some(m), _) => m.clone(),
        (None, Some(f)) => crate::input::read_text(f)?,
        (None, None) => bail!("give a game: --moves TRANSCRIPT or a FILE"),
    };
    if text.trim_start().starts_with("(;") {
        let games = parse_ggf(&text).context("cannot read the GGF record")?;
        let g = games.into_iter().next().context("the GGF file holds no game")?;
        let nonempty = |s: &str| (!s.is_empty()).then(|| s.to_string());
        info.black = nonempty(&g.info.black);
        info.white = nonempty(&g.info.white);
        info.result = g.info.result.map(|r| {
            let how = match r.ending {
                Ending::Normal => "normal",
                Ending::Resigned => "resigned",
                Ending::Timeout => "time",
                Ending::Agreed => "agreed",
            };
            reversi_i18n::t!(
                a.lang,
                "diagram-ending",
                margin = format!("{:+}", r.black_margin),
                ending = how
            )
        });
        let game = g.to_game().context("cannot replay the GGF game")?;
        return Ok((game, info));
    }
    let game = Game::from_transcript(Rules::new(a.variant, 0), text.trim())
        .context("cannot replay the transcript")?;
    Ok((game, info))
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let (game, info) = load(&a)?;
    if let Some(p) = a.ply {
        if p > game.recorded_moves().len() {
            bail!(
                "--ply {p} is past the end of the game ({} moves)",
                game.recorded_moves().len()
            );
        }
    }
    let svg = diagram_svg(&game, a.ply, a.numbered, &info);
    let format = choose_format(a.format, &a.output, Format::Svg);
    for f in write_pages(&[svg], format, &a.output)? {
        outln!("{}", f.display())?;
    }
    Ok(())
}
