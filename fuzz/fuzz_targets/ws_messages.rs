//! The websockets' client messages — a game's (moves, resignation, …) and the analysis board's
//! (positions, pasted games): any bytes give a message or a `400 bad_request`; a position
//! message gives a game or a `400`; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_server::analysis_board::game_of;
use reversi_server::body::parse_object;
use reversi_server::Error;
use reversi_site_api::analysis::AnalysisRequest as BoardMessage;
use reversi_site_api::GameCommand as GameMessage;

fn refused_clearly(e: Error) {
    match e {
        Error::BadRequest(m) => assert!(m.len() < 4096, "{} bytes", m.len()),
        e => panic!("unexpected error {e:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    if let Err(e) = parse_object::<GameMessage>(data) {
        refused_clearly(e);
    }
    match parse_object::<BoardMessage>(data) {
        Ok(BoardMessage::Position(req)) => {
            if let Err(e) = game_of(&req) {
                refused_clearly(e);
            }
        }
        Ok(_) => {}
        Err(e) => refused_clearly(e),
    }
});
