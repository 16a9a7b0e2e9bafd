//! The evaluation chart of a game review.

use crate::svg::{Anchor, Svg};
use crate::Lang;
use reversi_i18n::tr;

/// A point to mark on the chart: a large mistake.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartMark {
    /// The 1-based move (index into the score series plus one).
    pub ply: usize,
    /// A short label, e.g. "23. c3 −8".
    pub label: String,
}

/// Draws the score after every move from Black's point of view (`scores[i]` after move `i + 1`,
/// in discs, positive when Black is ahead) as a line over a zero axis, with `marks` circled and
/// labelled. The picture is 180 × 90 mm; the web app can show the same SVG.
///
/// Marked points have the SVG ids `mark-<ply>`.
pub fn score_chart_svg(scores: &[f64], marks: &[ChartMark], lang: Lang) -> String {
    let (pw, ph) = (180.0, 90.0);
    let (left, right, top, bottom) = (16.0, 6.0, 10.0, 14.0);
    let (gw, gh) = (pw - left - right, ph - top - bottom);
    let mut svg = Svg::new(pw, ph);
    let max = scores.iter().fold(8.0f64, |m, s| m.max(s.abs()));
    let step = if max > 32.0 { 16.0 } else { 8.0 };
    let range = (max / step).ceil() * step;
    let n = scores.len().max(1) as f64;
    let x = |i: f64| left + gw * i / n;
    let y = |s: f64| top + gh / 2.0 - (s / range) * gh / 2.0;
    let thin = "stroke=\"#cccccc\" stroke-width=\"0.2\"";
    let ink = "fill=\"#000000\"";
    // Horizontal grid and score labels.
    let mut s = -range;
    while s <= range + 1e-9 {
        svg.line(left, y(s), left + gw, y(s), thin);
        let label = if s > 0.0 {
            format!("+{s:.0}")
        } else {
            format!("{s:.0}")
        };
        svg.text(left - 1.5, y(s) + 1.0, 2.8, Anchor::End, ink, &label, None);
        s += step;
    }
    // Vertical grid every 10 moves.
    let mut m = 0;
    while m as f64 <= n {
        svg.line(x(m as f64), top, x(m as f64), top + gh, thin);
        svg.text(
            x(m as f64),
            top + gh + 4.0,
            2.8,
            Anchor::Middle,
            ink,
            &m.to_string(),
            None,
        );
        m += 10;
    }
    svg.line(
        left,
        y(0.0),
        left + gw,
        y(0.0),
        "stroke=\"#000000\" stroke-width=\"0.35\"",
    );
    svg.rect(
        left,
        top,
        gw,
        gh,
        "fill=\"none\" stroke=\"#000000\" stroke-width=\"0.3\"",
    );
    if !scores.is_empty() {
        // The area between the line and zero, dark where Black leads, light where White does.
        let mut d = format!("M {:.3} {:.3}", x(0.0), y(0.0));
        for (i, s) in scores.iter().enumerate() {
            d.push_str(&format!(" L {:.3} {:.3}", x(i as f64 + 1.0), y(*s)));
        }
        let area = format!("{d} L {:.3} {:.3} Z", x(n), y(0.0));
        svg.path(&area, "fill=\"#555555\" fill-opacity=\"0.25\" stroke=\"none\"");
        svg.path(
            &d,
            "fill=\"none\" stroke=\"#1f4e9c\" stroke-width=\"0.6\" stroke-linejoin=\"round\"",
        );
    }
    // The corner notes first: the labels of the marks keep clear of them and of each other.
    let black_note = tr(lang, "chart-black-ahead");
    let white_note = tr(lang, "chart-white-ahead");
    let mut taken = vec![
        LabelBox::at(left + 1.5, top + 4.0, &black_note, Anchor::Start),
        LabelBox::at(left + 1.5, top + gh - 2.0, &white_note, Anchor::Start),
    ];
    for mark in marks {
        let Some(&s) = mark.ply.checked_sub(1).and_then(|i| scores.get(i)) else {
            continue;
        };
        let (mx, my) = (x(mark.ply as f64), y(s));
        svg.circle(
            mx,
            my,
            1.6,
            "fill=\"none\" stroke=\"#d62728\" stroke-width=\"0.5\"",
            Some(&format!("mark-{}", mark.ply)),
        );
        // Above a point where Black leads, below one where White does, further out while that
        // place is taken; always inside the plot (never into the move numbers under the axis).
        // A label with no free place is left out: its circle still marks the move.
        let half = LabelBox::width(&mark.label) / 2.0;
        let lx = mx.clamp(left + half + 0.5, left + gw - half - 0.5);
        let place = (0..8)
            .flat_map(|k| {
                let out = 4.0 * k as f64;
                let (up, down) = (my - 3.0 - out, my + 5.0 + out);
                if s < 0.0 {
                    [down, up]
                } else {
                    [up, down]
                }
            })
            .filter(|&ly| (top + 3.0..=top + gh - 1.0).contains(&ly))
            .map(|ly| LabelBox::at(lx, ly, &mark.label, Anchor::Middle))
            .find(|b| !taken.iter().any(|t| t.overlaps(b)));
        let Some(place) = place else { continue };
        svg.text(
            lx,
            place.baseline,
            2.8,
            Anchor::Middle,
            "fill=\"#d62728\" stroke=\"#ffffff\" stroke-width=\"0.9\" paint-order=\"stroke\"",
            &mark.label,
            None,
        );
        taken.push(place);
    }
    svg.text(
        left,
        top - 3.5,
        3.4,
        Anchor::Start,
        "fill=\"#000000\" font-weight=\"bold\"",
        &tr(lang, "chart-title"),
        None,
    );
    svg.text(
        left + gw,
        top + gh + 9.5,
        3.0,
        Anchor::End,
        ink,
        &tr(lang, "chart-move"),
        None,
    );
    svg.text(
        left + 1.5,
        top + 4.0,
        2.8,
        Anchor::Start,
        "fill=\"#444444\"",
        &black_note,
        None,
    );
    svg.text(
        left + 1.5,
        top + gh - 2.0,
        2.8,
        Anchor::Start,
        "fill=\"#444444\"",
        &white_note,
        None,
    );
    svg.finish()
}

/// The room a line of 2.8 mm chart text takes, to keep labels apart.
#[derive(Clone, Copy, Debug)]
struct LabelBox {
    left: f64,
    right: f64,
    baseline: f64,
}

impl LabelBox {
    /// A generous width of `text` at 2.8 mm (the sans-serif's digits and letters average about
    /// 0.56 of the size; the label's white outline adds a little).
    fn width(text: &str) -> f64 {
        text.chars().count() as f64 * 2.8 * 0.58 + 0.8
    }

    fn at(x: f64, baseline: f64, text: &str, anchor: Anchor) -> LabelBox {
        let w = LabelBox::width(text);
        let left = match anchor {
            Anchor::Start => x,
            Anchor::Middle => x - w / 2.0,
            Anchor::End => x - w,
        };
        LabelBox {
            left,
            right: left + w,
            baseline,
        }
    }

    /// Whether the two overlap (the text stands 2.3 mm above its baseline, 0.7 below).
    fn overlaps(&self, other: &LabelBox) -> bool {
        let (top, bottom) = (self.baseline - 2.5, self.baseline + 0.9);
        let (o_top, o_bottom) = (other.baseline - 2.5, other.baseline + 0.9);
        self.left < other.right && other.left < self.right && top < o_bottom && o_top < bottom
    }
}
