//! `reversi perft`, `reversi show` and error messages, through the real binary.

mod common;
use common::reversi;

/// RULES.md §3: each line starts with the depth and the leaf count.
#[test]
fn perft_lines() {
    let (ok, out, _) = reversi(&["perft", "6"]);
    assert!(ok);
    let counts: Vec<(u32, u64)> = out
        .lines()
        .map(|l| {
            let mut f = l.split_whitespace();
            (
                f.next().unwrap().parse().unwrap(),
                f.next().unwrap().parse().unwrap(),
            )
        })
        .collect();
    assert_eq!(counts, [(1, 4), (2, 12), (3, 56), (4, 244), (5, 1396), (6, 8200)]);
    let (ok, out, _) = reversi(&["perft", "--variant", "nxn:4", "3"]);
    assert!(ok);
    assert!(out.lines().nth(2).unwrap().trim_start().starts_with("3 ") && out.contains(" 44 "));
    let (ok, out, _) = reversi(&["perft", "--moves", "f5d6", "2"]);
    assert!(ok);
    assert!(
        out.lines().next().unwrap().split_whitespace().nth(1) == Some("5"),
        "{out}"
    );
}

#[test]
fn show_json() {
    let (ok, out, _) = reversi(&["show", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["legal_moves"], serde_json::json!(["d3", "c4", "f5", "e6"]));
    assert_eq!(v["board"][3], "---OX---");
    assert_eq!((v["black"].as_u64(), v["white"].as_u64()), (Some(2), Some(2)));
    assert_eq!(v["game_over"], false);
    assert!(v["score"].is_null());
    // RULES.md §5: the nine-move wipe-out scores 64-0.
    let (ok, out, _) = reversi(&["show", "--json", "--moves", "f5d6c5f4e3f6g5e6e7"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["to_move"].is_null());
    assert_eq!(v["game_over"], true);
    assert_eq!(v["score"], 64);
    assert_eq!((v["black"].as_u64(), v["white"].as_u64()), (Some(13), Some(0)));
    assert_eq!(v["result"]["black"], 64);
    // A board string, and a variant with missing squares.
    let board = "---------------------------OX------XO--------------------------- O";
    let (ok, out, _) = reversi(&["show", "--json", "--board", board]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["to_move"], "white");
    let (ok, out, _) = reversi(&["show", "--json", "--variant", "eight-stars"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // RULES.md §4: each corner and its two orthogonal neighbours are cut.
    assert_eq!(v["board"][0], "##------##");
    assert_eq!(v["board"][1], "#--------#");
    assert_eq!(v["board"][2], "----------");
}

#[test]
fn errors_say_what_is_wrong() {
    let (ok, _, err) = reversi(&["show", "--moves", "f5z9"]);
    assert!(!ok);
    assert!(err.contains("z9") && err.contains("column 3"), "{err}");
    let (ok, _, err) = reversi(&["show", "--moves", "f5f5"]);
    assert!(!ok);
    assert!(err.contains("move 2") && err.contains("f5"), "{err}");
    let (ok, _, err) = reversi(&["perft", "--variant", "nxn:5", "2"]);
    assert!(!ok);
    assert!(err.contains("even number from 4 to 16"), "{err}");
    let (ok, _, err) = reversi(&["show", "--board", "XXO"]);
    assert!(!ok);
    assert!(err.contains("64"), "{err}");
}

/// `--supply`: the old game's 30 discs each (one source), for reversi-1880 only.
#[test]
fn the_supply_of_reversi_1880_can_be_the_old_thirty() {
    let (ok, out, err) = reversi(&[
        "show",
        "--variant",
        "reversi-1880",
        "--supply",
        "30",
        "-m",
        "d4",
        "--json",
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["supply"], serde_json::json!([29, 30]), "{out}");
    let (ok, out, _) = reversi(&["show", "--variant", "reversi-1880", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["supply"], serde_json::json!([32, 32]), "{out}");
    let (ok, _, err) = reversi(&["show", "--supply", "30"]);
    assert!(!ok && err.contains("only to the reversi-1880"), "{err}");
}
