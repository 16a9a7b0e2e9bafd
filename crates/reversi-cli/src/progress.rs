//! Progress bars of the long commands (training, books, puzzles, imports), one style for all.

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar with the elapsed time and an estimate of the time left.
pub(crate) fn bar(len: u64, what: &str) -> ProgressBar {
    let b = ProgressBar::new(len);
    b.set_style(
        ProgressStyle::with_template(
            "{msg:>12} [{bar:40}] {pos}/{len} {percent}% {elapsed_precise} ETA {eta_precise}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    b.set_message(what.to_string());
    b
}
