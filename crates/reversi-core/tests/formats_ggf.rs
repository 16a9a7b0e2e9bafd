//! GGF records round-trip for every preset of `Variant` (RULES.md §2, §4): games played to the end,
//! games stopped half-way, games with passes, games from a set-up position.

use reversi_core::format::ggf::{parse_ggf, write_ggf, Ending, GameInfo, GgfGame, GgfResult};
use reversi_core::notation::parse_board;
use reversi_core::{Bits, Color, Game, Move, Rules, Variant};

/// Plays a game with a simple deterministic generator choosing among the legal moves; `max_plies`
/// stops it early.
fn play(variant: Variant, seed: u64, max_plies: usize) -> Game {
    let mut game = Game::new(Rules::new(variant, 0));
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    while !game.is_over() && game.ply() < max_plies {
        if game.position().must_pass() {
            game.play(Move::Pass).unwrap();
            continue;
        }
        let moves: Vec<_> = game.legal_moves().squares().collect();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        game.play(Move::Play(moves[(state % moves.len() as u64) as usize]))
            .unwrap();
    }
    game
}

fn info() -> GameInfo {
    GameInfo {
        black: "Black Player".into(),
        white: "White [W]".into(),
        black_rating: Some(1850.5),
        white_rating: None,
        date: Some("2024.05.01_12:00:00.UTC".into()),
        place: Some("Paris".into()),
        time_control: Some("30:00//02:00".into()),
        result: None,
        extra: vec![("EV".into(), "Open".into())],
    }
}

fn round_trip(game: &Game) -> GgfGame {
    let record = GgfGame::from_game(game, info());
    let text = write_ggf(&record);
    let parsed = parse_ggf(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(parsed.len(), 1);
    assert_eq!(parsed[0], record, "{text}");
    let replayed = parsed[0].to_game().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&replayed, game, "{text}");
    assert_eq!(write_ggf(&parsed[0]), text);
    parsed.into_iter().next().unwrap()
}

#[test]
fn every_preset_round_trips() {
    let mut passes = 0;
    for variant in Variant::examples() {
        for seed in 0..6 {
            // Finished games.
            let game = play(variant, seed, usize::MAX);
            assert!(game.is_over());
            let record = round_trip(&game);
            let outcome = game.outcome().unwrap();
            let result = record.info.result.expect("a finished game has a result");
            assert_eq!(
                result,
                GgfResult {
                    black_margin: outcome.margin(Color::Black) as f64,
                    ending: Ending::Normal
                }
            );
            assert_eq!(record.variant, variant);
            passes += game.moves().iter().filter(|m| **m == Move::Pass).count();
            // Games stopped half-way have no result.
            let half = play(variant, seed, game.ply() / 2);
            assert!(!half.is_over());
            assert_eq!(round_trip(&half).info.result, None);
        }
    }
    assert!(passes > 0, "some games pass");
}

#[test]
fn written_form() {
    let game = play(Variant::EightStars, 1, 4);
    let text = write_ggf(&GgfGame::from_game(&game, info()));
    assert!(text.starts_with("(;GM[Othello]PC[Paris]DT[2024.05.01_12:00:00.UTC]PB[Black Player]PW[White [W\\]]RB[1850.5]TI[30:00//02:00]TY[10]VA[eight-stars]EV[Open]BO[10 ##------###--------#"), "{text}");
    assert!(text.ends_with(";)"));
    let moves: String = game
        .moves()
        .iter()
        .zip(["B", "W", "B", "W"])
        .map(|(m, c)| format!("{c}[{m}]"))
        .collect();
    assert!(text.ends_with(&format!(" *]{moves};)")), "{text}");
    let game = play(Variant::BlackHole(reversi_core::Square::parse("c3")), 1, 0);
    let text = write_ggf(&GgfGame::from_game(&game, GameInfo::default()));
    assert_eq!(
        text,
        "(;GM[Othello]PB[]PW[]TY[8]VA[black-hole:c3]BO[8 ------------------#--------O*------*O--------------------------- *];)"
    );
    let game = play(Variant::Reversi1880(Color::White), 1, 0);
    let text = write_ggf(&GgfGame::from_game(&game, GameInfo::default()));
    assert!(
        text.contains("VA[reversi-1880:white]BO[8 ") && text.ends_with(" O];)"),
        "{text}"
    );
}

#[test]
fn passes_are_written_and_read() {
    // A 4×4 game where white must pass: found by play(); the record holds the pass explicitly.
    let game = (0..200)
        .map(|s| play(Variant::Nxn(4), s, usize::MAX))
        .find(|g| g.moves().contains(&Move::Pass))
        .expect("a 4×4 game with a pass");
    let record = round_trip(&game);
    let text = write_ggf(&record);
    assert!(text.contains("[PA]"), "{text}");
    // A record that leaves the pass out reads the same.
    let without = text.replace("B[PA]", "").replace("W[PA]", "");
    assert_ne!(without, text);
    assert_eq!(parse_ggf(&without).unwrap()[0].moves, record.moves);
}

#[test]
fn a_set_up_position_round_trips() {
    let rules = Rules::othello();
    let board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let start = parse_board(&rules, board).unwrap();
    let mut game = Game::from_position(rules, start);
    game.play(Move::Play(reversi_core::Square::parse("g8").unwrap()))
        .unwrap();
    let record = round_trip(&game);
    assert_eq!(record.start, start);
    assert!(write_ggf(&record).contains("BO[8 --*****--OOO**-O"));
}

#[test]
fn several_games_in_one_file() {
    let games: Vec<Game> = Variant::examples()
        .into_iter()
        .map(|v| play(v, 7, usize::MAX))
        .collect();
    let text: String = games
        .iter()
        .map(|g| write_ggf(&GgfGame::from_game(g, GameInfo::default())) + "\n")
        .collect();
    let parsed = parse_ggf(&text).unwrap();
    assert_eq!(parsed.len(), games.len());
    for (p, g) in parsed.iter().zip(&games) {
        assert_eq!(&p.to_game().unwrap(), g);
    }
}
