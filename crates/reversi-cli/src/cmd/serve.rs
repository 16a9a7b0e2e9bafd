//! `reversi serve`: the web app (play in the browser against the computer or other people).

use crate::out::outln;
use anyhow::{Context, Result};
use reversi_server::config::masked_url;
use reversi_server::{AppState, Config};

/// Arguments of `reversi serve`. Each may also come from the environment (`REVERSI_` and the
/// option's name: `REVERSI_DATABASE`, `REVERSI_MAX_CONNECTIONS`) or from the configuration
/// file (`--config`, the option's name as the key): an option given on the command line wins
/// over the environment, which wins over the file, which wins over the default.
#[derive(clap::Args, Debug, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[command(
    after_help = "Open the printed address in a browser. The JSON API is described in docs/api.md; \
hosting (configuration file, health checks, backups) in docs/hosting.md."
)]
pub struct Args {
    /// A configuration file (TOML): `rate = 50`, `allowed-origin = ["https://…"]`, … — any option
    /// of this command by its name.
    #[arg(long, env = "REVERSI_CONFIG", value_name = "FILE")]
    #[serde(skip)]
    config: Option<std::path::PathBuf>,
    /// Print the settings in effect (secrets masked) as a configuration file, and exit.
    #[arg(long)]
    #[serde(skip)]
    print_config: bool,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", env = "REVERSI_ADDR")]
    addr: String,
    /// Database: `sqlite://FILE`, `sqlite::memory:` or a file path (created on first run), or
    /// `postgres://USER@HOST:PORT/DB` (several instances may share it: live updates go through
    /// LISTEN/NOTIFY).
    #[arg(long, default_value = "sqlite://reversi.db", env = "REVERSI_DATABASE")]
    database: String,
    /// Engine searches running at once at most (default: cores − 1; at most 256).
    #[arg(long, value_parser = super::engine_args::threads, env = "REVERSI_AI_WORKERS")]
    ai_workers: Option<usize>,
    /// Hash table size of each engine, MiB (1–65536).
    #[arg(long, default_value_t = 16, value_parser = super::engine_args::hash_mib, env = "REVERSI_HASH")]
    hash: usize,
    /// HTTP requests per second allowed per client address (bursts of three times that; more
    /// than 0, at most 100000).
    #[arg(long, default_value_t = 20.0, value_parser = request_rate, env = "REVERSI_RATE")]
    rate: f64,
    /// Seconds after which a game nobody watches or plays leaves memory (it is read back from the
    /// database when asked for); 0 keeps every game in memory.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(0..=604_800), env = "REVERSI_IDLE_EVICT")]
    idle_evict: u64,
    /// Engine level of game analyses in the archive.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=30), env = "REVERSI_ANALYSIS_LEVEL")]
    analysis_level: u32,
    /// Mark seat cookies `Secure` (HTTPS only): for a server reached through a TLS proxy.
    #[arg(long, env = "REVERSI_SECURE_COOKIES")]
    secure_cookies: bool,
    /// The site's public origin (`https://reversi.example.org`): its pages may act on games, and
    /// its host is served (requests naming another host than an IP address, `localhost` or a
    /// public origin's are refused, against DNS rebinding); repeatable. Needed when the site
    /// is reached by a name, as behind a TLS proxy.
    #[arg(long = "allowed-origin", value_name = "ORIGIN", value_parser = origin, env = "REVERSI_ALLOWED_ORIGIN", value_delimiter = ',')]
    #[serde(rename = "allowed-origin")]
    allowed_origins: Vec<String>,
    /// A proxy (address or network, `10.0.0.0/8`) whose `X-Forwarded-For` names the client:
    /// the per-address limits then count the client, not the proxy; repeatable. Requests from
    /// other addresses are taken at their word of nothing.
    #[arg(long = "trusted-proxy", value_name = "ADDRESS", value_parser = proxy, env = "REVERSI_TRUSTED_PROXY", value_delimiter = ',')]
    #[serde(rename = "trusted-proxy", serialize_with = "as_strings")]
    trusted_proxies: Vec<ipnet::IpNet>,
    /// Open connections at most per client address (connections from this machine, such as a
    /// local reverse proxy's, are not counted per address).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=1_000_000), env = "REVERSI_MAX_CONNECTIONS_PER_IP")]
    max_connections_per_ip: u32,
    /// Open connections at most in all.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u32).range(1..=10_000_000), env = "REVERSI_MAX_CONNECTIONS")]
    max_connections: u32,
    /// Engine time one game analysis may take in all, seconds (1 to a week).
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=604_800), env = "REVERSI_ANALYSIS_BUDGET")]
    analysis_budget: u64,
    /// The analysis board searches a move at most this deep, in plies (a cap for public
    /// servers: each position costs up to `board-time` of engine time).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=60), env = "REVERSI_BOARD_DEPTH")]
    board_depth: u32,
    /// Engine time the analysis board may spend on one position, seconds.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600), env = "REVERSI_BOARD_TIME")]
    board_time: u64,
    /// Opening book the computer plays from and the analysis board shows: `default` (the one
    /// in the binary), `off`, or a file made by `reversi book`.
    #[arg(long, default_value = "default", env = "REVERSI_BOOK")]
    book: String,
    /// Accounts one client address may make per quarter hour.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1_000_000), env = "REVERSI_SIGNUPS_PER_ADDRESS")]
    signups_per_address: u32,
    /// Games (against the computer, with a friend, on one device) one client address may
    /// create per hour.
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u32).range(1..=10_000_000), env = "REVERSI_GAMES_PER_ADDRESS_HOUR")]
    games_per_address_hour: u32,
    /// The token a Prometheus scrape of `/metrics` must send (`Authorization: Bearer TOKEN`);
    /// without one, the server exports no metrics.
    #[arg(long, env = "REVERSI_METRICS_TOKEN", value_name = "TOKEN", value_parser = metrics_token)]
    metrics_token: Option<String>,
    /// How the log is written: `text` (for a terminal) or `json` (one object a line, for a log
    /// collector). The level comes from `RUST_LOG` (default `info`).
    #[arg(long, value_enum, default_value_t = LogFormat::Text, env = "REVERSI_LOG_FORMAT")]
    log_format: LogFormat,
    /// The site's public address (`https://reversi.example.org`): the links in its mail start
    /// with it (never with a request's `Host`), and it is an allowed origin.
    #[arg(long, env = "REVERSI_PUBLIC_URL", value_name = "URL", value_parser = origin)]
    public_url: Option<String>,
    /// The SMTP server the site mails through (address verification, password reset):
    /// `smtp://HOST:PORT` (plain text, a relay on this machine), `smtp://USER:PASSWORD@HOST:587?tls=required`
    /// (STARTTLS) or `smtps://USER:PASSWORD@HOST` (TLS). Needs `--public-url`. Without it the
    /// site sends no mail, and its pages say a forgotten password cannot be reset here.
    #[arg(long, env = "REVERSI_SMTP_URL", value_name = "URL", requires = "public_url")]
    smtp_url: Option<String>,
    /// The sender of the site's mail (default `Reversi <noreply@HOST>`, HOST the public URL's).
    #[arg(long, env = "REVERSI_MAIL_FROM", value_name = "ADDRESS")]
    mail_from: Option<String>,
    /// Keep guests (visitors without an account) out of the chat.
    #[arg(long, env = "REVERSI_NO_GUEST_CHAT")]
    no_guest_chat: bool,
}

/// `--log-format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object a line, with the request's span (its id) on each.
    Json,
}

/// `--metrics-token`: 16 to 200 visible characters (it guards the server's internals).
fn metrics_token(s: &str) -> Result<String, String> {
    let ok = (16..=200).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_graphic());
    if ok {
        Ok(s.to_string())
    } else {
        Err("a metrics token has 16 to 200 visible ASCII characters".into())
    }
}

/// `--trusted-proxy`: an address (`10.0.0.5`) or a network (`10.0.0.0/8`).
fn proxy(s: &str) -> Result<ipnet::IpNet, String> {
    let s = s.trim();
    if let Ok(n) = s.parse::<ipnet::IpNet>() {
        return Ok(n);
    }
    s.parse::<std::net::IpAddr>()
        .map(ipnet::IpNet::from)
        .map_err(|_| "a trusted proxy is an IP address (10.0.0.5) or a network (10.0.0.0/8)".into())
}

fn as_strings<S: serde::Serializer>(v: &[ipnet::IpNet], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|n| n.to_string()))
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

/// The options as given after `reversi serve` on this process's command line.
fn command_line() -> Vec<std::ffi::OsString> {
    let all: Vec<std::ffi::OsString> = std::env::args_os().collect();
    match all.iter().position(|a| a == "serve") {
        Some(i) => all[i + 1..].to_vec(),
        None => Vec::new(),
    }
}

fn serve_command() -> clap::Command {
    use clap::Args as _;
    Args::augment_args(clap::Command::new("reversi serve").no_binary_name(true))
}

/// `a` with the configuration file's values added for the options that neither the command
/// line nor the environment set. Every bad key or value is an error naming the file and key.
pub fn with_config_file(a: Args, given: Vec<std::ffi::OsString>) -> Result<Args> {
    use clap::FromArgMatches;
    let Some(path) = a.config.clone() else {
        return Ok(a);
    };
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read the configuration file {}", path.display()))?;
    let table: toml::Table =
        toml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.message()))?;
    let matches = serve_command().try_get_matches_from(given.clone())?;
    let cmd = serve_command();
    let mut extra: Vec<std::ffi::OsString> = Vec::new();
    for (key, value) in &table {
        let long = key.replace('_', "-");
        let arg = cmd
            .get_arguments()
            .find(|x| {
                x.get_long() == Some(long.as_str()) && !matches!(long.as_str(), "config" | "print-config")
            })
            .ok_or_else(|| {
                let known: Vec<&str> = cmd
                    .get_arguments()
                    .filter_map(|x| x.get_long())
                    .filter(|l| !matches!(*l, "config" | "print-config" | "help"))
                    .collect();
                anyhow::anyhow!(
                    "{}: unknown key {key:?}; the keys are {}",
                    path.display(),
                    known.join(", ")
                )
            })?;
        if matches!(
            matches.value_source(arg.get_id().as_str()),
            Some(clap::parser::ValueSource::CommandLine | clap::parser::ValueSource::EnvVariable)
        ) {
            continue;
        }
        let scalar = |v: &toml::Value| -> Result<String> {
            Ok(match v {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Float(f) => f.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                _ => anyhow::bail!(
                    "{}: {key}: a value is a string, a number or true/false",
                    path.display()
                ),
            })
        };
        let mut these: Vec<std::ffi::OsString> = Vec::new();
        let is_switch = !arg.get_action().takes_values();
        match value {
            toml::Value::Boolean(b) if is_switch => {
                if *b {
                    these.push(format!("--{long}").into());
                }
            }
            _ if is_switch => anyhow::bail!("{}: {key}: this key is true or false", path.display()),
            toml::Value::Array(items) => {
                for v in items {
                    these.push(format!("--{long}={}", scalar(v)?).into());
                }
            }
            v => these.push(format!("--{long}={}", scalar(v)?).into()),
        }
        // Each key checked alone, so that an error names it.
        serve_command()
            .try_get_matches_from(these.clone())
            .map_err(|e| anyhow::anyhow!("{}: {key}: {}", path.display(), first_line(&e)))?;
        extra.extend(these);
    }
    let mut all = given;
    all.extend(extra);
    let m = serve_command().try_get_matches_from(all)?;
    Ok(Args::from_arg_matches(&m)?)
}

/// A clap error's own words, without its usage lines.
fn first_line(e: &clap::Error) -> String {
    e.to_string()
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start_matches("error: ")
        .to_string()
}

/// The settings in effect, as a configuration file (the database's and SMTP server's passwords
/// masked).
pub fn effective_config(a: &Args) -> Result<String> {
    let mut v = toml::Table::try_from(a).context("the settings")?;
    v.insert("database".into(), toml::Value::String(masked_url(&a.database)));
    if let Some(url) = &a.smtp_url {
        v.insert("smtp-url".into(), toml::Value::String(masked_url(url)));
    }
    if v.contains_key("metrics-token") {
        v.insert("metrics-token".into(), toml::Value::String("****".into()));
    }
    Ok(toml::to_string(&v)?)
}

/// Runs the command.
pub fn run(a: Args) -> Result<()> {
    let a = with_config_file(a, command_line())?;
    if a.print_config {
        print!("{}", effective_config(&a)?);
        return Ok(());
    }
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    match a.log_format {
        LogFormat::Text => {
            let _ = tracing_subscriber::fmt()
                .with_target(false)
                .with_env_filter(filter)
                .try_init();
        }
        LogFormat::Json => {
            let _ = tracing_subscriber::fmt()
                .json()
                .with_current_span(true)
                .with_span_list(true)
                .with_env_filter(filter)
                .try_init();
        }
    }
    let mut config = Config {
        database_url: a.database.clone(),
        hash_mib: a.hash,
        rate_per_sec: a.rate.max(0.1),
        rate_burst: (a.rate * 3.0).max(1.0),
        idle_evict: (a.idle_evict > 0).then(|| std::time::Duration::from_secs(a.idle_evict)),
        analysis_level: a.analysis_level,
        analysis_budget: std::time::Duration::from_secs(a.analysis_budget.max(1)),
        board_depth: a.board_depth,
        book: reversi_server::config::BookChoice(super::engine_args::book_choice(&a.book)?),
        board_time: std::time::Duration::from_secs(a.board_time.max(1)),
        secure_cookies: a.secure_cookies,
        allowed_origins: a.allowed_origins.clone(),
        max_connections_per_ip: a.max_connections_per_ip as usize,
        max_connections: a.max_connections as usize,
        signups_per_address: a.signups_per_address,
        games_per_address_hour: a.games_per_address_hour,
        trusted_proxies: a.trusted_proxies.clone(),
        metrics_token: a.metrics_token.clone(),
        guest_chat: !a.no_guest_chat,
        ..Config::default()
    };
    if let Some(w) = a.ai_workers {
        config.ai_workers = w.max(1);
    }
    if let Some(public) = &a.public_url {
        if !config.allowed_origins.contains(public) {
            config.allowed_origins.push(public.clone());
        }
    }
    if let Some(url) = &a.smtp_url {
        let public = a.public_url.as_deref().context("--smtp-url needs --public-url")?;
        let from = a
            .mail_from
            .clone()
            .unwrap_or_else(|| reversi_server::mail::Mailer::default_from(public));
        config.mail = Some(reversi_server::mail::Mailer::new(url, &from, public).context("--smtp-url")?);
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
