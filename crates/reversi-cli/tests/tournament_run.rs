//! `reversi tournament` with built-in levels and two external players that are this binary
//! itself (`reversi gtp` and `reversi nboard` as separate processes); the crosstable is checked
//! against the saved GGF games.

mod common;

use common::{binary, scratch};
use reversi_core::format::ggf::parse_ggf;
use reversi_core::Color;
use std::collections::HashMap;
use std::process::Command;

#[test]
fn crosstable_matches_the_saved_games() {
    let tmp = scratch("tournament");
    let dir = tmp.path();
    let players = dir.join("players.toml");
    std::fs::write(
        &players,
        format!(
            "[[player]]\nname = \"gtp copy\"\ncommand = [\"{bin}\", \"gtp\", \"--level\", \"2\", \"--hash\", \"8\"]\ntimeout = 20\n\n\
             [[player]]\nname = \"nboard copy\"\ncommand = [\"{bin}\", \"nboard\", \"--hash\", \"8\"]\nprotocol = \"nboard\"\ninit = [\"set depth 1\"]\n",
            bin = binary()
        ),
    )
    .unwrap();
    let out_dir = dir.join("run");
    let run = || {
        Command::new(binary())
            .args(["tournament", "--players"])
            .arg(&players)
            .args([
                "--level",
                "1",
                "--level",
                "3",
                "--openings",
                "2",
                "--concurrency",
                "2",
                "--seed",
                "11",
            ])
            .arg("--out")
            .arg(&out_dir)
            .output()
            .unwrap()
    };
    let out = run();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout.contains("gtp copy") && stdout.contains("Elo diff"),
        "{stdout}"
    );

    // Recount from the GGF records: 4 players, 6 pairs, 2 openings x 2 colours.
    let mut points: HashMap<String, f64> = HashMap::new();
    let mut discs: HashMap<String, u32> = HashMap::new();
    let mut games: HashMap<String, usize> = HashMap::new();
    let mut files = 0;
    for entry in std::fs::read_dir(out_dir.join("games")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let g = parse_ggf(&text).unwrap().remove(0);
        files += 1;
        let game = g.to_game().unwrap();
        assert!(game.is_over(), "no forfeits among these players: {text}");
        let o = game.outcome().unwrap();
        assert_eq!(g.info.result.unwrap().black_margin, o.margin(Color::Black) as f64);
        let (b, w) = (g.info.black.clone(), g.info.white.clone());
        let bp = match o.winner {
            Some(Color::Black) => 1.0,
            Some(Color::White) => 0.0,
            None => 0.5,
        };
        *points.entry(b.clone()).or_default() += bp;
        *points.entry(w.clone()).or_default() += 1.0 - bp;
        *discs.entry(b.clone()).or_default() += o.black;
        *discs.entry(w.clone()).or_default() += o.white;
        *games.entry(b).or_default() += 1;
        *games.entry(w).or_default() += 1;
    }
    assert_eq!(files, 24);
    let table: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("crosstable.json")).unwrap()).unwrap();
    assert_eq!(table["games"], 24);
    let standings = table["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 4);
    let mut total = 0.0;
    for s in standings {
        let name = s["name"].as_str().unwrap();
        assert_eq!(s["points"].as_f64().unwrap(), points[name], "{name}");
        assert_eq!(s["discs"].as_u64().unwrap(), discs[name] as u64, "{name}");
        assert_eq!(s["games"].as_u64().unwrap(), 12);
        assert_eq!(games[name], 12);
        total += points[name];
    }
    assert_eq!(total, 24.0);
    // Standings are sorted by points.
    let pts: Vec<f64> = standings.iter().map(|s| s["points"].as_f64().unwrap()).collect();
    assert!(pts.windows(2).all(|w| w[0] >= w[1]), "{pts:?}");
    for name in ["crosstable.md", "crosstable.html", "crosstable.txt", "state.json"] {
        assert!(out_dir.join(name).exists(), "{name}");
    }
    let md = std::fs::read_to_string(out_dir.join("crosstable.md")).unwrap();
    assert!(
        md.contains("| # | player | 1 | 2 | 3 | 4 | points | games | discs | BQ |"),
        "{md}"
    );

    // Running again resumes: nothing is replayed and the table is the same.
    let again = run();
    assert!(again.status.success());
    let table2: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("crosstable.json")).unwrap()).unwrap();
    assert_eq!(table2, table);
}

#[test]
fn a_crashing_engine_loses_and_the_tournament_goes_on() {
    let tmp = scratch("tournament-crash");
    let dir = tmp.path();
    let players = dir.join("players.toml");
    // `reversi perft` is not an engine: it fails on the first command it is sent.
    std::fs::write(
        &players,
        format!(
            "[[player]]\nname = \"crasher\"\ncommand = [\"{}\", \"perft\", \"--bogus\"]\ntimeout = 5\n",
            binary()
        ),
    )
    .unwrap();
    let out_dir = dir.join("run");
    let out = Command::new(binary())
        .args(["tournament", "--format", "gauntlet", "--players"])
        .arg(&players)
        .args([
            "--level",
            "1",
            "--openings",
            "1",
            "--seed",
            "2",
            "--markdown",
            "--out",
        ])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("## Forfeits"), "{stdout}");
    assert!(
        stdout.contains("crasher (black) crashed") || stdout.contains("crasher (white) crashed"),
        "{stdout}"
    );
    let table: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("crosstable.json")).unwrap()).unwrap();
    assert_eq!(table["standings"][0]["name"], "level 1");
    assert_eq!(table["standings"][0]["points"], 2.0);
    assert_eq!(table["standings"][1]["forfeits"], 2);
    for entry in std::fs::read_dir(out_dir.join("games")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(text.contains("C[forfeit: crasher"), "{text}");
        assert!(text.contains(":r]"), "a forfeit is recorded as such: {text}");
    }
}

#[test]
fn a_clocked_match_with_a_pondering_gtp_engine() {
    let tmp = scratch("tournament-clock");
    let dir = tmp.path();
    let players = dir.join("players.toml");
    // The full engine over GTP, thinking on its opponent's time, against level 1.
    std::fs::write(
        &players,
        format!(
            "[[player]]\nname = \"clocked\"\ncommand = [\"{}\", \"gtp\", \"--level\", \"30\", \"--hash\", \"8\", \"--book\", \"off\", \"--ponder\"]\n",
            binary()
        ),
    )
    .unwrap();
    let out_dir = dir.join("run");
    let tournament = |extra: &[&str]| {
        Command::new(binary())
            .args(["tournament", "--format", "gauntlet", "--players"])
            .arg(&players)
            .args(["--level", "1", "--openings", "1", "--seed", "4", "--out"])
            .arg(&out_dir)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = tournament(&["--clock", "4+0.1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("state.json")).unwrap()).unwrap();
    assert_eq!(state["tournament"]["clock"]["initial"], 4.0);
    let games = state["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    for g in games {
        assert!(g["forfeit"].is_null(), "{g}");
        // The engine was told its time and kept some; a move's time is in the record.
        let seat = if g["black"] == 0 { 0 } else { 1 };
        let left = g["clock_left"][seat].as_f64().unwrap();
        assert!(left > 0.0 && left < 4.0 + 0.1 * 30.0, "{left}");
        let text = std::fs::read_to_string(out_dir.join(g["file"].as_str().unwrap())).unwrap();
        assert!(text.contains("TI[00:04/00:00.1]"), "{text}");
        let ggf = parse_ggf(&text).unwrap().remove(0);
        assert!(ggf.to_game().unwrap().is_over());
        assert!(ggf.notes.iter().any(|n| n.time.is_some()), "{text}");
    }
    // A clock that is no clock, or a clock with a time per move, is refused at once.
    let out = tournament(&["--clock", "0+1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("initial time"), "{err}");
    let out = tournament(&["--clock", "5+1", "--time", "1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--time"));
}
