//! The named Othello openings (`data/openings/openings.tsv`, with its provenance beside it),
//! recognised by position: a transposition or any of the eight symmetric images of an
//! opening's position gets its name.

use crate::bitboard::{flips, moves};
use crate::game::Game;
use crate::position::AnyPosition;
use crate::Color;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The table, as shipped (tab-separated: moves, English, Russian, source).
pub static TABLE: &str = include_str!("../../../data/openings/openings.tsv");

/// One named opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Its moves from the standard start (`f5d6c3d3c4`).
    pub moves: &'static str,
    /// The English name (aliases after ` / `).
    pub english: &'static str,
    /// The Russian name.
    pub russian: &'static str,
    /// Where the row comes from (keys of `data/openings/README.md`).
    pub source: &'static str,
}

impl Opening {
    /// The name in a language (`ru` gives Russian; anything else English).
    pub fn name(&self, lang: &str) -> &'static str {
        if lang.starts_with("ru") {
            self.russian
        } else {
            self.english
        }
    }

    /// Plies of its sequence.
    pub fn plies(&self) -> usize {
        self.moves.len() / 2
    }
}

/// Positions as (black, white, black to move), least of the eight images.
type Key = (u64, u64, bool);

struct Index {
    all: Vec<Opening>,
    by_position: HashMap<Key, usize>,
}

fn key(black: u64, white: u64, black_to_move: bool) -> Key {
    let (b, w, _) = crate::symmetry::canonical_u64(black, white);
    (b, w, black_to_move)
}

fn index() -> &'static Index {
    static I: OnceLock<Index> = OnceLock::new();
    I.get_or_init(|| {
        let mut all = Vec::new();
        let mut by_position = HashMap::new();
        for line in TABLE.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            let f: Vec<&'static str> = line.split('\t').collect();
            let [moves, english, russian, source] = f[..] else {
                panic!("openings.tsv: {line:?} has {} fields, not 4", f.len());
            };
            let (b, w, black) = replay(moves).unwrap_or_else(|e| panic!("openings.tsv: {moves}: {e}"));
            let prev = by_position.insert(key(b, w, black), all.len());
            assert!(prev.is_none(), "openings.tsv: {moves} repeats a position");
            all.push(Opening {
                moves,
                english,
                russian,
                source,
            });
        }
        Index { all, by_position }
    })
}

/// Plays `moves` from the standard start: (black, white, black to move).
fn replay(moves_text: &str) -> Result<(u64, u64, bool), String> {
    let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
    let mut black = true;
    let b = moves_text.as_bytes();
    if !b.len().is_multiple_of(2) {
        return Err("odd length".into());
    }
    for c in b.chunks(2) {
        if !(b'a'..=b'h').contains(&c[0]) || !(b'1'..=b'8').contains(&c[1]) {
            return Err(format!("{:?} is not a square", String::from_utf8_lossy(c)));
        }
        let sq = (c[0] - b'a') as u32 + 8 * (c[1] - b'1') as u32;
        if moves(p, o) & (1u64 << sq) == 0 {
            return Err(format!("{} is not legal", String::from_utf8_lossy(c)));
        }
        let f = flips(p, o, sq);
        (p, o) = (o & !f, p | f | (1u64 << sq));
        black = !black;
        if moves(p, o) == 0 {
            return Err("a pass inside an opening".into());
        }
    }
    Ok(if black { (p, o, true) } else { (o, p, false) })
}

/// Every named opening, in the table's order (by sequence).
pub fn all() -> &'static [Opening] {
    &index().all
}

/// The opening whose position this is (in any orientation); `None` for positions the table
/// does not name, and for boards other than plain 8×8 Othello.
pub fn at(pos: &AnyPosition) -> Option<&'static Opening> {
    let AnyPosition::Small(p) = pos else { return None };
    if p.playable() != u64::MAX {
        return None;
    }
    let i = index();
    i.by_position
        .get(&key(p.black(), p.white(), p.side_to_move() == Color::Black))
        .map(|&n| &i.all[n])
}

/// The opening of `game` up to ply `upto` (its current position when `None`): the deepest
/// named position the game went through, with the ply where it stood. Only standard 8×8
/// Othello games have names (a game from a set-up position or of another variant has none).
pub fn of_game(game: &Game, upto: Option<usize>) -> Option<(usize, &'static Opening)> {
    if game.rules().variant != crate::Variant::Othello {
        return None;
    }
    let last = upto.unwrap_or(game.ply()).min(game.ply());
    (1..=last)
        .rev()
        .find_map(|ply| game.position_at(ply).and_then(at).map(|o| (ply, o)))
}

/// Every ply of `game` at which it stood in a named opening, in order: the opening at any ply
/// is the last of these at or before it (a replay shows it move by move from this list).
pub fn marks(game: &Game) -> Vec<(usize, &'static Opening)> {
    if game.rules().variant != crate::Variant::Othello {
        return Vec::new();
    }
    (1..=game.ply())
        .filter_map(|ply| game.position_at(ply).and_then(at).map(|o| (ply, o)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bits, Move, Rules, Square, Symmetry};

    #[test]
    fn the_table_is_whole() {
        assert!(all().len() >= 70, "{} openings", all().len());
        for name in [
            "Tiger",
            "Rose",
            "Buffalo",
            "Heath",
            "Cow",
            "Snake",
            "Leader's Tiger",
            "Aubrey",
            "Brightwell",
        ] {
            assert!(
                all().iter().any(|o| o
                    .english
                    .split(" / ")
                    .any(|n| n == name || n.starts_with(&format!("{name} ")))),
                "{name} is missing"
            );
        }
        assert!(all()
            .iter()
            .all(|o| !o.russian.is_empty() && !o.source.is_empty()));
    }

    /// Every opening is found at its own position, under each of the eight symmetries of its
    /// moves (symmetric games start from another first move).
    #[test]
    fn every_opening_is_found_in_every_orientation() {
        for o in all() {
            let moves: Vec<Square> = o
                .moves
                .as_bytes()
                .chunks(2)
                .map(|c| Square::parse(std::str::from_utf8(c).unwrap()).unwrap())
                .collect();
            for s in Symmetry::ALL {
                // Only the symmetries that keep the start position give games: the start is
                // symmetric under the identity, the half turn and the two diagonal mirrors.
                let start = Game::new(Rules::othello());
                let start_pos = *start.position();
                if start_pos.transformed(s) != start_pos {
                    continue;
                }
                let mut g = Game::new(Rules::othello());
                for &m in &moves {
                    g.play(Move::Play(s.apply(m, 8))).unwrap();
                }
                assert_eq!(
                    of_game(&g, None),
                    Some((moves.len(), o)),
                    "{} under {s:?}",
                    o.moves
                );
            }
        }
    }

    #[test]
    fn transpositions_and_later_moves_keep_the_name() {
        let tiger = all().iter().find(|o| o.english == "Tiger").unwrap();
        let g = Game::from_transcript(Rules::othello(), tiger.moves).unwrap();
        assert_eq!(of_game(&g, None).map(|(_, o)| o.english), Some("Tiger"));
        // A move the table does not name keeps the last name.
        let unnamed = g
            .legal_moves()
            .squares()
            .find(|&m| {
                let mut t = g.clone();
                t.play(Move::Play(m)).unwrap();
                at(t.position()).is_none()
            })
            .expect("a reply to the Tiger that has no name");
        let mut later = g.clone();
        later.play(Move::Play(unnamed)).unwrap();
        assert_eq!(of_game(&later, None), Some((5, tiger)));
        // Up to a ply: the name then.
        assert_eq!(
            of_game(&g, Some(2)).map(|(_, o)| o.english),
            Some("Perpendicular Opening")
        );
        assert_eq!(of_game(&Game::new(Rules::othello()), None), None);
        assert_eq!(tiger.name("ru"), "Тигр");
        let marks: Vec<&str> = marks(&later).iter().map(|(_, o)| o.english).collect();
        // Every named position on the way, in order.
        assert_eq!(marks, ["Perpendicular Opening", "Tiger"]);
    }
}
