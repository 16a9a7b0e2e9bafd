//! Tournaments, their entrants, their rounds' pairings and their chat. A round is claimed by
//! the `UPDATE` that moves the round counter on, in the transaction that stores its pairings:
//! of several instances ticking at once, one pairs it.

use super::{Db, Topic};
use crate::error::{Error, Result};
use sqlx::Row;

/// Within the open transaction `$tx`, marks tournament `$id` changed, for the other instances
/// too; once committed, [`Db::announce`] tells this one's pages.
macro_rules! bump {
    ($db:expr, $tx:ident, $id:expr) => {
        sqlx::query("UPDATE tournaments SET version = version + 1 WHERE id = $1")
            .bind($id)
            .execute(&mut *$tx)
            .await?;
        notify_topic!($db, $tx, Topic::Tournament($id.into()));
    };
}

/// A stored tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    /// The public id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The organiser's account id.
    pub organiser: String,
    /// The organiser's name (`None`: deleted since).
    pub organiser_name: Option<String>,
    /// `swiss`, `round_robin` or `arena`.
    pub format: String,
    /// Swiss rounds, round-robin cycles or arena minutes.
    pub size: i64,
    /// The variant preset.
    pub variant: String,
    /// The time control (`3+2`).
    pub control: String,
    /// Rated games.
    pub rated: bool,
    /// Bots may enter.
    pub bots: bool,
    /// The lowest rating that may enter.
    pub min_rating: Option<i64>,
    /// The invitation secret (`None`: open to all).
    pub invite: Option<String>,
    /// The most entrants.
    pub max_players: i64,
    /// When it starts (Unix ms).
    pub starts_at: i64,
    /// `upcoming`, `running`, `paused`, `finished` or `cancelled`.
    pub status: String,
    /// Rounds (arena: pairing batches) paired so far.
    pub round: i64,
    /// When the current round was paired.
    pub round_at: Option<i64>,
    /// When it ended.
    pub finished_at: Option<i64>,
    /// Grows with every change.
    pub version: i64,
    /// Entrants (withdrawn ones included).
    pub players: i64,
}

/// A stored entrant.
#[derive(Clone, Debug, PartialEq)]
pub struct EntrantRow {
    /// The account id.
    pub user_id: String,
    /// Entry order: the entrant's index.
    pub seq: i64,
    /// The name when they entered.
    pub name: String,
    /// A bot account.
    pub bot: bool,
    /// The seed.
    pub rating: f64,
    /// The first round they could be paired in.
    pub from_round: i64,
    /// Still in.
    pub active: bool,
    /// Taken out by the organiser.
    pub removed: bool,
    /// When they entered (Unix ms).
    pub joined_at: i64,
}

/// A pairing of a round, with its game's state.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingRow {
    /// Round (arena: batch).
    pub round: i64,
    /// Board within the round.
    pub board: i64,
    /// Black's entrant index (the bye's player, for a bye).
    pub black: i64,
    /// White's entrant index (`None`: a bye).
    pub white: Option<i64>,
    /// The game (`None`: a bye).
    pub game_id: Option<String>,
    /// Whether the game row exists yet.
    pub created: bool,
    /// The game's status (`playing`, `finished`, `aborted`, `abandoned`; `None` before it exists).
    pub status: Option<String>,
    /// Final (or current) disc counts.
    pub black_count: i64,
    /// White's.
    pub white_count: i64,
    /// `black`, `white` or `None` (a draw, or not over).
    pub winner: Option<String>,
    /// Who lost on time (or by forfeit).
    pub flagged: Option<String>,
    /// Moves played.
    pub moves: i64,
    /// When the game ended (Unix ms).
    pub finished_at: Option<i64>,
}

/// One pairing to store with a claimed round.
#[derive(Clone, Debug, PartialEq)]
pub struct NewPairing {
    /// Board.
    pub board: i64,
    /// Black (or the bye's player).
    pub black: i64,
    /// White (`None`: a bye).
    pub white: Option<i64>,
    /// The game's id chosen now (`None`: a bye).
    pub game_id: Option<String>,
}

/// A line of a tournament's chat, as the wire has it.
pub use reversi_site_api::TournamentChatLine;

const T_COLUMNS: &str = "t.id, t.name, t.organiser, u.name AS organiser_name, t.format, t.size, \
     t.variant, t.control, t.rated, t.bots, t.min_rating, t.invite, t.max_players, t.starts_at, \
     t.status, t.round, t.round_at, t.finished_at, t.version, \
     (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = t.id) AS players";

const T_FROM: &str = "FROM tournaments t LEFT JOIN users u ON u.id = t.organiser AND u.deleted_at IS NULL";

macro_rules! tournament_of {
    ($r:expr) => {{
        let r = $r;
        TournamentRow {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            organiser: r.try_get("organiser")?,
            organiser_name: r.try_get("organiser_name")?,
            format: r.try_get("format")?,
            size: r.try_get("size")?,
            variant: r.try_get("variant")?,
            control: r.try_get("control")?,
            rated: r.try_get::<i64, _>("rated")? != 0,
            bots: r.try_get::<i64, _>("bots")? != 0,
            min_rating: r.try_get("min_rating")?,
            invite: r.try_get("invite")?,
            max_players: r.try_get("max_players")?,
            starts_at: r.try_get("starts_at")?,
            status: r.try_get("status")?,
            round: r.try_get("round")?,
            round_at: r.try_get("round_at")?,
            finished_at: r.try_get("finished_at")?,
            version: r.try_get("version")?,
            players: r.try_get("players")?,
        }
    }};
}

/// The repository of tournaments.
pub struct Tournaments<'a>(pub(super) &'a Db);

impl Tournaments<'_> {
    /// Stores a new tournament.
    pub async fn insert_tournament(&self, t: &TournamentRow, now: i64) -> Result<()> {
        self.insert_tournament_capped(t, now, i64::MAX).await.map(|_| ())
    }

    /// Stores a new tournament if its organiser has fewer than `cap` not over yet, checked and
    /// stored in one transaction no other tournament's can interleave with (a burst of
    /// requests gets exactly the cap); false when the cap is reached.
    pub async fn insert_tournament_capped(&self, t: &TournamentRow, now: i64, cap: i64) -> Result<bool> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            lock_in_tx!(self.0, tx, "tournaments-created");
            let open: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM tournaments WHERE organiser = $1 \
                 AND status IN ('upcoming', 'running', 'paused')",
            )
            .bind(&t.organiser)
            .fetch_one(&mut *tx)
            .await?;
            if open >= cap {
                return Ok(false);
            }
            sqlx::query(
                "INSERT INTO tournaments (id, name, organiser, format, size, variant, control, rated, \
                 bots, min_rating, invite, max_players, starts_at, status, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
            )
            .bind(&t.id)
            .bind(&t.name)
            .bind(&t.organiser)
            .bind(&t.format)
            .bind(t.size)
            .bind(&t.variant)
            .bind(&t.control)
            .bind(t.rated as i64)
            .bind(t.bots as i64)
            .bind(t.min_rating)
            .bind(&t.invite)
            .bind(t.max_players)
            .bind(t.starts_at)
            .bind(&t.status)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            notify_topic!(self.0, tx, Topic::Tournament(t.id.as_str().into()));
            tx.commit().await?;
            self.0.announce(Topic::Tournament(t.id.as_str().into()));
            Ok(true)
        })
    }

    /// Tournament `id`.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>> {
        with_reader!(self.0, pool => {
            let row = sqlx::query(&format!("SELECT {T_COLUMNS} {T_FROM} WHERE t.id = $1"))
                .bind(id)
                .fetch_optional(pool)
                .await?;
            match row {
                Some(r) => Ok(Some(tournament_of!(&r))),
                None => Ok(None),
            }
        })
    }

    /// Tournaments with one of `statuses`: upcoming ones soonest first, others latest first;
    /// invitation-only ones only for `viewer` if they organise or entered them.
    pub async fn tournaments(
        &self,
        status: &str,
        viewer: Option<&str>,
        limit: u32,
    ) -> Result<Vec<TournamentRow>> {
        let order = if status == "upcoming" {
            "t.starts_at, t.id"
        } else {
            "t.starts_at DESC, t.id"
        };
        with_reader!(self.0, pool => {
            let rows = sqlx::query(&format!(
                "SELECT {T_COLUMNS} {T_FROM} WHERE (t.status = $1 OR ($1 = 'running' AND t.status = 'paused')) \
                 AND (t.invite IS NULL OR t.organiser = $2 OR EXISTS (SELECT 1 FROM tournament_players p \
                 WHERE p.tournament_id = t.id AND p.user_id = $2)) ORDER BY {order} LIMIT $3"
            ))
            .bind(status)
            .bind(viewer)
            .bind(limit as i64)
            .fetch_all(pool)
            .await?;
            rows.iter().map(|r| Ok(tournament_of!(r))).collect()
        })
    }

    /// The tournaments that may have something to do at `now`: running ones, and upcoming ones
    /// whose start has come.
    pub async fn due_tournaments(&self, now: i64) -> Result<Vec<String>> {
        with_reader!(self.0, pool => {
            Ok(sqlx::query_scalar(
                "SELECT id FROM tournaments WHERE status = 'running' \
                 OR (status = 'upcoming' AND starts_at <= $1) ORDER BY starts_at LIMIT 500",
            )
            .bind(now)
            .fetch_all(pool)
            .await?)
        })
    }

    /// The entrants of tournament `id`, in entry order.
    pub async fn entrants(&self, id: &str) -> Result<Vec<EntrantRow>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT user_id, seq, name, bot, rating, from_round, active, removed, joined_at \
                 FROM tournament_players WHERE tournament_id = $1 ORDER BY seq",
            )
            .bind(id)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(EntrantRow {
                        user_id: r.try_get("user_id")?,
                        seq: r.try_get("seq")?,
                        name: r.try_get("name")?,
                        bot: r.try_get::<i64, _>("bot")? != 0,
                        rating: r.try_get("rating")?,
                        from_round: r.try_get("from_round")?,
                        active: r.try_get::<i64, _>("active")? != 0,
                        removed: r.try_get::<i64, _>("removed")? != 0,
                        joined_at: r.try_get("joined_at")?,
                    })
                })
                .collect()
        })
    }

    /// Enters `user_id` into tournament `id` as the next entrant, unless full (`max`). Returns
    /// whether they are in now.
    #[allow(clippy::too_many_arguments)]
    pub async fn add_entrant(
        &self,
        id: &str,
        user_id: &str,
        name: &str,
        bot: bool,
        rating: f64,
        from_round: i64,
        max: i64,
        now: i64,
    ) -> Result<bool> {
        for _ in 0..5 {
            let done = with_pool!(self.0, pool => {
                let mut tx = pool.begin().await?;
                // Entries of one tournament one at a time: a burst of joins meets the cap
                    // exactly, and no two take one number.
                    lock_in_tx!(self.0, tx, format!("tournament-entry:{id}"));
                let (count, next): (i64, i64) = sqlx::query_as(
                    "SELECT COUNT(*), COALESCE(MAX(seq), -1) + 1 FROM tournament_players WHERE tournament_id = $1",
                )
                .bind(id)
                .fetch_one(&mut *tx)
                .await?;
                if count >= max {
                    return Ok(false);
                }
                let r = sqlx::query(
                    "INSERT INTO tournament_players (tournament_id, user_id, seq, name, bot, rating, \
                     from_round, joined_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(id)
                .bind(user_id)
                .bind(next)
                .bind(name)
                .bind(bot as i64)
                .bind(rating)
                .bind(from_round)
                .bind(now)
                .execute(&mut *tx)
                .await;
                match r {
                    Err(sqlx::Error::Database(d)) if d.is_unique_violation() => None,
                    Err(e) => return Err(e.into()),
                    Ok(_) => {
                        bump!(self.0, tx, id);
                        tx.commit().await?;
                        self.0.announce(Topic::Tournament(id.into()));
                        Some(true)
                    }
                }
            });
            if let Some(d) = done {
                return Ok(d);
            }
            // Someone entered at once (seq taken), or this player is in already.
            if self.entrants(id).await?.iter().any(|e| e.user_id == user_id) {
                return Ok(true);
            }
        }
        Err(Error::Conflict(
            "game_changed",
            "many entries at once; try again".into(),
        ))
    }

    /// Sets an entrant's `active` flag (and `removed`, by the organiser).
    pub async fn set_entrant(&self, id: &str, user_id: &str, active: bool, removed: bool) -> Result<bool> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let n = sqlx::query(
                "UPDATE tournament_players SET active = $3, removed = $4 WHERE tournament_id = $1 AND user_id = $2",
            )
            .bind(id)
            .bind(user_id)
            .bind(active as i64)
            .bind(removed as i64)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            bump!(self.0, tx, id);
            tx.commit().await?;
            self.0.announce(Topic::Tournament(id.into()));
            Ok(n == 1)
        })
    }

    /// Takes an entrant out of a tournament that has not started (their place goes).
    pub async fn delete_entrant(&self, id: &str, user_id: &str) -> Result<bool> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let n = sqlx::query(
                "DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2 AND EXISTS \
                 (SELECT 1 FROM tournaments WHERE id = $1 AND status = 'upcoming')",
            )
            .bind(id)
            .bind(user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            // The seats of those after move up, so that the entry order has no gaps.
            if n == 1 {
                let left: Vec<(String,)> = sqlx::query_as(
                    "SELECT user_id FROM tournament_players WHERE tournament_id = $1 ORDER BY seq",
                )
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
                for (i, (u,)) in left.iter().enumerate() {
                    sqlx::query("UPDATE tournament_players SET seq = $3 WHERE tournament_id = $1 AND user_id = $2")
                        .bind(id)
                        .bind(u)
                        .bind(-(i as i64) - 1)
                        .execute(&mut *tx)
                        .await?;
                }
                sqlx::query("UPDATE tournament_players SET seq = -seq - 1 WHERE tournament_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            bump!(self.0, tx, id);
            tx.commit().await?;
            self.0.announce(Topic::Tournament(id.into()));
            Ok(n == 1)
        })
    }

    /// Every pairing of tournament `id` with its game's state, by round and board.
    pub async fn pairings(&self, id: &str) -> Result<Vec<PairingRow>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT p.round, p.board, p.black, p.white, p.game_id, p.created, g.status, \
                 COALESCE(g.black_count, 2) AS black_count, COALESCE(g.white_count, 2) AS white_count, \
                 g.winner, g.flagged, COALESCE(g.move_count, 0) AS move_count, g.finished_at \
                 FROM tournament_games p LEFT JOIN games g ON g.id = p.game_id \
                 WHERE p.tournament_id = $1 ORDER BY p.round, p.board",
            )
            .bind(id)
            .fetch_all(pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(PairingRow {
                        round: r.try_get("round")?,
                        board: r.try_get("board")?,
                        black: r.try_get("black")?,
                        white: r.try_get("white")?,
                        game_id: r.try_get("game_id")?,
                        created: r.try_get::<i64, _>("created")? != 0,
                        status: r.try_get("status")?,
                        black_count: r.try_get("black_count")?,
                        white_count: r.try_get("white_count")?,
                        winner: r.try_get("winner")?,
                        flagged: r.try_get("flagged")?,
                        moves: r.try_get("move_count")?,
                        finished_at: r.try_get("finished_at")?,
                    })
                })
                .collect()
        })
    }

    /// Claims round `round` (the counter stands at `round - 1`) of running tournament `id` and
    /// stores its pairings, in one transaction. Returns whether this call claimed it (another
    /// instance, or an earlier tick, may have).
    pub async fn claim_round(&self, id: &str, round: i64, pairings: &[NewPairing], now: i64) -> Result<bool> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let n = sqlx::query(
                "UPDATE tournaments SET round = $2, round_at = $3, version = version + 1 \
                 WHERE id = $1 AND round = $2 - 1 AND status = 'running'",
            )
            .bind(id)
            .bind(round)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if n != 1 {
                return Ok(false);
            }
            for p in pairings {
                sqlx::query(
                    "INSERT INTO tournament_games (tournament_id, round, board, black, white, game_id) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(id)
                .bind(round)
                .bind(p.board)
                .bind(p.black)
                .bind(p.white)
                .bind(&p.game_id)
                .execute(&mut *tx)
                .await?;
            }
            notify_topic!(self.0, tx, Topic::Tournament(id.into()));
            tx.commit().await?;
            self.0.announce(Topic::Tournament(id.into()));
            Ok(true)
        })
    }

    /// Records that game `game_id`, of a pairing of tournament `id`, exists (its players' pages
    /// are told: it is theirs to play now).
    pub async fn pairing_created(&self, id: &str, game_id: &str) -> Result<()> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("UPDATE tournament_games SET created = 1 WHERE game_id = $1")
                .bind(game_id)
                .execute(&mut *tx)
                .await?;
            bump!(self.0, tx, id);
            tx.commit().await?;
        });
        self.0.announce(Topic::Tournament(id.into()));
        Ok(())
    }

    /// Moves tournament `id` from one of `from` to status `to` (and marks when it ended, for
    /// `finished` and `cancelled`). Returns whether this call changed it.
    pub async fn set_tournament_status(&self, id: &str, from: &[&str], to: &str, now: i64) -> Result<bool> {
        let list = from
            .iter()
            .map(|s| format!("'{}'", s.replace('\'', "")))
            .collect::<Vec<_>>()
            .join(", ");
        let ended = matches!(to, "finished" | "cancelled");
        let changed = with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let n = sqlx::query(&format!(
                "UPDATE tournaments SET status = $2, version = version + 1, \
                 finished_at = CASE WHEN $3 = 1 THEN $4 ELSE finished_at END \
                 WHERE id = $1 AND status IN ({list})"
            ))
            .bind(id)
            .bind(to)
            .bind(ended as i64)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if n == 1 {
                notify_topic!(self.0, tx, Topic::Tournament(id.into()));
            }
            tx.commit().await?;
            n == 1
        });
        if changed {
            self.0.announce(Topic::Tournament(id.into()));
        }
        Ok(changed)
    }

    /// Moves the start of upcoming tournament `id` to `now` (the organiser starts it early; an
    /// arena then lasts its minutes from now). `false` if it is not upcoming any more.
    pub async fn start_now(&self, id: &str, now: i64) -> Result<bool> {
        let changed = with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            let n = sqlx::query(
                "UPDATE tournaments SET starts_at = $2, version = version + 1 \
                 WHERE id = $1 AND status = 'upcoming' AND starts_at > $2",
            )
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if n == 1 {
                notify_topic!(self.0, tx, Topic::Tournament(id.into()));
            }
            tx.commit().await?;
            n == 1
        });
        if changed {
            self.0.announce(Topic::Tournament(id.into()));
        }
        Ok(changed)
    }

    /// Marks tournament `id` changed (a game of it ended), so that its pages show it.
    pub async fn touch_tournament(&self, id: &str) -> Result<()> {
        with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            bump!(self.0, tx, id);
            tx.commit().await?;
            self.0.announce(Topic::Tournament(id.into()));
        });
        Ok(())
    }

    /// Stores a chat line of tournament `id` and returns it numbered.
    pub async fn insert_tournament_chat(
        &self,
        id: &str,
        author: &str,
        user_id: &str,
        text: &str,
        at: i64,
    ) -> Result<TournamentChatLine> {
        let seq = with_pool!(self.0, pool => {
            let mut tx = pool.begin().await?;
            // One tournament's messages are numbered one at a time (see the game chat's).
                lock_in_tx!(self.0, tx, format!("tournament-chat:{id}"));
            let seq: i64 = sqlx::query_scalar(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM tournament_chat WHERE tournament_id = $1",
            )
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO tournament_chat (tournament_id, seq, author, user_id, text, at) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(id)
            .bind(seq)
            .bind(author)
            .bind(user_id)
            .bind(text)
            .bind(at)
            .execute(&mut *tx)
            .await?;
            bump!(self.0, tx, id);
            tx.commit().await?;
            self.0.announce(Topic::Tournament(id.into()));
            seq
        });
        Ok(TournamentChatLine {
            seq,
            author: Some(author.to_string()),
            text: text.to_string(),
            at,
        })
    }

    /// The last `limit` chat lines of tournament `id` after number `after`, oldest first.
    pub async fn tournament_chat(&self, id: &str, after: i64, limit: u32) -> Result<Vec<TournamentChatLine>> {
        with_reader!(self.0, pool => {
            let rows = sqlx::query(
                "SELECT c.seq, u.name AS author, c.text, c.at FROM tournament_chat c \
                 LEFT JOIN users u ON u.id = c.user_id AND u.deleted_at IS NULL \
                 WHERE c.tournament_id = $1 AND c.seq > $2 ORDER BY c.seq DESC LIMIT $3",
            )
            .bind(id)
            .bind(after)
            .bind(limit as i64)
            .fetch_all(pool)
            .await?;
            let mut lines = rows
                .iter()
                .map(|r| {
                    Ok(TournamentChatLine {
                        seq: r.try_get("seq")?,
                        author: r.try_get("author")?,
                        text: r.try_get("text")?,
                        at: r.try_get("at")?,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            lines.reverse();
            Ok(lines)
        })
    }
}
