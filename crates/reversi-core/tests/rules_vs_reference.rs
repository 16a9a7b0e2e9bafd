//! Every preset against the naive reference board (RULES.md §1–§4): random games, same legal
//! moves, flips, counts, passes, game end and final score at every ply.

mod common;

use common::{all_presets, rules, RefBoard};
use proptest::prelude::*;
use reversi_core::{Bits, Color, Game, Move, Square, Variant};

fn sq(x: i32, y: i32) -> Square {
    Square::new(x as u8, y as u8).unwrap()
}

/// Plays one random game of `variant`, choosing moves from `choices`, checking every ply.
fn check_random_game(variant: Variant, choices: &[u16]) {
    let mut reference = RefBoard::start(variant);
    let mut game = Game::new(rules(variant));
    let mut k = 0;
    loop {
        let pos = *game.position();
        assert_eq!(pos.side_to_move(), reference.side, "{variant}: side to move");
        let mine: Vec<Square> = pos.legal_moves().squares().collect();
        let theirs: Vec<Square> = reference.moves().into_iter().map(|(x, y)| sq(x, y)).collect();
        assert_eq!(
            mine,
            theirs,
            "{variant} ply {}: legal moves in {}",
            game.ply(),
            game.transcript()
        );
        for &(x, y) in &reference.moves() {
            let mut expect: Vec<Square> = reference
                .flips_for(reference.side, x, y)
                .into_iter()
                .map(|(a, b)| sq(a, b))
                .collect();
            expect.sort();
            let got: Vec<Square> = pos.flips(sq(x, y)).squares().collect();
            assert_eq!(got, expect, "{variant}: flips of {}", sq(x, y));
        }
        for c in Color::ALL {
            assert_eq!(pos.count(c), reference.count(c));
        }
        assert_eq!(pos.is_game_over(), reference.game_over(), "{variant}: game over");
        if reference.game_over() {
            let o = pos.outcome().expect("over");
            assert_eq!(
                (o.black, o.white),
                reference.final_score(),
                "{variant}: final score"
            );
            assert_eq!(o.winner, reference.winner(), "{variant}: winner");
            // RULES.md §1: the margin is the difference of the written score, signed by the
            // winner. In anti the empties go to the winner, who has fewer discs, so a win can be
            // written level (32–30 with two empties: 32–32) — a win by 0; elsewhere a win is
            // always by more.
            let margin = o.margin(Color::Black);
            assert_eq!(
                margin.unsigned_abs(),
                o.black.abs_diff(o.white),
                "{variant}: margin"
            );
            let strict = reference.fewest_wins as i32;
            match o.winner {
                Some(Color::Black) => assert!(margin + strict > 0, "{variant}: {margin}"),
                Some(Color::White) => assert!(margin - strict < 0, "{variant}: {margin}"),
                None => assert_eq!(margin, 0),
            }
            assert!(game.play(Move::Pass).is_err());
            break;
        }
        if theirs.is_empty() {
            assert!(pos.must_pass());
            reference.pass();
            game.play(Move::Pass).unwrap();
            continue;
        }
        let pick = theirs[choices[k % choices.len()] as usize % theirs.len()];
        k += 1;
        // An illegal square is refused and changes nothing.
        let before = game.clone();
        if let Some(bad) = (!pos.legal_moves())
            .squares()
            .find(|s| s.col() < pos.width() && s.row() < pos.height())
        {
            assert!(game.play(Move::Play(bad)).is_err());
            assert_eq!(game, before);
        }
        assert!(reference.play(pick.col() as i32, pick.row() as i32));
        game.play(Move::Play(pick)).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn every_preset_matches_the_reference(choices in proptest::collection::vec(any::<u16>(), 1..200)) {
        for v in all_presets() {
            check_random_game(v, &choices);
        }
    }
}

#[test]
fn perft_matches_the_reference_for_every_preset() {
    for v in all_presets() {
        let game = Game::new(rules(v));
        let reference = RefBoard::start(v);
        let depth = if matches!(v, Variant::Nxn(16) | Variant::NxnParallel(16)) {
            3
        } else {
            4
        };
        for d in 1..=depth {
            assert_eq!(
                reversi_core::perft::perft(game.position(), d),
                reference.perft(d),
                "{v} depth {d}"
            );
        }
    }
}
