//! The rules of each variant, written for players (from RULES.md), in English and Russian.

use crate::Lang;
use reversi_core::{Bits, Color, Rules, Square, Variant};

/// The variant's name as a heading, e.g. "Othello 10×10" or «Чёрная дыра (дыра на c3)».
pub fn variant_title(variant: Variant, lang: Lang) -> String {
    let ru = lang == Lang::Ru;
    match variant {
        Variant::Othello => lang.pick("Othello", "Отелло").to_string(),
        Variant::Nxn(n) => format!("{} {n}×{n}", lang.pick("Othello", "Отелло")),
        Variant::NxnParallel(n) => {
            format!(
                "{} {n}×{n}, {}",
                lang.pick("Othello", "Отелло"),
                lang.pick("side-by-side start", "начало рядом")
            )
        }
        Variant::Grand => lang
            .pick("Grand Othello (10×10)", "Большое отелло (10×10)")
            .to_string(),
        Variant::EightStars => lang.pick("Eight Stars", "Восемь звёзд").to_string(),
        Variant::BlackHole(Some(sq)) if ru => format!("Чёрная дыра (дыра на {sq})"),
        Variant::BlackHole(Some(sq)) => format!("Black Hole (hole at {sq})"),
        Variant::BlackHole(None) => lang.pick("Black Hole", "Чёрная дыра").to_string(),
        Variant::Anti => lang.pick("Anti-Othello", "Антиотелло").to_string(),
        Variant::Xot(Some(i)) if ru => format!("XOT, дебют № {}", i + 1),
        Variant::Xot(Some(i)) => format!("XOT, opening No. {}", i + 1),
        Variant::Xot(None) => "XOT".to_string(),
        Variant::Reversi1880(_) => lang.pick("Reversi (1880)", "Реверси (1880)").to_string(),
    }
}

fn colour(c: Color, lang: Lang) -> &'static str {
    match c {
        Color::Black => lang.pick("Black", "Чёрные"),
        Color::White => lang.pick("White", "Белые"),
    }
}

fn squares(bits: reversi_core::WideBits) -> String {
    bits.squares()
        .map(|s: Square| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The Russian noun form for `n`: 1, 21 поле; 2–4, 64 поля; 5–20, 100 полей.
fn ru_plural<'a>(n: u64, one: &'a str, few: &'a str, many: &'a str) -> &'a str {
    match (n % 10, n % 100) {
        (1, r) if r != 11 => one,
        (2..=4, r) if !(12..=14).contains(&r) => few,
        _ => many,
    }
}

/// The rules sheet of `rules` as paragraphs (the first is the equipment, the last the scoring).
pub fn rules_sheet_paragraphs(rules: &Rules, lang: Lang) -> Vec<String> {
    let ru = lang == Lang::Ru;
    let (w, h) = (rules.width, rules.height);
    let n = rules.square_count();
    let mut p = Vec::new();
    p.push(if ru {
        format!(
            "Что нужно: доска {w}×{h} ({n} {}) и {n} {}, с одной стороны чёрных, с другой белых. \
             Играют двое: один чёрными, другой белыми.",
            ru_plural(n as u64, "поле", "поля", "полей"),
            ru_plural(n as u64, "фишка", "фишки", "фишек"),
        )
    } else {
        format!(
            "You need: the board of {w}×{h} ({n} squares) and {n} discs, black on one side and white on \
             the other. Two players: one plays Black, the other White."
        )
    });
    match rules.variant {
        Variant::EightStars => p.push(
            lang.pick(
                "The board is 10×10 with three squares cut from each corner. The missing squares are not \
             part of the board: no line runs through them, so the squares next to the cuts (c1, a3 and \
             the like) can never be turned over.",
                "Доска 10×10, у каждого угла вырезано по три поля. Вырезанных полей нет на доске: линии \
             через них не проходят, поэтому поля рядом с вырезами (c1, a3 и им подобные) перевернуть \
             нельзя никогда.",
            )
            .to_string(),
        ),
        Variant::BlackHole(Some(sq)) => p.push(if ru {
            format!(
                "Поле {sq} — чёрная дыра (отмечено на доске). На него нельзя ходить, и оно разрывает \
                 каждую линию: фишки по разные стороны дыры не окружают друг друга."
            )
        } else {
            format!(
                "Square {sq} is a black hole (marked on the board). Nobody may play there, and it breaks \
                 every line through it: discs on one side of it cannot flank discs on the other."
            )
        }),
        _ => {}
    }
    if rules.free_centre_opening {
        p.push(if ru {
            format!(
                "Начало: доска пуста. Первыми ходят {}. Первые четыре хода (по два у каждого, по очереди) \
                 делаются на четыре центральных поля ({}) и ничего не переворачивают. У каждого игрока \
                 свой запас — 32 фишки; у кого фишки кончились, тот пропускает ход.",
                colour(rules.first, lang).to_lowercase(),
                squares(rules.centre())
            )
        } else {
            format!(
                "Start: the board is empty. {} moves first. The first four moves (two each, in turn) go \
                 on the four centre squares ({}) and turn nothing over. Each player has a supply of 32 \
                 discs; a player who has none left passes.",
                colour(rules.first, lang),
                squares(rules.centre())
            )
        });
    } else {
        let start = if ru {
            format!(
                "Начало: чёрные фишки на {}, белые на {}.",
                squares(rules.start_black),
                squares(rules.start_white)
            )
        } else {
            format!(
                "Start: black discs on {}, white discs on {}.",
                squares(rules.start_black),
                squares(rules.start_white)
            )
        };
        let opening = if rules.opening.is_empty() {
            String::new()
        } else {
            let line: Vec<String> = rules.opening.iter().map(|s| s.to_string()).collect();
            if ru {
                format!(
                    " Это позиция после дебюта XOT {} из обычного начала.",
                    line.join(" ")
                )
            } else {
                format!(
                    " This is the position after the XOT opening {} from the usual start.",
                    line.join(" ")
                )
            }
        };
        let first = if ru {
            format!(" Ходят {}.", colour(rules.start_to_move, lang).to_lowercase())
        } else {
            format!(" {} moves first.", colour(rules.start_to_move, lang))
        };
        p.push(format!("{start}{opening}{first}"));
    }
    p.push(
        lang.pick(
            "A move: put a disc with your colour up on an empty square so that, in at least one straight \
         line (across, up and down, or diagonal), one or more of your opponent's discs lie between it \
         and another disc of yours, with no gaps. Every such line in all eight directions is turned \
         over to your colour. A square that turns nothing over is not a move.",
            "Ход: поставьте фишку своим цветом вверх на пустое поле так, чтобы хотя бы по одной прямой \
         (по горизонтали, вертикали или диагонали) между ней и другой вашей фишкой без промежутков \
         стояли одна или несколько фишек соперника. Все такие фишки во всех восьми направлениях \
         переворачиваются на ваш цвет. Поле, которое ничего не переворачивает, — не ход.",
        )
        .to_string(),
    );
    p.push(
        lang.pick(
            "If you can move, you must. If you cannot, you pass and your opponent moves again. The game \
         ends when neither player can move, usually when the board is full.",
            "Если ход есть, ходить обязательно. Если хода нет, вы пропускаете, и снова ходит соперник. \
         Игра кончается, когда ходить не может никто, обычно когда доска заполнена.",
        )
        .to_string(),
    );
    let goal = if rules.goal == reversi_core::Goal::FewestDiscs {
        lang.pick(
            "Count the discs: the player with FEWER discs wins. Empty squares are added to the \
             winner's count; equal counts are a draw.",
            "Подсчитайте фишки: побеждает тот, у кого фишек МЕНЬШЕ. Пустые поля засчитываются \
             победителю; при равенстве — ничья.",
        )
    } else {
        lang.pick(
            "Count the discs: the player with more discs wins. Empty squares are added to the \
             winner's count; equal counts are a draw.",
            "Подсчитайте фишки: побеждает тот, у кого их больше. Пустые поля засчитываются \
             победителю; при равенстве — ничья.",
        )
    };
    p.push(goal.to_string());
    p.push(
        lang.pick(
            "Squares are named by column letter and row number: a1 is the top-left corner. Write a game \
         down as its moves in order, e.g. f5 d6 c3.",
            "Поля называются буквой столбца и номером ряда: a1 — левый верхний угол. Партию записывают \
         ходами по порядку, например f5 d6 c3.",
        )
        .to_string(),
    );
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn russian_counts_agree_with_their_nouns() {
        let forms: Vec<&str> = [1, 2, 4, 5, 11, 12, 16, 21, 36, 64, 88, 100, 112, 144, 256]
            .iter()
            .map(|&n| ru_plural(n, "поле", "поля", "полей"))
            .collect();
        assert_eq!(
            forms,
            [
                "поле",
                "поля",
                "поля",
                "полей",
                "полей",
                "полей",
                "полей",
                "поле",
                "полей",
                "поля",
                "полей",
                "полей",
                "полей",
                "поля",
                "полей"
            ]
        );
        let text = rules_sheet_paragraphs(&Rules::othello(), Lang::Ru).remove(0);
        assert!(text.contains("(64 поля) и 64 фишки"), "{text}");
    }
}
