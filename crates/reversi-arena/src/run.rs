//! Running a tournament: games in parallel, each saved as GGF, a state file to resume from.

use crate::clock::{Fischer, GameClock};
use crate::player::{start, Contestant, Defaults, Forfeit, PlayerSpec};
use crate::schedule::{bye_points, byes, fixed_schedule, pair_games, swiss_round, Format, GameSpec};
use crate::table::{Bye, Crosstable, GameRecord};
use reversi_core::format::ggf::{write_ggf, Ending, GameInfo, GgfGame, GgfResult, MoveNote};
use reversi_core::{Color, Game, Move, Rules};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::Instant;

/// What can stop a tournament (a lost game never does).
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The state file belongs to another tournament.
    #[error("{0} holds a different tournament (other players, openings, format or time); use another folder or delete it")]
    OtherTournament(PathBuf),
    /// The state file cannot be read.
    #[error("cannot read the state file {0}: {1}")]
    BadState(PathBuf, String),
    /// The settings make no tournament.
    #[error("{0}")]
    Settings(String),
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ArenaError + '_ {
    move |source| ArenaError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A tournament's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tournament {
    /// The players.
    pub players: Vec<PlayerSpec>,
    /// How they are paired.
    pub format: Format,
    /// Openings as transcripts from the standard start; each is played twice per pairing.
    pub openings: Vec<String>,
    /// Level of built-in players that name neither a level nor a time.
    pub default_level: u32,
    /// Seconds per move for built-in players without a level, and for external GTP engines.
    pub time_per_move: Option<f64>,
    /// A game clock for every player instead (`None` in state files written before clocks).
    #[serde(default)]
    pub clock: Option<Fischer>,
    /// Games played at once.
    pub concurrency: usize,
    /// Seed of the weak levels' noise.
    pub seed: u64,
}

/// The state file: settings and finished games.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    /// The settings the games were played under.
    pub tournament: Tournament,
    /// Finished games, in the order they ended.
    pub games: Vec<GameRecord>,
}

/// Progress reports.
#[derive(Clone, Debug)]
pub enum Event<'a> {
    /// The run starts: `done` of `total` games were already played (a resumed run).
    Start {
        /// Games to play in all (Swiss: all rounds).
        total: usize,
        /// Games found in the state file.
        done: usize,
    },
    /// A Swiss round starts.
    Round(usize),
    /// A game ended.
    Game(&'a GameRecord),
}

/// The file names inside a tournament folder.
pub const STATE_FILE: &str = "state.json";

impl Tournament {
    /// Games in the whole tournament.
    pub fn total_games(&self) -> usize {
        let n = self.players.len();
        let per_pair = 2usize.saturating_mul(self.openings.len());
        // Saturating: a count of rounds or openings typed by hand must not wrap.
        match self.format {
            Format::RoundRobin => (n * n.saturating_sub(1) / 2).saturating_mul(per_pair),
            Format::Gauntlet => n.saturating_sub(1).saturating_mul(per_pair),
            Format::Swiss(r) => r.saturating_mul(n / 2).saturating_mul(per_pair),
        }
    }

    fn check(&self) -> Result<(), ArenaError> {
        if self.players.len() < 2 {
            return Err(ArenaError::Settings(
                "a tournament needs at least two players".into(),
            ));
        }
        if self.openings.is_empty() {
            return Err(ArenaError::Settings(
                "a tournament needs at least one opening".into(),
            ));
        }
        if let Some(t) = self.time_per_move {
            reversi_engine::levels::seconds(t, false)
                .map_err(|e| ArenaError::Settings(format!("time per move: {e}")))?;
        }
        if let Some(c) = &self.clock {
            c.check().map_err(|e| ArenaError::Settings(e.to_string()))?;
            if self.time_per_move.is_some() {
                return Err(ArenaError::Settings(
                    "give a time per move or a clock, not both".into(),
                ));
            }
        }
        let mut names = HashSet::new();
        for p in &self.players {
            p.check().map_err(ArenaError::Settings)?;
            if !names.insert(&p.name) {
                return Err(ArenaError::Settings(format!(
                    "two players are named `{}`",
                    p.name
                )));
            }
        }
        if let Format::Swiss(0) = self.format {
            return Err(ArenaError::Settings(
                "a Swiss tournament needs at least one round".into(),
            ));
        }
        Ok(())
    }

    /// Plays the tournament in `dir` (created if needed): every game is saved as
    /// `dir/games/KEY.ggf` and recorded in `dir/state.json` as soon as it ends, so a run that is
    /// interrupted continues where it stopped when started again with the same settings. At the
    /// end the crosstable is written as `crosstable.txt`, `.md`, `.html` and `.json`.
    pub fn run(&self, dir: &Path, on_event: &mut dyn FnMut(Event)) -> Result<Crosstable, ArenaError> {
        self.check()?;
        std::fs::create_dir_all(dir.join("games")).map_err(io_err(dir))?;
        let state_path = dir.join(STATE_FILE);
        let mut state = match std::fs::read_to_string(&state_path) {
            Ok(text) => {
                let s: State = serde_json::from_str(&text)
                    .map_err(|e| ArenaError::BadState(state_path.clone(), e.to_string()))?;
                if !s.tournament.same_games(self) {
                    return Err(ArenaError::OtherTournament(state_path));
                }
                s
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => State {
                tournament: self.clone(),
                games: Vec::new(),
            },
            Err(e) => return Err(io_err(&state_path)(e)),
        };
        on_event(Event::Start {
            total: self.total_games(),
            done: state.games.len(),
        });
        match self.format {
            Format::RoundRobin | Format::Gauntlet => {
                let all = fixed_schedule(self.format, self.players.len(), self.openings.len());
                self.play_all(all, dir, &mut state, on_event)?;
            }
            Format::Swiss(rounds) => {
                for round in 1..=rounds {
                    on_event(Event::Round(round));
                    let specs: Vec<GameSpec> = swiss_round(round, self.players.len(), &state.games)
                        .into_iter()
                        .flat_map(|(a, b)| pair_games(round, a, b, self.openings.len()))
                        .collect();
                    self.play_all(specs, dir, &mut state, on_event)?;
                }
            }
        }
        let names: Vec<String> = self.players.iter().map(|p| p.name.clone()).collect();
        let byes: Vec<Bye> = match self.format {
            Format::Swiss(rounds) => {
                let points = bye_points(&state.games);
                byes(rounds + 1, names.len(), &state.games)
                    .into_iter()
                    .map(|(player, round)| Bye {
                        player,
                        round,
                        points,
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        let table = Crosstable::with_byes(&names, &state.games, &byes);
        let write = |name: &str, text: String| {
            let p = dir.join(name);
            std::fs::write(&p, text).map_err(io_err(&p))
        };
        write("crosstable.txt", table.to_text())?;
        write("crosstable.md", table.to_markdown())?;
        write("crosstable.html", table.to_html())?;
        write(
            "crosstable.json",
            serde_json::to_string_pretty(&table).expect("plain data"),
        )?;
        Ok(table)
    }

    /// Whether a state file made under `other` can be continued with these settings (the
    /// concurrency may change).
    fn same_games(&self, other: &Tournament) -> bool {
        Tournament {
            concurrency: other.concurrency,
            ..self.clone()
        } == *other
    }

    fn play_all(
        &self,
        specs: Vec<GameSpec>,
        dir: &Path,
        state: &mut State,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<(), ArenaError> {
        let done: HashSet<String> = state.games.iter().map(|g| g.key.clone()).collect();
        let queue: Vec<GameSpec> = specs.into_iter().filter(|s| !done.contains(&s.key())).collect();
        if queue.is_empty() {
            return Ok(());
        }
        let workers = self.concurrency.clamp(1, queue.len());
        let queue = Mutex::new(queue.into_iter().rev().collect::<Vec<_>>());
        let (tx, rx) = mpsc::channel::<(GameRecord, String)>();
        std::thread::scope(|scope| {
            for _ in 0..workers {
                let tx = tx.clone();
                let queue = &queue;
                scope.spawn(move || loop {
                    let Some(spec) = queue.lock().expect("not poisoned").pop() else {
                        return;
                    };
                    let result = self.play(&spec);
                    if tx.send(result).is_err() {
                        return;
                    }
                });
            }
            drop(tx);
            for (record, ggf) in rx {
                let path = dir.join(&record.file);
                std::fs::write(&path, ggf + "\n").map_err(io_err(&path))?;
                state.games.push(record);
                save_state(dir, state)?;
                on_event(Event::Game(state.games.last().expect("just pushed")));
            }
            Ok(())
        })
    }

    /// Plays one game; returns its record and its GGF text.
    pub fn play(&self, spec: &GameSpec) -> (GameRecord, String) {
        let specs = [&self.players[spec.black], &self.players[spec.white]];
        let opening = &self.openings[spec.opening];
        let key = spec.key();
        let seed = self.seed ^ fnv(&key);
        let mut game = Game::from_transcript(Rules::othello(), opening).expect("openings are checked");
        let mut forfeit: Option<(Color, Forfeit)> = None;
        let mut players: Vec<Option<Box<dyn Contestant>>> = Vec::new();
        let defaults = Defaults {
            level: self.default_level,
            time: self.time_per_move,
            clock: self.clock,
        };
        for (i, c) in [Color::Black, Color::White].into_iter().enumerate() {
            match start(specs[i], defaults, seed.wrapping_add(i as u64)) {
                Ok(p) => players.push(Some(p)),
                Err(f) => {
                    players.push(None);
                    forfeit.get_or_insert((c, f));
                }
            }
        }
        let mut clock = self.clock.map(GameClock::new);
        // Each move's thinking time, written in the record (none for the opening's moves and
        // forced passes).
        let mut notes = vec![MoveNote::default(); game.moves().len()];
        while forfeit.is_none() && !game.is_over() {
            if game.pass_if_forced() {
                notes.push(MoveNote::default());
                continue;
            }
            let side = game.side_to_move();
            let player = players[side.index()].as_mut().expect("started");
            let asked = Instant::now();
            let turn = clock.as_ref().map(|c| c.turn(side, asked));
            let choice = player.choose(&game, turn);
            let used = asked.elapsed();
            // A move that came too late, or none before the flag fell, loses on time.
            let flag = clock.as_mut().and_then(|c| c.charge(side, used).err());
            match (choice, flag) {
                (Ok(_) | Err(Forfeit::Timeout(_)), Some(f)) => {
                    forfeit = Some((
                        side,
                        Forfeit::OutOfTime {
                            used: f.used,
                            left: f.left,
                        },
                    ))
                }
                (Ok(mv), None) if mv != Move::Pass && game.position().check(mv).is_ok() => {
                    game.play(mv).expect("checked");
                    notes.push(MoveNote {
                        eval: None,
                        time: Some(format!("{:.3}", used.as_secs_f64())),
                    });
                }
                (Ok(mv), _) => forfeit = Some((side, Forfeit::Illegal(mv.to_string()))),
                (Err(f), _) => forfeit = Some((side, f)),
            }
        }
        for p in players.iter_mut().flatten() {
            p.finish();
        }
        let names = [specs[0].name.clone(), specs[1].name.clone()];
        let total = game.rules().square_count();
        let (black_discs, white_discs, black_points, ending, reason) = match &forfeit {
            None => {
                let o = game.outcome().expect("over");
                let pts = match o.winner {
                    Some(Color::Black) => 1.0,
                    Some(Color::White) => 0.0,
                    None => 0.5,
                };
                (o.black, o.white, pts, Ending::Normal, None)
            }
            Some((loser, why)) => {
                // The winner gets the empties and at least 33 of 64 (the WOF rule for a loss on time).
                let loser_discs = game.position().count(*loser).min((total - 1) / 2);
                let winner_discs = total - loser_discs;
                let ending = match why {
                    Forfeit::Timeout(_) | Forfeit::OutOfTime { .. } => Ending::Timeout,
                    _ => Ending::Resigned,
                };
                let reason = format!("{} ({}) {why}", names[loser.index()], loser.name());
                match loser {
                    Color::Black => (loser_discs, winner_discs, 0.0, ending, Some(reason)),
                    Color::White => (winner_discs, loser_discs, 1.0, ending, Some(reason)),
                }
            }
        };
        let mut info = GameInfo {
            black: names[0].clone(),
            white: names[1].clone(),
            place: Some("reversi tournament".into()),
            date: Some(today()),
            time_control: match (&self.clock, self.time_per_move) {
                (Some(c), _) => Some(c.ggf()),
                (None, t) => t.map(|t| format!("{t}s/move")),
            },
            result: Some(GgfResult {
                black_margin: black_discs as f64 - white_discs as f64,
                ending,
            }),
            ..GameInfo::default()
        };
        if let Some(r) = &reason {
            info.extra.push(("C".into(), format!("forfeit: {r}")));
        }
        let mut record = GgfGame::from_game(&game, info);
        record.notes = notes;
        let ggf = write_ggf(&record);
        let record = GameRecord {
            file: format!("games/{key}.ggf"),
            key,
            round: spec.round,
            black: spec.black,
            white: spec.white,
            opening: spec.opening,
            moves: game.transcript(),
            black_discs,
            white_discs,
            black_points,
            forfeit: reason,
            clock_left: clock.map(|c| [Color::Black, Color::White].map(|s| c.left(s).as_secs_f64())),
        };
        (record, ggf)
    }
}

fn save_state(dir: &Path, state: &State) -> Result<(), ArenaError> {
    let tmp = dir.join("state.json.tmp");
    let text = serde_json::to_string_pretty(state).expect("plain data");
    std::fs::write(&tmp, text).map_err(io_err(&tmp))?;
    let path = dir.join(STATE_FILE);
    std::fs::rename(&tmp, &path).map_err(io_err(&path))
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// Today's date (UTC) as `YYYY-MM-DD`.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::CommandLine;
    use reversi_core::format::ggf::parse_ggf;

    /// A fresh scratch folder, removed when the guard is dropped (a failing test too leaves
    /// nothing behind).
    fn scratch(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("reversi-arena-{name}-"))
            .tempdir()
            .expect("a scratch folder in the temporary directory")
    }

    fn tournament(players: Vec<PlayerSpec>, format: Format, openings: usize) -> Tournament {
        Tournament {
            players,
            format,
            openings: crate::schedule::xot(openings, 3),
            default_level: 1,
            time_per_move: None,
            clock: None,
            concurrency: 2,
            seed: 5,
        }
    }

    #[test]
    fn round_robin_of_builtin_levels_resumes() {
        let tmp = scratch("rr");
        let dir = tmp.path();
        let t = tournament(
            vec![
                PlayerSpec::builtin(1),
                PlayerSpec::builtin(2),
                PlayerSpec::builtin(3),
            ],
            Format::RoundRobin,
            1,
        );
        let mut seen = 0;
        let table = t
            .run(dir, &mut |e| {
                if let Event::Game(_) = e {
                    seen += 1
                }
            })
            .unwrap();
        assert_eq!(seen, 6);
        assert_eq!(table.games, 6);
        let total: f64 = table.standings.iter().map(|s| s.points).sum();
        assert_eq!(total, 6.0);
        for f in std::fs::read_dir(dir.join("games")).unwrap() {
            let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
            let g = parse_ggf(&text).unwrap().remove(0);
            let game = g.to_game().unwrap();
            assert!(game.is_over());
            assert_eq!(
                g.info.result.unwrap().black_margin,
                game.outcome().unwrap().margin(Color::Black) as f64
            );
        }
        // Everything is in the state file: a second run plays nothing and gives the same table.
        let mut again = 0;
        let t2 = Tournament {
            concurrency: 1,
            ..t.clone()
        };
        let table2 = t2
            .run(dir, &mut |e| {
                if let Event::Game(_) = e {
                    again += 1
                }
            })
            .unwrap();
        assert_eq!(again, 0);
        assert_eq!(table2, table);
        // Other settings are refused.
        let t3 = Tournament {
            default_level: 2,
            ..t
        };
        assert!(matches!(
            t3.run(dir, &mut |_| {}),
            Err(ArenaError::OtherTournament(_))
        ));
    }

    #[test]
    fn a_broken_engine_loses_every_game() {
        let tmp = scratch("broken");
        let dir = tmp.path();
        let broken = PlayerSpec {
            name: "broken".into(),
            command: Some(CommandLine::Line("/nonexistent/engine".into())),
            ..PlayerSpec::default()
        };
        let silent = PlayerSpec {
            name: "silent".into(),
            // Reads its input and never answers.
            command: Some(CommandLine::Args(vec!["sleep".into(), "30".into()])),
            timeout: Some(0.3),
            ..PlayerSpec::default()
        };
        let t = tournament(vec![PlayerSpec::builtin(1), broken, silent], Format::Gauntlet, 1);
        let table = t.run(dir, &mut |_| {}).unwrap();
        assert_eq!(table.games, 4);
        let winner = &table.standings[0];
        assert_eq!((winner.name.as_str(), winner.points), ("level 1", 4.0));
        assert_eq!(table.forfeits.len(), 4);
        assert!(
            table.forfeits.iter().any(|(_, r)| r.contains("timeout")),
            "{:?}",
            table.forfeits
        );
        assert!(
            table.forfeits.iter().any(|(_, r)| r.contains("cannot start")),
            "{:?}",
            table.forfeits
        );
        let state: State =
            serde_json::from_str(&std::fs::read_to_string(dir.join(STATE_FILE)).unwrap()).unwrap();
        for g in &state.games {
            assert_eq!(g.black_discs + g.white_discs, 64);
            assert!(g.black_discs.max(g.white_discs) >= 33);
        }
    }

    #[test]
    fn under_a_clock_the_engine_never_flags_and_each_move_is_timed() {
        let tmp = scratch("clock");
        let dir = tmp.path();
        let clock = Fischer::new(3.0, 0.1).unwrap();
        let full = |name: &str| PlayerSpec {
            name: name.into(),
            hash: Some(4),
            book: Some("off".into()),
            ..PlayerSpec::default()
        };
        let t = Tournament {
            clock: Some(clock),
            ..tournament(vec![full("a"), full("b")], Format::RoundRobin, 1)
        };
        let table = t.run(dir, &mut |_| {}).unwrap();
        assert_eq!(table.games, 2);
        assert!(table.forfeits.is_empty(), "{:?}", table.forfeits);
        let state: State =
            serde_json::from_str(&std::fs::read_to_string(dir.join(STATE_FILE)).unwrap()).unwrap();
        for g in &state.games {
            let left = g.clock_left.expect("a timed game keeps its clocks");
            let text = std::fs::read_to_string(dir.join(&g.file)).unwrap();
            let ggf = parse_ggf(&text).unwrap().remove(0);
            assert_eq!(ggf.info.time_control.as_deref(), Some("00:03/00:00.1"));
            let game = ggf.to_game().unwrap();
            assert!(game.is_over());
            // Each player's recorded times and increments account for its clock.
            let opening = t.openings[g.opening].len() / 2;
            for (i, color) in [Color::Black, Color::White].into_iter().enumerate() {
                let mut used = 0.0;
                let mut moves = 0;
                for (ply, note) in ggf.notes.iter().enumerate().skip(opening) {
                    let mover = game.position_at(ply).unwrap().side_to_move();
                    if mover == color && ggf.moves[ply] != Move::Pass {
                        used += note
                            .time
                            .as_deref()
                            .expect("a timed move")
                            .parse::<f64>()
                            .unwrap();
                        moves += 1;
                    }
                }
                let expected = 3.0 + 0.1 * moves as f64 - used;
                assert!(left[i] > 0.0, "{left:?}");
                assert!(
                    (left[i] - expected).abs() < 0.01 * moves as f64,
                    "{left:?} {expected}"
                );
            }
        }
        // A clock and a time per move are one too many.
        let both = Tournament {
            time_per_move: Some(1.0),
            ..t
        };
        assert!(matches!(both.run(dir, &mut |_| {}), Err(ArenaError::Settings(_))));
    }

    #[test]
    fn an_engine_that_thinks_past_its_clock_loses_on_time() {
        let tmp = scratch("flag");
        let dir = tmp.path();
        // Answers every command at once, but never a move: only the flag can end its turn (no
        // clock is read here: waiting for the move would never end).
        let script = r#"while read -r id cmd rest; do
            case "$cmd" in
              genmove) ;;
              known_command) printf '=%s false\n\n' "$id" ;;
              *) printf '=%s\n\n' "$id" ;;
            esac
          done"#;
        let slow = PlayerSpec {
            name: "slow".into(),
            command: Some(CommandLine::Args(vec!["bash".into(), "-c".into(), script.into()])),
            ..PlayerSpec::default()
        };
        let t = Tournament {
            clock: Some(Fischer::new(0.5, 0.0).unwrap()),
            ..tournament(vec![PlayerSpec::builtin(1), slow], Format::Gauntlet, 1)
        };
        let table = t.run(dir, &mut |_| {}).unwrap();
        assert_eq!(table.standings[0].points, 2.0);
        assert_eq!(table.forfeits.len(), 2);
        assert!(
            table.forfeits.iter().all(|(_, r)| r.contains("lost on time")),
            "{:?}",
            table.forfeits
        );
        for f in std::fs::read_dir(dir.join("games")).unwrap() {
            let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
            let g = parse_ggf(&text).unwrap().remove(0);
            let result = g.info.result.unwrap();
            assert_eq!(result.ending, Ending::Timeout);
            // The winner gets at least 33 discs (RULES.md §6).
            assert!(result.black_margin.abs() >= 2.0, "{text}");
        }
    }

    #[test]
    fn swiss_rounds() {
        let tmp = scratch("swiss");
        let dir = tmp.path();
        let players = (1..=4).map(PlayerSpec::builtin).collect();
        let t = tournament(players, Format::Swiss(2), 1);
        assert_eq!(t.total_games(), 8);
        let table = t.run(dir, &mut |_| {}).unwrap();
        assert_eq!(table.games, 8);
        assert!(table.standings.iter().all(|s| s.games == 4));
        // Nobody meets the same opponent twice in two rounds of four players.
        assert_eq!(table.pairs.len(), 4);
    }

    #[test]
    fn dates() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
