//! Transcripts: parsing never panics; what parses writes back to the same squares and replays
//! (legally or with an error) without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::notation::{parse_transcript, write_transcript};
use reversi_core::{Game, Move, Rules};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(moves) = parse_transcript(text) else { return };
    let written = write_transcript(&moves);
    let again = parse_transcript(&written).expect("a written transcript parses");
    let squares: Vec<Move> = moves.iter().copied().filter(|m| *m != Move::Pass).collect();
    assert_eq!(again, squares);
    let _ = Game::replay(Rules::othello(), &moves);
});
