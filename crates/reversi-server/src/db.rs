//! Persistence: every game and every move, so that a game survives a restart. SQLite or
//! PostgreSQL through sqlx, with the same SQL (`$N` parameters, which both accept); the schema
//! of each is embedded in the binary and applied at start.
//!
//! On PostgreSQL every change of a game also sends `NOTIFY reversi_games` (in the transaction
//! that stores it), so that other server instances sharing the database can push it to the
//! players connected to them ([`Db::listen`]).

use crate::error::{Error, Result};
use reversi_core::notation::parse_move;
use reversi_core::{Color, Move, Variant};
use reversi_site::game::{GameRecord, LiveGame, Mode, PlayerKind, VoidEnd};
use reversi_site_api::GameView;
use serde::Serialize;
use sqlx::postgres::{PgConnectOptions, PgListener, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::Row;
use std::str::FromStr;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// The SQLite schema, in order: (version, SQL). Applied once each, recorded in
/// `schema_migrations`.
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../migrations/0001_init.sql")),
    (2, include_str!("../migrations/0002_archive_analysis_rematch.sql")),
    (3, include_str!("../migrations/0003_version_invite.sql")),
    (4, include_str!("../migrations/0004_accounts_clocks_lobby.sql")),
    (5, include_str!("../migrations/0005_tournaments.sql")),
    (6, include_str!("../migrations/0006_presence.sql")),
    (7, include_str!("../migrations/0007_coach.sql")),
    (8, include_str!("../migrations/0008_explorer.sql")),
    (9, include_str!("../migrations/0009_puzzles.sql")),
    (10, include_str!("../migrations/0010_hardening.sql")),
];

/// The PostgreSQL schema (the same tables; integers are `BIGINT` throughout).
const PG_MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../migrations/postgres/0001_init.sql")),
    (
        2,
        include_str!("../migrations/postgres/0002_archive_analysis_rematch.sql"),
    ),
    (3, include_str!("../migrations/postgres/0003_version_invite.sql")),
    (
        4,
        include_str!("../migrations/postgres/0004_accounts_clocks_lobby.sql"),
    ),
    (5, include_str!("../migrations/postgres/0005_tournaments.sql")),
    (6, include_str!("../migrations/postgres/0006_presence.sql")),
    (7, include_str!("../migrations/postgres/0007_coach.sql")),
    (8, include_str!("../migrations/postgres/0008_explorer.sql")),
    (9, include_str!("../migrations/postgres/0009_puzzles.sql")),
    (10, include_str!("../migrations/postgres/0010_hardening.sql")),
];

/// The channel of the change notifications on PostgreSQL.
pub const NOTIFY_CHANNEL: &str = "reversi_games";

#[derive(Clone, Debug)]
enum Pool {
    /// SQLite allows one writer at a time: every write goes through the one connection of
    /// `write`, in the order asked, instead of several connections retrying on a busy lock
    /// (whose sleeps were the slowest moves under load); reads use `read` and run beside it
    /// (WAL). For an in-memory database both are the same single connection.
    Sqlite {
        write: SqlitePool,
        read: SqlitePool,
    },
    Pg(PgPool),
}

/// A handle on the database (cheap to clone).
#[derive(Clone, Debug)]
pub struct Db {
    pool: Pool,
    /// Tags this process's notifications, so that it can skip its own.
    instance: String,
    /// SQLite: the queue of moves waiting for the next group commit ([`group_commit`]).
    appends: Option<mpsc::UnboundedSender<AppendJob>>,
    /// Counts the lobby's changes, this instance's and (told by `LISTEN`) the others', for
    /// the lobby's websockets to wait on.
    lobby: Arc<tokio::sync::watch::Sender<u64>>,
    /// Set once this process has made sure every shipped puzzle has its rating row.
    puzzles_stored: Arc<tokio::sync::OnceCell<()>>,
}

/// One [`Db::append_moves`] waiting for the next group commit.
#[derive(Debug)]
struct AppendJob {
    id: String,
    from: usize,
    moves: Vec<String>,
    times: Option<[i64; 2]>,
    summary: Summary,
    done: oneshot::Sender<Result<()>>,
}

/// The error of a move that arrives as the server shuts down.
const WRITER_GONE: &str =
    "the database writer has stopped (the server is shutting down): try again once it is back";

/// The most appends one commit stores.
const GROUP_MAX: usize = 256;

/// Runs `$body` with `$p` bound to the pool that writes, whichever the database: the SQL is the
/// same.
macro_rules! with_pool {
    ($db:expr, $p:ident => $body:expr) => {
        match &$db.pool {
            $crate::db::Pool::Sqlite { write: $p, .. } => $body,
            $crate::db::Pool::Pg($p) => $body,
        }
    };
}

/// Runs `$body` (which only reads) with `$p` bound to the pool that reads.
macro_rules! with_reader {
    ($db:expr, $p:ident => $body:expr) => {
        match &$db.pool {
            $crate::db::Pool::Sqlite { read: $p, .. } => $body,
            $crate::db::Pool::Pg($p) => $body,
        }
    };
}

/// Inserts `$moves`, played from ply `$from`, into the open transaction `$tx`, with both
/// players' remaining time after them (`$times`, a timed game's).
macro_rules! insert_moves {
    ($tx:ident, $id:expr, $from:expr, $moves:expr, $times:expr) => {
        let times: Option<[i64; 2]> = $times;
        for (i, mv) in $moves.iter().enumerate() {
            sqlx::query(
                "INSERT INTO moves (game_id, ply, mv, black_ms, white_ms) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind($id)
            .bind(($from + i) as i64)
            .bind(mv.to_string())
            .bind(times.map(|t| t[0]))
            .bind(times.map(|t| t[1]))
            .execute(&mut *$tx)
            .await?;
        }
    };
}

/// Inserts the new game `$live` (row, moves and summary) in the open transaction `$tx`.
macro_rules! insert_game {
    ($tx:ident, $live:expr) => {{
        let r = &$live.record;
        let online = r.online.as_ref();
        let user = |c: usize| online.map(|o| o.seats[c].key.clone());
        let name = |c: usize| online.and_then(|o| o.seats[c].name.clone());
        sqlx::query(
            "INSERT INTO games (id, variant, mode, level, black_player, white_player, black_token, \
             white_token, created_at, updated_at, join_token, black_user, white_user, black_name, \
             white_name, rated, tournament, private) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
        )
        .bind(&r.id)
        .bind(r.variant.to_string())
        .bind(r.mode.as_str())
        .bind(r.level as i64)
        .bind(kind_str(r.players[0]))
        .bind(kind_str(r.players[1]))
        .bind(r.tokens[0].as_deref())
        .bind(r.tokens[1].as_deref())
        .bind(r.created_at)
        .bind(r.created_at)
        .bind(r.join_token.as_deref())
        .bind(user(0))
        .bind(user(1))
        .bind(name(0))
        .bind(name(1))
        .bind(online.map_or(0i64, |o| o.rated as i64))
        .bind(online.and_then(|o| o.tournament.clone()))
        .bind(online.map_or(0i64, |o| o.private as i64))
        .execute(&mut *$tx)
        .await?;
        insert_moves!($tx, &r.id, 0, $live.game.moves(), None);
        update_summary!($tx, $live);
    }};
}

/// Stores the summary columns of `$live` in the open transaction `$tx`.
macro_rules! update_summary {
    ($tx:ident, $live:expr) => {{
        let summary = $crate::db::Summary::of(&$live);
        store_summary!($tx, &$live.record.id, summary);
    }};
}

/// Stores `$summary` as the summary columns of game `$id` in the open transaction `$tx`.
macro_rules! store_summary {
    ($tx:ident, $id:expr, $summary:expr) => {{
        let s: $crate::db::Summary = $summary;
        sqlx::query(
            "UPDATE games SET status = $1, black_count = $2, white_count = $3, winner = $4, \
             move_count = $5, updated_at = $6, finished_at = CASE WHEN $7 IS NULL THEN NULL \
             ELSE COALESCE(finished_at, $7) END, version = $9 WHERE id = $8",
        )
        .bind(s.status)
        .bind(s.black)
        .bind(s.white)
        .bind(s.winner)
        .bind(s.ply)
        .bind($crate::db::now())
        .bind(s.finished_at)
        .bind($id)
        .bind(s.version)
        .execute(&mut *$tx)
        .await?;
        if let Some(o) = &s.online {
            // Nothing undoes a loss on time: a change made from a copy of the game that had not
            // seen the flag (another instance flagged it meanwhile) is refused.
            let done = sqlx::query(
                "UPDATE games SET clock = $1, flag_at = $2, seat_info = $3, \
                 flagged = COALESCE(flagged, $4) WHERE id = $5 AND (flagged IS NULL OR flagged = $4)",
            )
            .bind(o.clock.as_deref())
            .bind(o.flag_at)
            .bind(&o.seat_info)
            .bind(o.flagged)
            .bind($id)
            .execute(&mut *$tx)
            .await?;
            if done.rows_affected() != 1 {
                return Err($crate::error::Error::Conflict(
                    "game_changed",
                    "the game changed meanwhile (a clock ran out); reload it".into(),
                ));
            }
        }
    }};
}

/// The summary columns of a game (what the game list shows without reading the moves).
#[derive(Clone, Debug)]
struct Summary {
    status: &'static str,
    black: i64,
    white: i64,
    winner: Option<&'static str>,
    ply: i64,
    finished_at: Option<i64>,
    /// The game's version with this change (stored so that it never goes back after a restart).
    version: i64,
    /// The columns of an online game.
    online: Option<OnlineSummary>,
}

/// The stored state of an online game besides its moves.
#[derive(Clone, Debug)]
struct OnlineSummary {
    /// JSON of the [`reversi_site::game::online::Timing`].
    clock: Option<String>,
    /// The next deadline (Unix ms) while the game goes on.
    flag_at: Option<i64>,
    /// Who lost on time.
    flagged: Option<&'static str>,
    /// JSON of both [`reversi_site::game::online::SeatInfo`].
    seat_info: String,
}

impl OnlineSummary {
    fn of(live: &LiveGame) -> Option<OnlineSummary> {
        let o = live.record.online.as_ref()?;
        Some(OnlineSummary {
            clock: o.timing.and_then(|t| serde_json::to_string(&t).ok()),
            flag_at: live.deadline().map(|d| d.at().min(i64::MAX as u64) as i64),
            flagged: o.flagged.map(Color::name),
            seat_info: serde_json::to_string(&o.seats).unwrap_or_default(),
        })
    }

    /// Both players' time left as the clock last stopped, for the moves just made.
    fn times(live: &LiveGame) -> Option<[i64; 2]> {
        let t = live.record.online.as_ref()?.timing?;
        Some(t.clock.remaining_ms.map(|ms| ms.min(i64::MAX as u64) as i64))
    }
}

impl Summary {
    fn of(live: &LiveGame) -> Summary {
        let v: GameView = live.view(crate::time::clock_ms());
        let (black, white, winner) = match &v.result {
            Some(r) => (r.black, r.white, r.winner.map(reversi_site_api::Side::name)),
            None => (v.black_count, v.white_count, None),
        };
        Summary {
            status: v.status.as_str(),
            black: black as i64,
            white: white as i64,
            winner,
            ply: v.ply as i64,
            finished_at: (v.status != reversi_site_api::GameStatus::Playing).then(now_ms),
            version: live.version.min(i64::MAX as u64) as i64,
            online: OnlineSummary::of(live),
        }
    }
}

/// Within the open transaction `$tx`, tells the other instances (PostgreSQL) that game `$id`
/// changed; the notification is sent when the transaction commits.
macro_rules! notify {
    ($db:expr, $tx:ident, $id:expr) => {
        if matches!($db.pool, $crate::db::Pool::Pg(_)) {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind($crate::db::NOTIFY_CHANNEL)
                .bind(format!("{}:{}", $db.instance, $id))
                .execute(&mut *$tx)
                .await?;
        }
    };
}

/// Within the open transaction `$tx`, tells the other instances (PostgreSQL) that the lobby's
/// seeks changed.
macro_rules! notify_lobby {
    ($db:expr, $tx:ident) => {
        if matches!($db.pool, $crate::db::Pool::Pg(_)) {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind($crate::db::NOTIFY_CHANNEL)
                .bind(format!("{}:{}", $db.instance, $crate::db::LOBBY_CHANGE))
                .execute(&mut *$tx)
                .await?;
        }
    };
}

/// Within the open transaction `$tx`, tells the other instances (PostgreSQL) that game `$id`
/// has a new chat message.
macro_rules! notify_chat {
    ($db:expr, $tx:ident, $id:expr) => {
        if matches!($db.pool, $crate::db::Pool::Pg(_)) {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind($crate::db::NOTIFY_CHANNEL)
                .bind(format!("{}:{}{}", $db.instance, $crate::db::CHAT_CHANGE, $id))
                .execute(&mut *$tx)
                .await?;
        }
    };
}

/// Within the open transaction `$tx`, tells the other instances (PostgreSQL) that who is
/// connected to game `$id` changed.
macro_rules! notify_presence {
    ($db:expr, $tx:ident, $id:expr) => {
        if matches!($db.pool, $crate::db::Pool::Pg(_)) {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind($crate::db::NOTIFY_CHANNEL)
                .bind(format!("{}:{}{}", $db.instance, $crate::db::PRESENCE_CHANGE, $id))
                .execute(&mut *$tx)
                .await?;
        }
    };
}

mod accounts;
pub mod backup;
mod chat;
mod clocks;
pub mod explorer;
mod lobby;
mod presence;
mod profile;
pub mod puzzles;
mod ratings;
pub mod retention;
pub mod throttle;
mod tournaments;

pub use accounts::User;
pub use chat::ChatLine;
pub use clocks::PairingLock;
pub use lobby::{SeekCap, SeekRow};
pub use profile::{ColourResults, LiveRow};
pub use ratings::{BoardLine, RatingPoint};
pub use tournaments::{EntrantRow, NewPairing, PairingRow, TournamentChatLine, TournamentRow};

/// The notification payload (after the instance) of a change of the lobby.
pub const LOBBY_CHANGE: &str = "lobby:";
/// The prefix of a notification payload (after the instance) of a new chat message of a game.
pub const CHAT_CHANGE: &str = "chat:";
/// The prefix of a notification payload (after the instance) of a change of who is connected
/// to a game.
pub const PRESENCE_CHANGE: &str = "presence:";

/// SQLite: stores the moves of every game waiting in `jobs` in one transaction, then tells each
/// caller. Under load many games move at once; one commit (and two statements per move instead
/// of four) for all of them raises the moves stored per second, and nobody waits for more than
/// the commit in progress. Should the group fail, each append is retried alone, so that one bad
/// append fails only itself.
async fn group_commit(pool: SqlitePool, mut jobs: mpsc::UnboundedReceiver<AppendJob>) {
    let mut group = Vec::with_capacity(GROUP_MAX);
    while jobs.recv_many(&mut group, GROUP_MAX).await > 0 {
        if commit_group(&pool, &group).await.is_ok() {
            for job in group.drain(..) {
                let _ = job.done.send(Ok(()));
            }
        } else {
            for job in group.drain(..) {
                let alone = commit_group(&pool, std::slice::from_ref(&job)).await;
                let _ = job.done.send(alone);
            }
        }
    }
}

/// Stores the appends of `group` in one transaction.
async fn commit_group(pool: &SqlitePool, group: &[AppendJob]) -> Result<()> {
    let mut tx = pool.begin().await?;
    for job in group {
        insert_moves!(tx, &job.id, job.from, job.moves, job.times);
        store_summary!(tx, &job.id, job.summary.clone());
    }
    tx.commit().await?;
    Ok(())
}

/// A change made by another server instance, received through `LISTEN`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A game changed.
    Game(String),
    /// A game has a new chat message.
    Chat(String),
    /// Who is connected to a game changed.
    Presence(String),
    /// The lobby's seeks changed.
    Lobby,
}

/// The stream of changes made by other instances (PostgreSQL only).
pub struct Listener {
    inner: PgListener,
    instance: String,
}

impl Listener {
    /// The next change made by another instance. After a lost connection it reconnects and
    /// returns `None` once: the caller should then refresh every game it holds.
    pub async fn next(&mut self) -> Result<Option<Change>> {
        loop {
            let Some(n) = self.inner.try_recv().await? else {
                return Ok(None);
            };
            let payload = n.payload();
            let Some((instance, id)) = payload.split_once(':') else {
                continue;
            };
            if instance != self.instance {
                return Ok(Some(if id == LOBBY_CHANGE {
                    Change::Lobby
                } else if let Some(game) = id.strip_prefix(CHAT_CHANGE) {
                    Change::Chat(game.to_string())
                } else if let Some(game) = id.strip_prefix(PRESENCE_CHANGE) {
                    Change::Presence(game.to_string())
                } else {
                    Change::Game(id.to_string())
                }));
            }
        }
    }
}

/// One line of the game list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    /// The game id.
    pub id: String,
    /// The variant preset.
    pub variant: String,
    /// `ai`, `friend` or `local`.
    pub mode: String,
    /// The computer's level.
    pub level: i64,
    /// Who plays black (`human` or `ai`).
    pub black: String,
    /// Who plays white.
    pub white: String,
    /// `playing` or `finished`.
    pub status: String,
    /// Black's discs (the final count once finished).
    pub black_count: i64,
    /// White's discs.
    pub white_count: i64,
    /// `black`, `white`, or `null` (draw or not finished).
    pub winner: Option<String>,
    /// Moves played, passes included.
    pub move_count: i64,
    /// Creation time (Unix seconds).
    pub created_at: i64,
    /// Time of the last change (Unix seconds).
    pub updated_at: i64,
    /// When the game ended (Unix seconds), once finished.
    pub finished_at: Option<i64>,
    /// The game's analysis: `none`, `queued`, `running`, `done` or `failed`.
    pub analysis: String,
    /// Black's name in an online game (`null`: a guest, a deleted account, or not online).
    pub black_name: Option<String>,
    /// White's name in an online game.
    pub white_name: Option<String>,
    /// Whether the game is rated.
    pub rated: bool,
}

/// The columns of a [`GameSummary`], for `… WHERE …` to follow.
const SUMMARY_SELECT: &str =
    "SELECT g.id, g.variant, g.mode, g.level, g.black_player, g.white_player, g.status, \
     g.black_count, g.white_count, g.winner, g.move_count, g.created_at, g.updated_at, \
     g.finished_at, COALESCE(a.status, 'none') AS analysis, g.black_name, g.white_name, g.rated \
     FROM games g \
     LEFT JOIN analyses a ON a.game_id = g.id";

/// A row of [`SUMMARY_SELECT`].
fn summary_of<R: Row>(row: &R) -> Result<GameSummary>
where
    for<'r> &'r str: sqlx::ColumnIndex<R>,
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<String>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<i64>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    Ok(GameSummary {
        id: row.try_get("id")?,
        variant: row.try_get("variant")?,
        mode: row.try_get("mode")?,
        level: row.try_get("level")?,
        black: row.try_get("black_player")?,
        white: row.try_get("white_player")?,
        status: row.try_get("status")?,
        black_count: row.try_get("black_count")?,
        white_count: row.try_get("white_count")?,
        winner: row.try_get("winner")?,
        move_count: row.try_get("move_count")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        finished_at: row.try_get::<Option<i64>, _>("finished_at")?.map(|ms| ms / 1000),
        analysis: row.try_get("analysis")?,
        black_name: row.try_get("black_name")?,
        white_name: row.try_get("white_name")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
    })
}

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Milliseconds since the Unix epoch (the server's clock, [`crate::time::now_ms`]).
pub fn now_ms() -> i64 {
    crate::time::now_ms()
}

fn kind_str(k: PlayerKind) -> &'static str {
    match k {
        PlayerKind::Human => "human",
        PlayerKind::Ai => "ai",
    }
}

impl Db {
    /// Opens (creating when missing) the database at `url` and applies the schema. `url` is a
    /// `sqlite:` URL (`sqlite://reversi.db`, `sqlite::memory:`) or a plain file path.
    pub async fn connect(url: &str) -> Result<Db> {
        let instance = crate::secret::random_string(12);
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let opts = PgConnectOptions::from_str(url)?;
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .min_connections(0)
                .acquire_timeout(std::time::Duration::from_secs(10))
                .connect_with(opts)
                .await?;
            let db = Db {
                pool: Pool::Pg(pool),
                instance,
                appends: None,
                lobby: Arc::new(tokio::sync::watch::Sender::new(0)),
                puzzles_stored: Arc::default(),
            };
            db.migrate().await?;
            return Ok(db);
        }
        let opts = if url.starts_with("sqlite:") {
            SqliteConnectOptions::from_str(url)?
        } else if url.contains("://") {
            return Err(Error::BadRequest(format!(
                "unsupported database URL {url:?}: use sqlite://FILE, a file path, or postgres://..."
            )));
        } else {
            SqliteConnectOptions::new().filename(url)
        };
        let memory = url.contains(":memory:");
        let opts = opts
            .create_if_missing(true)
            .foreign_keys(true)
            .journal_mode(if memory {
                SqliteJournalMode::Memory
            } else {
                SqliteJournalMode::Wal
            })
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(std::time::Duration::from_secs(5));
        let pool = |max: u32| {
            SqlitePoolOptions::new()
                .max_connections(max)
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None)
                .connect_with(opts.clone())
        };
        let write = pool(1).await?;
        // An in-memory database lives in its one connection.
        let read = if memory { write.clone() } else { pool(4).await? };
        let (appends, jobs) = mpsc::unbounded_channel();
        tokio::spawn(group_commit(write.clone(), jobs));
        let db = Db {
            pool: Pool::Sqlite { write, read },
            instance,
            appends: Some(appends),
            lobby: Arc::new(tokio::sync::watch::Sender::new(0)),
            puzzles_stored: Arc::default(),
        };
        db.migrate().await?;
        Ok(db)
    }

    /// Marks a change of the lobby (its seeks, pools or the games they became), once stored.
    pub fn lobby_changed(&self) {
        self.lobby.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// A receiver that sees every later [`Db::lobby_changed`].
    pub fn watch_lobby(&self) -> tokio::sync::watch::Receiver<u64> {
        self.lobby.subscribe()
    }

    /// `postgres` or `sqlite`.
    pub fn kind(&self) -> &'static str {
        match self.pool {
            Pool::Sqlite { .. } => "sqlite",
            Pool::Pg(_) => "postgres",
        }
    }

    /// On PostgreSQL, a listener of the changes other instances make; `None` on SQLite (one
    /// process owns the file).
    pub async fn listen(&self) -> Result<Option<Listener>> {
        let Pool::Pg(pool) = &self.pool else {
            return Ok(None);
        };
        // The listener gets a connection of its own, outside the pool, so that closing the pool
        // never waits for the listener (which lives until the state is dropped).
        let own = PgPoolOptions::new()
            .max_connections(1)
            .connect_lazy_with((*pool.connect_options()).clone());
        let mut inner = PgListener::connect_with(&own).await?;
        inner.listen(NOTIFY_CHANNEL).await?;
        Ok(Some(Listener {
            inner,
            instance: self.instance.clone(),
        }))
    }

    /// For tests against a shared PostgreSQL server: creates a fresh schema with a unique name
    /// in the database at `url` and returns a URL whose connections use it.
    pub async fn fresh_schema_url(url: &str) -> Result<String> {
        let name = format!("reversi_test_{}", crate::secret::random_string(12).to_lowercase());
        let pool = PgPoolOptions::new().max_connections(1).connect(url).await?;
        sqlx::raw_sql(&format!("CREATE SCHEMA {name}"))
            .execute(&pool)
            .await?;
        pool.close().await;
        let sep = if url.contains('?') { '&' } else { '?' };
        Ok(format!("{url}{sep}options=-c%20search_path%3D{name}"))
    }

    async fn migrate(&self) -> Result<()> {
        let migrations = match self.pool {
            Pool::Sqlite { .. } => MIGRATIONS,
            Pool::Pg(_) => PG_MIGRATIONS,
        };
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if matches!(self.pool, Pool::Pg(_)) {
                // Several instances may start at once: one migrates, the others wait.
                sqlx::query("SELECT pg_advisory_xact_lock(4242)").execute(&mut *tx).await?;
            }
            sqlx::raw_sql("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY)")
                .execute(&mut *tx)
                .await?;
            for &(version, sql) in migrations {
                let done: Option<i64> =
                    sqlx::query_scalar("SELECT version FROM schema_migrations WHERE version = $1")
                        .bind(version)
                        .fetch_optional(&mut *tx)
                        .await?;
                if done.is_none() {
                    sqlx::raw_sql(sql).execute(&mut *tx).await?;
                    sqlx::query("INSERT INTO schema_migrations (version) VALUES ($1)")
                        .bind(version)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Games being played, by mode (`ai`, `friend`, `local`, `online`), for the metrics.
    pub async fn games_in_progress(&self) -> Result<Vec<(String, i64)>> {
        with_reader!(self, pool => {
            Ok(sqlx::query_as(
                "SELECT mode, COUNT(*) FROM games WHERE status = 'playing' GROUP BY mode",
            )
            .fetch_all(pool)
            .await?)
        })
    }

    /// The newest migration applied, and the newest this build knows (`/readyz`): a query that
    /// needs the database to answer.
    pub async fn readiness(&self) -> Result<(i64, i64)> {
        let known = match self.pool {
            Pool::Sqlite { .. } => MIGRATIONS.len() as i64,
            Pool::Pg(_) => PG_MIGRATIONS.len() as i64,
        };
        let applied: i64 = with_reader!(self, pool => {
            sqlx::query_scalar("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
                .fetch_one(pool)
                .await?
        });
        Ok((applied, known))
    }

    /// Closes the pool (waits for connections to finish).
    pub async fn close(&self) {
        if let Pool::Sqlite { read, .. } = &self.pool {
            read.close().await;
        }
        with_pool!(self, pool => pool.close().await)
    }

    /// Stores a new game and the forced passes it starts with, if any.
    pub async fn insert_game(&self, live: &LiveGame) -> Result<()> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            insert_game!(tx, live);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Stores imported games (with their moves) in one transaction, marked as imported by
    /// `by` (the quotas' key) and, for a guest's, to be deleted at `expires_at` (Unix ms).
    pub async fn insert_imported(&self, lives: &[LiveGame], by: &str, expires_at: Option<i64>) -> Result<()> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            for live in lives {
                insert_game!(tx, live);
                sqlx::query("UPDATE games SET imported_by = $1, expires_at = $2 WHERE id = $3")
                    .bind(by)
                    .bind(expires_at)
                    .bind(&live.record.id)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Deletes up to `batch` games whose time ran out before `now` (a guest's imports), with
    /// everything stored about them; returns their ids (for the instances holding them).
    pub async fn purge_expired_games(&self, now: i64, batch: i64) -> Result<Vec<String>> {
        with_pool!(self, pool => {
            let ids: Vec<String> = sqlx::query_scalar(
                "SELECT id FROM games WHERE expires_at IS NOT NULL AND expires_at < $1 LIMIT $2",
            )
            .bind(now)
            .bind(batch)
            .fetch_all(pool)
            .await?;
            for id in &ids {
                let mut tx = pool.begin().await?;
                for q in [
                    "DELETE FROM analysis_moves WHERE game_id = $1",
                    "DELETE FROM analyses WHERE game_id = $1",
                    "DELETE FROM chat WHERE game_id = $1",
                    "DELETE FROM presence WHERE game_id = $1",
                    "DELETE FROM moves WHERE game_id = $1",
                    "DELETE FROM games WHERE id = $1",
                ] {
                    sqlx::query(q).bind(id).execute(&mut *tx).await?;
                }
                tx.commit().await?;
            }
            Ok(ids)
        })
    }

    /// Stores `new`, the rematch of game `old_id`, and records it on the old game, in one
    /// transaction; false (and nothing stored) when the old game already has a rematch.
    pub async fn insert_rematch(&self, old_id: &str, new: &LiveGame) -> Result<bool> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let done = sqlx::query("UPDATE games SET rematch_id = $1 WHERE id = $2 AND rematch_id IS NULL")
                .bind(&new.record.id)
                .bind(old_id)
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
            insert_game!(tx, new);
            notify!(self, tx, old_id);
            tx.commit().await?;
        });
        Ok(true)
    }

    /// Stores `moves`, played from ply `from`, and the game's new summary, in one transaction.
    pub async fn append_moves(&self, live: &LiveGame, from: usize, moves: &[Move]) -> Result<()> {
        let start = std::time::Instant::now();
        let span = tracing::debug_span!("db.append_moves", game = %live.record.id, moves = moves.len());
        let stored = tracing::Instrument::instrument(self.append_moves_timed(live, from, moves), span).await;
        if stored.is_ok() {
            metrics::histogram!("reversi_db_write_seconds").record(start.elapsed().as_secs_f64());
            metrics::counter!("reversi_moves_stored_total").increment(moves.len() as u64);
        }
        stored
    }

    async fn append_moves_timed(&self, live: &LiveGame, from: usize, moves: &[Move]) -> Result<()> {
        if let Some(appends) = &self.appends {
            let (done, stored) = oneshot::channel();
            let job = AppendJob {
                id: live.record.id.clone(),
                from,
                moves: moves.iter().map(Move::to_string).collect(),
                times: OnlineSummary::times(live),
                summary: Summary::of(live),
                done,
            };
            let gone = || Error::Internal(WRITER_GONE.into());
            appends.send(job).map_err(|_| gone())?;
            return stored.await.map_err(|_| gone())?;
        }
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            insert_moves!(tx, &live.record.id, from, moves, OnlineSummary::times(live));
            update_summary!(tx, live);
            notify!(self, tx, &live.record.id);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Deletes the moves from ply `ply` on (undo) and stores the new summary.
    pub async fn truncate_moves(&self, live: &LiveGame, ply: usize) -> Result<()> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                .bind(&live.record.id)
                .bind(ply as i64)
                .execute(&mut *tx)
                .await?;
            // An analysis of the moves taken back is void (a finished game can be undone
            // against the computer).
            sqlx::query("DELETE FROM analysis_moves WHERE game_id = $1")
                .bind(&live.record.id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM analyses WHERE game_id = $1")
                .bind(&live.record.id)
                .execute(&mut *tx)
                .await?;
            update_summary!(tx, live);
            notify!(self, tx, &live.record.id);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Stores the seat tokens, the resignation and the summary of `live`.
    pub async fn update_game(&self, live: &LiveGame) -> Result<()> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "UPDATE games SET black_token = $1, white_token = $2, resigned = $3, join_token = $4, \
                 ended = $6, left_game = $7 WHERE id = $5",
            )
                .bind(live.record.tokens[0].as_deref())
                .bind(live.record.tokens[1].as_deref())
                .bind(live.record.resigned.map(Color::name))
                .bind(live.record.join_token.as_deref())
                .bind(&live.record.id)
                .bind(live.record.void.map(VoidEnd::as_str))
                .bind(live.record.left as i64)
                .execute(&mut *tx)
                .await?;
            update_summary!(tx, live);
            notify!(self, tx, &live.record.id);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Games still being played whose last change is older than `before` (Unix seconds), at
    /// most `limit`, oldest first.
    pub async fn idle_games(&self, before: i64, limit: u32) -> Result<Vec<String>> {
        with_reader!(self, pool => {
            Ok(sqlx::query_scalar(
                "SELECT id FROM games WHERE status = 'playing' AND updated_at < $1 AND flag_at IS NULL \
                 ORDER BY updated_at, id LIMIT $2",
            )
            .bind(before)
            .bind(limit as i64)
            .fetch_all(pool)
            .await?)
        })
    }

    /// Loads a game and its moves; `None` when there is no such game.
    pub async fn load_game(&self, id: &str) -> Result<Option<LiveGame>> {
        let bad = |what: &str| Error::Internal(format!("game {id}: bad stored {what}"));
        let kind = |s: String| match s.as_str() {
            "ai" => Ok(PlayerKind::Ai),
            "human" => Ok(PlayerKind::Human),
            _ => Err(bad("player")),
        };
        let (record, rows, version) = with_reader!(self, pool => {
            let Some(row) = sqlx::query(
                "SELECT id, variant, mode, level, black_player, white_player, black_token, white_token, \
                 resigned, left_game, created_at, rematch_id, join_token, version, ended, seat_info, \
                 rated, clock, flagged, black_name, white_name, tournament, private FROM games WHERE id = $1",
            )
            .bind(id)
            .fetch_optional(pool)
            .await?
            else {
                return Ok(None);
            };
            let variant: String = row.try_get("variant")?;
            let variant = Variant::from_str(&variant).map_err(|_| bad("variant"))?;
            let mode: String = row.try_get("mode")?;
            let resigned: Option<String> = row.try_get("resigned")?;
            let record = GameRecord {
                id: row.try_get("id")?,
                variant,
                mode: Mode::parse(&mode).ok_or_else(|| bad("mode"))?,
                level: row.try_get::<i64, _>("level")? as u32,
                players: [
                    kind(row.try_get("black_player")?)?,
                    kind(row.try_get("white_player")?)?,
                ],
                tokens: [row.try_get("black_token")?, row.try_get("white_token")?],
                resigned: resigned.as_deref().and_then(reversi_site::game::parse_color),
                left: row.try_get::<i64, _>("left_game")? != 0,
                created_at: row.try_get("created_at")?,
                rematch: row.try_get("rematch_id")?,
                join_token: row.try_get("join_token")?,
                void: row
                    .try_get::<Option<String>, _>("ended")?
                    .map(|e| VoidEnd::parse(&e).ok_or_else(|| bad("ending")))
                    .transpose()?,
                online: None,
            };
            let mut record = record;
            if let Some(info) = row.try_get::<Option<String>, _>("seat_info")? {
                let mut seats: [reversi_site::game::online::SeatInfo; 2] =
                    serde_json::from_str(&info).map_err(|_| bad("seat info"))?;
                // The name columns lose a deleted account's name.
                seats[0].name = row.try_get("black_name")?;
                seats[1].name = row.try_get("white_name")?;
                let timing = row
                    .try_get::<Option<String>, _>("clock")?
                    .map(|c| serde_json::from_str(&c).map_err(|_| bad("clock")))
                    .transpose()?;
                let flagged: Option<String> = row.try_get("flagged")?;
                record.online = Some(reversi_site::game::online::Online {
                    seats,
                    rated: row.try_get::<i64, _>("rated")? != 0,
                    timing,
                    flagged: flagged.as_deref().and_then(reversi_site::game::parse_color),
                    tournament: row.try_get("tournament")?,
                    private: row.try_get::<i64, _>("private")? != 0,
                });
            }
            let version: i64 = row.try_get("version")?;
            let rows: Vec<String> =
                sqlx::query_scalar("SELECT mv FROM moves WHERE game_id = $1 ORDER BY ply")
                    .bind(id)
                    .fetch_all(pool)
                    .await?;
            (record, rows, version)
        });
        let moves = rows
            .iter()
            .map(|m| parse_move(m).map_err(|_| bad("move")))
            .collect::<Result<Vec<Move>>>()?;
        Ok(Some(LiveGame::restore(
            record,
            &moves,
            version.max(0) as u64,
            crate::time::clock_ms(),
        )?))
    }

    /// A page of games and how many match in all. `status` filters on `playing` or `finished`;
    /// finished games come in the order they ended, newest first, others by their latest change.
    pub async fn list_games(
        &self,
        status: Option<&str>,
        offset: u32,
        limit: u32,
    ) -> Result<(Vec<GameSummary>, i64)> {
        let order = if status == Some("finished") {
            "g.finished_at DESC, g.id"
        } else {
            "g.updated_at DESC, g.id"
        };
        let sql = format!(
            "{SUMMARY_SELECT} WHERE ($1 IS NULL OR g.status = $1) AND g.private = 0 \
             ORDER BY {order} LIMIT $2 OFFSET $3"
        );
        with_reader!(self, pool => {
            let rows = sqlx::query(&sql)
                .bind(status)
                .bind(limit as i64)
                .bind(offset as i64)
                .fetch_all(pool)
                .await?;
            let total: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM games WHERE ($1 IS NULL OR status = $1) AND private = 0",
            )
                .bind(status)
                .fetch_one(pool)
                .await?;
            let games = rows.iter().map(summary_of).collect::<Result<Vec<_>>>()?;
            Ok((games, total))
        })
    }

    /// The games of `ids` that exist (at most 50 asked), latest change first.
    pub async fn games_by_id(&self, ids: &[&str]) -> Result<Vec<GameSummary>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "{SUMMARY_SELECT} WHERE g.id IN ({}) ORDER BY g.updated_at DESC, g.id",
            marks.join(", ")
        );
        with_reader!(self, pool => {
            let mut q = sqlx::query(&sql);
            for id in ids {
                q = q.bind(*id);
            }
            let rows = q.fetch_all(pool).await?;
            rows.iter().map(summary_of).collect()
        })
    }

    /// Asks for the analysis of game `id` at `level` for `requester` (an account, or `ip:` and
    /// an address): queues it unless it is queued, running or done already (a failed one is
    /// queued again), and answers its status. A new job is refused (`Err(cap)`) when the
    /// requester has `per_requester` jobs queued or running, or the queue holds `queue_max`:
    /// checked and stored in one transaction no other request's can interleave with.
    pub async fn request_analysis(
        &self,
        id: &str,
        level: u32,
        requester: &str,
        per_requester: i64,
        queue_max: i64,
    ) -> Result<std::result::Result<String, AnalysisCap>> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if matches!(self.pool, Pool::Pg(_)) {
                sqlx::query("SELECT pg_advisory_xact_lock(4246)").execute(&mut *tx).await?;
            }
            let status: Option<String> = sqlx::query_scalar("SELECT status FROM analyses WHERE game_id = $1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
            if let Some(s) = status.filter(|s| s != "failed") {
                return Ok(Ok(s));
            }
            let mine: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM analyses WHERE requester = $1 AND status IN ('queued', 'running')",
            )
            .bind(requester)
            .fetch_one(&mut *tx)
            .await?;
            if mine >= per_requester {
                return Ok(Err(AnalysisCap::Requester));
            }
            let queued: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM analyses WHERE status = 'queued'")
                .fetch_one(&mut *tx)
                .await?;
            if queued >= queue_max {
                return Ok(Err(AnalysisCap::Queue));
            }
            sqlx::query(
                "INSERT INTO analyses (game_id, status, level, requested_at, requester) \
                 VALUES ($1, 'queued', $2, $3, $4) \
                 ON CONFLICT (game_id) DO UPDATE SET status = 'queued', error = NULL, owner = NULL, \
                 requested_at = excluded.requested_at, requester = excluded.requester",
            )
            .bind(id)
            .bind(level as i64)
            .bind(now())
            .bind(requester)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(Ok("queued".to_string()))
        })
    }

    /// The analysis of game `id` (its status and the moves analysed so far), if one was asked for.
    pub async fn analysis(&self, id: &str) -> Result<Option<AnalysisRecord>> {
        with_reader!(self, pool => {
            let Some(row) = sqlx::query(
                "SELECT status, level, error, requested_at, started_at, finished_at FROM analyses \
                 WHERE game_id = $1",
            )
            .bind(id)
            .fetch_optional(pool)
            .await?
            else {
                return Ok(None);
            };
            let rows = sqlx::query(
                "SELECT ply, player, played, best, played_score, best_score, loss, exact, facts \
                 FROM analysis_moves WHERE game_id = $1 ORDER BY ply",
            )
            .bind(id)
            .fetch_all(pool)
            .await?;
            let moves = rows
                .iter()
                .map(|r| {
                    Ok(AnalysedMove {
                        ply: r.try_get("ply")?,
                        player: r.try_get("player")?,
                        played: r.try_get("played")?,
                        best: r.try_get("best")?,
                        played_score: r.try_get("played_score")?,
                        best_score: r.try_get("best_score")?,
                        loss: r.try_get("loss")?,
                        exact: r.try_get::<i64, _>("exact")? != 0,
                        facts: r
                            .try_get::<Option<String>, _>("facts")?
                            .and_then(|f| serde_json::from_str(&f).ok())
                            .unwrap_or_default(),
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(Some(AnalysisRecord {
                status: row.try_get("status")?,
                level: row.try_get("level")?,
                error: row.try_get("error")?,
                requested_at: row.try_get("requested_at")?,
                started_at: row.try_get("started_at")?,
                finished_at: row.try_get("finished_at")?,
                moves,
            }))
        })
    }

    /// Takes the oldest analysis waiting to run for `owner`: a queued one, or a running one
    /// whose heartbeat is older than `stale_before` (Unix seconds; its server died). Returns the
    /// game id and level.
    pub async fn claim_analysis(&self, owner: &str, stale_before: i64) -> Result<Option<(String, u32)>> {
        for _ in 0..5 {
            let candidate: Option<(String, i64)> = with_reader!(self, pool => {
                // In turn per requester: a job goes before every job of a requester with more
                // jobs ahead of it (running, or queued earlier), so one requester's hundred
                // requests delay another's first by one job at most.
                sqlx::query_as(
                    "SELECT a.game_id, a.level FROM analyses a \
                     WHERE a.status = 'queued' OR (a.status = 'running' AND a.heartbeat_at < $1) \
                     ORDER BY (SELECT COUNT(*) FROM analyses b WHERE b.requester = a.requester \
                       AND b.game_id <> a.game_id AND (b.status = 'running' OR (b.status = 'queued' \
                       AND (b.requested_at < a.requested_at \
                       OR (b.requested_at = a.requested_at AND b.game_id < a.game_id))))), \
                     a.requested_at, a.game_id LIMIT 1",
                )
                .bind(stale_before)
                .fetch_optional(pool)
                .await?
            });
            let Some((id, level)) = candidate else {
                return Ok(None);
            };
            let claimed = with_pool!(self, pool => {
                sqlx::query(
                    "UPDATE analyses SET status = 'running', owner = $1, started_at = $2, heartbeat_at = $2 \
                     WHERE game_id = $3 AND (status = 'queued' OR (status = 'running' AND heartbeat_at < $4))",
                )
                .bind(owner)
                .bind(now())
                .bind(&id)
                .bind(stale_before)
                .execute(pool)
                .await?
                .rows_affected()
            });
            if claimed == 1 {
                return Ok(Some((id, level.clamp(1, 60) as u32)));
            }
            // Another instance took it first: look again.
        }
        Ok(None)
    }

    /// Stores one analysed move of a job `owner` runs, and its heartbeat; false (nothing
    /// stored) when the job is no longer `owner`'s (taken over, or the game was undone).
    pub async fn store_analysed_move(&self, id: &str, owner: &str, m: &AnalysedMove) -> Result<bool> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let mine = sqlx::query(
                "UPDATE analyses SET heartbeat_at = $1 WHERE game_id = $2 AND owner = $3 AND status = 'running'",
            )
            .bind(now())
            .bind(id)
            .bind(owner)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if mine != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
            sqlx::query("DELETE FROM analysis_moves WHERE game_id = $1 AND ply = $2")
                .bind(id)
                .bind(m.ply)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO analysis_moves (game_id, ply, player, played, best, played_score, best_score, \
                 loss, exact, facts) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(id)
            .bind(m.ply)
            .bind(&m.player)
            .bind(&m.played)
            .bind(&m.best)
            .bind(m.played_score)
            .bind(m.best_score)
            .bind(m.loss)
            .bind(m.exact as i64)
            .bind(serde_json::Value::Array(m.facts.clone()).to_string())
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Ends a job `owner` runs: `done`, or `failed` with `error`. False when it was not theirs.
    pub async fn finish_analysis(&self, id: &str, owner: &str, error: Option<&str>) -> Result<bool> {
        with_pool!(self, pool => {
            let n = sqlx::query(
                "UPDATE analyses SET status = $1, error = $2, finished_at = $3, heartbeat_at = $3 \
                 WHERE game_id = $4 AND owner = $5 AND status = 'running'",
            )
            .bind(if error.is_some() { "failed" } else { "done" })
            .bind(error)
            .bind(now())
            .bind(id)
            .bind(owner)
            .execute(pool)
            .await?
            .rows_affected();
            Ok(n == 1)
        })
    }

    /// Puts every running analysis back in the queue (at start on SQLite, whose file one process
    /// owns: a job still marked running was cut short by the last shutdown). Returns how many.
    pub async fn requeue_running_analyses(&self) -> Result<u64> {
        with_pool!(self, pool => {
            Ok(sqlx::query("UPDATE analyses SET status = 'queued', owner = NULL WHERE status = 'running'")
                .execute(pool)
                .await?
                .rows_affected())
        })
    }

    /// The tag this process puts on its notifications and analysis jobs.
    pub fn instance(&self) -> &str {
        &self.instance
    }
}

/// Why [`Db::request_analysis`] refused a new job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisCap {
    /// The requester has its most jobs queued or running.
    Requester,
    /// The queue is full.
    Queue,
}

/// An analysis as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AnalysisRecord {
    /// `queued`, `running`, `done` or `failed`.
    pub status: String,
    /// The engine level it runs at.
    pub level: i64,
    /// Why it failed.
    pub error: Option<String>,
    /// When it was asked for (Unix seconds).
    pub requested_at: i64,
    /// When it (last) started.
    pub started_at: Option<i64>,
    /// When it ended.
    pub finished_at: Option<i64>,
    /// The moves analysed so far, in order.
    pub moves: Vec<AnalysedMove>,
}

/// The verdict on one move (passes are not analysed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AnalysedMove {
    /// 1-based ply of the move (passes count).
    pub ply: i64,
    /// `black` or `white`: who played it.
    pub player: String,
    /// The move played.
    pub played: String,
    /// The engine's choice.
    pub best: String,
    /// The score of the move played, discs for the player (the final margin when exact).
    pub played_score: i64,
    /// The score of the best move for the player.
    pub best_score: i64,
    /// Discs lost by the move played: `best_score - played_score` (0 for a best move).
    pub loss: i64,
    /// Whether both scores are exact endgame results.
    pub exact: bool,
    /// The coach's sentences about the move, each `{"id": "coach-…", "args": {…}}` (Fluent
    /// message and arguments; see `reversi_engine::coach`). Empty for analyses made before
    /// the coach.
    pub facts: Vec<serde_json::Value>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{Bits, Square};
    use reversi_site::game::Mode;

    fn new_game(id: &str) -> LiveGame {
        LiveGame::new(
            GameRecord {
                id: id.to_string(),
                variant: Variant::Othello,
                mode: Mode::Friend,
                level: 1,
                players: [PlayerKind::Human; 2],
                tokens: [None, None],
                resigned: None,
                left: false,
                created_at: now(),
                rematch: None,
                join_token: None,
                void: None,
                online: None,
            },
            0,
        )
    }

    /// Many games moving at once share commits; an append that cannot be stored (its ply is
    /// taken) fails alone, and every other move is stored once, in order.
    #[tokio::test]
    async fn group_commit_stores_every_move_and_fails_only_the_bad_append() {
        let dir = std::env::temp_dir().join(format!("reversi-group-{}", crate::secret::random_string(8)));
        std::fs::create_dir_all(&dir).unwrap();
        let db = Db::connect(dir.join("g.db").to_str().unwrap()).await.unwrap();
        let mut games: Vec<LiveGame> = (0..40).map(|i| new_game(&format!("g{i}"))).collect();
        for g in &games {
            db.insert_game(g).await.unwrap();
        }
        for round in 0..6 {
            let mut tasks = Vec::new();
            for g in &mut games {
                let before = g.game.ply();
                let legal: Vec<Square> = g.game.legal_moves().squares().collect();
                let added = g.play_checked(Move::Play(legal[round % legal.len()]), 0).unwrap();
                let (db, g) = (db.clone(), g.clone());
                tasks.push(tokio::spawn(
                    async move { db.append_moves(&g, before, &added).await },
                ));
            }
            // A stale copy of the first game appends again at a ply already stored.
            let stale = if round > 0 {
                let mut s = new_game("g0");
                let first = s.game.legal_moves().first().unwrap();
                let added = s.play_checked(Move::Play(first), 0).unwrap();
                let db = db.clone();
                Some(tokio::spawn(async move { db.append_moves(&s, 0, &added).await }))
            } else {
                None
            };
            for t in tasks {
                t.await.unwrap().unwrap();
            }
            if let Some(t) = stale {
                assert!(
                    t.await.unwrap().is_err(),
                    "round {round}: a taken ply was stored again"
                );
            }
        }
        for g in &games {
            let stored = db.load_game(&g.record.id).await.unwrap().unwrap();
            assert_eq!(stored.game.moves(), g.game.moves(), "game {}", g.record.id);
            assert_eq!(stored.game.ply(), 6);
        }
        let (list, total) = db.list_games(None, 0, 100).await.unwrap();
        assert_eq!(total, 40);
        assert!(
            list.iter().all(|s| s.move_count == 6),
            "summaries follow the moves"
        );
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }
}
