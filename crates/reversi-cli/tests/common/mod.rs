//! Driving the real `reversi` binary through pipes.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Runs `reversi ARGS` to the end: whether it succeeded, its standard output and its standard
/// error.
pub fn reversi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// A running `reversi` with its output collected as it comes.
pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Vec<u8>>,
    /// Everything read so far.
    pub seen: String,
    /// How far `expect` has consumed `seen`.
    pub pos: usize,
}

impl Session {
    /// Starts `reversi ARGS`.
    pub fn start(args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
            .args(args)
            .env("LANG", "C")
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the reversi binary starts");
        let mut out = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            loop {
                match out.read(&mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Session {
            stdin: child.stdin.take(),
            child,
            rx,
            seen: String::new(),
            pos: 0,
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Closes the input.
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// Waits until the unread output contains `pat` and returns the text up to and including it.
    pub fn expect(&mut self, pat: &str, within: Duration) -> String {
        let deadline = Instant::now() + within;
        loop {
            if let Some(i) = self.seen[self.pos..].find(pat) {
                let end = self.pos + i + pat.len();
                let text = self.seen[self.pos..end].to_string();
                self.pos = end;
                return text;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(b) => self.seen.push_str(&String::from_utf8_lossy(&b)),
                Err(_) => panic!(
                    "no `{pat}` within {within:?}; unread output:\n{}",
                    &self.seen[self.pos..]
                ),
            }
        }
    }

    /// Waits until the unread output contains one of `pats`; returns which one and the text up
    /// to and including it.
    pub fn expect_any(&mut self, pats: &[&str], within: Duration) -> (usize, String) {
        let deadline = Instant::now() + within;
        loop {
            let unread = &self.seen[self.pos..];
            let hit = pats
                .iter()
                .enumerate()
                .filter_map(|(k, p)| unread.find(p).map(|i| (i + p.len(), k)))
                .min();
            if let Some((end, k)) = hit {
                let text = unread[..end].to_string();
                self.pos += end;
                return (k, text);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(b) => self.seen.push_str(&String::from_utf8_lossy(&b)),
                Err(_) => panic!("none of {pats:?} within {within:?}; unread output:\n{unread}"),
            }
        }
    }

    /// Waits for the process to end and returns the rest of its output.
    pub fn finish(mut self, within: Duration) -> String {
        self.close();
        let deadline = Instant::now() + within;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "reversi exited with {status}");
                while let Ok(b) = self.rx.recv_timeout(Duration::from_millis(200)) {
                    self.seen.push_str(&String::from_utf8_lossy(&b));
                }
                return self.seen[self.pos..].to_string();
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("reversi did not end; output:\n{}", &self.seen[self.pos..]);
            }
            while let Ok(b) = self.rx.try_recv() {
                self.seen.push_str(&String::from_utf8_lossy(&b));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A fresh scratch folder, removed with everything in it when the guard is dropped (a failing
/// test too leaves nothing behind).
pub fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("reversi-cli-{name}-"))
        .tempdir()
        .expect("a scratch folder in the temporary directory")
}

/// The path of the binary under test.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_reversi")
}

/// A generous limit for one reply.
pub const SOON: Duration = Duration::from_secs(20);
