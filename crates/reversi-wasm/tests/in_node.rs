//! The committed browser engine (`crates/reversi-server/static/engine/reversi.wasm`) gives the
//! native engine's numbers: perft from every preset's start (the vectors of
//! `reversi-core/tests/data`), FFO #1–19 solved exactly (the file's scores, and the same node
//! counts as this crate's API natively), and the bench fingerprint. Node runs it (V8, the engine
//! of Chromium); `scripts/build-wasm --check` keeps the file the source's.

use reversi_wasm::Session;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The first puzzle of `data/puzzles` (solution b2, best score +26).
const PUZZLE_1: &str = "O-OOOOOOO-OOOOXXOXOOOOXXOOOOOOXXOOOXOXXX-OXXXXXX----XXXX-----X-O O";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Node, or `None` where it is missing and the tests may be skipped (not under `CI=true` or
/// `scripts/test`).
fn node() -> Option<String> {
    let node = std::env::var("REVERSI_TEST_NODE").unwrap_or_else(|_| "node".into());
    let found = Command::new(&node)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let strict = std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("REVERSI_TEST_STRICT").is_ok_and(|v| v == "1");
    match (found, strict) {
        (true, _) => Some(node),
        (false, true) => panic!("Node.js (`{node}`) is missing: the browser engine cannot be tested"),
        (false, false) => {
            eprintln!(
                "SKIPPED: Node.js (`{node}`) is missing; the browser engine was not tested (CI fails here)"
            );
            None
        }
    }
}

/// The wasm engine's answers to `requests`, in order.
fn in_node(node: &str, requests: &[Value]) -> Vec<Value> {
    let wasm = root().join("crates/reversi-server/static/engine/reversi.wasm");
    let runner = root().join("crates/reversi-wasm/tests/node_runner.mjs");
    let mut child = Command::new(node)
        .arg(&runner)
        .arg(&wasm)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("node starts");
    let mut input = child.stdin.take().unwrap();
    let text: String = requests.iter().map(|r| r.to_string() + "\n").collect();
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()));
    let out = child.wait_with_output().expect("node runs");
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "node failed: {:?}", out.status);
    let answers: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON answer"))
        .collect();
    assert_eq!(answers.len(), requests.len(), "one answer per request");
    answers
}

fn native(requests: &[Value]) -> Vec<Value> {
    let mut s = Session::new();
    requests
        .iter()
        .map(|r| serde_json::from_str(&s.handle(&r.to_string())).unwrap())
        .collect()
}

/// The perft vectors of `reversi-core`, up to `max_leaves` leaves each.
fn perft_vectors(max_leaves: u64) -> Vec<(String, u32, u64)> {
    let data = root().join("crates/reversi-core/tests/data");
    let mut v = Vec::new();
    for line in std::fs::read_to_string(data.join("perft_othello.txt"))
        .unwrap()
        .lines()
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        if let [d, n] = f[..] {
            if !line.starts_with('#') {
                v.push(("othello".to_string(), d.parse().unwrap(), n.parse().unwrap()));
            }
        }
    }
    for line in std::fs::read_to_string(data.join("perft_variants.txt"))
        .unwrap()
        .lines()
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        if let [variant, d, n] = f[..] {
            if !line.starts_with('#') {
                v.push((variant.to_string(), d.parse().unwrap(), n.parse().unwrap()));
            }
        }
    }
    v.retain(|&(_, _, n)| n <= max_leaves);
    v
}

#[test]
fn perft_ffo_and_bench_as_native() {
    let Some(node) = node() else { return };
    let perft = perft_vectors(30_000_000);
    assert!(perft.len() > 40 && perft.iter().any(|(v, d, _)| v == "othello" && *d == 10));
    let mut requests: Vec<Value> = perft
        .iter()
        .map(|(v, d, _)| serde_json::json!({"type": "perft", "variant": v, "depth": d}))
        .collect();
    let ffo = std::fs::read_to_string(root().join("data/ffo/fforum-1-19.obf")).unwrap();
    let ffo: Vec<&str> = ffo.lines().filter(|l| l.contains(';')).collect();
    assert_eq!(ffo.len(), 19);
    requests.extend(ffo.iter().map(|l| serde_json::json!({"type": "solve", "obf": l})));
    requests.push(serde_json::json!({"type": "bench", "depth": 8}));

    let wasm = in_node(&node, &requests);
    for ((variant, depth, leaves), a) in perft.iter().zip(&wasm) {
        assert_eq!(
            a["nodes"], *leaves,
            "perft {variant} {depth} in the browser's engine: {a}"
        );
    }
    // The solves and the bench against this crate's own answers natively: the same scores,
    // moves' values and node counts (the search is deterministic with one thread).
    let solved = &requests[perft.len()..];
    let here = native(solved);
    for (i, ((w, n), line)) in wasm[perft.len()..].iter().zip(&here).zip(&ffo).enumerate() {
        if n["type"] == "bench" {
            assert_eq!(w["nodes"], n["nodes"], "bench fingerprint: wasm {w}, native {n}");
            continue;
        }
        let entry = reversi_core::format::obf::parse_obf_line(line).unwrap();
        assert_eq!(w["exact"], true, "FFO #{}: {w}", i + 1);
        assert_eq!(w["score"], entry.best_score().unwrap(), "FFO #{}: {w}", i + 1);
        assert_eq!(
            (&w["score"], &w["nodes"]),
            (&n["score"], &n["nodes"]),
            "FFO #{}: wasm {w}, native {n}",
            i + 1
        );
    }
    assert_eq!(wasm.last().unwrap()["type"], "bench");
    assert_eq!(wasm.last().unwrap()["nodes"], here.last().unwrap()["nodes"]);
}

#[test]
fn the_analysis_board_speaks_as_the_server() {
    let Some(node) = node() else { return };
    let requests = [
        serde_json::json!({"type": "position", "id": 3, "variant": "othello", "moves": "f5d6c3d3c4f4", "max_depth": 4}),
        serde_json::json!({"type": "step", "ms": 5000}),
        serde_json::json!({"type": "step", "ms": 5000}),
        serde_json::json!({"type": "step", "ms": 5000}),
        serde_json::json!({"type": "step", "ms": 5000}),
        serde_json::json!({"type": "step", "ms": 5000}),
        serde_json::json!({"type": "position", "id": 4, "variant": "othello", "moves": "f5f5"}),
        serde_json::json!({"type": "perft", "variant": "othello", "depth": 99}),
        serde_json::json!({"type": "nonsense"}),
        serde_json::json!({"type": "view", "variant": "othello", "moves": "f5d6c3d3c4f4f6f3e6e7"}),
        serde_json::json!({"type": "best", "variant": "othello", "moves": "f5d6c3d3c4f4f6f3e6e7", "level": 3, "seed": 7}),
        serde_json::json!({"type": "best", "variant": "nxn:6", "moves": "c4", "level": 12}),
        serde_json::json!({"type": "exact", "variant": "othello", "board": PUZZLE_1}),
        serde_json::json!({"type": "exact", "variant": "othello"}),
    ];
    let wasm = in_node(&node, &requests);
    let here = native(&requests);
    assert_eq!(wasm[0]["type"], "position");
    assert_eq!(wasm[0]["legal_moves"], here[0]["legal_moves"]);
    // Values deepen to the limit and say so; book moves come with the book's values.
    let values: Vec<&Value> = wasm[1..6].iter().filter(|v| v["type"] == "values").collect();
    let last = values.last().expect("values");
    assert_eq!(last["done"], true, "{last}");
    assert_eq!(last["id"], 3);
    assert_eq!(
        last["moves"].as_array().unwrap().len(),
        wasm[0]["legal_moves"].as_array().unwrap().len()
    );
    assert!(
        wasm[1..6].iter().any(|v| v["type"] == "idle"),
        "after the end, steps are idle"
    );
    // Errors are typed, with the part at fault first, as the server's.
    assert_eq!(wasm[6]["type"], "error");
    assert!(
        wasm[6]["error"].as_str().unwrap().starts_with("moves:"),
        "{}",
        wasm[6]
    );
    assert!(
        wasm[7]["error"].as_str().unwrap().starts_with("depth:"),
        "{}",
        wasm[7]
    );
    assert!(
        wasm[8]["error"].as_str().unwrap().starts_with("request:"),
        "{}",
        wasm[8]
    );
}
