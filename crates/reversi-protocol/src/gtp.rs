//! GTP, the Go Text Protocol version 2, spoken for Othello.
//!
//! Each command is one line: an optional numeric id, the command name and its arguments. The
//! reply is `=` (success) or `?` (failure), the id if one was given, a space and the answer, and
//! ends with an empty line: `=12 D3\n\n`, `? illegal move\n\n`. Comments (`#` to the end of the
//! line) and control characters are dropped, and empty lines are ignored.
//!
//! Vertices are Othello squares (`a1` is the top-left corner, RULES.md §1), read in either case and
//! written in upper case (`D3`); `pass` is a pass. Colours are `b`/`black` and `w`/`white`.
//!
//! | command | answer |
//! |---|---|
//! | `protocol_version` | `2` |
//! | `name`, `version` | the engine's name and version |
//! | `known_command NAME` | `true` or `false` |
//! | `list_commands` | every command, one a line |
//! | `quit` | empty; the session ends |
//! | `boardsize N` | empty; `N` = 8 is Othello, another even `N` from 4 to 16 the `nxn:N` variant |
//! | `clear_board` | empty; a new game of the current variant |
//! | `komi X` | empty (accepted and ignored: Othello has no komi) |
//! | `play COLOR VERTEX` | empty; when `COLOR` is not to move and the side to move must pass, the pass is played first |
//! | `genmove COLOR` | the engine's move, played on the board (`pass` when it has none) |
//! | `undo` | empty; takes back the last move (and a forced pass before it) |
//! | `showboard` | the board, drawn on the lines after `=` |
//! | `final_score` | `B+18`, `W+4` or `0` once the game is over |
//! | `time_settings MAIN BYO STONES` | empty; a clock of `MAIN` seconds plus `BYO` seconds per `STONES` moves |
//! | `time_left COLOR SECONDS STONES` | empty; the time left on that side's clock |
//!
//! Extensions (named `reversi-…`, so that they cannot clash with standard commands):
//!
//! | command | answer |
//! |---|---|
//! | `reversi-level N` | empty; plays at level `N` (1–30) from now on |
//! | `reversi-time SECONDS` | empty; thinks this long per move (`0` returns to the level) |
//! | `reversi-variant NAME` | empty; a new game of a rules preset (`othello`, `nxn:6`, `anti`, …) |
//! | `reversi-setboard BOARD SIDE` | empty; the position from a board string (64 characters from `a1`) and the side to move |
//! | `reversi-moves` | the moves played so far as a transcript (passes left out) |
//! | `reversi-legal` | the legal moves of the side to move, space-separated (empty when it must pass) |
//! | `reversi-score` | `B 35 W 29`: the disc counts now |

use crate::think::{think, EngineSettings};
use reversi_core::notation::{parse_board, write_transcript};
use reversi_core::{AnyPosition, Bits, Color, Game, Move, Rules, Square, Variant};
use reversi_engine::levels::MAX_LEVEL;
use reversi_engine::Engine;
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Every command this session knows, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "reversi-level",
    "reversi-time",
    "reversi-variant",
    "reversi-setboard",
    "reversi-moves",
    "reversi-legal",
    "reversi-score",
];

/// The clock set by `time_settings` and `time_left`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Clock {
    main: Duration,
    byo: Duration,
    stones: u32,
    /// Time left per colour, from `time_left`.
    left: [Option<Duration>; 2],
}

/// One GTP session: a game, an engine and its settings.
pub struct GtpSession {
    settings: EngineSettings,
    engine: Engine,
    game: Game,
    clock: Option<Clock>,
    name: String,
    quit: bool,
}

/// The outcome of one command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `=`: the answer (may be empty or span lines).
    Success(String),
    /// `?`: what went wrong.
    Failure(String),
}

type Answer = Result<String, String>;

impl GtpSession {
    /// A session for standard Othello with an engine made from `settings`.
    pub fn new(settings: EngineSettings) -> GtpSession {
        let engine = settings.engine();
        GtpSession {
            settings,
            engine,
            game: Game::new(Rules::othello()),
            clock: None,
            name: "reversi".into(),
            quit: false,
        }
    }

    /// The same, with another name for `name`.
    pub fn with_name(mut self, name: impl Into<String>) -> GtpSession {
        self.name = name.into();
        self
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Whether `quit` was received.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Reads commands until `quit` or the end of the input, answering each one and flushing after
    /// every reply.
    pub fn run<R: BufRead, W: Write>(&mut self, input: R, mut output: W) -> io::Result<()> {
        for line in input.lines() {
            let line = line?;
            if let Some(text) = self.handle_line(&line) {
                output.write_all(text.as_bytes())?;
                output.flush()?;
            }
            if self.quit {
                break;
            }
        }
        Ok(())
    }

    /// Answers one input line; `None` for a line with no command (empty or a comment). The text
    /// returned is the complete reply, ending with the empty line.
    pub fn handle_line(&mut self, line: &str) -> Option<String> {
        let clean: String = line
            .split('#')
            .next()
            .unwrap_or("")
            .chars()
            .map(|c| if c == '\t' { ' ' } else { c })
            .filter(|c| !c.is_control())
            .collect();
        let mut words = clean.split_whitespace().peekable();
        let id = match words.peek() {
            Some(w) if w.chars().all(|c| c.is_ascii_digit()) => {
                let id = w.to_string();
                words.next();
                id
            }
            _ => String::new(),
        };
        let command = words.next()?;
        let args: Vec<&str> = words.collect();
        let (mark, text) = match self.execute(command, &args) {
            Ok(t) => ('=', t),
            Err(t) => ('?', t),
        };
        let sep = if text.is_empty() || text.starts_with('\n') {
            ""
        } else {
            " "
        };
        Some(format!("{mark}{id}{sep}{text}\n\n"))
    }

    /// Runs one command and returns its reply.
    pub fn command(&mut self, command: &str, args: &[&str]) -> Reply {
        match self.execute(command, args) {
            Ok(t) => Reply::Success(t),
            Err(t) => Reply::Failure(t),
        }
    }

    fn execute(&mut self, command: &str, args: &[&str]) -> Answer {
        match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok(self.name.clone()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => {
                let name = args.first().ok_or("known_command needs a command name")?;
                Ok(COMMANDS.contains(name).to_string())
            }
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "boardsize" => self.boardsize(args),
            "clear_board" => {
                self.game = Game::new(self.game.rules().clone());
                Ok(String::new())
            }
            "komi" => {
                let k = args.first().ok_or("komi needs a number")?;
                k.parse::<f64>()
                    .map_err(|_| "syntax error: komi is not a number".to_string())?;
                Ok(String::new())
            }
            "play" => self.play(args),
            "genmove" => self.genmove(args),
            "undo" => self.undo(),
            "showboard" => Ok(format!(
                "\n{}",
                board_text(self.game.position(), self.last_move())
            )),
            "final_score" => self.final_score(),
            "time_settings" => self.time_settings(args),
            "time_left" => self.time_left(args),
            "reversi-level" => {
                let l = number::<u32>(args.first(), "reversi-level needs a level")?;
                if !(1..=MAX_LEVEL).contains(&l) {
                    return Err(format!("the level must be from 1 to {MAX_LEVEL}"));
                }
                self.settings.level = l;
                self.settings.time_per_move = None;
                Ok(String::new())
            }
            "reversi-time" => {
                let t = number::<f64>(args.first(), "reversi-time needs seconds")?;
                if !(t >= 0.0 && t.is_finite()) {
                    return Err("the time must be a number of seconds, 0 or more".into());
                }
                self.settings.time_per_move = (t > 0.0).then(|| Duration::from_secs_f64(t));
                Ok(String::new())
            }
            "reversi-variant" => {
                let name = args.first().ok_or("reversi-variant needs a preset name")?;
                let v: Variant = name.parse().map_err(|e| format!("{e}"))?;
                self.game = Game::new(Rules::new(v, self.settings.seed));
                Ok(String::new())
            }
            "reversi-setboard" => self.setboard(args),
            "reversi-moves" => Ok(write_transcript(self.game.moves())),
            "reversi-legal" => Ok(self
                .game
                .legal_moves()
                .squares()
                .map(vertex)
                .collect::<Vec<_>>()
                .join(" ")),
            "reversi-score" => {
                let p = self.game.position();
                Ok(format!("B {} W {}", p.count(Color::Black), p.count(Color::White)))
            }
            _ => Err("unknown command".into()),
        }
    }

    fn last_move(&self) -> Option<Square> {
        self.game.moves().last().and_then(|m| m.square())
    }

    fn boardsize(&mut self, args: &[&str]) -> Answer {
        let n = number::<u8>(args.first(), "boardsize needs a size")?;
        let variant = match n {
            8 => Variant::Othello,
            4..=16 if n % 2 == 0 => Variant::Nxn(n),
            _ => return Err("unacceptable size".into()),
        };
        self.game = Game::new(Rules::new(variant, self.settings.seed));
        Ok(String::new())
    }

    /// Brings the game to `color`'s turn, passing for the side to move if it has no move.
    fn turn_of(&mut self, color: Color) -> Result<(), String> {
        if self.game.side_to_move() == color {
            return Ok(());
        }
        if self.game.position().must_pass() && !self.game.is_over() {
            self.game.pass_if_forced();
            return Ok(());
        }
        Err(format!("illegal move: it is {}'s turn", self.game.side_to_move()))
    }

    fn play(&mut self, args: &[&str]) -> Answer {
        let [c, v] = args else {
            return Err("syntax error: play needs a colour and a vertex".into());
        };
        let color = parse_color(c)?;
        let mv = parse_vertex(v)?;
        if self.game.is_over() {
            return Err("illegal move: the game is over".into());
        }
        if mv == Move::Pass && self.game.side_to_move() != color {
            // A pass by the side not to move: only meaningful right after its own forced pass.
            return Err(format!("illegal move: it is {}'s turn", self.game.side_to_move()));
        }
        let before = self.game.ply();
        self.turn_of(color)?;
        if let Err(e) = self.game.play(mv) {
            while self.game.ply() > before {
                self.game.undo();
            }
            let reason = match e {
                reversi_core::GameError::Illegal { reason, .. } => reason.to_string(),
                other => other.to_string(),
            };
            return Err(format!("illegal move: {reason}"));
        }
        Ok(String::new())
    }

    fn genmove(&mut self, args: &[&str]) -> Answer {
        let [c] = args else {
            return Err("syntax error: genmove needs a colour".into());
        };
        let color = parse_color(c)?;
        if self.game.is_over() {
            return Ok("pass".into());
        }
        if self.game.side_to_move() != color {
            if self.game.position().moves_of(color).is_empty() {
                return Ok("pass".into());
            }
            self.turn_of(color)?;
        }
        let pos = *self.game.position();
        let clock = self.clock.and_then(|c| c.budget(color));
        let limits = self
            .settings
            .limits(pos.empties().count(), clock, self.game.ply());
        let stop = AtomicBool::new(false);
        let r = think(&self.engine, &pos, &limits, &stop, &mut |_| {});
        let mv = r.best.unwrap_or(Move::Pass);
        self.game.play(mv).map_err(|e| format!("internal error: {e}"))?;
        Ok(match mv {
            Move::Play(sq) => vertex(sq),
            Move::Pass => "pass".into(),
        })
    }

    fn undo(&mut self) -> Answer {
        if !self.game.undo() {
            return Err("cannot undo".into());
        }
        // A forced pass is not a move of its own in Othello: take it back with the move.
        if self.game.moves().last() == Some(&Move::Pass) {
            self.game.undo();
        }
        Ok(String::new())
    }

    fn final_score(&self) -> Answer {
        let o = self.game.outcome().ok_or("the game is not over")?;
        Ok(match o.winner {
            None => "0".into(),
            Some(Color::Black) => format!("B+{}", o.margin(Color::Black)),
            Some(Color::White) => format!("W+{}", o.margin(Color::White)),
        })
    }

    fn time_settings(&mut self, args: &[&str]) -> Answer {
        let [m, b, s] = args else {
            return Err("syntax error: time_settings needs main time, byo-yomi time and stones".into());
        };
        let main = seconds(m)?;
        let byo = seconds(b)?;
        let stones: u32 = s
            .parse()
            .map_err(|_| "syntax error: stones is not a count".to_string())?;
        self.clock = if main.is_zero() && byo.is_zero() {
            None
        } else {
            Some(Clock {
                main,
                byo,
                stones,
                left: [None, None],
            })
        };
        Ok(String::new())
    }

    fn time_left(&mut self, args: &[&str]) -> Answer {
        let [c, t, _stones] = args else {
            return Err("syntax error: time_left needs a colour, seconds and stones".into());
        };
        let color = parse_color(c)?;
        let left = seconds(t)?;
        let clock = self.clock.get_or_insert(Clock::default());
        clock.left[color.index()] = Some(left);
        Ok(String::new())
    }

    fn setboard(&mut self, args: &[&str]) -> Answer {
        if args.is_empty() {
            return Err("syntax error: reversi-setboard needs a board string and a side".into());
        }
        let text = args.join(" ");
        let rules = self.game.rules().clone();
        let pos: AnyPosition = parse_board(&rules, &text).map_err(|e| format!("syntax error: {e}"))?;
        self.game = Game::from_position(rules, pos);
        Ok(String::new())
    }
}

impl Clock {
    /// Time left and increment for `color`'s next move, if the clock says anything.
    fn budget(&self, color: Color) -> Option<(Duration, Duration)> {
        let per_move = if self.stones > 0 {
            self.byo / self.stones
        } else {
            Duration::ZERO
        };
        match self.left[color.index()] {
            Some(left) if !left.is_zero() => Some((left, Duration::ZERO)),
            Some(_) => Some((per_move, Duration::ZERO)),
            None if !self.main.is_zero() => Some((self.main, Duration::ZERO)),
            None if !per_move.is_zero() => Some((per_move * 2, Duration::ZERO)),
            None => None,
        }
    }
}

fn number<T: std::str::FromStr>(s: Option<&&str>, missing: &str) -> Result<T, String> {
    let s = s.ok_or_else(|| format!("syntax error: {missing}"))?;
    s.parse()
        .map_err(|_| format!("syntax error: `{s}` is not a number"))
}

fn seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("syntax error: `{s}` is not a number of seconds"))?;
    if !(v >= 0.0 && v.is_finite()) {
        return Err(format!("syntax error: `{s}` is not a number of seconds"));
    }
    Ok(Duration::from_secs_f64(v))
}

/// Reads a GTP colour: `b`, `black`, `w`, `white` in any case.
pub fn parse_color(s: &str) -> Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!("syntax error: `{s}` is not a colour")),
    }
}

/// Reads a vertex: a square such as `d3`/`D3`, or `pass`.
pub fn parse_vertex(s: &str) -> Result<Move, String> {
    if s.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    Square::parse(s)
        .map(Move::Play)
        .ok_or_else(|| format!("syntax error: `{s}` is not a vertex"))
}

/// Writes a square as a GTP vertex (`D3`).
pub fn vertex(sq: Square) -> String {
    sq.to_string().to_uppercase()
}

/// Draws a position as text: column letters above, row numbers on the left, `X` black, `O` white,
/// `.` empty, `*` a legal move of the side to move, `#` a missing square; the last move in
/// brackets; then the disc counts and whose turn it is.
pub fn board_text(pos: &AnyPosition, last: Option<Square>) -> String {
    let mut s = String::from("   ");
    for c in 0..pos.width() {
        s.push(' ');
        s.push((b'A' + c) as char);
    }
    s.push('\n');
    let legal = pos.legal_moves();
    let playable = pos.playable();
    for r in 0..pos.height() {
        s.push_str(&format!("{:>2} ", r + 1));
        for c in 0..pos.width() {
            let sq = Square::new(c, r).expect("on a 16x16 grid");
            let ch = match pos.disc(sq) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None if !playable.has(sq) => '#',
                None if legal.has(sq) => '*',
                None => '.',
            };
            if last == Some(sq) {
                s.pop();
                s.push('(');
                s.push(ch);
                s.push(')');
            } else {
                s.push(ch);
                s.push(' ');
            }
        }
        while s.ends_with(' ') {
            s.pop();
        }
        s.push('\n');
    }
    let (b, w) = (pos.count(Color::Black), pos.count(Color::White));
    if pos.is_game_over() {
        s.push_str(&format!("X {b}  O {w}  game over"));
    } else {
        s.push_str(&format!("X {b}  O {w}  {} to move", pos.side_to_move()));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> GtpSession {
        GtpSession::new(EngineSettings {
            level: 1,
            hash_mib: 4,
            ..EngineSettings::default()
        })
    }

    fn script(s: &mut GtpSession, input: &str) -> String {
        let mut out = Vec::new();
        s.run(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn standard_commands() {
        let mut s = session();
        let out = script(
            &mut s,
            "protocol_version\n1 name\n2 known_command genmove\nknown_command frobnicate\n",
        );
        assert_eq!(out, "= 2\n\n=1 reversi\n\n=2 true\n\n= false\n\n");
        let list = script(&mut s, "list_commands\n");
        assert!(list.starts_with("= protocol_version\nname\n"));
        assert!(list.ends_with("reversi-score\n\n"));
        assert_eq!(list.matches('\n').count(), COMMANDS.len() + 1);
    }

    #[test]
    fn plays_and_undoes() {
        let mut s = session();
        let out = script(
            &mut s,
            "play black d3\nplay w C3\nreversi-moves\nundo\nreversi-moves\n",
        );
        assert_eq!(out, "=\n\n=\n\n= d3c3\n\n=\n\n= d3\n\n");
        assert_eq!(s.game().ply(), 1);
    }

    #[test]
    fn malformed_and_illegal_input() {
        let mut s = session();
        let out = script(
            &mut s,
            "play black a1\nplay black z9\nplay purple d3\nplay black\n7 frobnicate\ngenmove\nboardsize 7\nundo\n\n# a comment\n",
        );
        let replies: Vec<&str> = out.split("\n\n").filter(|r| !r.is_empty()).collect();
        assert_eq!(replies.len(), 8, "{out}");
        assert!(replies.iter().all(|r| r.starts_with('?')), "{out}");
        assert!(replies[0].contains("illegal move"));
        assert!(replies[1].contains("not a vertex"));
        assert!(replies[2].contains("not a colour"));
        assert_eq!(replies[4], "?7 unknown command");
        assert_eq!(replies[6], "? unacceptable size");
        assert_eq!(replies[7], "? cannot undo");
        let out = script(&mut s, "play white d3\n");
        assert_eq!(out, "? illegal move: it is black's turn\n\n");
        assert_eq!(s.game().ply(), 0);
    }

    #[test]
    fn genmove_plays_a_legal_move_and_the_game_ends() {
        let mut s = session();
        let mut color = "b";
        let mut moves = 0;
        while !s.game().is_over() && moves < 80 {
            let before = *s.game().position();
            match s.command("genmove", &[color]) {
                Reply::Success(v) => {
                    let mv = parse_vertex(&v).unwrap();
                    if let Move::Play(sq) = mv {
                        assert!(before.legal_moves().has(sq) || before.must_pass());
                    }
                }
                Reply::Failure(e) => panic!("{e}"),
            }
            color = if color == "b" { "w" } else { "b" };
            moves += 1;
        }
        assert!(s.game().is_over());
        let o = s.game().outcome().unwrap();
        let expect = match o.winner {
            None => "0".to_string(),
            Some(Color::Black) => format!("B+{}", o.margin(Color::Black)),
            Some(Color::White) => format!("W+{}", o.margin(Color::White)),
        };
        assert_eq!(s.command("final_score", &[]), Reply::Success(expect));
    }

    #[test]
    fn forced_pass_is_inserted() {
        // Black to move with no legal move; white has one (h8, flipping g8).
        let mut s = session();
        let board = format!("{}XXXXXOX-", "X".repeat(56));
        assert_eq!(
            s.command("reversi-setboard", &[&board, "X"]),
            Reply::Success(String::new())
        );
        assert!(s.game().position().must_pass());
        assert_eq!(s.command("reversi-legal", &[]), Reply::Success(String::new()));
        assert_eq!(s.command("genmove", &["black"]), Reply::Success("pass".into()));
        assert_eq!(s.command("play", &["white", "h8"]), Reply::Success(String::new()));
        assert!(s.game().is_over());
        assert_eq!(s.command("final_score", &[]), Reply::Success("B+58".into()));
    }

    #[test]
    fn showboard_and_extensions() {
        let mut s = session();
        let out = script(&mut s, "play b d3\nshowboard\n");
        let board = out.split("\n\n").nth(1).unwrap();
        assert!(
            board.starts_with("=\n    A B C D E F G H\n 1 . . . . . . . .\n"),
            "{board}"
        );
        assert!(board.contains("\n 3 . . *(X)* . . .\n"), "{board}");
        assert!(board.ends_with("X 4  O 1  white to move"), "{board}");
        assert_eq!(s.command("reversi-score", &[]), Reply::Success("B 4 W 1".into()));
        assert_eq!(s.command("reversi-legal", &[]), Reply::Success("C3 E3 C5".into()));
        assert!(matches!(s.command("reversi-level", &["31"]), Reply::Failure(_)));
        assert_eq!(s.command("reversi-level", &["3"]), Reply::Success(String::new()));
        assert_eq!(s.command("boardsize", &["6"]), Reply::Success(String::new()));
        assert_eq!(s.game().position().width(), 6);
        assert_eq!(
            s.command("reversi-variant", &["othello"]),
            Reply::Success(String::new())
        );
        assert_eq!(
            s.command("time_settings", &["60", "0", "0"]),
            Reply::Success(String::new())
        );
        assert_eq!(
            s.command("time_left", &["b", "30", "0"]),
            Reply::Success(String::new())
        );
        assert!(matches!(s.command("genmove", &["b"]), Reply::Success(_)));
        let out = script(&mut s, "quit\nname\n");
        assert_eq!(out, "=\n\n");
        assert!(s.has_quit());
    }
}
