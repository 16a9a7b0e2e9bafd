//! The NBoard protocol, as spoken by the NBoard GUI to Ntest and Edax.
//!
//! Commands from the GUI (one a line; an unknown command is ignored, as the protocol asks):
//!
//! | command | what the engine does |
//! |---|---|
//! | `nboard VERSION` | enters NBoard mode (versions 1 and 2 are spoken alike) |
//! | `set depth N` | plays at level `N` (clamped to 1–30; the level's midgame depth is `N`); replies `set myname reversiN` |
//! | `set game GGF` | all further commands relate to the end of this game (any variant the GGF record names) |
//! | `set contempt N` | accepted and stored; the engine has no contempt, so it changes nothing |
//! | `move SQ[/EVAL[/TIME]]`, or a bare `SQ` | plays the move (`PA` is a pass) |
//! | `hint N` | `status …`, then `search PV EVAL 0 DEPTH` for about the `N` best moves, then `status` |
//! | `go` | `status …`, `nodestats NODES SECONDS` as the search deepens, `=== MOVE/EVAL/TIME`, `status` (the board is **not** changed: the GUI sends `move`) |
//! | `ping N` | stops any search at once and replies `pong N` after all output of earlier commands |
//! | `learn` | replies `learned` (there is no book to add the game to) |
//! | `analyze` | `status …`, then `analysis PLY EVAL` for each position of the game from the last back to the start (EVAL for the side to move there), then `status` |
//! | `quit` | ends the session |
//!
//! Moves are written in upper case (`F5`), a pass as `PA`; evaluations in discs for the side to
//! move, with two decimals. A command that cannot be carried out (a GGF record that does not
//! parse, an illegal move) is answered with `status Error: …` and otherwise ignored; so is a
//! line that is not UTF-8 text or is longer than [`MAX_LINE_BYTES`] (1 MiB: a `set game` line
//! carries a whole GGF record, and the GGF reader takes time linear in its length).
//!
//! The input is read on a second thread, so that a `ping` stops a search in progress: the pong
//! still comes after the reply of the interrupted command, which is what the GUI relies on to know
//! which output belongs to the position it has now.
//! A session made [`NboardSession::with_ponder`] thinks on the opponent's time: after each `go`
//! it searches the position after its move until the next command arrives.

use crate::lines::{lines, Line, MAX_LINE_BYTES};
use crate::think::{best_moves, ponder, think, EngineSettings, Reach};
use reversi_core::format::ggf::parse_ggf;
use reversi_core::quote::{clip, QUOTE_CHARS};
use reversi_core::{AnyPosition, Bits, Game, Move, Rules};
use reversi_engine::levels::MAX_LEVEL;
use reversi_engine::{Engine, ResourceError, SearchKind};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::Instant;

/// One NBoard session: a game, an engine and its settings.
pub struct NboardSession {
    settings: EngineSettings,
    engine: Engine,
    game: Game,
    contempt: f64,
    version: u32,
    name: String,
    /// Whether to think on the opponent's time.
    ponder: bool,
    /// The position after the move `go` chose, to ponder on until the next command.
    ponder_at: Option<AnyPosition>,
    /// How far the last `go` searched.
    reach: Option<Reach>,
}

/// Whether a search should stop, shared with the input thread: `ping` and `quit` raise it while
/// they wait in the queue; the session lowers it when it has answered the last of them.
struct Interrupts {
    pending: Mutex<usize>,
    stop: AtomicBool,
}

impl Interrupts {
    fn raise(&self) {
        let mut p = self.pending.lock().expect("not poisoned");
        *p += 1;
        self.stop.store(true, Ordering::SeqCst);
    }

    fn lower(&self) {
        let mut p = self.pending.lock().expect("not poisoned");
        *p = p.saturating_sub(1);
        if *p == 0 {
            self.stop.store(false, Ordering::SeqCst);
        }
    }
}

fn interrupts(line: &str) -> bool {
    matches!(line.split_whitespace().next(), Some("ping" | "quit"))
}

impl NboardSession {
    /// A session for standard Othello with an engine made from `settings`.
    pub fn new(settings: EngineSettings) -> Result<NboardSession, ResourceError> {
        let engine = settings.engine()?;
        Ok(NboardSession {
            settings,
            engine,
            game: Game::new(Rules::othello()),
            contempt: 0.0,
            version: 0,
            name: "reversi".into(),
            ponder: false,
            ponder_at: None,
            reach: None,
        })
    }

    /// The same, thinking on the opponent's time when `on`: after each `go`, the session
    /// searches the position after the move it chose (without a time limit) until the next
    /// command comes, so that its next search starts from a warm table.
    pub fn with_ponder(mut self, on: bool) -> NboardSession {
        self.ponder = on;
        self
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// How far the last `go`'s search went (`None` before the first).
    pub fn last_reach(&self) -> Option<Reach> {
        self.reach
    }

    /// The contempt set by `set contempt`.
    pub fn contempt(&self) -> f64 {
        self.contempt
    }

    /// The protocol version the GUI announced with `nboard`.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The playing level.
    pub fn level(&self) -> u32 {
        self.settings.level
    }

    /// Reads commands until `quit` or the end of the input and answers them, flushing after every
    /// line. The input is read on a second thread (so that `ping` can stop a search); `R` must
    /// therefore be [`Send`].
    pub fn run<R: BufRead + Send, W: Write>(&mut self, input: R, mut output: W) -> io::Result<()> {
        let flags = Interrupts {
            pending: Mutex::new(0),
            stop: AtomicBool::new(false),
        };
        let (tx, rx) = mpsc::channel::<io::Result<Line>>();
        std::thread::scope(|scope| {
            let flags = &flags;
            scope.spawn(move || {
                for line in lines(input, MAX_LINE_BYTES) {
                    let stop_reading = match &line {
                        Ok(Ok(l)) => {
                            if interrupts(l) {
                                flags.raise();
                            }
                            l.split_whitespace().next() == Some("quit")
                        }
                        Ok(Err(_)) => false,
                        Err(_) => true,
                    };
                    if tx.send(line).is_err() || stop_reading {
                        return;
                    }
                }
            });
            let mut pending = None;
            while let Ok(line) = pending.take().map_or_else(|| rx.recv(), Ok) {
                let line = match line? {
                    Ok(l) => l,
                    Err(e) => {
                        send(&mut output, &format!("status Error: {e}"))?;
                        continue;
                    }
                };
                let was_interrupt = interrupts(&line);
                let go_on = self.handle(&line, &flags.stop, &mut output)?;
                if was_interrupt {
                    flags.lower();
                }
                if !go_on {
                    break;
                }
                if let Some(pos) = self.ponder_at.take() {
                    // The opponent's turn: think about it until the next command comes.
                    match ponder(&self.engine, &pos, &self.limits(), || rx.recv()) {
                        Ok(line) => pending = Some(line),
                        Err(_) => break,
                    }
                }
            }
            // The input thread ends at `quit` or the end of its input.
            Ok(())
        })
    }

    /// Carries out one command, writing its replies; returns false after `quit`. `stop` ends a
    /// search early when another thread raises it.
    pub fn handle<W: Write>(&mut self, line: &str, stop: &AtomicBool, out: &mut W) -> io::Result<bool> {
        let line = line.trim();
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        match cmd {
            "" => {}
            "nboard" => self.version = rest.parse().unwrap_or(1),
            "set" => self.set(rest, out)?,
            "move" => self.user_move(rest, out)?,
            "hint" => self.hint(rest, stop, out)?,
            "go" => self.go(stop, out)?,
            "ping" => send(out, &format!("pong {rest}"))?,
            "learn" => send(out, "learned")?,
            "analyze" => self.analyze(stop, out)?,
            "quit" => return Ok(false),
            // NBoard 1.1 sends a bare move instead of `move F5`.
            _ if looks_like_move(cmd) => self.user_move(cmd, out)?,
            _ => {}
        }
        Ok(true)
    }

    fn set<W: Write>(&mut self, rest: &str, out: &mut W) -> io::Result<()> {
        let (what, value) = match rest.split_once(char::is_whitespace) {
            Some((w, v)) => (w, v.trim()),
            None => (rest, ""),
        };
        match what {
            "depth" => match value.parse::<u32>() {
                Ok(d) => {
                    self.settings.level = d.clamp(1, MAX_LEVEL);
                    send(out, &format!("set myname {}{}", self.name, self.settings.level))?;
                }
                Err(_) => send(
                    out,
                    &format!("status Error: `{}` is not a depth", clip(value, QUOTE_CHARS)),
                )?,
            },
            "game" => match parse_ggf(value)
                .map_err(|e| e.to_string())
                .and_then(|g| {
                    g.into_iter()
                        .next()
                        .ok_or_else(|| "no game in the record".to_string())
                })
                .and_then(|g| g.to_game().map_err(|e| e.to_string()))
            {
                Ok(game) => self.game = game,
                Err(e) => send(out, &format!("status Error: cannot read the game: {e}"))?,
            },
            "contempt" => match value.parse::<f64>() {
                Ok(c) if c.is_finite() => self.contempt = c,
                _ => send(
                    out,
                    &format!("status Error: `{}` is not a contempt", clip(value, QUOTE_CHARS)),
                )?,
            },
            _ => {}
        }
        Ok(())
    }

    fn user_move<W: Write>(&mut self, text: &str, out: &mut W) -> io::Result<()> {
        let token = text.split('/').next().unwrap_or("").trim();
        let mv = match parse_move(token) {
            Some(m) => m,
            None => {
                return send(
                    out,
                    &format!("status Error: `{}` is not a move", clip(token, QUOTE_CHARS)),
                )
            }
        };
        if let Err(e) = self.game.play(mv) {
            return send(out, &format!("status Error: {e}"));
        }
        Ok(())
    }

    fn limits(&self) -> reversi_engine::Limits {
        let pos = self.game.position();
        self.settings.limits(
            pos.empties().count(),
            None,
            std::time::Duration::ZERO,
            self.game.ply(),
        )
    }

    fn go<W: Write>(&mut self, stop: &AtomicBool, out: &mut W) -> io::Result<()> {
        let pos = *self.game.position();
        if pos.is_game_over() {
            return send(out, "status Error: the game is over");
        }
        send(out, &format!("status {} is thinking", self.name))?;
        let start = Instant::now();
        let limits = self.limits();
        let mut failed = None;
        let r = think(&self.engine, &pos, &limits, stop, &mut |p| {
            if failed.is_none() {
                let line = format!("nodestats {} {:.2}", p.nodes, p.elapsed.as_secs_f64());
                failed = send(out, &line).err();
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        self.reach = Some(Reach::of(&r, &limits));
        let mv = r.best.unwrap_or(Move::Pass);
        let secs = start.elapsed().as_secs_f64();
        if self.ponder {
            let mut next = pos;
            if next.play(mv).is_ok() {
                self.ponder_at = Some(next);
            }
        }
        if mv == Move::Pass {
            send(out, &format!("=== PA//{secs:.2}"))?;
        } else {
            send(
                out,
                &format!("=== {}/{:.2}/{secs:.2}", move_name(mv), r.score as f64),
            )?;
        }
        send(out, &format!("status {} is waiting", self.name))
    }

    fn hint<W: Write>(&mut self, rest: &str, stop: &AtomicBool, out: &mut W) -> io::Result<()> {
        let n: usize = rest.parse().unwrap_or(1).max(1);
        let pos = *self.game.position();
        if pos.is_game_over() {
            return send(out, "status");
        }
        send(out, &format!("status {} is thinking", self.name))?;
        let ranked = best_moves(&self.engine, &pos, &self.limits(), n, stop);
        for m in &ranked {
            let pv: String = m.pv.iter().map(|&mv| move_name(mv)).collect();
            let depth = match m.kind {
                SearchKind::Midgame | SearchKind::Book => m.depth.to_string(),
                _ => format!("{}@100%", pos.empties().count()),
            };
            send(out, &format!("search {pv} {:.2} 0 {depth}", m.score as f64))?;
        }
        send(out, "status")
    }

    fn analyze<W: Write>(&mut self, stop: &AtomicBool, out: &mut W) -> io::Result<()> {
        send(out, &format!("status {} is analysing", self.name))?;
        for ply in (0..=self.game.ply()).rev() {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let pos: AnyPosition = *self.game.position_at(ply).expect("a played ply");
            let limits = self
                .settings
                .limits(pos.empties().count(), None, std::time::Duration::ZERO, ply);
            let r = think(&self.engine, &pos, &limits, stop, &mut |_| {});
            send(out, &format!("analysis {ply} {:.2}", r.score as f64))?;
        }
        send(out, "status")
    }
}

fn send<W: Write>(out: &mut W, line: &str) -> io::Result<()> {
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

fn looks_like_move(s: &str) -> bool {
    let token = s.split('/').next().unwrap_or("");
    token.len() <= 3 && parse_move(token).is_some()
}

/// Reads a move as NBoard writes it: `F5`, `f5`, or `PA` (also `pass`) for a pass.
pub fn parse_move(s: &str) -> Option<Move> {
    if s.eq_ignore_ascii_case("pa") || s.eq_ignore_ascii_case("pass") {
        return Some(Move::Pass);
    }
    reversi_core::Square::parse(s).map(Move::Play)
}

/// Writes a move as NBoard reads it: `F5`, or `PA` for a pass.
pub fn move_name(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_string().to_uppercase(),
        Move::Pass => "PA".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::format::ggf::{write_ggf, GameInfo, GgfGame};

    fn session() -> NboardSession {
        NboardSession::new(EngineSettings {
            level: 2,
            hash_mib: 4,
            ..EngineSettings::default()
        })
        .unwrap()
    }

    fn script(s: &mut NboardSession, input: &str) -> Vec<String> {
        let mut out = Vec::new();
        s.run(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn the_example_session() {
        let mut s = session();
        let ggf = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";
        let out = script(
            &mut s,
            &format!("nboard 2\nset game {ggf}\nset depth 3\nping 1\ngo\n"),
        );
        assert_eq!(s.version(), 2);
        assert_eq!(s.game().transcript(), "f5f6d3c5e6f7e7f4");
        assert_eq!(out[0], "set myname reversi3");
        assert_eq!(out[1], "pong 1");
        assert_eq!(out[2], "status reversi is thinking");
        assert!(
            out[3..out.len() - 2].iter().all(|l| l.starts_with("nodestats ")),
            "{out:?}"
        );
        let reply = &out[out.len() - 2];
        let mv = reply.strip_prefix("=== ").unwrap().split('/').next().unwrap();
        let mv = parse_move(mv).unwrap();
        assert!(s.game().position().check(mv).is_ok(), "{reply}");
        assert_eq!(out.last().unwrap(), "status reversi is waiting");
        // `go` does not change the board.
        assert_eq!(s.game().ply(), 8);
    }

    #[test]
    fn moves_hints_learn_and_errors() {
        let mut s = session();
        let out = script(
            &mut s,
            "nboard 1\nset depth 2\nmove F5\nd6/1.00/0.5\nmove z9\nmove A1\nset game nonsense\nset depth x\nfrobnicate 3\nhint 3\nlearn\nset contempt 1.5\n",
        );
        assert_eq!(s.game().transcript(), "f5d6");
        assert_eq!(s.contempt(), 1.5);
        assert_eq!(out[0], "set myname reversi2");
        assert_eq!(out[1], "status Error: `z9` is not a move");
        assert!(out[2].starts_with("status Error: move 3 (a1)"), "{}", out[2]);
        assert!(
            out[3].starts_with("status Error: cannot read the game"),
            "{}",
            out[3]
        );
        assert_eq!(out[4], "status Error: `x` is not a depth");
        assert_eq!(out[5], "status reversi is thinking");
        let searches: Vec<&String> = out.iter().filter(|l| l.starts_with("search ")).collect();
        assert_eq!(searches.len(), 3, "{out:?}");
        let mut last = f64::INFINITY;
        for l in searches {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 5, "{l}");
            let first = parse_move(&f[1][..2]).unwrap();
            assert!(s.game().position().check(first).is_ok(), "{l}");
            let eval: f64 = f[2].parse().unwrap();
            assert!(eval <= last, "best first: {l}");
            last = eval;
            assert_eq!(f[3], "0");
        }
        assert_eq!(out[out.len() - 2], "status");
        assert_eq!(out[out.len() - 1], "learned");
    }

    #[test]
    fn analyze_reports_every_position() {
        let mut s = session();
        let game = Game::from_transcript(Rules::othello(), "f5d6c3d3c4").unwrap();
        let ggf = write_ggf(&GgfGame::from_game(&game, GameInfo::default()));
        let out = script(
            &mut s,
            &format!("nboard 2\nset depth 1\nset game {ggf}\nanalyze\n"),
        );
        let plies: Vec<usize> = out
            .iter()
            .filter_map(|l| l.strip_prefix("analysis "))
            .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(plies, [5, 4, 3, 2, 1, 0]);
        assert_eq!(out.last().unwrap(), "status");
    }

    #[test]
    fn ping_interrupts_a_long_search() {
        // No book: the move is searched, not looked up.
        let mut s = NboardSession::new(EngineSettings {
            level: 30,
            hash_mib: 4,
            book: None,
            ..EngineSettings::default()
        })
        .unwrap();
        // A pipe: the GUI writes `go`, waits, then pings.
        let (reader, feeder) =
            crate::test_io::paced(&[(b"nboard 2\nset depth 30\ngo\n", 300), (b"ping 7\nquit\n", 0)]);
        let mut out = Vec::new();
        s.run(io::BufReader::new(reader), &mut out).unwrap();
        feeder.join().unwrap();
        // Depth 30 from the start takes hours: the ping cut it short.
        let reach = s.last_reach().expect("a search");
        assert!(
            reach.nodes > 0 && reach.cut_short(),
            "the ping stopped the search: {reach:?}"
        );
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let reply = lines.iter().position(|l| l.starts_with("=== ")).expect("a move");
        let pong = lines.iter().position(|l| *l == "pong 7").expect("a pong");
        assert!(reply < pong, "the move comes before the pong: {lines:?}");
        assert_eq!(lines.last(), Some(&"pong 7"));
    }

    #[test]
    fn pondering_ends_when_the_next_command_comes() {
        let mut s = NboardSession::new(EngineSettings {
            time_per_move: Some(std::time::Duration::from_millis(50)),
            hash_mib: 4,
            book: None,
            ..EngineSettings::default()
        })
        .unwrap()
        .with_ponder(true);
        // After `go` the session ponders, without a time limit, until the next line.
        // (The pondering search has no end of its own: that `run` returns shows the ping ended it.)
        let (reader, feeder) = crate::test_io::paced(&[(b"nboard 2\ngo\n", 500), (b"ping 3\nquit\n", 0)]);
        let mut out = Vec::new();
        s.run(io::BufReader::new(reader), &mut out).unwrap();
        feeder.join().unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let reply = lines.iter().position(|l| l.starts_with("=== ")).expect("a move");
        let pong = lines.iter().position(|l| *l == "pong 3").expect("a pong");
        assert!(reply < pong, "{lines:?}");
        // The GUI plays the move: the session's board has not moved by itself.
        assert_eq!(s.game().ply(), 0);
    }

    #[test]
    fn unreadable_lines_get_an_error_and_the_session_goes_on() {
        let mut s = session();
        let mut input = b"nboard 2\n\xff\xfe\nset depth 3\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', crate::lines::MAX_LINE_BYTES + 10));
        input.extend_from_slice(b"\nping 5\n");
        let mut out = Vec::new();
        s.run(&input[..], &mut out).unwrap();
        let out: Vec<String> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(
            out,
            [
                "status Error: the line is not UTF-8 text (byte 1)",
                "set myname reversi3",
                "status Error: the line is longer than 1048576 bytes",
                "pong 5"
            ]
        );
    }

    #[test]
    fn a_game_with_many_tags_is_read() {
        // 100,000 tags took over 30 s when each tag was checked against every earlier one (the
        // reader's pass is counted in `reversi_core::format::ggf`'s tests).
        let tags: String = (0..100_000).map(|i| format!("T{i}[]")).collect();
        let line = format!("set game (;GM[Othello]{tags}B[f5];)\nping 1\n");
        let mut s = session();
        let out = script(&mut s, &line);
        assert_eq!(out, ["pong 1"]);
        assert_eq!(s.game().transcript(), "f5");
    }

    #[test]
    fn bad_numbers_are_refused() {
        let mut s = session();
        let out = script(
            &mut s,
            "set contempt nan\nset contempt 1e999\nset depth 99999999999999999999\n",
        );
        assert_eq!(
            out,
            [
                "status Error: `nan` is not a contempt",
                "status Error: `1e999` is not a contempt",
                "status Error: `99999999999999999999` is not a depth"
            ]
        );
        let long = "9".repeat(10_000);
        let out = script(&mut s, &format!("move {long}\n"));
        assert!(out[0].len() < 100, "the bad token is cut: {}", out[0].len());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// Any lines at all (but `quit`) leave the session answering.
        #[test]
        fn random_lines_keep_the_session_alive(lines in proptest::collection::vec(crate::test_io::arbitrary_line(NBOARD_WORDS), 0..12)) {
            let mut s = session();
            let mut input = Vec::new();
            for l in &lines {
                input.extend_from_slice(l);
                input.push(b'\n');
            }
            input.extend_from_slice(b"ping 424242\n");
            let mut out = Vec::new();
            s.run(&input[..], &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            proptest::prop_assert!(text.ends_with("pong 424242\n"), "{}", text);
        }
    }

    const NBOARD_WORDS: &[&str] = &[
        "nboard",
        "set depth",
        "set game",
        "set contempt",
        "move",
        "hint",
        "go",
        "ping",
        "learn",
        "analyze",
        "F5",
        "d6",
        "PA",
        "(;GM[Othello]B[f5];)",
        "(;GM[Othello]VA[xot]BO[8 -];)",
    ];
}
