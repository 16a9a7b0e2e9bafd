//! The engine plays from its opening book at the levels that use it, with variety within the
//! level's margin and none at the strongest, and searches when the book is off.

use reversi_core::{AnyPosition, Game, Move, Rules, Square};
use reversi_engine::book::{margin_for_level, MIN_BOOK_LEVEL};
use reversi_engine::levels::Level;
use reversi_engine::{Engine, SearchKind};
use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

fn bits(pos: &AnyPosition) -> (u64, u64) {
    let AnyPosition::Small(p) = pos else {
        panic!("8×8")
    };
    let me = p.side_to_move();
    (p.discs(me), p.discs(!me))
}

#[test]
fn book_levels_play_book_moves_within_their_margin() {
    let engine = Engine::new(4, 1).unwrap();
    let book = engine.book().expect("the embedded book");
    let game = Game::from_transcript(Rules::othello(), "f5d6").unwrap();
    let (p, o) = bits(game.position());
    let known = book.moves(p, o);
    assert!(
        known.len() >= 2,
        "the book knows several replies to f5d6: {known:?}"
    );
    let best = known[0].value;
    let stop = AtomicBool::new(false);
    for level in [MIN_BOOK_LEVEL, 12, 30] {
        let margin = margin_for_level(level).unwrap();
        for seed in 0..20 {
            let r = engine.search_position(
                game.position(),
                &Level::new(level).limits(seed),
                &stop,
                &mut |_| {},
            );
            assert_eq!(r.kind, SearchKind::Book, "level {level}");
            assert!(
                r.score >= best - margin && r.score <= best,
                "level {level}: {} vs best {best}",
                r.score
            );
            let Some(Move::Play(sq)) = r.best else {
                panic!("a move")
            };
            assert!(known.iter().any(|m| Square::from_bit8(m.square as u32) == sq));
            assert_eq!(r.pv.first(), r.best.as_ref());
        }
    }
    // Below the first book level, and with the book off, the engine searches.
    let r = engine.search_position(
        game.position(),
        &Level::new(MIN_BOOK_LEVEL - 1).limits(0),
        &stop,
        &mut |_| {},
    );
    assert_ne!(r.kind, SearchKind::Book);
    let mut off = Engine::new(4, 1).unwrap();
    off.set_book(None);
    let r = off.search_position(game.position(), &Level::new(12).limits(0), &stop, &mut |_| {});
    assert_eq!(r.kind, SearchKind::Midgame);
}

#[test]
fn the_first_move_varies_with_the_seed_but_not_at_the_strongest_level() {
    let engine = Engine::new(4, 1).unwrap();
    let game = Game::new(Rules::othello());
    let stop = AtomicBool::new(false);
    let first = |level: u32| -> BTreeSet<String> {
        (0..24)
            .map(|seed| {
                let r = engine.search_position(
                    game.position(),
                    &Level::new(level).limits(seed),
                    &stop,
                    &mut |_| {},
                );
                r.best.unwrap().to_string()
            })
            .collect()
    };
    // The four first moves are one up to symmetry, so every one is within any margin.
    assert!(first(12).len() >= 2, "{:?}", first(12));
    assert_eq!(first(30).len(), 1);
}
