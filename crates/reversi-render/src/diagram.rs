//! Game diagrams: a position at any ply, or the numbered game record (kifu).

use crate::board::BoardPicture;
use crate::rules_text::{color_key, variant_title};
use crate::svg::{wrap, Anchor, Svg};
use crate::Lang;
use reversi_core::{Color, Game, Move};
use reversi_i18n::{t, tr};

/// What the caption under a diagram says besides what the game itself tells.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiagramInfo {
    /// Black's name.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// The recorded result, used when the game did not reach its end (e.g. a resignation).
    pub result: Option<String>,
    /// The caption's language.
    pub lang: Lang,
}

fn side(c: Color, lang: Lang) -> String {
    t!(lang, "diagram-side", color = color_key(c))
}

/// A diagram of `game` after `ply` moves (passes count; `None`: every recorded move), with
/// coordinates and a caption. With `numbered`, every disc placed by one of those moves carries
/// the number of that move (passes are not numbered but listed in the caption), in white on
/// black discs and black on white ones: the traditional game record.
///
/// Labels have the SVG ids `num-<square>` and discs `disc-<square>`.
pub fn diagram_svg(game: &Game, ply: Option<usize>, numbered: bool, info: &DiagramInfo) -> String {
    let lang = info.lang;
    let moves = game.recorded_moves();
    let ply = ply.unwrap_or(moves.len()).min(moves.len());
    let pos = game.position_at(ply).expect("ply within the record");
    let rules = game.rules();
    let mut board = BoardPicture::from_position(rules, pos);
    let mut passes = Vec::new();
    let mut number = 0;
    for (i, mv) in moves[..ply].iter().enumerate() {
        let mover = game.position_at(i).expect("recorded").side_to_move();
        match mv {
            Move::Play(sq) => {
                number += 1;
                if numbered {
                    let idx = board.index(*sq);
                    board.labels[idx] = Some(number.to_string());
                }
            }
            Move::Pass => passes.push((number, mover)),
        }
    }

    let (w, h) = (rules.width as f64, rules.height as f64);
    let cell = (96.0 / w.max(h)).min(12.0);
    let band = cell * 0.6 + 2.0;
    let margin = 6.0;
    let page_w = w * cell + 2.0 * (band + margin);
    let size = 3.6;
    let max_chars = ((page_w - 2.0 * margin) / (size * 0.56)) as usize;

    let mut caption: Vec<(String, bool)> = Vec::new();
    let variant = variant_title(rules.variant, lang);
    let title = if numbered {
        t!(lang, "diagram-title-record", variant = variant)
    } else if ply == 0 {
        t!(lang, "diagram-title-start", variant = variant)
    } else {
        t!(lang, "diagram-title-after", variant = variant, n = ply as u64)
    };
    caption.push((title, true));
    if info.black.is_some() || info.white.is_some() {
        let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".into());
        caption.push((
            format!(
                "● {}: {}  ·  ○ {}: {}",
                side(Color::Black, lang),
                name(&info.black),
                side(Color::White, lang),
                name(&info.white)
            ),
            false,
        ));
    }
    if pos.is_game_over() {
        let o = pos.score();
        caption.push((
            t!(lang, "diagram-result", black = o.black, white = o.white),
            false,
        ));
    } else if let Some(r) = info.result.as_ref().filter(|_| ply == moves.len()) {
        caption.push((t!(lang, "diagram-result-text", result = r.as_str()), false));
    }
    if !pos.is_game_over() && !numbered {
        caption.push((
            t!(lang, "diagram-to-move", color = color_key(pos.side_to_move())),
            false,
        ));
    }
    if numbered {
        let text = if passes.is_empty() {
            tr(lang, "diagram-no-passes")
        } else {
            let list: Vec<String> = passes
                .iter()
                .map(|&(after, who)| {
                    t!(
                        lang,
                        "diagram-pass-item",
                        n = after as u64,
                        color = color_key(who)
                    )
                })
                .collect();
            t!(lang, "diagram-passes", list = list.join(", "))
        };
        caption.push((text, false));
    }
    let lines: Vec<(String, bool)> = caption
        .into_iter()
        .flat_map(|(t, bold)| wrap(&t, max_chars).into_iter().map(move |l| (l, bold)))
        .collect();
    let page_h = margin + band + h * cell + band + 2.0 + lines.len() as f64 * size * 1.4 + margin;
    let mut svg = Svg::new(page_w, page_h);
    board.draw(&mut svg, margin + band, margin + band, cell, true, "#3c9a5f");
    let mut y = margin + 2.0 * band + h * cell + 2.0 + size;
    for (line, bold) in &lines {
        let attrs = if *bold {
            "fill=\"#000000\" font-weight=\"bold\""
        } else {
            "fill=\"#000000\""
        };
        svg.text(page_w / 2.0, y, size, Anchor::Middle, attrs, line, None);
        y += size * 1.4;
    }
    svg.finish()
}
