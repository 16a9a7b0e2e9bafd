//! `reversi gtp`: the engine speaking GTP version 2 on stdin and stdout.

use super::engine_args::EngineArgs;
use crate::setup::random_seed;
use anyhow::Result;
use reversi_protocol::gtp::GtpSession;
use reversi_protocol::EngineSettings;

/// Arguments of `reversi gtp`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Commands: protocol_version, name, version, known_command, list_commands, quit, \
boardsize, clear_board, komi, play, genmove, undo, showboard, final_score, time_settings, time_left; \
extensions: reversi-level N, reversi-time SECONDS, reversi-clock MAIN INCREMENT (a Fischer clock), \
reversi-variant NAME, reversi-setboard BOARD SIDE, \
reversi-moves, reversi-legal, reversi-score. Squares are Othello squares (a1 top left)."
)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    /// The name `name` answers.
    #[arg(long, default_value = "reversi")]
    name: String,
    /// Seed of the weak levels' noise (random if absent).
    #[arg(long)]
    seed: Option<u64>,
    /// Think on the opponent's time: after each move, search the opponent's position until
    /// the next command comes (best with a core to spare).
    #[arg(long)]
    ponder: bool,
}

/// The session settings from the engine options.
pub fn settings(engine: &EngineArgs, seed: Option<u64>) -> Result<EngineSettings> {
    Ok(EngineSettings {
        level: engine.level,
        time_per_move: engine.time,
        hash_mib: engine.hash,
        threads: engine.threads,
        seed: seed.unwrap_or_else(random_seed),
        eval: super::engine_args::eval_choice(&engine.eval)?,
        book: engine.book()?,
    })
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let mut session = GtpSession::new(settings(&a.engine, a.seed)?)?
        .with_name(a.name)
        .with_ponder(a.ponder);
    session.run(
        std::io::BufReader::new(std::io::stdin()),
        std::io::stdout().lock(),
    )?;
    Ok(())
}
