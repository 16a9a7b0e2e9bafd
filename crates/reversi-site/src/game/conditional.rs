//! Conditional premoves in correspondence games (as lichess has them): while the opponent is
//! to move, a player writes lines — "if they play e6, I answer f4; then if c3, c4" — and the
//! game answers for them the moment the moves played follow a line. Lines are stored with the
//! ply they start from; a line the game leaves is dropped, and none is shown to anyone but
//! its author.

use super::live::LiveGame;
use super::{GameError, PlayerKind, Result};
use reversi_core::notation::parse_transcript;
use reversi_core::{Color, Move};
use serde::{Deserialize, Serialize};

/// The most lines a player keeps in one game.
pub const MAX_LINES: usize = 20;
/// The most moves in one line.
pub const MAX_PLIES: usize = 20;

/// A player's conditional premoves: lines of moves played from ply `from` on (passes left out:
/// a forced pass plays itself).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conditional {
    /// The ply the lines start from.
    pub from: usize,
    /// The lines, each the opponent's move first, then alternately the player's reply.
    #[serde(with = "lines_serde")]
    pub lines: Vec<Vec<Move>>,
}

impl Conditional {
    /// The lines as text, one transcript each (`e6 f4 c3 c4`).
    pub fn texts(&self) -> Vec<String> {
        self.lines
            .iter()
            .map(|l| l.iter().map(Move::to_string).collect::<Vec<_>>().join(" "))
            .collect()
    }
}

mod lines_serde {
    use reversi_core::notation::parse_move;
    use reversi_core::Move;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(lines: &[Vec<Move>], s: S) -> Result<S::Ok, S::Error> {
        let text: Vec<Vec<String>> = lines
            .iter()
            .map(|l| l.iter().map(Move::to_string).collect())
            .collect();
        text.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<Move>>, D::Error> {
        let text: Vec<Vec<String>> = Vec::deserialize(d)?;
        text.iter()
            .map(|l| {
                l.iter()
                    .map(|m| parse_move(m).map_err(serde::de::Error::custom))
                    .collect()
            })
            .collect()
    }
}

impl LiveGame {
    /// Whether the players may leave conditional premoves: a correspondence game between two
    /// people.
    pub fn conditional_allowed(&self) -> bool {
        self.record.players == [PlayerKind::Human, PlayerKind::Human]
            && self
                .record
                .online
                .as_ref()
                .and_then(|o| o.timing)
                .is_some_and(|t| t.clock.control.is_correspondence())
    }

    /// `by` leaves `lines` (transcripts: `e6 f4 c3 c4`, or `e6f4c3c4`) while the opponent is to
    /// move, each starting with the opponent's next move and legal throughout; none clears
    /// them. Says which line and move is at fault.
    pub fn set_conditional(&mut self, by: Color, lines: &[String]) -> Result<()> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        if !self.conditional_allowed() {
            return Err(GameError::Conditional(
                "conditional premoves are for correspondence games between two people".into(),
            ));
        }
        let lines: Vec<&str> = lines.iter().map(|l| l.trim()).filter(|l| !l.is_empty()).collect();
        if lines.is_empty() {
            self.conditional[by.index()] = None;
            return Ok(());
        }
        if self.game.side_to_move() == by {
            return Err(GameError::Conditional(
                "it is your move: play it (conditional premoves wait for your opponent's)".into(),
            ));
        }
        if lines.len() > MAX_LINES {
            return Err(GameError::Conditional(format!("at most {MAX_LINES} lines")));
        }
        let mut out = Vec::with_capacity(lines.len());
        for (n, text) in lines.iter().enumerate() {
            let n = n + 1;
            let moves: Vec<Move> = parse_transcript(text)
                .map_err(|e| GameError::Conditional(format!("line {n}: {e}")))?
                .into_iter()
                .filter(|m| *m != Move::Pass)
                .collect();
            if moves.len() > MAX_PLIES {
                return Err(GameError::Conditional(format!(
                    "line {n}: at most {MAX_PLIES} moves"
                )));
            }
            if moves.len() < 2 {
                return Err(GameError::Conditional(format!(
                    "line {n}: give your opponent's move and your answer"
                )));
            }
            let mut game = self.game.clone();
            for (k, mv) in moves.iter().enumerate() {
                if game.is_over() {
                    return Err(GameError::Conditional(format!(
                        "line {n}: the game is over before {mv}"
                    )));
                }
                if k == 0 && game.side_to_move() == by {
                    return Err(GameError::Conditional(format!(
                        "line {n}: it starts with your opponent's move"
                    )));
                }
                game.play(*mv)
                    .map_err(|e| GameError::Conditional(format!("line {n}, move {}: {e}", k + 1)))?;
                while !game.is_over() && game.pass_if_forced() {}
            }
            out.push(moves);
        }
        self.conditional[by.index()] = Some(Conditional {
            from: self.game.ply(),
            lines: out,
        });
        Ok(())
    }

    /// The move the side to move left for this position, if the moves played since its lines
    /// were written follow one of them (passes aside) and the line goes on with its move.
    pub fn conditional_reply(&self) -> Option<Move> {
        let side = self.to_move()?;
        let c = self.conditional[side.index()].as_ref()?;
        let played: Vec<Move> = self
            .game
            .moves()
            .get(c.from..)?
            .iter()
            .copied()
            .filter(|m| *m != Move::Pass)
            .collect();
        // The player's own turn comes after the opponent's move: the line has a reply there.
        c.lines
            .iter()
            .find(|l| l.len() > played.len() && l[..played.len()] == played[..] && played.len() % 2 == 1)
            .map(|l| l[played.len()])
            .filter(|mv| self.game.clone().play(*mv).is_ok())
    }
}
