//! `POST /api/import`: any text (as transcripts in any variant, or GGF) gives games or a
//! `400 bad_request` that says where; every game read is stored exactly as read (its moves,
//! passes included, replay from its start to the same end) but for the forced passes still due
//! at its end, which a stored game never waits on; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::Move;
use reversi_server::import::{games_of, imported};
use reversi_server::Error;

const VARIANTS: [&str; 6] = [
    "othello",
    "nxn:6",
    "grand",
    "anti",
    "black-hole:c3",
    "reversi-1880",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let variant = VARIANTS[pick as usize % VARIANTS.len()];
    match games_of(&text, variant) {
        Ok(games) => {
            assert!(!games.is_empty() && games.len() <= reversi_server::import::MAX_IMPORTED_GAMES);
            for g in &games {
                let live = imported(g, "token", 1_700_000_000_000)
                    .unwrap_or_else(|e| panic!("a game read is stored: {e}"));
                let (read, stored) = (g.moves(), live.game.moves());
                assert!(stored.len() >= read.len(), "stored as read");
                assert_eq!(&stored[..read.len()], read, "stored as read");
                // What the store adds: only passes the read game owes.
                let mut owed = g.clone();
                for mv in &stored[read.len()..] {
                    assert!(
                        *mv == Move::Pass && owed.position().must_pass(),
                        "only forced passes are added"
                    );
                    owed.play(*mv).unwrap();
                }
                assert_eq!(live.game.position(), owed.position());
            }
        }
        Err(Error::BadRequest(m)) => assert!(m.len() < 4096, "{} bytes", m.len()),
        Err(e) => panic!("unexpected error {e:?}"),
    }
});
