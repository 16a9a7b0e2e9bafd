//! The SMTP sink `scripts/test` starts for the mail tests (aiosmtpd keeping every letter in a
//! Maildir: `REVERSI_TEST_SMTP`, `REVERSI_TEST_MAILDIR`), read as a person reads their mail.
#![allow(dead_code)] // each suite uses its part

use base64::Engine;
use std::path::PathBuf;
use std::time::Duration;

/// The SMTP sink: where it listens and the Maildir it writes.
pub struct Sink {
    /// `HOST:PORT`.
    pub smtp: String,
    maildir: PathBuf,
}

/// The sink `scripts/test` started, or `None` (with a note) when there is none; under CI a
/// missing sink fails the test.
pub fn sink() -> Option<Sink> {
    match (
        std::env::var("REVERSI_TEST_SMTP"),
        std::env::var("REVERSI_TEST_MAILDIR"),
    ) {
        (Ok(smtp), Ok(dir)) if !smtp.is_empty() && !dir.is_empty() => Some(Sink {
            smtp,
            maildir: dir.into(),
        }),
        _ => {
            let strict = std::env::var("CI").is_ok_and(|v| v == "true")
                || std::env::var("REVERSI_TEST_STRICT").is_ok_and(|v| v == "1");
            assert!(
                !strict,
                "REVERSI_TEST_SMTP and REVERSI_TEST_MAILDIR are not set under CI=true (scripts/test starts the SMTP sink)"
            );
            eprintln!("skipped: no SMTP sink (REVERSI_TEST_SMTP; scripts/test starts one)");
            None
        }
    }
}

/// A letter as received: its raw headers and its decoded text.
pub struct Received {
    /// The header lines.
    pub headers: String,
    /// The decoded text.
    pub text: String,
}

impl Sink {
    /// The letters to `to` the sink holds now, each removed once read.
    pub fn take_letters(&self, to: &str) -> Vec<Received> {
        let mut out = Vec::new();
        for sub in ["new", "cur"] {
            let Ok(dir) = std::fs::read_dir(self.maildir.join(sub)) else {
                continue;
            };
            for f in dir.flatten() {
                let Ok(raw) = std::fs::read_to_string(f.path()) else {
                    continue;
                };
                let raw = raw.replace("\r\n", "\n");
                let Some((headers, body)) = raw.split_once("\n\n") else {
                    continue;
                };
                let addressed = headers
                    .lines()
                    .any(|l| l.to_ascii_lowercase() == format!("to: {}", to.to_ascii_lowercase()));
                if !addressed {
                    continue;
                }
                let b64: String = body.chars().filter(|c| !c.is_whitespace()).collect();
                let text = String::from_utf8(
                    base64::engine::general_purpose::STANDARD
                        .decode(b64)
                        .expect("a base64 body"),
                )
                .expect("UTF-8 text");
                let _ = std::fs::remove_file(f.path());
                out.push(Received {
                    headers: headers.to_string(),
                    text,
                });
            }
        }
        out
    }

    /// Waits (up to 20 s) for one letter to `to`, blocking the thread (for the browser tests,
    /// whose server runs on a runtime of its own).
    pub fn wait_letter(&self, to: &str) -> Received {
        for _ in 0..200 {
            let mut got = self.take_letters(to);
            if let Some(l) = got.pop() {
                assert!(got.is_empty(), "one letter to {to}, not {}", got.len() + 1);
                return l;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("no letter to {to} arrived in 20 s");
    }

    /// Waits (up to 20 s) for one letter to `to`.
    pub async fn letter_to(&self, to: &str) -> Received {
        for _ in 0..200 {
            let mut got = self.take_letters(to);
            if let Some(l) = got.pop() {
                assert!(got.is_empty(), "one letter to {to}, not {}", got.len() + 1);
                return l;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("no letter to {to} arrived in 20 s");
    }
}

/// The secret at the end of the link `prefix…` in `text`.
pub fn secret_after(text: &str, prefix: &str) -> String {
    let at = text
        .find(prefix)
        .unwrap_or_else(|| panic!("no {prefix} in {text}"));
    text[at + prefix.len()..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect()
}
