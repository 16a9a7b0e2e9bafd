//! Tournaments for people on the site: their settings, their life cycle, who plays whom next,
//! and the standings. Swiss and round-robin pairings and the crosstable are `reversi-arena`'s
//! (the engine runner uses the same ones); the arena format's pairing and scoring are here.
//!
//! # Life cycle
//! An *upcoming* tournament takes entries until it starts at its start time (with fewer than
//! [`MIN_PLAYERS`] it is cancelled instead). A Swiss or round robin then plays round after round:
//! a round is paired when the previous one's last game has ended and [`ROUND_BREAK_MS`] has
//! passed (so that players see their result); the organiser may pause it (no new round starts;
//! games under way go on). An arena runs for its duration: a player whose game ends goes back
//! into the waiting pool and is paired again at the next tick; no game starts after the end, and
//! the games under way when it comes are played out and count.
//!
//! # Late entries, withdrawals, forfeits
//! A Swiss takes entries until its last round is paired; a late entrant gets a half point for
//! each round missed (a half-point bye, which does not stop a later pairing bye). A round robin
//! takes entries only before it starts. A player who withdraws (or whom the organiser removes)
//! is paired no more; in a round robin each of their remaining opponents gets a bye for that
//! round. A player who has not made their first move [`FORFEIT_GRACE_MS`] after the game began
//! loses it by forfeit (scored like a loss on time: 33–31 at the start position).
//!
//! # Scoring
//! Swiss and round robin: win 1, draw ½, a pairing bye 1; ties broken by the Brightwell quotient,
//! then the discs (RULES.md §6). Arena, after lichess: win 2, draw 1, loss 0; after two wins in a
//! row a player is *on fire* and each further win scores 4 and a draw 2, until a game that is
//! not a win. (Lichess's berserk is not taken: halving one's clock for an extra point suits
//! chess blitz better than a game that is decided in the endgame count.) Arena ties are broken
//! by the Brightwell quotient of the games' points, then the discs.

use crate::clock::{TimeControl, FIRST_MOVE_DEADLINE_MS};
use crate::Millis;
use reversi_arena::pairing::{round_robin, swiss, Round, SwissPlayer};
pub use reversi_arena::table::Crosstable;
use reversi_arena::table::{Bye, GameRecord};
use reversi_core::Variant;
use serde::{Deserialize, Serialize};

/// The fewest players a tournament starts with.
pub const MIN_PLAYERS: usize = 2;
/// The most players a tournament takes.
pub const MAX_PLAYERS: u32 = 1000;
/// The most Swiss rounds.
pub const MAX_ROUNDS: u32 = 15;
/// The most players of a round robin (a double one of 16 is already 30 rounds).
pub const MAX_ROUND_ROBIN_PLAYERS: usize = 16;
/// The shortest and longest arena, minutes.
pub const ARENA_MINUTES: (u32, u32) = (5, 360);
/// How far ahead a tournament may be scheduled: 30 days.
pub const MAX_LEAD_MS: Millis = 30 * 24 * 3_600_000;
/// The pause between a round's last game and the next round, so that players see the result.
pub const ROUND_BREAK_MS: Millis = 10_000;
/// How long after a tournament game began a player may make their first move before losing
/// the game by forfeit: the site's first-move deadline.
pub const FORFEIT_GRACE_MS: Millis = FIRST_MOVE_DEADLINE_MS;
/// Name length, characters.
pub const NAME_CHARS: (usize, usize) = (3, 60);

/// How players are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Format {
    /// A set number of rounds, paired by score.
    Swiss {
        /// Rounds.
        rounds: u32,
    },
    /// Everyone meets everyone, once or twice (colours swapped).
    RoundRobin {
        /// 1 (single) or 2 (double).
        cycles: u32,
    },
    /// A fixed duration; paired again as soon as a game ends.
    Arena {
        /// Duration in minutes.
        minutes: u32,
    },
}

impl Format {
    /// `swiss`, `round_robin` or `arena`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Swiss { .. } => "swiss",
            Format::RoundRobin { .. } => "round_robin",
            Format::Arena { .. } => "arena",
        }
    }

    /// The number of rounds for `players` entrants (`None`: an arena has none).
    pub fn rounds(self, players: usize) -> Option<u32> {
        match self {
            Format::Swiss { rounds } => Some(rounds),
            Format::RoundRobin { cycles } => {
                let per = if players.is_multiple_of(2) {
                    players.saturating_sub(1)
                } else {
                    players
                };
                Some(per as u32 * cycles)
            }
            Format::Arena { .. } => None,
        }
    }
}

/// What the organiser chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The name shown.
    pub name: String,
    /// Swiss, round robin or arena.
    pub format: Format,
    /// The variant (XOT draws a start for each game).
    pub variant: Variant,
    /// The clock of every game.
    pub control: TimeControl,
    /// Whether the games are rated.
    pub rated: bool,
    /// When it starts (Unix ms).
    pub starts_at: Millis,
    /// The lowest rating (in the tournament's category) that may enter.
    pub min_rating: Option<i32>,
    /// Only those with the invitation link may enter.
    pub invite_only: bool,
    /// Whether bot accounts may enter.
    pub bots: bool,
    /// The most entrants.
    pub max_players: u32,
}

/// Why a tournament cannot be made, entered or changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    /// A bad name.
    #[error("a tournament's name has {} to {} characters", NAME_CHARS.0, NAME_CHARS.1)]
    Name,
    /// Swiss rounds out of range.
    #[error("a Swiss has 1 to {MAX_ROUNDS} rounds")]
    Rounds,
    /// Round robin cycles out of range.
    #[error("a round robin is single (1) or double (2)")]
    Cycles,
    /// Arena length out of range.
    #[error("an arena lasts {} to {} minutes", ARENA_MINUTES.0, ARENA_MINUTES.1)]
    Minutes,
    /// A correspondence control.
    #[error("tournament games are played live: choose a clock in minutes and seconds")]
    Correspondence,
    /// The start is in the past or too far ahead.
    #[error("a tournament starts between now and 30 days from now")]
    StartTime,
    /// Bad player limit.
    #[error("a tournament takes 2 to {MAX_PLAYERS} players")]
    MaxPlayers,
    /// The variant has no rated play.
    #[error("games of this variant are casual only")]
    NotRatedVariant,
    /// Entries are closed.
    #[error("entries to this tournament are closed")]
    Closed,
    /// The tournament is full.
    #[error("the tournament is full")]
    Full,
    /// Rating below the minimum.
    #[error("this tournament needs a rating of at least {0}")]
    RatingTooLow(i32),
    /// No invitation.
    #[error("this tournament is by invitation: use the link the organiser shared")]
    InviteOnly,
    /// Bots are not allowed.
    #[error("this tournament does not take bots")]
    NoBots,
    /// Guests cannot enter.
    #[error("sign in to enter a tournament")]
    NeedsAccount,
    /// Not the organiser.
    #[error("only the organiser may do this")]
    NotOrganiser,
    /// The action does not fit the tournament's state.
    #[error("the tournament is {0}: this cannot be done now")]
    WrongState(&'static str),
    /// Started early with fewer than [`MIN_PLAYERS`] entrants.
    #[error("a tournament needs at least {MIN_PLAYERS} players to start")]
    TooFewPlayers,
}

impl TournamentError {
    /// A stable code for the interface's translations.
    pub fn code(&self) -> &'static str {
        match self {
            TournamentError::Name => "tournament_name",
            TournamentError::Rounds => "tournament_rounds",
            TournamentError::Cycles => "tournament_cycles",
            TournamentError::Minutes => "tournament_minutes",
            TournamentError::Correspondence => "tournament_correspondence",
            TournamentError::StartTime => "tournament_start",
            TournamentError::MaxPlayers => "tournament_max_players",
            TournamentError::NotRatedVariant => "not_rated_variant",
            TournamentError::Closed => "tournament_closed",
            TournamentError::Full => "tournament_full",
            TournamentError::RatingTooLow(_) => "tournament_rating",
            TournamentError::InviteOnly => "tournament_invite_only",
            TournamentError::NoBots => "tournament_no_bots",
            TournamentError::NeedsAccount => "account_required",
            TournamentError::NotOrganiser => "tournament_not_organiser",
            TournamentError::WrongState(_) => "tournament_state",
            TournamentError::TooFewPlayers => "tournament_too_few",
        }
    }
}

impl Settings {
    /// Checks the settings of a tournament made at `now`, trimming the name.
    pub fn check(mut self, now: Millis) -> Result<Settings, TournamentError> {
        self.name = self.name.trim().to_string();
        let chars = self.name.chars().count();
        if chars < NAME_CHARS.0 || chars > NAME_CHARS.1 || self.name.chars().any(char::is_control) {
            return Err(TournamentError::Name);
        }
        match self.format {
            Format::Swiss { rounds } if !(1..=MAX_ROUNDS).contains(&rounds) => {
                return Err(TournamentError::Rounds)
            }
            Format::RoundRobin { cycles } if !(1..=2).contains(&cycles) => {
                return Err(TournamentError::Cycles)
            }
            Format::Arena { minutes } if !(ARENA_MINUTES.0..=ARENA_MINUTES.1).contains(&minutes) => {
                return Err(TournamentError::Minutes)
            }
            _ => {}
        }
        if matches!(self.control, TimeControl::Correspondence { .. }) {
            return Err(TournamentError::Correspondence);
        }
        // A minute's slack: the form was filled in a moment ago.
        if self.starts_at + 60_000 < now || self.starts_at > now + MAX_LEAD_MS {
            return Err(TournamentError::StartTime);
        }
        let cap = match self.format {
            Format::RoundRobin { .. } => MAX_ROUND_ROBIN_PLAYERS as u32,
            _ => MAX_PLAYERS,
        };
        if !(2..=cap).contains(&self.max_players) {
            if matches!(self.format, Format::RoundRobin { .. }) && self.max_players > cap {
                self.max_players = cap;
            } else {
                return Err(TournamentError::MaxPlayers);
            }
        }
        if self.rated && crate::rating::Category::of(self.variant, self.control).is_none() {
            return Err(TournamentError::NotRatedVariant);
        }
        Ok(self)
    }
}

/// Where a tournament is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Taking entries, not started.
    Upcoming,
    /// Rounds are being played.
    Running,
    /// The organiser paused it: no new round or pairing.
    Paused,
    /// Over; the standings are final.
    Finished,
    /// Called off (by the organiser, or too few players at the start).
    Cancelled,
}

impl Status {
    /// The stored name.
    pub fn name(self) -> &'static str {
        match self {
            Status::Upcoming => "upcoming",
            Status::Running => "running",
            Status::Paused => "paused",
            Status::Finished => "finished",
            Status::Cancelled => "cancelled",
        }
    }

    /// The status named `s`.
    pub fn named(s: &str) -> Option<Status> {
        [
            Status::Upcoming,
            Status::Running,
            Status::Paused,
            Status::Finished,
            Status::Cancelled,
        ]
        .into_iter()
        .find(|x| x.name() == s)
    }
}

/// Who wants to enter, and what the tournament asks.
#[derive(Clone, Debug, PartialEq)]
pub struct Applicant {
    /// Has an account.
    pub registered: bool,
    /// Is a bot.
    pub bot: bool,
    /// Rating in the tournament's category.
    pub rating: Option<f64>,
    /// Showed the invitation secret.
    pub invited: bool,
}

/// Whether `who` may enter a tournament with `settings` that is `status`, has played `round`
/// rounds and has `entrants` players.
pub fn may_enter(
    settings: &Settings,
    status: Status,
    round: u32,
    entrants: usize,
    who: &Applicant,
) -> Result<(), TournamentError> {
    if !who.registered {
        return Err(TournamentError::NeedsAccount);
    }
    let open = match (status, settings.format) {
        (Status::Upcoming, _) => true,
        (Status::Running | Status::Paused, Format::Swiss { rounds }) => round < rounds,
        (Status::Running | Status::Paused, Format::Arena { .. }) => true,
        _ => false,
    };
    if !open {
        return Err(TournamentError::Closed);
    }
    if entrants as u32 >= settings.max_players {
        return Err(TournamentError::Full);
    }
    if who.bot && !settings.bots {
        return Err(TournamentError::NoBots);
    }
    if settings.invite_only && !who.invited {
        return Err(TournamentError::InviteOnly);
    }
    if let Some(min) = settings.min_rating {
        if who.rating.unwrap_or(crate::rating::START_RATING) < min as f64 {
            return Err(TournamentError::RatingTooLow(min));
        }
    }
    Ok(())
}

/// One entrant, by index in entry order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entrant {
    /// The name shown.
    pub name: String,
    /// The rating when they entered (the seed).
    pub rating: f64,
    /// The first round they could be paired in (1 for those in at the start).
    pub from_round: u32,
    /// Still in (not withdrawn or removed).
    pub active: bool,
}

/// One finished tournament game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Played {
    /// Round (an arena numbers its games in the order they began).
    pub round: u32,
    /// Black's entrant index.
    pub black: usize,
    /// White's entrant index.
    pub white: usize,
    /// Black's discs at the end.
    pub black_discs: u32,
    /// White's discs.
    pub white_discs: u32,
    /// Black's points: 1, ½ or 0.
    pub black_points: f64,
    /// Ended by a forfeit (a missed start) rather than on the board.
    pub forfeit: bool,
    /// The game's id.
    pub game: String,
}

/// The byes of a Swiss or round robin that has paired `rounds` rounds: each pairing bye is worth
/// 1; each round a late entrant missed ½; and in a round robin each game whose opponent had
/// withdrawn 1 (`scheduled_byes` are the pairing byes as stored: `(entrant, round)`).
pub fn byes(entrants: &[Entrant], scheduled_byes: &[(usize, u32)]) -> Vec<Bye> {
    let mut out: Vec<Bye> = scheduled_byes
        .iter()
        .map(|&(player, round)| Bye {
            player,
            round: round as usize,
            points: 1.0,
        })
        .collect();
    for (i, e) in entrants.iter().enumerate() {
        for round in 1..e.from_round {
            out.push(Bye {
                player: i,
                round: round as usize,
                points: 0.5,
            });
        }
    }
    out
}

/// A round to start: its games as `(black, white)` entrant indices, best board first, and who
/// has a bye.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The games.
    pub pairs: Vec<(usize, usize)>,
    /// The entrants with a bye this round (a round robin may give several once players leave).
    pub byes: Vec<usize>,
}

/// The Swiss pairings of the next round, given the games finished and the pairing byes had
/// (`(entrant, round)`).
pub fn next_swiss_round(entrants: &[Entrant], games: &[Played], pairing_byes: &[(usize, u32)]) -> Pairing {
    let mut ps: Vec<SwissPlayer> = entrants
        .iter()
        .map(|e| SwissPlayer {
            active: e.active,
            ..SwissPlayer::new(e.rating)
        })
        .collect();
    for g in games {
        ps[g.black].record(g.white, true, g.black_points);
        ps[g.white].record(g.black, false, 1.0 - g.black_points);
    }
    for b in byes(entrants, pairing_byes) {
        ps[b.player].points += b.points;
        if b.points >= 1.0 {
            ps[b.player].had_bye = true;
        }
    }
    let Round { pairs, bye } = swiss(&ps);
    Pairing {
        pairs,
        byes: bye.into_iter().collect(),
    }
}

/// Round `round` (from 1) of a round robin among `entrants`: the Berger table's games, less
/// those with a withdrawn entrant, whose opponent has a bye instead. `None` past the last round.
pub fn round_robin_round(entrants: &[Entrant], cycles: u32, round: u32) -> Option<Pairing> {
    let all = round_robin(entrants.len(), cycles as usize);
    let r = all.get((round as usize).checked_sub(1)?)?;
    let mut out = Pairing::default();
    for &(b, w) in &r.pairs {
        match (entrants[b].active, entrants[w].active) {
            (true, true) => out.pairs.push((b, w)),
            (true, false) => out.byes.push(b),
            (false, true) => out.byes.push(w),
            (false, false) => {}
        }
    }
    out.byes.extend(r.bye.filter(|&p| entrants[p].active));
    Some(out)
}

/// Arena points of each entrant from their games in the order they ended: win 2, draw 1,
/// doubled while on fire (after two wins in a row, until a game that is not a win). Returns the
/// points and whether each is on fire now.
pub fn arena_points(entrants: usize, games: &[Played]) -> (Vec<f64>, Vec<bool>) {
    let mut points = vec![0.0; entrants];
    let mut streak = vec![0u32; entrants];
    for g in games {
        for (p, mine) in [(g.black, g.black_points), (g.white, 1.0 - g.black_points)] {
            let fire = streak[p] >= 2;
            let base = if mine == 1.0 {
                2.0
            } else if mine == 0.5 {
                1.0
            } else {
                0.0
            };
            points[p] += if fire { 2.0 * base } else { base };
            streak[p] = if mine == 1.0 { streak[p] + 1 } else { 0 };
        }
    }
    let fire = streak.iter().map(|&s| s >= 2).collect();
    (points, fire)
}

/// How long two arena players who just met must both have waited before they are paired
/// with each other again (nobody else came free meanwhile).
pub const ARENA_REMATCH_AFTER_MS: Millis = 15_000;

/// One arena player waiting for a game.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaWaiter {
    /// Entrant index.
    pub player: usize,
    /// Arena points.
    pub points: f64,
    /// Rating (the seed).
    pub rating: f64,
    /// The last opponent, not met again at once when someone else waits.
    pub last_opponent: Option<usize>,
    /// Blacks minus whites so far.
    pub colour_diff: i64,
    /// Since when they wait (their last game's end, or their entry).
    pub since: Millis,
}

/// Pairs the waiting arena players at `now`: ranked by points, then rating, each with the next
/// one in rank who was not their last opponent. Two who just met meet again only when both
/// have waited [`ARENA_REMATCH_AFTER_MS`]; until then, and for an odd one out, they wait for
/// the next game to end. Returns `(black, white)`: the one with fewer blacks takes black.
pub fn arena_pairs(waiting: &[ArenaWaiter], now: Millis) -> Vec<(usize, usize)> {
    let mut order: Vec<&ArenaWaiter> = waiting.iter().collect();
    order.sort_by(|a, b| {
        b.points
            .total_cmp(&a.points)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.player.cmp(&b.player))
    });
    let waited = |w: &ArenaWaiter| now.saturating_sub(w.since) >= ARENA_REMATCH_AFTER_MS;
    let mut out = Vec::new();
    while order.len() >= 2 {
        let a = order.remove(0);
        let Some(j) = order.iter().position(|b| {
            let fresh = a.last_opponent != Some(b.player) && b.last_opponent != Some(a.player);
            fresh || (waited(a) && waited(b))
        }) else {
            continue;
        };
        let b = order.remove(j);
        if a.colour_diff <= b.colour_diff {
            out.push((a.player, b.player));
        } else {
            out.push((b.player, a.player));
        }
    }
    out
}

/// The standings and crosstable of a Swiss or round robin: `reversi-arena`'s table, with the
/// byes (`pairing_byes` as stored, `(entrant, round)`) and late entrants' half points.
pub fn crosstable(entrants: &[Entrant], games: &[Played], pairing_byes: &[(usize, u32)]) -> Crosstable {
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let records: Vec<GameRecord> = games.iter().map(record).collect();
    Crosstable::with_byes(&names, &records, &byes(entrants, pairing_byes))
}

/// The arena's standings: its points instead of the game points, the same tie-breaks.
pub fn arena_table(entrants: &[Entrant], games: &[Played]) -> (Crosstable, Vec<bool>) {
    let mut t = crosstable(entrants, games, &[]);
    let (points, fire) = arena_points(entrants.len(), games);
    for s in &mut t.standings {
        s.points = points[s.player];
    }
    t.standings.sort_by(|x, y| {
        y.points
            .total_cmp(&x.points)
            .then(y.bq.total_cmp(&x.bq))
            .then(y.discs.cmp(&x.discs))
            .then(x.player.cmp(&y.player))
    });
    (t, fire)
}

fn record(g: &Played) -> GameRecord {
    GameRecord {
        key: g.game.clone(),
        round: g.round as usize,
        black: g.black,
        white: g.white,
        opening: 0,
        moves: String::new(),
        black_discs: g.black_discs,
        white_discs: g.white_discs,
        black_points: g.black_points,
        forfeit: g.forfeit.then(|| "missed the start".to_string()),
        file: String::new(),
        clock_left: None,
    }
}

/// What a tournament should do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing yet.
    Wait,
    /// Start: pair round 1 (an arena: open the pool).
    Start,
    /// Too few players at the start: call it off.
    Cancel,
    /// Pair round `n`.
    Round(u32),
    /// Pair the waiting arena players.
    ArenaPair,
    /// It is over.
    Finish,
}

/// Where a tournament stands, as the next step needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// The status.
    pub status: Status,
    /// Rounds paired so far.
    pub round: u32,
    /// Entrants, withdrawn ones included (a round robin's schedule is fixed by them).
    pub entrants: usize,
    /// Active entrants.
    pub active: usize,
    /// Games of the tournament not over yet.
    pub unfinished: usize,
    /// When the last game of the current round ended (or the round was paired, if it had no
    /// game).
    pub round_done_at: Option<Millis>,
}

/// The next step of a tournament with `settings` at `now`.
pub fn next_step(settings: &Settings, p: &Progress, now: Millis) -> Step {
    match p.status {
        Status::Upcoming if now >= settings.starts_at => {
            if p.active < MIN_PLAYERS {
                Step::Cancel
            } else {
                Step::Start
            }
        }
        Status::Running => match settings.format {
            Format::Arena { minutes } => {
                let end = settings.starts_at + minutes as Millis * 60_000;
                if now >= end {
                    if p.unfinished == 0 {
                        Step::Finish
                    } else {
                        Step::Wait
                    }
                } else {
                    Step::ArenaPair
                }
            }
            _ => {
                if p.unfinished > 0 {
                    return Step::Wait;
                }
                let done = p.round_done_at.unwrap_or(0);
                if now < done + ROUND_BREAK_MS {
                    return Step::Wait;
                }
                // A round robin's schedule is fixed by the entry list, whoever left since.
                let total = settings.format.rounds(p.entrants).unwrap_or(0);
                if p.round >= total || p.active < MIN_PLAYERS {
                    Step::Finish
                } else {
                    Step::Round(p.round + 1)
                }
            }
        },
        _ => Step::Wait,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrants(n: usize) -> Vec<Entrant> {
        (0..n)
            .map(|i| Entrant {
                name: format!("p{i}"),
                rating: 2000.0 - i as f64 * 10.0,
                from_round: 1,
                active: true,
            })
            .collect()
    }

    fn played(round: u32, black: usize, white: usize, bd: u32, wd: u32) -> Played {
        Played {
            round,
            black,
            white,
            black_discs: bd,
            white_discs: wd,
            black_points: match bd.cmp(&wd) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            },
            forfeit: false,
            game: format!("g{round}{black}{white}"),
        }
    }

    fn settings(format: Format) -> Settings {
        Settings {
            name: "  Club night ".into(),
            format,
            variant: Variant::Othello,
            control: TimeControl::fischer(180, 2).unwrap(),
            rated: true,
            starts_at: 1_000_000,
            min_rating: None,
            invite_only: false,
            bots: false,
            max_players: 64,
        }
    }

    #[test]
    fn settings_are_checked() {
        let ok = settings(Format::Swiss { rounds: 5 }).check(1_000_000).unwrap();
        assert_eq!(ok.name, "Club night");
        let bad = |s: Settings| s.check(1_000_000).unwrap_err();
        assert_eq!(
            bad(Settings {
                name: "ab".into(),
                ..ok.clone()
            }),
            TournamentError::Name
        );
        assert_eq!(
            bad(settings(Format::Swiss { rounds: 0 })),
            TournamentError::Rounds
        );
        assert_eq!(
            bad(settings(Format::RoundRobin { cycles: 3 })),
            TournamentError::Cycles
        );
        assert_eq!(
            bad(settings(Format::Arena { minutes: 1 })),
            TournamentError::Minutes
        );
        let corr = Settings {
            control: TimeControl::correspondence(3).unwrap(),
            ..ok.clone()
        };
        assert_eq!(bad(corr), TournamentError::Correspondence);
        assert_eq!(
            bad(Settings {
                starts_at: 1,
                ..ok.clone()
            }),
            TournamentError::StartTime
        );
        assert_eq!(
            bad(Settings {
                max_players: 1,
                ..ok.clone()
            }),
            TournamentError::MaxPlayers
        );
        let rr = settings(Format::RoundRobin { cycles: 2 })
            .check(1_000_000)
            .unwrap();
        assert_eq!(rr.max_players, MAX_ROUND_ROBIN_PLAYERS as u32);
        assert_eq!(Format::RoundRobin { cycles: 2 }.rounds(6), Some(10));
        assert_eq!(Format::RoundRobin { cycles: 1 }.rounds(5), Some(5));
    }

    #[test]
    fn who_may_enter() {
        let s = Settings {
            min_rating: Some(1600),
            invite_only: true,
            ..settings(Format::Swiss { rounds: 3 })
        };
        let who = Applicant {
            registered: true,
            bot: false,
            rating: Some(1700.0),
            invited: true,
        };
        assert_eq!(may_enter(&s, Status::Upcoming, 0, 3, &who), Ok(()));
        // Late entry to a Swiss until its last round is paired.
        assert_eq!(may_enter(&s, Status::Running, 2, 3, &who), Ok(()));
        assert_eq!(
            may_enter(&s, Status::Running, 3, 3, &who),
            Err(TournamentError::Closed)
        );
        let rr = settings(Format::RoundRobin { cycles: 1 });
        assert_eq!(
            may_enter(&rr, Status::Running, 1, 3, &who),
            Err(TournamentError::Closed)
        );
        assert_eq!(
            may_enter(
                &s,
                Status::Upcoming,
                0,
                3,
                &Applicant {
                    rating: Some(1500.0),
                    ..who.clone()
                }
            ),
            Err(TournamentError::RatingTooLow(1600))
        );
        assert_eq!(
            may_enter(
                &s,
                Status::Upcoming,
                0,
                3,
                &Applicant {
                    invited: false,
                    ..who.clone()
                }
            ),
            Err(TournamentError::InviteOnly)
        );
        assert_eq!(
            may_enter(
                &s,
                Status::Upcoming,
                0,
                3,
                &Applicant {
                    bot: true,
                    ..who.clone()
                }
            ),
            Err(TournamentError::NoBots)
        );
        assert_eq!(
            may_enter(&s, Status::Upcoming, 0, 64, &who),
            Err(TournamentError::Full)
        );
        assert_eq!(
            may_enter(
                &s,
                Status::Upcoming,
                0,
                3,
                &Applicant {
                    registered: false,
                    ..who
                }
            ),
            Err(TournamentError::NeedsAccount)
        );
    }

    #[test]
    fn late_entrants_get_half_points_and_may_still_have_a_bye() {
        let mut es = entrants(4);
        es.push(Entrant {
            from_round: 3,
            ..es[3].clone()
        });
        es[4].name = "late".into();
        let games = [
            played(1, 0, 1, 40, 24),
            played(1, 2, 3, 40, 24),
            played(2, 2, 0, 30, 34),
            played(2, 1, 3, 32, 32),
        ];
        let t = crosstable(&es, &games, &[]);
        let late = t.standings.iter().find(|s| s.name == "late").unwrap();
        assert_eq!((late.points, late.byes), (1.0, 2));
        // Round 3: five players, the bye to the lowest ranked who has had no pairing bye.
        let p = next_swiss_round(&es, &games, &[]);
        assert_eq!(p.pairs.len(), 2);
        assert_eq!(p.byes.len(), 1);
        // p3 (½ point, lowest) takes it, not the late entrant (1 point from half-point byes).
        assert_eq!(p.byes, [3]);
    }

    #[test]
    fn a_withdrawn_round_robin_player_gives_byes() {
        let mut es = entrants(4);
        let r1 = round_robin_round(&es, 1, 1).unwrap();
        assert_eq!((r1.pairs.len(), r1.byes.len()), (2, 0));
        es[2].active = false;
        let r2 = round_robin_round(&es, 1, 2).unwrap();
        assert_eq!((r2.pairs.len(), r2.byes.len()), (1, 1));
        assert!(!r2.byes.contains(&2));
        assert!(round_robin_round(&es, 1, 4).is_none());
    }

    #[test]
    fn arena_scoring_doubles_on_fire() {
        // p0 wins three in a row, draws, then wins: 2 + 2 + 4 + 2 (draw on fire) + 2.
        let games = [
            played(1, 0, 1, 40, 24),
            played(2, 0, 2, 40, 24),
            played(3, 3, 0, 20, 44),
            played(4, 0, 1, 32, 32),
            played(5, 2, 0, 10, 54),
        ];
        let (points, fire) = arena_points(4, &games);
        assert_eq!(points[0], 12.0);
        assert_eq!(points[1], 1.0);
        assert!(!fire[0]);
        let (t, _) = arena_table(&entrants(4), &games);
        assert_eq!(t.standings[0].name, "p0");
        assert_eq!(t.standings[0].points, 12.0);
    }

    #[test]
    fn arena_pairs_by_score_and_avoids_the_last_opponent() {
        let w = |player, points, last| ArenaWaiter {
            player,
            points,
            rating: 1500.0,
            last_opponent: last,
            colour_diff: 0,
            since: 100_000,
        };
        let now = 100_000;
        let pairs = arena_pairs(
            &[
                w(0, 4.0, Some(1)),
                w(1, 4.0, Some(0)),
                w(2, 2.0, None),
                w(3, 0.0, None),
            ],
            now,
        );
        assert_eq!(pairs, [(0, 2), (1, 3)]);
        // Only the last opponent waits: they meet again once both have waited a while.
        let two = [w(0, 4.0, Some(1)), w(1, 2.0, Some(0))];
        assert!(arena_pairs(&two, now).is_empty());
        assert!(arena_pairs(&two, now + ARENA_REMATCH_AFTER_MS - 1).is_empty());
        assert_eq!(arena_pairs(&two, now + ARENA_REMATCH_AFTER_MS), [(0, 1)]);
        assert!(arena_pairs(&[w(5, 0.0, None)], now).is_empty());
    }

    #[test]
    fn life_cycle_steps() {
        let s = settings(Format::Swiss { rounds: 2 });
        let p = |status, round, active, unfinished, done| Progress {
            status,
            round,
            entrants: active,
            active,
            unfinished,
            round_done_at: done,
        };
        assert_eq!(
            next_step(&s, &p(Status::Upcoming, 0, 5, 0, None), 999_999),
            Step::Wait
        );
        assert_eq!(
            next_step(&s, &p(Status::Upcoming, 0, 5, 0, None), 1_000_000),
            Step::Start
        );
        assert_eq!(
            next_step(&s, &p(Status::Upcoming, 0, 1, 0, None), 1_000_000),
            Step::Cancel
        );
        assert_eq!(
            next_step(&s, &p(Status::Running, 1, 5, 2, None), 2_000_000),
            Step::Wait
        );
        let done = Some(2_000_000);
        assert_eq!(
            next_step(&s, &p(Status::Running, 1, 5, 0, done), 2_000_000),
            Step::Wait
        );
        assert_eq!(
            next_step(&s, &p(Status::Running, 1, 5, 0, done), 2_000_000 + ROUND_BREAK_MS),
            Step::Round(2)
        );
        assert_eq!(
            next_step(&s, &p(Status::Running, 2, 5, 0, done), 3_000_000),
            Step::Finish
        );
        assert_eq!(
            next_step(&s, &p(Status::Paused, 1, 5, 0, done), 3_000_000),
            Step::Wait
        );
        let a = settings(Format::Arena { minutes: 10 });
        assert_eq!(
            next_step(&a, &p(Status::Running, 0, 5, 2, None), 1_100_000),
            Step::ArenaPair
        );
        let end = 1_000_000 + 600_000;
        assert_eq!(next_step(&a, &p(Status::Running, 0, 5, 2, None), end), Step::Wait);
        assert_eq!(
            next_step(&a, &p(Status::Running, 0, 5, 0, None), end),
            Step::Finish
        );
    }
}
