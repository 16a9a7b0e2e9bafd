//! The FFO endgame suite (`data/ffo/`) read through the OBF parser and checked against
//! `answers.tsv` (data/README.md).

use reversi_core::format::obf::{parse_obf, write_obf_line};
use reversi_core::notation::write_board;
use reversi_core::{Bits, Color, Move, Square};

fn data(name: &str) -> String {
    let path = format!("{}/../../data/ffo/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

struct Answer {
    board: String,
    side: Color,
    empties: u32,
    score: i32,
    moves: Vec<Square>,
}

fn answers() -> Vec<Answer> {
    data("answers.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 6, "answers line {}", i + 1);
            assert_eq!(f[0].parse::<usize>().unwrap(), i + 1);
            Answer {
                board: f[1].to_string(),
                side: Color::from_char(f[2].chars().next().unwrap()).unwrap(),
                empties: f[3].parse().unwrap(),
                score: f[4].parse().unwrap(),
                moves: f[5].split(',').map(|s| Square::parse(s).unwrap()).collect(),
            }
        })
        .collect()
}

#[test]
fn all_79_ffo_positions_parse_and_match_the_answers() {
    let files = [
        "fforum-1-19.obf",
        "fforum-20-39.obf",
        "fforum-40-59.obf",
        "fforum-60-79.obf",
    ];
    let entries: Vec<_> = files
        .iter()
        .flat_map(|f| parse_obf(&data(f)).unwrap_or_else(|e| panic!("{f}: {e}")))
        .collect();
    let answers = answers();
    assert_eq!(entries.len(), 79);
    assert_eq!(answers.len(), 79);
    for (i, (e, a)) in entries.iter().zip(&answers).enumerate() {
        let id = i + 1;
        let board = write_board(&e.position);
        assert_eq!(&board[..64], a.board, "#{id} board");
        assert_eq!(e.position.side_to_move(), a.side, "#{id} side");
        assert_eq!(e.empties(), a.empties, "#{id} empties");
        assert_eq!(e.best_score(), Some(a.score), "#{id} best score");
        // Every best move of the answer table is listed with the best score, and no other.
        let mut best: Vec<Square> = e.best_moves().into_iter().filter_map(Move::square).collect();
        best.sort();
        let mut expected = a.moves.clone();
        expected.sort();
        assert_eq!(best, expected, "#{id} best moves");
        // The listed moves are exactly the legal moves, best first.
        let mut listed: Vec<Square> = e.moves.iter().filter_map(|(m, _)| m.square()).collect();
        listed.sort();
        assert_eq!(
            listed,
            e.position.legal_moves().squares().collect::<Vec<_>>(),
            "#{id} legal moves"
        );
        assert!(e.moves.windows(2).all(|w| w[0].1 >= w[1].1), "#{id} best first");
    }
    // Spot checks from data/README.md: #1 is 14 empties, +18 by g8; #79 is 36 empties.
    assert_eq!((entries[0].empties(), entries[0].best_score()), (14, Some(18)));
    assert_eq!(entries[78].empties(), 36);
}

#[test]
fn ffo_files_round_trip() {
    for f in [
        "fforum-1-19.obf",
        "fforum-20-39.obf",
        "fforum-40-59.obf",
        "fforum-60-79.obf",
    ] {
        let text = data(f);
        let entries = parse_obf(&text).unwrap();
        let written: Vec<String> = entries.iter().map(write_obf_line).collect();
        // The files are written in exactly our style.
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(written, lines, "{f}");
        assert_eq!(parse_obf(&written.join("\n")).unwrap(), entries, "{f}");
    }
}
