//! Quoting user input in error messages: a bad token is shown, but never at full length, so a
//! 10 MB token does not become a 10 MB message.

use std::borrow::Cow;

/// The longest quotation [`clip`] is usually asked for, in characters.
pub const QUOTE_CHARS: usize = 40;

/// `text` cut to at most `max` characters, with `…` in place of what was cut.
///
/// ```
/// assert_eq!(reversi_core::clip("d3", 40), "d3");
/// assert_eq!(reversi_core::clip("abcdefgh", 4), "abc…");
/// ```
pub fn clip(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some(_) => {
            let keep = max.saturating_sub(1);
            let end = text.char_indices().nth(keep).map_or(text.len(), |(i, _)| i);
            Cow::Owned(format!("{}…", &text[..end]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clips_by_characters() {
        assert_eq!(clip("", 3), "");
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("abcd", 3), "ab…");
        assert_eq!(clip("фишки", 3), "фи…");
        assert_eq!(
            clip(&"x".repeat(10_000_000), QUOTE_CHARS).chars().count(),
            QUOTE_CHARS
        );
        assert_eq!(clip("abc", 0), "…");
    }
}
