//! Request bodies: JSON objects only, sent as `application/json`, with errors that say what is
//! wrong in the client's terms (field names and JSON types), never the server's Rust types.

use crate::error::{Error, Result};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::{header, HeaderMap, StatusCode};
use serde::de::DeserializeOwned;

/// Reads a JSON body: `None` when there is none (an empty or blank body), else the one JSON
/// object it must be. A body that is there must be declared `application/json` (`json`): a form
/// or `text/plain` body, which a foreign page can send without asking, is refused.
pub fn read_object<T: DeserializeOwned>(
    json: bool,
    body: std::result::Result<Bytes, BytesRejection>,
) -> Result<Option<T>> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            Error::PayloadTooLarge
        } else if crate::deadline::timed_out(&e) {
            Error::BodyTimeout
        } else {
            Error::BadRequest("the request body could not be read".into())
        }
    })?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    if !json {
        return Err(Error::UnsupportedMediaType);
    }
    parse_object(&bytes).map(Some)
}

/// Whether the request declares a JSON body (`application/json`, any parameters).
pub fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
}

/// One JSON object as `T` (websocket messages too).
pub fn parse_object<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') => {}
        _ => return Err(Error::BadRequest("the body must be a JSON object".into())),
    }
    serde_json::from_slice(bytes).map_err(|e| Error::BadRequest(describe(&e)))
}

/// A JSON error in the client's terms: where, and what was wrong, with Rust's type names
/// (`struct CreateBody`, `u32`) replaced by JSON's.
pub fn describe(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let at = format!("line {}, column {}", e.line(), e.column());
    match e.classify() {
        Category::Syntax | Category::Eof | Category::Io => format!("malformed JSON at {at}"),
        Category::Data => {
            let text = e.to_string();
            // serde_json appends " at line L column C"; it is given once, in our words.
            let message = text.rsplit_once(" at line ").map_or(text.as_str(), |(m, _)| m);
            format!("{} (at {at})", json_words(message))
        }
    }
}

/// Where a quotation of serde's that opened with `quote` just after `before` ends in `inner`.
///
/// Strings in double quotes are written with Rust's escapes (`\"`, `\\`), so the first quote
/// without a backslash ends them. An unknown field or variant is quoted in backticks as the
/// client wrote it, backticks and all; what follows it (`, expected `a`, `b`` or `, there are
/// no fields`) is ours, so its last occurrence ends the name.
fn quote_end(before: &str, quote: char, inner: &str) -> usize {
    if quote == '"' {
        let mut escaped = false;
        for (i, c) in inner.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => return i,
                _ => {}
            }
        }
        return inner.len();
    }
    if before.ends_with("unknown field ") || before.ends_with("unknown variant ") {
        let tail = ["`, expected ", "`, there are no "]
            .iter()
            .filter_map(|t| inner.rfind(t))
            .max();
        if let Some(end) = tail {
            return end;
        }
    }
    inner.find(quote).unwrap_or(inner.len())
}

/// `expected struct X` → `expected an object`, `u32` → `a whole number`, and so on. What the
/// message quotes from the request (between backticks or double quotes) is kept as it is, cut
/// to a few dozen characters.
fn json_words(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(512));
    let mut rest = message;
    while !rest.is_empty() {
        let first = rest.chars().next().expect("not empty");
        if first == '`' || first == '"' {
            let before = &message[..message.len() - rest.len()];
            let inner = &rest[1..];
            let end = quote_end(before, first, inner);
            // A backtick inside a backtick quotation would make it ambiguous to read.
            let quoted = inner[..end].replace('`', "'");
            out.push(first);
            out.push_str(&reversi_core::clip(&quoted, reversi_core::quote::QUOTE_CHARS));
            out.push(first);
            rest = inner.get(end + 1..).unwrap_or("");
            continue;
        }
        let word_end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let (word, tail) = if word_end == 0 {
            out.push(first);
            rest = &rest[first.len_utf8()..];
            continue;
        } else {
            rest.split_at(word_end)
        };
        match word {
            "struct" | "map" => {
                // `struct Name` / `internally tagged enum Name`: the name goes too.
                let tail = tail.trim_start();
                let n = tail
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(tail.len());
                out.push_str("an object");
                rest = &tail[n..];
                continue;
            }
            "internally" if tail.starts_with(" tagged enum ") => {
                let tail = &tail[" tagged enum ".len()..];
                let n = tail
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(tail.len());
                out.push_str("an object with a `type`");
                rest = &tail[n..];
                continue;
            }
            "u8" | "u16" | "u32" | "u64" | "usize" => out.push_str("a whole number, 0 or more"),
            "i8" | "i16" | "i32" | "i64" | "isize" => out.push_str("a whole number"),
            "f32" | "f64" => out.push_str("a number"),
            "sequence" => out.push_str("an array"),
            "unit" => out.push_str("null"),
            "option" => out.push_str("a value or null"),
            "boolean" => out.push_str("true or false"),
            w => out.push_str(w),
        }
        rest = tail;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Default, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct CreateBody {
        level: Option<u32>,
        name: Option<String>,
    }

    fn err(text: &str) -> String {
        match parse_object::<CreateBody>(text.as_bytes()) {
            Err(Error::BadRequest(m)) => m,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn errors_speak_json_not_rust() {
        assert_eq!(err("[]"), "the body must be a JSON object");
        assert_eq!(err("  7"), "the body must be a JSON object");
        assert_eq!(err("{\"level\": 1,"), "malformed JSON at line 1, column 12");
        let e = err("{\"level\": \"x\"}");
        assert!(e.contains("expected a whole number, 0 or more"), "{e}");
        assert!(!e.contains("u32"), "{e}");
        let e = err("{\"lvl\": 1}");
        assert!(
            e.starts_with("unknown field `lvl`, expected `level` or `name`"),
            "{e}"
        );
        let e = err("{\"level\": [1]}");
        assert!(e.contains("invalid type: an array"), "{e}");
        for e in [err("{\"level\": -1}"), err("{\"name\": 3}")] {
            assert!(!e.contains("CreateBody") && !e.contains("struct"), "{e}");
        }
        assert_eq!(json_words("expected struct CreateBody"), "expected an object");
        // Quoted request text is neither rewritten nor copied at length.
        assert_eq!(
            json_words("unknown field `struct_u32`, expected `level`"),
            "unknown field `struct_u32`, expected `level`"
        );
        // A client's name with backticks in it stays one quotation (found by fuzzing).
        assert_eq!(
            json_words("unknown field `a`u32`, expected x`, expected `level`"),
            "unknown field `a'u32', expected x`, expected `level`"
        );
        let e = err("{\"typ`rie~u32mde\": 1}");
        assert!(e.starts_with("unknown field `typ'rie~u32mde`, expected"), "{e}");
        // Double-quoted request text keeps its escapes and ends at the unescaped quote.
        assert_eq!(
            json_words(r#"invalid value: string "a\"u32", expected u32"#),
            r#"invalid value: string "a\"u32", expected a whole number, 0 or more"#
        );
        let long = format!("unknown field `{}`", "x".repeat(10_000));
        assert!(json_words(&long).len() < 80);
        assert_eq!(
            json_words("invalid type: map, expected internally tagged enum ClientMessage"),
            "invalid type: an object, expected an object with a `type`"
        );
    }

    #[test]
    fn a_body_must_be_declared_json() {
        let mut headers = HeaderMap::new();
        let body = || Ok(Bytes::from_static(b"{\"level\":1}"));
        let read = |h: &HeaderMap| read_object::<CreateBody>(is_json(h), body());
        assert!(matches!(read(&headers), Err(Error::UnsupportedMediaType)));
        headers.insert(header::CONTENT_TYPE, "text/plain".parse().unwrap());
        assert!(matches!(read(&headers), Err(Error::UnsupportedMediaType)));
        headers.insert(
            header::CONTENT_TYPE,
            "application/json; charset=utf-8".parse().unwrap(),
        );
        assert_eq!(read(&headers).unwrap().unwrap().level, Some(1));
        // No body at all is no body, whatever the type says.
        assert!(read_object::<CreateBody>(false, Ok(Bytes::from_static(b" \n")))
            .unwrap()
            .is_none());
    }
}
