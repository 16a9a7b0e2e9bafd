//! Lessons (`/learn`) and the page about the game (`/about`).
//!
//! A lesson is a short text (the page's, from `learn.LANG.ftl`) and a few exercises: a
//! position and a goal ([`catalog`]). The server judges each move — every legal move is
//! measured by the goal, the best measure is the target — so the page never holds an answer,
//! and no answer is written down by hand: the engine and the solver find them. An exercise of
//! several moves has the solver reply in between.
//!
//! - `GET /api/learn`: the lessons, and which ones the signed-in account has finished;
//! - `GET /api/learn/{id}`: a lesson's exercises;
//! - `POST /api/learn/{id}/{n}` `{"moves": ["c3"]}`: judges the last move of exercise `n`;
//!   `"reveal": true` shows the right moves instead;
//! - `POST /api/learn/finished` `{"lessons": ["place"]}`: an account's finished lessons (a
//!   guest's browser keeps its own and hands them over on signing in);
//! - `GET /api/openings`: the named openings (the table the openings lesson shows);
//! - `GET /api/about`: the world champions (`data/champions/champions.tsv`) and the value the
//!   site's opening book gives the start position.

pub mod catalog;

use crate::error::{Error, Result};
use crate::extract::{Caller, JsonBody};
use crate::puzzles::{after, frame};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use catalog::{Exercise, Lesson};
use reversi_core::{Color, Move, Position, Rules, Square};
use reversi_engine::exercise::{Goal, Judgement};
use reversi_site_api as wire;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The world champions' table, as shipped (provenance in `data/champions/README.md`).
pub const CHAMPIONS_FILE: &str = include_str!("../../../../data/champions/champions.tsv");

/// The most judgements kept in memory (every exercise's steps fit many times over; the cache is
/// emptied when full, so a flood of odd move orders cannot grow it).
const JUDGEMENT_CACHE: usize = 4096;

fn summary(l: &Lesson, finished: bool) -> wire::LessonSummary {
    wire::LessonSummary {
        id: l.id.to_string(),
        section: match l.section {
            catalog::Section::Rules => "rules",
            catalog::Section::Strategy => "strategy",
            catalog::Section::Endgame => "endgame",
        }
        .to_string(),
        exercises: l.exercises.len(),
        theme: l.theme.map(str::to_string),
        finished,
    }
}

fn exercise_view(e: &Exercise) -> wire::ExerciseView {
    wire::ExerciseView {
        board: frame(&e.position, None, 0),
        goal: e.goal.name().to_string(),
        square: match e.goal {
            Goal::Square(s) => Some(s.to_string()),
            _ => None,
        },
        opening: e.opening.map(|o| [o.english.to_string(), o.russian.to_string()]),
        moves: e.moves,
    }
}

async fn finished_of(state: &AppState, who: &crate::session::Identity) -> Result<Vec<String>> {
    Ok(match who.user() {
        Some(u) => state
            .db()
            .lessons()
            .finished(&u.id)
            .await?
            .into_iter()
            .map(|(l, _)| l)
            .collect(),
        None => Vec::new(),
    })
}

/// `GET /api/learn`.
#[utoipa::path(get, path = "/api/learn", operation_id = "learn_list", tag = "learn", responses((status = 200, description = "The lessons, and which ones the account has finished.", body = wire::LessonList)))]
pub async fn list(State(state): State<AppState>, Caller(who): Caller) -> Result<Json<wire::LessonList>> {
    let done = finished_of(&state, &who).await?;
    Ok(Json(wire::LessonList {
        lessons: catalog::all()
            .iter()
            .map(|l| summary(l, done.iter().any(|d| d == l.id)))
            .collect(),
        signed_in: who.user().is_some(),
    }))
}

/// `GET /api/learn/{id}`.
#[utoipa::path(get, path = "/api/learn/{id}", operation_id = "learn_lesson", tag = "learn", params(("id" = String, Path, description = "The lesson.")), responses((status = 200, description = "The lesson's exercises (never their answers).", body = wire::LessonView), (status = 404, description = "No such lesson.", body = wire::ApiError)))]
pub async fn lesson(
    State(state): State<AppState>,
    Caller(who): Caller,
    Path(id): Path<String>,
) -> Result<Json<wire::LessonView>> {
    let l = catalog::find(&id).ok_or(Error::NotFound)?;
    let done = finished_of(&state, &who).await?;
    let all = catalog::all();
    let next = all
        .iter()
        .position(|x| x.id == l.id)
        .and_then(|i| all.get(i + 1))
        .map(|x| x.id.to_string());
    Ok(Json(wire::LessonView {
        lesson: summary(l, done.iter().any(|d| d == l.id)),
        exercises: l.exercises.iter().map(exercise_view).collect(),
        next,
    }))
}

/// The judgement of `goal` in `pos`, computed once (the engine's work for an exact goal is a
/// few solves).
async fn judged(state: &AppState, pos: Position<u64>, goal: Goal) -> Result<Arc<Judgement>> {
    type Cache = Mutex<HashMap<(u64, u64, bool, Goal), Arc<Judgement>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (pos.black(), pos.white(), pos.side_to_move() == Color::Black, goal);
    if let Some(j) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Ok(j);
    }
    let j = Arc::new(state.inner.ai.judge(pos, goal).await?);
    if let Ok(mut c) = cache.lock() {
        if c.len() >= JUDGEMENT_CACHE {
            c.clear();
        }
        c.insert(key, Arc::clone(&j));
    }
    Ok(j)
}

/// The opponent's turn in an exercise of several moves: the solver's replies (and passes)
/// until it is `me`'s move or the game is over. Returns the position, the replies, and the
/// discs the last one turned.
async fn respond(
    state: &AppState,
    mut pos: Position<u64>,
    me: Color,
) -> Result<(Position<u64>, Vec<Move>, u64)> {
    let mut replies = Vec::new();
    let mut turned = 0;
    // Each round plays a move, so the game ends within its empties.
    while !pos.is_game_over() && (pos.side_to_move() != me || pos.must_pass()) {
        let m = if pos.must_pass() {
            Move::Pass
        } else {
            state.inner.ai.exercise_reply(pos).await?
        };
        (pos, turned) = after(&pos, m);
        replies.push(m);
    }
    Ok((pos, replies, turned))
}

/// Where an exercise stands after the player's moves but the last, each of which must have
/// been right.
async fn replay(state: &AppState, e: &Exercise, earlier: &[Square]) -> Result<Position<u64>> {
    let me = e.position.side_to_move();
    let mut pos = e.position;
    for (i, &sq) in earlier.iter().enumerate() {
        let j = judged(state, pos, e.goal).await?;
        if !j.mark(sq).is_some_and(|m| m.ok) || pos.is_game_over() {
            return Err(Error::BadRequest(format!(
                "move {} ({sq}) is not a right move of this exercise",
                i + 1
            )));
        }
        pos = respond(state, after(&pos, Move::Play(sq)).0, me).await?.0;
    }
    Ok(pos)
}

/// `POST /api/learn/{id}/{n}`.
#[utoipa::path(post, path = "/api/learn/{id}/{n}", operation_id = "learn_judge", tag = "learn", params(("id" = String, Path, description = "The lesson."), ("n" = usize, Path, description = "The exercise, from 0.")), request_body = wire::ExerciseMoves, responses((status = 200, description = "The verdict on the last move.", body = wire::ExerciseStep), (status = 400, description = "Too many moves, or an earlier one was wrong.", body = wire::ApiError), (status = 404, description = "No such lesson or exercise.", body = wire::ApiError), (status = 422, description = "A move is not legal there.", body = wire::ApiError)))]
pub async fn judge(
    State(state): State<AppState>,
    Path((id, n)): Path<(String, String)>,
    JsonBody(b): JsonBody<wire::ExerciseMoves>,
) -> Result<Json<wire::ExerciseStep>> {
    let l = catalog::find(&id).ok_or(Error::NotFound)?;
    let e = n
        .parse::<usize>()
        .ok()
        .and_then(|n| l.exercises.get(n))
        .ok_or(Error::NotFound)?;
    if b.moves.len() > usize::from(e.moves) || (b.moves.is_empty() && !b.reveal) {
        return Err(Error::BadRequest(format!(
            "this exercise takes 1 to {} moves; {} were given",
            e.moves,
            b.moves.len()
        )));
    }
    let squares = b
        .moves
        .iter()
        .map(|m| {
            Square::parse(m.trim())
                .filter(|s| s.bit8().is_some())
                .ok_or_else(|| {
                    Error::IllegalMove(format!("{:?} is not a square", reversi_core::quote::clip(m, 12)))
                })
        })
        .collect::<Result<Vec<Square>>>()?;
    if b.reveal {
        let pos = replay(&state, e, &squares).await?;
        let j = judged(&state, pos, e.goal).await?;
        return Ok(Json(wire::ExerciseStep {
            step: "revealed".into(),
            value: None,
            target: j.target,
            board: None,
            reply: None,
            reply_board: None,
            answers: j.answers().map(|s| s.to_string()).collect(),
        }));
    }
    let (last, earlier) = squares.split_last().expect("checked: not empty");
    let pos = replay(&state, e, earlier).await?;
    let j = judged(&state, pos, e.goal).await?;
    let Some(mark) = j.mark(*last) else {
        return Err(Error::IllegalMove(format!(
            "{last} turns no disc: it is not a legal move"
        )));
    };
    let (moved, turned) = after(&pos, Move::Play(*last));
    let mut out = wire::ExerciseStep {
        step: "wrong".into(),
        value: Some(mark.value),
        target: j.target,
        board: Some(frame(&moved, Some(Move::Play(*last)), turned)),
        reply: None,
        reply_board: None,
        answers: Vec::new(),
    };
    if !mark.ok {
        return Ok(Json(out));
    }
    if squares.len() == usize::from(e.moves) || moved.is_game_over() {
        out.step = "done".into();
        return Ok(Json(out));
    }
    let (next, replies, turned) = respond(&state, moved, e.position.side_to_move()).await?;
    out.step = if next.is_game_over() { "done" } else { "right" }.into();
    if !replies.is_empty() {
        out.reply = Some(replies.iter().map(Move::to_string).collect::<Vec<_>>().join(" "));
        out.reply_board = Some(frame(&next, replies.last().copied(), turned));
    }
    Ok(Json(out))
}

/// `POST /api/learn/finished`.
#[utoipa::path(post, path = "/api/learn/finished", operation_id = "learn_finished", tag = "learn", security(("bearer" = []), ("session" = [])), request_body = wire::LessonsFinished, responses((status = 200, description = "The lessons, with the account's progress.", body = wire::LessonList), (status = 400, description = "No such lesson.", body = wire::ApiError), (status = 401, description = "Nobody is signed in.", body = wire::ApiError)))]
pub async fn finished(
    State(state): State<AppState>,
    Caller(who): Caller,
    JsonBody(b): JsonBody<wire::LessonsFinished>,
) -> Result<Json<wire::LessonList>> {
    let u = who.user().ok_or_else(|| {
        Error::Unauthorized(
            "not_signed_in",
            "sign in to keep your progress on the site".into(),
        )
    })?;
    let mut ids = Vec::new();
    for id in &b.lessons {
        let l = catalog::find(id)
            .ok_or_else(|| Error::BadRequest(format!("no lesson {:?}", reversi_core::quote::clip(id, 40))))?;
        if !ids.contains(&l.id) {
            ids.push(l.id);
        }
    }
    let now = state.clock().clock_ms();
    state.db().lessons().finish(&u.id, &ids, now).await?;
    list(State(state), Caller(who)).await
}

/// `GET /api/openings`.
#[utoipa::path(get, path = "/api/openings", operation_id = "openings", tag = "learn", responses((status = 200, description = "The named openings (data/openings), by sequence.", body = wire::Openings)))]
pub async fn openings() -> Json<wire::Openings> {
    Json(wire::Openings {
        openings: reversi_core::openings::all()
            .iter()
            .map(|o| wire::NamedOpening {
                moves: o.moves.to_string(),
                english: o.english.to_string(),
                russian: o.russian.to_string(),
            })
            .collect(),
    })
}

/// The champions' table, read once.
pub fn champions() -> &'static [wire::Champion] {
    static ALL: OnceLock<Vec<wire::Champion>> = OnceLock::new();
    ALL.get_or_init(|| {
        let field = |s: &str| (s != "-" && !s.is_empty()).then(|| s.to_string());
        CHAMPIONS_FILE
            .lines()
            .skip(1)
            .filter(|l| !l.trim().is_empty())
            .filter_map(|line| {
                let f: Vec<&str> = line.split('\t').collect();
                let [year, place, champion, country, team, runner_up, runner_up_country] = f[..] else {
                    tracing::error!("champions.tsv: {line:?} has {} fields, not 7", f.len());
                    return None;
                };
                Some(wire::Champion {
                    year: year.parse().ok()?,
                    place: field(place),
                    champion: field(champion),
                    country: field(country),
                    team: field(team),
                    runner_up: field(runner_up),
                    runner_up_country: field(runner_up_country),
                })
            })
            .collect()
    })
}

/// The Russian names of the table's places and countries, as the source gives them.
pub const NAMES_RU_FILE: &str = include_str!("../../../../data/champions/names.ru.tsv");

/// A place's or country's name in `lang` (the table's English when no Russian is known).
fn named(name: &Option<String>, lang: reversi_i18n::Lang) -> Option<String> {
    static RU: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    let name = name.as_ref()?;
    let ru = RU.get_or_init(|| {
        NAMES_RU_FILE
            .lines()
            .skip(1)
            .filter_map(|l| l.split_once('\t'))
            .collect()
    });
    match (lang, ru.get(name.as_str())) {
        (reversi_i18n::Lang::Ru, Some(r)) => Some(r.to_string()),
        _ => Some(name.clone()),
    }
}

/// `GET /api/about?lang=en|ru`.
#[utoipa::path(get, path = "/api/about", operation_id = "about", tag = "site", params(("lang" = Option<String>, Query, description = "`en` (default) or `ru`: the language of places and countries.")), responses((status = 200, description = "The world champions and the opening book's value of the start.", body = wire::About)))]
pub async fn about(
    State(state): State<AppState>,
    crate::extract::LangParam(lang): crate::extract::LangParam,
) -> Json<wire::About> {
    let start = Position::<u64>::start(&Rules::othello());
    let book_value = state
        .config()
        .book
        .0
        .as_ref()
        .and_then(|b| b.value(start.discs(Color::Black), start.discs(Color::White)));
    let champions = champions()
        .iter()
        .map(|c| wire::Champion {
            place: named(&c.place, lang),
            country: named(&c.country, lang),
            team: named(&c.team, lang),
            runner_up_country: named(&c.runner_up_country, lang),
            ..c.clone()
        })
        .collect();
    Json(wire::About {
        champions,
        book_value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_engine::exercise::judge as judge_now;
    use reversi_engine::Engine;

    /// Every exercise can be done and got wrong: its `answer` is right, its `wrong` is not
    /// (an illegal square, or a legal move the goal rejects), and for an exercise of several
    /// moves the answer's line goes on with right moves to the end.
    #[test]
    fn every_exercise_takes_its_answer_and_refuses_its_wrong_move() {
        let engine = Engine::new(16, 1).unwrap();
        for l in catalog::all() {
            assert!(!l.exercises.is_empty(), "{} has no exercise", l.id);
            for (n, e) in l.exercises.iter().enumerate() {
                let at = format!("{} #{n}", l.id);
                let j = judge_now(&engine, &e.position, e.goal);
                assert!(
                    j.is_fair(),
                    "{at}: nothing to get right or nothing to get wrong: {j:?}"
                );
                assert!(
                    j.mark(e.answer).is_some_and(|m| m.ok),
                    "{at}: {} is not right: {j:?}",
                    e.answer
                );
                assert!(
                    !j.mark(e.wrong).is_some_and(|m| m.ok),
                    "{at}: {} is right: {j:?}",
                    e.wrong
                );
                if e.goal == Goal::Legal {
                    assert!(
                        j.mark(e.wrong).is_none(),
                        "{at}: the wrong square should be illegal"
                    );
                }
                // Play the rest of a longer exercise with the first right move each time.
                let me = e.position.side_to_move();
                let mut pos = after(&e.position, Move::Play(e.answer)).0;
                for step in 1..e.moves {
                    while !pos.is_game_over() && (pos.side_to_move() != me || pos.must_pass()) {
                        let r = if pos.must_pass() {
                            Move::Pass
                        } else {
                            reversi_engine::exercise::reply(&engine, &pos)
                        };
                        pos = after(&pos, r).0;
                    }
                    if pos.is_game_over() {
                        break;
                    }
                    let j = judge_now(&engine, &pos, e.goal);
                    let right = j
                        .answers()
                        .next()
                        .unwrap_or_else(|| panic!("{at}: no right move at step {step}"));
                    pos = after(&pos, Move::Play(right)).0;
                }
            }
        }
    }

    #[test]
    fn the_champions_table_reads_without_gaps() {
        let c = champions();
        assert!(c.len() >= 30, "{}", c.len());
        for w in c.windows(2) {
            assert_eq!(w[1].year, w[0].year + 1);
        }
        assert_eq!(c[0].year, 1977);
        assert!(c.iter().all(|x| x.champion.is_some()));
        // Every place and country has its Russian name.
        for x in c {
            for name in [&x.place, &x.country, &x.team, &x.runner_up_country] {
                let ru = named(name, reversi_i18n::Lang::Ru);
                assert!(name.is_none() || ru != *name, "{name:?} has no Russian name");
            }
        }
    }
}
