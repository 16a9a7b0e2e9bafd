//! A board as plain data, and how it is drawn.

use crate::svg::{Anchor, Svg};
use reversi_core::{AnyPosition, Bits, Color, Rules, Square, Variant};

/// What a square of the board's rectangle is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareKind {
    /// A square of the board.
    Playable,
    /// Not part of the board at all (Eight Stars' cut corners): not drawn.
    Missing,
    /// The black hole: drawn, marked, never played.
    Hole,
}

/// Everything needed to draw a board: geometry, discs, labels on discs and star points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardPicture {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Each square, row by row from `a1`.
    pub squares: Vec<SquareKind>,
    /// The disc on each square, row by row from `a1`.
    pub discs: Vec<Option<Color>>,
    /// Text written on each disc (move numbers), row by row from `a1`.
    pub labels: Vec<Option<String>>,
    /// Star points, as grid intersections `(column line, row line)` counted from the top-left corner.
    pub stars: Vec<(u8, u8)>,
}

impl BoardPicture {
    /// The empty board of `rules`.
    pub fn empty(rules: &Rules) -> BoardPicture {
        let (w, h) = (rules.width, rules.height);
        let n = w as usize * h as usize;
        let hole = match rules.variant {
            Variant::BlackHole(Some(sq)) => Some(sq),
            _ => None,
        };
        let squares = (0..n)
            .map(|i| {
                let sq = Square::new((i % w as usize) as u8, (i / w as usize) as u8).expect("on board");
                if rules.playable.has(sq) {
                    SquareKind::Playable
                } else if Some(sq) == hole {
                    SquareKind::Hole
                } else {
                    SquareKind::Missing
                }
            })
            .collect();
        BoardPicture {
            width: w,
            height: h,
            squares,
            discs: vec![None; n],
            labels: vec![None; n],
            stars: star_points(w, h),
        }
    }

    /// The board of `rules` with the discs of `pos`.
    pub fn from_position(rules: &Rules, pos: &AnyPosition) -> BoardPicture {
        let mut b = BoardPicture::empty(rules);
        for i in 0..b.discs.len() {
            b.discs[i] = pos.disc(b.square(i));
        }
        b
    }

    /// The square at index `i` (row by row from `a1`).
    pub fn square(&self, i: usize) -> Square {
        Square::new((i % self.width as usize) as u8, (i / self.width as usize) as u8).expect("on board")
    }

    /// The index of `sq` in the row-by-row vectors.
    pub fn index(&self, sq: Square) -> usize {
        sq.row() as usize * self.width as usize + sq.col() as usize
    }

    /// Draws the board with its top-left grid corner at (`x`, `y`) mm, squares `cell` mm wide.
    /// With `coords`, column letters and row numbers are written around it (`cell * 0.6` mm away).
    pub(crate) fn draw(&self, svg: &mut Svg, x: f64, y: f64, cell: f64, coords: bool, fill: &str) {
        let (w, h) = (self.width as usize, self.height as usize);
        let line = (cell * 0.025).clamp(0.2, 0.5);
        let frame = format!("fill=\"{fill}\" stroke=\"#000000\" stroke-width=\"{line:.3}\"");
        for i in 0..w * h {
            let (c, r) = ((i % w) as f64, (i / w) as f64);
            let (sx, sy) = (x + c * cell, y + r * cell);
            match self.squares[i] {
                SquareKind::Missing => {}
                SquareKind::Playable => svg.rect(sx, sy, cell, cell, &frame),
                SquareKind::Hole => {
                    svg.rect(
                        sx,
                        sy,
                        cell,
                        cell,
                        &format!("fill=\"#222222\" stroke=\"#000000\" stroke-width=\"{line:.3}\""),
                    );
                    svg.circle(
                        sx + cell / 2.0,
                        sy + cell / 2.0,
                        cell * 0.3,
                        &format!(
                            "fill=\"none\" stroke=\"#ffffff\" stroke-width=\"{:.3}\"",
                            cell * 0.04
                        ),
                        Some(&format!("hole-{}", self.square(i))),
                    );
                }
            }
        }
        for &(c, r) in &self.stars {
            svg.circle(
                x + c as f64 * cell,
                y + r as f64 * cell,
                cell * 0.07,
                "fill=\"#000000\"",
                None,
            );
        }
        if coords {
            let size = (cell * 0.32).clamp(2.5, 6.0);
            let gap = cell * 0.15 + size * 0.5;
            for c in 0..w {
                let cx = x + (c as f64 + 0.5) * cell;
                let letter = ((b'a' + c as u8) as char).to_string();
                svg.text(
                    cx,
                    y - gap,
                    size,
                    Anchor::Middle,
                    "fill=\"#000000\"",
                    &letter,
                    None,
                );
                svg.text(
                    cx,
                    y + h as f64 * cell + gap + size * 0.75,
                    size,
                    Anchor::Middle,
                    "fill=\"#000000\"",
                    &letter,
                    None,
                );
            }
            for r in 0..h {
                let cy = y + (r as f64 + 0.5) * cell + size * 0.36;
                let num = (r + 1).to_string();
                svg.text(x - gap, cy, size, Anchor::End, "fill=\"#000000\"", &num, None);
                svg.text(
                    x + w as f64 * cell + gap,
                    cy,
                    size,
                    Anchor::Start,
                    "fill=\"#000000\"",
                    &num,
                    None,
                );
            }
        }
        for i in 0..w * h {
            let Some(color) = self.discs[i] else { continue };
            let (cx, cy) = (
                x + ((i % w) as f64 + 0.5) * cell,
                y + ((i / w) as f64 + 0.5) * cell,
            );
            let sq = self.square(i);
            svg.circle(
                cx,
                cy,
                cell * 0.42,
                &disc_style(color, cell),
                Some(&format!("disc-{sq}")),
            );
            if let Some(label) = &self.labels[i] {
                let size = cell * if label.chars().count() > 2 { 0.32 } else { 0.42 };
                let ink = match color {
                    Color::Black => "#ffffff",
                    Color::White => "#000000",
                };
                svg.text(
                    cx,
                    cy + size * 0.36,
                    size,
                    Anchor::Middle,
                    &format!("fill=\"{ink}\" font-weight=\"bold\""),
                    label,
                    Some(&format!("num-{sq}")),
                );
            }
        }
    }
}

/// How a disc of `color` is painted on squares `cell` mm wide.
pub(crate) fn disc_style(color: Color, cell: f64) -> String {
    let stroke = (cell * 0.02).clamp(0.2, 0.45);
    match color {
        Color::Black => format!("fill=\"#111111\" stroke=\"#000000\" stroke-width=\"{stroke:.3}\""),
        Color::White => format!("fill=\"#ffffff\" stroke=\"#000000\" stroke-width=\"{stroke:.3}\""),
    }
}

/// The star points of a `w` × `h` board: the corners of the central 4×4 square (on 8×8 the
/// points between b2/c3, f2/g3, b6/c7 and f6/g7), on boards of 8 or more squares a side.
pub fn star_points(w: u8, h: u8) -> Vec<(u8, u8)> {
    if w < 8 || h < 8 {
        return Vec::new();
    }
    let (c0, c1, r0, r1) = (w / 2 - 2, w / 2 + 2, h / 2 - 2, h / 2 + 2);
    vec![(c0, r0), (c1, r0), (c0, r1), (c1, r1)]
}
