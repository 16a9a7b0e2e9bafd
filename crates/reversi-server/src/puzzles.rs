//! Puzzles (`/puzzles`): the shipped puzzles (`data/puzzles/puzzles.tsv`, embedded), one at a
//! time near the player's puzzle rating, the player's moves checked by the server (the solution
//! never reaches the page before the puzzle ends), the opponent's replies played for them, the
//! coach's explanation of a wrong move from exact values, and the daily puzzle.
//!
//! - `GET /api/puzzles`: the themes with their counts, today's puzzle, and for a signed-in
//!   player their puzzle rating and latest attempts;
//! - `GET /api/puzzles/next?theme=T&except=1,2`: a puzzle to play (an account's: one it has not
//!   tried, nearest its rating; a guest's: near 1500, not among `except`, the page's recent ones);
//! - `GET /api/puzzles/daily`, `GET /api/puzzles/{id}`: a puzzle;
//! - `POST /api/puzzles/{id}/moves` `{"moves": ["b2", "e8"]}`: the player's moves so far (the
//!   replies left out); answers right (with the reply), solved or wrong, and once the puzzle
//!   ends the solution, its score and — for an account's first attempt — the rating change.

use crate::error::{Error, Result};
use crate::extract::{ApiQuery, Caller, JsonBody};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use reversi_core::{AnyPosition, Bits, Color, Move, Position};
use reversi_site::puzzle::{check, daily_index, parse_file, Puzzle, Step, THEMES};
use reversi_site::rating::Rating;
use reversi_site_api as wire;
use serde::Deserialize;
use std::sync::OnceLock;
use std::time::Duration;

/// The shipped puzzles' file.
pub const PUZZLE_FILE: &str = include_str!("../../../data/puzzles/puzzles.tsv");

/// How many of the puzzles nearest a signed-in player's rating the next one is drawn from.
pub const NEAR_ACCOUNT: usize = 30;
/// How many nearest 1500 a guest's next puzzle is drawn from (guests are not rated, so they
/// get a wide band).
pub const NEAR_GUEST: usize = 400;
/// The most recent puzzles a guest's page may ask to leave out.
pub const MAX_EXCEPT: usize = 200;

/// Every shipped puzzle, by id (the file numbers them 1, 2, …).
pub fn all() -> &'static [Puzzle] {
    static ALL: OnceLock<Vec<Puzzle>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut v = parse_file(PUZZLE_FILE).unwrap_or_else(|e| {
            tracing::error!("the embedded puzzles cannot be read: {e}");
            Vec::new()
        });
        v.sort_by_key(|p| p.id);
        v
    })
}

fn find(id: i64) -> Result<&'static Puzzle> {
    let all = all();
    all.binary_search_by_key(&id, |p| p.id)
        .map(|i| &all[i])
        .map_err(|_| Error::NotFound)
}

/// The count of puzzles of each theme, in [`THEMES`] order.
fn theme_counts() -> Vec<wire::ThemeCount> {
    THEMES
        .iter()
        .map(|t| wire::ThemeCount {
            theme: t.to_string(),
            count: all().iter().filter(|p| p.themes.iter().any(|x| x == t)).count(),
        })
        .collect()
}

/// Today's puzzle (UTC days since the epoch).
fn daily(clock: &crate::time::Clock) -> Result<&'static Puzzle> {
    let day = clock.clock_ms() / 86_400_000;
    all().get(daily_index(day, all().len())).ok_or(Error::NotFound)
}

/// The board of `pos` as the puzzle and lesson pages draw it, after `last` (which turned
/// `flipped`).
pub(crate) fn frame(pos: &Position<u64>, last: Option<Move>, flipped: u64) -> wire::LessonBoard {
    wire::LessonBoard {
        cells: reversi_core::notation::cells(&AnyPosition::Small(*pos)),
        to_move: (!pos.is_game_over()).then(|| pos.side_to_move().name().to_string()),
        legal_moves: pos.legal_moves().squares().map(|s| s.to_string()).collect(),
        last_move: last.map(|m| m.to_string()),
        flipped: flipped.squares().map(|s| s.to_string()).collect(),
        black_count: pos.count(Color::Black),
        white_count: pos.count(Color::White),
    }
}

/// `pos` after `mv`, with the discs it turned (the lessons use it too).
pub(crate) fn after(pos: &Position<u64>, mv: Move) -> (Position<u64>, u64) {
    let mut next = *pos;
    let turned = next.play_unchecked(mv);
    (next, turned)
}

/// The board after each move of `p`'s solution, from its position.
fn solution_frames(p: &Puzzle) -> Vec<wire::LessonBoard> {
    let mut pos = p.position;
    p.line
        .iter()
        .map(|&m| {
            let (next, turned) = after(&pos, m);
            pos = next;
            frame(&pos, Some(m), turned)
        })
        .collect()
}

fn rating_now(r: &Rating, now: u64) -> wire::PuzzleRatingNow {
    wire::PuzzleRatingNow {
        rating: r.rating.round() as i64,
        deviation: r.deviation.round() as i64,
        provisional: r.provisional(now),
    }
}

/// A puzzle as the page gets it: the position to solve, not the solution.
async fn view(state: &AppState, p: &Puzzle) -> Result<wire::PuzzleAnswer> {
    state.db().puzzles().ensure_puzzles(all()).await?;
    let standing = state.db().puzzles().puzzle_standing(p.id).await?;
    let rating = standing.map_or(p.initial_rating, |s| s.rating.rating);
    let year = p.source.split(':').nth(1).and_then(|y| y.parse::<i32>().ok());
    Ok(wire::PuzzleAnswer {
        puzzle: wire::PuzzleView {
            id: p.id,
            board: frame(&p.position, None, 0),
            to_move: p.position.side_to_move().name().to_string(),
            kind: if p.win { "win" } else { "best" }.to_string(),
            themes: p.themes.clone(),
            player_moves: p.player_moves(),
            empties: p.position.empties().count(),
            rating: rating.round() as i64,
            attempts: standing.map_or(0, |s| s.attempts),
            solutions: standing.map_or(0, |s| s.solutions),
            source: p.source.clone(),
            year,
        },
    })
}

/// How many puzzles the pack for play without a network holds: the file's first ones (about
/// 30 KB of JSON).
const PACK: usize = 200;

/// `GET /api/puzzles/pack`: puzzles to solve on the device without a network (the service
/// worker keeps the answer): positions, kinds, ratings and how many moves the player makes —
/// never the solutions; the browser's solver judges each move by its exact value.
#[utoipa::path(get, path = "/api/puzzles/pack", operation_id = "puzzle_pack", tag = "puzzles", responses((status = 200, description = "Puzzles to solve without a network (no solutions).", body = wire::PuzzlePack)))]
pub async fn pack() -> Json<wire::PuzzlePack> {
    let puzzles = all()
        .iter()
        .take(PACK)
        .map(|p| wire::PackPuzzle {
            id: p.id,
            board: p.board.clone(),
            win: p.win,
            moves: p.player_moves(),
            rating: p.initial_rating.round() as i64,
            themes: p.themes.clone(),
        })
        .collect();
    Json(wire::PuzzlePack { puzzles })
}

/// `GET /api/puzzles`.
#[utoipa::path(get, path = "/api/puzzles", operation_id = "puzzle_overview", tag = "puzzles", responses((status = 200, description = "The themes, today's puzzle and the caller's puzzle rating.", body = wire::PuzzleOverview)))]
pub async fn overview(
    State(state): State<AppState>,
    Caller(who): Caller,
) -> Result<Json<wire::PuzzleOverview>> {
    let now = state.clock().clock_ms();
    let me = match who.user() {
        Some(u) => {
            let (rating, attempts, solved) = state.db().puzzles().puzzle_rating(&u.id).await?;
            let recent = state.db().puzzles().recent_attempts(&u.id, 20).await?;
            Some(wire::MyPuzzles {
                rating: rating_now(&rating.at(now), now),
                attempts,
                solved,
                recent,
            })
        }
        None => None,
    };
    Ok(Json(wire::PuzzleOverview {
        count: all().len(),
        themes: theme_counts(),
        daily: daily(state.clock())?.id,
        me,
    }))
}

/// Query of `GET /api/puzzles/next`.
#[derive(Debug, Default, Deserialize)]
pub struct NextQuery {
    /// One of [`THEMES`]; any when absent or empty.
    pub theme: Option<String>,
    /// Ids to leave out, comma-separated (a guest's recent puzzles).
    pub except: Option<String>,
}

/// `GET /api/puzzles/next`.
#[utoipa::path(get, path = "/api/puzzles/next", operation_id = "puzzle_next", tag = "puzzles", params(("theme" = Option<String>, Query, description = "One theme (as `GET /api/puzzles` lists them); any when absent."), ("except" = Option<String>, Query, description = "Puzzle numbers to leave out, comma-separated (at most 200).")), responses((status = 200, description = "A puzzle near the caller's rating.", body = wire::PuzzleAnswer), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn next(
    State(state): State<AppState>,
    Caller(who): Caller,
    ApiQuery(q): ApiQuery<NextQuery>,
) -> Result<Json<wire::PuzzleAnswer>> {
    let theme = match q.theme.as_deref().filter(|t| !t.is_empty()) {
        None => None,
        Some(t) if THEMES.contains(&t) => Some(t),
        Some(t) => {
            return Err(Error::BadRequest(format!(
                "unknown theme {:?}: one of {}",
                reversi_core::quote::clip(t, 40),
                THEMES.join(", ")
            )))
        }
    };
    let except = parse_ids(q.except.as_deref().unwrap_or(""))?;
    state.db().puzzles().ensure_puzzles(all()).await?;
    let now = state.clock().clock_ms();
    let (rating, user, band) = match who.user() {
        Some(u) => (
            state.db().puzzles().puzzle_rating(&u.id).await?.0.at(now).rating,
            Some(u.id.as_str()),
            NEAR_ACCOUNT,
        ),
        None => (reversi_site::rating::START_RATING, None, NEAR_GUEST),
    };
    let mut ids = state
        .db()
        .puzzles()
        .puzzles_near(rating, theme, user, &except, band)
        .await?;
    if ids.is_empty() && user.is_some() {
        // Every puzzle of the theme tried: offer them again, unrated.
        ids = state
            .db()
            .puzzles()
            .puzzles_near(rating, theme, None, &except, band)
            .await?;
    }
    if ids.is_empty() {
        return Err(Error::NotFound);
    }
    let pick = ids[(random_u64() % ids.len() as u64) as usize];
    Ok(Json(view(&state, find(pick)?).await?))
}

fn random_u64() -> u64 {
    let mut b = [0u8; 8];
    // A failed draw still yields a valid choice (the nearest puzzle).
    let _ = getrandom::fill(&mut b);
    u64::from_le_bytes(b)
}

/// The ids of `text` (`1,2,3`), at most [`MAX_EXCEPT`].
fn parse_ids(text: &str) -> Result<Vec<i64>> {
    let ids: Vec<i64> = text
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.trim().parse::<i64>().map_err(|_| {
                Error::BadRequest(format!(
                    "except: {:?} is not a puzzle number",
                    reversi_core::quote::clip(s, 20)
                ))
            })
        })
        .collect::<Result<_>>()?;
    if ids.len() > MAX_EXCEPT {
        return Err(Error::BadRequest(format!("except: at most {MAX_EXCEPT} puzzles")));
    }
    Ok(ids)
}

/// `GET /api/puzzles/daily`.
#[utoipa::path(get, path = "/api/puzzles/daily", operation_id = "puzzle_daily", tag = "puzzles", responses((status = 200, description = "Today's puzzle (UTC).", body = wire::PuzzleAnswer)))]
pub async fn daily_puzzle(State(state): State<AppState>) -> Result<Json<wire::PuzzleAnswer>> {
    Ok(Json(view(&state, daily(state.clock())?).await?))
}

/// `GET /api/puzzles/{id}`.
#[utoipa::path(get, path = "/api/puzzles/{id}", operation_id = "puzzle_get", tag = "puzzles", params(("id" = i64, Path, description = "The puzzle's number.")), responses((status = 200, description = "The puzzle.", body = wire::PuzzleAnswer), (status = 404, description = "No such puzzle.", body = wire::ApiError)))]
pub async fn get(State(state): State<AppState>, Path(id): Path<String>) -> Result<Json<wire::PuzzleAnswer>> {
    let id: i64 = id.parse().map_err(|_| Error::NotFound)?;
    Ok(Json(view(&state, find(id)?).await?))
}

/// `POST /api/puzzles/{id}/moves`.
#[utoipa::path(post, path = "/api/puzzles/{id}/moves", operation_id = "puzzle_moves", tag = "puzzles", params(("id" = i64, Path, description = "The puzzle's number.")), request_body = wire::PuzzleMoves, responses((status = 200, description = "The verdict on the last move; once the puzzle ends, the solution and the rating change.", body = wire::PuzzleResult), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn moves(
    State(state): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
    JsonBody(b): JsonBody<wire::PuzzleMoves>,
) -> Result<Json<wire::PuzzleResult>> {
    let id: i64 = id.parse().map_err(|_| Error::NotFound)?;
    let p = find(id)?;
    if b.moves.len() > p.player_moves() {
        return Err(Error::BadRequest(format!(
            "the solution has {} moves of the player's; {} were given",
            p.player_moves(),
            b.moves.len()
        )));
    }
    let played = b
        .moves
        .iter()
        .map(|m| {
            reversi_core::notation::parse_move(m)
                .map_err(|e| Error::IllegalMove(format!("{:?}: {e}", reversi_core::quote::clip(m, 12))))
        })
        .collect::<Result<Vec<Move>>>()?;
    let step = check(p, &played).map_err(|e| match e {
        reversi_site::puzzle::CheckError::Illegal(m) => Error::IllegalMove(m),
        e => Error::BadRequest(e.to_string()),
    })?;
    // The position before the last move, the last move's board, and the reply's.
    let mut pos = p.position;
    for i in 0..played.len() - 1 {
        pos.play_unchecked(p.line[2 * i]);
        if let Some(&r) = p.line.get(2 * i + 1) {
            pos.play_unchecked(r);
        }
    }
    let last = *played.last().expect("checked: not empty");
    let (moved, turned) = after(&pos, last);
    let mut out = wire::PuzzleResult {
        step: match step {
            Step::Right { .. } => wire::PuzzleStep::Right,
            Step::Solved => wire::PuzzleStep::Solved,
            Step::Wrong => wire::PuzzleStep::Wrong,
        },
        board: frame(&moved, Some(last), turned),
        reply: None,
        reply_board: None,
        solution: None,
        solution_boards: None,
        score: None,
        played_score: None,
        best_score: None,
        exact: None,
        facts: None,
        rated: None,
        rating: None,
        puzzle_rating: None,
    };
    if let Step::Right { reply } = step {
        let (replied, turned) = after(&moved, reply);
        out.reply = Some(reply.to_string());
        out.reply_board = Some(frame(&replied, Some(reply), turned));
        return Ok(Json(out));
    }
    let solved = step == Step::Solved;
    out.solution = Some(p.line.iter().map(Move::to_string).collect());
    out.solution_boards = Some(solution_frames(p));
    out.score = Some(p.score);
    if !solved {
        // Why the move is wrong, from exact values: both moves solved to the end.
        let solution = p.line[2 * (played.len() - 1)];
        let limits = reversi_engine::Limits {
            time: Some(Duration::from_secs(5)),
            ..Default::default()
        };
        let rules = reversi_core::Rules::othello();
        let a = state
            .inner
            .ai
            .analyze_move(rules, AnyPosition::Small(pos), last, limits)
            .await?;
        let facts = reversi_engine::coach::explain(
            &AnyPosition::Small(pos),
            a.played,
            &a.played_pv,
            solution,
            if a.best == solution { &a.best_pv } else { &[] },
            a.loss,
        );
        out.played_score = Some(a.played_score);
        out.best_score = Some(a.best_score);
        out.exact = Some(a.exact);
        out.facts = Some(reversi_analysis::facts(&facts));
    }
    out.rated = Some(false);
    if let Some(u) = who.user() {
        state.db().puzzles().ensure_puzzles(all()).await?;
        let now = state.clock().clock_ms();
        if let Some(o) = state
            .db()
            .puzzles()
            .record_attempt(&u.id, id, solved, now)
            .await?
        {
            out.rated = Some(true);
            out.rating = Some(wire::PuzzleRatingChange {
                before: o.before.rating.round() as i64,
                after: rating_now(&o.after, now),
                diff: (o.after.rating.round() - o.before.rating.round()) as i64,
            });
            out.puzzle_rating = Some(o.puzzle.rating.round() as i64);
        }
    }
    Ok(Json(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_puzzles_read_and_are_numbered_in_order() {
        let all = all();
        assert!(all.len() >= 5000, "{}", all.len());
        for (i, p) in all.iter().enumerate() {
            assert_eq!(p.id, i as i64 + 1);
        }
        assert!(find(1).is_ok() && find(0).is_err() && find(all.len() as i64 + 1).is_err());
    }

    #[test]
    fn except_lists_are_checked() {
        assert_eq!(parse_ids("1,2, 3").unwrap(), vec![1, 2, 3]);
        assert_eq!(parse_ids("").unwrap(), Vec::<i64>::new());
        assert!(parse_ids("1,x").is_err());
        let long: Vec<String> = (0..=MAX_EXCEPT).map(|i| i.to_string()).collect();
        assert!(parse_ids(&long.join(",")).is_err());
    }
}
