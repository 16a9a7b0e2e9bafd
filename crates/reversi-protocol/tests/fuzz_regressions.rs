//! The fuzz targets of the GTP and NBoard sessions, run on every saved input (regressions and
//! seeds) with the fuzzers' own checks (see `reversi-fuzz-replay`).

#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/gtp.rs"]
mod gtp;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/nboard.rs"]
mod nboard;

const FUZZ: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz");

#[test]
fn every_saved_input_passes_its_target() {
    libfuzzer_sys::replay(FUZZ, "gtp", gtp::check);
    libfuzzer_sys::replay(FUZZ, "nboard", nboard::check);
}
