//! The engine in the browser. The page's worker (`static/engine/worker.js`) loads the module,
//! passes it a clock (`env.now_ms`) and talks JSON through [`Session::handle`] (exported as
//! `rv_call`):
//!
//! - `{"type":"position", id, variant, moves?, board?, text?, max_depth?, exact_empties?}` —
//!   the analysis board's request ([`reversi_site_api::analysis::PositionRequest`]); answers its
//!   `position` event (or `error`) and starts evaluating every legal move.
//! - `{"type":"step","ms":100}` — searches on for about that long (a move's search is not cut
//!   short for it) and answers the `values` event when something changed or the evaluation
//!   finished, `{"type":"idle"}` otherwise. The worker steps while no message waits, so a new
//!   position or a stop is heard between steps.
//! - `{"type":"stop"}` — ends the evaluation.
//! - `{"type":"view", variant, moves?, board?}` — the `position` event alone (a game played on
//!   the device draws its board from it; nothing is searched).
//! - `{"type":"best", variant, moves?, board?, level?, time_ms?, seed?}` — the computer's move
//!   at a level (1–30) or by time.
//! - `{"type":"exact", variant, moves?, board?}` — every legal move's exact value (positions of
//!   at most 24 empties: a puzzle judged on the device).
//! - `{"type":"perft", variant, moves?, board?, depth}`, `{"type":"solve","obf":"…"}` (an exact
//!   solve), `{"type":"bench","depth":8}` — the numbers the tests compare with the native
//!   engine's.
//!
//! Every answer is one JSON object; a request that cannot be served answers
//! `{"type":"error","code":"bad_request","error":"…"}`.

use reversi_analysis::{game_of, position_event, values_event, Openings};
use reversi_core::{Bits, Game, Move};
use reversi_engine::evaluate::Evaluation;
use reversi_engine::levels::Level;
use reversi_engine::search::SearchKind;
use reversi_engine::time::Instant;
use reversi_engine::Engine;
use reversi_site_api::analysis::{AnalysisEvent, PositionRequest};
use reversi_site_api::ApiError;
use serde::Deserialize;
use serde_json::json;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The table's size: the browser's memory is the page's, so it stays modest.
pub const HASH_MIB: usize = 32;

/// The analysis board's defaults, as the server's (`--board-depth`): deep enough that a phone
/// keeps busy for a while, and every move exact from 18 empties.
const MAX_DEPTH: u32 = 24;
const EXACT_EMPTIES: u32 = 18;

/// The longest search by time a page may ask for.
const MAX_TIME: Duration = Duration::from_secs(600);

/// The most empty squares of an `exact` request (every move solved: tens of milliseconds in a
/// browser at 18, seconds at 24).
const MAX_EXACT_EMPTIES: u32 = 24;

/// The deepest perft a page may ask for (its count still fits a JSON number exactly).
const MAX_PERFT: u32 = 14;

/// A request of the page's worker.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Request {
    Position {
        #[serde(flatten)]
        req: PositionRequest,
        #[serde(default)]
        max_depth: Option<u32>,
        #[serde(default)]
        exact_empties: Option<u32>,
    },
    Step {
        #[serde(default = "default_ms")]
        ms: u32,
    },
    Stop,
    View {
        #[serde(flatten)]
        req: PositionRequest,
    },
    Best {
        #[serde(flatten)]
        req: PositionRequest,
        #[serde(default)]
        level: Option<u32>,
        #[serde(default)]
        time_ms: Option<u64>,
        #[serde(default)]
        seed: u64,
    },
    Exact {
        #[serde(flatten)]
        req: PositionRequest,
    },
    Perft {
        #[serde(flatten)]
        req: PositionRequest,
        depth: u32,
    },
    Solve {
        obf: String,
    },
    Bench {
        #[serde(default = "default_bench_depth")]
        depth: u32,
    },
}

fn default_ms() -> u32 {
    100
}

fn default_bench_depth() -> u32 {
    8
}

/// An evaluation under way.
struct Running {
    id: u64,
    game: Game,
    openings: Openings,
    evaluation: Evaluation,
    max_depth: u32,
    exact_empties: u32,
    /// Whether its last state was sent.
    reported: bool,
}

/// The engine and the evaluation the page asked for.
pub struct Session {
    engine: Engine,
    running: Option<Running>,
}

fn error(message: impl Into<String>) -> String {
    serde_json::to_string(&AnalysisEvent::Error(ApiError {
        error: message.into(),
        code: "bad_request".into(),
    }))
    .unwrap_or_default()
}

impl Session {
    /// A session with the embedded evaluation and book.
    pub fn new() -> Session {
        Session {
            engine: Engine::new(HASH_MIB, 1).expect("a small table and one thread"),
            running: None,
        }
    }

    /// Answers one request (JSON in, JSON out).
    pub fn handle(&mut self, text: &str) -> String {
        let request: Request = match serde_json::from_str(text) {
            Ok(r) => r,
            Err(e) => return error(format!("request: {e}")),
        };
        match request {
            Request::Position {
                req,
                max_depth,
                exact_empties,
            } => self.position(req, max_depth, exact_empties),
            Request::Step { ms } => self.step(Duration::from_millis(ms.clamp(1, 5_000).into())),
            Request::Stop => {
                self.running = None;
                json!({"type": "stopped"}).to_string()
            }
            Request::View { req } => match game_of(&req) {
                Ok(g) => serde_json::to_string(&AnalysisEvent::Position(position_event(req.id, &g)))
                    .unwrap_or_default(),
                Err(e) => error(e.to_string()),
            },
            Request::Best {
                req,
                level,
                time_ms,
                seed,
            } => self.best(&req, level, time_ms, seed),
            Request::Exact { req } => self.exact(&req),
            Request::Perft { req, depth } => match game_of(&req) {
                Err(e) => error(e.to_string()),
                Ok(_) if depth > MAX_PERFT => error(format!("depth: at most {MAX_PERFT}")),
                Ok(g) => json!({
                    "type": "perft",
                    "depth": depth,
                    "nodes": reversi_core::perft::perft(g.position(), depth),
                })
                .to_string(),
            },
            Request::Solve { obf } => self.solve(&obf),
            Request::Bench { depth } => {
                let depth = depth.clamp(1, 20);
                let lines = reversi_engine::bench::run(&self.engine, depth, &mut |_| {});
                let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
                let ms: f64 = lines.iter().map(|l| l.time.as_secs_f64() * 1e3).sum();
                json!({"type": "bench", "depth": depth, "nodes": nodes, "ms": ms}).to_string()
            }
        }
    }

    fn position(&mut self, req: PositionRequest, max_depth: Option<u32>, exact: Option<u32>) -> String {
        self.running = None;
        let game = match game_of(&req) {
            Ok(g) => g,
            Err(e) => return error(e.to_string()),
        };
        let event = position_event(req.id, &game);
        self.running = Some(Running {
            id: req.id,
            openings: Openings::of(&game),
            evaluation: Evaluation::new(game.position(), self.engine.book()),
            game,
            max_depth: max_depth.unwrap_or(MAX_DEPTH).clamp(1, 60),
            exact_empties: exact.unwrap_or(EXACT_EMPTIES).min(30),
            reported: false,
        });
        serde_json::to_string(&AnalysisEvent::Position(event)).unwrap_or_default()
    }

    fn step(&mut self, slice: Duration) -> String {
        let idle = || json!({"type": "idle"}).to_string();
        let Some(r) = self.running.as_mut() else {
            return idle();
        };
        let stop = AtomicBool::new(false);
        // The first step always reports (the book's values, or a finished game's nothing).
        let mut changed = !r.reported;
        if !r.evaluation.finished(r.max_depth) {
            let pause = Instant::now() + slice;
            changed |= r
                .evaluation
                .step(&self.engine, r.exact_empties, Some(pause), None, &stop);
        }
        let done = r.evaluation.finished(r.max_depth);
        if !changed {
            return idle();
        }
        r.reported = true;
        let event = values_event(
            r.id,
            r.game.position(),
            &r.openings,
            &r.evaluation.values(),
            r.evaluation.depth(),
            done,
        );
        if done {
            self.running = None;
        }
        serde_json::to_string(&AnalysisEvent::Values(event)).unwrap_or_default()
    }

    fn best(&self, req: &PositionRequest, level: Option<u32>, time_ms: Option<u64>, seed: u64) -> String {
        let game = match game_of(req) {
            Ok(g) => g,
            Err(e) => return error(e.to_string()),
        };
        let limits = match (level, time_ms) {
            (Some(_), Some(_)) => return error("give a level or a time, not both"),
            (None, Some(ms)) => reversi_engine::levels::timed(Duration::from_millis(ms).min(MAX_TIME)),
            (l, None) => Level::new(l.unwrap_or(10)).limits(seed),
        };
        let stop = AtomicBool::new(false);
        let r = self
            .engine
            .search_position(game.position(), &limits, &stop, &mut |_| {});
        json!({
            "type": "best",
            "move": r.best.map(|m| m.to_string()),
            "score": r.score,
            "kind": r.kind.name(),
            "depth": r.depth,
            "pv": r.pv.iter().map(Move::to_string).collect::<Vec<_>>(),
            "nodes": r.nodes,
        })
        .to_string()
    }

    fn exact(&self, req: &PositionRequest) -> String {
        let game = match game_of(req) {
            Ok(g) => g,
            Err(e) => return error(e.to_string()),
        };
        let empties = game.position().empties().count();
        if empties > MAX_EXACT_EMPTIES {
            return error(format!(
                "board: {empties} empty squares; exact values up to {MAX_EXACT_EMPTIES}"
            ));
        }
        let opts = reversi_engine::evaluate::EvalOptions {
            max_depth: 1,
            exact_empties: MAX_EXACT_EMPTIES,
            time: None,
            book: false,
        };
        let stop = AtomicBool::new(false);
        let values = reversi_engine::evaluate::evaluate_moves(
            &self.engine,
            game.position(),
            &opts,
            &stop,
            &mut |_| {},
        );
        json!({
            "type": "exact",
            "moves": values
                .iter()
                .map(|v| json!({"move": v.mv.to_string(), "score": v.score, "exact": v.kind == SearchKind::Exact}))
                .collect::<Vec<_>>(),
        })
        .to_string()
    }

    fn solve(&self, obf: &str) -> String {
        let entry = match reversi_core::format::obf::parse_obf_line(obf) {
            Ok(e) => e,
            Err(e) => return error(format!("obf: {e}")),
        };
        // Exact, without selective cuts: the whole tree to the end.
        let limits = reversi_engine::search::Limits::default();
        let stop = AtomicBool::new(false);
        let r = self
            .engine
            .search_position(&entry.position, &limits, &stop, &mut |_| {});
        json!({
            "type": "solved",
            "move": r.best.map(|m| m.to_string()),
            "score": r.score,
            "exact": r.kind == SearchKind::Exact,
            "nodes": r.nodes,
        })
        .to_string()
    }
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

#[cfg(target_arch = "wasm32")]
mod exports;
