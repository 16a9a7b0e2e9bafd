//! The fuzz target of the API's request bodies and websocket messages, run on every saved
//! input (regressions and seeds) with the fuzzer's own check (see `reversi-fuzz-replay`).

#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/api_body.rs"]
mod api_body;

#[test]
fn every_saved_input_passes_its_target() {
    let fuzz = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz");
    libfuzzer_sys::replay(fuzz, "api_body", api_body::check);
}
