//! Playing a game: the requests that create, join and act on one, the answer they get, and the
//! game's websocket messages both ways.

use crate::game::{GameView, PresenceView, Side};
use crate::ApiError;
use serde::{Deserialize, Serialize};

/// Body of `POST /api/games`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct NewGame {
    /// `ai` (default), `friend` or `local`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Variant preset (default `othello`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Computer level 1..=30 (default 5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
    /// The creator's colour: `black` (default), `white` or `random`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// What an equal count means: `draw` (default, every preset) or `second-wins` (one box
    /// edition's rule: the player who moved second wins a tie).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tie: Option<String>,
}

/// Body of `POST /api/games/{id}/join`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct JoinGame {
    /// The secret of the invite link (`#join=…` in the link).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// Body of `POST /api/games/{id}/moves`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PlayMove {
    /// The square (`d3`) or `pass`.
    #[serde(rename = "move")]
    pub mv: String,
    /// The ply the client saw (optional): a move sent against another ply is refused (409).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
}

/// Body of `POST /api/games/{id}/resign`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Resign {
    /// The colour resigning (needed only on a shared device; default: the side to move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
}

/// A player's conditional premoves in a correspondence game (`GET`/`PUT
/// /api/games/{id}/conditional`): lines of moves from the current position, each the
/// opponent's move first, then the player's answer, and so on (`e6 f4 c3 c4`). The game plays
/// the answer for the player the moment the moves played follow a line. Only their author sees
/// them; an empty list clears them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ConditionalLines {
    /// The lines (at most 20, of at most 20 moves each).
    pub lines: Vec<String>,
}

/// A game's state as seen by one client: the answer of every game request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameAnswer {
    /// The state.
    pub game: GameView,
    /// The colours the caller's token plays (`[]` for a spectator).
    pub you: Vec<Side>,
    /// The seat token, only when just issued (create, join, or a seat found by account).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// For seat holders, while a seat is free: the secret of the invite link
    /// (`/game/{id}#join={invite}`), without which nobody can take that seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// A move the computer suggests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Hint {
    /// The square (`d3`), or `pass`.
    pub mv: String,
    /// The expected final disc difference for the side to move.
    pub score: i32,
}

/// The answer of `GET /api/games/{id}/hint`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Hints {
    /// The best moves, best first.
    pub hints: Vec<Hint>,
}

/// A message of the game's websocket, client to server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum GameCommand {
    /// Play a move.
    Move {
        /// The square or `pass`.
        #[serde(rename = "move")]
        mv: String,
        /// The ply the client saw.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ply: Option<usize>,
    },
    /// Resign (`color` on a shared device).
    Resign {
        /// Which colour resigns.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        color: Option<String>,
    },
    /// Take back the last move against the computer.
    Undo,
    /// End the game without a result, while the two sides have not both moved.
    Abort,
    /// Claim the win from an opponent who left the game.
    Claim,
    /// Keep-alive; answered by `pong`.
    Ping,
}

/// Body of `POST /api/games/{id}/chat`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ChatPost {
    /// `players` or `spectators` (default: the caller's own room).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
    /// The message.
    pub text: String,
}

/// A chat message as the room's readers see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChatLine {
    /// Its number in the game (1, 2, …; both rooms share the count).
    pub seq: i64,
    /// `players` or `spectators`.
    pub room: String,
    /// The author's name (`null`: a guest, or a deleted account).
    pub author: Option<String>,
    /// The text (cleaned); escape it where it is shown.
    pub text: String,
    /// When (Unix ms).
    pub at: i64,
}

/// The answer of `GET /api/games/{id}/chat`: a room's messages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChatHistory {
    /// `players` or `spectators`.
    pub room: String,
    /// The messages, oldest first (those of players the reader blocks left out).
    pub lines: Vec<ChatLine>,
}

/// A message of the game's websocket, server to client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameEvent {
    /// The game's state after a change (and on connecting).
    State {
        /// The state (boxed: it is much larger than the other messages).
        game: Box<GameView>,
        /// The colours this socket's client plays.
        you: Vec<Side>,
    },
    /// Who is connected changed.
    Presence {
        /// The state's `presence`, alone.
        presence: PresenceView,
    },
    /// A message of the reader's room.
    Chat {
        /// The message.
        line: ChatLine,
    },
    /// The tournament paired this player's next game.
    TournamentGame {
        /// Its id.
        game: String,
    },
    /// A request failed.
    Error(ApiError),
    /// The answer to `ping`.
    Pong,
}

/// Body of `POST /api/import`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ImportText {
    /// GGF records, or transcripts one a line.
    pub text: String,
    /// The variant of transcripts (default `othello`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
}

/// One game made by an import.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ImportedGame {
    /// Its id (its replay is `/game/{id}/replay`).
    pub id: String,
    /// Moves, passes included.
    pub moves: usize,
    /// The named opening it follows (English), for Othello.
    pub opening: Option<String>,
}

/// The answer of `POST /api/import` (201).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Imported {
    /// The games, in the order of the text.
    pub games: Vec<ImportedGame>,
}
