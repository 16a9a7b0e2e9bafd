//! `reversi tournament`: engines against each other, with a crosstable at the end.

use crate::out::out;
use crate::setup::random_seed;
use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use reversi_arena::schedule::{parse_openings, xot};
use reversi_arena::{Event, Fischer, Format, PlayerSpec, PlayersFile, Tournament};
use reversi_engine::levels::MAX_LEVEL;
use std::path::PathBuf;

/// Pairing formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Everyone meets everyone.
    RoundRobin,
    /// The first player meets every other.
    Gauntlet,
    /// `--rounds` rounds of Swiss pairings.
    Swiss,
}

/// Arguments of `reversi tournament`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Players come from --players (a TOML file of [[player]] tables: name, and \
either level/time for the built-in engine or command, protocol = \"gtp\"|\"nboard\", init, timeout \
for an external engine) and from --level, which adds the built-in engine at that level. Each \
opening is played twice per pairing with the colours swapped. Games are saved as GGF in OUT/games, \
progress in OUT/state.json (run the same command again to resume), and the crosstable in \
OUT/crosstable.{txt,md,html,json}."
)]
pub struct Args {
    /// A players file (TOML).
    #[arg(long, short = 'p')]
    players: Option<PathBuf>,
    /// Add the built-in engine at this level (repeatable).
    #[arg(long = "level", short = 'l',
          value_parser = clap::value_parser!(u32).range(1..=MAX_LEVEL as i64))]
    levels: Vec<u32>,
    /// Pairing format.
    #[arg(long, value_enum, default_value_t = FormatArg::RoundRobin)]
    format: FormatArg,
    /// Rounds of a Swiss tournament.
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Number of XOT openings (chosen by --seed) per pairing; each is played twice.
    #[arg(long, default_value_t = 2)]
    openings: usize,
    /// A file of openings (one transcript a line) instead of XOT.
    #[arg(long)]
    openings_file: Option<PathBuf>,
    /// Seconds per move for built-in players without a level and for GTP engines (more than 0,
    /// at most a week).
    #[arg(long, value_parser = positive_seconds_number)]
    time: Option<f64>,
    /// A Fischer clock for every game instead: initial seconds + increment seconds (`60+1`,
    /// `10+0.1`, `1m+1s`). A player whose time runs out loses on time; built-in players
    /// without a level play by the clock alone, and GTP engines are told their time.
    #[arg(long, conflicts_with = "time")]
    clock: Option<Fischer>,
    /// Level of built-in players that name neither a level nor a time.
    #[arg(long, default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(1..=MAX_LEVEL as i64))]
    default_level: u32,
    /// Games played at once (at most the number of processors).
    #[arg(long, short = 'j', default_value_t = 1)]
    concurrency: usize,
    /// Folder for the games, the state file and the crosstables.
    #[arg(long, short = 'o', default_value = "tournament")]
    out: PathBuf,
    /// Seed of the opening choice and the weak levels' noise (random if absent; kept in the
    /// state file, so give it again to resume).
    #[arg(long)]
    seed: Option<u64>,
    /// Print the crosstable as Markdown instead of text.
    #[arg(long)]
    markdown: bool,
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let mut players: Vec<PlayerSpec> = Vec::new();
    if let Some(path) = &a.players {
        let text = crate::input::read_text(path)?;
        let file = PlayersFile::parse(&text).with_context(|| format!("cannot read {}", path.display()))?;
        players.extend(file.player);
    }
    players.extend(a.levels.iter().map(|&l| PlayerSpec::builtin(l)));
    if players.len() < 2 {
        bail!("a tournament needs at least two players: give --players FILE and/or --level N twice");
    }
    // The seed must be the same when resuming: take it from the state file if there is one.
    let seed = match a.seed {
        Some(s) => s,
        None => previous_seed(&a.out).unwrap_or_else(|| random_seed() % 1_000_000),
    };
    let openings = match &a.openings_file {
        Some(path) => {
            let text = crate::input::read_text(path)?;
            parse_openings(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
        }
        None => {
            if a.openings == 0 {
                bail!("--openings must be at least 1");
            }
            xot(a.openings, seed)
        }
    };
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let format = match a.format {
        FormatArg::RoundRobin => Format::RoundRobin,
        FormatArg::Gauntlet => Format::Gauntlet,
        FormatArg::Swiss => Format::Swiss(a.rounds),
    };
    let t = Tournament {
        players,
        format,
        openings,
        default_level: a.default_level,
        time_per_move: a.time,
        clock: a.clock,
        concurrency: a.concurrency.clamp(1, cpus),
        seed,
    };
    let bar = ProgressBar::new(t.total_games() as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} games, ETA {eta} {msg}",
        )
        .expect("a valid template"),
    );
    let table = t.run(&a.out, &mut |e| match e {
        Event::Start { done, .. } => {
            if done > 0 {
                bar.println(format!("resuming: {done} games already played"));
            }
            bar.set_position(done as u64);
            bar.reset_eta();
        }
        Event::Round(r) => bar.set_message(format!("round {r}")),
        Event::Game(g) => {
            if let Some(why) = &g.forfeit {
                bar.println(format!("{}: forfeit, {why}", g.key));
            }
            bar.inc(1);
        }
    })?;
    bar.finish_and_clear();
    if a.markdown {
        out!("{}", table.to_markdown())?;
    } else {
        out!("{}", table.to_text())?;
    }
    eprintln!(
        "games in {}, crosstables in {}",
        a.out.join("games").display(),
        a.out.join("crosstable.{txt,md,html,json}").display()
    );
    Ok(())
}

fn previous_seed(dir: &std::path::Path) -> Option<u64> {
    let text = std::fs::read_to_string(dir.join(reversi_arena::run::STATE_FILE)).ok()?;
    let state: reversi_arena::run::State = serde_json::from_str(&text).ok()?;
    Some(state.tournament.seed)
}

/// `--time`: seconds as a number (the tournament's state file keeps it so), checked as the
/// engine's `--time` is.
fn positive_seconds_number(s: &str) -> Result<f64, String> {
    super::engine_args::positive_seconds(s)?;
    Ok(s.trim().parse().expect("checked above"))
}
