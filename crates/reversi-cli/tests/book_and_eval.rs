//! `reversi book` (build from games, info, show, export/import round trip, typed errors) and
//! `reversi eval`, through the real binary.

mod common;
use common::reversi;

#[test]
fn the_shipped_book_shows_its_moves_and_round_trips_as_text() {
    let (ok, out, err) = reversi(&["book", "info"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("start value: -1") || out.contains("start value: +0") || out.contains("start value: +1"),
        "{out}"
    );
    let hash = out
        .lines()
        .find_map(|l| l.strip_prefix("content hash: "))
        .unwrap()
        .to_string();
    let (ok, out, _) = reversi(&["book", "show", "-m", "f5d6", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["in_book"], true);
    let first = &v["moves"][0];
    assert_eq!(
        (first["move"].as_str(), first["kind"].as_str()),
        (Some("c3"), Some("book")),
        "{out}"
    );
    // Text and back: the same content.
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("book.txt");
    let back = dir.path().join("book.rvb");
    let (ok, _, err) = reversi(&["book", "export", "default", text.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (ok, out, err) = reversi(&["book", "import", text.to_str().unwrap(), back.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains(&hash), "{out} vs {hash}");
    // A damaged line names itself; a file that is not a book says so.
    let bad = dir.path().join("bad.txt");
    std::fs::write(
        &bad,
        "# book\n---------------------------OX------XO--------------------------- 0 5 zz -- 1\n",
    )
    .unwrap();
    let (ok, _, err) = reversi(&["book", "import", bad.to_str().unwrap(), back.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("line 2") && err.contains("leaf move"), "{err}");
    let (ok, _, err) = reversi(&["book", "info", text.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("not a zstd-compressed book"), "{err}");
}

#[test]
fn a_small_book_builds_from_games_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.gam");
    // Three Logistello-style lines: two games share f5d6c3.
    std::fs::write(
        &games,
        "+f5-d6+c3-d3+c4: +00 0\n+f5-d6+c3-f3+f4: +00 0\n+f5-f6+e6-f4+e3: +00 0\n",
    )
    .unwrap();
    let out_file = dir.path().join("small.rvb");
    let args = [
        "book",
        "build",
        "--out",
        out_file.to_str().unwrap(),
        "--wthor",
        "none",
        "--logistello",
        games.to_str().unwrap(),
        "--max-ply",
        "3",
        "--min-games",
        "2",
        "--level",
        "3",
        "--rounds",
        "1",
        "--error",
        "64",
    ];
    let (ok, out, err) = reversi(&args);
    assert!(ok, "{err}");
    assert!(out.contains("3 games: 4 positions"), "{out}");
    let (ok, info, _) = reversi(&["book", "info", out_file.to_str().unwrap()]);
    assert!(ok);
    // Run again without learning: it resumes from the file and, everything being scored,
    // changes nothing (a rerun with rounds would learn further lines).
    let mut args = args.to_vec();
    let rounds = args.iter().position(|a| *a == "--rounds").unwrap();
    args[rounds + 1] = "0";
    let (ok, again, err) = reversi(&args);
    assert!(ok, "{err}");
    assert!(again.contains("resuming"), "{again}");
    let (_, info2, _) = reversi(&["book", "info", out_file.to_str().unwrap()]);
    assert_eq!(info, info2);
}

#[test]
fn eval_gives_every_move_a_value() {
    let (ok, out, err) = reversi(&[
        "eval",
        "-m",
        "f5d6c3d3c4f4f6f3e6e7d7g6f8f7",
        "--depth",
        "4",
        "--book",
        "off",
        "--json",
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let moves = v["moves"].as_array().unwrap();
    let (ok, shown, _) = reversi(&["show", "-m", "f5d6c3d3c4f4f6f3e6e7d7g6f8f7", "--json"]);
    assert!(ok);
    let legal: serde_json::Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(moves.len(), legal["legal_moves"].as_array().unwrap().len());
    assert!(
        moves.iter().all(|m| m["kind"] == "estimate" && m["depth"] == 4),
        "{out}"
    );
    // The stream: one line per depth.
    let (ok, out, _) = reversi(&["eval", "-m", "f5d6", "--depth", "3", "--book", "off", "--stream"]);
    assert!(ok);
    assert_eq!(out.lines().count(), 3, "{out}");
    // From the book: book values.
    let (ok, out, _) = reversi(&["eval", "-m", "f5d6", "--json"]);
    assert!(ok);
    assert!(out.contains("\"kind\": \"book\""), "{out}");
}

#[test]
fn analyze_explains_moves_in_both_languages() {
    // A game of Logistello's (line 5,000 of data/logistello/logbook.gam.gz).
    let game = "d3c3c4e3d2b4f4c2c5e6a3c6b3d1b6b5c7a5a4a2d6e2f3g3f2e1h3f6f5e7c1b1f8e8d8a6f7g4d7g5h6h5h4b8c8g8f1g1g6g7h8h7a8g2a7b7h1h2a1b2";
    let (ok, en, err) = reversi(&["analyze", game, "--level", "4", "--explain"]);
    assert!(ok, "{err}");
    assert!(en.contains("This move loses"), "{en}");
    assert!(en.contains("This is the best move."), "{en}");
    assert!(!en.contains("coach-") && !en.contains('{'), "{en}");
    // Each mistake's first sentence names its loss and the best move of its line.
    for (line, next) in en.lines().zip(en.lines().skip(1)) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        if cols.len() >= 7 && cols[0].parse::<u32>().is_ok() && cols[6].starts_with('-') {
            let loss = cols[6].trim_start_matches('-');
            let discs = if loss == "1" {
                "one disc".to_string()
            } else {
                format!("{loss} discs")
            };
            assert_eq!(
                next.trim(),
                format!("This move loses {discs} against the best move, {}.", cols[3]),
                "{line}"
            );
        }
    }
    let (ok, ru, err) = reversi(&["analyze", game, "--level", "4", "--explain", "--lang", "ru"]);
    assert!(ok, "{err}");
    assert!(ru.contains("Этот ход теряет"), "{ru}");
    assert!(!ru.contains("This move") && !ru.contains("coach-"), "{ru}");
    // The headers, colours and summary are Russian too.
    for english in [
        "player",
        "played",
        "total loss",
        "mistakes",
        "result",
        "black",
        "white",
        "exact",
    ] {
        assert!(!ru.contains(english), "{english} in {ru}");
    }
    assert!(ru.contains("всего потеряно") && ru.contains("Чёрные"), "{ru}");
}
