//! Results and the crosstable: points (win 1, draw ½), disc totals, the Brightwell quotient and
//! the Elo difference of each pair with its 95 % interval.

use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The result of one finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's key (see `GameSpec::key`).
    pub key: String,
    /// Round.
    pub round: usize,
    /// Black's player index.
    pub black: usize,
    /// White's player index.
    pub white: usize,
    /// Opening index.
    pub opening: usize,
    /// Every move from the standard start, opening included, as a transcript.
    pub moves: String,
    /// Black's final disc count (empties to the winner, RULES.md §1; adjusted on a forfeit).
    pub black_discs: u32,
    /// White's final disc count.
    pub white_discs: u32,
    /// Black's points: 1, ½ or 0.
    pub black_points: f64,
    /// Why the game ended early: who forfeited and how.
    pub forfeit: Option<String>,
    /// The GGF record's path, relative to the tournament folder.
    pub file: String,
    /// Seconds left on black's and white's clocks at the end, when the game had a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_left: Option<[f64; 2]>,
}

/// The score of one pair from the first player's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairStats {
    /// First player.
    pub a: usize,
    /// Second player.
    pub b: usize,
    /// Games between them.
    pub games: usize,
    /// `a`'s wins, draws and losses.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// `a`'s losses.
    pub losses: usize,
    /// `a`'s points.
    pub points: f64,
    /// Elo difference `a` − `b` from the score (infinite for a clean sweep).
    pub elo: f64,
    /// Lower end of the 95 % interval.
    pub elo_low: f64,
    /// Upper end of the 95 % interval.
    pub elo_high: f64,
    /// `a`'s discs in these games.
    #[serde(default)]
    pub discs: u32,
    /// `b`'s discs in these games.
    #[serde(default)]
    pub opp_discs: u32,
}

/// A round a player sat out (a pairing bye, or a late entrant's half point).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bye {
    /// Player index.
    pub player: usize,
    /// Round.
    pub round: usize,
    /// The points it gave.
    pub points: f64,
}

/// One player's line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// Player index.
    pub player: usize,
    /// Name.
    pub name: String,
    /// Games played.
    pub games: usize,
    /// Points.
    pub points: f64,
    /// Discs at the end of all the player's games.
    pub discs: u32,
    /// Brightwell quotient: discs + 6 × the points of the opponent of every game.
    pub bq: f64,
    /// Games lost by forfeit.
    pub forfeits: usize,
    /// Rounds sat out.
    #[serde(default)]
    pub byes: usize,
}

/// The whole table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Crosstable {
    /// Players' names, by index.
    pub names: Vec<String>,
    /// Standings, best first (points, then BQ, then discs).
    pub standings: Vec<Standing>,
    /// Every pair that met, in index order (`a < b`).
    pub pairs: Vec<PairStats>,
    /// Games counted.
    pub games: usize,
    /// Games ended by a forfeit: key and reason.
    pub forfeits: Vec<(String, String)>,
}

/// Elo difference for a score fraction (±∞ at 1 and 0).
pub fn elo(p: f64) -> f64 {
    if p >= 1.0 {
        f64::INFINITY
    } else if p <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// Elo difference and its 95 % interval from per-game scores (1, ½, 0) of one side. The interval
/// is the Wilson score interval of the mean score (a draw counts as half a win), mapped through
/// [`elo`]: unlike the plain normal approximation it stays informative after a clean sweep
/// (4/4 gives about +7 … +∞).
pub fn elo_interval(scores: &[f64]) -> (f64, f64, f64) {
    if scores.is_empty() {
        return (0.0, f64::NEG_INFINITY, f64::INFINITY);
    }
    let n = scores.len() as f64;
    let p = scores.iter().sum::<f64>() / n;
    let z2 = 1.96f64 * 1.96;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = 1.96 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let clamp = |x: f64| {
        if x < 1e-12 {
            0.0
        } else if x > 1.0 - 1e-12 {
            1.0
        } else {
            x
        }
    };
    (elo(p), elo(clamp(centre - half)), elo(clamp(centre + half)))
}

impl Crosstable {
    /// The table of `games` among players `names`.
    pub fn new(names: &[String], games: &[GameRecord]) -> Crosstable {
        Crosstable::with_byes(names, games, &[])
    }

    /// The table of `games` and `byes` among players `names`. A bye adds its points, and to the
    /// Brightwell quotient 32 + 6 × the player's own points (RULES.md §6); it adds no discs.
    pub fn with_byes(names: &[String], games: &[GameRecord], byes: &[Bye]) -> Crosstable {
        let n = names.len();
        let mut points = vec![0.0; n];
        let mut discs = vec![0u32; n];
        let mut count = vec![0usize; n];
        let mut forfeits_of = vec![0usize; n];
        let mut per_pair: Vec<Vec<Vec<f64>>> = vec![vec![Vec::new(); n]; n];
        let mut pair_discs = vec![vec![0u32; n]; n];
        let mut byes_of = vec![0usize; n];
        let mut forfeits = Vec::new();
        for b in byes {
            points[b.player] += b.points;
            byes_of[b.player] += 1;
        }
        for g in games {
            let (b, w) = (g.black, g.white);
            points[b] += g.black_points;
            points[w] += 1.0 - g.black_points;
            discs[b] += g.black_discs;
            discs[w] += g.white_discs;
            count[b] += 1;
            count[w] += 1;
            per_pair[b][w].push(g.black_points);
            per_pair[w][b].push(1.0 - g.black_points);
            pair_discs[b][w] += g.black_discs;
            pair_discs[w][b] += g.white_discs;
            if let Some(reason) = &g.forfeit {
                forfeits.push((g.key.clone(), reason.clone()));
                let loser = if g.black_points < 0.5 { b } else { w };
                forfeits_of[loser] += 1;
            }
        }
        let mut bq: Vec<f64> = discs.iter().map(|&d| d as f64).collect();
        for g in games {
            bq[g.black] += 6.0 * points[g.white];
            bq[g.white] += 6.0 * points[g.black];
        }
        for b in byes {
            bq[b.player] += 32.0 + 6.0 * points[b.player];
        }
        let mut standings: Vec<Standing> = (0..n)
            .map(|p| Standing {
                player: p,
                name: names[p].clone(),
                games: count[p],
                points: points[p],
                discs: discs[p],
                bq: bq[p],
                forfeits: forfeits_of[p],
                byes: byes_of[p],
            })
            .collect();
        standings.sort_by(|x, y| {
            y.points
                .partial_cmp(&x.points)
                .unwrap()
                .then(y.bq.partial_cmp(&x.bq).unwrap())
                .then(y.discs.cmp(&x.discs))
                .then(x.player.cmp(&y.player))
        });
        let mut pairs = Vec::new();
        for (a, row) in per_pair.iter().enumerate() {
            for (b, s) in row.iter().enumerate().skip(a + 1) {
                if s.is_empty() {
                    continue;
                }
                let (e, lo, hi) = elo_interval(s);
                pairs.push(PairStats {
                    a,
                    b,
                    games: s.len(),
                    wins: s.iter().filter(|&&x| x == 1.0).count(),
                    draws: s.iter().filter(|&&x| x == 0.5).count(),
                    losses: s.iter().filter(|&&x| x == 0.0).count(),
                    points: s.iter().sum(),
                    elo: e,
                    elo_low: lo,
                    elo_high: hi,
                    discs: pair_discs[a][b],
                    opp_discs: pair_discs[b][a],
                });
            }
        }
        Crosstable {
            names: names.to_vec(),
            standings,
            pairs,
            games: games.len(),
            forfeits,
        }
    }

    /// `a`'s points, the games, and the discs of `a` and of `b` in the games between them.
    pub fn pair(&self, a: usize, b: usize) -> Option<(f64, usize, u32, u32)> {
        let (x, y) = (a.min(b), a.max(b));
        let p = self.pairs.iter().find(|p| p.a == x && p.b == y)?;
        Some(if a == x {
            (p.points, p.games, p.discs, p.opp_discs)
        } else {
            (p.games as f64 - p.points, p.games, p.opp_discs, p.discs)
        })
    }

    fn grid(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let mut header = vec!["#".into(), "player".into()];
        header.extend((1..=self.standings.len()).map(|i| i.to_string()));
        header.extend(["points", "games", "discs", "BQ"].map(String::from));
        let rows = self
            .standings
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut row = vec![(i + 1).to_string(), s.name.clone()];
                for o in &self.standings {
                    row.push(if o.player == s.player {
                        "—".into()
                    } else {
                        match self.pair(s.player, o.player) {
                            Some((pts, g, d, od)) => format!("{}/{g} {d}–{od}", half(pts)),
                            None => "".into(),
                        }
                    });
                }
                row.push(half(s.points));
                row.push(s.games.to_string());
                row.push(s.discs.to_string());
                row.push(format!("{:.0}", s.bq));
                row
            })
            .collect();
        (header, rows)
    }

    fn pair_rows(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let header = ["pair", "games", "+ = −", "score", "Elo diff", "95 % interval"]
            .map(String::from)
            .to_vec();
        let rank = |p: usize| self.standings.iter().position(|s| s.player == p).unwrap_or(p);
        let mut pairs: Vec<&PairStats> = self.pairs.iter().collect();
        pairs.sort_by_key(|p| (rank(p.a).min(rank(p.b)), rank(p.a).max(rank(p.b))));
        let rows = pairs
            .into_iter()
            .map(|p| {
                // Each pair from the side of the better placed player.
                let flip = rank(p.b) < rank(p.a);
                let (a, b, w, l, pts, e, lo, hi) = if flip {
                    let pts = p.games as f64 - p.points;
                    (p.b, p.a, p.losses, p.wins, pts, -p.elo, -p.elo_high, -p.elo_low)
                } else {
                    (p.a, p.b, p.wins, p.losses, p.points, p.elo, p.elo_low, p.elo_high)
                };
                vec![
                    format!("{} – {}", self.names[a], self.names[b]),
                    p.games.to_string(),
                    format!("{w} {} {l}", p.draws),
                    format!("{}/{}", half(pts), p.games),
                    elo_text(e),
                    format!("{} … {}", elo_text(lo), elo_text(hi)),
                ]
            })
            .collect();
        (header, rows)
    }

    /// The table as plain text with aligned columns.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let (h, rows) = self.grid();
        s.push_str(&aligned(&h, &rows));
        s.push('\n');
        let (h, rows) = self.pair_rows();
        s.push_str(&aligned(&h, &rows));
        for (key, why) in &self.forfeits {
            let _ = writeln!(s, "\nforfeit {key}: {why}");
        }
        s
    }

    /// The table as Markdown.
    pub fn to_markdown(&self) -> String {
        self.to_markdown_titled(None)
    }

    /// The table as Markdown under a level-one heading `title`, if given.
    pub fn to_markdown_titled(&self, title: Option<&str>) -> String {
        let mut s = title
            // A `#` in a heading may close it: escaped there too.
            .map(|t| format!("# {}\n\n", md_escape(t).replace('#', "\\#")))
            .unwrap_or_default();
        let _ = write!(s, "## Crosstable ({} games)\n\n", self.games);
        let (h, rows) = self.grid();
        s.push_str(&markdown(&h, &rows));
        s.push_str("\nCells: points/games of the row player against the column player (win 1, draw ½) and the discs of each. ");
        s.push_str("BQ: Brightwell quotient = discs + 6 × the points of the opponent of every game (a bye: 32 + 6 × own points).\n\n");
        s.push_str("## Pairs\n\n");
        let (h, rows) = self.pair_rows();
        s.push_str(&markdown(&h, &rows));
        if !self.forfeits.is_empty() {
            s.push_str("\n## Forfeits\n\n");
            for (key, why) in &self.forfeits {
                let _ = writeln!(s, "- {}: {}", md_escape(key), md_escape(why));
            }
        }
        s
    }

    /// The table as a standalone HTML page.
    pub fn to_html(&self) -> String {
        self.to_html_titled("Crosstable")
    }

    /// The table as a standalone HTML page titled `title` (escaped here).
    pub fn to_html_titled(&self, title: &str) -> String {
        let mut s = format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n\
<style>body{{font-family:sans-serif}}table{{border-collapse:collapse;margin:1em 0}}\
td,th{{border:1px solid #999;padding:.2em .6em;text-align:right}}td:nth-child(2){{text-align:left}}</style>\n\
</head><body>\n",
            escape(title)
        );
        if title != "Crosstable" {
            let _ = writeln!(s, "<h1>{}</h1>", escape(title));
        }
        let _ = writeln!(s, "<h2>Crosstable ({} games)</h2>", self.games);
        let (h, rows) = self.grid();
        s.push_str(&html_table(&h, &rows));
        s.push_str("<p>Cells: points/games of the row player against the column player (win 1, draw ½) and the discs of each. BQ: Brightwell quotient.</p>\n<h2>Pairs</h2>\n");
        let (h, rows) = self.pair_rows();
        s.push_str(&html_table(&h, &rows));
        if !self.forfeits.is_empty() {
            s.push_str("<h2>Forfeits</h2>\n<ul>\n");
            for (key, why) in &self.forfeits {
                let _ = writeln!(s, "<li><code>{}</code>: {}</li>", escape(key), escape(why));
            }
            s.push_str("</ul>\n");
        }
        s.push_str("</body></html>\n");
        s
    }
}

/// Points with a half as `½`: `3½`, `½`, `4`.
pub fn half(p: f64) -> String {
    let whole = p.floor();
    let frac = p - whole;
    if frac.abs() < 1e-9 {
        format!("{whole:.0}")
    } else if whole == 0.0 {
        "½".into()
    } else {
        format!("{whole:.0}½")
    }
}

fn elo_text(e: f64) -> String {
    if e == f64::INFINITY {
        "+∞".into()
    } else if e == f64::NEG_INFINITY {
        "−∞".into()
    } else {
        // `+ 0.0` turns a negative zero into zero.
        format!("{:+.0}", e + 0.0)
    }
}

fn aligned(header: &[String], rows: &[Vec<String>]) -> String {
    let cols = header.len();
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([header[i].chars().count()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..cols).map(width).collect();
    let line = |cells: &[String]| {
        let mut l = String::new();
        for (i, c) in cells.iter().enumerate() {
            let pad = widths[i] - c.chars().count();
            if header[i] == "player" || header[i] == "pair" {
                l.push_str(c);
                l.push_str(&" ".repeat(pad));
            } else {
                l.push_str(&" ".repeat(pad));
                l.push_str(c);
            }
            l.push_str("  ");
        }
        l.trim_end().to_string() + "\n"
    };
    let mut s = line(header);
    s.push_str(&"-".repeat(widths.iter().sum::<usize>() + 2 * (cols - 1)));
    s.push('\n');
    for r in rows {
        s.push_str(&line(r));
    }
    s
}

fn markdown(header: &[String], rows: &[Vec<String>]) -> String {
    let cells = |r: &[String]| r.iter().map(|c| md_escape(c)).collect::<Vec<_>>().join(" | ");
    let mut s = format!("| {} |\n", cells(header));
    s.push_str(&format!("|{}\n", "---|".repeat(header.len())));
    for r in rows {
        s.push_str(&format!("| {} |\n", cells(r)));
    }
    s
}

/// Text as Markdown shows it literally: the characters that would make emphasis, links, code,
/// HTML or table cells are escaped with a backslash, and line breaks become spaces (a player's
/// or a tournament's name is the user's text; a heading also escapes `#`).
pub fn md_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '!' | '~' | '&' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn html_table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut s = String::from("<table>\n<tr>");
    for h in header {
        let _ = write!(s, "<th>{}</th>", escape(h));
    }
    s.push_str("</tr>\n");
    for r in rows {
        s.push_str("<tr>");
        for c in r {
            let _ = write!(s, "<td>{}</td>", escape(c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</table>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(black: usize, white: usize, bd: u32, wd: u32) -> GameRecord {
        let black_points = match bd.cmp(&wd) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        };
        GameRecord {
            key: format!("{black}-{white}-{bd}"),
            round: 1,
            black,
            white,
            opening: 0,
            moves: String::new(),
            black_discs: bd,
            white_discs: wd,
            black_points,
            forfeit: None,
            file: String::new(),
            clock_left: None,
        }
    }

    #[test]
    fn points_discs_bq_and_elo() {
        let names: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
        let games = [
            rec(0, 1, 40, 24), // A beats B
            rec(1, 0, 32, 32), // draw
            rec(0, 2, 64, 0),  // A beats C
            rec(2, 0, 20, 44), // A beats C
            rec(1, 2, 30, 34), // C beats B
            rec(2, 1, 33, 31), // C beats B
        ];
        let t = Crosstable::new(&names, &games);
        let by = |name: &str| t.standings.iter().find(|s| s.name == name).unwrap().clone();
        let (a, b, c) = (by("A"), by("B"), by("C"));
        assert_eq!((a.points, b.points, c.points), (3.5, 0.5, 2.0));
        assert_eq!(
            (a.discs, b.discs, c.discs),
            (40 + 32 + 64 + 44, 24 + 32 + 30 + 31, 20 + 34 + 33)
        );
        // A met B twice (0.5 points each time) and C twice (2 points each).
        assert_eq!(a.bq, 180.0 + 6.0 * (0.5 + 0.5 + 2.0 + 2.0));
        assert_eq!(b.bq, 117.0 + 6.0 * (3.5 * 2.0 + 2.0 * 2.0));
        assert_eq!(t.standings[0].name, "A");
        assert_eq!(t.standings[2].name, "B");
        let ab = &t.pairs[0];
        assert_eq!(
            (ab.a, ab.b, ab.games, ab.wins, ab.draws, ab.losses),
            (0, 1, 2, 1, 1, 0)
        );
        assert!((ab.elo - elo(0.75)).abs() < 1e-9);
        assert!((ab.elo - 190.85).abs() < 0.01, "{}", ab.elo);
        assert!(ab.elo_low < ab.elo && ab.elo < ab.elo_high);
        let ac = &t.pairs[1];
        assert_eq!(ac.elo, f64::INFINITY);
        let text = t.to_text();
        assert!(text.contains("3½"), "{text}");
        assert!(text.contains("+∞"), "{text}");
        let md = t.to_markdown();
        assert!(
            md.contains("| 1 | A | — | 2/2 108–20 | 1½/2 72–56 | 3½ | 4 | 180 | 210 |"),
            "{md}"
        );
        // Pairs are shown from the better placed player's side, best pairs first.
        assert!(md.contains("| A – C | 2 | 2 0 0 | 2/2 | +∞ |"), "{md}");
        assert!(md.contains("| C – B | 2 | 2 0 0 | 2/2 | +∞ |"), "{md}");
        let html = t.to_html();
        assert!(html.contains("<td>A</td>") && html.ends_with("</html>\n"));
    }

    /// A title (a tournament's name, the user's text) is shown as text in Markdown: nothing in
    /// it makes a link, an image, HTML, a heading or a table cell (issue 51).
    #[test]
    fn markdown_titles_and_cells_are_escaped() {
        assert_eq!(
            md_escape("a_b *c* [x](y) <b> | # !"),
            "a\\_b \\*c\\* \\[x\\](y) \\<b\\> \\| # \\!"
        );
        assert_eq!(md_escape("two\nlines"), "two lines");
        let t = Crosstable::new(&["x|y".to_string(), "<i>z</i>".to_string()], &[rec(0, 1, 40, 24)]);
        let md = t.to_markdown_titled(Some("![pic](http://evil.example/x.png) <script>\n# H"));
        let first = md.lines().next().unwrap();
        assert_eq!(
            first,
            "# \\!\\[pic\\](http://evil.example/x.png) \\<script\\> \\# H"
        );
        assert!(md.contains("x\\|y") && md.contains("\\<i\\>z\\</i\\>"), "{md}");
        assert!(!md.contains("<i>"), "{md}");
    }

    #[test]
    fn a_bye_adds_points_and_32_plus_six_times_own_points() {
        let names: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
        // Round 1: A beats B 40–24, C sits out. Round 2: C beats A 35–29, B sits out.
        let mut g1 = rec(0, 1, 40, 24);
        g1.round = 1;
        let mut g2 = rec(2, 0, 35, 29);
        g2.round = 2;
        let byes = [
            Bye {
                player: 2,
                round: 1,
                points: 1.0,
            },
            Bye {
                player: 1,
                round: 2,
                points: 1.0,
            },
        ];
        let t = Crosstable::with_byes(&names, &[g1, g2], &byes);
        let by = |name: &str| t.standings.iter().find(|s| s.name == name).unwrap().clone();
        let (a, b, c) = (by("A"), by("B"), by("C"));
        assert_eq!((a.points, b.points, c.points), (1.0, 1.0, 2.0));
        assert_eq!((b.byes, c.byes, a.byes), (1, 1, 0));
        // A: 69 discs + 6 × (B's 1 + C's 2).
        assert_eq!(a.bq, 69.0 + 6.0 * 3.0);
        // B: 24 discs + 6 × A's 1, and the bye: 32 + 6 × B's own 1.
        assert_eq!(b.bq, 24.0 + 6.0 + 32.0 + 6.0);
        // C: 35 + 6 × 1, and 32 + 6 × 2.
        assert_eq!(c.bq, 35.0 + 6.0 + 32.0 + 12.0);
        assert_eq!(t.standings[0].name, "C");
        // A and B tie on points; A's BQ (87) beats B's (68).
        assert_eq!(t.standings[1].name, "A");
        assert_eq!(t.pair(0, 1), Some((1.0, 1, 40, 24)));
        assert_eq!(t.pair(1, 0), Some((0.0, 1, 24, 40)));
    }

    #[test]
    fn elo_interval_is_symmetric_at_even() {
        let (e, lo, hi) = elo_interval(&[1.0, 0.0, 1.0, 0.0]);
        assert_eq!(e, 0.0);
        assert!((lo + hi).abs() < 1e-9);
        assert!(hi > 100.0);
        // A clean sweep: the lower end is finite and positive, the upper end infinite.
        let (e, lo, hi) = elo_interval(&[1.0; 4]);
        assert_eq!((e, hi), (f64::INFINITY, f64::INFINITY));
        assert!(lo > 0.0 && lo < 50.0, "{lo}");
        // More games narrow the interval.
        let s20: Vec<f64> = (0..20).map(|i| if i % 4 == 0 { 0.0 } else { 1.0 }).collect();
        let (e20, lo20, hi20) = elo_interval(&s20);
        assert!((e20 - elo(0.75)).abs() < 1e-9);
        assert!(
            lo20 > 0.0 && hi20 < 500.0 && lo20 < e20 && e20 < hi20,
            "{lo20} {hi20}"
        );
        assert_eq!(half(0.5), "½");
        assert_eq!(half(2.0), "2");
    }
}
