//! Standard output that reports a failed write instead of panicking, so that `reversi … | head`
//! ends quietly, as a Unix tool does, when the reader goes away (`println!` panics then).

use std::fmt;
use std::io::{self, Write};

/// `println!` that returns the write's `io::Result` instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// `print!` that returns the write's `io::Result` instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)
    }};
}

pub(crate) use {out, outln};

/// Lines written from a callback that cannot return an error (a search's progress report):
/// the first failed write is kept, later lines are dropped, and [`Lines::finish`] returns it.
#[derive(Debug, Default)]
pub struct Lines {
    error: Option<io::Error>,
}

impl Lines {
    /// Writes one line, unless an earlier one failed.
    pub fn line(&mut self, args: fmt::Arguments<'_>) {
        if self.error.is_none() {
            if let Err(e) = writeln!(io::stdout().lock(), "{args}") {
                self.error = Some(e);
            }
        }
    }

    /// The first failed write, if any.
    pub fn finish(self) -> io::Result<()> {
        self.error.map_or(Ok(()), Err)
    }
}

/// Whether `e`, or an error it wraps, is a write to a closed pipe.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
