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
        // Above a point where Black leads, below one where White does; but always inside the
        // plot, so that a label never runs into the move numbers under the axis.
        let below = s < 0.0 && my + 5.0 <= top + gh - 1.0;
        let above_fits = my - 3.0 >= top + 3.0;
        let ly = if below || !above_fits { my + 5.0 } else { my - 3.0 };
        let ly = ly.clamp(top + 3.0, top + gh - 1.0);
        svg.text(
            mx,
            ly,
            2.8,
            Anchor::Middle,
            "fill=\"#d62728\" stroke=\"#ffffff\" stroke-width=\"0.9\" paint-order=\"stroke\"",
            &mark.label,
            None,
        );
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
        &tr(lang, "chart-black-ahead"),
        None,
    );
    svg.text(
        left + 1.5,
        top + gh - 2.0,
        2.8,
        Anchor::Start,
        "fill=\"#444444\"",
        &tr(lang, "chart-white-ahead"),
        None,
    );
    svg.finish()
}
