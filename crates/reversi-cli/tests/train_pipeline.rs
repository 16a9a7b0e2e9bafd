//! `reversi train` end to end on a few games, and `--eval` with good and bad weights files.

mod common;
use common::reversi;

#[test]
fn generate_positions_label_fit_then_play_with_the_weights() {
    let dir = std::env::temp_dir().join(format!("reversi-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let xot = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/xot/sensei_xot_small.txt");

    // Four self-play games at level 1; a rerun with the same file has nothing left to do.
    let generate = || {
        reversi(&[
            "train",
            "generate",
            "--games",
            "4",
            "--level",
            "1",
            "--xot",
            xot,
            "-o",
            &p("games.txt"),
        ])
    };
    let (ok, _, err) = generate();
    assert!(ok, "{err}");
    let games = std::fs::read_to_string(p("games.txt")).unwrap();
    assert_eq!(games.lines().count(), 4);
    assert!(
        games.lines().all(|l| l.len() >= 2 * 50 && l.len() % 2 == 0),
        "{games}"
    );
    let (ok, _, err) = generate();
    assert!(ok && err.contains("already holds 4 games"), "{err}");

    let (ok, out, err) = reversi(&[
        "train",
        "positions",
        "--games",
        &p("games.txt"),
        "--heldout",
        "100",
        "-o",
        &p("pos.bin"),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("transcripts 4"), "{out}");

    let (ok, out, err) = reversi(&["train", "label", &p("pos.bin"), "--empties", "10"]);
    assert!(ok, "{err}");
    // Ten empties a game at most below 11 empties, each solved (fewer if games end early).
    let solved: usize = out.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!((10..=40).contains(&solved), "{out}");

    let fit = |threads: &str| {
        let args = [
            "train",
            "fit",
            &p("pos.bin"),
            "--work",
            &p("fit"),
            "--out",
            &p("out"),
            "--iterations",
            "3",
            "--threads",
            threads,
        ];
        reversi(&args)
    };
    let (ok, out, err) = fit("1");
    assert!(ok, "{err}");
    let weights = std::fs::read_dir(p("out"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let name = weights.file_name().unwrap().to_str().unwrap().to_string();
    assert!(
        name.starts_with("eval-") && name.ends_with(".zst") && name.len() == "eval-".len() + 16 + 4,
        "{name}"
    );
    assert!(out.contains(&name), "{out}");
    // A rerun resumes every stage from the checkpoints and writes the same file.
    let (ok, out, _) = fit("2");
    assert!(
        ok && out.matches("resumed").count() == 30 && out.contains(&name),
        "{out}"
    );

    let w = weights.to_str().unwrap();
    let (ok, out, err) = reversi(&["best", "--moves", "f5d6c3", "--level", "4", "--eval", w]);
    assert!(ok, "{err}");
    assert!(out.to_lowercase().contains("best"), "{out}");

    std::fs::write(p("bad.zst"), b"definitely not weights").unwrap();
    let (ok, _, err) = reversi(&["best", "--moves", "f5", "--eval", &p("bad.zst")]);
    assert!(!ok);
    assert!(err.contains("bad.zst") && err.contains("zstd"), "{err}");
    let (ok, _, err) = reversi(&["best", "--moves", "f5", "--eval", &p("missing.zst")]);
    assert!(!ok && err.contains("cannot read the weights file"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
