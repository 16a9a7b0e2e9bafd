//! Reading training games: WTHOR databases, Logistello's self-play log, and transcripts (one
//! game a line, as `reversi train generate` writes them).

use crate::{Result, TrainError};
use reversi_core::format::wthor;
use reversi_core::notation::parse_transcript;
use reversi_core::{Move, Square};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Where a game comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A WTHOR tournament game.
    Wthor,
    /// Logistello's self-play.
    Logistello,
    /// Our own self-play (or any transcript file).
    Transcript,
}

/// A game as a list of squares (bit indices, passes implicit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainingGame {
    /// Where it comes from.
    pub source: Source,
    /// The squares played.
    pub squares: Vec<u32>,
    /// WTHOR's theoretical result: black's margin with perfect play from `depth` empties.
    pub theoretical: Option<(i32, u32)>,
}

/// The most a source file gives, read or decompressed (1 GiB: Logistello's log is 15 MiB
/// unpacked, a WTHOR year under 1 MiB); more is refused rather than exhausting the memory.
const MAX_SOURCE_BYTES: u64 = 1 << 30;

fn read(path: &Path) -> Result<Vec<u8>> {
    let f = std::fs::File::open(path).map_err(|e| TrainError::io(path, e))?;
    bounded(path, f)
}

/// Everything `r` gives, at most [`MAX_SOURCE_BYTES`].
fn bounded(path: &Path, r: impl Read) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    r.take(MAX_SOURCE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| TrainError::io(path, e))?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(TrainError::format(path, "more than 1 GiB of data"));
    }
    Ok(bytes)
}

/// Every game of the `WTH_*.wtb` files in `dir` (8×8 only), files in name order.
pub fn wthor_games(dir: &Path) -> Result<Vec<TrainingGame>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| TrainError::io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wtb")))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(TrainError::format(dir, "no .wtb files"));
    }
    let mut out = Vec::new();
    for f in files {
        let parsed = wthor::parse_games(&read(&f)?).map_err(|e| TrainError::format(&f, e.to_string()))?;
        let depth = parsed.header.theoretical_depth() as u32;
        for g in parsed.games.iter().filter(|g| g.side == 8) {
            let squares = g.moves().iter().filter_map(|s| s.bit8()).collect();
            let theoretical = (depth > 0).then(|| (2 * g.theoretical as i32 - 64, depth));
            out.push(TrainingGame {
                source: Source::Wthor,
                squares,
                theoretical,
            });
        }
    }
    Ok(out)
}

/// Logistello's log (`logbook.gam`, optionally gzipped): `+d3-c3+c4…: -04 10` a line.
pub fn logistello_games(path: &Path) -> Result<Vec<TrainingGame>> {
    let bytes = read(path)?;
    let text = if bytes.starts_with(&[0x1F, 0x8B]) {
        let raw = bounded(path, flate2::read::GzDecoder::new(&bytes[..]))
            .map_err(|e| TrainError::format(path, format!("gzip: {e}")))?;
        String::from_utf8(raw).map_err(|e| TrainError::format(path, e.to_string()))?
    } else {
        String::from_utf8(bytes).map_err(|e| TrainError::format(path, e.to_string()))?
    };
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let moves = line.split(':').next().unwrap_or("").trim();
        if moves.is_empty() {
            continue;
        }
        let b = moves.as_bytes();
        if !b.len().is_multiple_of(3) {
            return Err(TrainError::format(
                path,
                format!("line {}: moves are not +xy/-xy triples", n + 1),
            ));
        }
        let mut squares = Vec::with_capacity(b.len() / 3);
        for (k, t) in b.chunks(3).enumerate() {
            let square = std::str::from_utf8(&t[1..])
                .ok()
                .and_then(Square::parse)
                .and_then(Square::bit8);
            match (t[0], square) {
                (b'+' | b'-', Some(sq)) => squares.push(sq),
                _ => {
                    return Err(TrainError::format(
                        path,
                        format!(
                            "line {}, column {}: bad move {:?}",
                            n + 1,
                            3 * k + 1,
                            String::from_utf8_lossy(t)
                        ),
                    ))
                }
            }
        }
        out.push(TrainingGame {
            source: Source::Logistello,
            squares,
            theoretical: None,
        });
    }
    Ok(out)
}

/// A transcript file: one game a line (`f5d6c3…`, anything after the first space ignored).
pub fn transcript_games(path: &Path) -> Result<Vec<TrainingGame>> {
    let text = String::from_utf8(read(path)?).map_err(|e| TrainError::format(path, e.to_string()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let t = line.split_whitespace().next().unwrap_or("");
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let moves =
            parse_transcript(t).map_err(|e| TrainError::format(path, format!("line {}: {e}", n + 1)))?;
        let squares = moves
            .iter()
            .filter_map(|m| match m {
                Move::Play(s) => s.bit8(),
                Move::Pass => None,
            })
            .collect();
        out.push(TrainingGame {
            source: Source::Transcript,
            squares,
            theoretical: None,
        });
    }
    Ok(out)
}
