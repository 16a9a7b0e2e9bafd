//! `reversi serve`: the web app (play in the browser against the computer or other people).

use crate::out::outln;
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
    /// Engine searches running at once at most (default: cores − 1; at most 256).
    #[arg(long, value_parser = super::engine_args::threads)]
    ai_workers: Option<usize>,
    /// Hash table size of each engine, MiB (1–65536).
    #[arg(long, default_value_t = 16, value_parser = super::engine_args::hash_mib)]
    hash: usize,
    /// HTTP requests per second allowed per client address (bursts of three times that; more
    /// than 0, at most 100000).
    #[arg(long, default_value_t = 20.0, value_parser = request_rate)]
    rate: f64,
    /// Seconds after which a game nobody watches or plays leaves memory (it is read back from the
    /// database when asked for); 0 keeps every game in memory.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(0..=604_800))]
    idle_evict: u64,
    /// Engine level of game analyses in the archive.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=30))]
    analysis_level: u32,
    /// Mark seat cookies `Secure` (HTTPS only): for a server reached through a TLS proxy.
    #[arg(long)]
    secure_cookies: bool,
    /// A public origin (`https://reversi.example.org`) whose pages may act on games besides
    /// the server's own address, when a proxy rewrites `Host`; repeatable.
    #[arg(long = "allowed-origin", value_name = "ORIGIN", value_parser = origin)]
    allowed_origins: Vec<String>,
    /// Open connections at most per client address (connections from this machine, such as a
    /// local reverse proxy's, are not counted per address).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_connections_per_ip: u32,
    /// Open connections at most in all.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    max_connections: u32,
    /// Engine time one game analysis may take in all, seconds (1 to a week).
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=604_800))]
    analysis_budget: u64,
    /// Accounts one client address may make per quarter hour.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    signups_per_address: u32,
    /// Keep guests (visitors without an account) out of the chat.
    #[arg(long)]
    no_guest_chat: bool,
}

/// `--allowed-origin`: `http(s)://host[:port]`, nothing after it.
fn origin(s: &str) -> Result<String, String> {
    let s = s.trim().trim_end_matches('/');
    match s.split_once("://") {
        Some(("http" | "https", rest)) if !rest.is_empty() && !rest.contains('/') => Ok(s.to_string()),
        _ => Err("an origin is http:// or https:// and a host (with a port if not the default), as a browser writes it".into()),
    }
}

/// `--rate`: requests per second, finite, more than 0 and at most 100,000.
fn request_rate(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(r) if r.is_finite() && r > 0.0 && r <= 100_000.0 => Ok(r),
        _ => Err("the rate must be a number of requests per second, more than 0 and at most 100000".into()),
    }
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let _ = tracing_subscriber::fmt().with_target(false).try_init();
    let mut config = Config {
        database_url: a.database.clone(),
        hash_mib: a.hash,
        rate_per_sec: a.rate.max(0.1),
        rate_burst: (a.rate * 3.0).max(1.0),
        idle_evict: (a.idle_evict > 0).then(|| std::time::Duration::from_secs(a.idle_evict)),
        analysis_level: a.analysis_level,
        analysis_budget: std::time::Duration::from_secs(a.analysis_budget.max(1)),
        secure_cookies: a.secure_cookies,
        allowed_origins: a.allowed_origins.clone(),
        max_connections_per_ip: a.max_connections_per_ip as usize,
        max_connections: a.max_connections as usize,
        signups_per_address: a.signups_per_address,
        guest_chat: !a.no_guest_chat,
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
        outln!("reversi: serving on http://{addr}/ (database {})", a.database)?;
        // Ctrl-C, or SIGTERM (systemd, Docker, Kubernetes stopping the service): stop
        // accepting, finish what is in flight, flush the stored moves.
        let shutdown = async {
            #[cfg(unix)]
            {
                use tokio::signal::unix::{signal, SignalKind};
                match signal(SignalKind::terminate()) {
                    Ok(mut term) => {
                        tokio::select! {
                            _ = tokio::signal::ctrl_c() => {}
                            _ = term.recv() => {}
                        }
                    }
                    Err(_) => {
                        let _ = tokio::signal::ctrl_c().await;
                    }
                }
            }
            #[cfg(not(unix))]
            {
                let _ = tokio::signal::ctrl_c().await;
            }
        };
        reversi_server::serve(listener, state, shutdown).await?;
        Ok(())
    })
}
