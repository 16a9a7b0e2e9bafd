//! The fuzz targets of the rules crate's parsers, run on every saved input (regressions and
//! seeds) with the fuzzers' own checks (see `reversi-fuzz-replay`).

#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/board.rs"]
mod board;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/ggf.rs"]
mod ggf;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/obf.rs"]
mod obf;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/transcript.rs"]
mod transcript;
#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/wthor.rs"]
mod wthor;

const FUZZ: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz");

#[test]
fn every_saved_input_passes_its_target() {
    libfuzzer_sys::replay(FUZZ, "ggf", ggf::check);
    libfuzzer_sys::replay(FUZZ, "transcript", transcript::check);
    libfuzzer_sys::replay(FUZZ, "board", board::check);
    libfuzzer_sys::replay(FUZZ, "obf", obf::check);
    libfuzzer_sys::replay(FUZZ, "wthor", wthor::check);
}
