//! `reversi bot`: connects an engine to a Reversi site as a bot account, so that people find an
//! opponent of a chosen strength at any hour. The built-in engine at a level, or any GTP or
//! NBoard program (`--engine "edax -gtp"`), plays every game the bot is in: challenges sent to
//! it are accepted, and it keeps seeks open in the lobby for the time controls asked for.
//!
//! It talks to the site with the bot's token (`Authorization: Bearer bot_…`, made on the site's
//! account page): it follows the lobby, its tournaments and each of its games through their
//! live sockets ([`feed`]), and acts (accepts, seeks, moves) through the JSON API.

mod feed;

use super::engine_args::EngineArgs;
use anyhow::{bail, Context, Result};
use feed::{follow, Event, Follow};
use reversi_arena::clock::Turn;
use reversi_arena::player::{start, Contestant, Defaults};
use reversi_arena::{PlayerSpec, Protocol};
use reversi_core::notation::parse_move;
use reversi_core::{Bits, Game, Move, Rules, Variant};
use reversi_engine::clock::clock_limits;
use reversi_engine::levels::STRONG_LEVEL;
use reversi_site_api::{
    ApiError, GameAnswer, GameEvent, GameStatus, GameView, LobbyEvent, LobbyView, Me, NewSeek, PlayMove,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Arguments of `reversi bot`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Make the account a bot on the site's account page (Settings → Bot \
account), which shows its token once. The bot then plays rated and casual games against people \
who accept its seeks or challenge it; it never plays other bots' rated games."
)]
pub struct Args {
    /// The site, e.g. `https://reversi.example.org` or `http://127.0.0.1:8080`.
    #[arg(long)]
    server: String,
    /// The bot's API token (`bot_…`).
    #[arg(long)]
    token: String,
    /// An external engine to play instead of the built-in one: its command line.
    #[arg(long)]
    engine: Option<String>,
    /// The external engine's protocol.
    #[arg(long, value_enum, default_value_t = ProtocolArg::Gtp)]
    protocol: ProtocolArg,
    /// Time controls to keep a seek open for (repeatable; none: only challenges are played).
    #[arg(long = "seek")]
    seeks: Vec<String>,
    /// Whether its seeks are rated.
    #[arg(long)]
    rated: bool,
    /// A tournament to enter and play (its id, from its page's address; repeatable). The bot
    /// enters again if it was withdrawn, as long as entries are open.
    #[arg(long = "tournament")]
    tournaments: Vec<String>,
    /// Games played at once at most.
    #[arg(long, default_value_t = 4)]
    max_games: usize,
    /// Stop after this many games (default: run until stopped).
    #[arg(long)]
    games: Option<usize>,
    #[command(flatten)]
    engine_args: EngineArgs,
}

/// Protocols of `--protocol`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProtocolArg {
    /// GTP version 2 with Othello squares.
    Gtp,
    /// The NBoard protocol.
    Nboard,
}

/// The site's API seen by the bot.
struct Site {
    base: String,
    token: String,
    agent: ureq::Agent,
}

/// How a request ended: its answer, or the site's refusal.
enum Answer<T> {
    Done(T),
    Refused(u16, ApiError),
}

impl Site {
    /// Sends a request with an optional JSON body; the answer read as `T`.
    fn call<T: DeserializeOwned>(
        &self,
        method: &str,
        path: &str,
        body: Option<&impl Serialize>,
    ) -> Result<Answer<T>> {
        let req = self
            .agent
            .request(method, &format!("{}{path}", self.base))
            .set("Authorization", &format!("Bearer {}", self.token));
        let resp = match body {
            Some(b) => req.send_json(b),
            None => req.call(),
        };
        match resp {
            Ok(r) => Ok(Answer::Done(r.into_json().with_context(|| {
                format!("{method} {path}: an answer of another shape")
            })?)),
            Err(ureq::Error::Status(status, r)) => {
                let e = r.into_json().unwrap_or_else(|_| ApiError {
                    error: "no error body".into(),
                    code: String::new(),
                });
                Ok(Answer::Refused(status, e))
            }
            Err(e) => bail!("cannot reach {}: {e}", self.base),
        }
    }

    /// The same, a refusal being an error.
    fn ok<T: DeserializeOwned>(&self, method: &str, path: &str, body: Option<&impl Serialize>) -> Result<T> {
        match self.call(method, path, body)? {
            Answer::Done(v) => Ok(v),
            Answer::Refused(status, e) => bail!("{method} {path}: {status} {} ({})", e.error, e.code),
        }
    }
}

/// No body.
const NO_BODY: Option<&()> = None;

/// Who moves in one game: the built-in engine, or an external one started for the game.
enum Mover {
    Builtin(Box<reversi_engine::Engine>),
    External(Box<dyn Contestant>),
}

/// One game the bot plays.
struct Table {
    mover: Mover,
    /// The game's socket, followed while the bot plays it.
    _feed: Follow,
}

/// Kept back from every move's time for the network between the bot and the site (the site
/// charges the clock from its own side).
pub const NETWORK_LAG: Duration = Duration::from_millis(300);

/// The longest a bot's move thinks, whatever the clock (correspondence games have days).
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(60);

fn increment_ms(control: &str) -> u64 {
    control
        .split_once('+')
        .and_then(|(_, inc)| inc.parse::<f64>().ok())
        .map_or(0, |s| (s * 1000.0) as u64)
}

/// The game as the rules library holds it, from the server's state.
fn replay(game: &GameView) -> Result<Game> {
    let variant = &game.variant;
    let variant = Variant::from_str(variant).map_err(|e| anyhow::anyhow!("variant {variant}: {e}"))?;
    let mut g = Game::new(Rules::new(variant, 0));
    let moves: Vec<Move> = game
        .moves
        .iter()
        .map(|m| parse_move(m).map_err(|e| anyhow::anyhow!("{e}")))
        .collect::<Result<_>>()?;
    g.play_all(&moves)
        .map_err(|e| anyhow::anyhow!("the game does not replay: {e}"))?;
    Ok(g)
}

/// Runs the bot until it has played `--games` games, or for ever.
pub fn run(a: Args) -> Result<()> {
    let site = Site {
        base: a.server.trim_end_matches('/').to_string(),
        token: a.token.clone(),
        agent: ureq::AgentBuilder::new().timeout(Duration::from_secs(20)).build(),
    };
    let me: Me = site.ok("GET", "/api/account", NO_BODY)?;
    let Some(user) = me.user else {
        bail!("the server does not know this token: make the account a bot on its Settings page");
    };
    let name = user.name;
    if !user.bot {
        bail!("{name} is not a bot account");
    }
    eprintln!("{name} is on {}", site.base);
    let (tx, rx) = mpsc::channel();
    let _lobby = follow(&site.base, &site.token, "/api/lobby/ws", tx.clone(), Event::Lobby);
    let _tournaments: Vec<Follow> = a
        .tournaments
        .iter()
        .map(|t| {
            let id = t.clone();
            follow(
                &site.base,
                &site.token,
                &format!("/api/tournaments/{t}/ws"),
                tx.clone(),
                move |v| Event::Tournament(id.clone(), v),
            )
        })
        .collect();
    let mut bot = Bot {
        site,
        tx,
        tables: HashMap::new(),
        done: HashSet::new(),
        finished: 0,
    };
    let stop = AtomicBool::new(false);
    loop {
        // Everything that came meanwhile, the latest of each page only: a move is thought
        // about on the game as it is now.
        let Ok(first) = rx.recv() else {
            bail!("every socket of the site closed");
        };
        let mut lobby_now = None;
        let mut tournaments: Vec<(String, Value)> = Vec::new();
        let mut games: Vec<(String, GameView, Vec<reversi_site_api::Side>)> = Vec::new();
        for event in std::iter::once(first).chain(rx.try_iter()) {
            match event {
                Event::Lobby(LobbyEvent::Lobby { lobby }) => lobby_now = Some(lobby),
                Event::Tournament(id, v) if v["type"] == "tournament" => {
                    tournaments.retain(|(t, _)| *t != id);
                    tournaments.push((id, v["tournament"].clone()));
                }
                Event::Game(id, GameEvent::State { game, you }) => {
                    games.retain(|(g, _, _)| *g != id);
                    games.push((id, *game, you));
                }
                Event::Lobby(LobbyEvent::Error(e)) | Event::Game(_, GameEvent::Error(e)) => {
                    eprintln!("{} ({})", e.error, e.code);
                }
                Event::Tournament(_, v) if v["type"] == "error" => {
                    eprintln!("{}", v["error"].as_str().unwrap_or("an error"));
                }
                _ => {}
            }
        }
        if let Some(l) = lobby_now {
            if let Err(e) = bot.lobby(&a, &l) {
                eprintln!("lobby: {e:#}");
            }
        }
        for (id, t) in &tournaments {
            if let Err(e) = bot.tournament(&a, id, t) {
                eprintln!("tournament {id}: {e:#}");
            }
        }
        let mut ended = false;
        for (id, game, you) in &games {
            match play(&bot.site, &a, game, you, &mut bot.tables, &stop) {
                Ok(true) => {}
                Ok(false) => {
                    if let Some(Table {
                        mover: Mover::External(mut c),
                        ..
                    }) = bot.tables.remove(id)
                    {
                        c.finish();
                    }
                    bot.done.insert(id.clone());
                    bot.finished += 1;
                    ended = true;
                    eprintln!("game {id} over ({} played)", bot.finished);
                }
                Err(e) => eprintln!("game {id}: {e:#}"),
            }
        }
        if a.games.is_some_and(|n| bot.finished >= n) {
            return Ok(());
        }
        // A table came free: the challenges waiting (the lobby, read once now).
        if ended {
            match bot.site.ok("GET", "/api/lobby", NO_BODY) {
                Ok(l) => {
                    if let Err(e) = bot.lobby(&a, &l) {
                        eprintln!("lobby: {e:#}");
                    }
                }
                Err(e) => eprintln!("lobby: {e:#}"),
            }
        }
    }
}

/// The bot's state between events.
struct Bot {
    site: Site,
    /// Where each game's socket sends its states.
    tx: mpsc::Sender<Event>,
    tables: HashMap<String, Table>,
    done: HashSet<String>,
    finished: usize,
}

impl Bot {
    /// Takes the new games, accepts the challenges sent to the bot, keeps its seeks open; `l` is
    /// the lobby.
    fn lobby(&mut self, a: &Args, l: &LobbyView) -> Result<()> {
        for s in &l.started {
            if !self.tables.contains_key(&s.game) && !self.done.contains(&s.game) {
                self.sit(a, &s.game)?;
            }
        }
        for s in &l.seeks {
            if s.for_you && self.tables.len() < a.max_games {
                let accepted: Answer<GameAnswer> =
                    self.site
                        .call("POST", &format!("/api/seeks/{}/accept", s.id), NO_BODY)?;
                // Refused: taken by another, or withdrawn meanwhile.
                if let Answer::Done(r) = accepted {
                    self.sit(a, &r.game.id)?;
                }
            }
        }
        let mine: Vec<&str> = l
            .seeks
            .iter()
            .filter(|s| s.mine)
            .map(|s| s.control.as_str())
            .collect();
        if self.tables.len() < a.max_games {
            for control in &a.seeks {
                if !mine.contains(&control.as_str()) {
                    let seek = NewSeek {
                        control: control.clone(),
                        rated: a.rated,
                        ..NewSeek::default()
                    };
                    let _: Value = self.site.ok("POST", "/api/seeks", Some(&seek))?;
                }
            }
        }
        Ok(())
    }

    /// Enters tournament `id` (again, if withdrawn) and sits at the bot's game there, `t` being its
    /// state.
    fn tournament(&mut self, a: &Args, id: &str, t: &Value) -> Result<()> {
        let path = format!("/api/tournaments/{id}");
        let me = &t["me"];
        let open = matches!(t["status"].as_str(), Some("upcoming" | "running" | "paused"));
        if open && me["active"] != true && me["removed"] != true && me["join_error"].is_null() {
            let _: Value = self.site.ok("POST", &format!("{path}/join"), NO_BODY)?;
            eprintln!("entered tournament {id} ({})", t["name"].as_str().unwrap_or(""));
        }
        if let Some(g) = me["game"].as_str() {
            if !self.tables.contains_key(g) && !self.done.contains(g) {
                self.sit(a, g)?;
            }
        }
        Ok(())
    }

    /// Starts playing game `id`: its seat token, an engine for it, and its socket followed.
    fn sit(&mut self, a: &Args, id: &str) -> Result<()> {
        let g: GameAnswer = self.site.ok("GET", &format!("/api/games/{id}"), NO_BODY)?;
        // The bot acts with its own token: an account's seat follows the account's credentials,
        // and the seat token alone moves nothing. The token handed here says it has a seat.
        if g.token.is_none() {
            bail!("game {id}: the server gave no seat to this bot");
        }
        let mover = match &a.engine {
            None => Mover::Builtin(Box::new(a.engine_args.engine()?)),
            Some(cmd) => {
                let spec = PlayerSpec {
                    name: cmd.clone(),
                    command: Some(reversi_arena::player::CommandLine::Line(cmd.clone())),
                    protocol: Some(match a.protocol {
                        ProtocolArg::Gtp => Protocol::Gtp,
                        ProtocolArg::Nboard => Protocol::Nboard,
                    }),
                    ..PlayerSpec::default()
                };
                Mover::External(
                    start(
                        &spec,
                        Defaults {
                            level: a.engine_args.level,
                            ..Defaults::default()
                        },
                        0,
                    )
                    .map_err(|e| anyhow::anyhow!("{cmd}: {e}"))?,
                )
            }
        };
        eprintln!("playing game {id}");
        let game = id.to_string();
        let feed = follow(
            &self.site.base,
            &self.site.token,
            &format!("/api/games/{id}/ws"),
            self.tx.clone(),
            move |v| Event::Game(game.clone(), v),
        );
        self.tables.insert(id.to_string(), Table { mover, _feed: feed });
        Ok(())
    }
}

/// Moves in `game` (the state its socket sent, the bot playing `you`) if it is the bot's turn;
/// false once the game is over.
fn play(
    site: &Site,
    a: &Args,
    game: &GameView,
    you: &[reversi_site_api::Side],
    tables: &mut HashMap<String, Table>,
    stop: &AtomicBool,
) -> Result<bool> {
    let id = &game.id;
    if game.status != GameStatus::Playing {
        return Ok(false);
    }
    let Some(to_move) = game.to_move else {
        return Ok(true);
    };
    if !you.contains(&to_move) {
        return Ok(true);
    }
    let Some(table) = tables.get_mut(id) else {
        return Ok(true);
    };
    let g = replay(game)?;
    let clock = game.online.as_ref().and_then(|o| o.clock.as_ref());
    let clock_left = clock.map(|c| match to_move {
        reversi_site_api::Side::Black => c.black_ms,
        reversi_site_api::Side::White => c.white_ms,
    });
    let left = clock_left.unwrap_or(u64::MAX / 4);
    let inc = increment_ms(clock.map_or("", |c| c.control.as_str()));
    let mv = match &mut table.mover {
        Mover::Builtin(engine) => {
            let mut limits = a.engine_args.limits(g.ply() as u64);
            // Even with days on the clock, a move takes a minute at most.
            limits.time = Some(limits.time.map_or(MAX_MOVE_TIME, |t| t.min(MAX_MOVE_TIME)));
            let strong = a.engine_args.level >= STRONG_LEVEL || a.engine_args.time.is_some();
            let limits = clock_limits(
                limits,
                strong,
                Duration::from_millis(left.min(u64::MAX / 4)),
                Duration::from_millis(inc),
                g.position().empties().count(),
                NETWORK_LAG,
            );
            let r = reversi_protocol::think(engine, g.position(), &limits, stop, &mut |_| {});
            r.best.context("the engine found no move")?
        }
        Mover::External(c) => {
            // The engine is told its time (GTP `time_left`) less the network's share, and
            // stopped when the site's flag would fall.
            let turn = clock_left.map(|ms| {
                let left = Duration::from_millis(ms).min(reversi_engine::levels::MAX_TIME);
                Turn {
                    left: left.saturating_sub(NETWORK_LAG),
                    increment: Duration::from_millis(inc),
                    deadline: Instant::now() + left,
                }
            });
            c.choose(&g, turn)
                .map_err(|e| anyhow::anyhow!("the engine: {e}"))?
        }
    };
    let body = PlayMove {
        mv: mv.to_string(),
        ply: Some(game.ply),
    };
    let moved: Answer<GameAnswer> = site.call("POST", &format!("/api/games/{id}/moves"), Some(&body))?;
    match moved {
        // 409: the game moved on meanwhile (its socket brings the new state).
        Answer::Done(_) | Answer::Refused(409, _) => Ok(true),
        Answer::Refused(code, e) => bail!("move {mv}: {code} {} ({})", e.error, e.code),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn increments_are_read_from_the_control() {
        assert_eq!(increment_ms("3+2"), 2_000);
        assert_eq!(increment_ms("0.5+0.5"), 500);
        assert_eq!(increment_ms("1d"), 0);
    }
}
