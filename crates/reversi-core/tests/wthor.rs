//! Every file of the WTHOR database (`data/wthor/`) read and every game replayed legally
//! (data/README.md). Finished games must agree with the stored disc count under RULES.md §1
//! (empties to the winner).

use reversi_core::format::wthor::{parse_games, parse_players, parse_tournaments};
use reversi_core::Square;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/wthor")
}

fn read(name: &str) -> Vec<u8> {
    let path = dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn names_files() {
    let players = parse_players(&read("WTHOR.JOU")).unwrap();
    assert_eq!(players.names.len(), 4448);
    assert_eq!(players.header.record_count, 4448);
    assert_eq!(players.get(0), Some("???"));
    assert_eq!(players.get(1), Some("Tastet Marc"));
    assert_eq!(players.get(2), Some("Penloup Dominique"));
    let tournaments = parse_tournaments(&read("WTHOR.TRN")).unwrap();
    assert_eq!(tournaments.names.len(), 492);
    assert_eq!(tournaments.get(0), Some("Diverses parties"));
    assert_eq!(tournaments.get(1), Some("World Championship"));
    assert!(players
        .names
        .iter()
        .chain(&tournaments.names)
        .all(|n| !n.contains('\0')));
}

#[test]
fn every_game_replays() {
    let players = parse_players(&read("WTHOR.JOU")).unwrap();
    let tournaments = parse_tournaments(&read("WTHOR.TRN")).unwrap();
    let mut files: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("WTH_") && n.ends_with(".wtb"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 49, "WTH_1977.wtb to WTH_2025.wtb");

    let (mut games, mut finished, mut incomplete) = (0usize, 0usize, 0usize);
    let (mut black_wins, mut white_wins, mut draws) = (0usize, 0usize, 0usize);
    for file in &files {
        let db = parse_games(&read(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let year: u16 = file[4..8].parse().unwrap();
        assert_eq!(db.header.year, year, "{file}");
        assert_eq!(db.header.game_count as usize, db.games.len(), "{file}");
        assert_eq!(db.header.side().unwrap(), 8, "{file}");
        for (i, g) in db.games.iter().enumerate() {
            assert!(
                players.get(g.black).is_some() && players.get(g.white).is_some(),
                "{file} game {i}: player"
            );
            assert!(
                tournaments.get(g.tournament).is_some(),
                "{file} game {i}: tournament"
            );
            // The database normalises every game to start with f5.
            assert_eq!(
                g.moves().first(),
                Square::parse("f5").as_ref(),
                "{file} game {i}: first move"
            );
            let game = g.to_game().unwrap_or_else(|e| panic!("{file} game {i}: {e}"));
            match game.outcome() {
                Some(outcome) => {
                    finished += 1;
                    assert_eq!(
                        outcome.black, g.black_discs as u32,
                        "{file} game {i}: stored count vs replay"
                    );
                    assert_eq!(outcome.black + outcome.white, 64);
                }
                None => incomplete += 1,
            }
            match g.black_discs.cmp(&32) {
                std::cmp::Ordering::Greater => black_wins += 1,
                std::cmp::Ordering::Less => white_wins += 1,
                std::cmp::Ordering::Equal => draws += 1,
            }
            // A game replayed keeps its moves: the passes are the only additions.
            let squares: Vec<_> = game.moves().iter().filter_map(|m| m.square()).collect();
            assert_eq!(squares, g.moves(), "{file} game {i}");
            games += 1;
        }
    }
    println!(
        "WTHOR: {} files, {games} games replayed ({finished} finished, {incomplete} incomplete); \
         {} players, {} tournaments; black {black_wins}, white {white_wins}, draws {draws}",
        files.len(),
        players.names.len(),
        tournaments.names.len()
    );
    assert_eq!(games, 137_548);
    assert_eq!(incomplete, 413);
    assert_eq!(finished, 137_548 - 413);
    assert_eq!((black_wins, white_wins, draws), (62_567, 67_247, 7_734));
}

#[test]
fn first_game_of_1977() {
    let db = parse_games(&read("WTH_1977.wtb")).unwrap();
    let players = parse_players(&read("WTHOR.JOU")).unwrap();
    let tournaments = parse_tournaments(&read("WTHOR.TRN")).unwrap();
    assert_eq!(db.games.len(), 12);
    assert_eq!((db.header.year, db.header.depth), (1977, 24));
    let g = &db.games[0];
    assert_eq!(tournaments.get(g.tournament), Some("World Championship"));
    assert_eq!(players.get(g.black), Some("Inoue Hiroshi"));
    assert_eq!(players.get(g.white), Some("Heiberg Thomas"));
    assert_eq!((g.black_discs, g.theoretical, g.black_margin()), (34, 41, 4));
    let game = g.to_game().unwrap();
    assert_eq!(
        game.transcript(),
        "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1"
    );
    let outcome = game.outcome().expect("a finished game");
    assert_eq!(
        (outcome.black, outcome.white, outcome.winner),
        (34, 30, Some(reversi_core::Color::Black))
    );
}
