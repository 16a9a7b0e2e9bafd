//! Reading a protocol's input line by line without trusting it: a line that is not UTF-8 or is
//! longer than a limit becomes an error for that line alone, and the session goes on with the
//! next one. Memory stays bounded by the limit, whatever the input.

use std::io::{self, BufRead};

/// The longest line a session reads (1 MiB). The longest legitimate line is NBoard's
/// `set game`, a whole GGF record: a 60-move game with every tag is a few KiB.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Why an input line was not read as a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The bytes are not UTF-8 text (the first bad byte's offset in the line).
    NotUtf8 {
        /// Offset of the first byte that is not UTF-8.
        at: usize,
        /// The line with each bad sequence replaced by U+FFFD (so that a protocol can still
        /// find, say, the command id at its start).
        lossy: String,
    },
    /// The line is longer than the limit (its bytes were skipped up to the next line break).
    TooLong {
        /// The limit, in bytes.
        limit: usize,
    },
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::NotUtf8 { at, .. } => write!(f, "the line is not UTF-8 text (byte {})", at + 1),
            LineError::TooLong { limit } => write!(f, "the line is longer than {limit} bytes"),
        }
    }
}

impl std::error::Error for LineError {}

/// One line read: its text (without the line break, and without a `\r` before it), or why it
/// could not be read.
pub type Line = Result<String, LineError>;

/// Reads the next line of `input`, at most `max` bytes of it kept; `None` at the end of the
/// input. A last line without a line break counts as a line.
pub fn read_line<R: BufRead + ?Sized>(input: &mut R, max: usize) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if !any {
                return Ok(None);
            }
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long {
            if bytes.len() + chunk.len() > max {
                too_long = true;
                bytes = Vec::new();
            } else {
                bytes.extend_from_slice(chunk);
            }
        }
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if too_long {
        return Ok(Some(Err(LineError::TooLong { limit: max })));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(String::from_utf8(bytes).map_err(|e| LineError::NotUtf8 {
        at: e.utf8_error().valid_up_to(),
        lossy: String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })))
}

/// Every line of `input`, as [`read_line`] reads them, until its end or a read error.
pub fn lines<R: BufRead>(mut input: R, max: usize) -> impl Iterator<Item = io::Result<Line>> {
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed {
            return None;
        }
        match read_line(&mut input, max) {
            Ok(Some(line)) => Some(Ok(line)),
            Ok(None) => None,
            Err(e) => {
                failed = true;
                Some(Err(e))
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<Line> {
        lines(input, max).map(|l| l.unwrap()).collect()
    }

    #[test]
    fn splits_lines_and_reports_bad_ones() {
        assert_eq!(
            all(b"name\r\n\xff\nquit", 100),
            vec![
                Ok("name".to_string()),
                Err(LineError::NotUtf8 {
                    at: 0,
                    lossy: "\u{fffd}".into()
                }),
                Ok("quit".to_string())
            ]
        );
        assert_eq!(all(b"", 100), vec![]);
        assert_eq!(all(b"\n\n", 100), vec![Ok(String::new()), Ok(String::new())]);
    }

    #[test]
    fn long_lines_are_skipped_whole() {
        let mut input = vec![b'x'; 10_000];
        input.extend_from_slice(b"\nok\n");
        // A reader with a small buffer sees the long line in many pieces.
        let reader = std::io::BufReader::with_capacity(16, &input[..]);
        let got: Vec<Line> = lines(reader, 100).map(|l| l.unwrap()).collect();
        assert_eq!(
            got,
            vec![Err(LineError::TooLong { limit: 100 }), Ok("ok".to_string())]
        );
        assert_eq!(all(b"abc\n", 3), vec![Ok("abc".to_string())]);
        assert_eq!(all(b"abcd\n", 3), vec![Err(LineError::TooLong { limit: 3 })]);
    }
}
