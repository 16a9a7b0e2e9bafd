//! Board strings: parsing never panics, on any geometry; a parsed board writes back and parses to
//! the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::notation::{parse_board, parse_board_prefix, write_board};
use reversi_core::{Rules, Variant};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let variants = [
        Variant::Othello,
        Variant::Nxn(4),
        Variant::Nxn(16),
        Variant::EightStars,
        Variant::Reversi1880(reversi_core::Color::White),
    ];
    let rules = Rules::new(variants[pick as usize % variants.len()], pick as u64);
    let _ = parse_board_prefix(&rules, text);
    if let Ok(pos) = parse_board(&rules, text) {
        let again = parse_board(&rules, &write_board(&pos)).expect("a written board parses");
        assert_eq!(again, pos);
    }
});
