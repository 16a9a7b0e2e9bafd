//! The learned 8×8 evaluation: pattern weights per stage, trained by `reversi train` and shipped
//! as a zstd-compressed file whose name carries a hash of its content.
//!
//! File layout (little-endian, then zstd): the magic `RVEVAL01`, the number of stages (u32),
//! the weights per stage (u32), then every stage's weights as `i16` in 1/64 disc, laid out as
//! [`pattern::OFFSETS`] says (folded: see [`pattern::fold`]).

use super::pattern::{self, StageWeights, SCALE, STAGES, STAGE_SIZE};
use super::Evaluator;
use std::fmt;

/// The weights shipped with the engine (see `weights/README.md` for how they were made).
pub static EMBEDDED: &[u8] = include_bytes!("../../weights/eval-2ffb0315107f7c42.zst");
/// The file name of the embedded weights (for logs).
pub const EMBEDDED_NAME: &str = "eval-2ffb0315107f7c42.zst";

const MAGIC: &[u8; 8] = b"RVEVAL01";

/// Why a weights file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeightsError {
    /// Not zstd, or the stream is damaged.
    Compression(String),
    /// The magic bytes are wrong: not a weights file.
    BadMagic,
    /// Made for another layout of features (stages × weights per stage).
    Layout {
        /// Stages in the file.
        stages: u32,
        /// Weights per stage in the file.
        size: u32,
    },
    /// The file ends early or has bytes left over.
    Length {
        /// Bytes expected after decompression.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Compression(e) => {
                write!(f, "not a zstd-compressed weights file ({e}); give a file made by `reversi train fit`")
            }
            WeightsError::BadMagic => {
                write!(f, "not a weights file (bad magic bytes); give a file made by `reversi train fit`")
            }
            WeightsError::Layout { stages, size } => write!(
                f,
                "weights for another feature layout: {stages} stages × {size} (this build: {STAGES} × {STAGE_SIZE}); refit them with this version's `reversi train fit`"
            ),
            WeightsError::Length { expected, found } => {
                write!(f, "weights file has {found} bytes, expected {expected}")
            }
        }
    }
}

impl std::error::Error for WeightsError {}

/// The learned evaluation.
#[derive(Clone)]
pub struct Learned {
    weights: Vec<i16>,
}

impl fmt::Debug for Learned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Learned")
            .field("weights", &self.weights.len())
            .finish()
    }
}

impl Learned {
    /// The evaluation shipped in the binary.
    pub fn embedded() -> &'static Learned {
        static E: std::sync::OnceLock<Learned> = std::sync::OnceLock::new();
        E.get_or_init(|| Learned::from_compressed(EMBEDDED).expect("embedded weights are valid"))
    }

    /// Reads a compressed weights file's bytes.
    pub fn from_compressed(bytes: &[u8]) -> Result<Learned, WeightsError> {
        use std::io::Read;
        // Decompressed with a bound: a small file that inflates without end (a zstd bomb)
        // must be refused by its length, not fill the memory.
        let expected = 16 + 2 * STAGES * STAGE_SIZE;
        let decoder =
            zstd::stream::Decoder::new(bytes).map_err(|e| WeightsError::Compression(e.to_string()))?;
        let mut raw = Vec::with_capacity(expected);
        decoder
            .take(expected as u64 + 1)
            .read_to_end(&mut raw)
            .map_err(|e| WeightsError::Compression(e.to_string()))?;
        Learned::from_raw(&raw)
    }

    /// Reads uncompressed weights.
    pub fn from_raw(raw: &[u8]) -> Result<Learned, WeightsError> {
        if raw.len() < 16 || &raw[..8] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let stages = u32::from_le_bytes(raw[8..12].try_into().expect("4 bytes"));
        let size = u32::from_le_bytes(raw[12..16].try_into().expect("4 bytes"));
        if stages as usize != STAGES || size as usize != STAGE_SIZE {
            return Err(WeightsError::Layout { stages, size });
        }
        let expected = 16 + 2 * STAGES * STAGE_SIZE;
        if raw.len() != expected {
            return Err(WeightsError::Length {
                expected,
                found: raw.len(),
            });
        }
        let weights = raw[16..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(Learned { weights })
    }

    /// Builds from folded weights in 1/64 disc, `STAGES × STAGE_SIZE` of them.
    pub fn from_weights(weights: Vec<i16>) -> Learned {
        assert_eq!(weights.len(), STAGES * STAGE_SIZE);
        Learned { weights }
    }

    /// The uncompressed file content (compress it with zstd to save it).
    pub fn to_raw(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + 2 * self.weights.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(STAGES as u32).to_le_bytes());
        out.extend_from_slice(&(STAGE_SIZE as u32).to_le_bytes());
        for w in &self.weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// One stage's weights.
    pub fn stage(&self, s: usize) -> &StageWeights {
        &self.weights[s * STAGE_SIZE..(s + 1) * STAGE_SIZE]
    }

    /// The evaluation in 1/64 disc (finer than [`Evaluator::eval`]).
    #[inline]
    pub fn eval_fine(&self, p: u64, o: u64) -> i32 {
        let empties = 64 - (p | o).count_ones();
        pattern::evaluate(self.stage(pattern::stage(empties)), p, o)
    }

    /// [`Evaluator::eval`] of the child `(np, no)` reached by playing `sq` (flipping `flips`)
    /// from the position with pattern indices `parent` (the same value): a search that evaluates
    /// each child of a node reads the node's board once, and each child's indices follow from
    /// the move.
    #[inline]
    pub fn eval_child(&self, parent: &pattern::Indices, sq: u32, flips: u64, np: u64, no: u64) -> i32 {
        to_discs(pattern::evaluate_child(&self.weights, parent, sq, flips, np, no))
    }

    /// [`Evaluator::eval`] of `(p, o)` from its pattern indices `idx`, which the caller already
    /// has (the same value).
    #[inline]
    pub fn eval_indexed(&self, idx: &pattern::Indices, p: u64, o: u64) -> i32 {
        to_discs(pattern::evaluate_indexed(&self.weights, idx, p, o))
    }
}

/// A value in 1/[`SCALE`] disc to whole discs: rounded to the nearest, halves away from zero,
/// and clamped to ±63.
#[inline]
fn to_discs(v: i32) -> i32 {
    let d = (v + if v >= 0 { SCALE / 2 } else { -SCALE / 2 }) / SCALE;
    d.clamp(-63, 63)
}

impl Evaluator for Learned {
    #[inline]
    fn eval(&self, p: u64, o: u64) -> i32 {
        to_discs(self.eval_fine(p, o))
    }

    fn learned(&self) -> Option<&Learned> {
        Some(self)
    }

    fn name(&self) -> &'static str {
        "learned"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_inflates_without_end_is_refused() {
        // 1 GiB of zeros compresses to a few KiB; reading it whole would take the gigabyte.
        let mut enc = zstd::stream::Encoder::new(Vec::new(), 19).unwrap();
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..1024 {
            std::io::Write::write_all(&mut enc, &zeros).unwrap();
        }
        let bomb = enc.finish().unwrap();
        assert!(bomb.len() < 1 << 20);
        assert!(matches!(
            Learned::from_compressed(&bomb),
            Err(WeightsError::BadMagic | WeightsError::Length { .. })
        ));
        // The shipped weights still read.
        let w = Learned::embedded();
        let again = zstd::stream::encode_all(&w.to_raw()[..], 3).unwrap();
        assert!(Learned::from_compressed(&again).is_ok());
        assert!(matches!(
            Learned::from_compressed(b"not zstd"),
            Err(WeightsError::Compression(_))
        ));
    }
}
