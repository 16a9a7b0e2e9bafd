//! The analysis board's protocol without a server. `reversi serve`'s socket
//! (`/api/analysis/ws`) and the browser's own engine (`reversi-wasm`, in a worker) both read
//! a [`PositionRequest`] with [`game_of`] and answer with [`position_event`] and
//! [`values_event`], so the page cannot tell them apart but by speed.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

use reversi_core::notation::{parse_board, write_board};
use reversi_core::{AnyPosition, Bits, Color, Game, Move, Rules, Square, Variant};
use reversi_engine::coach::{Arg, Explanation};
use reversi_engine::evaluate::MoveValue;
use reversi_site_api::analysis::{
    Fact, FactArg, MoveValueView, OpeningName, PositionEvent, PositionRequest, ValuesEvent,
};
use std::str::FromStr;

/// Why a position request cannot be read. Each message starts with the part at fault
/// (`variant:`, `board:`, `moves:`, `GGF:`, `transcript:`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// An unknown variant.
    #[error("variant: {0}")]
    Variant(String),
    /// Both a board and a pasted game.
    #[error("give a board or a pasted game, not both")]
    BoardAndText,
    /// A board string that does not read, or a set-up the rules never reach.
    #[error("board: {0}")]
    Board(String),
    /// A move list that does not read or has an illegal move.
    #[error("moves: {0}")]
    Moves(String),
    /// A pasted GGF game that does not read.
    #[error("GGF: {0}")]
    Ggf(String),
    /// A pasted transcript that does not read.
    #[error("transcript: {0}")]
    Transcript(String),
}

/// The game a position request describes: a start (the variant's, a set-up board, or a pasted
/// game) and the moves played from it.
pub fn game_of(req: &PositionRequest) -> Result<Game, RequestError> {
    let variant = Variant::from_str(&req.variant).map_err(|e| RequestError::Variant(e.to_string()))?;
    let rules = Rules::new(variant, 0);
    let mut game = match (req.board.as_deref(), req.text.as_deref()) {
        (Some(_), Some(_)) => return Err(RequestError::BoardAndText),
        (Some(b), None) => {
            let pos = parse_board(&rules, b).map_err(|e| RequestError::Board(e.to_string()))?;
            check_setup(&rules, &pos)?;
            Game::from_position(rules, pos)
        }
        (None, Some(t)) => pasted(rules, t)?,
        (None, None) => Game::new(rules),
    };
    let moves = reversi_core::notation::parse_transcript(req.moves.as_deref().unwrap_or(""))
        .map_err(|e| RequestError::Moves(e.to_string()))?;
    game.play_all(&moves)
        .map_err(|e| RequestError::Moves(e.to_string()))?;
    Ok(game)
}

/// A pasted game: GGF (its first game, in its own variant), a board string, or a transcript.
fn pasted(rules: Rules, text: &str) -> Result<Game, RequestError> {
    let text = text.trim();
    if text.starts_with("(;") {
        let games =
            reversi_core::format::ggf::parse_ggf(text).map_err(|e| RequestError::Ggf(e.to_string()))?;
        let g = games
            .into_iter()
            .next()
            .ok_or_else(|| RequestError::Ggf("no game in the text".into()))?;
        return g.to_game().map_err(|e| RequestError::Ggf(e.to_string()));
    }
    if let Ok(pos) = parse_board(&rules, text) {
        check_setup(&rules, &pos)?;
        return Ok(Game::from_position(rules, pos));
    }
    Game::from_transcript(rules, text).map_err(|e| RequestError::Transcript(e.to_string()))
}

/// A set-up the rules could never reach is refused with the reason: in Othello and its square
/// variants the four centre squares are never empty (discs are only ever added).
fn check_setup(rules: &Rules, pos: &AnyPosition) -> Result<(), RequestError> {
    if matches!(rules.variant, Variant::Othello | Variant::Nxn(_)) {
        let (w, h) = (pos.width(), pos.height());
        for (c, r) in [
            (w / 2 - 1, h / 2 - 1),
            (w / 2, h / 2 - 1),
            (w / 2 - 1, h / 2),
            (w / 2, h / 2),
        ] {
            let sq = Square::new(c, r).expect("on the board");
            if pos.disc(sq).is_none() {
                return Err(RequestError::Board(format!(
                    "the centre square {sq} is empty, and a game never empties it"
                )));
            }
        }
    }
    Ok(())
}

/// The `position` event: the board the values are for.
pub fn position_event(id: u64, game: &Game) -> PositionEvent {
    let pos = game.position();
    PositionEvent {
        id,
        variant: game.rules().variant.to_string(),
        width: pos.width().into(),
        height: pos.height().into(),
        cells: reversi_core::notation::cells(pos),
        to_move: (!pos.is_game_over()).then(|| pos.side_to_move().name().to_string()),
        legal_moves: pos.legal_moves().squares().map(|s| s.to_string()).collect(),
        must_pass: pos.must_pass(),
        black_count: pos.count(Color::Black),
        white_count: pos.count(Color::White),
        last_move: game.moves().last().map(|m| m.to_string()),
        moves: game.moves().iter().map(|m| m.to_string()).collect(),
        start: write_board(game.start()),
        standard_start: *game.start() == *Game::new(game.rules().clone()).start(),
        result: pos.outcome().map(|o| o.margin(Color::Black)),
    }
}

/// The named openings of a position and of the position after each legal move, found once per
/// position: its values are sent many times.
pub struct Openings {
    here: Option<OpeningName>,
    after: Vec<(Move, Option<OpeningName>)>,
}

fn name(o: &reversi_core::openings::Opening) -> OpeningName {
    OpeningName {
        en: o.english.to_string(),
        ru: o.russian.to_string(),
    }
}

impl Openings {
    /// The openings of `game`'s position and of each move from it.
    pub fn of(game: &Game) -> Openings {
        let pos = game.position();
        let after = pos
            .legal_moves()
            .squares()
            .map(|sq| {
                let mut next = *pos;
                let mv = Move::Play(sq);
                let named = next.play(mv).ok().and_then(|_| reversi_core::openings::at(&next));
                (mv, named.map(name))
            })
            .collect();
        Openings {
            here: reversi_core::openings::of_game(game, None).map(|(_, o)| name(o)),
            after,
        }
    }

    /// The opening `mv` leads to.
    pub fn after(&self, mv: Move) -> Option<OpeningName> {
        self.after
            .iter()
            .find(|(m, _)| *m == mv)
            .and_then(|(_, o)| o.clone())
    }
}

/// The coach's sentences as the pages read them.
pub fn facts(e: &Explanation) -> Vec<Fact> {
    e.facts
        .iter()
        .map(|f| {
            let (id, args) = f.message();
            Fact {
                id: id.to_string(),
                args: args
                    .into_iter()
                    .map(|(k, v)| {
                        let v = match v {
                            Arg::Num(n) => FactArg::Num(n),
                            Arg::Text(t) => FactArg::Text(t),
                        };
                        (k.to_string(), v)
                    })
                    .collect(),
            }
        })
        .collect()
}

/// A `values` event: every move with its value, the opening it leads to, and what the coach
/// says of it against the best.
pub fn values_event(
    id: u64,
    pos: &AnyPosition,
    openings: &Openings,
    values: &[MoveValue],
    depth: u32,
    done: bool,
) -> ValuesEvent {
    let best = values.iter().max_by_key(|v| v.score);
    let moves = values
        .iter()
        .map(|v| MoveValueView {
            facts: best.map_or_else(Vec::new, |b| {
                facts(&reversi_engine::coach::explain(
                    pos,
                    v.mv,
                    &v.pv,
                    b.mv,
                    &b.pv,
                    (b.score - v.score).max(0),
                ))
            }),
            mv: v.mv.to_string(),
            score: v.score,
            kind: v.kind.name().to_string(),
            depth: v.depth,
            pv: v.pv.iter().map(Move::to_string).collect(),
            opening: openings.after(v.mv),
        })
        .collect();
    ValuesEvent {
        id,
        depth,
        done,
        opening: openings.here.clone(),
        moves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(moves: Option<&str>, board: Option<&str>, text: Option<&str>) -> PositionRequest {
        PositionRequest {
            id: 1,
            variant: "othello".into(),
            moves: moves.map(str::to_string),
            board: board.map(str::to_string),
            text: text.map(str::to_string),
        }
    }

    #[test]
    fn positions_are_read_with_clear_errors() {
        assert_eq!(game_of(&req(Some("f5d6"), None, None)).unwrap().ply(), 2);
        let e = game_of(&req(Some("f5f5"), None, None)).unwrap_err();
        assert!(e.to_string().starts_with("moves:"), "{e}");
        let chess = PositionRequest {
            variant: "chess".into(),
            ..req(None, None, None)
        };
        assert!(game_of(&chess).unwrap_err().to_string().starts_with("variant:"));
        assert_eq!(
            game_of(&req(None, Some("x"), Some("f5"))),
            Err(RequestError::BoardAndText)
        );
        let e = game_of(&req(None, Some("not a board"), None)).unwrap_err();
        assert!(e.to_string().starts_with("board:"), "{e}");
        // A pasted transcript, board or GGF; moves go on from it.
        assert_eq!(game_of(&req(Some("c3"), None, Some("f5 d6"))).unwrap().ply(), 3);
        let start = write_board(Game::new(Rules::othello()).start());
        assert_eq!(game_of(&req(Some("f5"), None, Some(&start))).unwrap().ply(), 1);
        let ggf = "(;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)";
        assert_eq!(game_of(&req(None, None, Some(ggf))).unwrap().transcript(), "f5d6");
        let e = game_of(&req(None, None, Some("(;GM[Othello]BO["))).unwrap_err();
        assert!(e.to_string().starts_with("GGF:"), "{e}");
        // An editor's set-up with an empty centre is refused with the reason.
        let mut empty_centre = start.clone().into_bytes();
        empty_centre[27] = b'-';
        let e = game_of(&req(
            None,
            Some(std::str::from_utf8(&empty_centre).unwrap()),
            None,
        ))
        .unwrap_err();
        assert!(e.to_string().contains("centre square d4"), "{e}");
    }

    #[test]
    fn events_describe_the_position_and_its_moves() {
        let game = game_of(&req(Some("f5d6c3d3"), None, None)).unwrap();
        let p = position_event(7, &game);
        assert_eq!(
            (p.id, p.width, p.height, p.black_count, p.white_count),
            (7, 8, 8, 4, 4)
        );
        assert_eq!(p.to_move.as_deref(), Some("black"));
        assert_eq!(p.legal_moves.len() as u32, game.legal_moves().count());
        assert!(p.standard_start && p.result.is_none());
        let openings = Openings::of(&game);
        let mut engine = reversi_engine::search::Engine::new(2, 1).unwrap();
        engine.set_book(None);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let opts = reversi_engine::evaluate::EvalOptions {
            max_depth: 2,
            book: false,
            ..Default::default()
        };
        let values =
            reversi_engine::evaluate::evaluate_moves(&engine, game.position(), &opts, &stop, &mut |_| {});
        let v = values_event(7, game.position(), &openings, &values, 3, true);
        assert_eq!(v.moves.len(), p.legal_moves.len());
        assert!(v.moves.windows(2).all(|w| w[0].score >= w[1].score));
        // The coach's sentences travel with the moves it has something to say about.
        assert!(v
            .moves
            .iter()
            .any(|m| m.facts.iter().any(|f| f.id.starts_with("coach-"))));
        // c4 after f5d6c3d3 is the named Tiger; its name travels with the move.
        let tiger = v.moves.iter().find(|m| m.mv == "c4").unwrap();
        assert!(
            tiger.opening.as_ref().is_some_and(|o| o.en.contains("Tiger")),
            "{tiger:?}"
        );
    }
}
