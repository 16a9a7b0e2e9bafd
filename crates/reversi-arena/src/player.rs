//! Players: the built-in engine at a level or a time per move, and external engines started as
//! processes speaking GTP or NBoard.

use crate::clock::{Fischer, Turn};
use reversi_core::format::ggf::{write_ggf, GameInfo, GgfGame};
use reversi_core::quote::{clip, QUOTE_CHARS};
use reversi_core::{Bits, Color, Game, Move, Square};
use reversi_engine::levels::{seconds, MAX_LEVEL, MAX_TIME};
use reversi_engine::tt::MAX_HASH_MIB;
use reversi_engine::{Book, Engine, EvalChoice, Learned};
use reversi_protocol::lines::{lines, MAX_LINE_BYTES};
use reversi_protocol::{think, EngineSettings};
use serde::{Deserialize, Serialize};
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The protocol an external engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// GTP version 2 with Othello squares (`reversi gtp`, Edax's `-gtp`).
    #[default]
    Gtp,
    /// The NBoard protocol (`reversi nboard`, Edax's `-nboard`, Ntest).
    Nboard,
}

/// A command line: one string split at whitespace, or a list of arguments.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CommandLine {
    /// `"edax -gtp -l 10"`: split at whitespace (no quoting).
    Line(String),
    /// `["edax", "-gtp"]`.
    Args(Vec<String>),
}

impl CommandLine {
    /// The program and its arguments.
    pub fn argv(&self) -> Vec<String> {
        match self {
            CommandLine::Line(s) => s.split_whitespace().map(str::to_string).collect(),
            CommandLine::Args(a) => a.clone(),
        }
    }
}

/// One player as a players file names it.
///
/// ```toml
/// [[player]]
/// name = "level 5"
/// level = 5
///
/// [[player]]
/// name = "edax"
/// command = "edax -gtp -l 8"
/// protocol = "gtp"          # or "nboard"
/// init = ["komi 0"]         # sent once after start
/// timeout = 30              # seconds allowed per move
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PlayerSpec {
    /// The name in the crosstable and the game records.
    pub name: String,
    /// Level of the built-in engine (ignored for external engines).
    #[serde(default)]
    pub level: Option<u32>,
    /// Seconds per move: for the built-in engine instead of a level; external GTP engines are
    /// told it with `time_settings 0 T 1` (not under a tournament's clock, which they are told
    /// instead).
    #[serde(default)]
    pub time: Option<f64>,
    /// Transposition table of the built-in engine, MiB (default 16).
    #[serde(default)]
    pub hash: Option<usize>,
    /// Evaluation of the built-in engine: `learned` (default), `hand`, or a weights file.
    #[serde(default)]
    pub eval: Option<String>,
    /// Opening book of the built-in engine: `default` (the one in the binary, the default),
    /// `off`, or a book file.
    #[serde(default)]
    pub book: Option<String>,
    /// The command that starts an external engine; absent for the built-in engine.
    #[serde(default)]
    pub command: Option<CommandLine>,
    /// The protocol of the external engine (default GTP).
    #[serde(default)]
    pub protocol: Option<Protocol>,
    /// Lines sent to the external engine after it starts (GTP: each must succeed).
    #[serde(default)]
    pub init: Vec<String>,
    /// Seconds an external engine may take for one move before it loses the game (default:
    /// three times `time` plus 10, or 60). Under a tournament's clock a move may take what is
    /// left on the clock instead; this still bounds every other command.
    #[serde(default)]
    pub timeout: Option<f64>,
}

/// A players file: `[[player]]` tables.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PlayersFile {
    /// The players, in order.
    #[serde(default)]
    pub player: Vec<PlayerSpec>,
}

impl PlayersFile {
    /// Reads a players file.
    pub fn parse(text: &str) -> Result<PlayersFile, toml::de::Error> {
        toml::from_str(text)
    }
}

impl PlayerSpec {
    /// The built-in engine at `level`, named `level N`.
    pub fn builtin(level: u32) -> PlayerSpec {
        PlayerSpec {
            name: format!("level {level}"),
            level: Some(level),
            ..PlayerSpec::default()
        }
    }

    /// Whether this is an external engine.
    pub fn is_external(&self) -> bool {
        self.command.is_some()
    }

    /// The time allowed for one move of an external engine (at most
    /// [`reversi_engine::levels::MAX_TIME`]).
    pub fn move_timeout(&self, default_time: Option<f64>) -> Duration {
        let secs = self
            .timeout
            .or_else(|| self.time.or(default_time).map(|t| 3.0 * t + 10.0))
            .unwrap_or(60.0);
        // `check` refuses a bad `timeout`; a long `time` only makes the sum too large.
        seconds(secs, false).unwrap_or(MAX_TIME)
    }

    /// Whether the settings can be played: times positive and at most a week, the table size
    /// in range, the level 1–30. The error names the player and the setting.
    pub fn check(&self) -> Result<(), String> {
        let bad = |what: &str, why: String| {
            Err(format!(
                "player `{}`: {what}: {why}",
                clip(&self.name, QUOTE_CHARS)
            ))
        };
        for (what, t) in [("time", self.time), ("timeout", self.timeout)] {
            if let Some(t) = t {
                if let Err(e) = seconds(t, false) {
                    return bad(what, e.to_string());
                }
            }
        }
        if let Some(h) = self.hash {
            if !(1..=MAX_HASH_MIB).contains(&h) {
                return bad("hash", format!("must be from 1 to {MAX_HASH_MIB} MiB"));
            }
        }
        if let Some(l) = self.level {
            if !(1..=MAX_LEVEL).contains(&l) {
                return bad("level", format!("must be from 1 to {MAX_LEVEL}"));
            }
        }
        Ok(())
    }
}

/// Why a player lost a game without finishing it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Forfeit {
    /// The engine did not answer within its time.
    #[error("timeout: no move within {0:?}")]
    Timeout(Duration),
    /// The player's clock ran out before its move (a tournament's clock).
    #[error("lost on time: the move took {:.3} s with {:.3} s left", used.as_secs_f64(), left.as_secs_f64())]
    OutOfTime {
        /// What the move took (at least `left`).
        used: Duration,
        /// What was left on the clock when the move was asked for.
        left: Duration,
    },
    /// The process ended, closed its output or could not be started.
    #[error("crashed: {0}")]
    Crashed(String),
    /// The engine answered with a move that is not legal (or nonsense, or resigned).
    #[error("illegal move: {0}")]
    Illegal(String),
}

/// Something that chooses moves in a game.
pub trait Contestant: Send {
    /// The move for the side to move in `game` (which is not over and has a legal move);
    /// `clock` is what the mover's clock gives it, when the game is timed by one.
    fn choose(&mut self, game: &Game, clock: Option<Turn>) -> Result<Move, Forfeit>;
    /// Says goodbye (external engines are asked to quit, then stopped).
    fn finish(&mut self) {}
}

/// What a tournament gives the players that do not say for themselves.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Defaults {
    /// Level of built-in players that name neither a level nor a time (and play no clock).
    pub level: u32,
    /// Seconds per move of built-in players without a level, and of external GTP engines.
    pub time: Option<f64>,
    /// The game clock, when the games are timed by one. Built-in players without a level then
    /// play by the clock alone, at full strength; those with a level play it within the clock.
    pub clock: Option<Fischer>,
}

/// Starts the player `spec` for one game, with the tournament's `defaults`; `seed` feeds the
/// weak levels' noise.
pub fn start(spec: &PlayerSpec, defaults: Defaults, seed: u64) -> Result<Box<dyn Contestant>, Forfeit> {
    let default_time = defaults.time;
    match &spec.command {
        None => {
            let time = if spec.level.is_some() {
                spec.time
            } else {
                spec.time.or(default_time)
            };
            // Under a clock, a player without a level or a time is the whole engine, timed by
            // the clock (as with a time per move); a level would cap it.
            let default_level = match (defaults.clock, time) {
                (Some(_), None) => MAX_LEVEL,
                _ => defaults.level,
            };
            let time_per_move = time
                .map(|t| seconds(t, false))
                .transpose()
                .map_err(|e| Forfeit::Crashed(format!("time: {e}")))?;
            let settings = EngineSettings {
                level: spec.level.unwrap_or(default_level),
                time_per_move,
                hash_mib: spec.hash.unwrap_or(16),
                threads: 1,
                seed,
                eval: eval_choice(spec.eval.as_deref().unwrap_or("learned"))?,
                book: book_choice(spec.book.as_deref().unwrap_or("default"))?,
            };
            Ok(Box::new(Builtin {
                engine: settings.engine().map_err(|e| Forfeit::Crashed(e.to_string()))?,
                settings,
            }))
        }
        Some(cmd) => {
            let timeout = spec.move_timeout(default_time);
            let mut p = Process::spawn(&cmd.argv(), timeout)?;
            let protocol = spec.protocol.unwrap_or_default();
            match protocol {
                Protocol::Gtp => {
                    let mut g = GtpPlayer {
                        p,
                        known: Vec::new(),
                        id: 0,
                    };
                    for line in &spec.init {
                        g.request(line)?;
                    }
                    if let Some(c) = defaults.clock {
                        // Standard GTP knows main time, not an increment: the engines that
                        // know this project's extension are told the increment too.
                        let _ = g.request(&format!("time_settings {} 0 0", c.initial));
                        if g.request("known_command reversi-clock").as_deref() == Ok("true") {
                            let _ = g.request(&format!("reversi-clock {} {}", c.initial, c.increment));
                        }
                    } else if let Some(t) = spec.time.or(default_time) {
                        // A clock of T seconds for every single move (a GTP convention).
                        let _ = g.request(&format!("time_settings 0 {t} 1"));
                    }
                    g.request("clear_board")?;
                    Ok(Box::new(g))
                }
                Protocol::Nboard => {
                    p.send("nboard 2")?;
                    for line in &spec.init {
                        p.send(line)?;
                    }
                    Ok(Box::new(NboardPlayer { p, ping: 0 }))
                }
            }
        }
    }
}

/// The evaluation a players file names (a weights file is read here).
fn eval_choice(name: &str) -> Result<EvalChoice, Forfeit> {
    match EvalChoice::named(name) {
        Ok(c) => Ok(c),
        Err(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| Forfeit::Crashed(format!("weights file {path}: {e}")))?;
            let w = Learned::from_compressed(&bytes)
                .map_err(|e| Forfeit::Crashed(format!("weights file {path}: {e}")))?;
            Ok(EvalChoice::Weights(std::sync::Arc::new(w)))
        }
    }
}

/// The opening book a players file names; a file is read once per tournament run and shared
/// by every game (players start afresh for each game).
fn book_choice(name: &str) -> Result<Option<std::sync::Arc<Book>>, Forfeit> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    static FILES: OnceLock<Mutex<HashMap<String, Arc<Book>>>> = OnceLock::new();
    match name {
        "off" | "none" => Ok(None),
        "default" => Ok(Some(Book::embedded_shared())),
        path => {
            let mut files = FILES
                .get_or_init(Default::default)
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if let Some(b) = files.get(path) {
                return Ok(Some(b.clone()));
            }
            let bytes =
                std::fs::read(path).map_err(|e| Forfeit::Crashed(format!("book file {path}: {e}")))?;
            let book = Book::from_compressed(&bytes)
                .map_err(|e| Forfeit::Crashed(format!("book file {path}: {e}")))?;
            let book = Arc::new(book);
            files.insert(path.to_string(), book.clone());
            Ok(Some(book))
        }
    }
}

struct Builtin {
    engine: Engine,
    settings: EngineSettings,
}

impl Contestant for Builtin {
    fn choose(&mut self, game: &Game, clock: Option<Turn>) -> Result<Move, Forfeit> {
        let pos = game.position();
        let limits = self.settings.limits(
            pos.empties().count(),
            clock.map(|c| (c.left, c.increment)),
            Duration::ZERO,
            game.ply(),
        );
        let stop = AtomicBool::new(false);
        let r = think(&self.engine, pos, &limits, &stop, &mut |_| {});
        Ok(r.best.unwrap_or(Move::Pass))
    }
}

/// A child process with its output read line by line on a thread of its own.
struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    timeout: Duration,
}

impl Process {
    fn spawn(argv: &[String], timeout: Duration) -> Result<Process, Forfeit> {
        let (prog, args) = argv
            .split_first()
            .ok_or_else(|| Forfeit::Crashed("empty command".into()))?;
        let mut child = Command::new(prog)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Forfeit::Crashed(format!("cannot start `{prog}`: {e}")))?;
        let stdout = child.stdout.take().expect("piped");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            // Bounded lines: an engine that writes one endless line cannot fill the memory.
            for line in lines(BufReader::new(stdout), MAX_LINE_BYTES) {
                let Ok(line) = line else { return };
                // An unreadable line is passed on as such: it answers nothing, so the engine
                // loses the game by it instead of hanging the runner.
                let line = line.unwrap_or_else(|e| format!("(unreadable line: {e})"));
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines: rx,
            timeout,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Forfeit::Crashed("input closed".into()))?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|e| self.crashed(&format!("cannot write to the engine: {e}")))
    }

    /// The next line, before `deadline`.
    fn line(&mut self, deadline: Instant) -> Result<String, Forfeit> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(Forfeit::Timeout(self.timeout))
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed("the engine closed its output")),
        }
    }

    fn crashed(&mut self, what: &str) -> Forfeit {
        std::thread::sleep(Duration::from_millis(20));
        let status = match self.child.try_wait() {
            Ok(Some(s)) => format!(" ({s})"),
            _ => String::new(),
        };
        self.kill();
        Forfeit::Crashed(format!("{what}{status}"))
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Asks the engine to quit, waits a moment, then stops it.
    fn quit(&mut self, command: &str) {
        let _ = self.send(command);
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

struct GtpPlayer {
    p: Process,
    /// The moves the engine has been told (or played itself), passes included.
    known: Vec<Move>,
    id: u32,
}

impl GtpPlayer {
    /// Sends a command and returns the answer of a `=` reply; a `?` reply is an error.
    fn request(&mut self, command: &str) -> Result<String, Forfeit> {
        let deadline = Instant::now() + self.p.timeout;
        self.request_until(command, deadline)
    }

    /// [`GtpPlayer::request`], the answer due by `deadline`.
    fn request_until(&mut self, command: &str, deadline: Instant) -> Result<String, Forfeit> {
        self.id += 1;
        let id = self.id;
        self.p.send(&format!("{id} {command}"))?;
        let (ok, mut answer) = loop {
            let line = self.p.line(deadline)?;
            let line = line.trim_end();
            if let Some(rest) = line.strip_prefix('=').or_else(|| line.strip_prefix('?')) {
                let ok = line.starts_with('=');
                let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
                break (ok, rest.trim().to_string());
            }
        };
        // A reply ends with an empty line.
        loop {
            let line = self.p.line(deadline)?;
            if line.trim().is_empty() {
                break;
            }
            answer.push('\n');
            answer.push_str(line.trim_end());
        }
        if ok {
            Ok(answer)
        } else {
            Err(Forfeit::Illegal(format!("`{command}` refused: {answer}")))
        }
    }

    /// Brings the engine's board to `game`.
    fn sync(&mut self, game: &Game) -> Result<(), Forfeit> {
        let moves = game.moves();
        if !moves.starts_with(&self.known) {
            self.request("clear_board")?;
            self.known.clear();
        }
        for (i, &mv) in moves.iter().enumerate().skip(self.known.len()) {
            let mover = game.position_at(i).expect("a played ply").side_to_move();
            let v = match mv {
                Move::Play(sq) => sq.to_string(),
                Move::Pass => "pass".into(),
            };
            self.request(&format!("play {} {v}", color_word(mover)))?;
            self.known.push(mv);
        }
        Ok(())
    }
}

fn color_word(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

impl Contestant for GtpPlayer {
    fn choose(&mut self, game: &Game, clock: Option<Turn>) -> Result<Move, Forfeit> {
        self.sync(game)?;
        let color = color_word(game.side_to_move());
        let answer = match clock {
            Some(c) => {
                // Refused by an engine without clocks: it plays on its own settings.
                let _ = self.request(&format!("time_left {color} {:.3} 0", c.left.as_secs_f64()));
                self.request_until(&format!("genmove {color}"), c.deadline)?
            }
            None => self.request(&format!("genmove {color}"))?,
        };
        let token = answer.split_whitespace().next().unwrap_or("");
        let mv = if token.eq_ignore_ascii_case("pass") {
            Move::Pass
        } else {
            match Square::parse(token) {
                Some(sq) => Move::Play(sq),
                None => return Err(Forfeit::Illegal(format!("`{answer}`"))),
            }
        };
        self.known.push(mv);
        Ok(mv)
    }

    fn finish(&mut self) {
        self.p.quit("quit");
    }
}

struct NboardPlayer {
    p: Process,
    ping: u32,
}

impl Contestant for NboardPlayer {
    /// NBoard has no clock commands: under a clock the engine plays on its own settings, and
    /// loses on time if they take too long.
    fn choose(&mut self, game: &Game, clock: Option<Turn>) -> Result<Move, Forfeit> {
        let ggf = write_ggf(&GgfGame::from_game(game, GameInfo::default()));
        self.ping += 1;
        let ping = self.ping;
        self.p.send(&format!("set game {ggf}"))?;
        self.p.send(&format!("ping {ping}"))?;
        self.p.send("go")?;
        let deadline = clock.map_or(Instant::now() + self.p.timeout, |c| c.deadline);
        let pong = format!("pong {ping}");
        let mut synced = false;
        loop {
            let line = self.p.line(deadline)?;
            let line = line.trim();
            if line == pong {
                synced = true;
            } else if let Some(rest) = line.strip_prefix("===") {
                if !synced {
                    continue;
                }
                let token = rest
                    .split(|c: char| c == '/' || c.is_whitespace())
                    .find(|t| !t.is_empty());
                let token = token.unwrap_or("");
                if token.eq_ignore_ascii_case("pa") || token.eq_ignore_ascii_case("pass") {
                    return Ok(Move::Pass);
                }
                return Square::parse(token)
                    .map(Move::Play)
                    .ok_or_else(|| Forfeit::Illegal(format!("`{line}`")));
            }
        }
    }

    fn finish(&mut self) {
        self.p.quit("quit");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_players_file() {
        let text = r#"
[[player]]
name = "weak"
level = 2

[[player]]
name = "edax"
command = "edax -gtp -l 8"
init = ["komi 0"]
timeout = 30

[[player]]
name = "nb"
command = ["reversi", "nboard"]
protocol = "nboard"
time = 0.5
"#;
        let f = PlayersFile::parse(text).unwrap();
        assert_eq!(f.player.len(), 3);
        assert_eq!(
            f.player[0],
            PlayerSpec {
                name: "weak".into(),
                level: Some(2),
                ..Default::default()
            }
        );
        assert_eq!(
            f.player[1].command.as_ref().unwrap().argv(),
            ["edax", "-gtp", "-l", "8"]
        );
        assert_eq!(f.player[1].move_timeout(None), Duration::from_secs(30));
        assert_eq!(f.player[2].protocol, Some(Protocol::Nboard));
        assert_eq!(f.player[2].move_timeout(None), Duration::from_secs_f64(11.5));
        assert!(PlayersFile::parse("[[player]]\nname = \"x\"\nlevle = 3\n").is_err());
    }

    #[test]
    fn a_missing_program_is_a_crash() {
        let spec = PlayerSpec {
            name: "ghost".into(),
            command: Some(CommandLine::Line("/nonexistent/engine --gtp".into())),
            ..Default::default()
        };
        match start(&spec, Defaults::default(), 0) {
            Err(Forfeit::Crashed(m)) => assert!(m.contains("cannot start"), "{m}"),
            _ => panic!("expected a crash"),
        }
    }

    #[test]
    fn builtin_players_choose_legal_moves() {
        let mut p = start(&PlayerSpec::builtin(2), Defaults::default(), 7).unwrap();
        let game = Game::from_transcript(reversi_core::Rules::othello(), "f5d6c3").unwrap();
        let mv = p.choose(&game, None).unwrap();
        assert!(game.position().check(mv).is_ok());
    }
}
