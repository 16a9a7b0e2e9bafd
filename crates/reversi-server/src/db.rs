//! Persistence: every game and every move, so that a game survives a restart. SQLite or
//! PostgreSQL through sqlx, with the same SQL (`$N` parameters, which both accept); the schema
//! of each is embedded in the binary and applied at start.
//!
//! On PostgreSQL every change of a game also sends `NOTIFY reversi_games` (in the transaction
//! that stores it), so that other server instances sharing the database can push it to the
//! players connected to them ([`Db::listen`]).

use crate::error::{Error, Result};
use crate::time::Clock;
use reversi_core::Color;
use reversi_site::game::LiveGame;
use reversi_site_api::GameView;
use sqlx::postgres::{PgConnectOptions, PgListener, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use std::str::FromStr;
use std::sync::Arc;
use tokio::sync::mpsc;

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
    appends: Option<mpsc::UnboundedSender<games::AppendJob>>,
    /// Counts the lobby's changes, this instance's and (told by `LISTEN`) the others', for
    /// the lobby's websockets to wait on.
    lobby: Arc<tokio::sync::watch::Sender<u64>>,
    /// The tournaments and analyses that changed, this instance's and (told by `LISTEN`) the
    /// others', for the pages' websockets.
    topics: tokio::sync::broadcast::Sender<Topic>,
    /// Set once this process has made sure every shipped puzzle has its rating row.
    puzzles_stored: Arc<tokio::sync::OnceCell<()>>,
    /// The server's clock: the time every stored timestamp comes from.
    clock: Clock,
}

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
    ($tx:ident, $live:expr, $now_ms:expr) => {{
        let r = &$live.record;
        let online = r.online.as_ref();
        let user = |c: usize| online.map(|o| o.seats[c].key.clone());
        let name = |c: usize| online.and_then(|o| o.seats[c].name.clone());
        sqlx::query(
            "INSERT INTO games (id, variant, mode, level, black_player, white_player, black_token, \
             white_token, created_at, updated_at, join_token, black_user, white_user, black_name, \
             white_name, rated, tournament, private, tie) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)",
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
        // A draw, every preset's rule, is left NULL.
        .bind((r.tie != reversi_core::TieRule::Draw).then(|| r.tie.name()))
        .execute(&mut *$tx)
        .await?;
        insert_moves!($tx, &r.id, 0, $live.game.moves(), None);
        update_summary!($tx, $live, $now_ms);
    }};
}

/// Stores the summary columns of `$live` at `$now_ms` in the open transaction `$tx`.
macro_rules! update_summary {
    ($tx:ident, $live:expr, $now_ms:expr) => {{
        let summary = $crate::db::Summary::of(&$live, $now_ms);
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
             ELSE COALESCE(finished_at, $7) END, version = $9, takeback = $10, conditional = $11 WHERE id = $8",
        )
        .bind(s.status)
        .bind(s.black)
        .bind(s.white)
        .bind(s.winner)
        .bind(s.ply)
        .bind(s.updated_at)
        .bind(s.finished_at)
        .bind($id)
        .bind(s.version)
        .bind(s.takeback)
        .bind(s.conditional)
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
    /// When it is stored (Unix s).
    updated_at: i64,
    /// The game's version with this change (stored so that it never goes back after a restart).
    version: i64,
    /// The side asking for a takeback, while the offer waits.
    takeback: Option<&'static str>,
    /// JSON of both sides' conditional premoves, if either has any.
    conditional: Option<String>,
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
    /// The summary of `live` stored at `now_ms` (Unix ms).
    fn of(live: &LiveGame, now_ms: i64) -> Summary {
        let v: GameView = live.view(now_ms.max(0) as u64);
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
            finished_at: (v.status != reversi_site_api::GameStatus::Playing).then_some(now_ms),
            updated_at: now_ms.div_euclid(1000),
            version: live.version.min(i64::MAX as u64) as i64,
            takeback: live.takeback.map(Color::name),
            conditional: live
                .conditional
                .iter()
                .any(Option::is_some)
                .then(|| serde_json::to_string(&live.conditional).unwrap_or_default()),
            online: OnlineSummary::of(live),
        }
    }
}

/// Within the open transaction `$tx`, tells the other instances (PostgreSQL) that game `$id`
/// changed; the notification is sent when the transaction commits.
macro_rules! notify {
    ($db:expr, $tx:ident, $id:expr) => {
        if $db.shared() {
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
        if $db.shared() {
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
        if $db.shared() {
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
        if $db.shared() {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind($crate::db::NOTIFY_CHANNEL)
                .bind(format!("{}:{}{}", $db.instance, $crate::db::PRESENCE_CHANGE, $id))
                .execute(&mut *$tx)
                .await?;
        }
    };
}

/// Within the open transaction `$tx`, tells the other instances (PostgreSQL) of a change of
/// `$topic` (a [`Topic`]); once committed, [`Db::announce`] tells this one's pages.
macro_rules! notify_topic {
    ($db:expr, $tx:ident, $topic:expr) => {
        if $db.shared() {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind($crate::db::NOTIFY_CHANNEL)
                .bind(format!("{}:{}", $db.instance, $topic.payload()))
                .execute(&mut *$tx)
                .await?;
        }
    };
}

/// Within the open transaction `$tx`, takes the lock named `$key` until it ends: actions that
/// check and then write (a cap, the next number of a sequence) run one at a time. SQLite writes
/// through one connection, one transaction at a time, so only PostgreSQL needs the lock.
macro_rules! lock_in_tx {
    ($db:expr, $tx:ident, $key:expr) => {
        if $db.shared() {
            sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
                .bind($key)
                .execute(&mut *$tx)
                .await?;
        }
    };
}

pub mod accounts;
pub mod analyses;
pub mod backup;
pub mod chat;
pub mod clocks;
pub mod explorer;
pub mod games;
pub mod lessons;
pub mod lobby;
pub mod mail;
pub mod meta;
pub mod moderation;
pub mod outbox;
pub mod people;
pub mod presence;
pub mod profile;
pub mod puzzles;
pub mod ratings;
pub mod retention;
pub mod schema;
pub mod throttle;
pub mod tournaments;

pub use accounts::User;
pub use analyses::{AnalysedMove, AnalysisCap, AnalysisRecord};
pub use chat::ChatLine;
pub use clocks::PairingLock;
pub use games::GameSummary;
pub use lobby::{SeekCap, SeekOutcome, SeekRow};
pub use profile::{ColourResults, LiveRow};
pub use ratings::{BoardLine, RatingPoint};
pub use tournaments::{EntrantRow, NewPairing, PairingRow, TournamentChatLine, TournamentRow};

/// The notification payload (after the instance) of a change of the lobby.
pub const LOBBY_CHANGE: &str = "lobby:";
/// The prefix of a notification payload (after the instance) of a new chat message of a game.
pub const CHAT_CHANGE: &str = "chat:";
/// Announcements a page's socket may fall behind by before it is told it lagged.
pub const TOPIC_BACKLOG: usize = 256;

/// What pages follow through their live sockets besides the games and the lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Topic {
    /// A tournament changed (its id).
    Tournament(Arc<str>),
    /// A game's analysis moved on (the game's id).
    Analysis(Arc<str>),
    /// What the accounts' lists of games show changed: a game of theirs waits for another
    /// side now, ended or began; a challenge came, was taken or declined (the accounts' ids,
    /// comma-separated).
    Accounts(Arc<str>),
    /// Anything may have changed (notifications may have been missed).
    Everything,
}

impl Topic {
    /// The notification payload (after the instance).
    fn payload(&self) -> String {
        match self {
            Topic::Tournament(id) => format!("tournament:{id}"),
            Topic::Analysis(id) => format!("analysis:{id}"),
            Topic::Accounts(ids) => format!("accounts:{ids}"),
            Topic::Everything => "everything:".into(),
        }
    }

    /// The topic of a notification payload (after the instance), if it is one.
    fn parse(payload: &str) -> Option<Topic> {
        if let Some(id) = payload.strip_prefix("tournament:") {
            Some(Topic::Tournament(id.into()))
        } else if let Some(id) = payload.strip_prefix("analysis:") {
            Some(Topic::Analysis(id.into()))
        } else if let Some(ids) = payload.strip_prefix("accounts:") {
            Some(Topic::Accounts(ids.into()))
        } else {
            (payload == "everything:").then_some(Topic::Everything)
        }
    }

    /// Whether a page of tournament `id` must look again after this change.
    pub fn concerns_tournament(&self, id: &str) -> bool {
        match self {
            Topic::Tournament(t) => **t == *id,
            Topic::Analysis(_) | Topic::Accounts(_) => false,
            Topic::Everything => true,
        }
    }

    /// Whether a page following the analysis of game `id` must look again after this change.
    pub fn concerns_analysis(&self, id: &str) -> bool {
        match self {
            Topic::Analysis(g) => **g == *id,
            Topic::Tournament(_) | Topic::Accounts(_) => false,
            Topic::Everything => true,
        }
    }

    /// Whether the list of games of account `id` must be read again after this change.
    pub fn concerns_account(&self, id: &str) -> bool {
        match self {
            Topic::Accounts(ids) => ids.split(',').any(|a| a == id),
            Topic::Tournament(_) | Topic::Analysis(_) => false,
            Topic::Everything => true,
        }
    }
}

/// The prefix of a notification payload (after the instance) of a change of who is connected
/// to a game.
pub const PRESENCE_CHANGE: &str = "presence:";

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
    /// A tournament or an analysis changed.
    Topic(Topic),
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
                } else if let Some(topic) = Topic::parse(id) {
                    Change::Topic(topic)
                } else if let Some(game) = id.strip_prefix(PRESENCE_CHANGE) {
                    Change::Presence(game.to_string())
                } else {
                    Change::Game(id.to_string())
                }));
            }
        }
    }
}

/// Rows one clean-up statement deletes at most (the next run takes the rest).
pub const PURGE_BATCH: i64 = 5_000;

impl Db {
    /// Opens (creating when missing) the database at `url` and applies the schema, on the
    /// system clock. `url` is a `sqlite:` URL (`sqlite://reversi.db`, `sqlite::memory:`), a
    /// plain file path or a `postgres://` URL.
    pub async fn connect(url: &str) -> Result<Db> {
        Db::connect_with_clock(url, Clock::system()).await
    }

    /// [`Db::connect`] with the server's clock.
    pub async fn connect_with_clock(url: &str, clock: Clock) -> Result<Db> {
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
                topics: tokio::sync::broadcast::Sender::new(TOPIC_BACKLOG),
                puzzles_stored: Arc::default(),
                clock,
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
        tokio::spawn(games::group_commit(write.clone(), jobs));
        let db = Db {
            pool: Pool::Sqlite { write, read },
            instance,
            appends: Some(appends),
            lobby: Arc::new(tokio::sync::watch::Sender::new(0)),
            topics: tokio::sync::broadcast::Sender::new(TOPIC_BACKLOG),
            puzzles_stored: Arc::default(),
            clock,
        };
        db.migrate().await?;
        Ok(db)
    }

    /// The server's clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Marks a change of the lobby (its seeks, pools or the games they became), once stored.
    pub fn lobby_changed(&self) {
        self.lobby.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// A receiver that sees every later [`Db::lobby_changed`].
    pub fn watch_lobby(&self) -> tokio::sync::watch::Receiver<u64> {
        self.lobby.subscribe()
    }

    /// Tells this instance's pages of a stored change of `topic`; the other instances hear of
    /// it through the notification sent with the change ([`notify_topic!`]).
    pub fn announce(&self, topic: Topic) {
        // Nobody listening is fine.
        let _ = self.topics.send(topic);
    }

    /// [`Db::announce`] for a change stored outside a transaction: the other instances are
    /// notified first.
    pub async fn announce_stored(&self, topic: Topic) -> Result<()> {
        if let Pool::Pg(pool) = &self.pool {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(NOTIFY_CHANNEL)
                .bind(format!("{}:{}", self.instance, topic.payload()))
                .execute(pool)
                .await?;
        }
        self.announce(topic);
        Ok(())
    }

    /// Tells the pages of the accounts among `keys` (player keys: guests are left out), at
    /// every instance, that their lists of games changed ([`Topic::Accounts`]). A failure is
    /// logged, not returned: the pages read the list again by themselves before long.
    pub async fn tell_accounts(&self, keys: &[&str]) {
        let ids: Vec<&str> = keys
            .iter()
            .copied()
            .filter(|k| !k.is_empty() && !k.starts_with(reversi_site::game::online::GUEST_PREFIX))
            .collect();
        if ids.is_empty() {
            return;
        }
        if let Err(e) = self.announce_stored(Topic::Accounts(ids.join(",").into())).await {
            tracing::warn!("telling accounts of a change: {e}");
        }
    }

    /// A receiver of every later [`Db::announce`] (one that falls more than [`TOPIC_BACKLOG`]
    /// behind is told it lagged: it should read everything again).
    pub fn watch_topics(&self) -> tokio::sync::broadcast::Receiver<Topic> {
        self.topics.subscribe()
    }

    /// The SQL the database speaks.
    pub fn dialect(&self) -> schema::Dialect {
        match self.pool {
            Pool::Sqlite { .. } => schema::Dialect::Sqlite,
            Pool::Pg(_) => schema::Dialect::Postgres,
        }
    }

    /// The games.
    pub fn games(&self) -> games::Games<'_> {
        games::Games(self)
    }

    /// The game analyses.
    pub fn analyses(&self) -> analyses::Analyses<'_> {
        analyses::Analyses(self)
    }

    /// The accounts and their sessions.
    pub fn accounts(&self) -> accounts::Accounts<'_> {
        accounts::Accounts(self)
    }

    /// The games' chat.
    pub fn chat(&self) -> chat::Chat<'_> {
        chat::Chat(self)
    }

    /// The clocks' deadlines and the site's heartbeat.
    pub fn clocks(&self) -> clocks::Clocks<'_> {
        clocks::Clocks(self)
    }

    /// The game database explorer.
    pub fn explorer(&self) -> explorer::Explorer<'_> {
        explorer::Explorer(self)
    }

    /// Follows, blocks and when accounts were last seen.
    pub fn people(&self) -> people::People<'_> {
        people::People(self)
    }

    /// The letters about play waiting to be mailed.
    pub fn outbox(&self) -> outbox::Outbox<'_> {
        outbox::Outbox(self)
    }

    /// Reports, moderators' actions on accounts, and their log.
    pub fn moderation(&self) -> moderation::Moderation<'_> {
        moderation::Moderation(self)
    }

    /// The links mailed to accounts (address verification, password reset).
    pub fn mail_tokens(&self) -> mail::MailTokens<'_> {
        mail::MailTokens(self)
    }

    /// The lessons accounts have finished.
    pub fn lessons(&self) -> lessons::Lessons<'_> {
        lessons::Lessons(self)
    }

    /// The lobby's seeks and pools.
    pub fn lobby(&self) -> lobby::Lobby<'_> {
        lobby::Lobby(self)
    }

    /// The site's own settings.
    pub fn meta(&self) -> meta::Meta<'_> {
        meta::Meta(self)
    }

    /// Who is connected to each game, per instance.
    pub fn presence(&self) -> presence::Presence<'_> {
        presence::Presence(self)
    }

    /// What the profiles read.
    pub fn profiles(&self) -> profile::Profiles<'_> {
        profile::Profiles(self)
    }

    /// The puzzles' ratings and attempts.
    pub fn puzzles(&self) -> puzzles::Puzzles<'_> {
        puzzles::Puzzles(self)
    }

    /// The ratings and their history.
    pub fn ratings(&self) -> ratings::Ratings<'_> {
        ratings::Ratings(self)
    }

    /// The throttles' counters.
    pub fn throttle(&self) -> throttle::Throttle<'_> {
        throttle::Throttle(self)
    }

    /// The tournaments.
    pub fn tournaments(&self) -> tournaments::Tournaments<'_> {
        tournaments::Tournaments(self)
    }

    /// Whether other server instances may share the database (PostgreSQL): what one holds in
    /// memory may then be behind the stored state. A SQLite file belongs to one process.
    pub fn shared(&self) -> bool {
        matches!(self.pool, Pool::Pg(_))
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
        let dialect = self.dialect();
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // Several instances may start at once: one migrates, the others wait.
                lock_in_tx!(self, tx, "schema-migrations");
            sqlx::raw_sql("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY)")
                .execute(&mut *tx)
                .await?;
            for &(version, sql) in schema::MIGRATIONS {
                let done: Option<i64> =
                    sqlx::query_scalar("SELECT version FROM schema_migrations WHERE version = $1")
                        .bind(version)
                        .fetch_optional(&mut *tx)
                        .await?;
                if done.is_none() {
                    sqlx::raw_sql(&schema::translate(sql, dialect)).execute(&mut *tx).await?;
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

    /// The newest migration applied, and the newest this build knows (`/readyz`): a query that
    /// needs the database to answer.
    pub async fn readiness(&self) -> Result<(i64, i64)> {
        let known = schema::latest();
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

    /// The tag this process puts on its notifications and analysis jobs.
    pub fn instance(&self) -> &str {
        &self.instance
    }
}
