//! Who plays whom: round robin, gauntlet and Swiss pairings, and the openings.

use crate::pairing::{swiss, SwissPlayer};
use crate::table::GameRecord;
use reversi_core::notation::parse_transcript;
use reversi_core::rules::xot_openings;
use reversi_core::{Game, Rules};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// How players are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    /// Every player meets every other.
    RoundRobin,
    /// The first player meets every other; the others do not meet each other.
    Gauntlet,
    /// This many rounds; each round pairs players with similar points who have not met yet.
    Swiss(usize),
}

/// One game to play: a pairing, an opening and the colours.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameSpec {
    /// Round (from 1; round robin and gauntlet have a single round).
    pub round: usize,
    /// Index of the player with black.
    pub black: usize,
    /// Index of the player with white.
    pub white: usize,
    /// Index of the opening.
    pub opening: usize,
}

impl GameSpec {
    /// A key naming this game uniquely within a tournament (and its record's file name).
    pub fn key(&self) -> String {
        format!(
            "r{:02}-p{}-p{}-o{:03}",
            self.round, self.black, self.white, self.opening
        )
    }
}

/// The games between `a` and `b` in one round: each opening twice, colours swapped.
pub fn pair_games(round: usize, a: usize, b: usize, openings: usize) -> Vec<GameSpec> {
    (0..openings)
        .flat_map(|o| {
            [
                GameSpec {
                    round,
                    black: a,
                    white: b,
                    opening: o,
                },
                GameSpec {
                    round,
                    black: b,
                    white: a,
                    opening: o,
                },
            ]
        })
        .collect()
}

/// Every game of a round robin or a gauntlet among `players` (Swiss rounds come from
/// [`swiss_round`]).
pub fn fixed_schedule(format: Format, players: usize, openings: usize) -> Vec<GameSpec> {
    let mut out = Vec::new();
    match format {
        Format::RoundRobin => {
            for a in 0..players {
                for b in a + 1..players {
                    out.extend(pair_games(1, a, b, openings));
                }
            }
        }
        Format::Gauntlet => {
            for b in 1..players {
                out.extend(pair_games(1, 0, b, openings));
            }
        }
        Format::Swiss(_) => {}
    }
    out
}

/// The pairs of Swiss round `round` given the games played so far, by [`crate::pairing::swiss`]
/// (engines play each pairing as a mini-match with both colours, so the colours it gives only
/// order the pair). A player who played no game in an earlier round had a bye then, worth the
/// points of a won mini-match ([`bye_points`]).
pub fn swiss_round(round: usize, players: usize, played: &[GameRecord]) -> Vec<(usize, usize)> {
    let mut ps: Vec<SwissPlayer> = (0..players).map(|_| SwissPlayer::new(0.0)).collect();
    let mut pairs_seen = HashSet::new();
    for g in played.iter().filter(|g| g.round < round) {
        if pairs_seen.insert((g.round, g.black.min(g.white), g.black.max(g.white))) {
            // One meeting per mini-match, whatever its number of games.
            ps[g.black].opponents.push(g.white);
            ps[g.white].opponents.push(g.black);
        }
        ps[g.black].points += g.black_points;
        ps[g.white].points += 1.0 - g.black_points;
    }
    for (p, _) in byes(round, players, played) {
        ps[p].had_bye = true;
        ps[p].points += bye_points(played);
    }
    swiss(&ps).pairs
}

/// The points a bye is worth in an engine Swiss: a won mini-match (its number of games, taken
/// from the first round played; 2 when nothing is known).
pub fn bye_points(played: &[GameRecord]) -> f64 {
    let first: Vec<&GameRecord> = played.iter().filter(|g| g.round == 1).collect();
    match first.first() {
        Some(g) => first
            .iter()
            .filter(|x| {
                x.black.min(x.white) == g.black.min(g.white) && x.black.max(x.white) == g.black.max(g.white)
            })
            .count() as f64,
        None => 2.0,
    }
}

/// The byes of the Swiss rounds before `round`: `(player, round)` for each player who played no
/// game in a round that was played.
pub fn byes(round: usize, players: usize, played: &[GameRecord]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for r in 1..round {
        let in_round: HashSet<usize> = played
            .iter()
            .filter(|g| g.round == r)
            .flat_map(|g| [g.black, g.white])
            .collect();
        if in_round.is_empty() {
            continue;
        }
        out.extend((0..players).filter(|p| !in_round.contains(p)).map(|p| (p, r)));
    }
    out
}

/// `count` XOT openings, chosen by `seed` without repeats (the whole list if `count` is larger).
pub fn xot(count: usize, seed: u64) -> Vec<String> {
    let all: Vec<&str> = xot_openings().collect();
    let mut idx: Vec<usize> = (0..all.len()).collect();
    let mut state = seed ^ 0x2545_f491_4f6c_dd1d;
    // A Fisher-Yates shuffle, as far as needed, with a xorshift generator.
    let n = count.min(all.len());
    for i in 0..n {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let j = i + (state % (all.len() - i) as u64) as usize;
        idx.swap(i, j);
    }
    idx[..n].iter().map(|&i| all[i].to_string()).collect()
}

/// Reads a file of openings: one transcript a line; blank lines and lines starting with `#` are
/// skipped. Each must be a legal Othello line that leaves the game unfinished.
pub fn parse_openings(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let moves = parse_transcript(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        let game = Game::replay(Rules::othello(), &moves).map_err(|e| format!("line {}: {e}", i + 1))?;
        if game.is_over() {
            return Err(format!("line {}: the game is already over", i + 1));
        }
        out.push(game.transcript());
    }
    if out.is_empty() {
        return Err("no opening in the file".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_and_gauntlet_sizes() {
        let rr = fixed_schedule(Format::RoundRobin, 4, 3);
        assert_eq!(rr.len(), 6 * 3 * 2);
        let keys: HashSet<String> = rr.iter().map(GameSpec::key).collect();
        assert_eq!(keys.len(), rr.len());
        // Each opening is played twice per pair with the colours swapped.
        assert!(rr.contains(&GameSpec {
            round: 1,
            black: 2,
            white: 1,
            opening: 2
        }));
        assert!(rr.contains(&GameSpec {
            round: 1,
            black: 1,
            white: 2,
            opening: 2
        }));
        let g = fixed_schedule(Format::Gauntlet, 4, 2);
        assert_eq!(g.len(), 3 * 2 * 2);
        assert!(g.iter().all(|s| s.black == 0 || s.white == 0));
    }

    fn rec(round: usize, black: usize, white: usize, black_points: f64) -> GameRecord {
        GameRecord {
            key: String::new(),
            round,
            black,
            white,
            opening: 0,
            moves: String::new(),
            black_discs: 0,
            white_discs: 0,
            black_points,
            forfeit: None,
            file: String::new(),
            clock_left: None,
        }
    }

    #[test]
    fn swiss_pairs_leaders_and_avoids_rematches() {
        assert_eq!(swiss_round(1, 4, &[]), [(0, 1), (2, 3)]);
        // Round 1: 0 beat 1, 3 beat 2. Leaders 0 and 3 meet; 1 and 2 meet.
        let played = [rec(1, 0, 1, 1.0), rec(1, 2, 3, 0.0)];
        assert_eq!(swiss_round(2, 4, &played), [(0, 3), (1, 2)]);
        // Odd count: the last player sits out, then someone else does.
        let r1 = swiss_round(1, 3, &[]);
        assert_eq!(r1, [(0, 1)]);
        let played = [rec(1, 0, 1, 1.0)];
        let r2 = swiss_round(2, 3, &played);
        assert_eq!(r2.len(), 1);
        assert!(
            r2[0].0 == 2 || r2[0].1 == 2,
            "the player with the bye plays: {r2:?}"
        );
    }

    #[test]
    fn openings() {
        let a = xot(5, 1);
        assert_eq!(a.len(), 5);
        assert_eq!(a, xot(5, 1));
        assert_ne!(a, xot(5, 2));
        assert!(a.iter().all(|t| t.len() == 16));
        let o = parse_openings("# two lines\nf5d6\n\nf5 f6 e6\n").unwrap();
        assert_eq!(o, ["f5d6", "f5f6e6"]);
        assert!(parse_openings("f5f5\n").unwrap_err().starts_with("line 1"));
        assert!(parse_openings("\n# nothing\n").is_err());
    }
}
