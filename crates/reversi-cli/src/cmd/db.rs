//! `reversi db`: back up and restore the web app's SQLite database (PostgreSQL: `pg_dump`
//! and `pg_restore`, docs/hosting.md).

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
    }
    Ok(())
}
