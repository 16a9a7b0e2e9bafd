//! `reversi print`: a print-and-play kit (board, rules sheet, discs to cut out).

use crate::out::outln;
use anyhow::{Context, Result};
use reversi_core::{Rules, Variant};
use reversi_render::{encode, page_file_names, print_kit, Format, Lang, Paper};
use std::path::{Path, PathBuf};

/// Arguments of `reversi print`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Pages, in order: the board at playing size, the rules sheet, then for each \
sheet of discs its black faces and its white faces (mirrored, so printed two-sided with a flip on the \
long edge, or glued back to back, they line up). A PDF holds every page; SVG and PNG write one file \
per page: FILE, then FILE-2.EXT, FILE-3.EXT, ... beside it."
)]
pub struct Args {
    /// Rules preset (black-hole:c3 marks the hole; a plain black-hole or xot is chosen at random).
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Language of the words: en or ru.
    #[arg(long, default_value = "en")]
    lang: Lang,
    /// Paper size: a4 or letter.
    #[arg(long, default_value = "a4")]
    paper: Paper,
    /// Output format: pdf, svg or png (default: from the file's extension, else pdf).
    #[arg(long)]
    format: Option<Format>,
    /// Output file.
    #[arg(short, long)]
    output: PathBuf,
    /// Seed for a variant's random choice.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// The format asked for, or the one the file name implies, or `fallback`.
pub(crate) fn choose_format(asked: Option<Format>, path: &Path, fallback: Format) -> Format {
    asked.or_else(|| Format::from_path(path)).unwrap_or(fallback)
}

/// Writes SVG pages to `path` in `format` (one PDF, or one SVG/PNG file per page); returns the
/// files written.
pub(crate) fn write_pages(pages: &[String], format: Format, path: &Path) -> Result<Vec<PathBuf>> {
    let files = encode(pages, format).context("cannot draw the pages")?;
    let names = page_file_names(path, files.len());
    for (bytes, name) in files.iter().zip(&names) {
        std::fs::write(name, bytes).with_context(|| format!("cannot write {}", name.display()))?;
    }
    Ok(names)
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let rules = Rules::new(a.variant, a.seed);
    let pages = print_kit(&rules, a.lang, a.paper);
    let format = choose_format(a.format, &a.output, Format::Pdf);
    let written = write_pages(&pages, format, &a.output)?;
    for f in &written {
        outln!("{}", f.display())?;
    }
    Ok(())
}
