//! Backups of a SQLite database: `reversi db backup` and `reversi db restore`. A backup is
//! taken with `VACUUM INTO` on a read-only connection: a consistent copy of the database as
//! of one moment (every move committed before it, none half-written), taken while the server
//! goes on serving. A restore checks the copy (integrity, and a schema this build knows), then
//! puts it in place of the database — only while no server has the database open.
//!
//! PostgreSQL has its own tools for both: see docs/hosting.md (`pg_dump`, `pg_restore`).

use crate::error::{Error, Result};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection, Row};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The file of a SQLite database URL (`sqlite://FILE`, `sqlite:FILE` or a plain path); an
/// error names what is not one (PostgreSQL, memory).
pub fn sqlite_file(url: &str) -> Result<PathBuf> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Err(Error::BadRequest(
            "this is a PostgreSQL database: back it up with pg_dump (docs/hosting.md)".into(),
        ));
    }
    if url.contains(":memory:") {
        return Err(Error::BadRequest(
            "an in-memory database has nothing to back up".into(),
        ));
    }
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    let path = path.split('?').next().unwrap_or(path);
    if path.is_empty() || path.contains("://") {
        return Err(Error::BadRequest(format!("not a SQLite database: {url:?}")));
    }
    Ok(PathBuf::from(path))
}

async fn open(path: &Path, read_only: bool) -> Result<sqlx::SqliteConnection> {
    if !path.exists() {
        return Err(Error::BadRequest(format!("no database at {}", path.display())));
    }
    let opts = SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))?
        .read_only(read_only)
        .busy_timeout(std::time::Duration::from_secs(5));
    Ok(opts.connect().await?)
}

/// Checks that `conn` holds a sound database whose schema this build knows; returns its
/// schema version.
async fn check(conn: &mut sqlx::SqliteConnection, what: &Path) -> Result<i64> {
    let verdict: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut *conn)
        .await?;
    if verdict != "ok" {
        return Err(Error::BadRequest(format!(
            "{} is damaged: {verdict}",
            what.display()
        )));
    }
    let version: i64 = sqlx::query("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations")
        .fetch_one(&mut *conn)
        .await
        .map_err(|_| Error::BadRequest(format!("{} is not a Reversi database", what.display())))?
        .try_get("v")?;
    let known = super::schema::latest();
    if version > known {
        return Err(Error::BadRequest(format!(
            "{} has schema version {version}, newer than this build's {known}: use a newer reversi",
            what.display()
        )));
    }
    Ok(version)
}

/// Copies the SQLite database of `url` to the new file `dest`, consistently, while it may be
/// in use. Returns the schema version copied.
pub async fn backup(url: &str, dest: &Path) -> Result<i64> {
    let src = sqlite_file(url)?;
    if dest.exists() {
        return Err(Error::BadRequest(format!(
            "{} exists: a backup goes to a new file",
            dest.display()
        )));
    }
    let mut conn = open(&src, true).await?;
    sqlx::query("VACUUM INTO $1")
        .bind(dest.display().to_string())
        .execute(&mut conn)
        .await?;
    conn.close().await?;
    let mut copy = open(dest, true).await?;
    let version = check(&mut copy, dest).await?;
    copy.close().await?;
    Ok(version)
}

/// Puts backup `src` in place of the SQLite database of `url` (which must not be open in a
/// server: stop it first). The old database, if any, is kept beside it as `FILE.before-restore`.
/// Returns the schema version restored.
pub async fn restore(src: &Path, url: &str) -> Result<i64> {
    let target = sqlite_file(url)?;
    let mut copy = open(src, true).await?;
    let version = check(&mut copy, src).await?;
    copy.close().await?;
    if target.exists() {
        // Leaving WAL mode needs the only connection to the database: it fails while a
        // server has it open (even idle), and folds the WAL into the file, which then stands
        // on its own as the copy kept.
        let opts = SqliteConnectOptions::from_str(&format!("sqlite://{}", target.display()))?
            .busy_timeout(std::time::Duration::from_millis(500));
        let mut conn = opts.connect().await?;
        let mode: std::result::Result<String, _> = sqlx::query_scalar("PRAGMA journal_mode = DELETE")
            .fetch_one(&mut conn)
            .await;
        conn.close().await?;
        let locked = !matches!(mode.as_deref(), Ok("delete"));
        if locked {
            return Err(Error::Conflict(
                "database_in_use",
                format!("{} is in use: stop the server before restoring", target.display()),
            ));
        }
        let keep = PathBuf::from(format!("{}.before-restore", target.display()));
        std::fs::rename(&target, &keep).map_err(|e| Error::Internal(format!("{}: {e}", target.display())))?;
    }
    for ext in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", target.display()));
    }
    // Copied beside the target and renamed: a restore cut short leaves no half-written file.
    let tmp = PathBuf::from(format!("{}.restoring", target.display()));
    std::fs::copy(src, &tmp).map_err(|e| Error::Internal(format!("{}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, &target).map_err(|e| Error::Internal(format!("{}: {e}", target.display())))?;
    Ok(version)
}
