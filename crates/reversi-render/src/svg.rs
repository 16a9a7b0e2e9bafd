//! A small SVG writer: pages in millimetres, shapes and text as plain strings.

use std::fmt::Write as _;

/// The font family every picture uses (embedded, see `output::fontdb`).
pub(crate) const FONT: &str = "DejaVu Sans";

/// Escapes text for XML content and attribute values.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// Horizontal alignment of text.
#[derive(Clone, Copy)]
pub(crate) enum Anchor {
    Start,
    Middle,
    End,
}

/// An SVG document being written; coordinates are millimetres.
pub(crate) struct Svg {
    out: String,
}

impl Svg {
    /// A `w` × `h` mm page with a white background.
    pub(crate) fn new(w: f64, h: f64) -> Svg {
        let mut out = String::new();
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.2}mm\" height=\"{h:.2}mm\" \
             viewBox=\"0 0 {w:.2} {h:.2}\" font-family=\"{FONT}\">\n\
             <rect x=\"0\" y=\"0\" width=\"{w:.2}\" height=\"{h:.2}\" fill=\"#ffffff\"/>\n"
        );
        Svg { out }
    }

    /// A rectangle with the given presentation attributes (e.g. `fill="#fff" stroke="#000"`).
    pub(crate) fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, attrs: &str) {
        let _ = writeln!(
            self.out,
            "<rect x=\"{x:.3}\" y=\"{y:.3}\" width=\"{w:.3}\" height=\"{h:.3}\" {attrs}/>"
        );
    }

    /// A circle; `id` names it (tests count discs by id).
    pub(crate) fn circle(&mut self, cx: f64, cy: f64, r: f64, attrs: &str, id: Option<&str>) {
        let id = id.map(|i| format!(" id=\"{}\"", escape(i))).unwrap_or_default();
        let _ = writeln!(
            self.out,
            "<circle{id} cx=\"{cx:.3}\" cy=\"{cy:.3}\" r=\"{r:.3}\" {attrs}/>"
        );
    }

    /// A straight line.
    pub(crate) fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, attrs: &str) {
        let _ = writeln!(
            self.out,
            "<line x1=\"{x1:.3}\" y1=\"{y1:.3}\" x2=\"{x2:.3}\" y2=\"{y2:.3}\" {attrs}/>"
        );
    }

    /// A path with data `d`.
    pub(crate) fn path(&mut self, d: &str, attrs: &str) {
        let _ = writeln!(self.out, "<path d=\"{d}\" {attrs}/>");
    }

    /// One line of text with its baseline at `y`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn text(
        &mut self,
        x: f64,
        y: f64,
        size: f64,
        anchor: Anchor,
        attrs: &str,
        content: &str,
        id: Option<&str>,
    ) {
        let anchor = match anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let id = id.map(|i| format!(" id=\"{}\"", escape(i))).unwrap_or_default();
        let _ = writeln!(
            self.out,
            "<text{id} x=\"{x:.3}\" y=\"{y:.3}\" font-size=\"{size:.3}\" text-anchor=\"{anchor}\" {attrs}>{}</text>",
            escape(content)
        );
    }

    /// The finished document.
    pub(crate) fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// Splits `text` into lines of at most `max_chars` characters, at spaces where possible.
pub(crate) fn wrap(text: &str, max_chars: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > max_chars {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
