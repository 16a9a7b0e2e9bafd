//! Replays what the fuzzers found, in the normal test suite.
//!
//! A test crate depends on this one under the name `libfuzzer_sys`
//! (`libfuzzer-sys = { package = "reversi-fuzz-replay", … }`) and compiles a fuzz target's file
//! as a module (`#[path = "…/fuzz/fuzz_targets/ggf.rs"] mod ggf;`): the target's
//! `fuzz_target!(|data: &[u8]| { … })` then defines `pub fn check(data: &[u8])`, the very check
//! the fuzzer runs, and [`replay`] feeds it every saved input of that target.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

/// Defines `pub fn check(data: &[u8])` with the body of a fuzz target.
#[macro_export]
macro_rules! fuzz_target {
    (|$data:ident: &[u8]| $body:block) => {
        /// The fuzz target's check.
        pub fn check($data: &[u8]) $body
    };
}

/// Runs `check` on every file in `fuzz/regressions/TARGET/` (minimised crashers, kept once
/// fixed) and `fuzz/seeds/TARGET/` (the corpus the fuzzer starts from), failing with the file's
/// name when one does not pass. `fuzz_dir` is the repository's `fuzz` folder.
pub fn replay(fuzz_dir: &str, target: &str, check: fn(&[u8])) {
    let mut n = 0;
    for kind in ["regressions", "seeds"] {
        let Ok(dir) = std::fs::read_dir(format!("{fuzz_dir}/{kind}/{target}")) else {
            continue;
        };
        let mut files: Vec<_> = dir.filter_map(|f| f.ok()).map(|f| f.path()).collect();
        files.sort();
        for path in files {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let outcome = std::panic::catch_unwind(|| check(&bytes));
            assert!(
                outcome.is_ok(),
                "{target}: {} fails the fuzz target's check",
                path.display()
            );
            n += 1;
        }
    }
    assert!(n > 0, "{target}: no saved input (fuzz/seeds/{target} is empty)");
}
