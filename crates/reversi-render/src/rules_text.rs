//! The rules of each variant, written for players (from RULES.md), in the messages of
//! `reversi-i18n` (`rules-*`, `variant-*`).

use crate::Lang;
use reversi_core::{Bits, Color, Rules, Square, Variant};
use reversi_i18n::{t, tr};

/// The variant's name as a heading, e.g. "Othello 10×10" or «Реверси с чёрной дырой (дыра на c3)».
pub fn variant_title(variant: Variant, lang: Lang) -> String {
    match variant {
        Variant::Othello => tr(lang, "variant-othello"),
        Variant::Nxn(n) => t!(lang, "variant-nxn", n = n),
        Variant::NxnParallel(n) => t!(lang, "variant-nxn-parallel", n = n),
        Variant::Grand => tr(lang, "variant-grand"),
        Variant::EightStars => tr(lang, "variant-eight-stars"),
        Variant::BlackHole(Some(sq)) => t!(lang, "variant-black-hole-at", square = sq.to_string()),
        Variant::BlackHole(None) => tr(lang, "variant-black-hole"),
        Variant::Anti => tr(lang, "variant-anti"),
        Variant::Xot(Some(i)) => t!(lang, "variant-xot-line", line = i as u32 + 1),
        Variant::Xot(None) => tr(lang, "variant-xot"),
        Variant::Reversi1880(_) => tr(lang, "variant-reversi-1880"),
    }
}

/// A colour as the messages' selectors name it.
pub(crate) fn color_key(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn squares(bits: reversi_core::WideBits) -> String {
    bits.squares()
        .map(|s: Square| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The rules sheet of `rules` as paragraphs (the first is the equipment, the last the scoring).
pub fn rules_sheet_paragraphs(rules: &Rules, lang: Lang) -> Vec<String> {
    let n = rules.square_count();
    let mut p = vec![t!(
        lang,
        "rules-equipment",
        width = rules.width,
        height = rules.height,
        n = n as u64
    )];
    match rules.variant {
        Variant::EightStars => p.push(tr(lang, "rules-eight-stars")),
        Variant::BlackHole(Some(sq)) => p.push(t!(lang, "rules-black-hole", square = sq.to_string())),
        _ => {}
    }
    if rules.free_centre_opening {
        p.push(t!(
            lang,
            "rules-free-centre",
            color = color_key(rules.first),
            squares = squares(rules.centre())
        ));
    } else {
        let mut start = t!(
            lang,
            "rules-start",
            black = squares(rules.start_black),
            white = squares(rules.start_white)
        );
        if !rules.opening.is_empty() {
            let line: Vec<String> = rules.opening.iter().map(|s| s.to_string()).collect();
            start.push(' ');
            start.push_str(&t!(lang, "rules-start-xot", line = line.join(" ")));
        }
        start.push(' ');
        start.push_str(&t!(
            lang,
            "rules-start-first",
            color = color_key(rules.start_to_move)
        ));
        p.push(start);
    }
    p.push(tr(lang, "rules-move"));
    p.push(tr(lang, "rules-pass"));
    p.push(if rules.goal == reversi_core::Goal::FewestDiscs {
        tr(lang, "rules-goal-fewest")
    } else {
        tr(lang, "rules-goal-most")
    });
    p.push(tr(lang, "rules-notation"));
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn russian_counts_agree_with_their_nouns() {
        for (n, squares, discs) in [
            (16, "16 полей", "16 фишек"),
            (36, "36 полей", "36 фишек"),
            (64, "64 поля", "64 фишки"),
            (88, "88 полей", "88 фишек"),
            (63, "63 поля", "63 фишки"),
            (100, "100 полей", "100 фишек"),
            (144, "144 поля", "144 фишки"),
            (256, "256 полей", "256 фишек"),
        ] {
            let text = t!(Lang::Ru, "rules-equipment", width = 8, height = 8, n = n as u64);
            assert!(text.contains(&format!("({squares}) и {discs}")), "{text}");
        }
        let text = rules_sheet_paragraphs(&Rules::othello(), Lang::Ru).remove(0);
        assert!(text.contains("(64 поля) и 64 фишки"), "{text}");
        let text = rules_sheet_paragraphs(&Rules::new(Variant::Nxn(6), 0), Lang::En).remove(0);
        assert!(text.contains("(36 squares) and 36 discs"), "{text}");
    }
}
