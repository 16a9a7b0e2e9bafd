//! What an engine may ask of the machine: table memory and threads, checked before use.

use crate::tt::MAX_HASH_MIB;

/// The most search threads an engine runs (far more than any machine has cores: each thread
/// keeps its own stack and tables, so a larger count only wastes memory).
pub const MAX_THREADS: usize = 256;

/// An engine that cannot be built as asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResourceError {
    /// The transposition table size is outside 1..=[`MAX_HASH_MIB`] MiB.
    HashSize(usize),
    /// The system refused the memory of a table this size (MiB).
    OutOfMemory(usize),
    /// The thread count is outside 1..=[`MAX_THREADS`].
    Threads(usize),
}

impl std::fmt::Display for ResourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResourceError::HashSize(mib) => write!(
                f,
                "a hash table of {mib} MiB is not possible: the size must be from 1 to {MAX_HASH_MIB} MiB"
            ),
            ResourceError::OutOfMemory(mib) => write!(
                f,
                "cannot get {mib} MiB of memory for the hash table; ask for less (--hash)"
            ),
            ResourceError::Threads(n) => write!(
                f,
                "{n} search threads is not possible: the count must be from 1 to {MAX_THREADS}"
            ),
        }
    }
}

impl std::error::Error for ResourceError {}
