//! GTP, the Go Text Protocol version 2, spoken for Othello.
//!
//! Each command is one line: an optional numeric id, the command name and its arguments. The
//! reply is `=` (success) or `?` (failure), the id if one was given, a space and the answer, and
//! ends with an empty line: `=12 D3\n\n`, `? illegal move\n\n`. Comments (`#` to the end of the
//! line) and control characters are dropped, and empty lines are ignored. A line that is not
//! UTF-8 text, or is longer than [`MAX_LINE_BYTES`], is answered with `?` and an error; the
//! session goes on with the next line.
//!
//! The input is read on a second thread, so that `quit` stops a `genmove` in progress at once:
//! the move found so far is answered, then `quit`. A session made [`GtpSession::with_ponder`]
//! thinks on the opponent's time: after each `genmove` it searches the opponent's position
//! until the next command arrives. Times (`time_settings`, `time_left`,
//! `reversi-clock`, `reversi-time`) are seconds from 0 to a week
//! ([`reversi_engine::levels::MAX_TIME`]); others are refused.
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
//! | `reversi-clock MAIN INCREMENT` | empty; a Fischer clock: `MAIN` seconds, `INCREMENT` more after each move (`time_left` gives the time left, as with `time_settings`) |
//! | `reversi-variant NAME` | empty; a new game of a rules preset (`othello`, `nxn:6`, `anti`, …) |
//! | `reversi-setboard BOARD SIDE` | empty; the position from a board string (64 characters from `a1`) and the side to move |
//! | `reversi-moves` | the moves played so far as a transcript (passes left out) |
//! | `reversi-legal` | the legal moves of the side to move, space-separated (empty when it must pass) |
//! | `reversi-score` | `B 35 W 29`: the disc counts now |

use crate::lines::{lines, LineError, MAX_LINE_BYTES};
use crate::think::{ponder, think, EngineSettings, Reach};
use reversi_core::notation::{parse_board, write_transcript};
use reversi_core::quote::{clip, QUOTE_CHARS};
use reversi_core::{AnyPosition, Bits, Color, Game, Move, Rules, Square, Variant};
use reversi_engine::levels::{parse_seconds, MAX_LEVEL};
use reversi_engine::{Engine, ResourceError};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
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
    "reversi-clock",
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
    /// Added after each move (a Fischer clock, from `reversi-clock`; standard GTP has none).
    increment: Duration,
    /// Time left per colour and the moves it is for (0: the main time), from `time_left`.
    left: [Option<(Duration, u32)>; 2],
}

/// One GTP session: a game, an engine and its settings.
pub struct GtpSession {
    settings: EngineSettings,
    engine: Engine,
    game: Game,
    clock: Option<Clock>,
    name: String,
    quit: bool,
    /// Raised by the input thread when `quit` arrives, to end a search at once.
    stop: Arc<AtomicBool>,
    /// Whether to think on the opponent's time.
    ponder: bool,
    /// Set by a `genmove` that played a move: [`GtpSession::run`] then ponders.
    moved: bool,
    /// How far the last `genmove` searched.
    reach: Option<Reach>,
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
    pub fn new(settings: EngineSettings) -> Result<GtpSession, ResourceError> {
        let engine = settings.engine()?;
        Ok(GtpSession {
            settings,
            engine,
            game: Game::new(Rules::othello()),
            clock: None,
            name: "reversi".into(),
            quit: false,
            stop: Arc::new(AtomicBool::new(false)),
            ponder: false,
            moved: false,
            reach: None,
        })
    }

    /// The same, thinking on the opponent's time when `on`: after each move it plays, the
    /// session searches the opponent's position (without a time limit) until the next command
    /// comes, so that its next search starts from a warm table. Best with a core to spare.
    pub fn with_ponder(mut self, on: bool) -> GtpSession {
        self.ponder = on;
        self
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

    /// How far the last `genmove`'s search went (`None` before the first, or when it needed
    /// no search).
    pub fn last_reach(&self) -> Option<Reach> {
        self.reach
    }

    /// Whether `quit` was received.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// The flag that ends a `genmove` in progress (the move found so far is answered); raised
    /// by [`GtpSession::run`] when `quit` arrives, and by anyone who holds it.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Reads commands until `quit` or the end of the input, answering each one and flushing after
    /// every reply. The input is read on a second thread (so that `quit` can stop a search);
    /// `R` must therefore be [`Send`].
    pub fn run<R: BufRead + Send, W: Write>(&mut self, input: R, mut output: W) -> io::Result<()> {
        let (tx, rx) = mpsc::channel::<io::Result<Result<String, LineError>>>();
        let stop = Arc::clone(&self.stop);
        std::thread::scope(|scope| {
            scope.spawn(move || {
                for line in lines(input, MAX_LINE_BYTES) {
                    let quit = matches!(&line, Ok(Ok(l)) if is_quit(l));
                    if quit {
                        stop.store(true, Ordering::SeqCst);
                    }
                    let failed = line.is_err();
                    if tx.send(line).is_err() || quit || failed {
                        return;
                    }
                }
            });
            let mut pending = None;
            while let Ok(line) = pending.take().map_or_else(|| rx.recv(), Ok) {
                let reply = match line? {
                    Ok(text) => self.handle_line(&text),
                    Err(e) => Some(malformed_reply(&e)),
                };
                if let Some(text) = reply {
                    output.write_all(text.as_bytes())?;
                    output.flush()?;
                }
                if self.quit {
                    break;
                }
                if std::mem::take(&mut self.moved) && self.ponder {
                    // The opponent's turn: think about it until its move (or any command) comes.
                    let pos = *self.game.position();
                    let limits = self.move_limits(!pos.side_to_move());
                    match ponder(&self.engine, &pos, &limits, || rx.recv()) {
                        Ok(line) => pending = Some(line),
                        Err(_) => break,
                    }
                }
            }
            // The input thread ends at `quit` or the end of its input.
            Ok(())
        })
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
            "reversi-clock" => self.fischer(args),
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
                let t = seconds(args.first().ok_or("syntax error: reversi-time needs seconds")?)?;
                self.settings.time_per_move = (!t.is_zero()).then_some(t);
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
        let limits = self.move_limits(color);
        let r = think(&self.engine, &pos, &limits, &self.stop, &mut |_| {});
        self.reach = Some(Reach::of(&r, &limits));
        let mv = r.best.unwrap_or(Move::Pass);
        self.game.play(mv).map_err(|e| format!("internal error: {e}"))?;
        self.moved = mv != Move::Pass;
        Ok(match mv {
            Move::Play(sq) => vertex(sq),
            Move::Pass => "pass".into(),
        })
    }

    /// The limits of a move of `color` in the position on the board, from the clock when one
    /// runs and the settings otherwise.
    fn move_limits(&self, color: Color) -> reversi_engine::Limits {
        let empties = self.game.position().empties().count();
        let ply = self.game.ply();
        let increment = self.clock.map_or(Duration::ZERO, |c| c.increment);
        match self.clock.and_then(|c| c.budget(color)) {
            Some(Budget::Left(left)) => {
                self.settings
                    .limits(empties, Some((left, increment)), Duration::ZERO, ply)
            }
            Some(Budget::PerMove(t)) => self.settings.per_move_limits(empties, t, ply),
            None => self.settings.limits(empties, None, Duration::ZERO, ply),
        }
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
        let stones: u32 = s.parse().map_err(|_| {
            format!(
                "syntax error: `{}` is not a count of stones",
                clip(s, QUOTE_CHARS)
            )
        })?;
        self.clock = if main.is_zero() && byo.is_zero() {
            None
        } else {
            Some(Clock {
                main,
                byo,
                stones,
                increment: Duration::ZERO,
                left: [None, None],
            })
        };
        Ok(String::new())
    }

    /// `reversi-clock MAIN INCREMENT`: a Fischer clock.
    fn fischer(&mut self, args: &[&str]) -> Answer {
        let [m, i] = args else {
            return Err("syntax error: reversi-clock needs main time and increment".into());
        };
        let main = seconds(m)?;
        let increment = seconds(i)?;
        self.clock = if main.is_zero() && increment.is_zero() {
            None
        } else {
            Some(Clock {
                main,
                increment,
                ..Clock::default()
            })
        };
        Ok(String::new())
    }

    fn time_left(&mut self, args: &[&str]) -> Answer {
        let [c, t, s] = args else {
            return Err("syntax error: time_left needs a colour, seconds and stones".into());
        };
        let color = parse_color(c)?;
        let left = seconds(t)?;
        let stones: u32 = s.parse().map_err(|_| {
            format!(
                "syntax error: `{}` is not a count of stones",
                clip(s, QUOTE_CHARS)
            )
        })?;
        let clock = self.clock.get_or_insert(Clock::default());
        clock.left[color.index()] = Some((left, stones));
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

/// What the clock gives `color`'s next move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Budget {
    /// Main time left (the moves still to come share it).
    Left(Duration),
    /// A time of the move's own (byo-yomi: `byo` for `stones` moves).
    PerMove(Duration),
}

impl Clock {
    /// What `color`'s next move may use, if the clock says anything.
    fn budget(&self, color: Color) -> Option<Budget> {
        // Every time here is at most a week (`seconds`), so these products cannot overflow;
        // saturating all the same, since the clock's fields are set from outside.
        let per_move = if self.stones > 0 {
            self.byo / self.stones
        } else {
            Duration::ZERO
        };
        match self.left[color.index()] {
            // In byo-yomi: what is left is for the next `stones` moves.
            Some((left, stones)) if stones > 0 => Some(Budget::PerMove(left / stones)),
            Some((left, _)) if !left.is_zero() => Some(Budget::Left(left)),
            Some(_) if !per_move.is_zero() => Some(Budget::PerMove(per_move)),
            None if !self.main.is_zero() => Some(Budget::Left(self.main)),
            None if !per_move.is_zero() => Some(Budget::PerMove(per_move)),
            _ => None,
        }
    }
}

fn number<T: std::str::FromStr>(s: Option<&&str>, missing: &str) -> Result<T, String> {
    let s = s.ok_or_else(|| format!("syntax error: {missing}"))?;
    s.parse()
        .map_err(|_| format!("syntax error: `{}` is not a number", clip(s, QUOTE_CHARS)))
}

/// A time argument: seconds, from 0 to [`MAX_TIME`].
fn seconds(s: &str) -> Result<Duration, String> {
    parse_seconds(s, true).map_err(|e| format!("syntax error: {e}"))
}

/// Whether a line is the `quit` command (with or without an id).
fn is_quit(line: &str) -> bool {
    let mut words = line.split('#').next().unwrap_or("").split_whitespace();
    match words.next() {
        Some(w) if w.chars().all(|c| c.is_ascii_digit()) => words.next() == Some("quit"),
        w => w == Some("quit"),
    }
}

/// The reply to a line that could not be read: `?`, its id when one can be made out, the error.
fn malformed_reply(e: &LineError) -> String {
    let id = match e {
        LineError::NotUtf8 { lossy, .. } => lossy
            .split_whitespace()
            .next()
            .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
            .unwrap_or(""),
        LineError::TooLong { .. } => "",
    };
    format!("?{id} {e}\n\n")
}

/// Reads a GTP colour: `b`, `black`, `w`, `white` in any case.
pub fn parse_color(s: &str) -> Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!(
            "syntax error: `{}` is not a colour",
            clip(s, QUOTE_CHARS)
        )),
    }
}

/// Reads a vertex: a square such as `d3`/`D3`, or `pass`.
pub fn parse_vertex(s: &str) -> Result<Move, String> {
    if s.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    Square::parse(s)
        .map(Move::Play)
        .ok_or_else(|| format!("syntax error: `{}` is not a vertex", clip(s, QUOTE_CHARS)))
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
        .unwrap()
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

    #[test]
    fn the_clock_gives_main_time_to_share_or_a_time_per_move() {
        let s = |x: u64| Duration::from_secs(x);
        let clock = |main, byo, stones| Clock {
            main: s(main),
            byo: s(byo),
            stones,
            increment: Duration::ZERO,
            left: [None, None],
        };
        assert_eq!(clock(60, 0, 0).budget(Color::Black), Some(Budget::Left(s(60))));
        assert_eq!(clock(0, 10, 5).budget(Color::Black), Some(Budget::PerMove(s(2))));
        assert_eq!(clock(0, 0, 0).budget(Color::Black), None);
        let mut c = clock(60, 10, 5);
        c.left[Color::Black.index()] = Some((s(30), 0));
        c.left[Color::White.index()] = Some((s(6), 3));
        assert_eq!(c.budget(Color::Black), Some(Budget::Left(s(30))));
        assert_eq!(c.budget(Color::White), Some(Budget::PerMove(s(2))));
        // Main time used up, byo-yomi not yet reported: the byo-yomi period's share.
        c.left[Color::Black.index()] = Some((s(0), 0));
        assert_eq!(c.budget(Color::Black), Some(Budget::PerMove(s(2))));
        let mut s2 = session();
        assert!(matches!(
            s2.command("time_left", &["b", "5", "x"]),
            Reply::Failure(_)
        ));
    }

    #[test]
    fn the_clock_extension_sets_a_fischer_clock() {
        let s = |x: u64| Duration::from_secs(x);
        let mut g = session();
        assert_eq!(
            g.command("known_command", &["reversi-clock"]),
            Reply::Success("true".into())
        );
        assert_eq!(
            g.command("reversi-clock", &["60", "2"]),
            Reply::Success(String::new())
        );
        let c = g.clock.expect("a clock");
        assert_eq!((c.main, c.increment), (s(60), s(2)));
        assert_eq!(c.budget(Color::Black), Some(Budget::Left(s(60))));
        g.command("time_left", &["b", "1.5", "0"]);
        assert_eq!(
            g.clock.unwrap().budget(Color::Black),
            Some(Budget::Left(Duration::from_millis(1500)))
        );
        assert!(matches!(g.command("genmove", &["b"]), Reply::Success(_)));
        // Standard time settings replace it, increment and all.
        g.command("time_settings", &["30", "0", "0"]);
        assert_eq!(g.clock.unwrap().increment, Duration::ZERO);
        g.command("reversi-clock", &["0", "0"]);
        assert_eq!(g.clock, None);
        assert!(matches!(
            g.command("reversi-clock", &["60"]),
            Reply::Failure(e) if e.contains("needs main time and increment")
        ));
    }

    #[test]
    fn unreadable_lines_get_an_error_and_the_session_goes_on() {
        let mut s = session();
        let mut input = b"\xff\nname\n7 na\xffme\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 1));
        input.extend_from_slice(b"\nprotocol_version\n");
        let mut out = Vec::new();
        s.run(&input[..], &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "? the line is not UTF-8 text (byte 1)\n\n= reversi\n\n\
             ?7 the line is not UTF-8 text (byte 5)\n\n\
             ? the line is longer than 1048576 bytes\n\n= 2\n\n"
        );
    }

    #[test]
    fn times_out_of_range_are_refused() {
        let mut s = session();
        for (cmd, args) in [
            ("reversi-time", vec!["1e30"]),
            ("reversi-time", vec!["inf"]),
            ("reversi-time", vec!["nan"]),
            ("reversi-time", vec!["-1"]),
            ("time_settings", vec!["1e30", "0", "0"]),
            ("time_settings", vec!["0", "1e19", "1"]),
            ("time_settings", vec!["nan", "0", "0"]),
            ("time_left", vec!["b", "1e30", "0"]),
            ("time_left", vec!["w", "inf", "0"]),
            ("reversi-clock", vec!["60", "-1"]),
            ("reversi-clock", vec!["1e30", "1"]),
        ] {
            match s.command(cmd, &args) {
                Reply::Failure(e) => assert!(
                    e.starts_with("syntax error: the time must"),
                    "{cmd} {args:?}: {e}"
                ),
                other => panic!("{cmd} {args:?}: {other:?}"),
            }
        }
        // The largest time allowed, with a huge byo-yomi share, still plays a move at once
        // (the level bounds the search).
        assert_eq!(
            s.command("time_settings", &["604800", "604800", "1"]),
            Reply::Success(String::new())
        );
        assert!(matches!(s.command("genmove", &["b"]), Reply::Success(_)));
        let long = "9".repeat(100_000);
        match s.command("reversi-time", &[&long]) {
            Reply::Failure(e) => assert!(e.len() < 120, "the number is cut: {} bytes", e.len()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn quit_stops_a_long_genmove() {
        // No book: the move is searched, not looked up.
        let mut s = GtpSession::new(EngineSettings {
            level: 30,
            hash_mib: 4,
            book: None,
            ..EngineSettings::default()
        })
        .unwrap();
        let (reader, feeder) =
            crate::test_io::paced(&[(b"1 play b f5\n2 genmove w\n", 300), (b"3 quit\n", 0)]);
        let mut out = Vec::new();
        s.run(io::BufReader::new(reader), &mut out).unwrap();
        feeder.join().unwrap();
        // Level 30 from the second move takes minutes; `quit` cut it short.
        let reach = s.last_reach().expect("a search");
        assert!(reach.nodes > 0 && reach.cut_short(), "{reach:?}");
        let text = String::from_utf8(out).unwrap();
        let replies: Vec<&str> = text.split("\n\n").filter(|r| !r.is_empty()).collect();
        assert_eq!(replies.len(), 3, "{text}");
        assert_eq!(replies[0], "=1");
        let mv = replies[1].strip_prefix("=2 ").expect("a move");
        assert!(["D6", "F6", "F4"].contains(&mv), "{mv}");
        assert_eq!(replies[2], "=3");
        assert!(s.has_quit());
    }

    #[test]
    fn pondering_ends_when_the_next_command_comes() {
        let mut s = GtpSession::new(EngineSettings {
            time_per_move: Some(Duration::from_millis(50)),
            hash_mib: 4,
            book: None,
            ..EngineSettings::default()
        })
        .unwrap()
        .with_ponder(true);
        // After each move the session ponders, without a time limit, until the next line.
        let (reader, feeder) = crate::test_io::paced(&[
            (b"1 genmove b\n", 500),
            (b"2 genmove w\n3 reversi-moves\n", 300),
            (b"4 quit\n", 0),
        ]);
        // (The pondering searches have no end of their own: that `run` returns shows the
        // commands ended them.)
        let mut out = Vec::new();
        s.run(io::BufReader::new(reader), &mut out).unwrap();
        feeder.join().unwrap();
        let text = String::from_utf8(out).unwrap();
        let replies: Vec<&str> = text.split("\n\n").filter(|r| !r.is_empty()).collect();
        assert_eq!(replies.len(), 4, "{text}");
        let b = replies[0].strip_prefix("=1 ").expect("a move");
        let w = replies[1].strip_prefix("=2 ").expect("a move");
        assert_eq!(replies[2], format!("=3 {}{}", b.to_lowercase(), w.to_lowercase()));
        assert_eq!(replies[3], "=4");
        assert_eq!(s.game().ply(), 2);
        assert!(s.has_quit());
    }

    #[test]
    fn quit_is_recognised_with_and_without_an_id() {
        assert!(is_quit("quit"));
        assert!(is_quit("  12 quit # bye"));
        assert!(!is_quit("name quit"));
        assert!(!is_quit("quitting"));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// Any lines at all (but `quit`) get one reply each, `=` or `?`, and leave the session
        /// answering.
        #[test]
        fn random_lines_keep_the_session_alive(lines in proptest::collection::vec(crate::test_io::arbitrary_line(GTP_WORDS), 0..12)) {
            let mut s = session();
            let mut input = Vec::new();
            for l in &lines {
                input.extend_from_slice(l);
                input.push(b'\n');
            }
            input.extend_from_slice(b"424242 name\n");
            let mut out = Vec::new();
            s.run(&input[..], &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            proptest::prop_assert!(text.ends_with("=424242 reversi\n\n"), "{}", text);
            for reply in text.split("\n\n").filter(|r| !r.is_empty()) {
                proptest::prop_assert!(reply.starts_with('=') || reply.starts_with('?'), "{:?}", reply);
            }
        }
    }

    // No `reversi-level`/`reversi-time`: a random strong level would make the test slow, not
    // wrong.
    const GTP_WORDS: &[&str] = &[
        "protocol_version",
        "name",
        "known_command",
        "list_commands",
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
        "reversi-clock",
        "reversi-variant",
        "reversi-setboard",
        "reversi-moves",
        "reversi-legal",
        "reversi-score",
        "b",
        "w",
        "black",
        "d3",
        "C4",
        "pass",
        "othello",
        "nxn:6",
        "anti",
        "grand",
        "#",
    ];
}
