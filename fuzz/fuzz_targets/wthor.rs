//! WTHOR: the game (`.wtb`/`.wtd`), player (`.jou`) and tournament (`.trn`) readers never panic on
//! any bytes, and every game read replays (legally or with an error) without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::format::wthor::{parse_games, parse_players, parse_tournaments};

fuzz_target!(|data: &[u8]| {
    if let Ok(db) = parse_games(data) {
        assert_eq!(db.games.len(), db.header.game_count as usize);
        for g in &db.games {
            let _ = g.to_game();
        }
    }
    if let Ok(names) = parse_players(data) {
        assert_eq!(names.names.len(), names.header.record_count as usize);
    }
    let _ = parse_tournaments(data);
});
