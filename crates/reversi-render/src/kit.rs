//! The print-and-play kit: the board at playing size, discs to cut out (two-sided), a rules sheet.

use crate::board::{disc_style, BoardPicture};
use crate::rules_text::{rules_sheet_paragraphs, variant_title};
use crate::svg::{wrap, Anchor, Svg};
use crate::{Lang, Paper};
use reversi_core::{AnyPosition, Color, Rules};
use reversi_i18n::{t, tr};

const MARGIN: f64 = 12.0;
const BOARD_FILL: &str = "#cfe9d6";

/// The pages of the kit for `rules`, as SVG text in real units (mm), in printing order:
///
/// 1. the board, filling the page within the margins, with coordinates and star points (the black
///    hole marked, Eight Stars' cut corners left out);
/// 2. the rules sheet;
/// 3. then for each sheet of discs two pages: the black faces, and the white faces mirrored left to
///    right, so that printed two-sided (flip on the long edge), or the two pages glued back to back,
///    every white face lies behind a black one. There are as many discs as the board has squares,
///    each as wide as a board square, with dashed cut lines.
pub fn print_kit(rules: &Rules, lang: Lang, paper: Paper) -> Vec<String> {
    let cell = board_cell(rules, paper);
    let mut pages = vec![
        board_page(rules, lang, paper, cell),
        rules_page(rules, lang, paper),
    ];
    pages.extend(disc_pages(
        rules.square_count() as usize,
        rules.width as usize,
        lang,
        paper,
        cell,
    ));
    pages
}

fn board_cell(rules: &Rules, paper: Paper) -> f64 {
    let (pw, ph) = paper.size_mm();
    let (w, h) = (rules.width as f64, rules.height as f64);
    let aw = pw - 2.0 * MARGIN;
    let ah = ph - 2.0 * MARGIN - 24.0;
    (aw / (w + 1.3)).min(ah / (h + 1.3))
}

fn footer(svg: &mut Svg, paper: Paper, text: &str) {
    let (pw, ph) = paper.size_mm();
    svg.text(
        pw / 2.0,
        ph - MARGIN + 4.0,
        3.0,
        Anchor::Middle,
        "fill=\"#555555\"",
        text,
        None,
    );
}

fn board_page(rules: &Rules, lang: Lang, paper: Paper, cell: f64) -> String {
    let (pw, ph) = paper.size_mm();
    let mut svg = Svg::new(pw, ph);
    let title = variant_title(rules.variant, lang);
    svg.text(
        pw / 2.0,
        MARGIN + 7.0,
        8.0,
        Anchor::Middle,
        "fill=\"#000000\" font-weight=\"bold\"",
        &title,
        None,
    );
    let board = BoardPicture::empty(rules);
    let (bw, bh) = (rules.width as f64 * cell, rules.height as f64 * cell);
    let x = (pw - bw) / 2.0;
    let top = MARGIN + 14.0;
    let y = top + (ph - MARGIN - 10.0 - top - bh) / 2.0;
    board.draw(&mut svg, x, y, cell, true, BOARD_FILL);
    let note = t!(lang, "kit-board-square", mm = format!("{cell:.0}"));
    footer(&mut svg, paper, &note);
    svg.finish()
}

fn rules_page(rules: &Rules, lang: Lang, paper: Paper) -> String {
    let (pw, ph) = paper.size_mm();
    let mut svg = Svg::new(pw, ph);
    let heading = format!(
        "{} — {}",
        tr(lang, "kit-rules"),
        variant_title(rules.variant, lang)
    );
    svg.text(
        MARGIN,
        MARGIN + 7.0,
        7.0,
        Anchor::Start,
        "fill=\"#000000\" font-weight=\"bold\"",
        &heading,
        None,
    );
    let paragraphs = rules_sheet_paragraphs(rules, lang);
    let diagram_h = 80.0;
    let text_top = MARGIN + 16.0;
    let text_h = ph - MARGIN - 8.0 - diagram_h - text_top;
    let width = pw - 2.0 * MARGIN;
    // Shrink the type until the text fits above the diagram.
    let mut size = 4.6;
    let (lines, lead) = loop {
        let max_chars = (width / (size * 0.6)) as usize;
        let lines: Vec<Vec<String>> = paragraphs.iter().map(|p| wrap(p, max_chars)).collect();
        let lead = size * 1.35;
        let total: f64 = lines.iter().map(|l| l.len() as f64 * lead + size * 0.8).sum();
        if total <= text_h || size < 2.6 {
            break (lines, lead);
        }
        size -= 0.2;
    };
    let mut y = text_top + size;
    for para in &lines {
        for line in para {
            svg.text(MARGIN, y, size, Anchor::Start, "fill=\"#000000\"", line, None);
            y += lead;
        }
        y += size * 0.8;
    }
    // The start position, small.
    let start = AnyPosition::start(rules);
    let board = BoardPicture::from_position(rules, &start);
    let cell = ((diagram_h - 16.0) / rules.height as f64).min(8.0);
    let bw = rules.width as f64 * cell;
    let by = ph - MARGIN - 8.0 - diagram_h + 10.0;
    svg.text(
        pw / 2.0,
        by - 9.0,
        4.0,
        Anchor::Middle,
        "fill=\"#000000\" font-weight=\"bold\"",
        &tr(lang, "kit-start-position"),
        None,
    );
    board.draw(&mut svg, (pw - bw) / 2.0, by, cell, true, BOARD_FILL);
    footer(&mut svg, paper, &variant_title(rules.variant, lang));
    svg.finish()
}

/// Where the discs of one sheet go: `(column, row)` of each, and the grid size.
fn disc_grid(paper: Paper, cell: f64) -> (usize, usize) {
    let (pw, ph) = paper.size_mm();
    let cols = ((pw - 2.0 * MARGIN) / cell).floor().max(1.0) as usize;
    let rows = ((ph - 2.0 * MARGIN - 22.0) / cell).floor().max(1.0) as usize;
    (cols, rows)
}

fn disc_pages(count: usize, board_width: usize, lang: Lang, paper: Paper, cell: f64) -> Vec<String> {
    let (pw, _ph) = paper.size_mm();
    let (cols, rows) = disc_grid(paper, cell);
    // As many columns as the board has, when they fit: the discs then come out as a neat block.
    let cols = cols.min(board_width.max(1));
    let per_sheet = cols * rows;
    let sheets = count.div_ceil(per_sheet);
    let x0 = (pw - cols as f64 * cell) / 2.0;
    let y0 = MARGIN + 20.0;
    let mut pages = Vec::new();
    for sheet in 0..sheets {
        let n = (count - sheet * per_sheet).min(per_sheet);
        for color in Color::ALL {
            let mut svg = Svg::new(pw, paper.size_mm().1);
            let (side, hint) = match color {
                Color::Black => (tr(lang, "kit-discs-black"), tr(lang, "kit-discs-black-note")),
                Color::White => (tr(lang, "kit-discs-white"), tr(lang, "kit-discs-white-note")),
            };
            let title = format!("{side} — {}/{}", sheet + 1, sheets);
            svg.text(
                pw / 2.0,
                MARGIN + 6.0,
                6.0,
                Anchor::Middle,
                "fill=\"#000000\" font-weight=\"bold\"",
                &title,
                None,
            );
            for (k, line) in wrap(&hint, 95).iter().enumerate() {
                svg.text(
                    pw / 2.0,
                    MARGIN + 12.0 + k as f64 * 4.0,
                    3.2,
                    Anchor::Middle,
                    "fill=\"#333333\"",
                    line,
                    None,
                );
            }
            let place = |k: usize| -> (usize, usize) {
                let (c, r) = (k % cols, k / cols);
                match color {
                    Color::Black => (c, r),
                    Color::White => (cols - 1 - c, r),
                }
            };
            // Cut lines: every cell's edges, each edge once.
            let cut = "stroke=\"#777777\" stroke-width=\"0.25\" stroke-dasharray=\"1.5 1\" fill=\"none\"";
            let mut edges = std::collections::BTreeSet::new();
            for k in 0..n {
                let (c, r) = place(k);
                edges.insert((c, r, c + 1, r));
                edges.insert((c, r + 1, c + 1, r + 1));
                edges.insert((c, r, c, r + 1));
                edges.insert((c + 1, r, c + 1, r + 1));
            }
            for (c1, r1, c2, r2) in edges {
                let p = |c: usize, r: usize| (x0 + c as f64 * cell, y0 + r as f64 * cell);
                let ((xa, ya), (xb, yb)) = (p(c1, r1), p(c2, r2));
                svg.line(xa, ya, xb, yb, cut);
            }
            let style = disc_style(color, cell);
            let tag = match color {
                Color::Black => "b",
                Color::White => "w",
            };
            for k in 0..n {
                let (c, r) = place(k);
                let (cx, cy) = (x0 + (c as f64 + 0.5) * cell, y0 + (r as f64 + 0.5) * cell);
                let id = format!("disc-{tag}-{}", sheet * per_sheet + k + 1);
                svg.circle(cx, cy, cell * 0.42, &style, Some(&id));
            }
            footer(&mut svg, paper, &t!(lang, "kit-discs-on-page", n = n as u64));
            pages.push(svg.finish());
        }
    }
    pages
}
