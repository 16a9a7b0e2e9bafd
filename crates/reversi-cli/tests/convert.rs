//! `reversi convert` run as a program: WTHOR to GGF, transcripts to GGF and back.

mod common;

use common::scratch;
use reversi_core::format::ggf::{parse_ggf, Ending, GgfResult};
use reversi_core::{Color, Variant};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn reversi(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reversi"))
        .arg("convert")
        .args(args)
        .output()
        .expect("the reversi binary runs")
}

fn ok(args: &[&Path]) -> String {
    let out = reversi(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "reversi convert {args:?} failed: {stderr}");
    stderr
}

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(path)
}

#[test]
fn wthor_to_ggf() {
    let tmp = scratch("wthor");
    let dir = tmp.path();
    let out = dir.join("1977.ggf");
    let summary = ok(&[&data("wthor/WTH_1977.wtb"), &out]);
    assert!(summary.contains("12 games"), "{summary}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 12);
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("(;GM[Othello]PC[World Championship]DT[1977]PB[Inoue Hiroshi]PW[Heiberg Thomas]TY[8]RE[+4.00]C[Opening: Perpendicular Opening]BO[8 "),
        "{first}"
    );
    // The passes the database leaves out are written.
    assert!(first.contains("B[h7]W[PA]B[a7]"), "{first}");
    let games = parse_ggf(&text).unwrap();
    assert_eq!(games.len(), 12);
    for g in &games {
        let game = g.to_game().unwrap();
        let outcome = game.outcome().expect("the 1977 games are finished");
        let result = g.info.result.unwrap();
        assert_eq!(
            result,
            GgfResult {
                black_margin: outcome.margin(Color::Black) as f64,
                ending: Ending::Normal
            }
        );
        assert_eq!(g.info.date.as_deref(), Some("1977"));
        assert!(!g.info.black.is_empty() && !g.info.white.is_empty());
    }
    assert_eq!(
        games[0].to_game().unwrap().transcript(),
        "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1"
    );

    // Without WTHOR.JOU/WTHOR.TRN beside it, players are named by number.
    let alone = dir.join("WTH_1977.wtb");
    std::fs::copy(data("wthor/WTH_1977.wtb"), &alone).unwrap();
    let out2 = dir.join("alone.ggf");
    ok(&[&alone, &out2]);
    let text = std::fs::read_to_string(&out2).unwrap();
    assert!(
        text.starts_with("(;GM[Othello]DT[1977]PB[player 346]PW[player 843]"),
        "{text}"
    );
}

#[test]
fn transcripts_to_ggf_and_back() {
    let tmp = scratch("transcript");
    let dir = tmp.path();
    let input = dir.join("games.txt");
    // Two 6×6 games, one played to the end; mixed case and spacing.
    let games = [
        "C2D2E5B4A4A5E2C1B1A1B3C5D1B2B5F2F1E1A2A3F3B6A6E4E3F4C6D6F5E6F6D5",
        "c2 d2 e5",
    ];
    std::fs::write(&input, format!("# two games\n{}\n\n{}\n", games[0], games[1])).unwrap();
    let ggf = dir.join("games.ggf");
    let summary = ok(&[&input, &ggf, Path::new("--variant"), Path::new("nxn:6")]);
    assert!(summary.contains("2 games"), "{summary}");
    let text = std::fs::read_to_string(&ggf).unwrap();
    let parsed = parse_ggf(&text).unwrap();
    assert_eq!(parsed.len(), 2);
    assert!(parsed.iter().all(|g| g.variant == Variant::Nxn(6)));
    assert!(text.lines().all(|l| l.contains("TY[6]VA[nxn:6]")), "{text}");
    let finished = parsed[0].to_game().unwrap();
    assert!(finished.is_over());
    let outcome = finished.outcome().unwrap();
    assert_eq!((outcome.black, outcome.white), (17, 19));
    assert_eq!(
        parsed[0].info.result.unwrap().black_margin,
        outcome.margin(Color::Black) as f64
    );
    assert_eq!(parsed[1].info.result, None);

    let back = dir.join("back.txt");
    ok(&[&ggf, &back]);
    let text = std::fs::read_to_string(&back).unwrap();
    let expected: Vec<String> = games.iter().map(|g| g.replace(' ', "").to_lowercase()).collect();
    assert_eq!(text.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn errors_name_the_file() {
    let tmp = scratch("errors");
    let dir = tmp.path();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "f5d6\nf5f5\n").unwrap();
    let out = reversi(&[&bad, &dir.join("x.ggf")]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.txt") && err.contains("line 2") && err.contains("f5 is occupied"),
        "{err}"
    );
    let out = reversi(&[&data("wthor/WTHOR.JOU"), &dir.join("x.ggf")]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("WTHOR.JOU is a WTHOR names file"));
    let missing = dir.join("missing.ggf");
    let out = reversi(&[&missing, &dir.join("x.txt")]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.ggf"));
    assert!(!dir.join("x.txt").exists());
}
