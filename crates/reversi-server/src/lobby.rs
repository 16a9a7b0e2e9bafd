//! Finding a game: the lobby's seeks (made, listed, cancelled, accepted — one of two accepts at
//! once wins), challenges to a named player, and the quick-pairing pools, paired by a task that
//! one instance at a time runs (`reversi_site::pairing` decides the pairs).
//!
//! The lobby page polls `GET /api/lobby` every two seconds: the answer lists the seeks, how
//! many wait in each pool, and the games the caller's seeks became, so the owner of a seek is
//! taken to its game; a seek whose owner stops polling for [`SEEK_IDLE_MS`] goes away.

use crate::client::ClientAddr;
use crate::db::{SeekCap, SeekOutcome, SeekRow};
use crate::error::{Error, Result};
use crate::extract::{Caller, CallerOrGuest, JsonBody};
use crate::secret::{random_string, random_u64};
use crate::session::Identity;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use reversi_core::{Color, Rules, Variant};
use reversi_site::clock::TimeControl;
use reversi_site::game::online::{SeatInfo, Timing};
use reversi_site::pairing::{self, Waiter, POOLS};
use reversi_site::rating::{Category, Rating};
use reversi_site::seek::{ColourChoice, Seek, Seeker};
use reversi_site_api as wire;
use reversi_site_api::{LobbyView, NewSeek, PoolCount, PoolEntry, SeekView, StartedGame};
use std::str::FromStr;
use std::time::Duration;

/// A real-time seek whose owner has not polled the lobby for this long is removed (the page
/// was closed). Correspondence seeks stay for [`CORRESPONDENCE_SEEK_MS`].
pub const SEEK_IDLE_MS: i64 = 30_000;
/// How long a correspondence seek stays without its owner: a week.
pub const CORRESPONDENCE_SEEK_MS: i64 = 7 * 86_400_000;
/// Open seeks one player may have at once.
pub const SEEKS_PER_PLAYER: usize = 5;
/// Open seeks made from one address at once (every guest and account behind it together): a
/// client that makes itself new guests cannot fill the lobby.
pub const SEEKS_PER_ADDRESS: usize = 10;
/// Pool entries from one address at once.
pub const POOL_ENTRIES_PER_ADDRESS: usize = 10;
/// How often the pools are paired.
pub const PAIRING_EVERY: Duration = Duration::from_millis(500);

/// A player about to sit at a new online game.
#[derive(Clone, Debug)]
pub struct Entrant {
    /// The player key.
    pub key: String,
    /// The name (`None`: a guest).
    pub name: Option<String>,
    /// Whether a bot.
    pub bot: bool,
    /// The rating in the game's category, for accounts.
    pub rating: Option<Rating>,
}

/// What an online game about to be made is.
#[derive(Clone, Debug)]
pub struct NewOnline {
    /// Its id.
    pub id: String,
    /// The tournament it belongs to.
    pub tournament: Option<String>,
    /// The variant (XOT draws its start now).
    pub variant: Variant,
    /// The clock.
    pub control: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// Whether its tournament is by invitation only.
    pub private: bool,
}

impl Entrant {
    fn seat(&self, now: u64) -> SeatInfo {
        let r = self.rating.map(|r| r.at(now));
        SeatInfo {
            key: self.key.clone(),
            name: self.name.clone(),
            rating: r.map(|r| r.rating.round() as i32),
            provisional: r.is_some_and(|r| r.provisional(now)),
            bot: self.bot,
            diff: None,
            country: None,
        }
    }
}

fn view(s: &SeekRow, me: Option<&str>, my_user: Option<&str>) -> SeekView {
    let speed = TimeControl::from_str(&s.control).map_or("rapid", |c| c.speed().name());
    SeekView {
        id: s.id.clone(),
        name: s.owner_name.clone(),
        bot: s.bot,
        rating: s.rating.map(|r| r.round() as i32),
        variant: s.variant.clone(),
        control: s.control.clone(),
        speed: speed.to_string(),
        rated: s.rated,
        colour: s.colour.clone(),
        range: s.range,
        mine: me == Some(s.owner.as_str()),
        for_you: s.target.is_some() && s.target.as_deref() == my_user,
        created_at: s.created_at,
    }
}

fn colour_choice(s: &str) -> Option<ColourChoice> {
    match s {
        "black" => Some(ColourChoice::Black),
        "white" => Some(ColourChoice::White),
        "random" => Some(ColourChoice::Random),
        _ => None,
    }
}

fn seek_error(e: reversi_site::seek::SeekError) -> Error {
    Error::Conflict(Error::site_code(e.code()), e.to_string())
}

fn parse_control(s: &str) -> Result<TimeControl> {
    TimeControl::from_str(s).map_err(|e| Error::Invalid("bad_control", format!("time control {s:?}: {e}")))
}

impl AppState {
    /// The seeker `who` in `category` (its rating there, for accounts).
    async fn seeker(&self, who: &Identity, category: Option<Category>) -> Result<Seeker> {
        let key = who
            .key()
            .ok_or_else(|| Error::Internal("a seeker without a key".into()))?;
        let (registered, bot, rating) = match (who.user(), category) {
            (Some(u), Some(c)) => (
                true,
                u.bot,
                Some(self.db().ratings().rating(&u.id, c).await?.rating),
            ),
            (Some(u), None) => (true, u.bot, None),
            (None, _) => (false, false, None),
        };
        Ok(Seeker {
            key,
            registered,
            bot,
            rating,
        })
    }

    /// The entrant `who` for a game in `category`.
    async fn entrant(&self, who: &Identity, category: Option<Category>) -> Result<Entrant> {
        let key = who
            .key()
            .ok_or_else(|| Error::Internal("an entrant without a key".into()))?;
        Ok(match who.user() {
            Some(u) => Entrant {
                key,
                name: Some(u.name.clone()),
                bot: u.bot,
                rating: match category {
                    Some(c) => Some(self.db().ratings().rating(&u.id, c).await?),
                    None => None,
                },
            },
            None => Entrant {
                key,
                name: None,
                bot: false,
                rating: None,
            },
        })
    }

    /// The entrant of a stored seek's owner (its rating read again: it may have changed).
    async fn owner_entrant(&self, s: &SeekRow, category: Option<Category>) -> Result<Entrant> {
        let rating = match (s.registered, category) {
            (true, Some(c)) => Some(self.db().ratings().rating(&s.owner, c).await?),
            _ => None,
        };
        Ok(Entrant {
            key: s.owner.clone(),
            name: s.owner_name.clone(),
            bot: s.bot,
            rating,
        })
    }

    /// Makes a seek for `who`, from `address` (a challenge when `b.to` names a player).
    pub async fn make_seek(&self, who: &Identity, address: &str, b: NewSeek) -> Result<SeekView> {
        let variant_name = b.variant.clone().unwrap_or_else(|| "othello".into());
        let variant =
            Variant::from_str(&variant_name).map_err(|e| Error::BadRequest(format!("variant: {e}")))?;
        let control = parse_control(&b.control)?;
        let colour_name = b.colour.clone().unwrap_or_else(|| "random".into());
        let colour = colour_choice(&colour_name)
            .ok_or_else(|| Error::BadRequest("colour must be black, white or random".into()))?;
        let category = Category::of(variant, control);
        let owner = self.seeker(who, category).await?;
        let seek = Seek {
            owner: owner.clone(),
            variant,
            control,
            rated: b.rated,
            colour,
            range: b.range,
        };
        seek.check().map_err(seek_error)?;
        let target = match b.to.as_deref() {
            None => None,
            Some(name) => {
                let (u, _) = self
                    .db()
                    .accounts()
                    .user_named(&reversi_site::account::skeleton(name), name)
                    .await?
                    .filter(|(u, _)| !u.deleted)
                    .ok_or(Error::NotFound)?;
                if u.id == owner.key {
                    return Err(seek_error(reversi_site::seek::SeekError::Own));
                }
                if self.blocks(&u.id, &owner.key).await? {
                    return Err(crate::people::blocked());
                }
                Some(u.id)
            }
        };
        let row = SeekRow {
            id: random_string(8),
            owner: owner.key.clone(),
            owner_name: who.user().map(|u| u.name.clone()),
            registered: owner.registered,
            bot: owner.bot,
            rating: owner.rating,
            variant: variant.to_string(),
            control: control.to_string(),
            rated: b.rated,
            colour: colour_name,
            range: b.range.map(|(lo, hi)| (lo as i64, hi as i64)),
            pool: None,
            target,
            created_at: self.clock().now_ms(),
            address: Some(address.to_string()),
        };
        match self
            .db()
            .lobby()
            .insert_seek_capped(&row, SEEKS_PER_PLAYER as i64, SEEKS_PER_ADDRESS as i64)
            .await?
        {
            Ok(()) => {}
            Err(SeekCap::Owner) => {
                return Err(Error::Conflict(
                    "seek_limit",
                    format!("you have {SEEKS_PER_PLAYER} open seeks already: cancel one first"),
                ))
            }
            Err(SeekCap::Address) => {
                return Err(Error::Conflict(
                    "seek_limit",
                    format!(
                        "{SEEKS_PER_ADDRESS} seeks are open from your network already: \
                         wait for one to be taken or cancelled"
                    ),
                ))
            }
        }
        if let Some(target) = &row.target {
            self.db().tell_accounts(&[target]).await;
        }
        if let (Some(target), Some(u)) = (&row.target, who.user()) {
            if control.is_correspondence() {
                let payload = serde_json::json!({
                    "seek": row.id,
                    "challenger": u.name,
                    "control": row.control,
                });
                self.queue_letter("challenge", Some(target), payload).await;
            }
        }
        Ok(view(&row, Some(&owner.key), who.user().map(|u| u.id.as_str())))
    }

    /// Accepts seek `id` for `who`: the game is made and `who` seated. Of two accepts at once,
    /// one gets the game and the other `seek_gone`.
    pub async fn accept_seek(&self, who: &Identity, id: &str) -> Result<(String, String)> {
        let s = self.db().lobby().seek(id).await?.ok_or_else(seek_gone)?;
        if s.pool.is_some() {
            return Err(seek_gone());
        }
        let variant =
            Variant::from_str(&s.variant).map_err(|_| Error::Internal("stored seek variant".into()))?;
        let control = parse_control(&s.control)?;
        let category = Category::of(variant, control);
        let by = self.seeker(who, category).await?;
        if let Some(t) = &s.target {
            if who.user().map(|u| &u.id) != Some(t) {
                return Err(Error::Conflict(
                    "not_for_you",
                    "this challenge is for another player".into(),
                ));
            }
        }
        let seek = Seek {
            owner: Seeker {
                key: s.owner.clone(),
                registered: s.registered,
                bot: s.bot,
                rating: s.rating,
            },
            variant,
            control,
            rated: s.rated,
            colour: colour_choice(&s.colour).unwrap_or(ColourChoice::Random),
            range: s.range.map(|(lo, hi)| (lo as u16, hi as u16)),
        };
        seek.check_accept(&by).map_err(seek_error)?;
        if self.blocks(&s.owner, &by.key).await? {
            return Err(crate::people::blocked());
        }
        if !self.db().lobby().take_seek(id, None).await? {
            return Err(seek_gone());
        }
        let owner = self.owner_entrant(&s, category).await?;
        let taker = self.entrant(who, category).await?;
        let owner_colour = seek.owner_colour(random_u64() & 1 == 0);
        let (black, white) = if owner_colour == Color::Black {
            (owner, taker)
        } else {
            (taker, owner)
        };
        let (game_id, tokens) = self
            .create_online(black, white, variant, control, s.rated)
            .await?;
        self.db()
            .lobby()
            .record_seek_game(&s.id, &s.owner, &game_id, self.clock().now_ms())
            .await?;
        // The owner's pages go to the game (its list's `started`).
        self.db().tell_accounts(&[&s.owner]).await;
        let mine = tokens[(!owner_colour).index()].clone();
        Ok((game_id, mine))
    }

    /// Makes an online game between `black` and `white` and holds it; returns its id and both
    /// seat tokens.
    pub async fn create_online(
        &self,
        black: Entrant,
        white: Entrant,
        variant: Variant,
        control: TimeControl,
        rated: bool,
    ) -> Result<(String, [String; 2])> {
        let game = NewOnline {
            id: random_string(10),
            tournament: None,
            variant,
            control,
            rated,
            private: false,
        };
        self.create_online_game(black, white, game).await
    }

    /// Makes online game `game` between `black` and `white` and holds it; returns its id and
    /// both seat tokens. A game with that id existing already is a database error (unique key).
    pub async fn create_online_game(
        &self,
        black: Entrant,
        white: Entrant,
        game: NewOnline,
    ) -> Result<(String, [String; 2])> {
        let NewOnline {
            id,
            tournament,
            variant,
            control,
            rated,
            private,
        } = game;
        let now = self.clock().clock_ms();
        let tokens = [random_string(32), random_string(32)];
        // Each account's country as it is now: the game shows the flags it began with.
        let mut seats = [black.seat(now), white.seat(now)];
        for seat in &mut seats {
            if !seat.is_guest() {
                seat.country = self
                    .db()
                    .accounts()
                    .user_by_id(&seat.key)
                    .await?
                    .and_then(|u| u.country);
            }
        }
        let record = reversi_site::game::GameRecord {
            id,
            variant: Rules::new(variant, random_u64()).variant,
            // Games between people who met on the site keep the rules of every preset.
            tie: reversi_core::TieRule::Draw,
            mode: reversi_site::game::Mode::Online,
            level: 1,
            players: [reversi_site::game::PlayerKind::Human; 2],
            tokens: [Some(tokens[0].clone()), Some(tokens[1].clone())],
            resigned: None,
            left: false,
            created_at: self.clock().now_s(),
            rematch: None,
            join_token: None,
            void: None,
            online: Some(reversi_site::game::online::Online {
                seats,
                rated,
                timing: Some(Timing::new(control, now)),
                flagged: None,
                tournament,
                private,
            }),
        };
        let live = reversi_site::game::LiveGame::new(record, self.clock().clock_ms());
        self.db().games().insert_game(&live).await?;
        let id = live.record.id.clone();
        let keys = live
            .record
            .online
            .as_ref()
            .map(|o| o.seats.clone().map(|s| s.key))
            .unwrap_or_default();
        self.rounds().hold(live);
        self.db().tell_accounts(&[&keys[0], &keys[1]]).await;
        Ok((id, tokens))
    }

    /// Takes player `key` out of every pool it waits in.
    async fn leave_pools(&self, key: &str) -> Result<()> {
        for s in self.db().lobby().seeks_of(key).await? {
            if s.pool.is_some() {
                self.db().lobby().take_seek(&s.id, Some(key)).await?;
            }
        }
        Ok(())
    }

    /// One round of quick pairing over every pool. On PostgreSQL one instance at a time pairs
    /// (an advisory lock held for the round); the others skip the round.
    pub async fn pair_pools(&self) -> Result<usize> {
        let _guard = match self.db().clocks().try_pairing_lock().await? {
            Some(g) => g,
            None => return Ok(0),
        };
        let now = self.clock().clock_ms();
        let mut made = 0;
        for pool in POOLS {
            let rows = self.db().lobby().seeks(Some(pool), 1000).await?;
            if rows.len() < 2 {
                continue;
            }
            let waiters: Vec<Waiter> = rows
                .iter()
                .map(|r| Waiter {
                    key: r.owner.clone(),
                    rating: r.rating.unwrap_or(reversi_site::rating::START_RATING),
                    since: r.created_at.max(0) as u64,
                })
                .collect();
            let registered: Vec<String> = rows
                .iter()
                .filter(|r| r.registered)
                .map(|r| r.owner.clone())
                .take(500)
                .collect();
            let blocks = self.db().people().blocks_among(&registered).await?;
            let apart = |a: &str, b: &str| {
                blocks.contains(&(a.to_string(), b.to_string()))
                    || blocks.contains(&(b.to_string(), a.to_string()))
            };
            for (i, j) in pairing::pair_apart(&waiters, now, apart) {
                let (a, b) = (&rows[i], &rows[j]);
                if !self.db().lobby().take_seek(&a.id, None).await? {
                    continue;
                }
                if !self.db().lobby().take_seek(&b.id, None).await? {
                    // `b` left the pool meanwhile: `a` waits on, as it was.
                    self.db().lobby().insert_seek(a).await?;
                    continue;
                }
                let control = parse_control(pool)?;
                let category = Category::of(Variant::Othello, control);
                let rated = a.registered && b.registered && !(a.bot && b.bot);
                let last = self.db().lobby().last_meeting(&a.owner, &b.owner).await?;
                let a_colour = pairing::colour_of_first(last, random_u64() & 1 == 0);
                let ea = self.owner_entrant(a, category).await?;
                let eb = self.owner_entrant(b, category).await?;
                let (black, white) = if a_colour == Color::Black {
                    (ea, eb)
                } else {
                    (eb, ea)
                };
                let (game_id, _) = self
                    .create_online(black, white, Variant::Othello, control, rated)
                    .await?;
                let t = self.clock().now_ms();
                self.db()
                    .lobby()
                    .record_seek_game(&a.id, &a.owner, &game_id, t)
                    .await?;
                self.db()
                    .lobby()
                    .record_seek_game(&b.id, &b.owner, &game_id, t)
                    .await?;
                made += 1;
            }
        }
        Ok(made)
    }
}

fn seek_gone() -> Error {
    Error::Conflict(
        "seek_gone",
        "this seek is gone: someone accepted it first, or it was cancelled".into(),
    )
}

/// `POST /api/seeks`: makes a seek (or, with `to`, a challenge); a visitor without an account
/// becomes a guest (casual real-time games only).
#[utoipa::path(post, path = "/api/seeks", tag = "lobby", operation_id = "create_seek", security(("bearer" = []), ("session" = []), ()), request_body(content = wire::NewSeek), responses((status = 201, description = "The seek (or challenge, with `to`).", body = wire::SeekView), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn create(
    State(state): State<AppState>,
    addr: ClientAddr,
    caller: CallerOrGuest,
    JsonBody(b): JsonBody<NewSeek>,
) -> Result<Response> {
    let seek = state.make_seek(&caller.who, &addr.0.to_string(), b).await?;
    Ok(caller.answer((StatusCode::CREATED, Json(seek))))
}

/// `DELETE /api/seeks/{id}`: cancels one's own seek.
#[utoipa::path(delete, path = "/api/seeks/{id}", tag = "lobby", params(("id" = String, Path, description = "The seek.")), security(("bearer" = []), ("session" = []), ()), responses((status = 204, description = "Cancelled."), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn cancel(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Caller(who): Caller,
) -> Result<StatusCode> {
    let key = who.key().ok_or(Error::NotFound)?;
    let target = state.db().lobby().seek(&id).await?.and_then(|s| s.target);
    if state.db().lobby().take_seek(&id, Some(&key)).await? {
        // A challenge withdrawn leaves the challenged player's notice.
        if let Some(t) = target {
            state.db().tell_accounts(&[&t]).await;
        }
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(Error::NotFound)
    }
}

/// `POST /api/seeks/{id}/accept`: accepts a seek; answers the new game with the caller's seat.
#[utoipa::path(post, path = "/api/seeks/{id}/accept", tag = "lobby", params(("id" = String, Path, description = "The seek.")), security(("bearer" = []), ("session" = []), ()), responses((status = 201, description = "The game it became, with the caller's seat token.", body = wire::GameAnswer), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn accept(
    State(state): State<AppState>,
    Path(id): Path<String>,
    caller: CallerOrGuest,
) -> Result<Response> {
    let (game_id, token) = state.accept_seek(&caller.who, &id).await?;
    let (game, seats) = state.rounds().view(&game_id, Some(&token)).await?;
    let resp = crate::api::seated_response(
        &state,
        StatusCode::CREATED,
        crate::round::Seated {
            view: game,
            token,
            seats,
            invite: None,
        },
    );
    Ok(caller.answer(resp))
}

/// `POST /api/seeks/{id}/decline`: the challenged player declines a challenge; its owner is told
/// (the lobby's `declined`, and the owner's `GET /api/account/games`).
#[utoipa::path(post, path = "/api/seeks/{id}/decline", tag = "lobby", params(("id" = String, Path, description = "The challenge.")), security(("bearer" = []), ("session" = [])), responses((status = 204, description = "Declined."), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn decline(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Caller(who): Caller,
) -> Result<StatusCode> {
    let Some(user) = who.user() else {
        return Err(Error::Unauthorized(
            "not_signed_in",
            "sign in to answer a challenge".into(),
        ));
    };
    let s = state.db().lobby().seek(&id).await?.ok_or_else(seek_gone)?;
    if s.target.as_deref() != Some(user.id.as_str()) {
        return Err(Error::Conflict(
            "not_for_you",
            "this challenge is for another player".into(),
        ));
    }
    let now = state.clock().now_ms();
    if state
        .db()
        .lobby()
        .decline_challenge(&id, &user.id, &user.name, now)
        .await?
    {
        state.db().tell_accounts(&[&s.owner]).await;
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(seek_gone())
    }
}

/// `POST /api/pools/{control}`: waits in the quick-pairing pool of `control` (leaving any
/// other); `DELETE /api/pools` leaves.
#[utoipa::path(post, path = "/api/pools/{control}", tag = "lobby", params(("control" = String, Path, description = "The pool's time control (`/api/meta`'s `pools`).")), security(("bearer" = []), ("session" = []), ()), responses((status = 201, description = "Waiting in the pool (any other left).", body = wire::PoolEntry), (status = "4XX", description = "Refused: the body says why (`code`, docs/api.md).", body = wire::ApiError)))]
pub async fn join_pool(
    State(state): State<AppState>,
    addr: ClientAddr,
    Path(control): Path<String>,
    caller: CallerOrGuest,
) -> Result<Response> {
    let who = &caller.who;
    let pool = POOLS.iter().find(|p| **p == control).ok_or_else(|| {
        Error::Invalid(
            "bad_control",
            format!("no pool {control:?}: the pools are {}", POOLS.join(", ")),
        )
    })?;
    let tc = parse_control(pool)?;
    let owner = state.seeker(who, Category::of(Variant::Othello, tc)).await?;
    state.leave_pools(&owner.key).await?;
    let row = SeekRow {
        id: random_string(8),
        owner: owner.key.clone(),
        owner_name: who.user().map(|u| u.name.clone()),
        registered: owner.registered,
        bot: owner.bot,
        rating: owner.rating,
        variant: "othello".into(),
        control: pool.to_string(),
        rated: owner.registered,
        colour: "random".into(),
        range: None,
        pool: Some(pool.to_string()),
        target: None,
        created_at: state.clock().now_ms(),
        address: Some(addr.0.to_string()),
    };
    match state
        .db()
        .lobby()
        .insert_seek_capped(&row, 1, POOL_ENTRIES_PER_ADDRESS as i64)
        .await?
    {
        Ok(()) => {}
        Err(SeekCap::Owner) => {
            return Err(Error::Conflict("seek_limit", "you wait in a pool already".into()))
        }
        Err(SeekCap::Address) => {
            return Err(Error::Conflict(
                "seek_limit",
                format!("{POOL_ENTRIES_PER_ADDRESS} players from your network wait in the pools already"),
            ))
        }
    }
    Ok(caller.answer((
        StatusCode::CREATED,
        Json(PoolEntry {
            pool: pool.to_string(),
            id: row.id,
        }),
    )))
}

/// `DELETE /api/pools`: leaves the pool one waits in.
#[utoipa::path(delete, path = "/api/pools", tag = "lobby", security(("bearer" = []), ("session" = []), ()), responses((status = 204, description = "Not waiting in any pool.")))]
pub async fn leave_pool(State(state): State<AppState>, Caller(who): Caller) -> Result<StatusCode> {
    if let Some(key) = who.key() {
        state.leave_pools(&key).await?;
    }
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/lobby`: the open seeks, the pools (players waiting in each), the pool the caller
/// waits in, and the games the caller's seeks became in the last minute. Polling it keeps the
/// caller's seeks open (as does the lobby's websocket, [`crate::lobby_ws`]).
#[utoipa::path(get, path = "/api/lobby", tag = "lobby", security(("bearer" = []), ("session" = []), ()), responses((status = 200, description = "The lobby as the caller sees it; asking keeps the caller's seeks open.", body = wire::LobbyView)))]
pub async fn lobby(State(state): State<AppState>, Caller(who): Caller) -> Result<Json<LobbyView>> {
    if let Some(k) = who.key() {
        state.db().lobby().touch_seeks(&k, state.clock().now_ms()).await?;
    }
    Ok(Json(lobby_state(&state, &who).await?))
}

/// The lobby as `who` sees it (the body of `GET /api/lobby`).
pub(crate) async fn lobby_state(state: &AppState, who: &Identity) -> Result<LobbyView> {
    let key = who.key();
    let now = state.clock().now_ms();
    let user_id = who.user().map(|u| u.id.as_str());
    // The seeks of players one side blocks are not shown (nor could they be taken).
    let apart = match user_id {
        Some(u) => state.db().people().apart_from(u).await?,
        None => Default::default(),
    };
    let seeks = seeks_seen(state, who, |s| {
        (s.target.is_none() || s.target.as_deref() == user_id || Some(&s.owner) == key.as_ref())
            && !apart.contains(&s.owner)
    })
    .await?;
    let counts = state.db().lobby().pool_counts().await?;
    let pools = POOLS
        .iter()
        .map(|p| PoolCount {
            control: p.to_string(),
            waiting: counts.iter().find(|(c, _)| c == p).map_or(0, |(_, n)| *n as u64),
        })
        .collect();
    let (waiting, (started, declined)) = match &key {
        Some(k) => {
            let mine = state.db().lobby().seeks_of(k).await?;
            (
                mine.iter()
                    .find_map(|s| s.pool.clone().map(|p| (p, (now - s.created_at).max(0) as u64))),
                outcomes(state, k, now).await?,
            )
        }
        None => (None, (Vec::new(), Vec::new())),
    };
    let (waiting_in, waited_ms) = waiting.unzip();
    Ok(LobbyView {
        seeks,
        pools,
        waiting_in,
        waited_ms,
        started,
        declined,
    })
}

/// What became of the seeks of player `key` in the last minute: the games they became, and the
/// challenges declined.
pub(crate) async fn outcomes(
    state: &AppState,
    key: &str,
    now: i64,
) -> Result<(Vec<StartedGame>, Vec<wire::DeclinedChallenge>)> {
    let mut started = Vec::new();
    let mut declined = Vec::new();
    for (seek, outcome) in state
        .db()
        .lobby()
        .seek_games_of(key, now - OUTCOME_WINDOW_MS)
        .await?
    {
        match outcome {
            SeekOutcome::Game(game) => started.push(StartedGame { seek, game }),
            SeekOutcome::Declined(by) => declined.push(wire::DeclinedChallenge { seek, by }),
        }
    }
    Ok((started, declined))
}

/// The open challenges addressed to account `user_id`, as `who` sees them.
pub(crate) async fn challenges_for(state: &AppState, who: &Identity, user_id: &str) -> Result<Vec<SeekView>> {
    seeks_seen(state, who, |s| s.target.as_deref() == Some(user_id)).await
}

/// How long the games a seek became and the challenges declined are told to their owner.
pub const OUTCOME_WINDOW_MS: i64 = 60_000;
/// The most open seeks read for the lobby (the newest first).
pub const SEEKS_SHOWN: u32 = 200;

/// The open seeks that `keep` lets through, as `who` sees them.
async fn seeks_seen(
    state: &AppState,
    who: &Identity,
    keep: impl Fn(&SeekRow) -> bool,
) -> Result<Vec<SeekView>> {
    let key = who.key();
    let user_id = who.user().map(|u| u.id.as_str());
    Ok(state
        .db()
        .lobby()
        .seeks(None, SEEKS_SHOWN)
        .await?
        .iter()
        .filter(|s| keep(s))
        .map(|s| view(s, key.as_deref(), user_id))
        .collect())
}

/// Pairs the pools and removes forgotten seeks, until the state is dropped.
pub(crate) async fn pairing_task(state: std::sync::Weak<crate::state::Inner>) {
    let mut last_expiry = 0i64;
    loop {
        tokio::time::sleep(PAIRING_EVERY).await;
        let Some(inner) = state.upgrade() else { return };
        let s = AppState { inner };
        if let Err(e) = s.pair_pools().await {
            tracing::warn!("pairing the pools: {e}");
        }
        let now = s.clock().now_ms();
        if now - last_expiry > 5_000 {
            last_expiry = now;
            if let Err(e) = s
                .db()
                .lobby()
                .expire_seeks(now - SEEK_IDLE_MS, now - CORRESPONDENCE_SEEK_MS)
                .await
            {
                tracing::warn!("expiring seeks: {e}");
            }
        }
    }
}
