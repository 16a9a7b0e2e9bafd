//! Pictures for Reversi/Othello: print-and-play kits, game diagrams (kifu) and evaluation charts.
//!
//! Everything is drawn first as SVG text in real units (millimetres), from plain data: rules,
//! positions, move lists and score series. Nothing here searches. [`encode`] turns the SVG pages
//! into PNG (through resvg) or one multi-page PDF (through svg2pdf). Text is set in DejaVu Sans,
//! which ships inside this crate (`fonts/`, Bitstream Vera licence), so Russian renders the same on
//! every machine and no output depends on the system's fonts.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod board;
mod chart;
mod diagram;
mod kit;
mod output;
mod rules_text;
mod svg;

pub use board::{star_points, BoardPicture, SquareKind};
pub use chart::{score_chart_svg, ChartMark};
pub use diagram::{diagram_svg, DiagramInfo};
pub use kit::print_kit;
pub use output::{encode, fontdb, page_file_names, parse_svg, svg_to_pdf, svg_to_png, Error, Format};
pub use rules_text::{rules_sheet_paragraphs, variant_title};

use std::fmt;
use std::str::FromStr;

/// The language of the words on a picture (the messages come from `reversi-i18n`).
pub use reversi_i18n::Lang;

/// A paper size for print-and-play kits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Paper {
    /// ISO A4, 210 × 297 mm (595 × 842 pt).
    #[default]
    A4,
    /// US Letter, 8.5 × 11 in (612 × 792 pt).
    Letter,
}

impl Paper {
    /// Both paper sizes.
    pub const ALL: [Paper; 2] = [Paper::A4, Paper::Letter];

    /// Width and height in millimetres (portrait).
    pub fn size_mm(self) -> (f64, f64) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }

    /// Width and height in PostScript points (1/72 in).
    pub fn size_pt(self) -> (f64, f64) {
        let (w, h) = self.size_mm();
        (w * 72.0 / 25.4, h * 72.0 / 25.4)
    }
}

impl FromStr for Paper {
    type Err = String;
    fn from_str(s: &str) -> Result<Paper, String> {
        match s.to_ascii_lowercase().as_str() {
            "a4" => Ok(Paper::A4),
            "letter" => Ok(Paper::Letter),
            _ => Err(format!("paper `{s}` must be `a4` or `letter`")),
        }
    }
}

impl fmt::Display for Paper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        })
    }
}
