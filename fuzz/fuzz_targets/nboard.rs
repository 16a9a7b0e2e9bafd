//! NBoard: any lines never panic and leave the session answering `ping`. Searches are cut short
//! (the stop flag is up) so that every input is quick.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_protocol::lines::{lines, MAX_LINE_BYTES};
use reversi_protocol::nboard::NboardSession;
use reversi_protocol::EngineSettings;
use std::sync::atomic::AtomicBool;

fuzz_target!(|data: &[u8]| {
    let mut session = NboardSession::new(EngineSettings {
        level: 1,
        hash_mib: 1,
        ..EngineSettings::default()
    })
    .expect("a small engine");
    let stop = AtomicBool::new(true);
    let mut out = Vec::new();
    for line in lines(data, MAX_LINE_BYTES) {
        let Ok(Ok(line)) = line else { continue };
        if !session.handle(&line, &stop, &mut out).expect("writes to memory") {
            return;
        }
    }
    out.clear();
    session
        .handle("ping 7", &stop, &mut out)
        .expect("writes to memory");
    assert_eq!(out, b"pong 7\n");
});
