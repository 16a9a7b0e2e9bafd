//! `reversi serve`: the web app (play in the browser against the computer or other people).

use anyhow::{Context, Result};
use reversi_server::{AppState, Config};

/// Arguments of `reversi serve`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Open the printed address in a browser. The JSON API is described in docs/api.md.")]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Database: `sqlite://FILE`, `sqlite::memory:` or a file path (created on first run), or
    /// `postgres://USER@HOST:PORT/DB` (several instances may share it: live updates go through
    /// LISTEN/NOTIFY).
    #[arg(long, default_value = "sqlite://reversi.db")]
    database: String,
    /// Engine searches running at once at most (default: cores − 1).
    #[arg(long)]
    ai_workers: Option<usize>,
    /// Hash table size of each engine, MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// HTTP requests per second allowed per client address (bursts of three times that).
    #[arg(long, default_value_t = 20.0)]
    rate: f64,
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let _ = tracing_subscriber::fmt().with_target(false).try_init();
    let mut config = Config {
        database_url: a.database.clone(),
        hash_mib: a.hash,
        rate_per_sec: a.rate.max(0.1),
        rate_burst: (a.rate * 3.0).max(1.0),
        ..Config::default()
    };
    if let Some(w) = a.ai_workers {
        config.ai_workers = w.max(1);
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let state = AppState::new(config)
            .await
            .with_context(|| format!("cannot open the database {}", a.database))?;
        let listener = tokio::net::TcpListener::bind(&a.addr)
            .await
            .with_context(|| format!("cannot listen on {}", a.addr))?;
        let addr = listener.local_addr()?;
        println!("reversi: serving on http://{addr}/ (database {})", a.database);
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        reversi_server::serve(listener, state, shutdown).await?;
        Ok(())
    })
}
