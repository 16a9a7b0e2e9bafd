//! The command line under input chosen to break it (issue 27): every failure is a clear error
//! or a quiet exit, never a panic, a hang or a crash.

mod common;

use std::io::Read;
use std::process::{Command, Stdio};

const FFO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/ffo/fforum-1-19.obf");
const WTHOR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/wthor/WTH_2001.wtb");

/// Runs `reversi ARGS` and fails the test if it panicked or died from a signal.
fn refused(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    let code = out
        .status
        .code()
        .unwrap_or_else(|| panic!("{args:?} died from a signal: {err}"));
    assert!(code == 1 || code == 2, "{args:?}: exit {code}: {err}");
    err
}

#[test]
fn times_must_be_finite_positive_and_at_most_a_week() {
    for t in ["inf", "1e30", "nan", "0", "-0", "604801", "1e19"] {
        for cmd in [
            &["best", "--moves", "f5"][..],
            &["analyze", "f5d6"],
            &["gtp"],
            &["nboard"],
        ] {
            let flag = format!("--time={t}");
            let mut args = cmd.to_vec();
            args.push(&flag);
            let err = refused(&args);
            assert!(err.contains("the time must"), "{args:?}: {err}");
        }
    }
    let err = refused(&["tournament", "-l", "1", "-l", "2", "--time", "inf"]);
    assert!(err.contains("the time must"), "{err}");
}

#[test]
fn table_sizes_and_counts_are_checked() {
    for hash in [
        "0",
        "65537",
        "17592186044415",
        "9223372036854775807",
        "18446744073709551615",
        "99999999",
    ] {
        for cmd in [&["solve", FFO][..], &["best"], &["gtp"], &["nboard"], &["serve"]] {
            let mut args = cmd.to_vec();
            args.extend(["--hash", hash]);
            let err = refused(&args);
            assert!(err.contains("table size"), "{args:?}: {err}");
        }
    }
    let err = refused(&["best", "--threads", "100000"]);
    assert!(err.contains("thread count"), "{err}");
    let err = refused(&["solve", FFO, "--first", "18446744073709551615"]);
    assert!(err.contains("--first"), "{err}");
}

#[test]
fn endless_input_is_refused() {
    for cmd in [
        &["convert", "/dev/zero", "x.ggf"][..],
        &["solve", "/dev/zero"],
        &["analyze", "/dev/zero"],
    ] {
        let err = refused(cmd);
        assert!(err.contains("larger than 256 MiB"), "{cmd:?}: {err}");
    }
}

#[test]
fn a_long_bad_token_is_quoted_short() {
    let long = "z".repeat(100_000);
    let err = refused(&["best", "--moves", &long]);
    assert!(err.len() < 500, "{} bytes of error", err.len());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("long.ggf");
    std::fs::write(&file, format!("(;GM[Othello]B[{}];)", "q".repeat(1_000_000))).unwrap();
    let err = refused(&["convert", file.to_str().unwrap(), "out.txt"]);
    assert!(err.len() < 500, "{} bytes of error", err.len());
}

/// `reversi … | head -1`: the reader goes away after the first line.
fn first_line_then_close(args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 1];
    out.read_exact(&mut first).expect("some output");
    drop(out);
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(status.success(), "{args:?}: {status}: {err}");
}

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    first_line_then_close(&["convert", WTHOR, "-"]);
    first_line_then_close(&["best", "--json", "--moves", "f5", "--level", "3"]);
    first_line_then_close(&["perft", "9"]);
}

#[test]
fn a_bad_byte_does_not_end_an_engine_session() {
    for (cmd, expect) in [("gtp", "= reversi"), ("nboard", "pong 1")] {
        let input: &[u8] = if cmd == "gtp" {
            b"\xff\nname\n"
        } else {
            b"\xff\nping 1\n"
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
            .args([cmd, "--level", "1"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), input).unwrap();
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{cmd}: {text}");
        assert!(
            text.contains("not UTF-8") && text.contains(expect),
            "{cmd}: {text}"
        );
    }
}
