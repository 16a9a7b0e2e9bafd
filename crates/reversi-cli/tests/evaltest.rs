//! `reversi evaltest` through the real binary: a small set made from a year of WTHOR (every
//! move solved, the file resumed where it stopped), then measured; the shipped sets read and
//! their scores are exact (a sample checked again by `reversi solve`).

mod common;
use common::reversi;

/// A WTHOR folder in `dir` with the games of 1990 alone.
fn one_year_of_wthor(dir: &std::path::Path) -> std::path::PathBuf {
    let wthor = dir.join("wthor");
    std::fs::create_dir(&wthor).unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/wthor/WTH_1990.wtb"),
        wthor.join("WTH_1990.wtb"),
    )
    .unwrap();
    wthor
}

#[test]
fn make_a_set_resume_it_and_measure_it() {
    let dir = tempfile::tempdir().unwrap();
    let wthor = one_year_of_wthor(dir.path());
    let out = dir.path().join("e14.obf");
    let args = |count: &str| {
        vec![
            "evaltest".to_string(),
            "make".into(),
            "--wthor".into(),
            wthor.display().to_string(),
            "--empties".into(),
            "14".into(),
            "--count".into(),
            count.into(),
            "-o".into(),
            out.display().to_string(),
        ]
    };
    let run = |a: Vec<String>| reversi(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let (ok, _, err) = run(args("4"));
    assert!(ok, "{err}");
    let first = std::fs::read_to_string(&out).unwrap();
    assert_eq!(first.lines().count(), 4);
    let (ok, _, err) = run(args("6"));
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with(&first), "a rerun appends");
    assert_eq!(text.lines().count(), 6);
    for line in text.lines() {
        let entry = reversi_core::format::obf::parse_obf_line(line).unwrap();
        assert_eq!(entry.empties(), 14);
        let legal = match entry.position {
            reversi_core::AnyPosition::Small(p) => p.legal_moves().count_ones() as usize,
            _ => unreachable!(),
        };
        assert_eq!(entry.moves.len(), legal, "every move scored: {line}");
        assert!(
            entry.moves.windows(2).all(|w| w[0].1 >= w[1].1),
            "best first: {line}"
        );
    }
    // The scores are the solver's.
    let (ok, solved, err) = reversi(&["solve", out.to_str().unwrap()]);
    assert!(ok, "{err}{solved}");

    let (ok, json, err) = reversi(&["evaltest", "run", out.to_str().unwrap(), "--depth", "4", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let s = &v["sets"][0];
    assert_eq!(
        (s["empties"].as_str(), s["positions"].as_u64()),
        (Some("14"), Some(6)),
        "{v}"
    );
    let best = s["best_pct"].as_f64().unwrap();
    assert!(
        (0.0..=100.0).contains(&best) && s["top2_pct"].as_f64().unwrap() >= best,
        "{v}"
    );
    let (ok, table, err) = reversi(&[
        "evaltest",
        "run",
        out.to_str().unwrap(),
        "--depth",
        "2",
        "--eval",
        "hand",
    ]);
    assert!(ok && table.contains("score error"), "{err}{table}");
    let (ok, _, err) = reversi(&["evaltest", "run", "no/such.obf"]);
    assert!(!ok && !err.is_empty());
}

#[test]
fn a_set_scored_by_search_says_so_and_is_measured_against_it() {
    let dir = tempfile::tempdir().unwrap();
    let wthor = one_year_of_wthor(dir.path());
    let out = dir.path().join("e30.obf");
    let (w, o) = (wthor.display().to_string(), out.display().to_string());
    let make = |extra: &[&str]| {
        let mut a = vec![
            "evaltest",
            "make",
            "--wthor",
            &w,
            "--empties",
            "30",
            "--count",
            "2",
            "-o",
            &o,
        ];
        a.extend_from_slice(extra);
        reversi(&a)
    };
    let (ok, said, err) = make(&["--depth", "4"]);
    assert!(ok, "{err}");
    assert!(said.contains("searched 4 plies"), "{said}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.starts_with("% reference: a search of 4 plies a move, selectivity 1 (99 %)"),
        "{text}"
    );
    let set = reversi_core::format::obf::parse_obf(&text).unwrap();
    assert_eq!(set.len(), 2);
    assert!(set.iter().all(|e| e.empties() == 30 && e.moves.len() >= 2));
    // The same file is not topped up with exact scores, nor with another depth's.
    for extra in [&[][..], &["--depth", "6"][..]] {
        let (ok, _, err) = make(extra);
        assert!(!ok && err.contains("a 4-ply search"), "{extra:?}: {err}");
    }
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        text,
        "the file is untouched"
    );
    // A search as deep as the reference agrees with it on every position.
    let (ok, json, err) = reversi(&[
        "evaltest",
        "run",
        &o,
        "--depth",
        "4",
        "--selectivity",
        "1",
        "--json",
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["reference"].as_str(), Some("a 4-ply search (99 %)"), "{v}");
    assert_eq!(v["sets"][0]["best_pct"].as_f64(), Some(100.0), "{v}");
    assert_eq!(v["sets"][0]["score_error"].as_f64(), Some(0.0), "{v}");
    assert_eq!(v["sets"][0]["score_bias"].as_f64(), Some(0.0), "{v}");
    // Sets scored differently are not pooled into one report.
    let exact = format!("{}/../../data/evaltest/e20.obf", env!("CARGO_MANIFEST_DIR"));
    let (ok, _, err) = reversi(&["evaltest", "run", &exact, &o, "--depth", "2"]);
    assert!(!ok && err.contains("measure them apart"), "{err}");
}

#[test]
fn solve_shows_a_searched_sets_scores_without_checking_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.obf");
    // FFO #1 (+18 exact) scored by a 2-ply search: far from exact.
    let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+40; H1:+12;";
    let header = "% reference: a search of 2 plies a move, selectivity 1 (99 %); not exact";
    std::fs::write(&out, format!("{header}\n{line}\n")).unwrap();
    let (ok, table, err) = reversi(&["solve", out.to_str().unwrap()]);
    assert!(ok, "{err}{table}");
    assert!(
        err.contains("a 2-ply search (99 %)") && err.contains("not checked"),
        "{err}"
    );
    assert!(
        table.contains("+18") && table.contains("+40") && table.contains("0 mismatches"),
        "{table}"
    );
    // The same line in an exact set is a mismatch.
    std::fs::write(&out, format!("{line}\n")).unwrap();
    let (ok, table, _) = reversi(&["solve", out.to_str().unwrap()]);
    assert!(!ok && table.contains("1 mismatches"), "{table}");
}

#[test]
fn the_shipped_sets_hold_what_their_readme_says() {
    use reversi_train::evaltest::Reference;
    let searched = Reference::Search {
        depth: 22,
        selectivity: 1,
    };
    for (file, empties, count, reference) in [
        ("e20.obf", 20, 200, Reference::Exact),
        ("e24.obf", 24, 200, Reference::Exact),
        ("e26.obf", 26, 100, Reference::Exact),
        ("e30.obf", 30, 100, searched),
    ] {
        let path = format!("{}/../../data/evaltest/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(Reference::of(&text), reference, "{file}");
        let set = reversi_core::format::obf::parse_obf(&text).unwrap();
        assert_eq!(set.len(), count, "{file}");
        assert!(
            set.iter().all(|e| e.empties() == empties && e.moves.len() >= 2),
            "{file}"
        );
    }
}
