//! Test helpers: input that arrives over time, as from a pipe.

use std::io;
use std::sync::mpsc;

/// Bytes that arrive over time, as from a pipe: each message of the channel is a write.
pub struct ChannelReader {
    rx: mpsc::Receiver<Vec<u8>>,
    buf: Vec<u8>,
}

impl ChannelReader {
    /// A reader and the sender that feeds it (dropping the sender ends the input).
    pub fn new() -> (mpsc::Sender<Vec<u8>>, ChannelReader) {
        let (tx, rx) = mpsc::channel();
        (tx, ChannelReader { rx, buf: Vec::new() })
    }
}

impl io::Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.buf.is_empty() {
            match self.rx.recv() {
                Ok(b) => self.buf = b,
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len());
        out[..n].copy_from_slice(&self.buf[..n]);
        self.buf.drain(..n);
        Ok(n)
    }
}

/// A reader fed by a thread of its own, as a GUI writes to a pipe: each write in turn, then a
/// pause of so many milliseconds. Join the thread after the session has run.
pub fn paced(writes: &[(&'static [u8], u64)]) -> (ChannelReader, std::thread::JoinHandle<()>) {
    let (tx, reader) = ChannelReader::new();
    let writes = writes.to_vec();
    let feeder = std::thread::spawn(move || {
        for (bytes, pause_ms) in writes {
            tx.send(bytes.to_vec()).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(pause_ms));
        }
    });
    (reader, feeder)
}

/// Lines for property tests: protocol words and numbers in random order, with now and then
/// bytes that are not UTF-8, control characters and huge numbers. Never `quit`.
pub fn arbitrary_line(words: &'static [&'static str]) -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    let token = prop_oneof![
        4 => proptest::sample::select(words).prop_map(|w| w.as_bytes().to_vec()),
        2 => any::<i64>().prop_map(|n| n.to_string().into_bytes()),
        1 => proptest::sample::select(&["1e30", "inf", "nan", "-0", "1e19", "18446744073709551616", "0"][..])
            .prop_map(|w| w.as_bytes().to_vec()),
        1 => proptest::collection::vec(any::<u8>(), 0..6)
            .prop_map(|b| b.into_iter().filter(|&c| c != b'\n').collect()),
    ];
    proptest::collection::vec(token, 0..6).prop_map(|tokens| {
        let line = tokens.join(&b' ');
        // `quit` ends a session on purpose; the property is about everything else.
        if String::from_utf8_lossy(&line).contains("quit") {
            Vec::new()
        } else {
            line
        }
    })
}
