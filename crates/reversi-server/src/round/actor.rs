//! A game's actor: the task that owns a [`LiveGame`] held in memory and carries out its
//! [`Command`]s one at a time, so that no two changes of a game ever interleave (at this
//! instance; storage orders the instances). It ends when sent [`Command::Stop`] (the game left
//! memory) or when every handle is gone.

use super::events::{GameEvent, Published};
use super::{seat_error, Command, RoundHandle, Seated, Shared, WeakRounds};
use crate::db::ChatLine;
use crate::error::{Error, Result};
use crate::secret::random_string;
use reversi_core::Color;
use reversi_site::game::presence::InstanceCounts;
use reversi_site::game::{next_version, LiveGame};
use reversi_site::lag::Lag;
use reversi_site_api::GameView;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc, oneshot};

/// States a lagging socket may fall behind by before it reads the game again (it then gets the
/// current state, so nothing is lost; a small buffer keeps idle games light).
const BROADCAST_CAPACITY: usize = 8;

/// The actor's state.
pub(super) struct Round {
    pub(super) game: LiveGame,
    pub(super) shared: Arc<Shared>,
    /// The game room, for what concerns another game (a rematch).
    pub(super) rounds: WeakRounds,
    /// Its own mailbox, for the computer's searches to answer into.
    pub(super) tx: mpsc::WeakSender<Command>,
    pub(super) events: broadcast::Sender<Arc<GameEvent>>,
    /// Stops the computer's search in progress, if any.
    pub(super) stop_engine: Option<Arc<AtomicBool>>,
    /// Answers owed once the computer has moved (moves sent with `wait_engine`).
    pub(super) waiting_engine: Vec<oneshot::Sender<Result<GameView>>>,
    /// Each player's connection lag, measured by the sockets' pings.
    pub(super) lag: [Lag; 2],
    /// The sockets open on the game at this instance.
    pub(super) local: InstanceCounts,
    /// Whose turn it was and where the game stood when the players' accounts were last told
    /// ([`Round::tell_players`]).
    pub(super) told: std::sync::Mutex<(Option<Color>, reversi_site_api::GameStatus)>,
}

/// Starts the actor of `live`; its handle.
pub(super) fn spawn(rounds: WeakRounds, shared: Arc<Shared>, live: LiveGame, mailbox: usize) -> RoundHandle {
    let (tx, rx) = mpsc::channel(mailbox);
    let events = broadcast::channel(BROADCAST_CAPACITY).0;
    let chat: broadcast::Sender<Arc<ChatLine>> = broadcast::channel(BROADCAST_CAPACITY).0;
    let handle = RoundHandle {
        tx: tx.clone(),
        events: events.clone(),
        chat,
        last_used: Arc::new(AtomicI64::new(shared.db.clock().now_ms())),
    };
    let told = std::sync::Mutex::new((live.to_move(), live.status()));
    let mut round = Round {
        told,
        game: live,
        shared,
        rounds,
        tx: tx.downgrade(),
        events,
        stop_engine: None,
        waiting_engine: Vec::new(),
        lag: [Lag::default(); 2],
        local: super::own_counts(),
    };
    tokio::spawn(async move {
        round.announce_deadline();
        // A game read back with the computer to move resumes its search.
        round.start_engine();
        round.run(rx).await;
    });
    handle
}

impl Round {
    async fn run(&mut self, mut rx: mpsc::Receiver<Command>) {
        while let Some(cmd) = rx.recv().await {
            if let Command::Stop = cmd {
                // Whatever was sent before the stop is still carried out.
                rx.close();
                continue;
            }
            self.handle(cmd).await;
        }
        self.stop_search();
        for w in self.waiting_engine.drain(..) {
            let _ = w.send(Err(Error::Internal("the game left memory".into())));
        }
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::View { token, reply } => {
                let seats = self.game.record.seats_of(token.as_deref());
                let _ = reply.send((self.view(), seats));
            }
            Command::Subscribe { token, reply } => {
                let seats = self.game.record.seats_of(token.as_deref());
                let _ = reply.send((self.events.subscribe(), self.view(), seats));
            }
            Command::Read(f) => f(&self.game),
            Command::Play {
                token,
                mv,
                ply,
                wait_engine,
                reply,
            } => {
                let done = self.play(token.as_deref(), &mv, ply).await;
                match done {
                    Ok(view) if wait_engine && self.game.ai_to_move().is_some() => {
                        let _ = view;
                        self.waiting_engine.push(reply);
                    }
                    other => {
                        let _ = reply.send(other);
                    }
                }
                self.start_engine();
            }
            Command::EngineMoved { job, result } => {
                self.engine_moved(job, result).await;
                self.start_engine();
                if self.game.ai_to_move().is_none() {
                    let view = self.view();
                    for w in self.waiting_engine.drain(..) {
                        let _ = w.send(Ok(view.clone()));
                    }
                }
            }
            Command::Resign { token, color, reply } => {
                let _ = reply.send(self.resign(token.as_deref(), color).await);
            }
            Command::Abort { token, reply } => {
                let _ = reply.send(self.abort(token.as_deref()).await);
            }
            Command::Undo { token, reply } => {
                let _ = reply.send(self.undo(token.as_deref()).await);
                self.start_engine();
            }
            Command::Takeback { token, answer, reply } => {
                let _ = reply.send(self.takeback(token.as_deref(), answer).await);
            }
            Command::Conditional { token, lines, reply } => {
                let _ = reply.send(self.conditional(token.as_deref(), lines).await);
            }
            Command::Claim { token, reply } => {
                let _ = reply.send(self.claim(token.as_deref()).await);
            }
            Command::Join { token, invite, reply } => {
                let _ = reply.send(self.join(token.as_deref(), invite.as_deref()).await);
            }
            Command::Rematch { token, reply } => {
                let _ = reply.send(self.rematch(token.as_deref()).await);
            }
            Command::Expire { reply } => {
                let _ = reply.send(self.expire().await);
            }
            Command::Abandon { reply } => {
                let _ = reply.send(self.abandon().await);
            }
            Command::Close { reply } => {
                let _ = reply.send(self.close().await);
            }
            Command::Rate { reply } => {
                let done = self.rate().await;
                self.publish();
                let _ = reply.send(done);
            }
            Command::Refresh { reply } => {
                let _ = reply.send(self.reload().await);
                self.start_engine();
            }
            Command::Presence { seats, enter } => self.presence_step(&seats, enter).await,
            Command::PresenceChanged => {
                if let Err(e) = self.reread_presence().await {
                    tracing::warn!("reading who is connected to game {}: {e}", self.game.record.id);
                }
            }
            Command::RecheckRemotePresence => self.recheck_remote_presence().await,
            Command::Lag { seats, rtt_ms } => {
                for c in seats {
                    self.lag[c.index()].observe_round_trip(rtt_ms);
                }
            }
            Command::ForgetName { user_id } => self.forget_name(&user_id),
            Command::Stop => {}
        }
    }

    /// The state now.
    pub(super) fn view(&self) -> GameView {
        self.game.view(self.shared.db.clock().clock_ms())
    }

    /// Marks a change of the game: its version grows.
    pub(super) fn bump(&mut self) {
        self.game.bump_version(self.shared.db.clock().clock_ms());
    }

    /// Sends the state to the game's watchers, and its deadline, if any, to the timers.
    pub(super) fn publish(&self) -> GameView {
        let view = self.view();
        if self.events.receiver_count() > 0 {
            let _ = self
                .events
                .send(Arc::new(GameEvent::State(Box::new(Published::of(view.clone())))));
        }
        self.announce_deadline();
        self.tell_players();
        view
    }

    /// When the side to move changes or the game ends, tells the accounts that play it (their
    /// lists of games, the header's "your turn", at every instance). A state that changes
    /// neither (a takeback offer, the clock read again) tells nobody.
    fn tell_players(&self) {
        let now = (self.game.to_move(), self.game.status());
        {
            let mut told = self.told.lock().unwrap_or_else(|e| e.into_inner());
            if *told == now {
                return;
            }
            *told = now;
        }
        let Some(online) = &self.game.record.online else {
            return;
        };
        let keys: Vec<String> = online.seats.iter().map(|s| s.key.clone()).collect();
        let db = self.shared.db.clone();
        tokio::spawn(async move {
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            db.tell_accounts(&keys).await;
        });
    }

    /// Tells the timers the game's next deadline, if it has one.
    pub(super) fn announce_deadline(&self) {
        if let Some(d) = self.game.deadline() {
            let _ = self.shared.deadlines.send((self.game.record.id.clone(), d.at()));
        }
    }

    /// The seats `token` holds, or why it may not act.
    pub(super) fn seats(&self, token: Option<&str>) -> Result<Vec<Color>> {
        let seats = self.game.record.seats_of(token);
        if seats.is_empty() {
            return Err(seat_error(token));
        }
        Ok(seats)
    }

    /// Whether other instances may change the stored game meanwhile (a shared database): the
    /// game held here may then be behind, and is read again before an action is refused.
    pub(super) fn shared_storage(&self) -> bool {
        self.shared.db.shared()
    }

    /// Replaces the game held here by the stored one and publishes it (another instance changed
    /// it).
    pub(super) async fn reload(&mut self) -> Result<()> {
        let Some(mut fresh) = self.shared.db.games().load_game(&self.game.record.id).await? else {
            return Ok(());
        };
        if fresh.game.moves() == self.game.game.moves()
            && fresh.record == self.game.record
            && fresh.takeback == self.game.takeback
            && fresh.conditional == self.game.conditional
        {
            return Ok(()); // nothing new
        }
        // A search running here for the old position is void.
        self.stop_search();
        let now = self.shared.db.clock().clock_ms();
        fresh.version = fresh.version.max(next_version(self.game.version, now));
        fresh.ai_job = self.game.ai_job + 1;
        fresh.presence = self.game.presence;
        self.game = fresh;
        self.publish();
        Ok(())
    }

    /// Runs `change` on the game and stores the result with `store`, all or nothing: on any
    /// error the game held here is what it was.
    pub(super) async fn change<T>(&mut self, change: impl FnOnce(&mut LiveGame) -> Result<T>) -> Result<T> {
        let snapshot = self.game.clone();
        let out = match change(&mut self.game) {
            Ok(v) => v,
            Err(e) => {
                self.game = snapshot;
                return Err(e);
            }
        };
        if let Err(e) = self.shared.db.games().update_game(&self.game).await {
            self.game = snapshot;
            return Err(e);
        }
        Ok(out)
    }

    /// Takes the open seat of a game against a friend with the invite secret.
    async fn join(&mut self, token: Option<&str>, invite: Option<&str>) -> Result<Seated> {
        let seats = self.game.record.seats_of(token);
        if let (false, Some(t)) = (seats.is_empty(), token) {
            return Ok(Seated {
                view: self.view(),
                token: t.to_string(),
                invite: self.game.record.join_token.clone(),
                seats,
            });
        }
        if self.game.is_over() {
            return Err(Error::GameOver);
        }
        let seat =
            self.game.record.open_seat().ok_or_else(|| {
                Error::Conflict("seats_taken", "both seats are taken; you can watch".into())
            })?;
        // The seat is the invited friend's: the game's id alone (listed, watched) is not enough.
        let valid = match (&self.game.record.join_token, invite) {
            (Some(secret), Some(given)) => reversi_site::game::constant_time_eq(secret, given),
            _ => false,
        };
        if !valid {
            return Err(Error::NotYourSeat(
                "this seat is kept for the friend who has the invite link".into(),
            ));
        }
        let new_token = random_string(32);
        let now = self.shared.db.clock().clock_ms();
        let t = new_token.clone();
        self.change(|g| {
            g.record.tokens[seat.index()] = Some(t);
            if g.record.open_seat().is_none() {
                g.record.join_token = None;
            }
            g.bump_version(now);
            Ok(())
        })
        .await?;
        let view = self.publish();
        Ok(Seated {
            view,
            token: new_token,
            seats: vec![seat],
            invite: self.game.record.join_token.clone(),
        })
    }

    /// A deleted account's name leaves the seats of this game.
    fn forget_name(&mut self, user_id: &str) {
        let Some(o) = self.game.record.online.as_mut() else {
            return;
        };
        let mut changed = false;
        for s in o.seats.iter_mut().filter(|s| s.key == user_id) {
            s.name = None;
            changed = true;
        }
        if changed {
            self.bump();
            self.publish();
        }
    }

    /// Stops the computer's search in progress, if any.
    pub(super) fn stop_search(&mut self) {
        if let Some(stop) = self.stop_engine.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }
}
