//! What the database test suites share: the PostgreSQL URL and the macro that runs each test
//! function on both databases.

/// A fresh schema in the PostgreSQL database named by `REVERSI_TEST_DATABASE_URL` (set by
/// `scripts/test`), or `None` (with a note) when it is not set.
pub async fn pg_url() -> Option<String> {
    match std::env::var("REVERSI_TEST_DATABASE_URL") {
        Ok(url) if !url.is_empty() => Some(
            reversi_server::db::Db::fresh_schema_url(&url)
                .await
                .expect("a fresh schema in REVERSI_TEST_DATABASE_URL"),
        ),
        _ => {
            eprintln!("skipped: REVERSI_TEST_DATABASE_URL is not set (scripts/test sets it)");
            None
        }
    }
}

/// The URL the SQLite run of a suite passes to each test function.
pub const SQLITE: &str = "sqlite::memory:";

/// For each test function `name(database_url: String)`, a test `sqlite::name` on [`SQLITE`]
/// and a test `postgres::name` on a fresh PostgreSQL schema, when `REVERSI_TEST_DATABASE_URL`
/// is set.
#[allow(unused_macros)] // not every suite runs on both
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    super::$name(super::common::SQLITE.into()).await
                }
            )*
        }

        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    if let Some(url) = super::common::pg_url().await {
                        super::$name(url).await
                    }
                }
            )*
        }
    };
}
