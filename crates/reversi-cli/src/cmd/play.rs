//! `reversi play`: a game in the terminal — human against the computer, two humans, or the
//! computer against itself. Moves and commands are read line by line from stdin, so the game can
//! be scripted as well as played.

use super::engine_args::{score_text, EngineArgs};
use super::play_text::{Lang, Text};
use crate::setup::{random_seed, PositionArgs};
use anyhow::{Context, Result};
use reversi_core::format::ggf::{parse_ggf, write_ggf, GameInfo, GgfGame};
use reversi_core::notation::write_transcript;
use reversi_core::{Bits, Color, Game, Move, Square};
use reversi_engine::levels::{Level, MAX_LEVEL};
use reversi_engine::Engine;
use reversi_protocol::{best_moves, ponder, think};
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;

/// Who plays a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Who {
    /// A person typing moves.
    Human,
    /// The engine.
    Ai,
}

/// Arguments of `reversi play`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Type a square (d3) to move; `help` lists the commands (hint, undo, redo, \
save FILE, load FILE, board, quit). Without a terminal, moves are read line by line from stdin."
)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
    #[command(flatten)]
    engine: EngineArgs,
    /// Who plays black.
    #[arg(long, value_enum, default_value_t = Who::Human)]
    black: Who,
    /// Who plays white.
    #[arg(long, value_enum, default_value_t = Who::Ai)]
    white: Who,
    /// Draw lots for the colours: a person playing the computer gets black or white at random
    /// (the source texts' way to start; two people or two computers simply swap).
    #[arg(long)]
    lot: bool,
    /// Level of the computer playing black (default: --level).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_LEVEL as i64))]
    black_level: Option<u32>,
    /// Level of the computer playing white (default: --level).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_LEVEL as i64))]
    white_level: Option<u32>,
    /// Language of the messages (default: from LC_ALL / LC_MESSAGES / LANG).
    #[arg(long, value_enum)]
    lang: Option<Lang>,
    /// The computer thinks on your time: while you choose a move it searches your position,
    /// so that it answers from a warm table (uses a core while you think).
    #[arg(long)]
    ponder: bool,
}

struct Play {
    game: Game,
    engine: Engine,
    args: Args,
    text: Text,
    seed: u64,
}

enum Step {
    Continue,
    Quit,
}

/// Runs the command.
pub fn run(mut a: Args) -> Result<()> {
    let game = a.pos.game()?;
    let text = Text::new(Lang::choose(a.lang));
    let seed = a.pos.seed.unwrap_or_else(random_seed);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    if a.lot {
        // The lot is the seed's lowest bit (a given --seed draws the same colours again).
        if lot_swaps(seed) {
            std::mem::swap(&mut a.black, &mut a.white);
            std::mem::swap(&mut a.black_level, &mut a.white_level);
        }
        if let Some(c) = Color::ALL.into_iter().find(|&c| match c {
            Color::Black => a.black == Who::Human && a.white == Who::Ai,
            Color::White => a.white == Who::Human && a.black == Who::Ai,
        }) {
            writeln!(out, "{}", text.lot(c))?;
        }
    }
    let mut play = Play {
        game,
        engine: a.engine.engine()?,
        text,
        seed,
        args: a,
    };
    play.main_loop(stdin.lock(), &mut out)
}

/// Whether the lot drawn from `seed` swaps the colours.
fn lot_swaps(seed: u64) -> bool {
    // Mixed first: a clock-made seed's low bits are not random.
    let z = (seed ^ (seed >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (z >> 63) == 1
}

impl Play {
    fn who(&self, c: Color) -> Who {
        match c {
            Color::Black => self.args.black,
            Color::White => self.args.white,
        }
    }

    fn main_loop<R: BufRead, W: Write>(&mut self, input: R, out: &mut W) -> Result<()> {
        // Bounded lines: a command is a few words, and `/dev/zero` must not fill the memory.
        let mut lines = reversi_protocol::lines::lines(input, 64 * 1024);
        self.show(out)?;
        let mut announced_end = false;
        loop {
            if self.game.is_over() {
                if !announced_end {
                    let o = self.game.outcome().expect("over");
                    writeln!(
                        out,
                        "{}",
                        self.text.result(
                            o.black,
                            o.white,
                            o.winner,
                            o.margin(o.winner.unwrap_or(Color::Black))
                        )
                    )?;
                    if self.args.black == Who::Ai && self.args.white == Who::Ai {
                        return Ok(());
                    }
                    writeln!(out, "{}", self.text.after_end())?;
                    announced_end = true;
                }
            } else {
                announced_end = false;
                let side = self.game.side_to_move();
                if self.game.position().must_pass() {
                    writeln!(out, "{}", self.text.pass(side))?;
                    self.game.pass_if_forced();
                    continue;
                }
                if self.who(side) == Who::Ai {
                    self.ai_move(out)?;
                    continue;
                }
                write!(out, "{}", self.text.prompt(side))?;
            }
            if self.game.is_over() {
                write!(out, "> ")?;
            }
            out.flush()?;
            let side = self.game.side_to_move();
            let next = if self.args.ponder && !self.game.is_over() && self.who(!side) == Who::Ai {
                // The computer's next move is searched from the position the person is facing.
                let limits = self.ai_limits(!side);
                ponder(&self.engine, self.game.position(), &limits, || lines.next())
            } else {
                lines.next()
            };
            let Some(line) = next else {
                writeln!(out)?;
                return Ok(());
            };
            let line = match line? {
                Ok(l) => l,
                Err(_) => {
                    writeln!(out, "{}", self.text.unreadable())?;
                    continue;
                }
            };
            if let Step::Quit = self.command(line.trim(), out)? {
                writeln!(out, "{}", self.text.bye())?;
                return Ok(());
            }
        }
    }

    /// The limits of the computer playing `side`, at this point of the game.
    fn ai_limits(&self, side: Color) -> reversi_engine::Limits {
        let level = match side {
            Color::Black => self.args.black_level,
            Color::White => self.args.white_level,
        };
        let seed = self.seed ^ (self.game.ply() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        match level {
            Some(l) => Level::new(l).limits(seed),
            None => self.args.engine.limits(seed),
        }
    }

    fn ai_move<W: Write>(&mut self, out: &mut W) -> Result<()> {
        let side = self.game.side_to_move();
        let limits = self.ai_limits(side);
        writeln!(out, "{}", self.text.thinking())?;
        out.flush()?;
        let stop = AtomicBool::new(false);
        let r = think(&self.engine, self.game.position(), &limits, &stop, &mut |_| {});
        let mv = r.best.unwrap_or(Move::Pass);
        self.game.play(mv).context("the engine chose an illegal move")?;
        writeln!(
            out,
            "{}",
            self.text
                .ai_move(side, &mv.to_string(), &score_text(r.score, r.kind))
        )?;
        self.show(out)
    }

    fn command<W: Write>(&mut self, line: &str, out: &mut W) -> Result<Step> {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return Ok(Step::Continue);
        };
        let arg = words.next();
        match cmd.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => return Ok(Step::Quit),
            "help" | "?" | "h" => writeln!(out, "{}", self.text.help())?,
            "board" | "show" => self.show(out)?,
            "hint" => self.hint(arg, out)?,
            "undo" => self.undo(out)?,
            "redo" => self.redo(out)?,
            "save" => match arg {
                None => writeln!(out, "{}", self.text.needs_file("save"))?,
                Some(path) => match self.save(path) {
                    Ok(()) => writeln!(out, "{}", self.text.saved(path))?,
                    Err(e) => writeln!(out, "{}", self.text.file_error(path, &format!("{e:#}")))?,
                },
            },
            "load" => match arg {
                None => writeln!(out, "{}", self.text.needs_file("load"))?,
                Some(path) => match self.load(path) {
                    Ok(()) => {
                        writeln!(out, "{}", self.text.loaded(path))?;
                        self.show(out)?;
                    }
                    Err(e) => writeln!(out, "{}", self.text.file_error(path, &format!("{e:#}")))?,
                },
            },
            _ => self.human_move(cmd, out)?,
        }
        Ok(Step::Continue)
    }

    fn human_move<W: Write>(&mut self, input: &str, out: &mut W) -> Result<()> {
        let Some(sq) = Square::parse(input) else {
            writeln!(out, "{}", self.text.not_understood(input))?;
            return Ok(());
        };
        let pos = *self.game.position();
        if sq.col() >= pos.width() || sq.row() >= pos.height() || !pos.playable().has(sq) {
            writeln!(out, "{}", self.text.off_board(input))?;
            return Ok(());
        }
        if self.game.is_over() || !pos.legal_moves().has(sq) {
            let legal: Vec<String> = pos.legal_moves().squares().map(|s| s.to_string()).collect();
            let legal = if legal.is_empty() {
                "—".to_string()
            } else {
                legal.join(" ")
            };
            writeln!(out, "{}", self.text.illegal(&sq.to_string(), &legal))?;
            return Ok(());
        }
        self.game.play(Move::Play(sq))?;
        self.show(out)
    }

    fn hint<W: Write>(&mut self, arg: Option<&str>, out: &mut W) -> Result<()> {
        let n = arg.and_then(|a| a.parse().ok()).unwrap_or(3usize).max(1);
        // Hints come from a strong, noiseless search whatever the opponent's level.
        let limits = match self.args.engine.time {
            Some(_) => self.args.engine.limits(self.seed),
            None => Level::new(self.args.engine.level.max(10)).limits(self.seed),
        };
        let stop = AtomicBool::new(false);
        let ranked = best_moves(&self.engine, self.game.position(), &limits, n, &stop);
        let list: Vec<String> = ranked
            .iter()
            .map(|m| format!("{} {}", m.mv, score_text(m.score, m.kind)))
            .collect();
        writeln!(out, "{}", self.text.hints(&list.join(", ")))?;
        Ok(())
    }

    /// Takes back moves until a human is to move again (at least one move).
    fn undo<W: Write>(&mut self, out: &mut W) -> Result<()> {
        let humans = [self.args.black, self.args.white].contains(&Who::Human);
        if !self.game.undo() {
            writeln!(out, "{}", self.text.nothing_to_undo())?;
            return Ok(());
        }
        while humans
            && (self.who(self.game.side_to_move()) == Who::Ai || self.game.position().must_pass())
            && self.game.undo()
        {}
        self.show(out)
    }

    /// Replays undone moves up to the next human turn.
    fn redo<W: Write>(&mut self, out: &mut W) -> Result<()> {
        if !self.game.redo() {
            writeln!(out, "{}", self.text.nothing_to_redo())?;
            return Ok(());
        }
        while (self.who(self.game.side_to_move()) == Who::Ai || self.game.position().must_pass())
            && !self.game.is_over()
            && self.game.redo()
        {}
        self.show(out)
    }

    fn save(&self, path: &str) -> Result<()> {
        let text = if path.to_ascii_lowercase().ends_with(".ggf") {
            let name = |c: Color| match self.who(c) {
                Who::Human => "human".to_string(),
                Who::Ai => format!("reversi-level{}", self.level_of(c)),
            };
            let info = GameInfo {
                black: name(Color::Black),
                white: name(Color::White),
                place: Some("reversi play".into()),
                ..GameInfo::default()
            };
            write_ggf(&GgfGame::from_game(&self.game, info))
        } else {
            write_transcript(self.game.moves())
        };
        std::fs::write(path, format!("{text}\n")).with_context(|| format!("cannot write {path}"))
    }

    fn level_of(&self, c: Color) -> u32 {
        let l = match c {
            Color::Black => self.args.black_level,
            Color::White => self.args.white_level,
        };
        l.unwrap_or(self.args.engine.level)
    }

    fn load(&mut self, path: &str) -> Result<()> {
        let text = crate::input::read_text(path)?;
        self.game = if text.trim_start().starts_with("(;") {
            let g = parse_ggf(&text)?
                .into_iter()
                .next()
                .context("the file holds no game")?;
            g.to_game()?
        } else {
            Game::from_transcript(self.game.rules().clone(), text.trim())?
        };
        Ok(())
    }

    fn show<W: Write>(&self, out: &mut W) -> Result<()> {
        let pos = self.game.position();
        let mut last = None;
        let mut flipped = reversi_core::WideBits::EMPTY;
        if let Some(&Move::Play(sq)) = self.game.moves().last() {
            let before = self
                .game
                .position_at(self.game.ply() - 1)
                .expect("a previous ply");
            let mover = before.side_to_move();
            flipped = pos.discs(mover) & before.discs(!mover);
            last = Some((mover, sq));
        }
        let legal = if self.game.is_over() {
            reversi_core::WideBits::EMPTY
        } else {
            pos.legal_moves()
        };
        let mut s = String::from("\n    ");
        for c in 0..pos.width() {
            s.push((b'a' + c) as char);
            s.push(' ');
        }
        s.push('\n');
        for r in 0..pos.height() {
            s.push_str(&format!("{:>2} ", r + 1));
            for c in 0..pos.width() {
                let sq = Square::new(c, r).expect("on the grid");
                let cell = match pos.disc(sq) {
                    Some(col) if flipped.has(sq) => if col == Color::Black { 'x' } else { 'o' }.to_string(),
                    Some(col) => col.to_char().to_string(),
                    None if !pos.playable().has(sq) => "#".into(),
                    None if legal.has(sq) => "*".into(),
                    None => ".".into(),
                };
                if last.is_some_and(|(_, l)| l == sq) {
                    s.push_str(&format!("[{cell}]"));
                } else {
                    if !s.ends_with(']') {
                        s.push(' ');
                    }
                    s.push_str(&cell);
                }
            }
            if !s.ends_with(']') {
                s.push(' ');
            }
            s.push_str(&format!("{}\n", r + 1));
        }
        s.push_str("    ");
        for c in 0..pos.width() {
            s.push((b'a' + c) as char);
            s.push(' ');
        }
        s.push('\n');
        writeln!(
            out,
            "{s}{}",
            self.text.counts(pos.count(Color::Black), pos.count(Color::White))
        )?;
        if let Some((mover, sq)) = last {
            let f: Vec<String> = flipped.squares().map(|s| s.to_string()).collect();
            writeln!(out, "{}", self.text.last_move(mover, &sq.to_string(), &f))?;
        }
        if !self.game.is_over() {
            writeln!(out, "{}", self.text.to_move(pos.side_to_move()))?;
        }
        Ok(())
    }
}
