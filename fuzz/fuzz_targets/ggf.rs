//! GGF: parsing never panics; every parsed game writes back and parses to the same game, and
//! replaying it (legally or with an error) does not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::format::ggf::{parse_ggf, write_ggf};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(games) = parse_ggf(text) else { return };
    for g in games {
        let written = write_ggf(&g);
        let again = parse_ggf(&written).expect("a written game parses");
        // NaN cannot appear (ratings and results must be finite), so equality is exact.
        assert_eq!(again.len(), 1);
        assert_eq!(again[0], g, "{written}");
        let _ = g.to_game();
    }
});
