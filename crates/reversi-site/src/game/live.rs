//! A game being played: the moves, the clock's presses, resignation, abort, undo, takebacks
//! between people, the claim of a win, and the versions clients order states by. Every action that depends on the time takes
//! it as an argument (Unix ms).

use super::online::Deadline;
use super::presence::{Presence, CLAIM_AFTER_LIVE_MS, CLAIM_AFTER_UNTIMED_MS};
use super::record::{GameRecord, VoidEnd};
use super::{GameError, Result};
use crate::Millis;
use reversi_core::format::ggf::{write_ggf, Ending as GgfEnding, GameInfo, GgfGame, GgfResult};
use reversi_core::notation::parse_move;
use reversi_core::{AnyPosition, Color, Game, Move};
use reversi_site_api::{Mode, PlayerKind};

/// The version after `v` at `now` (Unix ms): one more, or the wall clock in microseconds if that
/// is larger (a hybrid logical clock). In-memory changes that are never stored (the computer
/// starts thinking) still move it, so a game read back after a restart, or by another instance,
/// must not start from a stored count: it starts from the clock, which has moved on meanwhile.
pub fn next_version(v: u64, now: Millis) -> u64 {
    v.saturating_add(1).max(now.saturating_mul(1000))
}

/// A game being played: its record, the rules library's [`Game`] and the server's counters.
#[derive(Clone, Debug)]
pub struct LiveGame {
    /// The stored description.
    pub record: GameRecord,
    /// The moves and positions (passes explicit).
    pub game: Game,
    /// Grows with every change; clients use it to drop stale updates. It is never smaller than
    /// the time of its last change in microseconds (see [`next_version`]), so it keeps growing
    /// across a restart, when the game is read back from storage, and between server instances.
    pub version: u64,
    /// Whether the engine is searching a move for this game now.
    pub ai_thinking: bool,
    /// Identifies the current engine search; a result for an older job is thrown away.
    pub ai_job: u64,
    /// Who is connected to the game (not stored with it: each instance keeps its counts).
    pub presence: Presence,
    /// The side that asks the other to take back its last move (stored with the game; a move
    /// withdraws it).
    pub takeback: Option<Color>,
    /// Each side's conditional premoves (correspondence; stored with the game, shown to their
    /// author only): [`super::conditional`].
    pub conditional: [Option<super::conditional::Conditional>; 2],
}

/// What asking for a takeback did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakebackAsked {
    /// The offer waits for the opponent's answer.
    Asked,
    /// The opponent had asked for the same: accepted, the game is back at this ply.
    TakenBack(usize),
}

impl LiveGame {
    /// A game at its start position at `now` (forced passes, if any, already played).
    pub fn new(record: GameRecord, now: Millis) -> LiveGame {
        let mut live = LiveGame {
            game: Game::new(record.rules()),
            record,
            version: next_version(0, now),
            ai_thinking: false,
            ai_job: 0,
            presence: Presence::default(),
            takeback: None,
            conditional: [None, None],
        };
        live.play_forced_passes();
        live
    }

    /// A game rebuilt from its stored moves at `now`; `stored_version` is the version stored
    /// with its latest change.
    pub fn restore(record: GameRecord, moves: &[Move], stored_version: u64, now: Millis) -> Result<LiveGame> {
        let mut game = Game::new(record.rules());
        game.play_all(moves)
            .map_err(|e| GameError::Corrupt(format!("stored game {} does not replay: {e}", record.id)))?;
        let mut live = LiveGame {
            game,
            record,
            // The next millisecond's floor: newer than any version the previous holder of the
            // game (an instance that stopped, or another one) can have made up to `now`.
            version: next_version(stored_version, now.saturating_add(1)),
            ai_thinking: false,
            ai_job: 0,
            presence: Presence::default(),
            takeback: None,
            conditional: [None, None],
        };
        live.play_forced_passes();
        Ok(live)
    }

    /// Marks a change at `now`: the version grows (see [`next_version`]).
    pub fn bump_version(&mut self, now: Millis) {
        self.version = next_version(self.version, now);
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
        self.bump_version(now);
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
                crate::clock::ClockError::Flagged(_) => GameError::TimeOut,
                e => GameError::Corrupt(format!("clock: {e}")),
            })?;
        t.turn_since = now;
        if over {
            t.clock.stop(now);
        }
        Ok(())
    }

    /// `playing`, `finished` (with a result), `aborted` or `abandoned` (without one).
    pub fn status(&self) -> reversi_site_api::GameStatus {
        use reversi_site_api::GameStatus;
        match self.record.void {
            Some(VoidEnd::Aborted) => GameStatus::Aborted,
            Some(VoidEnd::Abandoned) => GameStatus::Abandoned,
            Some(VoidEnd::Closed) => GameStatus::Closed,
            None if self.is_over() => GameStatus::Finished,
            None => GameStatus::Playing,
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
    pub fn waiting_for_friend(&self) -> bool {
        self.record.mode == Mode::Friend && self.record.open_seat().is_some()
    }

    /// Aborts the game at `now`: no result (the two sides have not both moved yet).
    pub fn abort(&mut self, now: Millis) -> Result<()> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        if self.in_tournament() {
            return Err(GameError::CannotAbort(
                "a tournament game cannot be aborted (resign instead)",
            ));
        }
        if !self.can_abort() {
            return Err(GameError::CannotAbort(
                "both players have moved: the game can no longer be aborted (resign instead)",
            ));
        }
        self.record.void = Some(VoidEnd::Aborted);
        self.record.join_token = None;
        self.stop_clock(now);
        self.bump_version(now);
        self.ai_job += 1;
        self.ai_thinking = false;
        Ok(())
    }

    /// Closes a game nobody has moved in for long, at `now` (no result).
    pub fn abandon(&mut self, now: Millis) -> Result<()> {
        self.void(VoidEnd::Abandoned, now)
    }

    /// Closes the game for a moderator at `now` (no result, no rating).
    pub fn close(&mut self, now: Millis) -> Result<()> {
        self.void(VoidEnd::Closed, now)
    }

    fn void(&mut self, end: VoidEnd, now: Millis) -> Result<()> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        self.record.void = Some(end);
        self.record.join_token = None;
        self.stop_clock(now);
        self.bump_version(now);
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

    /// The position a holder of `seats` may ask the engine about: only a person playing the
    /// computer, on their own turn, in a game still going (people playing people get no help).
    pub fn hint_position(&self, seats: &[Color]) -> Result<AnyPosition> {
        self.check_against_computer(seats, GameError::NoHints)?;
        self.holder_to_move(seats)?;
        Ok(*self.game.position())
    }

    /// Whether a holder of `seats` may use what only a game against the computer still going
    /// offers (`between_people` is the error for a game between people).
    fn check_against_computer(&self, seats: &[Color], between_people: GameError) -> Result<()> {
        if seats.is_empty() {
            return Err(GameError::NoSeat);
        }
        if self.record.mode != Mode::Ai {
            return Err(between_people);
        }
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        Ok(())
    }

    /// The side to move, if it is a person's and a holder of `seats` plays it.
    fn holder_to_move(&self, seats: &[Color]) -> Result<Color> {
        let side = self.game.side_to_move();
        if !seats.contains(&side) || self.record.players[side.index()] != PlayerKind::Human {
            return Err(GameError::NotYourTurn(side.name()));
        }
        Ok(side)
    }

    /// Plays `text` (a square, or `pass`) for a holder of `seats` at `now`. `expected_ply`,
    /// when given, must equal the current ply (protects against a move sent twice). Returns the
    /// moves added, forced passes included, for storage.
    pub fn play_human(
        &mut self,
        seats: &[Color],
        text: &str,
        expected_ply: Option<usize>,
        now: Millis,
    ) -> Result<Vec<Move>> {
        if seats.is_empty() {
            return Err(GameError::NoSeat);
        }
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        if let Some(expected) = expected_ply {
            if expected != self.game.ply() {
                return Err(GameError::StalePly {
                    expected,
                    actual: self.game.ply(),
                });
            }
        }
        self.holder_to_move(seats)?;
        if self.waiting_for_friend() {
            return Err(GameError::WaitingForFriend);
        }
        let mv = parse_move(text.trim()).map_err(|e| GameError::IllegalMove(format!("{text:?}: {e}")))?;
        self.play_checked(mv, now)
    }

    /// Plays `mv` for the side to move at `now` (the engine's move, or a checked human move).
    pub fn play_checked(&mut self, mv: Move, now: Millis) -> Result<Vec<Move>> {
        let pos = *self.game.position();
        // The library reads a square played by a side that must pass as pass + square; the
        // site wants the exact move of the side to move.
        if let Move::Play(_) = mv {
            if pos.must_pass() {
                return Err(GameError::IllegalMove(format!(
                    "{} has no legal move and must pass",
                    pos.side_to_move().name()
                )));
            }
        }
        let before = self.game.ply();
        self.game.play(mv).map_err(|e| match e {
            reversi_core::GameError::Illegal { reason, .. } => GameError::IllegalMove(reason.to_string()),
            e => GameError::IllegalMove(e.to_string()),
        })?;
        self.play_forced_passes();
        self.takeback = None;
        self.bump_version(now);
        Ok(self.game.moves()[before..].to_vec())
    }

    /// Resigns for `color` at `now`.
    pub fn resign(&mut self, color: Color, now: Millis) -> Result<()> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        if self.waiting_for_friend() {
            return Err(GameError::AbortInstead);
        }
        self.record.resigned = Some(color);
        self.stop_clock(now);
        self.bump_version(now);
        self.ai_job += 1;
        self.ai_thinking = false;
        Ok(())
    }

    /// After how long away (ms) a player's win may be claimed by the opponent; `None` where no
    /// claim is possible: not two people on two devices, over, still abortable, or a
    /// correspondence game (see [`super::presence`]).
    pub fn claim_after_ms(&self) -> Option<u64> {
        let two_people = matches!(self.record.mode, Mode::Online | Mode::Friend)
            && self.record.players == [PlayerKind::Human; 2]
            && self.record.tokens.iter().all(Option::is_some);
        if !two_people || self.is_over() || self.can_abort() {
            return None;
        }
        match self.record.online.as_ref().and_then(|o| o.timing) {
            None => Some(CLAIM_AFTER_UNTIMED_MS),
            Some(t) if matches!(t.clock.control, crate::clock::TimeControl::Correspondence { .. }) => None,
            Some(_) => Some(CLAIM_AFTER_LIVE_MS),
        }
    }

    /// `claimant` claims the win from the opponent, who has been away long enough at `now`
    /// (Unix ms): recorded as the opponent's resignation, marked as a departure.
    pub fn claim_win(&mut self, claimant: Color, now: Millis) -> Result<()> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        let after = self
            .claim_after_ms()
            .ok_or(GameError::CannotClaim(if self.can_abort() {
                "the game can still be aborted: abort it instead"
            } else {
                "this game has no claim of a win (a correspondence game ends by its clock)"
            }))?;
        let absent = !claimant;
        match self.presence.away_for(absent.index(), now as i64) {
            None => Err(GameError::OpponentHere),
            Some(away) if away < after => Err(GameError::TooEarly {
                away_s: away / 1000,
                after_s: after / 1000,
            }),
            Some(_) => {
                self.resign(absent, now)?;
                self.record.left = true;
                Ok(())
            }
        }
    }

    /// Takes back moves at `now` until a person is to move again, at least one of their moves
    /// taken back (games against the computer only). Returns the new ply.
    pub fn undo_for_human(&mut self, seats: &[Color], now: Millis) -> Result<usize> {
        // A finished game is final, however it ended.
        self.check_against_computer(seats, GameError::UndoVsComputerOnly)?;
        let human = Color::ALL
            .into_iter()
            .find(|c| self.record.players[c.index()] == PlayerKind::Human)
            .ok_or_else(|| GameError::Corrupt("no human seat".into()))?;
        let target = self.last_move_of(human).ok_or(GameError::NothingToUndo)?;
        self.back_to(target)?;
        self.bump_version(now);
        self.ai_job += 1;
        self.ai_thinking = false;
        Ok(target)
    }

    /// The latest ply at which `color` made a move of its own (a pass is not one).
    fn last_move_of(&self, color: Color) -> Option<usize> {
        let moves = self.game.moves();
        (0..moves.len()).rev().find(|&ply| {
            matches!(moves[ply], Move::Play(_))
                && self
                    .game
                    .position_at(ply)
                    .is_some_and(|p| p.side_to_move() == color)
        })
    }

    /// The game as it stood before ply `target`.
    fn back_to(&mut self, target: usize) -> Result<()> {
        let mut game = Game::from_position(self.record.rules(), *self.game.start());
        game.play_all(&self.game.moves()[..target])
            .map_err(|e| GameError::Corrupt(format!("undo replay: {e}")))?;
        self.game = game;
        Ok(())
    }

    /// Whether the players may ask each other to take a move back: a casual game between two
    /// people on two devices (online, or a friend by link), not in a tournament.
    pub fn takebacks_allowed(&self) -> bool {
        matches!(self.record.mode, Mode::Online | Mode::Friend)
            && self.record.players == [PlayerKind::Human, PlayerKind::Human]
            && !self
                .record
                .online
                .as_ref()
                .is_some_and(|o| o.rated || o.tournament.is_some())
    }

    /// `by` asks at `now` to take back its last move (and the opponent's reply, if made): the
    /// offer waits for the opponent, or, if the opponent had asked for the same, it is their
    /// offer accepted.
    pub fn ask_takeback(&mut self, by: Color, now: Millis) -> Result<TakebackAsked> {
        self.check_takeback()?;
        if self.takeback == Some(!by) {
            return self.take_back(!by, now).map(TakebackAsked::TakenBack);
        }
        if self.waiting_for_friend() {
            return Err(GameError::WaitingForFriend);
        }
        self.last_move_of(by).ok_or(GameError::NothingToUndo)?;
        if self.takeback != Some(by) {
            self.takeback = Some(by);
            self.bump_version(now);
        }
        Ok(TakebackAsked::Asked)
    }

    /// `by` answers at `now` the opponent's offer (`accept`), or withdraws its own (`accept`
    /// false). Returns the ply the game is back at when the takeback was made.
    pub fn answer_takeback(&mut self, by: Color, accept: bool, now: Millis) -> Result<Option<usize>> {
        self.check_takeback()?;
        match self.takeback {
            Some(asker) if asker != by && accept => self.take_back(asker, now).map(Some),
            Some(asker) if asker != by || !accept => {
                self.takeback = None;
                self.bump_version(now);
                Ok(None)
            }
            _ => Err(GameError::NoTakebackOffer),
        }
    }

    fn check_takeback(&self) -> Result<()> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        if !self.takebacks_allowed() {
            return Err(GameError::TakebackNotAllowed);
        }
        Ok(())
    }

    /// Takes back `asker`'s last move and everything after it, at `now`: the clock charges the
    /// side that was thinking and runs for the side to move again (no time is given back, as
    /// on lichess). A flag that has fallen meanwhile is refused (`time_out`): the caller applies
    /// [`Self::expire`].
    fn take_back(&mut self, asker: Color, now: Millis) -> Result<usize> {
        let target = self.last_move_of(asker).ok_or(GameError::NothingToUndo)?;
        let snapshot = self.game.clone();
        self.back_to(target)?;
        let next = self.game.side_to_move();
        if let Some(t) = self.record.online.as_mut().and_then(|o| o.timing.as_mut()) {
            if let Err(e) = t.clock.switch_to(next, now) {
                self.game = snapshot;
                return Err(match e {
                    crate::clock::ClockError::Flagged(_) => GameError::TimeOut,
                    e => GameError::Corrupt(format!("clock: {e}")),
                });
            }
            t.turn_since = now;
        }
        self.takeback = None;
        self.bump_version(now);
        Ok(target)
    }

    /// The GGF record of the game: the players' names and ratings when it began, its time
    /// control, the moves and the result.
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
        let online = self.record.online.as_ref();
        let rating = |c: Color| online.and_then(|o| o.seats[c.index()].rating).map(f64::from);
        let info = GameInfo {
            black: name(Color::Black),
            white: name(Color::White),
            black_rating: rating(Color::Black),
            white_rating: rating(Color::White),
            place: Some("reversi serve".into()),
            date: Some(self.record.created_at.to_string()),
            time_control: online
                .and_then(|o| o.timing.as_ref())
                .and_then(|t| ggf_time(t.clock.control)),
            result,
            ..GameInfo::default()
        };
        write_ggf(&GgfGame::from_game(&self.game, info))
    }
}

/// A Fischer control as GGF's `TI` writes it: the main time, then the increment after a `/`
/// (`05:00/00:03` for 5+3; `15:00` without one). GGF has no days per move: a correspondence
/// game's record has no `TI`.
fn ggf_time(control: crate::clock::TimeControl) -> Option<String> {
    match control {
        crate::clock::TimeControl::Fischer {
            initial_s,
            increment_s,
        } => {
            let mmss = |s: u32| format!("{:02}:{:02}", s / 60, s % 60);
            Some(if increment_s == 0 {
                mmss(initial_s)
            } else {
                format!("{}/{}", mmss(initial_s), mmss(increment_s))
            })
        }
        crate::clock::TimeControl::Correspondence { .. } => None,
    }
}
