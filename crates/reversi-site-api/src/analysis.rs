//! The analysis board's messages: what its page sends (`/api/analysis/ws`, or the browser's own
//! engine in a worker, which speaks the same) and the two events it hears back, the position and
//! every legal move's value as the search deepens.

use serde::{Deserialize, Serialize};

/// A message from the analysis board's page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum AnalysisRequest {
    /// Evaluate this position (every legal move, deepening).
    Position(PositionRequest),
    /// Stop evaluating.
    Stop,
    /// Keep-alive; answered by `pong`.
    Ping,
}

/// A position to evaluate: a start (the variant's, a set-up board, or a pasted game) and the
/// moves played from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionRequest {
    /// The client's number for the position (echoed on every event about it).
    #[serde(default)]
    pub id: u64,
    /// The variant preset.
    #[serde(default = "othello")]
    pub variant: String,
    /// Moves from the start (or from `board`, or after `text`).
    #[serde(default)]
    pub moves: Option<String>,
    /// A set-up board (`<squares> X|O`).
    #[serde(default)]
    pub board: Option<String>,
    /// A pasted game: a transcript, a board string, or GGF (its first game).
    #[serde(default)]
    pub text: Option<String>,
}

fn othello() -> String {
    "othello".into()
}

/// The `position` event: the board the values that follow are for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionEvent {
    /// The request's number.
    pub id: u64,
    /// The variant preset.
    pub variant: String,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// The squares row by row from `a1`: `X`, `O`, `.` empty, `#` no square.
    pub cells: String,
    /// Whose move it is; `None` when the game is over.
    pub to_move: Option<String>,
    /// The legal moves of the side to move.
    pub legal_moves: Vec<String>,
    /// Whether the side to move must pass.
    pub must_pass: bool,
    /// Black's discs.
    pub black_count: u32,
    /// White's discs.
    pub white_count: u32,
    /// The last move played, if any.
    pub last_move: Option<String>,
    /// The moves from the start.
    pub moves: Vec<String>,
    /// The start as a board string.
    pub start: String,
    /// Whether the start is the variant's own.
    pub standard_start: bool,
    /// Black's margin when the game is over.
    pub result: Option<i32>,
}

/// A named opening, in both languages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningName {
    /// English.
    pub en: String,
    /// Russian.
    pub ru: String,
}

/// An argument of a coach's sentence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum FactArg {
    /// A count (the plural form follows it).
    Num(i64),
    /// A square, a line of moves, a colour name.
    Text(String),
}

/// One of the coach's sentences: a message id (`coach-…`) and its arguments.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Fact {
    /// The message id.
    pub id: String,
    /// Its arguments by name.
    pub args: std::collections::BTreeMap<String, FactArg>,
}

/// One legal move's value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveValueView {
    /// The move (`c4`, or `pass`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Discs for the side to move.
    pub score: i32,
    /// `book`, `exact`, `wld` or `estimate`.
    pub kind: String,
    /// Plies searched after the move (empties for an exact value; the book's level for a book
    /// value).
    pub depth: u32,
    /// The move, then the best replies found.
    pub pv: Vec<String>,
    /// The named opening the move leads to.
    pub opening: Option<OpeningName>,
    /// The coach's sentences about the move against the best one.
    pub facts: Vec<Fact>,
}

/// The `values` event: every move's value so far, best first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValuesEvent {
    /// The request's number.
    pub id: u64,
    /// The depth being searched.
    pub depth: u32,
    /// Whether the evaluation is over (every move settled, the depth or time limit reached).
    pub done: bool,
    /// The named opening of the position itself.
    pub opening: Option<OpeningName>,
    /// The moves, best first.
    pub moves: Vec<MoveValueView>,
}

/// What the analysis board hears.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum AnalysisEvent {
    /// The board of a request.
    Position(PositionEvent),
    /// The values so far.
    Values(ValuesEvent),
    /// A request that could not be served (a position that does not read, …).
    Error(crate::ApiError),
    /// The answer to a ping.
    Pong,
}
