//! The lessons of `/learn` and the page about the game: `GET /api/learn`, `GET /api/learn/{id}`,
//! `POST /api/learn/{id}/{n}`, `POST /api/learn/finished`, `GET /api/about`, `GET /api/openings`.

use serde::{Deserialize, Serialize};

/// A board as the lesson pages draw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LessonBoard {
    /// The 64 squares row by row from `a1`: `X` black, `O` white, `.` empty.
    pub cells: String,
    /// Whose move it is (`black`, `white`); `None` when the game is over.
    pub to_move: Option<String>,
    /// The legal moves of the side to move.
    pub legal_moves: Vec<String>,
    /// The move that made this board.
    pub last_move: Option<String>,
    /// The discs that move turned.
    pub flipped: Vec<String>,
    /// Black's discs.
    pub black_count: u32,
    /// White's discs.
    pub white_count: u32,
}

/// One lesson in the list of `GET /api/learn`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LessonSummary {
    /// The lesson's id: its address is `/learn/{id}`, its text the messages `learn-{id}-…`.
    pub id: String,
    /// Its group: `rules`, `strategy` or `endgame`.
    pub section: String,
    /// How many exercises it has.
    pub exercises: usize,
    /// The puzzle theme it leads to, if any.
    pub theme: Option<String>,
    /// Whether the signed-in account has finished it (always `false` for a guest, whose
    /// progress the browser keeps).
    pub finished: bool,
}

/// The answer of `GET /api/learn`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LessonList {
    /// Every lesson, in the order they are meant to be taken.
    pub lessons: Vec<LessonSummary>,
    /// Whether the caller is signed in (its progress is then kept by the site).
    pub signed_in: bool,
}

/// One exercise of a lesson: a position and what to do in it (never its answer).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExerciseView {
    /// The position.
    pub board: LessonBoard,
    /// The goal (`corner`, `fewest-replies`, `exact`, …, `square` for a square the lesson
    /// names): the page says it with the message `learn-goal-{goal}`.
    pub goal: String,
    /// For `square`: the square (notation lessons say which); for an opening, its next move.
    pub square: Option<String>,
    /// For an opening's exercise: its name in English and in Russian.
    pub opening: Option<[String; 2]>,
    /// How many moves of the player's the exercise asks for (the solver replies in between).
    pub moves: u8,
}

/// The answer of `GET /api/learn/{id}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LessonView {
    /// The lesson, as in the list.
    pub lesson: LessonSummary,
    /// Its exercises, in order.
    pub exercises: Vec<ExerciseView>,
    /// The next lesson's id, if any.
    pub next: Option<String>,
}

/// The body of `POST /api/learn/{id}/{n}`: the player's moves in exercise `n` so far (the
/// replies left out), the last one to be judged; `reveal` asks for the right moves instead of
/// judging (the player gives up on this step).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExerciseMoves {
    /// The moves, in notation (`d3`).
    pub moves: Vec<String>,
    /// Show the answers of the step after these moves.
    #[serde(default)]
    pub reveal: bool,
}

/// The answer of `POST /api/learn/{id}/{n}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExerciseStep {
    /// `right` (the exercise goes on after `reply`), `done` (the exercise is solved), `wrong`
    /// (try again from the same position), or `revealed`.
    pub step: String,
    /// The last move's measure by the goal: discs turned, directions, the opponent's moves,
    /// frontier or stable discs, corners given, the final score… (see the goal).
    pub value: Option<i32>,
    /// The value a right move has (the best any move reaches).
    pub target: i32,
    /// The board after the last move (right or wrong: the page shows what it did).
    pub board: Option<LessonBoard>,
    /// The solver's reply, when the exercise goes on.
    pub reply: Option<String>,
    /// The board after the reply.
    pub reply_board: Option<LessonBoard>,
    /// For `revealed`: the right moves of this step.
    pub answers: Vec<String>,
}

/// The body of `POST /api/learn/finished`: lessons the player has finished (a guest's progress
/// joins the account when it signs in).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LessonsFinished {
    /// The lessons' ids.
    pub lessons: Vec<String>,
}

/// One world champion of the table of `GET /api/about` (`data/champions/champions.tsv`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Champion {
    /// The year.
    pub year: u16,
    /// Where the championship was held.
    pub place: Option<String>,
    /// The world champion.
    pub champion: Option<String>,
    /// Their country.
    pub country: Option<String>,
    /// The team champion (a country).
    pub team: Option<String>,
    /// The runner-up.
    pub runner_up: Option<String>,
    /// Their country.
    pub runner_up_country: Option<String>,
}

/// The answer of `GET /api/about`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct About {
    /// The world champions by year, as the source gives them.
    pub champions: Vec<Champion>,
    /// The value of the start position for Black in the site's own opening book, in discs
    /// (`None` when the site runs without one).
    pub book_value: Option<i32>,
}

/// One named opening of `GET /api/openings` (`data/openings/openings.tsv`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NamedOpening {
    /// Its moves from the standard start (`f5d6c3d3c4`).
    pub moves: String,
    /// The English name (aliases after ` / `).
    pub english: String,
    /// The Russian name.
    pub russian: String,
}

/// The answer of `GET /api/openings`: every named opening, by sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Openings {
    /// The openings.
    pub openings: Vec<NamedOpening>,
}
