//! What the site offers in its choosers: the variant presets of each kind of game and the time
//! controls of seeks and tournaments. One list each, read by the server's checks and sent to the
//! front end (`GET /api/meta`), so that no list is copied into JavaScript.

/// The variant presets a new game (against the computer, a friend, on one device) offers, in
/// the order the home page lists them (README "Variants"): every board size with the cross
/// start and with the side-by-side one the source texts describe for n×n boards.
pub const NEW_GAME_VARIANTS: [&str; 21] = [
    "othello",
    "xot",
    "nxn:6",
    "nxn:10",
    "grand",
    "eight-stars",
    "black-hole",
    "anti",
    "reversi-1880",
    "reversi-1880:white",
    "nxn:4",
    "nxn:12",
    "nxn:14",
    "nxn:16",
    "nxn-parallel:4",
    "nxn-parallel:6",
    "nxn-parallel:8",
    "nxn-parallel:10",
    "nxn-parallel:12",
    "nxn-parallel:14",
    "nxn-parallel:16",
];

/// The variants the lobby's seeks and tournaments offer.
pub const ONLINE_VARIANTS: [&str; 8] = [
    "othello",
    "xot",
    "grand",
    "anti",
    "nxn:6",
    "nxn:10",
    "eight-stars",
    "black-hole",
];

/// The variants the analysis board offers (a position of each can be set up and searched).
pub const ANALYSIS_VARIANTS: [&str; 6] = ["othello", "nxn:6", "nxn:10", "grand", "eight-stars", "anti"];

/// The live time controls offered (minutes + seconds of increment), fastest first.
pub const LIVE_CONTROLS: [&str; 11] = [
    "1+0", "1+1", "2+1", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0",
];

/// The correspondence controls offered (days per move).
pub const CORRESPONDENCE_CONTROLS: [&str; 4] = ["1d", "2d", "3d", "7d"];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::TimeControl;
    use reversi_core::Variant;
    use std::str::FromStr;

    #[test]
    fn every_preset_parses() {
        for v in NEW_GAME_VARIANTS
            .iter()
            .chain(&ONLINE_VARIANTS)
            .chain(&ANALYSIS_VARIANTS)
        {
            assert!(Variant::from_str(v).is_ok(), "{v}");
        }
        for c in LIVE_CONTROLS.iter().chain(&CORRESPONDENCE_CONTROLS) {
            assert!(TimeControl::from_str(c).is_ok(), "{c}");
        }
        for c in CORRESPONDENCE_CONTROLS {
            assert!(TimeControl::from_str(c).unwrap().is_correspondence(), "{c}");
        }
        for c in crate::pairing::POOLS {
            assert!(
                LIVE_CONTROLS.contains(&c) || CORRESPONDENCE_CONTROLS.contains(&c),
                "{c}"
            );
        }
    }
}
