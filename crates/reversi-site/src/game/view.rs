//! What clients are shown of a game: its state ([`GameView`]), its replay, its result, who is
//! connected — the API's types ([`reversi_site_api`]) made from the game core's.

use super::live::LiveGame;
use super::record::VoidEnd;
use crate::Millis;
use reversi_core::{AnyPosition, Bits, Color, Move, Square};
use reversi_site_api::{
    Ending, GameView, OpeningMark, PlayerKind, Players, PresenceView, ReplayFrame, ReplayView, ResultView,
    Side,
};

/// A colour as the API writes it.
pub fn side(c: Color) -> Side {
    match c {
        Color::Black => Side::Black,
        Color::White => Side::White,
    }
}

/// The colour the API names `black`/`white` (or `b`/`w`, any case).
pub fn parse_color(s: &str) -> Option<Color> {
    Side::parse(s).map(|s| match s {
        Side::Black => Color::Black,
        Side::White => Color::White,
    })
}

/// An optional colour as the API writes it.
pub fn side_opt(c: Option<Color>) -> Option<Side> {
    c.map(side)
}

impl LiveGame {
    /// What clients are told of who is connected, at `now` (Unix ms).
    pub fn presence_view(&self, now: Millis) -> PresenceView {
        let p = &self.presence;
        let now = now as i64;
        PresenceView {
            black: p.away_since[0].is_none(),
            white: p.away_since[1].is_none(),
            black_away_ms: p.away_for(0, now),
            white_away_ms: p.away_for(1, now),
            spectators: p.spectators,
            claim_after_ms: self.claim_after_ms(),
        }
    }

    /// The state shown to every client at `now` (Unix ms: the clocks' and the absences' time).
    pub fn view(&self, now: Millis) -> GameView {
        let pos = self.game.position();
        let (w, h) = (pos.width(), pos.height());
        let moves: Vec<String> = self.game.moves().iter().map(|m| m.to_string()).collect();
        let ply = self.game.ply();
        let last = self.game.moves().last().copied();
        let (flipped, passed) = self.flipped_and_passed(ply);
        let legal = if self.is_over() {
            Vec::new()
        } else {
            pos.legal_moves().squares().map(|s| s.to_string()).collect()
        };
        GameView {
            id: self.record.id.clone(),
            variant: self.record.variant.to_string(),
            mode: self.record.mode,
            level: self.record.level,
            players: Players {
                black: self.record.players[0],
                white: self.record.players[1],
            },
            seats_taken: Players {
                black: self.record.players[0] == PlayerKind::Ai || self.record.tokens[0].is_some(),
                white: self.record.players[1] == PlayerKind::Ai || self.record.tokens[1].is_some(),
            },
            width: w,
            height: h,
            cells: reversi_core::notation::cells(pos),
            to_move: side_opt(self.to_move()),
            legal_moves: legal,
            preset: self.preset(),
            moves,
            ply,
            last_move: last.map(|m| m.to_string()),
            flipped,
            passed: side_opt(passed),
            black_count: pos.count(Color::Black),
            white_count: pos.count(Color::White),
            supply: match (pos.supply(Color::Black), pos.supply(Color::White)) {
                (Some(black), Some(white)) => Some(Players { black, white }),
                _ => None,
            },
            first_to_move: side(self.game.start().side_to_move()),
            tie: self.record.tie.name().to_string(),
            status: self.status(),
            can_abort: self.can_abort(),
            takebacks: self.takebacks_allowed() && !self.is_over(),
            takeback: side_opt(self.takeback),
            result: self.result(),
            // The computer to move is the computer thinking: the state right after a move
            // against it says so, not a moment later (a client trusting the first state would
            // otherwise move out of turn).
            ai_thinking: self.ai_thinking || self.ai_to_move().is_some(),
            version: self.version,
            created_at: self.record.created_at,
            rematch: self.record.rematch.clone(),
            online: self
                .record
                .online
                .as_ref()
                .map(|o| o.view(self.record.variant, self.to_move(), now)),
            openings: self.opening_marks(),
            presence: self.presence_view(now),
        }
    }

    /// The discs flipped by move `ply` (1-based: the move that led to the position after `ply`
    /// moves) and, when that move was a pass, the colour that passed.
    fn flipped_and_passed(&self, ply: usize) -> (Vec<String>, Option<Color>) {
        let moves = self.game.moves();
        let last = ply.checked_sub(1).and_then(|i| moves.get(i).copied());
        let prev = ply.checked_sub(1).and_then(|p| self.game.position_at(p));
        match (last, prev, self.game.position_at(ply)) {
            (Some(Move::Play(sq)), Some(prev), Some(now)) => (flipped_squares(prev, now, sq), None),
            (Some(Move::Pass), Some(prev), _) => (Vec::new(), Some(prev.side_to_move())),
            _ => (Vec::new(), None),
        }
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<ResultView> {
        let pos = self.game.position();
        let conceded = |loser: Color, ending: Ending| {
            // RULES.md §6: a resignation, a departure and a loss on time count alike.
            let o = pos.conceded(loser);
            ResultView {
                black: o.black,
                white: o.white,
                winner: side_opt(o.winner),
                black_margin: o.black_margin,
                ending,
                resigned: (ending != Ending::Time).then_some(side(loser)),
                flagged: (ending == Ending::Time).then_some(side(loser)),
            }
        };
        if self.record.void.is_some() {
            None
        } else if let Some(loser) = self.record.resigned {
            Some(conceded(
                loser,
                if self.record.left {
                    Ending::Left
                } else {
                    Ending::Resigned
                },
            ))
        } else if let Some(loser) = self.flagged() {
            Some(conceded(loser, Ending::Time))
        } else {
            self.game.outcome().map(|o| ResultView {
                black: o.black,
                white: o.white,
                winner: side_opt(o.winner),
                black_margin: o.black_margin,
                ending: Ending::Normal,
                resigned: None,
                flagged: None,
            })
        }
    }

    /// The plies at which the game stood in a named opening.
    fn opening_marks(&self) -> Vec<OpeningMark> {
        reversi_core::openings::marks(&self.game)
            .into_iter()
            .map(|(ply, o)| OpeningMark {
                ply,
                en: o.english.to_string(),
                ru: o.russian.to_string(),
            })
            .collect()
    }

    /// Every position of the game from the start, for the replay view.
    pub fn replay(&self) -> ReplayView {
        let moves = self.game.moves();
        let frames = (0..=moves.len())
            .filter_map(|ply| {
                let pos = self.game.position_at(ply)?;
                let (flipped, passed) = self.flipped_and_passed(ply);
                let to_move = if ply == moves.len() {
                    self.to_move()
                } else {
                    Some(pos.side_to_move())
                };
                Some(ReplayFrame {
                    cells: reversi_core::notation::cells(pos),
                    to_move: side_opt(to_move),
                    last_move: ply.checked_sub(1).map(|i| moves[i].to_string()),
                    flipped,
                    passed: side_opt(passed),
                    black_count: pos.count(Color::Black),
                    white_count: pos.count(Color::White),
                })
            })
            .collect();
        ReplayView {
            id: self.record.id.clone(),
            variant: self.record.variant.to_string(),
            mode: self.record.mode,
            level: self.record.level,
            players: Players {
                black: self.record.players[0],
                white: self.record.players[1],
            },
            width: self.game.position().width(),
            height: self.game.position().height(),
            preset: self.preset(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            frames,
            openings: self.opening_marks(),
            status: self.status(),
            result: self.result(),
            created_at: self.record.created_at,
        }
    }

    /// The moves the variant played before the game began (XOT's opening line).
    fn preset(&self) -> Vec<String> {
        self.game.rules().opening.iter().map(|s| s.to_string()).collect()
    }

    /// Whether the game ended without a result.
    pub fn is_void(&self) -> bool {
        matches!(
            self.record.void,
            Some(VoidEnd::Aborted | VoidEnd::Abandoned | VoidEnd::Closed)
        )
    }
}

fn flipped_squares(prev: &AnyPosition, now: &AnyPosition, played: Square) -> Vec<String> {
    now.playable()
        .squares()
        .filter(|&s| s != played && prev.disc(s).is_some() && prev.disc(s) != now.disc(s))
        .map(|s| s.to_string())
        .collect()
}
