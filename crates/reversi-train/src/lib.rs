//! Training the learned evaluation of `reversi-engine` (`reversi train`).
//!
//! The pipeline, each step a file so that it can be rerun or resumed:
//! 1. [`selfplay`] — games the engine plays against itself from XOT and random openings;
//! 2. [`dataset`] — positions of every game (WTHOR, Logistello's self-play, our games),
//!    deduplicated by symmetry, labelled with the game's (or WTHOR's theoretical) result and
//!    split into training and held-out sets;
//! 3. [`label`] — exact solver scores for positions the solver reaches ([`augment`] adds more
//!    of them, by random play from real positions);
//! 4. [`fit`] — weighted least squares per stage (conjugate gradient, L2), from the end of the
//!    game backwards, written as a compressed weights file named by its hash;
//! 5. [`measure`] — errors by stage on held-out positions, against exact scores, and best-move
//!    accuracy; [`evaltest`] — problem sets with every move's exact score, and how a
//!    fixed-depth search does on them.
#![forbid(unsafe_code)]

pub mod augment;
pub mod book;
pub mod dataset;
pub mod evaltest;
pub mod fit;
pub mod label;
pub mod measure;
pub mod puzzles;
pub mod replay;
pub mod selfplay;
pub mod sources;

/// Errors of the training pipeline.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A game or file is malformed.
    #[error("{path}: {what}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong, and where.
        what: String,
    },
    /// The engine's tables could not be had.
    #[error("{0}")]
    Resources(#[from] reversi_engine::ResourceError),
}

impl TrainError {
    /// An I/O error on `path`.
    pub fn io(path: &std::path::Path, source: std::io::Error) -> TrainError {
        TrainError::Io {
            path: path.display().to_string(),
            source,
        }
    }

    /// A format error in `path`.
    pub fn format(path: &std::path::Path, what: impl Into<String>) -> TrainError {
        TrainError::Format {
            path: path.display().to_string(),
            what: what.into(),
        }
    }
}

/// Result of the pipeline's steps.
pub type Result<T> = std::result::Result<T, TrainError>;
