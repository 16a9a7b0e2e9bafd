//! Options shared by the commands that start from a position: variant, moves or board.

use anyhow::{bail, Context, Result};
use clap::Args;
use reversi_core::notation::parse_board;
use reversi_core::{AnyPosition, Color, Game, Rules, TieRule, Variant};

/// Where a position comes from.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Rules preset: othello, nxn:N, nxn-parallel:N, grand, eight-stars, black-hole[:SQ], anti,
    /// xot[:LINE], reversi-1880.
    #[arg(long, short = 'v', default_value = "othello")]
    pub variant: Variant,
    /// Who moves first in reversi-1880 (black or white).
    #[arg(long, value_parser = parse_color)]
    pub first: Option<Color>,
    /// What an equal count means: `draw` (every preset) or `second-wins` (one box edition's
    /// rule: the player who moved second wins a tie).
    #[arg(long, value_parser = parse_tie, default_value = "draw")]
    pub tie: TieRule,
    /// Discs in each player's supply in reversi-1880 (32; one source gives the old game 30).
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=32))]
    pub supply: Option<u8>,
    /// Seed for the variant's random choice (black-hole square, XOT line); random if absent.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Moves from the start, as a transcript (`f5d6c3` or `f5 d6 c3`; passes optional).
    #[arg(long, short = 'm', conflicts_with = "board", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// A board string and side to move: 64 characters (X, O, -) from a1, then X or O.
    #[arg(long, short = 'b', allow_hyphen_values = true)]
    pub board: Option<String>,
}

fn parse_tie(s: &str) -> Result<TieRule, String> {
    TieRule::parse(&s.to_ascii_lowercase())
        .ok_or_else(|| format!("`{s}` is not a tie rule (draw or second-wins)"))
}

fn parse_color(s: &str) -> Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "black" | "b" | "x" => Ok(Color::Black),
        "white" | "w" | "o" => Ok(Color::White),
        _ => Err(format!("`{s}` is not a colour (black or white)")),
    }
}

impl PositionArgs {
    /// The rules these options name.
    pub fn rules(&self) -> Result<Rules> {
        let mut variant = self.variant;
        if let Some(first) = self.first {
            match variant {
                Variant::Reversi1880(_) => variant = Variant::Reversi1880(first),
                _ => bail!("--first applies only to the reversi-1880 variant"),
            }
        }
        let seed = self.seed.unwrap_or_else(random_seed);
        let rules = Rules::new(variant, seed).with_tie_rule(self.tie);
        match self.supply {
            None => Ok(rules),
            Some(n) => rules
                .with_supply(n)
                .ok_or_else(|| anyhow::anyhow!("--supply applies only to the reversi-1880 variant")),
        }
    }

    /// The game these options describe (moves replayed from the start, or a board).
    pub fn game(&self) -> Result<Game> {
        let rules = self.rules()?;
        if let Some(b) = &self.board {
            let pos: AnyPosition = parse_board(&rules, b).context("cannot read --board")?;
            return Ok(Game::from_position(rules, pos));
        }
        match &self.moves {
            Some(m) => Game::from_transcript(rules, m).context("cannot replay --moves"),
            None => Ok(Game::new(rules)),
        }
    }
}

/// A seed from the clock and the process id: the CLI's only source of randomness.
pub fn random_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    t ^ ((std::process::id() as u64) << 32)
}
