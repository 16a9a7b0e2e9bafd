//! Why an action on a game is refused.

/// Why the game core refused an action. Each has a stable [`GameError::code`] (the `code` of
/// the API's error body, which pages translate).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The action needs a seat and the caller holds none.
    #[error("this game needs a seat token (cookie or `Authorization: Bearer`)")]
    NoSeat,
    /// The caller holds a seat, but not the one the action needs.
    #[error("{0}")]
    NotYourSeat(String),
    /// It is the other side's turn (named).
    #[error("it is {0}'s turn")]
    NotYourTurn(&'static str),
    /// The move breaks the rules.
    #[error("illegal move: {0}")]
    IllegalMove(String),
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The move was sent against another ply than the game's.
    #[error("the game is at ply {actual}, not {expected}")]
    StalePly {
        /// The ply the client saw.
        expected: usize,
        /// The game's ply.
        actual: usize,
    },
    /// The friend invited has not taken their seat yet.
    #[error("your friend has not joined yet: the game starts once they open the invite link")]
    WaitingForFriend,
    /// Resigning a game nobody joined: abort it instead.
    #[error("nobody has joined yet: abort the game instead of resigning")]
    AbortInstead,
    /// The game can no longer (or cannot) be aborted; why.
    #[error("{0}")]
    CannotAbort(&'static str),
    /// Undo outside a game against the computer.
    #[error("undo is only for games against the computer")]
    UndoVsComputerOnly,
    /// Nothing of the caller's to take back.
    #[error("nothing to undo")]
    NothingToUndo,
    /// Takebacks are for casual games between two people.
    #[error(
        "moves can be taken back only in casual games between two people (not rated, not in a tournament)"
    )]
    TakebackNotAllowed,
    /// No takeback was asked that this answer could concern.
    #[error("no takeback was asked")]
    NoTakebackOffer,
    /// Conditional premoves refused: why (which line and move).
    #[error("{0}")]
    Conditional(String),
    /// This game has no claim of a win now; why.
    #[error("{0}")]
    CannotClaim(&'static str),
    /// The opponent is connected: no claim.
    #[error("your opponent is connected: the win cannot be claimed")]
    OpponentHere,
    /// The opponent has not been away long enough.
    #[error("your opponent left {away_s} s ago: the win may be claimed after {after_s} s")]
    TooEarly {
        /// Seconds away so far.
        away_s: u64,
        /// Seconds after which the claim is allowed.
        after_s: u64,
    },
    /// Engine hints outside a game against the computer.
    #[error("hints are for games against the computer, not between people")]
    NoHints,
    /// The move came at or after the flag.
    #[error("your time ran out before the move arrived")]
    TimeOut,
    /// A stored game that does not replay, or a clock in a state it cannot be in: a bug or a
    /// damaged record, not the caller's doing.
    #[error("{0}")]
    Corrupt(String),
}

impl GameError {
    /// The stable code of the API's error body.
    pub fn code(&self) -> &'static str {
        match self {
            GameError::NoSeat => "no_seat",
            GameError::NotYourSeat(_) => "not_your_seat",
            GameError::NotYourTurn(_) => "not_your_turn",
            GameError::IllegalMove(_) => "illegal_move",
            GameError::GameOver => "game_over",
            GameError::StalePly { .. } => "stale_ply",
            GameError::WaitingForFriend => "waiting_for_friend",
            GameError::AbortInstead => "abort_instead",
            GameError::CannotAbort(_) => "cannot_abort",
            GameError::UndoVsComputerOnly => "undo_vs_computer_only",
            GameError::NothingToUndo => "nothing_to_undo",
            GameError::TakebackNotAllowed => "takeback_not_allowed",
            GameError::NoTakebackOffer => "no_takeback_offer",
            GameError::Conditional(_) => "conditional",
            GameError::CannotClaim(_) => "cannot_claim",
            GameError::OpponentHere => "opponent_here",
            GameError::TooEarly { .. } => "too_early",
            GameError::NoHints => "no_hints",
            GameError::TimeOut => "time_out",
            GameError::Corrupt(_) => "internal",
        }
    }
}
