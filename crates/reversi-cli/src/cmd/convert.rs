//! `reversi convert`: game records from one format to another (RULES.md §2).

use crate::out::out;
use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use reversi_core::format::ggf::{parse_ggf, write_ggf, Ending, GameInfo, GgfGame, GgfResult};
use reversi_core::format::wthor::{parse_games, parse_players, parse_tournaments, WthorNames};
use reversi_core::notation::write_transcript;
use reversi_core::{Game, Rules, Variant};
use std::path::{Path, PathBuf};

/// A game-record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One game a line, as squares (`f5d6c3…`; passes optional).
    Transcript,
    /// GGF, the Generic Game Server's format (players, result, variant, start position).
    Ggf,
    /// A WTHOR game database (`.wtb`); read only.
    Wthor,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Transcript => "transcript",
            Format::Ggf => "ggf",
            Format::Wthor => "wthor",
        }
    }
}

/// Arguments of `reversi convert`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Formats come from the file extensions unless given: .wtb/.wtd is WTHOR, .ggf is GGF, \
anything else a transcript file (one game a line; blank lines and lines starting with # are skipped).\n\
WTHOR games get their player and tournament names from WTHOR.JOU and WTHOR.TRN in the same folder, \
when they are there, and the year as their date. OUT may be `-` for standard output."
)]
pub struct Args {
    /// The file to read.
    input: PathBuf,
    /// The file to write (`-` for standard output).
    output: PathBuf,
    /// The input format (default: from the extension of IN).
    #[arg(long, value_enum)]
    from: Option<Format>,
    /// The output format (default: from the extension of OUT); WTHOR cannot be written.
    #[arg(long, value_enum)]
    to: Option<Format>,
    /// The rules of transcript games: othello, nxn:N, nxn-parallel:N, grand, eight-stars,
    /// black-hole:SQ, anti, xot:LINE, reversi-1880[:white]. Default: othello.
    #[arg(long, short = 'v')]
    variant: Option<Variant>,
}

fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// The format a file name implies.
fn format_of(path: &Path) -> Result<Format> {
    Ok(match extension(path).as_str() {
        "wtb" | "wtd" => Format::Wthor,
        "jou" | "trn" => bail!(
            "{} is a WTHOR names file (players or tournaments), not a game file; convert the WTH_YYYY.wtb file next to it",
            path.display()
        ),
        "ggf" => Format::Ggf,
        _ => Format::Transcript,
    })
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let from = match a.from {
        Some(f) => f,
        None => format_of(&a.input)?,
    };
    let to = match a.to {
        Some(f) => f,
        None => format_of(&a.output)?,
    };
    if to == Format::Wthor {
        bail!("WTHOR files can be read but not written; choose --to ggf or --to transcript");
    }
    if a.variant.is_some() && from != Format::Transcript {
        bail!(
            "--variant applies to transcript input only: {} records name their own rules",
            from.name()
        );
    }
    let input = a.input.display();
    let records = match from {
        Format::Transcript => {
            let variant = a.variant.unwrap_or(Variant::Othello);
            if !variant.is_resolved() {
                bail!(
                    "--variant {variant} leaves a random choice open; name it (e.g. black-hole:c3 or xot:17)"
                );
            }
            let text = crate::input::read_text(&a.input)?;
            read_transcripts(&text, variant)
                .with_context(|| format!("cannot read transcripts from {input}"))?
        }
        Format::Ggf => {
            let text = crate::input::read_text(&a.input)?;
            let games = parse_ggf(&text).with_context(|| format!("cannot read GGF file {input}"))?;
            for (i, g) in games.iter().enumerate() {
                g.to_game()
                    .with_context(|| format!("{input}: game {} does not replay", i + 1))?;
            }
            games
        }
        Format::Wthor => read_wthor(&a.input)?,
    };
    let mut out = String::new();
    for r in &records {
        match to {
            Format::Ggf => out.push_str(&write_ggf(r)),
            _ => out.push_str(&write_transcript(&r.moves)),
        }
        out.push('\n');
    }
    if a.output.as_os_str() == "-" {
        out!("{out}")?;
    } else {
        std::fs::write(&a.output, out).with_context(|| format!("cannot write {}", a.output.display()))?;
    }
    eprintln!(
        "{} games: {input} ({}) -> {} ({})",
        records.len(),
        from.name(),
        a.output.display(),
        to.name()
    );
    Ok(())
}

/// One game a line under `variant`; blank lines and `#` comments are skipped.
fn read_transcripts(text: &str, variant: Variant) -> Result<Vec<GgfGame>> {
    let rules = Rules::new(variant, 0);
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let game = Game::from_transcript(rules.clone(), line).with_context(|| format!("line {}", i + 1))?;
        games.push(GgfGame::from_game(&game, GameInfo::default()));
    }
    Ok(games)
}

/// A WTHOR names file next to `wtb`, matched case-insensitively; `None` when there is none.
fn names_beside(
    wtb: &Path,
    name: &str,
    parse: fn(&[u8]) -> Result<WthorNames, reversi_core::format::wthor::WthorError>,
) -> Result<Option<WthorNames>> {
    let dir = match wtb.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(None);
    };
    let Some(path) = entries.filter_map(|e| e.ok()).map(|e| e.path()).find(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
    }) else {
        return Ok(None);
    };
    let bytes = crate::input::read_bytes(&path)?;
    let names = parse(&bytes).with_context(|| format!("cannot read WTHOR names file {}", path.display()))?;
    Ok(Some(names))
}

/// The games of a WTHOR file, with names and the year filled in from the files beside it.
fn read_wthor(path: &Path) -> Result<Vec<GgfGame>> {
    let shown = path.display();
    let bytes = crate::input::read_bytes(path)?;
    let db = parse_games(&bytes).with_context(|| format!("cannot read WTHOR file {shown}"))?;
    let players = names_beside(path, "WTHOR.JOU", parse_players)?;
    let tournaments = names_beside(path, "WTHOR.TRN", parse_tournaments)?;
    let player = |id: u16| {
        players
            .as_ref()
            .and_then(|p| p.get(id))
            .map_or_else(|| format!("player {id}"), str::to_string)
    };
    let mut games = Vec::with_capacity(db.games.len());
    for (i, g) in db.games.iter().enumerate() {
        let game = g
            .to_game()
            .with_context(|| format!("{shown}: game {} does not replay", i + 1))?;
        let info = GameInfo {
            black: player(g.black),
            white: player(g.white),
            date: (db.header.year != 0).then(|| db.header.year.to_string()),
            place: tournaments
                .as_ref()
                .and_then(|t| t.get(g.tournament))
                .map(str::to_string),
            // The stored count is the recorded result, also for games that stop early.
            result: Some(GgfResult {
                black_margin: g.black_margin() as f64,
                ending: Ending::Normal,
            }),
            ..GameInfo::default()
        };
        games.push(GgfGame::from_game(&game, info));
    }
    Ok(games)
}
