//! Tournaments on the site: made, entered and run here, decided by `reversi_site::tournament`
//! (which pairs through `reversi-arena`, the engine runner's pairer and crosstable).
//!
//! A task ticks every running tournament once a second on every instance ([`TICK_EVERY`]), and
//! a tournament at once when one of its games ends at this instance (the game room's news). A
//! tick makes any pairing's game that does not exist yet (its instance stopped in between),
//! then takes the tournament's next step: start, pair a round, pair the arena's waiting
//! players, finish. A round is claimed in the database with its pairings (one instance's
//! `UPDATE` wins), so it starts once however many instances tick; the standings are computed
//! from the stored games each time, so a result is counted once and a restart loses nothing.
//!
//! Pages follow a tournament through its websocket ([`crate::tournament_ws`]): every stored
//! change of one is announced, at this instance and through `NOTIFY` at the others.

use crate::client::ClientAddr;
use crate::db::{EntrantRow, NewPairing, PairingRow, TournamentRow};
use crate::error::{Error, Result};
use crate::extract::{ApiQuery, Caller, JsonBody, OptionalJsonBody};
use crate::lobby::{Entrant, NewOnline};
use crate::secret::random_string;
use crate::session::Identity;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use reversi_core::Variant;
use reversi_site::clock::TimeControl;
use reversi_site::rating::Category;
use reversi_site::tournament::{
    self as rules, Applicant, Format, Played, Progress, Settings, Status, Step, TournamentError,
};
use reversi_site_api as wire;
use reversi_site_api::TournamentChatLine;
use serde::Deserialize;
use std::str::FromStr;
use std::time::Duration;

/// How often every running tournament is looked at.
pub const TICK_EVERY: Duration = Duration::from_secs(1);
/// Tournaments one organiser may have upcoming or running at once.
pub const OPEN_PER_ORGANISER: i64 = 5;
/// Chat lines a tournament page shows.
pub const CHAT_LINES: u32 = 100;
/// Tournaments each part of the list shows.
pub const LIST_LIMIT: u32 = 50;
/// An arena's page lists the pairing batches holding its latest this many games.
pub const ARENA_GAMES_SHOWN: usize = 60;

/// Query of `GET /api/tournaments/{id}`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ViewQuery {
    /// The invitation secret (shown to the page from the link).
    pub invite: Option<String>,
}

fn site_error(e: TournamentError) -> Error {
    match e {
        TournamentError::NotOrganiser => Error::Conflict("tournament_not_organiser", e.to_string()),
        TournamentError::NeedsAccount => Error::Unauthorized("not_signed_in", e.to_string()),
        TournamentError::Closed
        | TournamentError::Full
        | TournamentError::WrongState(_)
        | TournamentError::TooFewPlayers
        | TournamentError::InviteOnly
        | TournamentError::NoBots
        | TournamentError::RatingTooLow(_) => Error::Conflict(e.code(), e.to_string()),
        e => Error::Invalid(Error::site_code(e.code()), e.to_string()),
    }
}

/// The settings stored in `t`.
fn settings_of(t: &TournamentRow) -> Result<Settings> {
    let bad = |what: &str| Error::Internal(format!("tournament {}: bad stored {what}", t.id));
    let size = t.size.max(0) as u32;
    let format = match t.format.as_str() {
        "swiss" => Format::Swiss { rounds: size },
        "round_robin" => Format::RoundRobin { cycles: size },
        "arena" => Format::Arena { minutes: size },
        _ => return Err(bad("format")),
    };
    Ok(Settings {
        name: t.name.clone(),
        format,
        variant: Variant::from_str(&t.variant).map_err(|_| bad("variant"))?,
        control: TimeControl::from_str(&t.control).map_err(|_| bad("control"))?,
        rated: t.rated,
        starts_at: t.starts_at.max(0) as u64,
        min_rating: t.min_rating.map(|r| r as i32),
        invite_only: t.invite.is_some(),
        bots: t.bots,
        max_players: t.max_players.max(0) as u32,
    })
}

fn status_of(t: &TournamentRow) -> Status {
    Status::named(&t.status).unwrap_or(Status::Cancelled)
}

fn entrants_of(rows: &[EntrantRow]) -> Vec<rules::Entrant> {
    rows.iter()
        .map(|e| rules::Entrant {
            name: e.name.clone(),
            rating: e.rating,
            from_round: e.from_round.max(1) as u32,
            active: e.active,
        })
        .collect()
}

/// Whether a pairing's game is still to be played (or to be made).
fn unfinished(p: &PairingRow) -> bool {
    p.game_id.is_some() && p.status.as_deref().is_none_or(|s| s == "playing")
}

/// The pairings between entrants that exist (a damaged row naming no entrant is left out, so
/// that it cannot break the standings).
fn sound(pairings: &[PairingRow], entrants: usize) -> impl Iterator<Item = &PairingRow> {
    let ok = move |i: i64| i >= 0 && (i as usize) < entrants;
    pairings
        .iter()
        .filter(move |p| ok(p.black) && p.white.is_none_or(ok))
}

/// The finished games of the pairings, in the order they ended, as the standings count them.
/// Aborted and abandoned games count nothing.
fn played(pairings: &[PairingRow], entrants: usize) -> Vec<Played> {
    let mut out: Vec<(i64, Played)> = sound(pairings, entrants)
        .filter(|p| p.status.as_deref() == Some("finished"))
        .filter_map(|p| {
            let white = p.white?;
            let black_points = match p.winner.as_deref() {
                Some("black") => 1.0,
                Some("white") => 0.0,
                _ => 0.5,
            };
            Some((
                p.finished_at.unwrap_or(0),
                Played {
                    round: p.round.max(0) as u32,
                    black: p.black.max(0) as usize,
                    white: white.max(0) as usize,
                    black_discs: p.black_count.max(0) as u32,
                    white_discs: p.white_count.max(0) as u32,
                    black_points,
                    // A game lost on time before the loser's first move was never started.
                    forfeit: p.flagged.is_some() && p.moves <= 1,
                    game: p.game_id.clone().unwrap_or_default(),
                },
            ))
        })
        .collect();
    out.sort_by_key(|(at, g)| (*at, g.round));
    out.into_iter().map(|(_, g)| g).collect()
}

/// The pairing byes as stored: `(entrant, round)`.
fn pairing_byes(pairings: &[PairingRow], entrants: usize) -> Vec<(usize, u32)> {
    sound(pairings, entrants)
        .filter(|p| p.white.is_none())
        .map(|p| (p.black.max(0) as usize, p.round.max(0) as u32))
        .collect()
}

impl AppState {
    /// Makes a tournament organised by `who`; returns its row.
    pub async fn create_tournament(&self, who: &Identity, b: wire::NewTournament) -> Result<TournamentRow> {
        let user = who.require_user()?;
        if user.bot {
            return Err(Error::Conflict(
                "tournament_not_organiser",
                "bots cannot organise tournaments".into(),
            ));
        }
        let now = self.clock().clock_ms();
        let format = match b.format.as_str() {
            "swiss" => Format::Swiss {
                rounds: b.rounds.unwrap_or(5),
            },
            "round_robin" => Format::RoundRobin {
                cycles: b.cycles.unwrap_or(1),
            },
            "arena" => Format::Arena {
                minutes: b.minutes.unwrap_or(60),
            },
            other => {
                return Err(Error::BadRequest(format!(
                    "format must be swiss, round_robin or arena, not {other:?}"
                )))
            }
        };
        let variant = Variant::from_str(b.variant.as_deref().unwrap_or("othello"))
            .map_err(|e| Error::BadRequest(format!("variant: {e}")))?;
        let control = TimeControl::from_str(&b.control)
            .map_err(|e| Error::Invalid("bad_control", format!("control {:?}: {e}", b.control)))?;
        let starts_at = match (b.starts_at, b.starts_in_minutes) {
            (Some(at), _) => at,
            (None, m) => now + m.unwrap_or(5).min(60 * 24 * 30) as u64 * 60_000,
        };
        let settings = Settings {
            name: b.name,
            format,
            variant,
            control,
            rated: b.rated,
            starts_at,
            min_rating: b.min_rating,
            invite_only: b.invite_only,
            bots: b.bots,
            max_players: b.max_players.unwrap_or(match format {
                Format::RoundRobin { .. } => rules::MAX_ROUND_ROBIN_PLAYERS as u32,
                _ => 200,
            }),
        }
        .check(now)
        .map_err(site_error)?;
        let (format_name, size) = match settings.format {
            Format::Swiss { rounds } => ("swiss", rounds),
            Format::RoundRobin { cycles } => ("round_robin", cycles),
            Format::Arena { minutes } => ("arena", minutes),
        };
        let row = TournamentRow {
            id: random_string(8),
            name: settings.name.clone(),
            organiser: user.id.clone(),
            organiser_name: Some(user.name.clone()),
            format: format_name.into(),
            size: size as i64,
            variant: variant.to_string(),
            control: control.to_string(),
            rated: settings.rated,
            bots: settings.bots,
            min_rating: settings.min_rating.map(i64::from),
            invite: settings.invite_only.then(|| random_string(16)),
            max_players: settings.max_players as i64,
            starts_at: settings.starts_at as i64,
            status: "upcoming".into(),
            round: 0,
            round_at: None,
            finished_at: None,
            version: 0,
            players: 0,
        };
        if !self
            .db()
            .tournaments()
            .insert_tournament_capped(&row, now as i64, OPEN_PER_ORGANISER)
            .await?
        {
            return Err(Error::Conflict(
                "tournament_limit",
                format!("you organise {OPEN_PER_ORGANISER} tournaments not over yet: wait for one to end"),
            ));
        }
        Ok(row)
    }

    async fn tournament_row(&self, id: &str) -> Result<TournamentRow> {
        self.db()
            .tournaments()
            .tournament(id)
            .await?
            .ok_or(Error::NotFound)
    }

    /// Tournament `id` and its entrants, if `who` may know of it: anyone a public tournament;
    /// an invitation-only one its organiser, those who entered it, and whoever has its link
    /// (`invite`). To everyone else it answers `NotFound`, exactly as a tournament that does not
    /// exist — every route, reading or acting, asks here first, so none tells them apart.
    async fn visible_tournament(
        &self,
        id: &str,
        who: &Identity,
        invite: Option<&str>,
    ) -> Result<(TournamentRow, Vec<EntrantRow>)> {
        let t = self.tournament_row(id).await?;
        let entrants = self.db().tournaments().entrants(id).await?;
        if let Some(secret) = t.invite.as_deref() {
            let inside = who
                .user()
                .is_some_and(|u| u.id == t.organiser || entrants.iter().any(|e| e.user_id == u.id));
            let has_link = invite.is_some_and(|given| crate::secret::same(secret, given));
            if !inside && !has_link {
                return Err(Error::NotFound);
            }
        }
        Ok((t, entrants))
    }

    /// Enters `who` into tournament `id` (`invite`: the secret of the invitation link).
    pub async fn join_tournament(&self, id: &str, who: &Identity, invite: Option<&str>) -> Result<()> {
        let user = who.require_user()?;
        let (t, entrants) = self.visible_tournament(id, who, invite).await?;
        let settings = settings_of(&t)?;
        let rating = self.rating_for(&settings, &user.id).await?;
        if let Some(e) = entrants.iter().find(|e| e.user_id == user.id) {
            if e.active {
                return Ok(());
            }
            if e.removed {
                return Err(Error::Conflict(
                    "tournament_removed",
                    "the organiser took you out of this tournament".into(),
                ));
            }
            // Back after withdrawing: the entry rules still apply (entries may have closed).
            rules::may_enter(
                &settings,
                status_of(&t),
                t.round as u32,
                0,
                &self.applicant(who, &t, invite, rating),
            )
            .map_err(site_error)?;
            self.db()
                .tournaments()
                .set_entrant(id, &user.id, true, false)
                .await?;
            return Ok(());
        }
        rules::may_enter(
            &settings,
            status_of(&t),
            t.round as u32,
            entrants.len(),
            &self.applicant(who, &t, invite, rating),
        )
        .map_err(site_error)?;
        // A late entrant to a Swiss starts with the next round (a half point for each before).
        let from_round = match settings.format {
            Format::Swiss { .. } => t.round + 1,
            _ => 1,
        };
        let now = self.clock().now_ms();
        if !self
            .db()
            .tournaments()
            .add_entrant(
                id,
                &user.id,
                &user.name,
                user.bot,
                rating,
                from_round,
                t.max_players,
                now,
            )
            .await?
        {
            return Err(site_error(TournamentError::Full));
        }
        Ok(())
    }

    /// Account `user`'s rating in the category of a tournament with `settings` (the start
    /// rating for a variant without rated play).
    async fn rating_for(&self, settings: &Settings, user: &str) -> Result<f64> {
        Ok(match Category::of(settings.variant, settings.control) {
            Some(c) => self.db().ratings().rating(user, c).await?.rating,
            None => reversi_site::rating::START_RATING,
        })
    }

    fn applicant(&self, who: &Identity, t: &TournamentRow, invite: Option<&str>, rating: f64) -> Applicant {
        let invited = match (&t.invite, invite) {
            (None, _) => true,
            (Some(secret), Some(given)) => crate::secret::same(secret, given),
            (Some(_), None) => false,
        };
        Applicant {
            registered: who.user().is_some(),
            bot: who.user().is_some_and(|u| u.bot),
            rating: Some(rating),
            invited: invited || who.user().is_some_and(|u| u.id == t.organiser),
        }
    }

    /// Takes `who` out of tournament `id`: before the start the entry goes; after it they are
    /// paired no more (and may come back while entries are open).
    pub async fn withdraw(&self, id: &str, who: &Identity) -> Result<()> {
        let user = who.require_user()?;
        let (t, _) = self.visible_tournament(id, who, None).await?;
        if status_of(&t) == Status::Upcoming {
            self.db().tournaments().delete_entrant(id, &user.id).await?;
        } else {
            self.db()
                .tournaments()
                .set_entrant(id, &user.id, false, false)
                .await?;
        }
        Ok(())
    }

    /// The organiser's actions: `pause`, `resume`, `cancel`, or `remove` (`name`).
    pub async fn organise(&self, id: &str, who: &Identity, action: &str, name: Option<&str>) -> Result<()> {
        let user = who.require_user()?;
        let (t, _) = self.visible_tournament(id, who, None).await?;
        if t.organiser != user.id {
            return Err(site_error(TournamentError::NotOrganiser));
        }
        let now = self.clock().now_ms();
        let changed = match action {
            // The organiser starts it now instead of at its time (the entrants are there).
            "start" => {
                let active = self
                    .db()
                    .tournaments()
                    .entrants(id)
                    .await?
                    .iter()
                    .filter(|e| e.active)
                    .count();
                if status_of(&t) == Status::Upcoming && active < rules::MIN_PLAYERS {
                    return Err(site_error(TournamentError::TooFewPlayers));
                }
                let moved = self.db().tournaments().start_now(id, now).await?;
                if moved {
                    self.tick_tournament(id).await?;
                }
                moved
            }
            "pause" => {
                self.db()
                    .tournaments()
                    .set_tournament_status(id, &["running"], "paused", now)
                    .await?
            }
            "resume" => {
                self.db()
                    .tournaments()
                    .set_tournament_status(id, &["paused"], "running", now)
                    .await?
            }
            "cancel" => {
                self.db()
                    .tournaments()
                    .set_tournament_status(id, &["upcoming", "running", "paused"], "cancelled", now)
                    .await?
            }
            "remove" => {
                let name = name.unwrap_or_default();
                let e = self
                    .db()
                    .tournaments()
                    .entrants(id)
                    .await?
                    .into_iter()
                    .find(|e| e.name.eq_ignore_ascii_case(name))
                    .ok_or(Error::NotFound)?;
                if status_of(&t) == Status::Upcoming {
                    self.db().tournaments().delete_entrant(id, &e.user_id).await?
                } else {
                    self.db()
                        .tournaments()
                        .set_entrant(id, &e.user_id, false, true)
                        .await?
                }
            }
            _ => return Err(Error::NotFound),
        };
        if !changed {
            return Err(site_error(TournamentError::WrongState(match status_of(&t) {
                Status::Upcoming => "upcoming",
                Status::Running => "running",
                Status::Paused => "paused",
                Status::Finished => "finished",
                Status::Cancelled => "cancelled",
            })));
        }
        Ok(())
    }

    /// Cancels tournament `id`, which is not over, for a moderator.
    pub async fn cancel_tournament(&self, id: &str) -> Result<()> {
        let t = self.tournament_row(id).await?;
        let now = self.clock().now_ms();
        if !self
            .db()
            .tournaments()
            .set_tournament_status(id, &["upcoming", "running", "paused"], "cancelled", now)
            .await?
        {
            return Err(site_error(TournamentError::WrongState(match status_of(&t) {
                Status::Finished => "finished",
                _ => "cancelled",
            })));
        }
        Ok(())
    }

    /// One look at tournament `id`: make missing games, then take the next step.
    pub async fn tick_tournament(&self, id: &str) -> Result<()> {
        let _one_at_a_time = self.inner.tournament_tick.lock().await;
        let t = self.tournament_row(id).await?;
        let settings = settings_of(&t)?;
        let entrants = self.db().tournaments().entrants(id).await?;
        let pairings = self.db().tournaments().pairings(id).await?;
        for p in pairings.iter().filter(|p| p.game_id.is_some() && !p.created) {
            self.make_game(&t, &settings, &entrants, p).await?;
        }
        let now = self.clock().clock_ms();
        let current: Vec<&PairingRow> = pairings.iter().filter(|p| p.round == t.round).collect();
        let round_done_at = current
            .iter()
            .filter_map(|p| p.finished_at)
            .chain(t.round_at)
            .max()
            .map(|x| x.max(0) as u64);
        let progress = Progress {
            status: status_of(&t),
            round: t.round.max(0) as u32,
            entrants: entrants.len(),
            active: entrants.iter().filter(|e| e.active).count(),
            unfinished: pairings.iter().filter(|p| unfinished(p)).count(),
            round_done_at,
        };
        let now_i = now as i64;
        match rules::next_step(&settings, &progress, now) {
            Step::Wait => {}
            Step::Cancel => {
                self.db()
                    .tournaments()
                    .set_tournament_status(id, &["upcoming"], "cancelled", now_i)
                    .await?;
            }
            Step::Finish => {
                self.db()
                    .tournaments()
                    .set_tournament_status(id, &["running"], "finished", now_i)
                    .await?;
            }
            Step::Start => {
                if self
                    .db()
                    .tournaments()
                    .set_tournament_status(id, &["upcoming"], "running", now_i)
                    .await?
                    && !matches!(settings.format, Format::Arena { .. })
                {
                    self.pair_round(&t, &settings, &entrants, &pairings, 1).await?;
                }
            }
            Step::Round(n) => self.pair_round(&t, &settings, &entrants, &pairings, n).await?,
            Step::ArenaPair => self.pair_arena(&t, &settings, &entrants, &pairings).await?,
        }
        Ok(())
    }

    async fn pair_round(
        &self,
        t: &TournamentRow,
        settings: &Settings,
        entrants: &[EntrantRow],
        pairings: &[PairingRow],
        round: u32,
    ) -> Result<()> {
        let es = entrants_of(entrants);
        let pairing = match settings.format {
            Format::Swiss { .. } => rules::next_swiss_round(
                &es,
                &played(pairings, entrants.len()),
                &pairing_byes(pairings, entrants.len()),
            ),
            Format::RoundRobin { cycles } => match rules::round_robin_round(&es, cycles, round) {
                Some(p) => p,
                None => return Ok(()),
            },
            Format::Arena { .. } => return Ok(()),
        };
        let mut new: Vec<NewPairing> = pairing
            .pairs
            .iter()
            .enumerate()
            .map(|(i, &(b, w))| NewPairing {
                board: i as i64 + 1,
                black: b as i64,
                white: Some(w as i64),
                game_id: Some(random_string(10)),
            })
            .collect();
        let boards = new.len() as i64;
        new.extend(pairing.byes.iter().enumerate().map(|(i, &p)| NewPairing {
            board: boards + i as i64 + 1,
            black: p as i64,
            white: None,
            game_id: None,
        }));
        self.claim_and_make(t, settings, entrants, round as i64, &new)
            .await
    }

    async fn pair_arena(
        &self,
        t: &TournamentRow,
        settings: &Settings,
        entrants: &[EntrantRow],
        pairings: &[PairingRow],
    ) -> Result<()> {
        let busy: std::collections::HashSet<i64> = pairings
            .iter()
            .filter(|p| unfinished(p))
            .flat_map(|p| [Some(p.black), p.white])
            .flatten()
            .collect();
        let games = played(pairings, entrants.len());
        let (points, _) = rules::arena_points(entrants.len(), &games);
        let mut last = vec![None; entrants.len()];
        let mut diff = vec![0i64; entrants.len()];
        let mut since: Vec<u64> = entrants.iter().map(|e| e.joined_at.max(0) as u64).collect();
        for p in pairings {
            if let Some(w) = p.white {
                let (b, w) = (p.black as usize, w as usize);
                if b < last.len() && w < last.len() {
                    last[b] = Some(w);
                    last[w] = Some(b);
                    diff[b] += 1;
                    diff[w] -= 1;
                    let end = p.finished_at.unwrap_or(0).max(0) as u64;
                    since[b] = since[b].max(end);
                    since[w] = since[w].max(end);
                }
            }
        }
        let waiting: Vec<rules::ArenaWaiter> = entrants
            .iter()
            .enumerate()
            .filter(|(i, e)| e.active && !busy.contains(&(*i as i64)))
            .map(|(i, e)| rules::ArenaWaiter {
                player: i,
                points: points[i],
                rating: e.rating,
                last_opponent: last[i],
                colour_diff: diff[i],
                since: since[i],
            })
            .collect();
        if waiting.len() < 2 {
            return Ok(());
        }
        let new: Vec<NewPairing> = rules::arena_pairs(&waiting, self.clock().clock_ms())
            .into_iter()
            .enumerate()
            .map(|(i, (b, w))| NewPairing {
                board: i as i64 + 1,
                black: b as i64,
                white: Some(w as i64),
                game_id: Some(random_string(10)),
            })
            .collect();
        self.claim_and_make(t, settings, entrants, t.round + 1, &new)
            .await
    }

    async fn claim_and_make(
        &self,
        t: &TournamentRow,
        settings: &Settings,
        entrants: &[EntrantRow],
        round: i64,
        new: &[NewPairing],
    ) -> Result<()> {
        let now = self.clock().now_ms();
        if !self
            .db()
            .tournaments()
            .claim_round(&t.id, round, new, now)
            .await?
        {
            return Ok(());
        }
        for p in new.iter().filter(|p| p.game_id.is_some()) {
            let row = PairingRow {
                round,
                board: p.board,
                black: p.black,
                white: p.white,
                game_id: p.game_id.clone(),
                created: false,
                status: None,
                black_count: 2,
                white_count: 2,
                winner: None,
                flagged: None,
                moves: 0,
                finished_at: None,
            };
            self.make_game(t, settings, entrants, &row).await?;
        }
        Ok(())
    }

    /// Makes the game of pairing `p` (unless another instance made it first).
    async fn make_game(
        &self,
        t: &TournamentRow,
        settings: &Settings,
        entrants: &[EntrantRow],
        p: &PairingRow,
    ) -> Result<()> {
        let (Some(id), Some(w)) = (p.game_id.clone(), p.white) else {
            return Ok(());
        };
        let (Some(black), Some(white)) = (entrants.get(p.black as usize), entrants.get(w as usize)) else {
            return Err(Error::Internal(format!(
                "tournament {}: a pairing of no entrant",
                t.id
            )));
        };
        let category = Category::of(settings.variant, settings.control);
        let seat = |e: &EntrantRow| {
            let key = e.user_id.clone();
            let name = e.name.clone();
            let bot = e.bot;
            async move {
                let rating = match category {
                    Some(c) => Some(self.db().ratings().rating(&key, c).await?),
                    None => None,
                };
                Ok::<Entrant, Error>(Entrant {
                    key,
                    name: Some(name),
                    bot,
                    rating,
                })
            }
        };
        let (b, wh) = (seat(black).await?, seat(white).await?);
        let game = NewOnline {
            id: id.clone(),
            tournament: Some(t.id.clone()),
            variant: settings.variant,
            control: settings.control,
            rated: settings.rated && !(black.bot && white.bot),
            private: t.invite.is_some(),
        };
        match self.create_online_game(b, wh, game).await {
            Ok(_) => {}
            Err(Error::Database(sqlx::Error::Database(d))) if d.is_unique_violation() => {}
            Err(e) => return Err(e),
        }
        self.db().tournaments().pairing_created(&t.id, &id).await
    }

    /// The tournaments list as `who` sees it: upcoming (soonest first), running and finished
    /// (latest first), those by invitation only to those who may know of them.
    pub async fn tournament_list(&self, who: &Identity) -> Result<wire::TournamentList> {
        let viewer = who.user().map(|u| u.id.as_str());
        let part = |status: &'static str| async move {
            let rows = self
                .db()
                .tournaments()
                .tournaments(status, viewer, LIST_LIMIT)
                .await?;
            Ok::<_, Error>(rows.iter().map(list_item).collect())
        };
        Ok(wire::TournamentList {
            upcoming: part("upcoming").await?,
            running: part("running").await?,
            finished: part("finished").await?,
            now: self.clock().now_ms(),
        })
    }

    /// Everything the tournament page shows, for `who`.
    pub async fn tournament_view(
        &self,
        id: &str,
        who: &Identity,
        invite: Option<&str>,
    ) -> Result<wire::TournamentView> {
        let (t, entrants) = self.visible_tournament(id, who, invite).await?;
        let settings = settings_of(&t)?;
        let pairings = self.db().tournaments().pairings(id).await?;
        let me = who.user();
        let my_index = me.and_then(|u| entrants.iter().position(|e| e.user_id == u.id));
        let organiser = me.is_some_and(|u| u.id == t.organiser);
        let es = entrants_of(&entrants);
        let games = played(&pairings, entrants.len());
        let name = |i: i64| entrants.get(i.max(0) as usize).map(|e| e.name.clone());
        let is_arena = matches!(settings.format, Format::Arena { .. });
        let (table, fire) = if is_arena {
            rules::arena_table(&es, &games)
        } else {
            (
                rules::crosstable(&es, &games, &pairing_byes(&pairings, entrants.len())),
                vec![false; es.len()],
            )
        };
        let standings: Vec<wire::StandingView> = table
            .standings
            .iter()
            .enumerate()
            .map(|(rank, s)| {
                let e = &entrants[s.player];
                wire::StandingView {
                    rank: rank + 1,
                    name: s.name.clone(),
                    rating: e.rating.round() as i64,
                    bot: e.bot,
                    active: e.active,
                    points: s.points,
                    games: s.games,
                    discs: s.discs,
                    bq: s.bq,
                    byes: s.byes,
                    forfeits: s.forfeits,
                    fire: fire.get(s.player).copied().unwrap_or(false),
                }
            })
            .collect();
        // The crosstable, in standings order: each cell the row player's points, games and
        // discs against the column player (a round robin's and a Swiss's; an arena has none).
        let crosstable = (!is_arena).then(|| {
            let order: Vec<usize> = table.standings.iter().map(|s| s.player).collect();
            order
                .iter()
                .map(|&a| wire::CrossRow {
                    name: entrants[a].name.clone(),
                    cells: order
                        .iter()
                        .map(|&b| match table.pair(a, b) {
                            Some((points, games, discs, opp_discs)) if a != b => Some(wire::CrossCell {
                                points,
                                games,
                                discs,
                                opp_discs,
                            }),
                            _ => None,
                        })
                        .collect(),
                })
                .collect::<Vec<_>>()
        });
        let mut rounds: Vec<wire::RoundView> = Vec::new();
        let mut shown = 0;
        let mut by_round: std::collections::BTreeMap<i64, Vec<&PairingRow>> = Default::default();
        for p in &pairings {
            by_round.entry(p.round).or_default().push(p);
        }
        for (r, ps) in by_round.iter().rev() {
            let games: Vec<wire::PairingView> = ps
                .iter()
                .filter(|p| p.white.is_some())
                .map(|p| wire::PairingView {
                    board: p.board,
                    black: name(p.black),
                    white: p.white.and_then(name),
                    game: p.game_id.clone(),
                    status: p.status.clone().unwrap_or_else(|| "playing".into()),
                    black_discs: p.black_count,
                    white_discs: p.white_count,
                    winner: p.winner.clone(),
                    forfeit: p.flagged.is_some() && p.moves <= 1,
                })
                .collect();
            let byes: Vec<Option<String>> = ps
                .iter()
                .filter(|p| p.white.is_none())
                .map(|p| name(p.black))
                .collect();
            shown += games.len();
            rounds.push(wire::RoundView {
                round: *r,
                games,
                byes,
            });
            // An arena's page shows its latest games, not hundreds of batches.
            if is_arena && shown >= ARENA_GAMES_SHOWN {
                break;
            }
        }
        // The caller's game under way, once it exists (a pairing's game is made a moment after
        // its round is claimed).
        let my_game = my_index.and_then(|i| {
            pairings
                .iter()
                .rev()
                .find(|p| {
                    unfinished(p) && p.status.is_some() && (p.black == i as i64 || p.white == Some(i as i64))
                })
                .and_then(|p| p.game_id.clone())
        });
        let status = status_of(&t);
        let join_error = match (me, my_index) {
            (Some(u), None) => {
                let rating = self.rating_for(&settings, &u.id).await?;
                rules::may_enter(
                    &settings,
                    status,
                    t.round as u32,
                    entrants.len(),
                    &self.applicant(who, &t, invite, rating),
                )
                .err()
                .map(|e| e.code().to_string())
            }
            (None, _) => Some("account_required".to_string()),
            (Some(_), Some(_)) => None,
        };
        let ends_at = match settings.format {
            Format::Arena { minutes } => Some(t.starts_at + minutes as i64 * 60_000),
            _ => None,
        };
        let chat = self.db().tournaments().tournament_chat(id, 0, CHAT_LINES).await?;
        Ok(wire::TournamentView {
            id: t.id.clone(),
            name: t.name.clone(),
            organiser: t.organiser_name.clone(),
            format: t.format.clone(),
            size: t.size,
            rounds: settings.format.rounds(entrants.len()),
            variant: t.variant.clone(),
            control: t.control.clone(),
            speed: settings.control.speed().name().to_string(),
            rated: t.rated,
            bots: t.bots,
            min_rating: t.min_rating,
            invite_only: t.invite.is_some(),
            max_players: t.max_players,
            starts_at: t.starts_at,
            ends_at,
            status: t.status.clone(),
            round: t.round,
            finished_at: t.finished_at,
            version: t.version,
            now: self.clock().now_ms(),
            players: entrants.len(),
            standings,
            crosstable,
            rounds_played: rounds,
            chat,
            me: wire::MyEntry {
                signed_in: me.is_some(),
                entered: my_index.is_some(),
                active: my_index.is_some_and(|i| entrants[i].active),
                removed: my_index.is_some_and(|i| entrants[i].removed),
                organiser,
                invite: if organiser { t.invite.clone() } else { None },
                game: my_game,
                join_error,
            },
        })
    }

    /// The tournament's finished games as one GGF file, and the crosstable.
    async fn results(&self, id: &str) -> Result<(TournamentRow, rules::Crosstable, Vec<String>)> {
        let t = self.tournament_row(id).await?;
        if t.invite.is_some() {
            // Results of invitation-only tournaments stay with the page that has the link.
            return Err(Error::NotFound);
        }
        let settings = settings_of(&t)?;
        let entrants = self.db().tournaments().entrants(id).await?;
        let pairings = self.db().tournaments().pairings(id).await?;
        let es = entrants_of(&entrants);
        let games = played(&pairings, entrants.len());
        let table = match settings.format {
            Format::Arena { .. } => rules::arena_table(&es, &games).0,
            _ => rules::crosstable(&es, &games, &pairing_byes(&pairings, entrants.len())),
        };
        let ids = games.iter().map(|g| g.game.clone()).collect();
        Ok((t, table, ids))
    }

    /// Posts a chat line to tournament `id`.
    pub async fn tournament_say(
        &self,
        id: &str,
        who: &Identity,
        address: &str,
        text: &str,
    ) -> Result<TournamentChatLine> {
        let user = who.require_user()?;
        // An invitation-only tournament's chat is its organiser's and entrants': having seen
        // the page through the link is not entering it.
        self.visible_tournament(id, who, None).await?;
        crate::chat::not_muted(user, self.clock().now_ms())?;
        if user.chat_off {
            return Err(Error::Conflict(
                "chat_closed",
                "you turned chat off (turn it on in your account)".into(),
            ));
        }
        let text = reversi_site::chat::clean(text).map_err(crate::chat::chat_error)?;
        let now = self.clock().clock_ms();
        self.flood_check(&user.id, address, &text, now)
            .map_err(crate::chat::chat_error)?;
        self.db()
            .tournaments()
            .insert_tournament_chat(id, &user.name, &user.id, &text, now as i64)
            .await
    }
}

/// Ticks every tournament that may have something to do, until the state is dropped.
pub(crate) async fn tournament_task(state: std::sync::Weak<crate::state::Inner>) {
    let (mut ended, every) = match state.upgrade() {
        Some(inner) => {
            let s = AppState { inner };
            (s.rounds().finished(), s.config().tournament_tick)
        }
        None => return,
    };
    let mut next = tokio::time::Instant::now() + every;
    loop {
        // A tournament game that ended here: its players are paired again (an arena) or the
        // round is seen complete at once, not at the next look (the pairing latency was up to
        // a tick plus the query's time; now it is the query's time).
        let game_of = tokio::select! {
            _ = tokio::time::sleep_until(next) => None,
            news = ended.recv() => match news {
                Ok(f) => match f.tournament {
                    Some(t) => Some(t),
                    None => continue,
                },
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => None,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            },
        };
        let Some(inner) = state.upgrade() else { return };
        let s = AppState { inner };
        if let Some(id) = game_of {
            if let Err(e) = s.tick_tournament(&id).await {
                tracing::warn!("tournament {id} after a game's end: {e}");
            }
            continue;
        }
        next = tokio::time::Instant::now() + every;
        let ids = match s.db().tournaments().due_tournaments(s.clock().now_ms()).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!("listing tournaments: {e}");
                continue;
            }
        };
        for id in ids {
            if let Err(e) = s.tick_tournament(&id).await {
                tracing::warn!("tournament {id}: {e}");
            }
        }
    }
}

fn list_item(t: &TournamentRow) -> wire::TournamentItem {
    wire::TournamentItem {
        id: t.id.clone(),
        name: t.name.clone(),
        organiser: t.organiser_name.clone(),
        format: t.format.clone(),
        size: t.size,
        variant: t.variant.clone(),
        control: t.control.clone(),
        rated: t.rated,
        status: t.status.clone(),
        round: t.round,
        starts_at: t.starts_at,
        finished_at: t.finished_at,
        players: t.players,
        max_players: t.max_players,
        invite_only: t.invite.is_some(),
    }
}

/// `GET /api/tournaments`: upcoming (soonest first), running and finished (latest first).
#[utoipa::path(get, path = "/api/tournaments", operation_id = "tournament_list", tag = "tournaments", responses((status = 200, description = "Upcoming, running and finished tournaments.", body = wire::TournamentList)))]
pub async fn list(State(state): State<AppState>, Caller(who): Caller) -> Result<Json<wire::TournamentList>> {
    Ok(Json(state.tournament_list(&who).await?))
}

/// `POST /api/tournaments`: makes a tournament (signed in).
#[utoipa::path(post, path = "/api/tournaments", operation_id = "tournament_create", tag = "tournaments", security(("session" = [])), request_body = wire::NewTournament, responses((status = 201, description = "Made.", body = wire::TournamentCreated), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn create(
    State(state): State<AppState>,
    Caller(who): Caller,
    JsonBody(b): JsonBody<wire::NewTournament>,
) -> Result<(StatusCode, Json<wire::TournamentCreated>)> {
    let t = state.create_tournament(&who, b).await?;
    Ok((
        StatusCode::CREATED,
        Json(wire::TournamentCreated {
            id: t.id,
            invite: t.invite,
        }),
    ))
}

/// `GET /api/tournaments/{id}`: the tournament page's state.
#[utoipa::path(get, path = "/api/tournaments/{id}", operation_id = "tournament_get", tag = "tournaments", params(("id" = String, Path, description = "The tournament."), ("invite" = Option<String>, Query, description = "The invitation secret of an invitation-only tournament.")), responses((status = 200, description = "Everything its page shows.", body = wire::TournamentView), (status = 404, description = "No such tournament (or not for this caller).", body = wire::ApiError)))]
pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<ViewQuery>,
    Caller(who): Caller,
) -> Result<Json<wire::TournamentView>> {
    Ok(Json(state.tournament_view(&id, &who, q.invite.as_deref()).await?))
}

/// `POST /api/tournaments/{id}/join`.
#[utoipa::path(post, path = "/api/tournaments/{id}/join", operation_id = "tournament_join", tag = "tournaments", security(("bearer" = []), ("session" = [])), params(("id" = String, Path, description = "The tournament.")), request_body(content = Option<wire::TournamentInvite>), responses((status = 204, description = "Entered."), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Caller(who): Caller,
    OptionalJsonBody(b): OptionalJsonBody<wire::TournamentInvite>,
) -> Result<StatusCode> {
    state.join_tournament(&id, &who, b.invite.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/tournaments/{id}/withdraw`.
#[utoipa::path(post, path = "/api/tournaments/{id}/withdraw", operation_id = "tournament_withdraw", tag = "tournaments", security(("bearer" = []), ("session" = [])), params(("id" = String, Path, description = "The tournament.")), responses((status = 204, description = "Withdrawn (a finished game keeps its result)."), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn withdraw(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Caller(who): Caller,
) -> Result<StatusCode> {
    state.withdraw(&id, &who).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/tournaments/{id}/{pause|resume|cancel|remove}`: the organiser's actions.
#[utoipa::path(post, path = "/api/tournaments/{id}/{action}", operation_id = "tournament_organise", tag = "tournaments", security(("session" = [])), params(("id" = String, Path, description = "The tournament."), ("action" = String, Path, description = "`pause`, `resume`, `cancel` or `remove` (the organiser's).")), request_body(content = Option<wire::RemoveEntrant>, description = "For `remove`: whom."), responses((status = 204, description = "Done."), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn organise(
    State(state): State<AppState>,
    Path((id, action)): Path<(String, String)>,
    Caller(who): Caller,
    OptionalJsonBody(b): OptionalJsonBody<wire::RemoveEntrant>,
) -> Result<StatusCode> {
    let name = (action == "remove").then_some(b.name.as_str());
    state.organise(&id, &who, &action, name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/tournaments/{id}/chat`.
#[utoipa::path(post, path = "/api/tournaments/{id}/chat", operation_id = "tournament_chat", tag = "tournaments", security(("session" = [])), params(("id" = String, Path, description = "The tournament.")), request_body = wire::TournamentSay, responses((status = 201, description = "Posted.", body = wire::TournamentChatLine), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn chat(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(id): Path<String>,
    Caller(who): Caller,
    JsonBody(b): JsonBody<wire::TournamentSay>,
) -> Result<(StatusCode, Json<TournamentChatLine>)> {
    let line = state
        .tournament_say(&id, &who, &addr.0.to_string(), &b.text)
        .await?;
    Ok((StatusCode::CREATED, Json(line)))
}

/// `GET /api/tournaments/{id}/crosstable.{html,md}` and `/games.ggf`: a tournament's results
/// to download.
pub async fn download(
    State(state): State<AppState>,
    Path((id, file)): Path<(String, String)>,
) -> Result<Response> {
    let (t, table, games) = state.results(&id).await?;
    let (body, mime, ext) = match file.as_str() {
        "crosstable.html" => (table.to_html_titled(&t.name), "text/html; charset=utf-8", "html"),
        "crosstable.md" => (
            table.to_markdown_titled(Some(&t.name.replace(['\n', '\r'], " "))),
            "text/markdown; charset=utf-8",
            "md",
        ),
        "games.ggf" => {
            let mut s = String::new();
            // Read from the database one by one, not held in memory as live games are.
            for g in &games {
                if let Some(live) = state.db().games().load_game(g).await? {
                    s.push_str(&live.ggf());
                    s.push('\n');
                }
            }
            (s, "text/plain; charset=utf-8", "ggf")
        }
        _ => return Err(Error::NotFound),
    };
    let name = format!("tournament-{}.{ext}", t.id);
    Ok((
        [
            (header::CONTENT_TYPE, mime.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
        .into_response())
}
