//! `reversi nboard`: the engine speaking the NBoard protocol on stdin and stdout.

use super::engine_args::EngineArgs;
use anyhow::Result;
use reversi_protocol::nboard::NboardSession;

/// Arguments of `reversi nboard`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Commands: nboard, set depth, set game, set contempt, move, hint, go, ping, \
learn, analyze, quit. `set depth N` sets the level (1-30)."
)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    /// Seed of the weak levels' noise (random if absent).
    #[arg(long)]
    seed: Option<u64>,
    /// Think on the opponent's time: after each move, search the opponent's position until
    /// the next command comes (best with a core to spare).
    #[arg(long)]
    ponder: bool,
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let mut session = NboardSession::new(super::gtp::settings(&a.engine, a.seed)?)?.with_ponder(a.ponder);
    let stdin = std::io::stdin();
    session.run(std::io::BufReader::new(stdin), std::io::stdout().lock())?;
    Ok(())
}
