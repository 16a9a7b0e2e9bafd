//! The web API's request bodies and websocket messages: any bytes give a value or a
//! `400 bad_request` whose message names no Rust type; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_server::body::parse_object;
use reversi_server::Error;
use reversi_site_api::{GameCommand, JoinGame, NewGame, NewSeek, PlayMove, Resign};

fn check_body<T: serde::de::DeserializeOwned>(data: &[u8]) {
    match parse_object::<T>(data) {
        Ok(_) => {}
        Err(Error::BadRequest(m)) => {
            // What the message quotes from the input may say anything; the rest is ours.
            let ours = unquoted(&m);
            for word in [
                "struct",
                "NewGame",
                "PlayMove",
                "Resign",
                "JoinGame",
                "NewSeek",
                "GameCommand",
                "u32",
                "usize",
            ] {
                assert!(!ours.contains(word), "{m}");
            }
            assert!(m.len() < 1024, "{} bytes", m.len());
        }
        Err(e) => panic!("unexpected error {e:?}"),
    }
}

/// `m` without its quotations (between backticks, or double quotes with backslash escapes,
/// read left to right).
fn unquoted(m: &str) -> String {
    let mut out = String::new();
    let mut quote = None;
    let mut escaped = false;
    for c in m.chars() {
        match quote {
            Some(_) if escaped => escaped = false,
            Some('"') if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '`' || c == '"' => quote = Some(c),
            None => out.push(c),
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    check_body::<NewGame>(data);
    check_body::<PlayMove>(data);
    check_body::<Resign>(data);
    check_body::<JoinGame>(data);
    check_body::<NewSeek>(data);
    check_body::<GameCommand>(data);
});
