//! Structure checks of every picture: kits for every preset in both languages and all formats,
//! diagrams (the numbered record of a real game), charts. PDF files are checked with poppler's
//! `pdfinfo` and `pdftoppm` when they are installed (scripts/test installs them); without them
//! those checks print why and are skipped.

use reversi_core::format::wthor::parse_games;
use reversi_core::{AnyPosition, Color, Game, Move, Rules, Square, Variant};
use reversi_render::{
    diagram_svg, encode, parse_svg, print_kit, score_chart_svg, star_points, ChartMark, DiagramInfo, Format,
    Lang, Paper,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Ids of every node of a parsed SVG (usvg keeps the ids we write on shapes and text).
fn ids(svg: &str) -> Vec<String> {
    fn walk(g: &resvg::usvg::Group, out: &mut Vec<String>) {
        if !g.id().is_empty() {
            out.push(g.id().to_string());
        }
        for n in g.children() {
            match n {
                resvg::usvg::Node::Group(g) => walk(g, out),
                resvg::usvg::Node::Path(p) if !p.id().is_empty() => out.push(p.id().to_string()),
                resvg::usvg::Node::Text(t) if !t.id().is_empty() => out.push(t.id().to_string()),
                _ => {}
            }
        }
    }
    let tree = parse_svg(svg).expect("our SVG parses");
    let mut out = Vec::new();
    walk(tree.root(), &mut out);
    out
}

fn count_prefix(ids: &[String], prefix: &str) -> usize {
    ids.iter().filter(|i| i.starts_with(prefix)).count()
}

/// The value of attribute `name` in an SVG element written as one line.
fn attr<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = line.find(&key)? + key.len();
    Some(&line[start..start + line[start..].find('"')?])
}

fn tool(name: &str) -> bool {
    let ok = Command::new(name).arg("-v").output().is_ok();
    if !ok {
        // Under CI a missing tool is a failure, not a silent pass.
        assert!(!strict(), "{name} (poppler-utils) is not installed under CI=true");
        eprintln!("{name} (poppler-utils) is not installed: skipping the PDF checks that need it");
    }
    ok
}

fn tmp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Checks a PDF with pdfinfo (page count, page size in points) and pdftoppm (it renders).
fn check_pdf(pdf: &[u8], path: &Path, pages: usize, size_pt: Option<(f64, f64)>) {
    std::fs::write(path, pdf).expect("write pdf");
    assert!(pdf.starts_with(b"%PDF-"), "{}: not a PDF", path.display());
    if !tool("pdfinfo") {
        return;
    }
    let out = Command::new("pdfinfo").arg(path).output().expect("pdfinfo runs");
    assert!(
        out.status.success(),
        "pdfinfo failed on {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let info = String::from_utf8_lossy(&out.stdout);
    let field = |k: &str| {
        info.lines()
            .find(|l| l.starts_with(k))
            .map(|l| l[k.len()..].trim().to_string())
            .unwrap_or_else(|| panic!("pdfinfo has no {k} for {}:\n{info}", path.display()))
    };
    assert_eq!(
        field("Pages:").parse::<usize>().unwrap(),
        pages,
        "{}",
        path.display()
    );
    if let Some((w, h)) = size_pt {
        let size = field("Page size:");
        let nums: Vec<f64> = size.split_whitespace().filter_map(|t| t.parse().ok()).collect();
        assert!(
            (nums[0] - w).abs() < 1.0 && (nums[1] - h).abs() < 1.0,
            "{}: page size {size}",
            path.display()
        );
    }
    if !tool("pdftoppm") {
        return;
    }
    let prefix = path.with_extension("");
    let out = Command::new("pdftoppm")
        .args(["-r", "20", "-png"])
        .arg(path)
        .arg(&prefix)
        .output()
        .expect("pdftoppm runs");
    assert!(
        out.status.success(),
        "pdftoppm failed on {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "pdftoppm complained about {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn check_png(png: &[u8], width_mm: f64) {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    let w = u32::from_be_bytes(png[16..20].try_into().unwrap()) as f64;
    let expected = width_mm / 25.4 * 150.0;
    assert!(
        (w - expected).abs() <= 2.0,
        "PNG width {w} px, expected {expected:.0} for {width_mm} mm at 150 dpi"
    );
}

fn file_name(v: Variant) -> String {
    v.to_string().replace(':', "-")
}

#[test]
fn star_points_are_the_corners_of_the_central_square() {
    assert_eq!(star_points(8, 8), vec![(2, 2), (6, 2), (2, 6), (6, 6)]);
    assert_eq!(star_points(10, 10), vec![(3, 3), (7, 3), (3, 7), (7, 7)]);
    assert!(star_points(6, 6).is_empty());
}

#[test]
fn kit_for_every_preset_in_both_languages_and_all_formats() {
    let dir = tmp_dir("kits");
    for variant in Variant::examples() {
        let rules = Rules::new(variant, 0);
        let squares = rules.square_count() as usize;
        for lang in Lang::ALL {
            for paper in Paper::ALL {
                let pages = print_kit(&rules, lang, paper);
                let name = format!("{}-{lang}-{paper}", file_name(variant));
                assert!(
                    pages.len() >= 4 && pages.len().is_multiple_of(2),
                    "{name}: {} pages",
                    pages.len()
                );
                let (pw, ph) = paper.size_mm();
                for p in &pages {
                    assert!(
                        p.contains(&format!("width=\"{pw:.2}mm\" height=\"{ph:.2}mm\"")),
                        "{name}"
                    );
                }
                // Board: one square per playable square, the hole marked, coordinates around it.
                let board = &pages[0];
                let fill = "fill=\"#cfe9d6\"";
                assert_eq!(board.matches(fill).count(), squares, "{name}: board squares");
                let board_ids = ids(board);
                match variant {
                    Variant::BlackHole(Some(sq)) => assert_eq!(board_ids, vec![format!("hole-{sq}")]),
                    _ => assert!(board_ids.is_empty(), "{name}: {board_ids:?}"),
                }
                // Stars: the board page draws exactly the star points (small filled circles).
                let stars = board
                    .lines()
                    .filter(|l| l.starts_with("<circle") && !l.contains(" id="))
                    .count();
                assert_eq!(
                    stars,
                    star_points(rules.width, rules.height).len(),
                    "{name}: stars"
                );
                // Rules sheet: the start position, in words of the right language.
                let sheet = &pages[1];
                let start = AnyPosition::start(&rules);
                assert_eq!(
                    count_prefix(&ids(sheet), "disc-"),
                    (start.count(Color::Black) + start.count(Color::White)) as usize,
                    "{name}: start diagram"
                );
                assert!(
                    sheet.contains(if lang == Lang::En {
                        "Rules"
                    } else {
                        "Правила"
                    }),
                    "{name}"
                );
                // Discs: black faces, then the white faces mirrored, as many of each as squares.
                let mut black = 0;
                let mut white = 0;
                for pair in pages[2..].chunks(2) {
                    let b = ids(&pair[0]);
                    let w = ids(&pair[1]);
                    assert_eq!(count_prefix(&b, "disc-b-"), b.len());
                    assert_eq!(count_prefix(&w, "disc-w-"), w.len());
                    black += b.len();
                    white += w.len();
                    let centres = |svg: &str, tag: &str| -> BTreeMap<String, (f64, f64)> {
                        svg.lines()
                            .filter(|l| l.contains(&format!("id=\"disc-{tag}-")))
                            .map(|l| {
                                let id = attr(l, "id").unwrap();
                                let k = id.rsplit('-').next().unwrap().to_string();
                                let c = |a| attr(l, a).unwrap().parse::<f64>().unwrap();
                                (k, (c("cx"), c("cy")))
                            })
                            .collect()
                    };
                    let (cb, cw) = (centres(&pair[0], "b"), centres(&pair[1], "w"));
                    assert_eq!(cb.len(), cw.len());
                    for (k, (x, y)) in &cb {
                        let (xw, yw) = cw[k];
                        assert!(
                            (x + xw - pw).abs() < 0.01 && (y - yw).abs() < 0.01,
                            "{name}: disc {k} not mirrored"
                        );
                    }
                }
                assert_eq!((black, white), (squares, squares), "{name}: discs");
                // Formats: one PNG and one SVG file per page; one PDF with every page.
                if paper == Paper::A4 || variant == Variant::Othello {
                    let svgs = encode(&pages, Format::Svg).unwrap();
                    assert_eq!(svgs.len(), pages.len());
                    let pngs = encode(&pages, Format::Png).unwrap();
                    assert_eq!(pngs.len(), pages.len());
                    for png in &pngs {
                        check_png(png, pw);
                    }
                }
                let pdf = encode(&pages, Format::Pdf).unwrap();
                assert_eq!(pdf.len(), 1);
                check_pdf(
                    &pdf[0],
                    &dir.join(format!("{name}.pdf")),
                    pages.len(),
                    Some(paper.size_pt()),
                );
            }
        }
    }
}

#[test]
fn pdf_pages_are_a4_and_letter_in_points() {
    let (w, h) = Paper::A4.size_pt();
    assert!((w - 595.3).abs() < 0.1 && (h - 841.9).abs() < 0.1);
    let (w, h) = Paper::Letter.size_pt();
    assert!((w - 612.0).abs() < 0.1 && (h - 792.0).abs() < 0.1);
}

/// A real 60-move game from the WTHOR database (1990).
fn wthor_game(pred: impl Fn(&Game) -> bool) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/wthor/WTH_1990.wtb");
    let bytes = std::fs::read(&path).expect("WTHOR file");
    parse_games(&bytes)
        .expect("WTHOR parses")
        .games
        .iter()
        .filter_map(|g| g.to_game().ok())
        .find(|g| pred(g))
        .expect("a game of that kind")
}

fn numbers(svg: &str) -> BTreeMap<u32, (Square, String)> {
    svg.lines()
        .filter(|l| l.starts_with("<text id=\"num-"))
        .map(|l| {
            let sq = Square::parse(&attr(l, "id").unwrap()["num-".len()..]).unwrap();
            let n: u32 = l[l.find('>').unwrap() + 1..l.find("</text>").unwrap()]
                .parse()
                .unwrap();
            (n, (sq, attr(l, "fill").unwrap().to_string()))
        })
        .collect()
}

#[test]
fn numbered_diagram_of_a_known_game_has_1_to_60_on_the_right_squares() {
    let game = wthor_game(|g| g.recorded_moves().len() == 60 && g.is_over());
    let info = DiagramInfo {
        black: Some("Мельников".into()),
        white: Some("Velesk".into()),
        result: None,
        lang: Lang::Ru,
    };
    let svg = diagram_svg(&game, None, true, &info);
    let nums = numbers(&svg);
    assert_eq!(
        nums.keys().copied().collect::<Vec<_>>(),
        (1..=60).collect::<Vec<_>>()
    );
    let end = game.position();
    for (n, (sq, ink)) in &nums {
        assert_eq!(
            game.recorded_moves()[*n as usize - 1],
            Move::Play(*sq),
            "move {n}"
        );
        let expected = match end.disc(*sq).expect("a disc") {
            Color::Black => "#ffffff",
            Color::White => "#000000",
        };
        assert_eq!(ink, expected, "contrast of {n} on {sq}");
    }
    let all = ids(&svg);
    assert_eq!(count_prefix(&all, "num-"), 60);
    assert_eq!(count_prefix(&all, "disc-"), 64);
    assert!(svg.contains("Мельников") && svg.contains("Итог:") && svg.contains("Пропусков хода нет"));
    let o = game.outcome().unwrap();
    assert!(svg.contains(&format!("{}–{}", o.black, o.white)));
}

#[test]
fn numbered_diagram_notes_passes_and_numbers_only_placements() {
    let game = wthor_game(|g| g.recorded_moves().contains(&Move::Pass));
    let placed = game.recorded_moves().iter().filter(|m| **m != Move::Pass).count() as u32;
    let svg = diagram_svg(&game, None, true, &DiagramInfo::default());
    let nums = numbers(&svg);
    assert_eq!(
        nums.keys().copied().collect::<Vec<_>>(),
        (1..=placed).collect::<Vec<_>>()
    );
    assert!(svg.contains("Passes: after move"), "{svg}");
}

#[test]
fn position_diagram_at_any_ply() {
    let game = wthor_game(|g| g.recorded_moves().len() == 60);
    for ply in [0, 1, 20, 45, 60] {
        let svg = diagram_svg(&game, Some(ply), false, &DiagramInfo::default());
        let pos = game.position_at(ply).unwrap();
        let all = ids(&svg);
        assert_eq!(
            count_prefix(&all, "disc-"),
            (pos.count(Color::Black) + pos.count(Color::White)) as usize
        );
        assert_eq!(count_prefix(&all, "num-"), 0);
    }
}

#[test]
fn diagrams_of_every_preset_in_every_format() {
    let dir = tmp_dir("diagrams");
    for variant in Variant::examples() {
        let rules = Rules::new(variant, 0);
        let mut game = Game::new(rules.clone());
        // A few moves: the first legal one each time.
        for _ in 0..6 {
            game.pass_if_forced();
            let Some(sq) = reversi_core::Bits::first(game.legal_moves()) else {
                break;
            };
            game.play(Move::Play(sq)).unwrap();
        }
        for lang in Lang::ALL {
            for numbered in [false, true] {
                let svg = diagram_svg(
                    &game,
                    None,
                    numbered,
                    &DiagramInfo {
                        lang,
                        ..DiagramInfo::default()
                    },
                );
                let all = ids(&svg);
                let pos = game.position();
                let discs = (pos.count(Color::Black) + pos.count(Color::White)) as usize;
                assert_eq!(count_prefix(&all, "disc-"), discs, "{variant}");
                let placed = game.moves().iter().filter(|m| **m != Move::Pass).count();
                assert_eq!(
                    count_prefix(&all, "num-"),
                    if numbered { placed } else { 0 },
                    "{variant}"
                );
                if let Variant::BlackHole(Some(sq)) = variant {
                    assert!(all.contains(&format!("hole-{sq}")));
                }
                let png = encode(std::slice::from_ref(&svg), Format::Png).unwrap();
                assert!(png[0].starts_with(b"\x89PNG"));
                let pdf = encode(&[svg], Format::Pdf).unwrap();
                let name = format!("{}-{lang}-{numbered}.pdf", file_name(variant));
                check_pdf(&pdf[0], &dir.join(name), 1, None);
            }
        }
    }
}

#[test]
fn chart_marks_the_mistakes() {
    let scores: Vec<f64> = (0..60).map(|i| ((i as f64) / 5.0).sin() * 20.0).collect();
    let marks = vec![
        ChartMark {
            ply: 12,
            label: "12. c3 −8".into(),
        },
        ChartMark {
            ply: 40,
            label: "40. a1 −12".into(),
        },
        ChartMark {
            ply: 99,
            label: "past the end: ignored".into(),
        },
    ];
    for lang in Lang::ALL {
        let svg = score_chart_svg(&scores, &marks, lang);
        let all = ids(&svg);
        assert_eq!(all, vec!["mark-12".to_string(), "mark-40".to_string()]);
        assert!(svg.contains(if lang == Lang::En {
            "Black's view"
        } else {
            "за чёрных"
        }));
        let png = encode(std::slice::from_ref(&svg), Format::Png).unwrap();
        check_png(&png[0], 180.0);
        let pdf = encode(&[svg], Format::Pdf).unwrap();
        check_pdf(
            &pdf[0],
            &tmp_dir("charts").join(format!("chart-{lang}.pdf")),
            1,
            Some((510.2, 255.1)),
        );
    }
    // An empty series still draws.
    assert!(parse_svg(&score_chart_svg(&[], &[], Lang::En)).is_ok());
}

#[test]
fn mistake_labels_stay_inside_the_plot() {
    // Marks at the very top and bottom of the range: their labels must not run into the title
    // above or the move numbers below the plot (10 mm from the top, 14 mm from the bottom of
    // the 90 mm picture).
    let scores = vec![16.0, -16.0, 0.0, 16.0, -16.0];
    let marks: Vec<ChartMark> = (1..=5)
        .map(|ply| ChartMark {
            ply,
            label: format!("LBL{ply}"),
        })
        .collect();
    let svg = score_chart_svg(&scores, &marks, Lang::En);
    for ply in 1..=5 {
        let at = svg.find(&format!(">LBL{ply}<")).expect("the label");
        let tag = &svg[svg[..at].rfind("<text").unwrap()..at];
        let y: f64 = tag
            .split("y=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!((13.0..=75.0).contains(&y), "label {ply} at y = {y}: {tag}");
    }
}

#[test]
fn page_file_names_number_the_extra_pages() {
    let names = reversi_render::page_file_names(Path::new("out/kit.svg"), 3);
    assert_eq!(
        names,
        vec![
            PathBuf::from("out/kit.svg"),
            PathBuf::from("out/kit-2.svg"),
            PathBuf::from("out/kit-3.svg")
        ]
    );
}

/// Whether a missing tool fails the run instead of skipping: under CI (`CI=true`) and in
/// `scripts/test` (`REVERSI_TEST_STRICT=1`), which installs everything the tests need.
fn strict() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("REVERSI_TEST_STRICT").is_ok_and(|v| v == "1")
}

/// The text lines of a chart that sit on the plot: (x, y, anchor, text).
fn plot_texts(svg: &str) -> Vec<(f64, f64, String, String)> {
    let attr = |tag: &str, name: &str| -> String {
        tag.split(&format!(" {name}=\""))
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .to_string()
    };
    svg.lines()
        .filter(|l| l.starts_with("<text") && (l.contains("#d62728") || l.contains("#444444")))
        .map(|l| {
            let text = l
                .split('>')
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap()
                .to_string();
            (
                attr(l, "x").parse().unwrap(),
                attr(l, "y").parse().unwrap(),
                attr(l, "text-anchor"),
                text,
            )
        })
        .collect()
}

#[test]
fn mistake_labels_never_overlap_each_other_or_the_notes() {
    // Five mistakes on neighbouring moves at about the same score (the chart of a game thrown
    // away in a few moves), and one under the "Black is ahead" note.
    let mut scores: Vec<f64> = (0..60).map(|i| 2.0 + (i as f64) * 0.1).collect();
    scores[0] = 15.0;
    let marks: Vec<ChartMark> = [1usize, 30, 31, 32, 33]
        .iter()
        .map(|&ply| ChartMark {
            ply,
            label: format!("{ply}. c3 −{}", 10 + ply),
        })
        .collect();
    for lang in Lang::ALL {
        let svg = score_chart_svg(&scores, &marks, lang);
        let texts = plot_texts(&svg);
        let labels = texts.iter().filter(|t| t.3.contains('−')).count();
        assert_eq!(labels, 5, "every label has a place: {texts:?}");
        // Boxes as wide as 0.5 mm a character at 2.8 mm (narrower than any real font): a
        // clear overlap of the printed text, not of the generous boxes the chart keeps.
        let boxes: Vec<(f64, f64, f64)> = texts
            .iter()
            .map(|(x, y, anchor, text)| {
                let w = text.chars().count() as f64 * 1.4;
                let left = match anchor.as_str() {
                    "start" => *x,
                    "middle" => x - w / 2.0,
                    _ => x - w,
                };
                (left, left + w, *y)
            })
            .collect();
        for (i, a) in boxes.iter().enumerate() {
            for (j, b) in boxes.iter().enumerate().skip(i + 1) {
                let apart = a.1 <= b.0 || b.1 <= a.0 || (a.2 - b.2).abs() >= 2.8;
                assert!(apart, "{:?} and {:?} overlap", texts[i], texts[j]);
            }
        }
    }
}
