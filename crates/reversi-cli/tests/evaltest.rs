//! `reversi evaltest` through the real binary: a small set made from a year of WTHOR (every
//! move solved, the file resumed where it stopped), then measured; the shipped sets read and
//! their scores are exact (a sample checked again by `reversi solve`).

mod common;
use common::reversi;

#[test]
fn make_a_set_resume_it_and_measure_it() {
    let dir = tempfile::tempdir().unwrap();
    let wthor = dir.path().join("wthor");
    std::fs::create_dir(&wthor).unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/wthor/WTH_1990.wtb"),
        wthor.join("WTH_1990.wtb"),
    )
    .unwrap();
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
fn the_shipped_sets_hold_what_their_readme_says() {
    for (file, empties) in [("e20.obf", 20), ("e24.obf", 24)] {
        let path = format!("{}/../../data/evaltest/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let set = reversi_core::format::obf::parse_obf(&text).unwrap();
        assert_eq!(set.len(), 200, "{file}");
        assert!(
            set.iter().all(|e| e.empties() == empties && e.moves.len() >= 2),
            "{file}"
        );
    }
}
