//! `reversi analyze`: every move of a game against the engine's choice.

use super::engine_args::EngineArgs;
use crate::out::outln;
use anyhow::{Context, Result};
use reversi_core::format::ggf::parse_ggf;
use reversi_core::{Color, Game, Rules, Variant};
use reversi_engine::analyze::{analyze_game, summarize, MoveAnalysis};
use reversi_engine::coach::{explain, Arg, Fact};
use std::sync::atomic::AtomicBool;

/// Arguments of `reversi analyze`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "GAME is a transcript (`f5d6c3...`) or a file: a GGF record (the first game) or a \
transcript. For each move: who played it, the move, the engine's move, both scores for the player \
and the discs lost; then each player's total loss and largest mistakes."
)]
pub struct Args {
    /// A transcript or a file holding one.
    game: String,
    /// Rules preset of a transcript (GGF records name their own).
    #[arg(long, default_value = "othello")]
    variant: Variant,
    /// Also draw the evaluation after every move (Black's view, largest mistakes marked) to this
    /// file: .svg, .png or .pdf.
    #[arg(long, value_name = "FILE")]
    chart: Option<std::path::PathBuf>,
    /// Language of the chart's words and the explanations: en or ru.
    #[arg(long, default_value = "en")]
    lang: reversi_render::Lang,
    /// Under each move, say why it is good or bad: the loss, then the facts that explain it
    /// (corners, X- and C-squares, mobility, frontier, stable discs, parity, walls).
    #[arg(long)]
    explain: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The chart of an analysis: Black's score after each move and the five largest mistakes.
fn chart_svg(moves: &[reversi_engine::analyze::MoveAnalysis], lang: reversi_render::Lang) -> String {
    let scores: Vec<f64> = moves
        .iter()
        .map(|m| match m.player {
            Color::Black => m.played_score as f64,
            Color::White => -m.played_score as f64,
        })
        .collect();
    let mut worst: Vec<(usize, &reversi_engine::analyze::MoveAnalysis)> =
        moves.iter().enumerate().filter(|(_, m)| m.loss > 0).collect();
    worst.sort_by_key(|(i, m)| (std::cmp::Reverse(m.loss), *i));
    let marks: Vec<reversi_render::ChartMark> = worst
        .iter()
        .take(5)
        .map(|(i, m)| reversi_render::ChartMark {
            ply: i + 1,
            label: format!("{}. {} −{}", m.ply, m.played, m.loss),
        })
        .collect();
    reversi_render::score_chart_svg(&scores, &marks, lang)
}

fn load(a: &Args) -> Result<Game> {
    let path = std::path::Path::new(&a.game);
    let text = if path.exists() {
        crate::input::read_text(path)?
    } else {
        a.game.clone()
    };
    if text.trim_start().starts_with("(;") {
        let games = parse_ggf(&text).context("cannot read the GGF record")?;
        let g = games.into_iter().next().context("the GGF file holds no game")?;
        return g.to_game().context("cannot replay the GGF game");
    }
    Game::from_transcript(Rules::new(a.variant, 0), text.trim()).context("cannot replay the transcript")
}

/// The sentence of one of the coach's facts in `lang`.
pub fn sentence(fact: &Fact, lang: reversi_i18n::Lang) -> String {
    let (id, args) = fact.message();
    let mut fluent = reversi_i18n::Args::new();
    for (name, value) in args {
        match value {
            Arg::Num(n) => fluent.set(name, n),
            Arg::Text(t) => fluent.set(name, t),
        }
    }
    reversi_i18n::format(lang, id, Some(&fluent))
}

/// The coach's sentences about move `m` of `game`.
fn explanation(game: &Game, m: &MoveAnalysis, lang: reversi_i18n::Lang) -> Vec<String> {
    let Some(pos) = game.position_at(m.ply - 1) else {
        return Vec::new();
    };
    explain(pos, m.played, &m.played_pv, m.best, &m.best_pv, m.loss)
        .facts
        .iter()
        .map(|f| sentence(f, lang))
        .collect()
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let game = load(&a)?;
    let engine = a.engine.engine()?;
    let limits = a.engine.limits(0);
    let stop = AtomicBool::new(false);
    let lang = reversi_i18n::Lang::from_locale(a.lang.code());
    use reversi_i18n::t;
    let color = |c: Color| {
        t!(
            lang,
            if c == Color::Black {
                "color-black"
            } else {
                "color-white"
            }
        )
    };
    if let Some((ply, o)) = reversi_core::openings::of_game(&game, None) {
        outln!(
            "{}",
            t!(
                lang,
                "analyze-opening",
                name = o.name(a.lang.code()),
                moves = o.moves,
                ply = ply
            )
        )?;
    }
    outln!(
        "{:>3}  {:<6}  {:<6}  {:<5}  {:>6}  {:>5}  {:>5}",
        t!(lang, "analyze-col-ply"),
        t!(lang, "analyze-col-player"),
        t!(lang, "analyze-col-played"),
        t!(lang, "analyze-col-best"),
        t!(lang, "analyze-col-played-score"),
        t!(lang, "analyze-col-best-score"),
        t!(lang, "analyze-col-loss"),
    )?;
    let exact = t!(lang, "analyze-exact");
    let mut printed = crate::out::Lines::default();
    let moves = analyze_game(&engine, &game, &limits, &stop, &mut |m| {
        printed.line(format_args!(
            "{:>3}  {:<6}  {:<6}  {:<5}  {:>+6}  {:>+5}  {:>5}{}",
            m.ply,
            color(m.player),
            m.played.to_string(),
            m.best.to_string(),
            m.played_score,
            m.best_score,
            if m.loss > 0 {
                format!("-{}", m.loss)
            } else {
                "0".to_string()
            },
            if m.exact {
                format!("  {exact}")
            } else {
                String::new()
            }
        ));
        if a.explain {
            for sentence in explanation(&game, m, lang) {
                printed.line(format_args!("       {sentence}"));
            }
        }
    });
    printed.finish()?;
    outln!()?;
    for c in Color::ALL {
        let s = summarize(&moves, c);
        let worst: Vec<String> = s
            .worst
            .iter()
            .map(|(ply, loss)| t!(lang, "analyze-worst-move", ply = *ply, loss = *loss))
            .collect();
        let mut line = t!(
            lang,
            "analyze-summary",
            color = color(c),
            loss = s.total_loss,
            moves = s.moves,
            mistakes = s.mistakes
        );
        if !worst.is_empty() {
            line.push_str(&t!(lang, "analyze-largest", list = worst.join(", ")));
        }
        outln!("{line}")?;
    }
    if let Some(o) = game.outcome() {
        outln!(
            "{}",
            t!(
                lang,
                "analyze-result",
                black = o.black,
                white = o.white,
                margin = format!("{:+}", o.margin(Color::Black))
            )
        )?;
    }
    if let Some(path) = &a.chart {
        let format = super::print::choose_format(None, path, reversi_render::Format::Svg);
        for f in super::print::write_pages(&[chart_svg(&moves, a.lang)], format, path)? {
            outln!("{}", t!(lang, "analyze-chart", path = f.display().to_string()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{Move, Square};

    fn every_fact() -> Vec<Fact> {
        let s = |t: &str| Square::parse(t).unwrap();
        let line = vec![Move::Play(s("b2")), Move::Pass, Move::Play(s("a1"))];
        vec![
            Fact::Loss {
                discs: 21,
                best: s("c5"),
            },
            Fact::Best,
            Fact::AsGood { best: s("c5") },
            Fact::TakesCorner { corner: s("h8") },
            Fact::MissesCorner { corner: s("h8") },
            Fact::GivesCorner {
                color: Color::White,
                corner: s("a1"),
                moves: 2,
                line: line.clone(),
            },
            Fact::OpensCorner {
                color: Color::Black,
                corner: s("a8"),
            },
            Fact::XSquare {
                square: s("b2"),
                corner: s("a1"),
            },
            Fact::CSquare {
                square: s("b1"),
                corner: s("a1"),
            },
            Fact::Mobility {
                color: Color::White,
                after: 5,
                best: s("c5"),
                best_after: 0,
            },
            Fact::OwnMobility {
                color: Color::Black,
                after: 1,
                best: s("c5"),
                best_after: 4,
            },
            Fact::Line { line },
            Fact::Restricts {
                color: Color::Black,
                before: 9,
                after: 2,
            },
            Fact::Pass { color: Color::White },
            Fact::Wipeout { color: Color::Black },
            Fact::Frontier {
                discs: 7,
                best: s("c5"),
                best_discs: 3,
            },
            Fact::Stable { discs: 1 },
            Fact::BestStable {
                best: s("c5"),
                discs: 22,
            },
            Fact::Parity { size: 3 },
            Fact::BreaksParity { size: 4 },
            Fact::Wall {
                discs: 6,
                from: s("c3"),
                to: s("c8"),
            },
            Fact::Quiet { flips: 1 },
            Fact::SpendsReserve {
                square: s("c1"),
                best: s("e3"),
            },
            Fact::LeavesCentre {
                square: s("g4"),
                best: s("e3"),
            },
        ]
    }

    #[test]
    fn every_fact_has_its_sentence_in_both_languages() {
        for lang in [reversi_i18n::Lang::En, reversi_i18n::Lang::Ru] {
            for f in every_fact() {
                let (id, args) = f.message();
                let text = sentence(&f, lang);
                assert!(reversi_i18n::has(lang, id), "{lang:?}: no message {id}");
                assert!(
                    !text.contains('{') && !text.contains("coach-"),
                    "{lang:?} {id}: {text}"
                );
                // The coach reads to spectators and replays too: it names colours, never "you".
                let words: Vec<String> = text
                    .split(|c: char| !c.is_alphabetic())
                    .map(str::to_lowercase)
                    .collect();
                for you in ["you", "your", "вы", "вас", "ваш", "вам", "вами"] {
                    assert!(!words.iter().any(|w| w == you), "{lang:?} {id}: {text}");
                }
                // Every argument's value is said.
                for (_, a) in args {
                    if let Arg::Text(t) = a {
                        if t != "black" && t != "white" {
                            assert!(text.contains(&t), "{lang:?} {id}: {t} missing from {text}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn russian_plurals_follow_the_number() {
        let ru = reversi_i18n::Lang::Ru;
        let loss = |n| {
            sentence(
                &Fact::Loss {
                    discs: n,
                    best: Square::parse("c5").unwrap(),
                },
                ru,
            )
        };
        assert!(loss(1).contains("1 фишку "), "{}", loss(1));
        assert!(loss(3).contains("3 фишки "), "{}", loss(3));
        assert!(loss(5).contains("5 фишек "), "{}", loss(5));
        assert!(loss(21).contains("21 фишку "), "{}", loss(21));
        let gives = |n| {
            sentence(
                &Fact::GivesCorner {
                    color: Color::White,
                    corner: Square::parse("h1").unwrap(),
                    moves: n,
                    line: vec![],
                },
                ru,
            )
        };
        assert!(gives(1).contains("сразу"), "{}", gives(1));
        assert!(gives(2).contains("через 2 хода"), "{}", gives(2));
        let en = sentence(
            &Fact::GivesCorner {
                color: Color::White,
                corner: Square::parse("h1").unwrap(),
                moves: 2,
                line: vec![],
            },
            reversi_i18n::Lang::En,
        );
        assert!(en.starts_with("White takes h1 in 2 moves"), "{en}");
    }
}
