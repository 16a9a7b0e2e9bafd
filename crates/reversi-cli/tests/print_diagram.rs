//! `reversi print`, `reversi diagram` and `reversi analyze --chart`, through the real binary.

use std::path::{Path, PathBuf};
mod common;
use common::reversi;

fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("print_diagram")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A full game (WTHOR 1990, the first game of the file: a 32–32 draw).
const GAME: &str = "f5f6e6f4g5e7f7h6e3d6h5g6g4d3d8h3h4g3f3f8c2e2d2c4c3g8f1d1d7b4c1e1f2b3c6c5c7b6b7g2e8a8h8h7g7b8b2c8g1h1h2b1a1a2a3a4a5b5a7a6";

#[test]
fn print_writes_one_pdf_or_one_file_per_page() {
    let d = dir("print");
    let pdf = d.join("kit.pdf");
    let (ok, out, err) = reversi(&[
        "print",
        "--variant",
        "grand",
        "--lang",
        "ru",
        "-o",
        pdf.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 1);
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF-"));
    let svg = d.join("kit.svg");
    let (ok, out, err) = reversi(&[
        "print",
        "--paper",
        "letter",
        "--format",
        "svg",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 4, "{out}");
    for name in ["kit.svg", "kit-2.svg", "kit-3.svg", "kit-4.svg"] {
        let text = std::fs::read_to_string(d.join(name)).unwrap();
        assert!(text.contains("width=\"215.90mm\" height=\"279.40mm\""), "{name}");
    }
    let png = d.join("board.png");
    let (ok, _, err) = reversi(&["print", "--variant", "black-hole:c3", "-o", png.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let (ok, _, err) = reversi(&["print", "--lang", "de", "-o", png.to_str().unwrap()]);
    assert!(!ok && err.contains("en"), "{err}");
}

#[test]
fn diagram_numbered_and_at_a_ply() {
    let d = dir("diagram");
    let svg = d.join("record.svg");
    let (ok, _, err) = reversi(&[
        "diagram",
        "--moves",
        GAME,
        "--numbered",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(text.matches("<text id=\"num-").count(), 60);
    assert!(text.contains("id=\"num-f5\"") && text.contains(">1</text>"));
    assert!(text.contains("32–32"));

    let ggf = d.join("game.ggf");
    std::fs::write(
        &ggf,
        format!(
            "(;GM[Othello]PC[Test]PB[Мельников]PW[Svirsky]TY[8]RE[+0.00]BO[8 {}O*------*O{} *]{};)",
            "-".repeat(27),
            "-".repeat(27),
            GAME.as_bytes()
                .chunks(2)
                .enumerate()
                .map(|(i, m)| format!(
                    "{}[{}]",
                    if i % 2 == 0 { "B" } else { "W" },
                    std::str::from_utf8(m).unwrap()
                ))
                .collect::<String>()
        ),
    )
    .unwrap();
    let png = d.join("ply20.pdf");
    let (ok, _, err) = reversi(&[
        "diagram",
        ggf.to_str().unwrap(),
        "--ply",
        "20",
        "--lang",
        "ru",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(std::fs::read(&png).unwrap().starts_with(b"%PDF-"));
    let svg2 = d.join("names.svg");
    let (ok, _, err) = reversi(&[
        "diagram",
        ggf.to_str().unwrap(),
        "--numbered",
        "-o",
        svg2.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&svg2).unwrap();
    assert!(text.contains("Мельников") && text.contains("Svirsky"), "{text}");

    let (ok, _, err) = reversi(&[
        "diagram",
        "--moves",
        "f5d6",
        "--ply",
        "9",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("past the end"), "{err}");
}

#[test]
fn analyze_draws_a_chart() {
    let d = dir("chart");
    let chart = d.join("chart.svg");
    let (ok, out, err) = reversi(&[
        "analyze",
        GAME,
        "--level",
        "2",
        "--chart",
        chart.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("chart:"), "{out}");
    let text = std::fs::read_to_string(&chart).unwrap();
    assert!(text.contains("Black's view"));
    assert!(text.contains("id=\"mark-"), "the game has mistakes at level 2");
}
