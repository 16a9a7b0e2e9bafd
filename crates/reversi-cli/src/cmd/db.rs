//! `reversi db`: back up and restore the web app's SQLite database (PostgreSQL: `pg_dump`
//! and `pg_restore`, docs/hosting.md); import games into its explorer and read a position's
//! statistics; give and take the moderator role.

use crate::out::outln;
use anyhow::{Context, Result};
use std::path::PathBuf;

/// Arguments of `reversi db`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "A backup can be taken while `reversi serve` runs: it is a consistent \
copy of one moment, every acknowledged move included. Restore with the server stopped; the old \
database is kept beside it as FILE.before-restore."
)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand, Debug)]
enum Action {
    /// Copy the database to a new file, consistently, while the server may be running.
    Backup {
        /// The backup file to make (it must not exist).
        file: PathBuf,
        /// The database, as `reversi serve --database` names it.
        #[arg(long, default_value = "sqlite://reversi.db")]
        database: String,
    },
    /// Put a backup in place of the database (stop the server first).
    Restore {
        /// The backup file.
        file: PathBuf,
        /// The database to replace, as `reversi serve --database` names it.
        #[arg(long, default_value = "sqlite://reversi.db")]
        database: String,
    },
    /// Give an account the moderator role (the reports' queue at /mod), or with `--remove`
    /// take it away; logged in the moderators' log.
    Moderator {
        /// The account's name.
        name: String,
        /// Take the role away instead.
        #[arg(long)]
        remove: bool,
        /// The database, as `reversi serve --database` names it.
        #[arg(long, default_value = "sqlite://reversi.db")]
        database: String,
    },
    /// Load games into the game database explorer: WTHOR `.wtb` files (the names from
    /// WTHOR.JOU and WTHOR.TRN beside them), GGF files, folders of them, and with `--site` the
    /// site's own finished games. Games already there are skipped.
    Import {
        /// Files or folders.
        files: Vec<PathBuf>,
        /// Also the site's finished standard games.
        #[arg(long)]
        site: bool,
        /// The database, as `reversi serve --database` names it.
        #[arg(long, default_value = "sqlite://reversi.db")]
        database: String,
    },
    /// A position's statistics in the explorer: every next move with its games, Black's wins,
    /// draws and losses, the mean final disc difference and players who chose it.
    Stats {
        /// The moves from the start (`f5d6c3`; empty: the start).
        #[arg(long, short, default_value = "")]
        moves: String,
        /// Only games with this player.
        #[arg(long)]
        player: Option<String>,
        /// Only tournaments whose name contains this.
        #[arg(long)]
        tournament: Option<String>,
        /// Only games from this year on.
        #[arg(long)]
        from: Option<i32>,
        /// Only games up to this year.
        #[arg(long)]
        to: Option<i32>,
        /// Only games of this source: wthor, ggf or site.
        #[arg(long)]
        source: Option<String>,
        /// Games listed after the moves.
        #[arg(long, default_value_t = 5)]
        games: u32,
        /// JSON, as `GET /api/explorer` answers.
        #[arg(long)]
        json: bool,
        /// Instead, time the statistics of N positions drawn from the database (seeded, so
        /// runs compare) and print p50, p99 and the slowest.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
        bench: Option<u32>,
        /// The database, as `reversi serve --database` names it.
        #[arg(long, default_value = "sqlite://reversi.db")]
        database: String,
    },
}

/// The files an import reads: the files named, and the `.wtb` and `.ggf` files of folders.
fn import_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(p)
                .with_context(|| format!("cannot read {}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| matches!(extension(f).as_str(), "wtb" | "ggf"))
                .collect();
            found.sort();
            out.extend(found);
        } else if p.exists() {
            out.push(p.clone());
        } else {
            anyhow::bail!("{}: no such file or folder", p.display());
        }
    }
    Ok(out)
}

fn extension(p: &std::path::Path) -> String {
    p.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

async fn import(files: &[PathBuf], site: bool, database: &str) -> Result<()> {
    use reversi_server::explorer::{read_ggf, read_site, read_wthor, store};
    let db = reversi_server::db::Db::connect(database)
        .await
        .with_context(|| format!("cannot open {database}"))?;
    db.explorer().prepare_bulk_import().await?;
    let started = std::time::Instant::now();
    let files = import_files(files)?;
    let mut sources = Vec::new();
    for f in &files {
        sources.push(match extension(f).as_str() {
            "wtb" => read_wthor(f)?,
            "ggf" => read_ggf(f)?,
            other => anyhow::bail!(
                "{}: .{other} is not a game file this import reads (.wtb, .ggf)",
                f.display()
            ),
        });
    }
    if site {
        sources.push(read_site(&db).await?);
    }
    let total: usize = sources.iter().map(|s| s.games.len()).sum();
    let bar = crate::progress::bar(total as u64, "games");
    let (mut new, mut skipped) = (0, 0);
    for s in &sources {
        new += store(&db, s, &mut |n| bar.inc(n as u64)).await?;
        skipped += s.skipped.len();
        for why in s.skipped.iter().take(3) {
            bar.println(format!("{}: skipped {why}", s.path.display()));
        }
    }
    bar.finish_and_clear();
    if new > 0 {
        db.explorer().count_popular().await?;
    }
    let (games, positions) = db.explorer().explorer_size().await?;
    // Closing every connection lets SQLite fold its write-ahead log into the file (the log of
    // a whole import is as large as a good part of the database).
    db.close().await;
    outln!(
        "{new} new games of {total} read ({skipped} skipped) in {:.1} s; the explorer holds {games} games, {positions} positions",
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// Times the explorer on `n` positions of the database's games (every game is drawn with
/// the same seed, then a ply in it).
async fn bench(n: u32, database: &str) -> Result<()> {
    let db = reversi_server::db::Db::connect(database)
        .await
        .with_context(|| format!("cannot open {database}"))?;
    let (games, _) = db.explorer().explorer_size().await?;
    anyhow::ensure!(
        games > 0,
        "the explorer holds no games: run `reversi db import` first"
    );
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut times = Vec::with_capacity(n as usize);
    let f = reversi_server::db::explorer::Filter::default();
    let mut start_ms = 0.0;
    // The start position first (every game reached it), then random ones.
    for i in 0..=n {
        let moves = if i == 0 {
            String::new()
        } else {
            let id = (next() % games as u64) as i64 + 1;
            let Some(g) = db.explorer().explorer_game(id).await? else {
                continue;
            };
            let plies = g.moves.len() / 2;
            let ply = (next() % (plies.max(1) as u64)) as usize;
            g.moves[..ply * 2].to_string()
        };
        let q = reversi_server::explorer::ExplorerQuery {
            moves,
            ..Default::default()
        };
        let (game, _) = reversi_server::explorer::position_of(&q)?;
        let t = std::time::Instant::now();
        reversi_server::explorer::explore(&db, &game, &f, 0, 20).await?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        if i == 0 {
            start_ms = ms;
        } else {
            times.push(ms);
        }
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    outln!(
        "{} on {}: the start position {:.1} ms; {} random positions: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        database,
        match db.dialect() {
            reversi_server::db::schema::Dialect::Sqlite => "SQLite",
            reversi_server::db::schema::Dialect::Postgres => "PostgreSQL",
        },
        start_ms,
        times.len(),
        at(0.5),
        at(0.99),
        times.last().copied().unwrap_or(0.0)
    )?;
    Ok(())
}

async fn stats(
    filter: reversi_server::explorer::ExplorerQuery,
    games: u32,
    json: bool,
    database: &str,
) -> Result<()> {
    let db = reversi_server::db::Db::connect(database)
        .await
        .with_context(|| format!("cannot open {database}"))?;
    let (game, f) = reversi_server::explorer::position_of(&filter)?;
    let started = std::time::Instant::now();
    let v = reversi_server::explorer::explore(&db, &game, &f, 0, games).await?;
    let took = started.elapsed();
    if json {
        outln!("{}", serde_json::to_string(&v)?)?;
        return Ok(());
    }
    outln!(
        "{} games reached the position ({:.1} ms)",
        v.total,
        took.as_secs_f64() * 1e3
    )?;
    outln!("move   games   share   black wins  draws  losses   mean  players")?;
    for m in &v.moves {
        outln!(
            "{:<5} {:>6}  {:>5.1} %  {:>10}  {:>5}  {:>6}  {:>+5.1}  {}",
            m.square,
            m.games,
            m.share * 100.0,
            m.black_wins,
            m.draws,
            m.black_losses,
            m.mean_margin,
            m.players.join(", ")
        )?;
    }
    for g in &v.games {
        outln!(
            "{} {} – {} {:+} ({}, {}) ply {}",
            g.year,
            g.black,
            g.white,
            g.margin,
            g.tournament,
            g.source,
            g.ply
        )?;
    }
    Ok(())
}

/// Gives (or with `remove` takes away) the moderator role of account `name`.
async fn moderator(name: &str, remove: bool, database: &str) -> Result<()> {
    use reversi_server::db::moderation::AccountAction;
    let db = reversi_server::db::Db::connect(database)
        .await
        .with_context(|| format!("cannot open {database}"))?;
    let user = match db
        .accounts()
        .user_named(&reversi_site::account::skeleton(name), name)
        .await?
    {
        Some((u, _)) if !u.deleted => u,
        _ => anyhow::bail!("{database} has no account named {name:?}"),
    };
    let (action, note) = if remove {
        (AccountAction::Revoke, "role taken away on the command line")
    } else {
        (AccountAction::Grant, "role given on the command line")
    };
    let now = db.clock().now_ms();
    db.moderation()
        .act_on_account(&user.id, action, None, None, note, now)
        .await?;
    if remove {
        outln!("{} is no longer a moderator", user.name)?;
    } else {
        outln!("{} is a moderator: the reports are at /mod", user.name)?;
    }
    Ok(())
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    match a.action {
        Action::Backup { file, database } => {
            let v = runtime
                .block_on(reversi_server::db::backup::backup(&database, &file))
                .with_context(|| format!("cannot back up {database}"))?;
            outln!("backed up {database} to {} (schema version {v})", file.display())?;
        }
        Action::Restore { file, database } => {
            let v = runtime
                .block_on(reversi_server::db::backup::restore(&file, &database))
                .with_context(|| format!("cannot restore {}", file.display()))?;
            outln!("restored {} into {database} (schema version {v})", file.display())?;
        }
        Action::Import {
            files,
            site,
            database,
        } => runtime.block_on(import(&files, site, &database))?,
        Action::Moderator {
            name,
            remove,
            database,
        } => runtime.block_on(moderator(&name, remove, &database))?,
        Action::Stats {
            bench: Some(n),
            database,
            ..
        } => runtime.block_on(bench(n, &database))?,
        Action::Stats {
            moves,
            player,
            tournament,
            from,
            to,
            source,
            games,
            json,
            database,
            bench: None,
        } => {
            let q = reversi_server::explorer::ExplorerQuery {
                moves,
                player,
                tournament,
                from,
                to,
                source,
                offset: 0,
                limit: Some(games),
            };
            runtime.block_on(stats(q, games, json, &database))?
        }
    }
    Ok(())
}
