//! The game core: who plays, what the seats may do, and the state shown to clients. It knows
//! nothing of HTTP or the database; the rules come from `reversi-core`.

use crate::error::{Error, Result};
use crate::online::{Deadline, Online, OnlineView};
use crate::presence::{Presence, PresenceView, CLAIM_AFTER_LIVE_MS, CLAIM_AFTER_UNTIMED_MS};
use reversi_core::format::ggf::{write_ggf, Ending as GgfEnding, GameInfo, GgfGame, GgfResult};
use reversi_core::notation::parse_move;
use reversi_core::{AnyPosition, Bits, Color, Game, Move, Rules, Square, Variant};
use serde::{Deserialize, Serialize};

/// How a game was set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A person against the computer.
    Ai,
    /// Two people on two devices: the second joins by the invite link.
    Friend,
    /// Two people sharing one device (one token holds both seats).
    Local,
    /// Two people who met on the site (a seek, a pool or a challenge), each identified by an
    /// account or a guest key; possibly timed and rated.
    Online,
}

impl Mode {
    /// The name stored in the database and used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Ai => "ai",
            Mode::Friend => "friend",
            Mode::Local => "local",
            Mode::Online => "online",
        }
    }

    /// Reads a stored or requested name.
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "ai" => Some(Mode::Ai),
            "friend" => Some(Mode::Friend),
            "local" => Some(Mode::Local),
            "online" => Some(Mode::Online),
            _ => None,
        }
    }
}

/// How a game ended without a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VoidEnd {
    /// A player aborted it before both had moved (RULES.md §6).
    Aborted,
    /// Nobody moved for [`crate::Config::abandon_after`]: the server closed it.
    Abandoned,
}

impl VoidEnd {
    /// The name stored in the database and used as the game's `status`.
    pub fn as_str(self) -> &'static str {
        match self {
            VoidEnd::Aborted => "aborted",
            VoidEnd::Abandoned => "abandoned",
        }
    }

    /// Reads a stored name.
    pub fn parse(s: &str) -> Option<VoidEnd> {
        match s {
            "aborted" => Some(VoidEnd::Aborted),
            "abandoned" => Some(VoidEnd::Abandoned),
            _ => None,
        }
    }
}

/// Who sits on a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerKind {
    /// A person (holding the seat's token).
    Human,
    /// The engine.
    Ai,
}

/// Everything stored about a game besides its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The public id (in URLs).
    pub id: String,
    /// The resolved variant (the hole square and XOT line are fixed).
    pub variant: Variant,
    /// How the game was set up.
    pub mode: Mode,
    /// The computer's level (1..=30); meaningful when a seat is [`PlayerKind::Ai`].
    pub level: u32,
    /// Who plays black (index 0) and white (index 1).
    pub players: [PlayerKind; 2],
    /// Each seat's secret token; `None` for the engine's seat and a seat nobody has claimed yet.
    pub tokens: [Option<String>; 2],
    /// The colour that resigned, if one did.
    pub resigned: Option<Color>,
    /// The colour in `resigned` did not resign but left the game, and the opponent claimed
    /// the win ([`crate::presence`]).
    pub left: bool,
    /// Creation time, seconds since the Unix epoch.
    pub created_at: i64,
    /// The game started as this one's rematch, once a seat holder asked for it.
    pub rematch: Option<String>,
    /// The secret of the invite link: whoever shows it may take the free seat (a game against a
    /// friend, until the friend joins). `None` once no seat is free.
    pub join_token: Option<String>,
    /// The game ended without a result (aborted or abandoned).
    pub void: Option<VoidEnd>,
    /// Who plays, the rating and the clock of a game between people who met on the site.
    pub online: Option<Online>,
}

impl GameRecord {
    /// The rules of the game.
    pub fn rules(&self) -> Rules {
        Rules::new(self.variant, 0)
    }

    /// The seats `token` holds (none, one, or both on a shared device).
    pub fn seats_of(&self, token: Option<&str>) -> Vec<Color> {
        let Some(token) = token else { return Vec::new() };
        Color::ALL
            .into_iter()
            .filter(|c| {
                self.tokens[c.index()]
                    .as_deref()
                    .is_some_and(|t| constant_time_eq(t, token))
            })
            .collect()
    }

    /// A human seat nobody has claimed yet.
    pub fn open_seat(&self) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|c| self.players[c.index()] == PlayerKind::Human && self.tokens[c.index()].is_none())
    }
}

/// Whether two secrets are equal, in time that depends only on their length.
pub(crate) fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The version after `v`: one more, or the wall clock in microseconds if that is larger (a
/// hybrid logical clock). In-memory changes that are never stored (the computer starts
/// thinking) still move it, so a game read back after a restart, or by another instance, must
/// not start from a stored count: it starts from the clock, which has moved on meanwhile.
pub fn next_version(v: u64) -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64);
    v.saturating_add(1).max(now)
}

/// A game being played: its record, the rules library's [`Game`] and the server's counters.
#[derive(Clone, Debug)]
pub struct LiveGame {
    /// The stored description.
    pub record: GameRecord,
    /// The moves and positions (passes explicit).
    pub game: Game,
    /// Grows with every change; clients use it to drop stale updates. It is never smaller than
    /// the wall clock in microseconds (see [`next_version`]), so it keeps growing across a
    /// restart, when the game is read back from the database, and between server instances.
    pub version: u64,
    /// Whether the engine is searching a move for this game now.
    pub ai_thinking: bool,
    /// Identifies the current engine search; a result for an older job is thrown away.
    pub ai_job: u64,
    /// Who is connected to the game (not stored with it: each instance keeps its counts).
    pub presence: Presence,
}

impl LiveGame {
    /// A game at its start position (forced passes, if any, already played).
    pub fn new(record: GameRecord) -> LiveGame {
        let mut live = LiveGame {
            game: Game::new(record.rules()),
            record,
            version: next_version(0),
            ai_thinking: false,
            ai_job: 0,
            presence: Presence::default(),
        };
        live.play_forced_passes();
        live
    }

    /// A game rebuilt from its stored moves; `stored_version` is the version stored with its
    /// latest change.
    pub fn restore(record: GameRecord, moves: &[Move], stored_version: u64) -> Result<LiveGame> {
        let mut game = Game::new(record.rules());
        game.play_all(moves)
            .map_err(|e| Error::Internal(format!("stored game {} does not replay: {e}", record.id)))?;
        let mut live = LiveGame {
            game,
            record,
            version: next_version(stored_version),
            ai_thinking: false,
            ai_job: 0,
            presence: Presence::default(),
        };
        live.play_forced_passes();
        Ok(live)
    }

    /// Marks a change: the version grows (see [`next_version`]).
    pub fn bump_version(&mut self) {
        self.version = next_version(self.version);
    }

    /// Whether the game has ended (played out, resigned, aborted or abandoned).
    pub fn is_over(&self) -> bool {
        self.record.resigned.is_some()
            || self.record.void.is_some()
            || self.flagged().is_some()
            || self.game.is_over()
    }

    /// Who lost on time, if somebody did.
    pub fn flagged(&self) -> Option<Color> {
        self.record.online.as_ref().and_then(|o| o.flagged)
    }

    /// The next deadline of a timed game still played: a flag, or a first move awaited.
    pub fn deadline(&self) -> Option<Deadline> {
        let to_move = self.to_move()?;
        self.record.online.as_ref()?.timing?.deadline(to_move)
    }

    /// Applies the deadline if it has passed at `now` (Unix ms): the player to move loses on
    /// time, or (a first move not made in time) the game is aborted. Returns what happened.
    pub fn expire(&mut self, now: u64) -> Option<Deadline> {
        let due = self.deadline().filter(|d| d.at() <= now)?;
        match due {
            Deadline::Flag { color, .. } => {
                if let Some(o) = self.record.online.as_mut() {
                    o.flagged = Some(color);
                }
            }
            Deadline::NoFirstMove { color, .. } => match self.record.online.as_mut() {
                // A tournament game is lost by the player who did not start it.
                Some(o) if o.tournament.is_some() => o.flagged = Some(color),
                _ => self.record.void = Some(VoidEnd::Aborted),
            },
        }
        self.stop_clock(due.at());
        self.bump_version();
        Some(due)
    }

    /// Stops the clock for good at `now` (the game ended).
    pub fn stop_clock(&mut self, now: u64) {
        if let Some(t) = self.record.online.as_mut().and_then(|o| o.timing.as_mut()) {
            if !t.clock.stopped {
                t.clock.stop(now);
            }
        }
    }

    /// After `mover`'s move (already played) at `now`: presses the clock, giving back up to
    /// `compensation_ms` of lag, and stops it if the game ended. A move at or after the flag is
    /// refused (`time_out`): the caller then restores the game and applies [`Self::expire`].
    pub fn press_clock(&mut self, mover: Color, now: u64, compensation_ms: u64) -> Result<()> {
        let next = self.game.side_to_move();
        let over = self.is_over();
        let Some(t) = self.record.online.as_mut().and_then(|o| o.timing.as_mut()) else {
            return Ok(());
        };
        t.clock
            .press(mover, next, now, compensation_ms)
            .map_err(|e| match e {
                reversi_site::clock::ClockError::Flagged(_) => {
                    Error::Conflict("time_out", "your time ran out before the move arrived".into())
                }
                e => Error::Internal(format!("clock: {e}")),
            })?;
        t.turn_since = now;
        if over {
            t.clock.stop(now);
        }
        Ok(())
    }

    /// `playing`, `finished` (with a result), `aborted` or `abandoned` (without one).
    pub fn status(&self) -> &'static str {
        match self.record.void {
            Some(v) => v.as_str(),
            None if self.is_over() => "finished",
            None => "playing",
        }
    }

    /// Whether `color` has made a move of its own (a pass is not one).
    fn has_moved(&self, color: Color) -> bool {
        let moves = self.game.moves();
        (0..moves.len()).any(|ply| {
            matches!(moves[ply], Move::Play(_))
                && self
                    .game
                    .position_at(ply)
                    .is_some_and(|p| p.side_to_move() == color)
        })
    }

    /// Whether the game may still be aborted: it goes on and the two sides have not both
    /// moved yet (RULES.md §6).
    pub fn can_abort(&self) -> bool {
        let both_moved = self.has_moved(Color::Black) && self.has_moved(Color::White);
        !self.is_over() && !both_moved && !self.in_tournament()
    }

    /// Whether the game belongs to a tournament (no abort, no rematch; a missed start forfeits).
    pub fn in_tournament(&self) -> bool {
        self.record
            .online
            .as_ref()
            .is_some_and(|o| o.tournament.is_some())
    }

    /// Whether a seat kept for an invited friend is still empty.
    fn waiting_for_friend(&self) -> bool {
        self.record.mode == Mode::Friend && self.record.open_seat().is_some()
    }

    /// Aborts the game: no result (the two sides have not both moved yet).
    pub fn abort(&mut self) -> Result<()> {
        if self.is_over() {
            return Err(Error::GameOver);
        }
        if self.in_tournament() {
            return Err(Error::Conflict(
                "cannot_abort",
                "a tournament game cannot be aborted (resign instead)".into(),
            ));
        }
        if !self.can_abort() {
            return Err(Error::Conflict(
                "cannot_abort",
                "both players have moved: the game can no longer be aborted (resign instead)".into(),
            ));
        }
        self.record.void = Some(VoidEnd::Aborted);
        self.record.join_token = None;
        self.stop_clock(crate::time::clock_ms());
        self.bump_version();
        self.ai_job += 1;
        self.ai_thinking = false;
        Ok(())
    }

    /// Closes a game nobody has moved in for long (no result).
    pub fn abandon(&mut self) -> Result<()> {
        if self.is_over() {
            return Err(Error::GameOver);
        }
        self.record.void = Some(VoidEnd::Abandoned);
        self.record.join_token = None;
        self.stop_clock(crate::time::clock_ms());
        self.bump_version();
        self.ai_job += 1;
        self.ai_thinking = false;
        Ok(())
    }

    /// The colour to move, while the game goes on.
    pub fn to_move(&self) -> Option<Color> {
        (!self.is_over()).then(|| self.game.side_to_move())
    }

    /// The colour the engine must move for now, if any.
    pub fn ai_to_move(&self) -> Option<Color> {
        self.to_move()
            .filter(|c| self.record.players[c.index()] == PlayerKind::Ai)
    }

    fn play_forced_passes(&mut self) -> usize {
        let mut n = 0;
        while !self.game.is_over() && self.game.pass_if_forced() {
            n += 1;
        }
        n
    }

    /// Plays `text` (a square, or `pass`) for a holder of `seats`. `expected_ply`, when given,
    /// must equal the current ply (protects against a move sent twice). Returns the moves added,
    /// forced passes included, for storage.
    pub fn play_human(
        &mut self,
        seats: &[Color],
        text: &str,
        expected_ply: Option<usize>,
    ) -> Result<Vec<Move>> {
        if seats.is_empty() {
            return Err(Error::NoSeat);
        }
        if self.is_over() {
            return Err(Error::GameOver);
        }
        let side = self.game.side_to_move();
        if let Some(expected) = expected_ply {
            if expected != self.game.ply() {
                return Err(Error::StalePly {
                    expected,
                    actual: self.game.ply(),
                });
            }
        }
        if !seats.contains(&side) {
            return Err(Error::NotYourTurn(side.name().into()));
        }
        if self.record.players[side.index()] != PlayerKind::Human {
            return Err(Error::NotYourTurn(side.name().into()));
        }
        if self.waiting_for_friend() {
            return Err(Error::Conflict(
                "waiting_for_friend",
                "your friend has not joined yet: the game starts once they open the invite link".into(),
            ));
        }
        let mv = parse_move(text.trim()).map_err(|e| Error::IllegalMove(format!("{text:?}: {e}")))?;
        self.play_checked(mv)
    }

    /// Plays `mv` for the side to move (the engine's move, or a checked human move).
    pub fn play_checked(&mut self, mv: Move) -> Result<Vec<Move>> {
        let pos = *self.game.position();
        // The library reads a square played by a side that must pass as pass + square; the
        // server wants the exact move of the side to move.
        if let Move::Play(_) = mv {
            if pos.must_pass() {
                return Err(Error::IllegalMove(format!(
                    "{} has no legal move and must pass",
                    pos.side_to_move().name()
                )));
            }
        }
        let before = self.game.ply();
        self.game.play(mv).map_err(|e| match e {
            reversi_core::GameError::Illegal { reason, .. } => Error::IllegalMove(reason.to_string()),
            e => Error::IllegalMove(e.to_string()),
        })?;
        self.play_forced_passes();
        self.bump_version();
        Ok(self.game.moves()[before..].to_vec())
    }

    /// Resigns for `color`.
    pub fn resign(&mut self, color: Color) -> Result<()> {
        if self.is_over() {
            return Err(Error::GameOver);
        }
        if self.waiting_for_friend() {
            return Err(Error::Conflict(
                "abort_instead",
                "nobody has joined yet: abort the game instead of resigning".into(),
            ));
        }
        self.record.resigned = Some(color);
        self.stop_clock(crate::time::clock_ms());
        self.bump_version();
        self.ai_job += 1;
        self.ai_thinking = false;
        Ok(())
    }

    /// After how long away (ms) a player's win may be claimed by the opponent; `None` where no
    /// claim is possible: not two people on two devices, over, still abortable, or a
    /// correspondence game (see [`crate::presence`]).
    pub fn claim_after_ms(&self) -> Option<u64> {
        let two_people = matches!(self.record.mode, Mode::Online | Mode::Friend)
            && self.record.players == [PlayerKind::Human; 2]
            && self.record.tokens.iter().all(Option::is_some);
        if !two_people || self.is_over() || self.can_abort() {
            return None;
        }
        match self.record.online.as_ref().and_then(|o| o.timing) {
            None => Some(CLAIM_AFTER_UNTIMED_MS),
            Some(t)
                if matches!(
                    t.clock.control,
                    reversi_site::clock::TimeControl::Correspondence { .. }
                ) =>
            {
                None
            }
            Some(_) => Some(CLAIM_AFTER_LIVE_MS),
        }
    }

    /// `claimant` claims the win from the opponent, who has been away long enough at `now`
    /// (Unix ms): recorded as the opponent's resignation, marked as a departure.
    pub fn claim_win(&mut self, claimant: Color, now: i64) -> Result<()> {
        if self.is_over() {
            return Err(Error::GameOver);
        }
        let after = self.claim_after_ms().ok_or_else(|| {
            Error::Conflict(
                "cannot_claim",
                if self.can_abort() {
                    "the game can still be aborted: abort it instead".into()
                } else {
                    "this game has no claim of a win (a correspondence game ends by its clock)".into()
                },
            )
        })?;
        let absent = !claimant;
        match self.presence.away_for(absent.index(), now) {
            None => Err(Error::Conflict(
                "opponent_here",
                "your opponent is connected: the win cannot be claimed".into(),
            )),
            Some(away) if away < after => Err(Error::Conflict(
                "too_early",
                format!(
                    "your opponent left {} s ago: the win may be claimed after {} s",
                    away / 1000,
                    after / 1000
                ),
            )),
            Some(_) => {
                self.resign(absent)?;
                self.record.left = true;
                Ok(())
            }
        }
    }

    /// What clients are told of who is connected, at `now` (Unix ms).
    pub fn presence_view(&self, now: i64) -> PresenceView {
        let p = &self.presence;
        PresenceView {
            black: p.away_since[0].is_none(),
            white: p.away_since[1].is_none(),
            black_away_ms: p.away_for(0, now),
            white_away_ms: p.away_for(1, now),
            spectators: p.spectators,
            claim_after_ms: self.claim_after_ms(),
        }
    }

    /// Takes back moves until a person is to move again, at least one of their moves taken back
    /// (games against the computer only). Returns the new ply.
    pub fn undo_for_human(&mut self, seats: &[Color]) -> Result<usize> {
        if seats.is_empty() {
            return Err(Error::NoSeat);
        }
        if self.record.mode != Mode::Ai {
            return Err(Error::Conflict(
                "undo_vs_computer_only",
                "undo is only for games against the computer".into(),
            ));
        }
        // A finished game is final, however it ended.
        if self.is_over() {
            return Err(Error::GameOver);
        }
        let human = Color::ALL
            .into_iter()
            .find(|c| self.record.players[c.index()] == PlayerKind::Human)
            .ok_or_else(|| Error::Internal("no human seat".into()))?;
        let moves = self.game.moves().to_vec();
        // The latest ply, before the current one, where the human was to move with a real move.
        let mut target = None;
        for ply in (0..moves.len()).rev() {
            let pos = self.game.position_at(ply).expect("recorded ply");
            if pos.side_to_move() == human && matches!(moves[ply], Move::Play(_)) {
                target = Some(ply);
                break;
            }
        }
        let Some(target) = target else {
            return Err(Error::Conflict("nothing_to_undo", "nothing to undo".into()));
        };
        let mut game = Game::from_position(self.record.rules(), *self.game.start());
        game.play_all(&moves[..target])
            .map_err(|e| Error::Internal(format!("undo replay: {e}")))?;
        self.game = game;
        self.bump_version();
        self.ai_job += 1;
        self.ai_thinking = false;
        Ok(target)
    }

    /// The GGF record of the game.
    pub fn ggf(&self) -> String {
        let name = |c: Color| match (&self.record.online, self.record.players[c.index()]) {
            (Some(o), _) => {
                let s = &o.seats[c.index()];
                s.name
                    .clone()
                    .unwrap_or_else(|| if s.is_guest() { "guest" } else { "deleted" }.into())
            }
            (None, PlayerKind::Human) => "human".to_string(),
            (None, PlayerKind::Ai) => format!("reversi-level{}", self.record.level),
        };
        let conceded = |loser: Color, ending| GgfResult {
            black_margin: self.game.position().conceded(loser).black_margin as f64,
            ending,
        };
        let result = match (self.record.resigned, self.flagged()) {
            (Some(loser), _) => Some(conceded(loser, GgfEnding::Resigned)),
            (None, Some(loser)) => Some(conceded(loser, GgfEnding::Timeout)),
            (None, None) => None,
        };
        let info = GameInfo {
            black: name(Color::Black),
            white: name(Color::White),
            place: Some("reversi serve".into()),
            date: Some(self.record.created_at.to_string()),
            result,
            ..GameInfo::default()
        };
        write_ggf(&GgfGame::from_game(&self.game, info))
    }

    /// The state shown to every client.
    pub fn view(&self) -> GameView {
        let pos = self.game.position();
        let (w, h) = (pos.width(), pos.height());
        let cells = cells_of(pos);
        let moves: Vec<String> = self.game.moves().iter().map(|m| m.to_string()).collect();
        let ply = self.game.ply();
        let last = self.game.moves().last().copied();
        let (flipped, passed) = self.flipped_and_passed(ply);
        let over = self.is_over();
        let legal = if over {
            Vec::new()
        } else {
            pos.legal_moves().squares().map(|s| s.to_string()).collect()
        };
        let result = self.result();
        GameView {
            id: self.record.id.clone(),
            variant: self.record.variant.to_string(),
            mode: self.record.mode,
            level: self.record.level,
            players: Players {
                black: self.record.players[0],
                white: self.record.players[1],
            },
            seats_taken: Players {
                black: self.record.players[0] == PlayerKind::Ai || self.record.tokens[0].is_some(),
                white: self.record.players[1] == PlayerKind::Ai || self.record.tokens[1].is_some(),
            },
            width: w,
            height: h,
            cells,
            to_move: self.to_move(),
            legal_moves: legal,
            moves,
            ply,
            last_move: last.map(|m| m.to_string()),
            flipped,
            passed,
            black_count: pos.count(Color::Black),
            white_count: pos.count(Color::White),
            supply: match (pos.supply(Color::Black), pos.supply(Color::White)) {
                (Some(black), Some(white)) => Some(Players { black, white }),
                _ => None,
            },
            first_to_move: self.game.start().side_to_move(),
            status: self.status(),
            can_abort: self.can_abort(),
            result,
            // The computer to move is the computer thinking: the state right after a move
            // against it says so, not a moment later (a client trusting the first state would
            // otherwise move out of turn).
            ai_thinking: self.ai_thinking || self.ai_to_move().is_some(),
            version: self.version,
            created_at: self.record.created_at,
            rematch: self.record.rematch.clone(),
            online: self
                .record
                .online
                .as_ref()
                .map(|o| o.view(self.record.variant, self.to_move(), crate::time::clock_ms())),
            openings: self.opening_marks(),
            presence: self.presence_view(crate::time::now_ms()),
        }
    }

    /// The discs flipped by move `ply` (1-based: the move that led to the position after `ply`
    /// moves) and, when that move was a pass, the colour that passed.
    fn flipped_and_passed(&self, ply: usize) -> (Vec<String>, Option<Color>) {
        let moves = self.game.moves();
        let last = ply.checked_sub(1).and_then(|i| moves.get(i).copied());
        let prev = ply.checked_sub(1).and_then(|p| self.game.position_at(p));
        match (last, prev, self.game.position_at(ply)) {
            (Some(Move::Play(sq)), Some(prev), Some(now)) => (flipped_squares(prev, now, sq), None),
            (Some(Move::Pass), Some(prev), _) => (Vec::new(), Some(prev.side_to_move())),
            _ => (Vec::new(), None),
        }
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<ResultView> {
        let pos = self.game.position();
        if self.record.void.is_some() {
            None
        } else if let Some(loser) = self.record.resigned {
            let o = pos.conceded(loser);
            Some(ResultView {
                black: o.black,
                white: o.white,
                winner: o.winner,
                black_margin: o.black_margin,
                ending: if self.record.left { "left" } else { "resigned" },
                resigned: Some(loser),
                flagged: None,
            })
        } else if let Some(loser) = self.flagged() {
            // RULES.md §6: the same count as a resignation.
            let o = pos.conceded(loser);
            Some(ResultView {
                black: o.black,
                white: o.white,
                winner: o.winner,
                black_margin: o.black_margin,
                ending: "time",
                resigned: None,
                flagged: Some(loser),
            })
        } else {
            self.game.outcome().map(|o| ResultView {
                black: o.black,
                white: o.white,
                winner: o.winner,
                black_margin: o.black_margin,
                ending: "normal",
                resigned: None,
                flagged: None,
            })
        }
    }

    /// The plies at which the game stood in a named opening.
    fn opening_marks(&self) -> Vec<OpeningMark> {
        reversi_core::openings::marks(&self.game)
            .into_iter()
            .map(|(ply, o)| OpeningMark {
                ply,
                en: o.english,
                ru: o.russian,
            })
            .collect()
    }

    /// Every position of the game from the start, for the replay view.
    pub fn replay(&self) -> ReplayView {
        let moves = self.game.moves();
        let frames = (0..=moves.len())
            .filter_map(|ply| {
                let pos = self.game.position_at(ply)?;
                let (flipped, passed) = self.flipped_and_passed(ply);
                let to_move = if ply == moves.len() {
                    self.to_move()
                } else {
                    Some(pos.side_to_move())
                };
                Some(ReplayFrame {
                    cells: cells_of(pos),
                    to_move,
                    last_move: ply.checked_sub(1).map(|i| moves[i].to_string()),
                    flipped,
                    passed,
                    black_count: pos.count(Color::Black),
                    white_count: pos.count(Color::White),
                })
            })
            .collect();
        ReplayView {
            id: self.record.id.clone(),
            variant: self.record.variant.to_string(),
            mode: self.record.mode,
            level: self.record.level,
            players: Players {
                black: self.record.players[0],
                white: self.record.players[1],
            },
            width: self.game.position().width(),
            height: self.game.position().height(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            frames,
            openings: self.opening_marks(),
            status: self.status(),
            result: self.result(),
            created_at: self.record.created_at,
        }
    }
}

/// The board row by row from `a1`: `X` black, `O` white, `.` empty, `#` no square.
pub fn cells_of(pos: &AnyPosition) -> String {
    let (w, h) = (pos.width(), pos.height());
    let mut cells = String::with_capacity(w as usize * h as usize);
    let playable = pos.playable();
    for r in 0..h {
        for c in 0..w {
            let sq = Square::new(c, r).expect("on board");
            cells.push(match pos.disc(sq) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None if playable.has(sq) => '.',
                None => '#',
            });
        }
    }
    cells
}

/// One position of a replay: the board after `ply` moves (its index in [`ReplayView::frames`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplayFrame {
    /// The board, as [`GameView::cells`].
    pub cells: String,
    /// The side to move; `null` once the game is over.
    #[serde(serialize_with = "ser_color_opt")]
    pub to_move: Option<Color>,
    /// The move that led here (`null` at the start).
    pub last_move: Option<String>,
    /// The discs that move flipped.
    pub flipped: Vec<String>,
    /// The colour that passed, when the move was a pass.
    #[serde(serialize_with = "ser_color_opt")]
    pub passed: Option<Color>,
    /// Black's discs.
    pub black_count: u32,
    /// White's discs.
    pub white_count: u32,
}

/// A whole game for the replay view: every position from the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplayView {
    /// The game id.
    pub id: String,
    /// The variant preset, resolved.
    pub variant: String,
    /// `ai`, `friend` or `local`.
    pub mode: Mode,
    /// The computer's level.
    pub level: u32,
    /// Who plays each colour.
    pub players: Players<PlayerKind>,
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// Every move, passes as `pass`.
    pub moves: Vec<String>,
    /// `frames[k]`: the position after `k` moves (`moves.len() + 1` of them).
    pub frames: Vec<ReplayFrame>,
    /// As [`GameView::openings`].
    pub openings: Vec<OpeningMark>,
    /// `playing` or `finished`.
    pub status: &'static str,
    /// The result once finished.
    pub result: Option<ResultView>,
    /// Creation time (Unix seconds).
    pub created_at: i64,
}

fn flipped_squares(prev: &AnyPosition, now: &AnyPosition, played: Square) -> Vec<String> {
    now.playable()
        .squares()
        .filter(|&s| s != played && prev.disc(s).is_some() && prev.disc(s) != now.disc(s))
        .map(|s| s.to_string())
        .collect()
}

/// A value per colour, in JSON as `{"black": ..., "white": ...}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Players<T> {
    /// Black's value.
    pub black: T,
    /// White's value.
    pub white: T,
}

/// The final result as shown to clients.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultView {
    /// Black's final count (empties to the winner, RULES.md §1; after a resignation as RULES.md
    /// §6 records it).
    pub black: u32,
    /// White's final count.
    pub white: u32,
    /// The winner; `null` for a draw.
    #[serde(serialize_with = "ser_color_opt")]
    pub winner: Option<Color>,
    /// Black's result as a disc difference (RULES.md §1, and §6 after a resignation).
    pub black_margin: i32,
    /// `normal`, `resigned`, `left` (the loser left and the winner claimed the win) or `time`
    /// (a player ran out of time).
    pub ending: &'static str,
    /// Who resigned.
    #[serde(serialize_with = "ser_color_opt")]
    pub resigned: Option<Color>,
    /// Who ran out of time.
    #[serde(serialize_with = "ser_color_opt")]
    pub flagged: Option<Color>,
}

/// The state of a game as sent to clients (HTTP and websocket).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// The game id.
    pub id: String,
    /// The variant preset, resolved (`othello`, `black-hole:c3`, `xot:17`, ...).
    pub variant: String,
    /// `ai`, `friend` or `local`.
    pub mode: Mode,
    /// The computer's level.
    pub level: u32,
    /// Who plays each colour.
    pub players: Players<PlayerKind>,
    /// Whether each seat is taken (always true for the computer's).
    pub seats_taken: Players<bool>,
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// The board row by row from `a1`: `X` black, `O` white, `.` empty, `#` no square.
    pub cells: String,
    /// The side to move; `null` once the game is over.
    #[serde(serialize_with = "ser_color_opt")]
    pub to_move: Option<Color>,
    /// The legal squares of the side to move.
    pub legal_moves: Vec<String>,
    /// Every move from the start, passes as `pass`.
    pub moves: Vec<String>,
    /// The number of moves played (passes included).
    pub ply: usize,
    /// The last move.
    pub last_move: Option<String>,
    /// The discs the last move flipped.
    pub flipped: Vec<String>,
    /// The side whose turn was passed by the last move, if it was a pass.
    #[serde(serialize_with = "ser_color_opt")]
    pub passed: Option<Color>,
    /// Black's discs on the board.
    pub black_count: u32,
    /// White's discs on the board.
    pub white_count: u32,
    /// The discs left in each player's supply, in variants that have one (Reversi 1880).
    pub supply: Option<Players<u8>>,
    /// The colour that moved first (moves then alternate, passes included).
    #[serde(serialize_with = "ser_color")]
    pub first_to_move: Color,
    /// `playing`, `finished` (with a result), `aborted` or `abandoned` (without one).
    pub status: &'static str,
    /// Whether a seat holder may still abort the game (the two sides have not both moved).
    pub can_abort: bool,
    /// The result once finished.
    pub result: Option<ResultView>,
    /// Whether the computer is thinking: true whenever it is the computer's turn.
    pub ai_thinking: bool,
    /// Bumped on every change.
    pub version: u64,
    /// Creation time (Unix seconds).
    pub created_at: i64,
    /// The id of the rematch a seat holder started from this game, if any.
    pub rematch: Option<String>,
    /// The players, rating and clock of a game between people who met on the site.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub online: Option<OnlineView>,
    /// Each ply at which the game stood in a named opening (standard Othello only): the
    /// opening at a ply is the last mark at or before it.
    pub openings: Vec<OpeningMark>,
    /// Who is connected: the players, the number of spectators, and when a departed
    /// opponent's win may be claimed.
    pub presence: PresenceView,
}

impl GameView {
    /// The state as a client holding `seats` may see it ([`crate::online::OnlineView::for_viewer`]).
    pub fn for_viewer(mut self, seats: &[Color]) -> GameView {
        if let Some(o) = self.online.as_mut() {
            o.for_viewer(seats);
        }
        self
    }

    /// Whether [`GameView::for_viewer`] changes anything for a spectator.
    pub fn hides_from_spectators(&self) -> bool {
        self.online
            .as_ref()
            .is_some_and(|o| o.private && o.tournament.is_some())
    }
}

/// A named opening reached at a ply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpeningMark {
    /// The ply (moves played) at which the game stood in it.
    pub ply: usize,
    /// Its English name.
    pub en: &'static str,
    /// Its Russian name.
    pub ru: &'static str,
}

fn ser_color<S: serde::Serializer>(c: &Color, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(c.name())
}

fn ser_color_opt<S: serde::Serializer>(c: &Option<Color>, s: S) -> std::result::Result<S::Ok, S::Error> {
    match c {
        Some(c) => s.serialize_str(c.name()),
        None => s.serialize_none(),
    }
}

/// Reads `black`/`white` (or `b`/`w`).
pub fn parse_color(s: &str) -> Option<Color> {
    match s.to_ascii_lowercase().as_str() {
        "black" | "b" => Some(Color::Black),
        "white" | "w" => Some(Color::White),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(mode: Mode, players: [PlayerKind; 2]) -> GameRecord {
        GameRecord {
            id: "t".into(),
            variant: Variant::Othello,
            mode,
            level: 1,
            players,
            tokens: [Some("a".into()), Some("b".into())],
            resigned: None,
            left: false,
            created_at: 0,
            rematch: None,
            join_token: None,
            void: None,
            online: None,
        }
    }

    #[test]
    fn seats_moves_and_turns() {
        let mut g = LiveGame::new(record(Mode::Friend, [PlayerKind::Human; 2]));
        let black = g.record.seats_of(Some("a"));
        let white = g.record.seats_of(Some("b"));
        assert_eq!(black, vec![Color::Black]);
        assert!(g.record.seats_of(Some("zz")).is_empty());
        assert!(matches!(
            g.play_human(&white, "d3", None),
            Err(Error::NotYourTurn(_))
        ));
        assert!(matches!(
            g.play_human(&black, "a1", None),
            Err(Error::IllegalMove(_))
        ));
        assert!(matches!(
            g.play_human(&black, "zz", None),
            Err(Error::IllegalMove(_))
        ));
        assert!(matches!(
            g.play_human(&black, "d3", Some(3)),
            Err(Error::StalePly { .. })
        ));
        assert_eq!(
            g.play_human(&black, "D3", Some(0)).unwrap(),
            vec![Move::Play(Square::parse("d3").unwrap())]
        );
        assert_eq!(g.view().to_move, Some(Color::White));
        assert_eq!(g.view().flipped, vec!["d4".to_string()]);
        g.resign(Color::White).unwrap();
        let v = g.view();
        assert_eq!(v.status, "finished");
        assert_eq!(v.result.unwrap().winner, Some(Color::Black));
        assert!(g.ggf().contains(":r"));
    }

    fn online(control: Option<reversi_site::clock::TimeControl>) -> Online {
        let seat = |k: &str| crate::online::SeatInfo {
            key: k.into(),
            name: Some(k.into()),
            rating: None,
            provisional: false,
            bot: false,
            diff: None,
        };
        Online {
            seats: [seat("a"), seat("b")],
            rated: false,
            timing: control.map(|c| crate::online::Timing::new(c, 0)),
            flagged: None,
            tournament: None,
            private: false,
        }
    }

    #[test]
    fn the_claim_of_a_win_waits_the_documented_time() {
        use reversi_site::clock::TimeControl;
        let mut rec = record(Mode::Online, [PlayerKind::Human; 2]);
        rec.online = Some(online(Some(TimeControl::fischer(180, 2).unwrap())));
        let mut g = LiveGame::new(rec);
        let (black, white) = (vec![Color::Black], vec![Color::White]);
        // Before both have moved: abort instead.
        assert_eq!(g.claim_after_ms(), None);
        g.play_human(&black, "d3", None).unwrap();
        assert!(matches!(
            g.claim_win(Color::Black, 0),
            Err(Error::Conflict("cannot_claim", _))
        ));
        g.play_human(&white, "c3", None).unwrap();
        assert_eq!(g.claim_after_ms(), Some(CLAIM_AFTER_LIVE_MS));
        // White is connected, then away since t = 1 000.
        g.presence.away_since = [None, None];
        assert!(matches!(
            g.claim_win(Color::Black, 50_000),
            Err(Error::Conflict("opponent_here", _))
        ));
        g.presence.away_since = [None, Some(1_000)];
        let early = 1_000 + CLAIM_AFTER_LIVE_MS as i64 - 1;
        assert!(matches!(
            g.claim_win(Color::Black, early),
            Err(Error::Conflict("too_early", _))
        ));
        // White, who is the one away, cannot claim against a Black who is here.
        assert!(matches!(
            g.claim_win(Color::White, early + 10_000),
            Err(Error::Conflict("opponent_here", _))
        ));
        assert_eq!(
            g.presence_view(early).white_away_ms,
            Some(CLAIM_AFTER_LIVE_MS - 1)
        );
        g.claim_win(Color::Black, early + 1).unwrap();
        let r = g.result().unwrap();
        assert_eq!(
            (r.ending, r.resigned, r.winner),
            ("left", Some(Color::White), Some(Color::Black))
        );
        assert_eq!(g.claim_after_ms(), None, "over");
        assert!(matches!(
            g.claim_win(Color::Black, early + 2),
            Err(Error::GameOver)
        ));
    }

    #[test]
    fn which_games_have_a_claim() {
        use reversi_site::clock::TimeControl;
        let both_moved = |rec: GameRecord| {
            let mut g = LiveGame::new(rec);
            g.play_checked(Move::Play(Square::parse("d3").unwrap())).unwrap();
            g.play_checked(Move::Play(Square::parse("c3").unwrap())).unwrap();
            g
        };
        let untimed = both_moved(record(Mode::Friend, [PlayerKind::Human; 2]));
        assert_eq!(untimed.claim_after_ms(), Some(CLAIM_AFTER_UNTIMED_MS));
        let mut rec = record(Mode::Online, [PlayerKind::Human; 2]);
        rec.online = Some(online(Some(TimeControl::correspondence(1).unwrap())));
        assert_eq!(
            both_moved(rec).claim_after_ms(),
            None,
            "correspondence: the clock decides"
        );
        let mut rec = record(Mode::Ai, [PlayerKind::Human, PlayerKind::Ai]);
        rec.tokens[1] = None;
        assert_eq!(
            both_moved(rec).claim_after_ms(),
            None,
            "nobody leaves the computer"
        );
        let local = both_moved(record(Mode::Local, [PlayerKind::Human; 2]));
        assert_eq!(local.claim_after_ms(), None, "one device");
        let mut rec = record(Mode::Friend, [PlayerKind::Human; 2]);
        rec.tokens[1] = None;
        assert_eq!(both_moved(rec).claim_after_ms(), None, "the friend never came");
    }

    #[test]
    fn undo_returns_to_the_humans_turn() {
        let mut rec = record(Mode::Ai, [PlayerKind::Human, PlayerKind::Ai]);
        rec.tokens[1] = None;
        let mut g = LiveGame::new(rec);
        let me = vec![Color::Black];
        assert!(g.undo_for_human(&me).is_err());
        g.play_human(&me, "f5", None).unwrap();
        g.play_checked(Move::Play(Square::parse("d6").unwrap())).unwrap();
        g.play_human(&me, "c3", None).unwrap();
        assert_eq!(g.undo_for_human(&me).unwrap(), 2);
        assert_eq!(g.undo_for_human(&me).unwrap(), 0);
        assert_eq!(g.view().cells, LiveGame::new(g.record.clone()).view().cells);
    }
}
