//! The fuzz targets of the API's request bodies, the websockets' messages and the import, run
//! on every saved input (regressions and seeds) with the fuzzer's own check (see
//! `reversi-fuzz-replay`).

#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/api_body.rs"]
mod api_body;

#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/ws_messages.rs"]
mod ws_messages;

#[allow(unused_attributes)]
#[path = "../../../fuzz/fuzz_targets/import.rs"]
mod import;

const FUZZ: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz");

#[test]
fn every_saved_api_body_passes_its_target() {
    libfuzzer_sys::replay(FUZZ, "api_body", api_body::check);
}

#[test]
fn every_saved_websocket_message_passes_its_target() {
    libfuzzer_sys::replay(FUZZ, "ws_messages", ws_messages::check);
}

#[test]
fn every_saved_import_passes_its_target() {
    libfuzzer_sys::replay(FUZZ, "import", import::check);
}
