//! OBF: parsing never panics; every parsed entry writes back and parses to the same entry.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::format::obf::{parse_obf, parse_obf_line, write_obf_line};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(entries) = parse_obf(text) else { return };
    for e in entries {
        let again = parse_obf_line(&write_obf_line(&e)).expect("a written line parses");
        assert_eq!(again, e);
    }
});
