//! The lessons of `/learn`: their order, sections, exercises and the puzzle theme each leads
//! to. The text of every lesson is in `reversi-i18n`'s `learn.LANG.ftl` (`learn-ID-title`,
//! `-intro`, `-p1`…, `-done`); here is what the board needs.
//!
//! An exercise is a position and a [`Goal`]: the right moves are computed by
//! [`reversi_engine::exercise::judge`], never written down. `answer` and `wrong` are one right
//! and one wrong move, for the tests that play every exercise both ways.
//!
//! Positions marked `logbook N/P` come from game N of Logistello's book games
//! (`data/logistello/logbook.gam.gz`, one game per line) after ply P, picked because exactly one
//! move reaches the goal among many; `line:` positions are played from the start.

use reversi_core::{notation, AnyPosition, Position, Rules, Square};
use reversi_engine::exercise::Goal;
use std::sync::OnceLock;

/// A group of lessons on the `/learn` page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Section {
    /// How the game is played.
    Rules,
    /// How it is played well.
    Strategy,
    /// The end of the game.
    Endgame,
}

/// One exercise as written below.
struct Spec {
    /// A board in the puzzles' form (64 squares from a1, then the side to move), or `line:`
    /// and moves from the start.
    board: &'static str,
    /// A goal's name ([`Goal::parse`]), or `opening:NAME`: the next move of the named opening.
    goal: &'static str,
    /// How many moves of the player's the exercise asks for (the solver replies in between).
    moves: u8,
    answer: &'static str,
    wrong: &'static str,
}

/// One lesson as written below.
struct LessonSpec {
    id: &'static str,
    section: Section,
    /// The puzzle theme a finished lesson suggests.
    theme: Option<&'static str>,
    exercises: &'static [Spec],
}

const fn ex(board: &'static str, goal: &'static str, answer: &'static str, wrong: &'static str) -> Spec {
    ex_n(board, goal, 1, answer, wrong)
}

const fn ex_n(
    board: &'static str,
    goal: &'static str,
    moves: u8,
    answer: &'static str,
    wrong: &'static str,
) -> Spec {
    Spec {
        board,
        goal,
        moves,
        answer,
        wrong,
    }
}

/// Eight white discs around d4, each backed by a black one: d4 turns all eight directions
/// (and f3 one, through g2 to h1).
const STAR: &str = "-------X -X-X-XO- --OOO--- -XO-OX-- --OOO--- -X-X-X-- -------- -------- X";

const LESSONS: &[LessonSpec] = &[
    LessonSpec {
        id: "place",
        section: Section::Rules,
        theme: None,
        exercises: &[
            ex("line:", "legal", "d3", "d6"),
            // logbook 12/20
            ex(
                "--O-------OOO---XOOOOO--XXOXXX--XOXXX-----XXX------------------- X",
                "legal",
                "g3",
                "h8",
            ),
        ],
    },
    LessonSpec {
        id: "directions",
        section: Section::Rules,
        theme: None,
        exercises: &[
            // logbook 12/26
            ex(
                "--O-XX---OOXX---XOOXOO--XXXOOO--XXXXOO---XXXXO------------------ X",
                "most-directions",
                "g4",
                "b1",
            ),
            ex(STAR, "most-directions", "d4", "f3"),
        ],
    },
    LessonSpec {
        id: "flips",
        section: Section::Rules,
        theme: None,
        exercises: &[
            // logbook 12/20
            ex(
                "--O-------OOO---XOOOOO--XXOXXX--XOXXX-----XXX------------------- X",
                "most-flips",
                "g3",
                "b1",
            ),
            // logbook 86/20
            ex(
                "-O--OOO---OOXX----XOXO----XXOOO---XXOO----XX-O------------------ X",
                "most-flips",
                "f7",
                "c1",
            ),
        ],
    },
    LessonSpec {
        id: "pass",
        section: Section::Rules,
        theme: None,
        exercises: &[
            // logbook 160/51
            ex(
                "-OOOOOOO--XXXXOX-XXXOOXXXXXXOXOXXXOOXOXXXXOXXXOX-XXXXXXXOX-X---X O",
                "opponent-passes",
                "a7",
                "a2",
            ),
            // logbook 789/49
            ex(
                "X-OOOX--XXOOXX--XOXXOXX-XOOXXXXXXOXXXXXXXXXXOXX-XXXXXX--XXXXXX-- O",
                "opponent-passes",
                "b1",
                "g1",
            ),
        ],
    },
    LessonSpec {
        id: "end",
        section: Section::Rules,
        theme: Some("wipe-out"),
        exercises: &[
            // logbook 49/58: two empties, one move wins
            ex(
                "XOOOOOOXXOOOOOOXXOXOOOXXXXOXOXXOXXXOXXXOXXOOXOOOXXXOOOOOOOOOX-X- X",
                "exact",
                "h8",
                "f8",
            ),
            // The shortest game: a wipe-out on black's ninth move.
            ex("line:d3 c3 b3 d2 e1 d6 d7 e3", "wipeout", "f4", "c4"),
        ],
    },
    LessonSpec {
        id: "notation",
        section: Section::Rules,
        theme: None,
        exercises: &[
            ex("line:", "square:d3", "d3", "c4"),
            ex("line:f5 d6", "square:c3", "c3", "e3"),
        ],
    },
    LessonSpec {
        id: "corners",
        section: Section::Strategy,
        theme: Some("corner"),
        exercises: &[
            // logbook 12/28
            ex(
                "--O-XX---OOXX---XOOXOO--XXXOXO--XXXOOX---XXOXXX----O------------ X",
                "corner",
                "a1",
                "b1",
            ),
            // logbook 123/41
            ex(
                "--OOO----XOOXX---OOOOO-X-OOXOOXO-OOXXXXO-OOOXXOO--XXOX-O--XXXXX- O",
                "corner",
                "a1",
                "b1",
            ),
        ],
    },
    LessonSpec {
        id: "x-c-squares",
        section: Section::Strategy,
        theme: Some("x-square"),
        exercises: &[
            // logbook 160/37
            ex(
                "-OXX-OO---XXXO---OXXOXOO-XXXOOXOXXOOOXXOXXOOXXXO--O-X----------- O",
                "safe-corners",
                "e1",
                "b2",
            ),
            // logbook 271/40
            ex(
                "---XXXX---XXXO-OO-XXXXOOOXXXXOOOOXOXXOOOOOOOOOOOO---OOX--------- X",
                "safe-corners",
                "f8",
                "g2",
            ),
        ],
    },
    LessonSpec {
        id: "mobility",
        section: Section::Strategy,
        theme: None,
        exercises: &[
            // logbook 12/15
            ex(
                "----------XX----XOXOX---XXXXXX--XOOOO-----X--------------------- O",
                "fewest-replies",
                "c1",
                "b1",
            ),
            // logbook 49/15
            ex(
                "--XXXX----XXO-----XXXO----XOXX----OOOX-------------------------- O",
                "fewest-replies",
                "f2",
                "b2",
            ),
        ],
    },
    LessonSpec {
        id: "quiet",
        section: Section::Strategy,
        theme: None,
        exercises: &[
            // logbook 12/14
            ex(
                "----------XX----XOXOO---XOOOO---XOOOO-----X--------------------- X",
                "quiet",
                "f6",
                "f3",
            ),
            // logbook 86/13
            ex(
                "----------XOX-----XXOO----XOOOO---XOOX----X--------------------- O",
                "quiet",
                "f2",
                "b1",
            ),
        ],
    },
    LessonSpec {
        id: "stable",
        section: Section::Strategy,
        theme: None,
        exercises: &[
            // logbook 49/48
            ex(
                "XOXXXX--OOOOOO-XOOXOOOX-OXOXXXOOOXXXXOXOOXXXOOOO-XXXXO-O-X--X--- X",
                "most-stable",
                "a7",
                "g1",
            ),
            // logbook 12/30
            ex(
                "XOO-XX---OOXX---XOXXOO--XXXXXO--XXXOXX---XXOXXX----O------------ X",
                "most-stable",
                "d1",
                "a2",
            ),
        ],
    },
    LessonSpec {
        id: "edges",
        section: Section::Strategy,
        theme: None,
        exercises: &[
            // logbook 197/40
            ex(
                "--OOO-----OOO---XXOXOO--XXOOOOO-XXOXXXX-XXXOOXXX-XOOOX--X-OOOX-- X",
                "most-stable",
                "b8",
                "b1",
            ),
            // logbook 419/37
            ex(
                "--OXOO----X-XO--XXXXOXXXXXOXOOX--XXOXXXX-XOXOOOO-OOO-O----O----- O",
                "safe-corners",
                "g2",
                "b1",
            ),
        ],
    },
    LessonSpec {
        id: "centre",
        section: Section::Strategy,
        theme: None,
        exercises: &[
            // logbook 49/13
            ex(
                "---O-X----XOX-----XXOO----XOXX----OOOX-------------------------- O",
                "quiet",
                "f2",
                "c1",
            ),
            // logbook 12/14
            ex(
                "----------XX----XOXOO---XOOOO---XOOOO-----X--------------------- X",
                "engine",
                "f4",
                "f3",
            ),
        ],
    },
    LessonSpec {
        id: "tempo",
        section: Section::Strategy,
        theme: Some("tempo"),
        exercises: &[
            // logbook 160/45
            ex(
                "-OOOOOO---XXOO---XXXOXOOXXXXOOOOXXOXXOXOXXOXXXOO--XXXXXO---X---X O",
                "exact",
                "g2",
                "b2",
            ),
            // logbook 715/44
            ex(
                "OXXXXO--OXXOOO--OXXXOOO-OXXOXOO-OOXOXOOOOOOOXXX-OOXXXX----X----- X",
                "exact",
                "h6",
                "g1",
            ),
        ],
    },
    LessonSpec {
        id: "phases",
        section: Section::Strategy,
        theme: None,
        exercises: &[
            // logbook 49/12
            ex(
                "---O------XOO-----XXOO----XOXX----OOOX-------------------------- X",
                "engine",
                "f1",
                "c1",
            ),
            // logbook 12/44
            ex(
                "XOOOXX--XXOOO---XXOOOO--XXXXXXX-XXOOOX---OOOXOX-OOOOOO--OXXOOO-- X",
                "exact",
                "a6",
                "f2",
            ),
        ],
    },
    LessonSpec {
        id: "openings",
        section: Section::Strategy,
        theme: None,
        exercises: &[
            ex("line:f5 d6", "opening:Tiger", "c3", "c5"),
            ex("line:f5 f6 e6", "opening:Heath / Tobidashi", "f4", "d3"),
        ],
    },
    LessonSpec {
        id: "parity",
        section: Section::Endgame,
        theme: Some("parity"),
        exercises: &[
            // logbook 197/49
            ex_n(
                "--OOOOO---OOXXX-XXOXOXXOXXXXXXXXXXXXOOXXXXXOOXXX-XOOOO--X-OOOOO- O",
                "exact",
                2,
                "h7",
                "a2",
            ),
            // logbook 345/49
            ex_n(
                "--OOOO--X-OOOOXXXOOXOXXXXOOXXXXXXOOOXXX-XOXXOXXX--OXOOX--OOOOO-X O",
                "exact",
                2,
                "b7",
                "h1",
            ),
        ],
    },
    LessonSpec {
        id: "counting",
        section: Section::Endgame,
        theme: Some("endgame"),
        exercises: &[
            // logbook 86/58: two empties
            ex(
                "OO-XXXXXO-OXXOXOOOOXXXOOOOXXOOXOOXOXOXXOOXXOXXXOOXOOOOXOXXXXXXXX X",
                "exact",
                "b2",
                "c1",
            ),
            // logbook 123/46
            ex_n(
                "--OOO--O-XOOXXOO-OOOOOXO-OOXOXXO-OOOXXXO-OOOXXOO-OOOOX-O--XXXXX- X",
                "exact",
                3,
                "b1",
                "g1",
            ),
        ],
    },
];

/// One exercise, read and checked.
#[derive(Clone, Debug)]
pub struct Exercise {
    /// The position to play from.
    pub position: Position<u64>,
    /// What the player must do.
    pub goal: Goal,
    /// For an `opening:` goal, the named opening.
    pub opening: Option<&'static reversi_core::openings::Opening>,
    /// How many of the player's moves it asks for.
    pub moves: u8,
    /// One right move (for the tests).
    pub answer: Square,
    /// One wrong square (for the tests).
    pub wrong: Square,
}

/// One lesson.
#[derive(Clone, Debug)]
pub struct Lesson {
    /// Its id (`corners`), in addresses and message ids.
    pub id: &'static str,
    /// Its group.
    pub section: Section,
    /// The puzzle theme it leads to.
    pub theme: Option<&'static str>,
    /// Its exercises, in order.
    pub exercises: Vec<Exercise>,
}

/// Why a lesson's exercise cannot be read (a slip in the table above: the tests read them all).
fn read(spec: &Spec) -> Result<Exercise, String> {
    let rules = Rules::othello();
    let position = match spec.board.strip_prefix("line:") {
        Some(line) => {
            let mut pos = Position::<u64>::start(&rules);
            for m in notation::parse_transcript(line).map_err(|e| e.to_string())? {
                pos.play(m).map_err(|e| format!("{m}: {e}"))?;
            }
            pos
        }
        None => match notation::parse_board(&rules, spec.board).map_err(|e| e.to_string())? {
            AnyPosition::Small(p) => p,
            AnyPosition::Wide(_) => return Err("not an 8×8 board".into()),
        },
    };
    let (goal, opening) = match spec.goal.strip_prefix("opening:") {
        Some(name) => {
            let o = reversi_core::openings::all()
                .iter()
                .find(|o| o.english == name)
                .ok_or_else(|| format!("no opening named {name:?}"))?;
            // The opening's move after the plies already played.
            let ply = 64 - position.empties().count_ones() as usize - 4;
            let next = o
                .moves
                .get(2 * ply..2 * ply + 2)
                .and_then(Square::parse)
                .ok_or_else(|| format!("{name} has no move {}", ply + 1))?;
            (Goal::Square(next), Some(o))
        }
        None => (
            Goal::parse(spec.goal).ok_or_else(|| format!("no goal {:?}", spec.goal))?,
            None,
        ),
    };
    let square = |s: &str| Square::parse(s).ok_or_else(|| format!("{s:?} is not a square"));
    Ok(Exercise {
        position,
        goal,
        opening,
        moves: spec.moves.max(1),
        answer: square(spec.answer)?,
        wrong: square(spec.wrong)?,
    })
}

/// Every lesson, in order. A lesson whose exercise cannot be read is logged and left without
/// it (the tests make sure none is).
pub fn all() -> &'static [Lesson] {
    static ALL: OnceLock<Vec<Lesson>> = OnceLock::new();
    ALL.get_or_init(|| {
        LESSONS
            .iter()
            .map(|l| Lesson {
                id: l.id,
                section: l.section,
                theme: l.theme,
                exercises: l
                    .exercises
                    .iter()
                    .filter_map(|s| read(s).map_err(|e| tracing::error!("lesson {}: {e}", l.id)).ok())
                    .collect(),
            })
            .collect()
    })
}

/// The lesson `id`.
pub fn find(id: &str) -> Option<&'static Lesson> {
    all().iter().find(|l| l.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_exercise_reads() {
        for l in LESSONS {
            for s in l.exercises {
                read(s).unwrap_or_else(|e| panic!("lesson {}: {e}", l.id));
            }
        }
        assert_eq!(
            all().iter().map(|l| l.exercises.len()).sum::<usize>(),
            LESSONS.iter().map(|l| l.exercises.len()).sum::<usize>()
        );
        let mut ids: Vec<_> = all().iter().map(|l| l.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), all().len(), "a lesson id twice");
    }

    #[test]
    fn every_lesson_has_its_text_in_both_languages() {
        use reversi_i18n::{has, Lang};
        for l in all() {
            for lang in Lang::ALL {
                for part in ["title", "intro", "p1", "done"] {
                    let id = format!("learn-{}-{part}", l.id);
                    assert!(has(lang, &id), "{lang}: {id}");
                }
            }
        }
    }
}
