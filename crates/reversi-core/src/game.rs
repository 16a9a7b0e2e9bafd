//! A game: a start, the moves played, undo/redo to any ply, the result.

use crate::bits::WideBits;
use crate::color::Color;
use crate::notation::{self, NotationError};
use crate::position::{AnyPosition, IllegalMove, Outcome};
use crate::rules::Rules;
use crate::square::Move;

/// A move that could not be played while replaying or extending a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The move at `ply` (1-based) is illegal.
    #[error("move {ply} ({mv}): {reason}")]
    Illegal {
        /// 1-based ply of the move.
        ply: usize,
        /// The move.
        mv: Move,
        /// Why it is illegal.
        reason: IllegalMove,
    },
    /// The transcript could not be read.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A ply number beyond the recorded moves.
    #[error("ply {ply} is beyond the {len} recorded moves")]
    NoSuchPly {
        /// Requested ply.
        ply: usize,
        /// Recorded moves.
        len: usize,
    },
}

/// A game under some [`Rules`]: the start position, the moves (passes explicit) and the current
/// ply. Moves undone stay recorded for redo until a different move is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    /// `history[i]` is the position after `i` moves; `history.len() == moves.len() + 1`.
    history: Vec<AnyPosition>,
    moves: Vec<Move>,
    ply: usize,
}

impl Game {
    /// A new game from the start position of `rules`.
    pub fn new(rules: Rules) -> Game {
        let start = AnyPosition::start(&rules);
        Game::from_position(rules, start)
    }

    /// A game starting from `start` (a position of `rules`' board).
    pub fn from_position(rules: Rules, start: AnyPosition) -> Game {
        Game {
            rules,
            history: vec![start],
            moves: Vec::new(),
            ply: 0,
        }
    }

    /// A game of `rules` replaying `moves` from the start; forced passes are inserted where the
    /// record leaves them out.
    pub fn replay(rules: Rules, moves: &[Move]) -> Result<Game, GameError> {
        let mut g = Game::new(rules);
        g.play_all(moves)?;
        Ok(g)
    }

    /// Like [`Game::replay`] from a transcript such as `f5d6c3`.
    pub fn from_transcript(rules: Rules, transcript: &str) -> Result<Game, GameError> {
        Game::replay(rules, &notation::parse_transcript(transcript)?)
    }

    /// Plays each move in turn (see [`Game::play`]).
    pub fn play_all(&mut self, moves: &[Move]) -> Result<(), GameError> {
        moves.iter().try_for_each(|&m| self.play(m))
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &AnyPosition {
        &self.history[self.ply]
    }

    /// The start position.
    pub fn start(&self) -> &AnyPosition {
        &self.history[0]
    }

    /// The position after `ply` moves (up to the redo tail).
    pub fn position_at(&self, ply: usize) -> Option<&AnyPosition> {
        self.history.get(ply)
    }

    /// The current ply: moves played so far, passes included.
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The moves played up to the current ply.
    pub fn moves(&self) -> &[Move] {
        &self.moves[..self.ply]
    }

    /// Every recorded move, including those undone and available for redo.
    pub fn recorded_moves(&self) -> &[Move] {
        &self.moves
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.position().side_to_move()
    }

    /// Legal moves now.
    pub fn legal_moves(&self) -> WideBits {
        self.position().legal_moves()
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.position().is_game_over()
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position().outcome()
    }

    /// Plays `mv` at the current ply. A square played by a side that must pass is taken as a pass
    /// followed by that square for the opponent (compact transcripts leave passes out). Returns the
    /// discs flipped by the move.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        let pos = *self.position();
        if let Move::Play(_) = mv {
            if pos.must_pass() {
                self.push(Move::Pass, pos.with_side(!pos.side_to_move()));
                return self.play(mv).inspect_err(|_| {
                    self.ply -= 1;
                });
            }
        }
        let mut next = pos;
        next.play(mv).map_err(|reason| GameError::Illegal {
            ply: self.ply + 1,
            mv,
            reason,
        })?;
        self.push(mv, next);
        Ok(())
    }

    fn push(&mut self, mv: Move, next: AnyPosition) {
        if self.moves.get(self.ply) == Some(&mv) {
            self.ply += 1;
            return;
        }
        self.moves.truncate(self.ply);
        self.history.truncate(self.ply + 1);
        self.moves.push(mv);
        self.history.push(next);
        self.ply += 1;
    }

    /// Plays a forced pass if the side to move has none; returns whether it did.
    pub fn pass_if_forced(&mut self) -> bool {
        let pos = *self.position();
        if pos.must_pass() {
            self.push(Move::Pass, pos.with_side(!pos.side_to_move()));
            true
        } else {
            false
        }
    }

    /// Takes back one move; returns false at the start.
    pub fn undo(&mut self) -> bool {
        if self.ply == 0 {
            return false;
        }
        self.ply -= 1;
        true
    }

    /// Replays one undone move; returns false when there is none.
    pub fn redo(&mut self) -> bool {
        if self.ply == self.moves.len() {
            return false;
        }
        self.ply += 1;
        true
    }

    /// Goes to any recorded ply (0 is the start).
    pub fn goto(&mut self, ply: usize) -> Result<(), GameError> {
        if ply > self.moves.len() {
            return Err(GameError::NoSuchPly {
                ply,
                len: self.moves.len(),
            });
        }
        self.ply = ply;
        Ok(())
    }

    /// The moves played so far as a compact transcript (passes left out).
    pub fn transcript(&self) -> String {
        notation::write_transcript(self.moves())
    }
}
