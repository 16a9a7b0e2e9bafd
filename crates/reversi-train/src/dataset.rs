//! The training positions: every position of every game, deduplicated by symmetry, with the
//! mean result of the games it occurred in, split into training and held-out sets; saved as a
//! flat binary file (`positions.bin`).

use crate::replay::{canonical, is_over, replay, START};
use crate::sources::{Source, TrainingGame};
use crate::{Result, TrainError};
use std::collections::HashMap;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

/// The label is an exact solver score.
pub const EXACT: u8 = 1;
/// The position belongs to the held-out set (never fitted).
pub const HELDOUT: u8 = 2;

/// A training position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Discs of the side to move (canonical image).
    pub p: u64,
    /// Discs of the other side.
    pub o: u64,
    /// The target for the side to move, in discs.
    pub label: f32,
    /// In how many games it occurred (saturating).
    pub count: u16,
    /// [`EXACT`], [`HELDOUT`].
    pub flags: u8,
}

impl Sample {
    /// Whether the position has a label: it occurred in a game, or the solver labelled it
    /// (positions added by [`crate::augment`] have neither until `reversi train label`).
    pub fn labelled(&self) -> bool {
        self.count > 0 || self.exact()
    }

    /// Empty squares.
    pub fn empties(&self) -> u32 {
        64 - (self.p | self.o).count_ones()
    }
    /// Whether it is held out.
    pub fn heldout(&self) -> bool {
        self.flags & HELDOUT != 0
    }
    /// Whether the label is exact.
    pub fn exact(&self) -> bool {
        self.flags & EXACT != 0
    }
}

/// What was read, for the report.
#[derive(Clone, Debug, Default)]
pub struct BuildStats {
    /// Games used, by source (WTHOR, Logistello, transcripts).
    pub games: [usize; 3],
    /// Games skipped: illegal or unfinished.
    pub skipped: usize,
    /// Positions seen (with repetitions).
    pub positions: usize,
    /// Distinct positions up to symmetry.
    pub distinct: usize,
    /// Held-out positions.
    pub heldout: usize,
}

/// A 64-bit mix (splitmix64 finaliser), for the held-out split.
pub fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Collects the positions of `games`. Positions with no legal move (passes) and finished
/// positions are left out. The label of a position is the final margin for the side to move
/// (empties to the winner), or for WTHOR games with at least the theoretical depth of empties,
/// WTHOR's perfect-play result; a position seen in several games gets the mean. `heldout_per_mille`
/// positions in a thousand (chosen by a hash of the position and `seed`) are held out.
pub fn build(
    games: &[TrainingGame],
    heldout_per_mille: u64,
    seed: u64,
    mut tick: impl FnMut(),
) -> (Vec<Sample>, BuildStats) {
    let mut stats = BuildStats::default();
    let mut map: HashMap<(u64, u64), (f64, u32)> = HashMap::new();
    for g in games {
        tick();
        let Ok((plies, last)) = replay(START, &g.squares) else {
            stats.skipped += 1;
            continue;
        };
        if !is_over(last.p, last.o) {
            stats.skipped += 1;
            continue;
        }
        stats.games[match g.source {
            Source::Wthor => 0,
            Source::Logistello => 1,
            Source::Transcript => 2,
        }] += 1;
        let black_final = last.black_margin();
        for ply in &plies {
            let empties = 64 - (ply.p | ply.o).count_ones();
            let black = match g.theoretical {
                Some((t, depth)) if empties >= depth => t,
                _ => black_final,
            };
            let label = if ply.black { black } else { -black };
            let e = map.entry(canonical(ply.p, ply.o)).or_insert((0.0, 0));
            e.0 += label as f64;
            e.1 += 1;
            stats.positions += 1;
        }
    }
    let mut out: Vec<Sample> = map
        .into_iter()
        .map(|((p, o), (sum, n))| {
            let held = mix(p ^ mix(o ^ seed)) % 1000 < heldout_per_mille;
            Sample {
                p,
                o,
                label: (sum / n as f64) as f32,
                count: n.min(u16::MAX as u32) as u16,
                flags: if held { HELDOUT } else { 0 },
            }
        })
        .collect();
    // A fixed order, whatever the hash map did: by empties (fewest first), then by discs.
    out.sort_unstable_by_key(|s| (s.empties(), s.p, s.o));
    stats.distinct = out.len();
    stats.heldout = out.iter().filter(|s| s.heldout()).count();
    (out, stats)
}

const MAGIC: &[u8; 8] = b"RVPOS001";
const RECORD: usize = 24;

/// Writes samples to `path`.
pub fn save(path: &Path, samples: &[Sample]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    let f = std::fs::File::create(&tmp).map_err(|e| TrainError::io(&tmp, e))?;
    let mut w = BufWriter::new(f);
    let mut write = |b: &[u8]| w.write_all(b).map_err(|e| TrainError::io(&tmp, e));
    write(MAGIC)?;
    write(&(samples.len() as u64).to_le_bytes())?;
    for s in samples {
        let mut r = [0u8; RECORD];
        r[0..8].copy_from_slice(&s.p.to_le_bytes());
        r[8..16].copy_from_slice(&s.o.to_le_bytes());
        r[16..20].copy_from_slice(&s.label.to_le_bytes());
        r[20..22].copy_from_slice(&s.count.to_le_bytes());
        r[22] = s.flags;
        write(&r)?;
    }
    w.flush().map_err(|e| TrainError::io(&tmp, e))?;
    drop(w);
    // Renamed into place only when complete, so an interrupted run never leaves half a file.
    std::fs::rename(&tmp, path).map_err(|e| TrainError::io(path, e))
}

/// Reads samples written by [`save`].
pub fn load(path: &Path) -> Result<Vec<Sample>> {
    let f = std::fs::File::open(path).map_err(|e| TrainError::io(path, e))?;
    let mut r = BufReader::new(f);
    let mut head = [0u8; 16];
    r.read_exact(&mut head).map_err(|e| TrainError::io(path, e))?;
    if &head[..8] != MAGIC {
        return Err(TrainError::format(
            path,
            "not a positions file (bad magic bytes); make one with `reversi train positions`",
        ));
    }
    let n = u64::from_le_bytes(head[8..16].try_into().expect("8 bytes"));
    let len = std::fs::metadata(path)
        .map_err(|e| TrainError::io(path, e))?
        .len();
    // Checked: a header with a huge count must not wrap into a size that matches the file.
    let want = n.checked_mul(RECORD as u64).and_then(|b| b.checked_add(16));
    if want != Some(len) {
        return Err(TrainError::format(
            path,
            format!("{len} bytes, which is not the size of the {n} positions its header names"),
        ));
    }
    let n = n as usize;
    let mut out = Vec::with_capacity(n);
    let mut rec = [0u8; RECORD];
    for _ in 0..n {
        r.read_exact(&mut rec).map_err(|e| TrainError::io(path, e))?;
        out.push(Sample {
            p: u64::from_le_bytes(rec[0..8].try_into().expect("8 bytes")),
            o: u64::from_le_bytes(rec[8..16].try_into().expect("8 bytes")),
            label: f32::from_le_bytes(rec[16..20].try_into().expect("4 bytes")),
            count: u16::from_le_bytes([rec[20], rec[21]]),
            flags: rec[22],
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(t: &str) -> TrainingGame {
        let b = t.as_bytes();
        let squares = b
            .chunks(2)
            .map(|c| (c[0] - b'a') as u32 + 8 * (c[1] - b'1') as u32)
            .collect();
        TrainingGame {
            source: Source::Transcript,
            squares,
            theoretical: None,
        }
    }

    #[test]
    fn dedups_symmetric_games_and_averages() {
        // f5d6c5f4e3f6g5e6e7 wipes white out; its mirror image e6f5... (transposed: f5 ↔ e6) too.
        let a = game("f5d6c5f4e3f6g5e6e7");
        let b = game("e6f4e3d6c5f6e7f5g5");
        let unfinished = game("f5d6");
        let (samples, stats) = build(&[a, b, unfinished], 0, 1, || {});
        assert_eq!(stats.games[2], 2);
        assert_eq!(stats.skipped, 1);
        assert_eq!(stats.positions, 18);
        // The start position is symmetric: one sample, seen twice, black wins by 64.
        let start = samples.iter().find(|s| s.empties() == 60).unwrap();
        assert_eq!((start.count, start.label), (2, 64.0));
        // After 1 move: white to move, loses by 64.
        assert!(samples
            .iter()
            .filter(|s| s.empties() == 59)
            .all(|s| s.label == -64.0));
        let dir = std::env::temp_dir().join(format!("rv-ds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.bin");
        save(&path, &samples).unwrap();
        assert_eq!(load(&path).unwrap(), samples);
        std::fs::write(&path, b"garbage").unwrap();
        assert!(load(&path).is_err());
        // A count so large that `16 + n × record` wraps to this very file's size (64 bytes).
        let n = 2 + (1u64 << 61);
        assert_eq!(16u64.wrapping_add(n.wrapping_mul(RECORD as u64)), 64);
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&n.to_le_bytes());
        bytes.resize(64, 0);
        std::fs::write(&path, &bytes).unwrap();
        assert!(load(&path).is_err(), "a huge count is refused, not allocated");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
