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
            // Under CI a missing database is a failure, not a silent pass.
            assert!(
                !strict(),
                "REVERSI_TEST_DATABASE_URL is not set under CI=true (scripts/test sets it)"
            );
            eprintln!("skipped: REVERSI_TEST_DATABASE_URL is not set (scripts/test sets it)");
            None
        }
    }
}

/// The URL the SQLite run of a suite passes to each test function.
#[allow(dead_code)] // not every suite runs on both databases
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

/// `v` read as the documented type `T` of `reversi-site-api`, which writes it back the same
/// (no field more or less): the wire types and the server's answers cannot drift apart.
#[allow(dead_code)] // not every suite checks answers against the wire types
pub fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(v: &serde_json::Value) -> T {
    let typed: T = serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{e}: {v}"));
    assert_eq!(&serde_json::to_value(&typed).unwrap(), v);
    typed
}

/// Whether a missing tool fails the run instead of skipping: under CI (`CI=true`) and in
/// `scripts/test` (`REVERSI_TEST_STRICT=1`), which installs everything the tests need.
fn strict() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("REVERSI_TEST_STRICT").is_ok_and(|v| v == "1")
}
