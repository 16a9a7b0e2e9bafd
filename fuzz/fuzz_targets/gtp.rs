//! GTP: any lines, in any order, get one reply each (`=` or `?`) and never panic; the session
//! keeps answering. Searches are cut short (the stop flag is up) so that every input is quick.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_protocol::gtp::GtpSession;
use reversi_protocol::lines::{lines, MAX_LINE_BYTES};
use reversi_protocol::EngineSettings;

fuzz_target!(|data: &[u8]| {
    let mut session = GtpSession::new(EngineSettings {
        level: 1,
        hash_mib: 1,
        ..EngineSettings::default()
    })
    .expect("a small engine");
    session
        .stop_handle()
        .store(true, std::sync::atomic::Ordering::SeqCst);
    for line in lines(data, MAX_LINE_BYTES) {
        let Ok(Ok(line)) = line else { continue };
        if let Some(reply) = session.handle_line(&line) {
            assert!(reply.starts_with('=') || reply.starts_with('?'), "{reply:?}");
            assert!(reply.ends_with("\n\n"), "{reply:?}");
        }
        if session.has_quit() {
            return;
        }
    }
    let reply = session.handle_line("name").expect("a reply");
    assert_eq!(reply, "= reversi\n\n");
});
