//! The game room: one actor per game being played or watched (after lila's `round`).
//!
//! Each game held in memory is a task ([`actor`]) that owns its [`LiveGame`] and does one thing
//! at a time: the moves of people ([`mover`]) and of the computer, resignation, abort, undo,
//! takebacks between people ([`takebacker`]), conditional premoves ([`premover`]), a claim, a
//! flag, a rematch ([`rematcher`]), who is connected ([`presence`]). Whatever ends a game goes
//! through [`finisher`] (ratings, and the news for the tournaments). Every change is
//! published once on the game's versioned event stream ([`events`]): the sockets, the timers of
//! the deadlines ([`timers`]) and the other instances (through the database's notifications)
//! follow it.
//!
//! [`Rounds`] is the service the handlers and the other services ask: it finds a game's actor
//! (loading the game from storage, or starting the actor again after it stopped for idleness)
//! and sends it a [`Command`]; nothing here knows of HTTP.

mod actor;
pub mod events;
mod finisher;
mod mover;
mod premover;
mod presence;
mod rematcher;
mod takebacker;
pub mod timers;

use crate::ai::{AiPool, Hint};
use crate::db::{ChatLine, Db, GameSummary};
use crate::error::{Error, Result};
use crate::secret::{random_string, random_u64};
pub use events::{GameEvent, Published};
use reversi_core::{Color, Rules, Variant};
use reversi_site::game::presence::InstanceCounts;
use reversi_site::game::{GameRecord, LiveGame, Mode, PlayerKind};
use reversi_site_api::{GameView, ReplayView};
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot};

/// What a client asks for when it creates a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// Against the computer, a friend, or two players on one device.
    pub mode: Mode,
    /// The variant preset (RULES.md §4), e.g. `othello`, `nxn:6`, `black-hole`.
    pub variant: String,
    /// The computer's level, 1..=30.
    pub level: u32,
    /// The creator's colour; `None` for a random one.
    pub color: Option<Color>,
    /// What an equal count means (RULES.md §4: a draw in every preset; the box edition's
    /// "the player who moved second wins" as an option).
    pub tie: reversi_core::TieRule,
}

/// A game just created or joined: its state and the caller's secret seat token.
#[derive(Clone, Debug)]
pub struct Seated {
    /// The game's state.
    pub view: GameView,
    /// The seat token (send it back as a cookie or bearer token).
    pub token: String,
    /// The seats the token holds.
    pub seats: Vec<Color>,
    /// The secret of the invite link while a seat is free (for the seat holders to pass on).
    pub invite: Option<String>,
}

/// News of the game room for the rest of the site: a game ended (after the finisher's work:
/// ratings applied, a tournament's absent player withdrawn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The game.
    pub game: String,
    /// Its tournament, if any.
    pub tournament: Option<String>,
    /// The player key of a player who lost by not starting the game, if one did.
    pub forfeit: Option<String>,
}

/// Settings of the game room.
#[derive(Clone, Debug)]
pub struct RoundConfig {
    /// A game nobody watches and nobody has used for this long leaves memory.
    pub idle_evict: Option<Duration>,
}

/// What every actor shares: storage, the engines, the timers, the news. (Not the map of actors,
/// which holds their handles: an actor holding the map would keep itself, and every other, alive
/// after the server let go of them.)
pub(crate) struct Shared {
    pub(crate) db: Db,
    pub(crate) ai: Arc<AiPool>,
    /// Deadlines to time ([`timers::run`]).
    pub(crate) deadlines: mpsc::UnboundedSender<(String, u64)>,
    /// Games that ended.
    pub(crate) finished: broadcast::Sender<Finished>,
    /// When this instance started (Unix ms): no absence counts from earlier.
    pub(crate) started_at: i64,
    /// Flags and missed first moves this instance has claimed.
    pub(crate) deadlines_claimed: AtomicU64,
}

/// The actor of each game held in memory.
type Map = Mutex<HashMap<String, RoundHandle>>;

/// Commands an actor takes, each with the channel its answer goes back on.
pub(crate) enum Command {
    /// The state, and the seats `token` holds.
    View {
        token: Option<String>,
        reply: oneshot::Sender<(GameView, Vec<Color>)>,
    },
    /// A receiver of every later event, the state now and the seats of `token`.
    Subscribe {
        token: Option<String>,
        reply: oneshot::Sender<(broadcast::Receiver<Arc<GameEvent>>, GameView, Vec<Color>)>,
    },
    /// Runs a read of the game (its record, its moves) and answers what it computed.
    Read(Box<dyn FnOnce(&LiveGame) + Send>),
    /// A person's move; answered once stored (and, with `wait_engine`, once the computer has
    /// answered it too).
    Play {
        token: Option<String>,
        mv: String,
        ply: Option<usize>,
        wait_engine: bool,
        reply: oneshot::Sender<Result<GameView>>,
    },
    /// The computer's search of job `job` ended.
    EngineMoved {
        job: u64,
        result: Result<reversi_core::Move>,
    },
    /// Resigns for the holder of `token` (`color` on a shared device).
    Resign {
        token: Option<String>,
        color: Option<Color>,
        reply: oneshot::Sender<Result<GameView>>,
    },
    /// Aborts for the holder of `token`.
    Abort {
        token: Option<String>,
        reply: oneshot::Sender<Result<GameView>>,
    },
    /// Takes back the last move of the holder of `token` (against the computer).
    Undo {
        token: Option<String>,
        reply: oneshot::Sender<Result<GameView>>,
    },
    /// The holder of `token` asks for a takeback (`answer` `None`; an acceptance if the
    /// opponent asked first), or answers one: accepts the opponent's, declines it, or withdraws
    /// its own.
    Takeback {
        token: Option<String>,
        answer: Option<bool>,
        reply: oneshot::Sender<Result<GameView>>,
    },
    /// The conditional premoves of the holder of `token`: set to `lines` when given; answered
    /// as stored.
    Conditional {
        token: Option<String>,
        lines: Option<Vec<String>>,
        reply: oneshot::Sender<Result<Vec<String>>>,
    },
    /// Claims the win for the holder of `token` from an opponent who left.
    Claim {
        token: Option<String>,
        reply: oneshot::Sender<Result<GameView>>,
    },
    /// Takes the free seat with the invite secret.
    Join {
        token: Option<String>,
        invite: Option<String>,
        reply: oneshot::Sender<Result<Seated>>,
    },
    /// The rematch for the holder of `token`; `true` when this call made it.
    Rematch {
        token: Option<String>,
        reply: oneshot::Sender<Result<(Seated, bool)>>,
    },
    /// Applies the deadline if it has passed; `true` when this call ended the game.
    Expire { reply: oneshot::Sender<Result<bool>> },
    /// Closes the game as abandoned if it is still played without a deadline.
    Abandon { reply: oneshot::Sender<Result<bool>> },
    /// A moderator closes the game (no result).
    Close {
        reply: oneshot::Sender<Result<GameView>>,
    },
    /// Applies the ratings of a finished rated game not rated yet.
    Rate { reply: oneshot::Sender<Result<()>> },
    /// Another instance changed the stored game: read it again.
    Refresh { reply: oneshot::Sender<Result<()>> },
    /// A socket holding `seats` (none: a spectator) opened (`enter`) or closed.
    Presence { seats: Vec<Color>, enter: bool },
    /// Another instance's counts changed: read them again.
    PresenceChanged,
    /// Read the counts again if a player is connected only at other instances.
    RecheckRemotePresence,
    /// A round trip measured on the socket of the holder of `seats`.
    Lag { seats: Vec<Color>, rtt_ms: u64 },
    /// A deleted account's name leaves the game's seats.
    ForgetName { user_id: String },
    /// Leave memory (after the commands already sent).
    Stop,
}

/// The way to a game's actor.
#[derive(Clone)]
pub(crate) struct RoundHandle {
    tx: mpsc::Sender<Command>,
    /// The game's events (states and presence), for its sockets.
    events: broadcast::Sender<Arc<GameEvent>>,
    /// The game's chat lines as they come (both rooms; each socket keeps its own).
    chat: broadcast::Sender<Arc<ChatLine>>,
    /// When the game was last asked for (Unix ms), for idle eviction.
    last_used: Arc<AtomicI64>,
}

/// Commands waiting for an actor at most: a burst of moves and sockets waits its turn here.
const MAILBOX: usize = 256;

/// The game room's service (cheap to clone).
#[derive(Clone)]
pub struct Rounds {
    pub(crate) shared: Arc<Shared>,
    map: Arc<Map>,
}

/// The game room held weakly: by its background tasks and actors, which end once the server
/// drops it.
#[derive(Clone)]
pub(crate) struct WeakRounds {
    shared: std::sync::Weak<Shared>,
    map: std::sync::Weak<Map>,
}

impl WeakRounds {
    /// The game room, while the server holds it.
    pub(crate) fn upgrade(&self) -> Option<Rounds> {
        Some(Rounds {
            map: self.map.upgrade()?,
            shared: self.shared.upgrade()?,
        })
    }
}

impl Rounds {
    /// The game room over `db`, its engines `ai`, sending deadlines to `deadlines`.
    pub(crate) fn new(db: Db, ai: Arc<AiPool>, deadlines: mpsc::UnboundedSender<(String, u64)>) -> Rounds {
        let started_at = db.clock().now_ms();
        Rounds {
            shared: Arc::new(Shared {
                db,
                ai,
                deadlines,
                finished: broadcast::channel(1024).0,
                started_at,
                deadlines_claimed: AtomicU64::new(0),
            }),
            map: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// The game room held weakly.
    pub(crate) fn downgrade(&self) -> WeakRounds {
        WeakRounds {
            shared: Arc::downgrade(&self.shared),
            map: Arc::downgrade(&self.map),
        }
    }

    /// A receiver of the news of games that end.
    pub fn finished(&self) -> broadcast::Receiver<Finished> {
        self.shared.finished.subscribe()
    }

    /// Flags and missed first moves this instance has claimed since it started.
    pub fn deadlines_claimed(&self) -> u64 {
        self.shared.deadlines_claimed.load(Ordering::Relaxed)
    }

    /// The actor of game `id`, started (the game read from storage) if it is not running.
    pub(crate) async fn handle(&self, id: &str) -> Result<RoundHandle> {
        if id.len() > 64 {
            return Err(Error::NotFound);
        }
        if let Some(h) = self.held_handle(id) {
            h.last_used
                .store(self.shared.db.clock().now_ms(), Ordering::Relaxed);
            return Ok(h);
        }
        let live = self
            .shared
            .db
            .games()
            .load_game(id)
            .await?
            .ok_or(Error::NotFound)?;
        Ok(self.start(live))
    }

    fn held_handle(&self, id: &str) -> Option<RoundHandle> {
        self.map.lock().ok()?.get(id).cloned()
    }

    /// Starts the actor of `live` (stored already) unless one runs for it; its handle.
    fn start(&self, live: LiveGame) -> RoundHandle {
        let Ok(mut map) = self.map.lock() else {
            // A poisoned map: serve from a fresh actor rather than fail.
            return actor::spawn(self.downgrade(), Arc::clone(&self.shared), live, MAILBOX);
        };
        if let Some(h) = map.get(&live.record.id) {
            return h.clone();
        }
        let id = live.record.id.clone();
        let h = actor::spawn(self.downgrade(), Arc::clone(&self.shared), live, MAILBOX);
        map.insert(id, h.clone());
        h
    }

    /// Sends game `id`'s actor the command `make(reply)` makes and waits for the answer. An actor
    /// that stopped meanwhile (it left memory) is started again and asked again.
    pub(crate) async fn ask<T>(&self, id: &str, make: impl Fn(oneshot::Sender<T>) -> Command) -> Result<T> {
        for _ in 0..3 {
            let h = self.handle(id).await?;
            let (reply, answer) = oneshot::channel();
            if h.tx.send(make(reply)).await.is_err() {
                self.forget(id, &h);
                continue;
            }
            match answer.await {
                Ok(v) => return Ok(v),
                // The actor stopped before answering (it was leaving memory): ask again.
                Err(_) => self.forget(id, &h),
            }
        }
        Err(Error::Internal(format!("game {id}: its actor does not answer")))
    }

    /// Sends game `id`'s actor `cmd` without waiting, if it is in memory.
    pub(crate) fn tell(&self, id: &str, cmd: Command) {
        if let Some(h) = self.held_handle(id) {
            let _ = h.tx.try_send(cmd);
        }
    }

    /// Removes `h` from the map if it is still the one held for `id`.
    fn forget(&self, id: &str, h: &RoundHandle) {
        if let Ok(mut map) = self.map.lock() {
            if map.get(id).is_some_and(|held| held.tx.same_channel(&h.tx)) {
                map.remove(id);
            }
        }
    }

    /// Reads game `id` with `f`.
    pub async fn with_game<T: Send + 'static>(
        &self,
        id: &str,
        f: impl Fn(&LiveGame) -> T + Send + Sync + Clone + 'static,
    ) -> Result<T> {
        let answer = self
            .ask(id, |reply: oneshot::Sender<T>| {
                let f = f.clone();
                Command::Read(Box::new(move |g| {
                    let _ = reply.send(f(g));
                }))
            })
            .await?;
        Ok(answer)
    }

    /// Creates a game; the caller gets the seat(s) of `req.color` (both on one device).
    pub async fn create(&self, req: NewGame) -> Result<Seated> {
        let variant =
            Variant::from_str(&req.variant).map_err(|e| Error::BadRequest(format!("variant: {e}")))?;
        if !(1..=reversi_engine::levels::MAX_LEVEL).contains(&req.level) {
            return Err(Error::BadRequest(format!(
                "level must be 1 to {}",
                reversi_engine::levels::MAX_LEVEL
            )));
        }
        let variant = Rules::new(variant, random_u64()).variant;
        let color = req.color.unwrap_or(if random_u64() & 1 == 0 {
            Color::Black
        } else {
            Color::White
        });
        let token = random_string(32);
        let mut players = [PlayerKind::Human; 2];
        let mut tokens: [Option<String>; 2] = [None, None];
        match req.mode {
            Mode::Ai => {
                players[(!color).index()] = PlayerKind::Ai;
                tokens[color.index()] = Some(token.clone());
            }
            Mode::Friend => tokens[color.index()] = Some(token.clone()),
            Mode::Local => tokens = [Some(token.clone()), Some(token.clone())],
            Mode::Online => {
                return Err(Error::BadRequest(
                    "online games start from the lobby (a seek, a pool or a challenge)".into(),
                ))
            }
        }
        let record = GameRecord {
            id: random_string(10),
            variant,
            tie: req.tie,
            mode: req.mode,
            level: req.level,
            players,
            tokens,
            resigned: None,
            left: false,
            created_at: self.shared.db.clock().now_s(),
            rematch: None,
            join_token: (req.mode == Mode::Friend).then(|| random_string(24)),
            void: None,
            online: None,
        };
        let live = LiveGame::new(record, self.shared.db.clock().clock_ms());
        self.shared.db.games().insert_game(&live).await?;
        let seats = live.record.seats_of(Some(&token));
        let invite = live.record.join_token.clone();
        let view = self.hold(live);
        Ok(Seated {
            view,
            token,
            seats,
            invite,
        })
    }

    /// Holds the new game `live` (stored already) in memory, and starts the computer when it is
    /// to move first. Returns what the players see.
    pub(crate) fn hold(&self, live: LiveGame) -> GameView {
        let view = live.view(self.shared.db.clock().clock_ms());
        self.start(live);
        view
    }

    /// The invite secret of game `id` for a holder of `seats` (none for spectators, and none
    /// once no seat is free).
    pub async fn invite_for(&self, id: &str, seats: &[Color]) -> Result<Option<String>> {
        if seats.is_empty() {
            return Ok(None);
        }
        self.with_game(id, |g| g.record.join_token.clone()).await
    }

    /// Takes the open seat of a game against a friend with the secret of its invite link
    /// (`invite`). A caller who already holds a seat keeps it.
    pub async fn join(&self, id: &str, token: Option<&str>, invite: Option<&str>) -> Result<Seated> {
        let (token, invite) = (token.map(str::to_string), invite.map(str::to_string));
        self.ask(id, |reply| Command::Join {
            token: token.clone(),
            invite: invite.clone(),
            reply,
        })
        .await?
    }

    /// The state of a game and the seats `token` holds in it.
    pub async fn view(&self, id: &str, token: Option<&str>) -> Result<(GameView, Vec<Color>)> {
        let token = token.map(str::to_string);
        self.ask(id, |reply| Command::View {
            token: token.clone(),
            reply,
        })
        .await
    }

    /// A receiver of every later event of game `id`, the current state and the seats of `token`.
    pub async fn subscribe(
        &self,
        id: &str,
        token: Option<&str>,
    ) -> Result<(broadcast::Receiver<Arc<GameEvent>>, GameView, Vec<Color>)> {
        let token = token.map(str::to_string);
        self.ask(id, |reply| Command::Subscribe {
            token: token.clone(),
            reply,
        })
        .await
    }

    /// Plays a move for the holder of `token`. With `wait_engine`, when the computer is to move
    /// next the answer comes once it has moved.
    pub async fn play(
        &self,
        id: &str,
        token: Option<&str>,
        mv: &str,
        ply: Option<usize>,
        wait_engine: bool,
    ) -> Result<GameView> {
        let token = token.map(str::to_string);
        self.ask(id, |reply| Command::Play {
            token: token.clone(),
            mv: mv.to_string(),
            ply,
            wait_engine,
            reply,
        })
        .await?
    }

    /// Resigns for the holder of `token`: `color` picks the side on a shared device (default:
    /// the side to move).
    pub async fn resign(&self, id: &str, token: Option<&str>, color: Option<Color>) -> Result<GameView> {
        let token = token.map(str::to_string);
        self.ask(id, |reply| Command::Resign {
            token: token.clone(),
            color,
            reply,
        })
        .await?
    }

    /// Aborts the game for a seat holder, while the two sides have not both moved: it ends
    /// without a result (RULES.md §6).
    pub async fn abort(&self, id: &str, token: Option<&str>) -> Result<GameView> {
        let token = token.map(str::to_string);
        self.ask(id, |reply| Command::Abort {
            token: token.clone(),
            reply,
        })
        .await?
    }

    /// Takes back the last move of the holder of `token` and the computer's reply (games
    /// against the computer).
    pub async fn undo(&self, id: &str, token: Option<&str>) -> Result<GameView> {
        let token = token.map(str::to_string);
        self.ask(id, |reply| Command::Undo {
            token: token.clone(),
            reply,
        })
        .await?
    }

    /// For the holder of `token` in a casual game between people: `answer` `None` asks the
    /// opponent to take back the caller's last move (or accepts the opponent's offer);
    /// `Some(true)` accepts the opponent's offer, `Some(false)` declines it or withdraws the
    /// caller's own.
    pub async fn takeback(&self, id: &str, token: Option<&str>, answer: Option<bool>) -> Result<GameView> {
        let token = token.map(str::to_string);
        self.ask(id, |reply| Command::Takeback {
            token: token.clone(),
            answer,
            reply,
        })
        .await?
    }

    /// The conditional premoves of the holder of `token` in correspondence game `id`: set to
    /// `lines` when given (none clears them); answered as stored.
    pub async fn conditional(
        &self,
        id: &str,
        token: Option<&str>,
        lines: Option<Vec<String>>,
    ) -> Result<Vec<String>> {
        let token = token.map(str::to_string);
        self.ask(id, |reply| Command::Conditional {
            token: token.clone(),
            lines: lines.clone(),
            reply,
        })
        .await?
    }

    /// Claims the win for the holder of `token` from an opponent who left the game
    /// ([`reversi_site::game::presence`]).
    pub async fn claim(&self, id: &str, token: Option<&str>) -> Result<GameView> {
        let token = token.map(str::to_string);
        self.ask(id, |reply| Command::Claim {
            token: token.clone(),
            reply,
        })
        .await?
    }

    /// Starts (or takes the seat in) the rematch of a finished game for a seat holder: the same
    /// variant, mode and level with the colours swapped. Returns the seat and whether the game
    /// was created by this call.
    pub async fn rematch(&self, id: &str, token: Option<&str>) -> Result<(Seated, bool)> {
        let token = token.map(str::to_string);
        self.ask(id, |reply| Command::Rematch {
            token: token.clone(),
            reply,
        })
        .await?
    }

    /// Ends game `id` at its deadline if that has passed. Of all the instances trying, one
    /// stores it. Returns whether this call ended the game.
    pub async fn expire(&self, id: &str) -> Result<bool> {
        self.ask(id, |reply| Command::Expire { reply }).await?
    }

    /// Closes game `id` as abandoned if it is still being played (the idle sweep).
    pub async fn abandon(&self, id: &str) -> Result<bool> {
        self.ask(id, |reply| Command::Abandon { reply }).await?
    }

    /// Closes game `id` for a moderator: it ends without a result, whatever its clock.
    pub async fn close(&self, id: &str) -> Result<GameView> {
        self.ask(id, |reply| Command::Close { reply }).await?
    }

    /// Applies the ratings of finished game `id` if not done yet (after a restart).
    pub async fn rate_finished(&self, id: &str) -> Result<()> {
        self.ask(id, |reply| Command::Rate { reply }).await?
    }

    /// Reloads game `id` from storage if it is in memory (another instance changed it) and
    /// pushes the new state to its watchers.
    pub async fn refresh(&self, id: &str) -> Result<()> {
        if self.held_handle(id).is_none() {
            return Ok(());
        }
        self.ask(id, |reply| Command::Refresh { reply }).await?
    }

    /// The best moves for the side to move, for the person playing the computer, on their
    /// turn. Games between people get no engine help.
    pub async fn hint(&self, id: &str, token: Option<&str>, n: usize) -> Result<Vec<Hint>> {
        let token = token.map(str::to_string);
        let pos = self
            .with_game(id, move |g| {
                let seats = g.record.seats_of(token.as_deref());
                if seats.is_empty() {
                    return Err(seat_error(token.as_deref()));
                }
                Ok(g.hint_position(&seats)?)
            })
            .await??;
        self.shared.ai.hints(pos, n).await
    }

    /// The GGF record of a game.
    pub async fn ggf(&self, id: &str) -> Result<String> {
        self.with_game(id, |g| g.ggf()).await
    }

    /// Every position of a game, for the replay view.
    pub async fn replay(&self, id: &str) -> Result<ReplayView> {
        self.with_game(id, |g| g.replay()).await
    }

    /// A page of the latest games (finished ones in the order they ended) and the number of
    /// games matching `status` in all.
    pub async fn list(
        &self,
        status: Option<&str>,
        offset: u32,
        limit: u32,
    ) -> Result<(Vec<GameSummary>, i64)> {
        if let Some(s) = status {
            if !matches!(s, "playing" | "finished" | "aborted" | "abandoned" | "closed") {
                return Err(Error::BadRequest(
                    "status must be playing, finished, aborted, abandoned or closed".into(),
                ));
            }
        }
        self.shared
            .db
            .games()
            .list_games(status, offset, limit.clamp(1, 200))
            .await
    }

    /// The seat token of the player with key `key` in online game `id`, if they play in it.
    pub async fn token_for_player(&self, id: &str, key: &str) -> Result<Option<String>> {
        let key = key.to_string();
        self.with_game(id, move |g| {
            g.record
                .online
                .as_ref()
                .and_then(|o| o.colour_of(&key))
                .and_then(|c| g.record.tokens[c.index()].clone())
        })
        .await
    }

    /// The account whose seat `token` holds in online game `id`, if it is an account's seat
    /// (a guest's seat, and any seat of another kind of game, answer `None`).
    pub async fn account_of_token(&self, id: &str, token: &str) -> Result<Option<String>> {
        let token = token.to_string();
        self.with_game(id, move |g| {
            let o = g.record.online.as_ref()?;
            Color::ALL.into_iter().find_map(|c| {
                let seat = &o.seats[c.index()];
                let held = g.record.tokens[c.index()]
                    .as_deref()
                    .is_some_and(|t| crate::secret::same(t, &token));
                (held && !seat.is_guest()).then(|| seat.key.clone())
            })
        })
        .await
    }

    /// The player keys of an online game (`[None, None]` for other games).
    pub async fn player_keys(&self, id: &str) -> Result<[Option<String>; 2]> {
        self.with_game(id, |g| match &g.record.online {
            Some(o) => [Some(o.seats[0].key.clone()), Some(o.seats[1].key.clone())],
            None => [None, None],
        })
        .await
    }

    /// A round trip of `rtt_ms` measured on the socket of the holder of `seats` in game `id`.
    pub fn observe_lag(&self, id: &str, seats: &[Color], rtt_ms: u64) {
        self.tell(
            id,
            Command::Lag {
                seats: seats.to_vec(),
                rtt_ms,
            },
        );
    }

    /// A socket holding `seats` (none: a spectator) opened on game `id`.
    pub(crate) async fn enter(&self, id: &str, seats: &[Color]) {
        if let Ok(h) = self.handle(id).await {
            let _ =
                h.tx.send(Command::Presence {
                    seats: seats.to_vec(),
                    enter: true,
                })
                .await;
        }
    }

    /// A socket holding `seats` closed.
    pub(crate) async fn leave(&self, id: &str, seats: &[Color]) {
        if let Ok(h) = self.handle(id).await {
            let _ =
                h.tx.send(Command::Presence {
                    seats: seats.to_vec(),
                    enter: false,
                })
                .await;
        }
    }

    /// Reads game `id`'s presence again if it is held here (another instance's counts changed).
    pub(crate) fn presence_changed(&self, id: &str) {
        self.tell(id, Command::PresenceChanged);
    }

    /// Games held here whose players are connected only at other instances: their counts are
    /// read again now and then, in case such an instance stopped without a word.
    pub(crate) fn recheck_remote_presence(&self) {
        for h in self.handles() {
            let _ = h.tx.try_send(Command::RecheckRemotePresence);
        }
    }

    /// Removes the name of deleted account `user_id` from the games held here (storage lost
    /// it already; other instances read it again when they next load the game).
    pub(crate) fn forget_name(&self, user_id: &str) {
        for h in self.handles() {
            let _ = h.tx.try_send(Command::ForgetName {
                user_id: user_id.to_string(),
            });
        }
    }

    /// Pushes a chat message to the game's sockets here (the other instances hear of it from
    /// storage).
    pub(crate) fn publish_chat(&self, id: &str, line: &ChatLine) {
        if let Some(h) = self.held_handle(id) {
            let _ = h.chat.send(Arc::new(line.clone()));
        }
    }

    /// A receiver of game `id`'s chat messages from now on.
    pub async fn subscribe_chat(&self, id: &str) -> Result<broadcast::Receiver<Arc<ChatLine>>> {
        Ok(self.handle(id).await?.chat.subscribe())
    }

    /// Another instance stored a chat message of game `id`: pushes the messages this instance
    /// has not pushed yet to its sockets.
    pub(crate) async fn chat_changed(&self, id: &str, after: &mut HashMap<String, i64>) -> Result<()> {
        if self.held_handle(id).is_none() {
            return Ok(());
        }
        let from = after.get(id).copied().unwrap_or(0);
        let mut last = from;
        for room in ["players", "spectators"] {
            for line in self
                .shared
                .db
                .chat()
                .lines(id, room, from, crate::db::chat::HISTORY)
                .await?
            {
                last = last.max(line.seq);
                self.publish_chat(id, &line);
            }
        }
        after.insert(id.to_string(), last);
        Ok(())
    }

    /// Every game id held in memory.
    pub(crate) fn held(&self) -> Vec<String> {
        self.map
            .lock()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    }

    fn handles(&self) -> Vec<RoundHandle> {
        self.map
            .lock()
            .map(|m| m.values().cloned().collect())
            .unwrap_or_default()
    }

    /// Sends the games nobody watches (no socket) and nobody has asked for during `idle` out of
    /// memory: their actors stop after what they were sent already; a game is read back from
    /// storage when next asked for. Returns how many left.
    pub fn evict_idle(&self, idle: Duration) -> usize {
        let cutoff = self.shared.db.clock().now_ms() - idle.as_millis() as i64;
        let Ok(mut map) = self.map.lock() else {
            return 0;
        };
        let before = map.len();
        map.retain(|_, h| {
            let keep = h.events.receiver_count() > 0
                || h.chat.receiver_count() > 0
                || h.last_used.load(Ordering::Relaxed) > cutoff;
            if !keep {
                let _ = h.tx.try_send(Command::Stop);
            }
            keep
        });
        if map.capacity() > 64 && map.len() < map.capacity() / 4 {
            map.shrink_to_fit();
        }
        before - map.len()
    }

    /// How many games are held in memory now.
    pub fn games_in_memory(&self) -> usize {
        self.map.lock().map_or(0, |m| m.len())
    }
}

/// The error of an action by someone holding no seat (`token`: none given, or one that holds
/// no seat here).
pub(crate) fn seat_error(token: Option<&str>) -> Error {
    match token {
        None => Error::NoSeat,
        Some(_) => Error::NotYourSeat("this token holds no seat in this game".into()),
    }
}

/// The counts a new actor starts with at this instance.
pub(crate) fn own_counts() -> InstanceCounts {
    InstanceCounts {
        mine: true,
        ..InstanceCounts::default()
    }
}
