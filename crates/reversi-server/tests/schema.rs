//! The one migration source makes the same schema on both databases: every table, column (its
//! kind of type, nullability), primary key and index of SQLite's is PostgreSQL's, and no more.

use reversi_server::db::Db;
use sqlx::Row;
use std::collections::BTreeMap;

#[macro_use]
mod common;

/// A column: its kind of type (`int`, `float`, `text`), nullable, part of the primary key.
type Columns = BTreeMap<String, (String, bool, bool)>;

fn kind(declared: &str) -> String {
    let t = declared.to_ascii_uppercase();
    if t.contains("INT") || t.contains("SERIAL") {
        "int"
    } else if t.contains("REAL") || t.contains("DOUBLE") || t.contains("FLOAT") {
        "float"
    } else if t.contains("TEXT") || t.contains("CHAR") {
        "text"
    } else {
        "other"
    }
    .to_string()
}

async fn sqlite_schema(url: &str) -> (BTreeMap<String, Columns>, Vec<String>) {
    let pool = sqlx::SqlitePool::connect(url).await.unwrap();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let mut out = BTreeMap::new();
    for t in tables {
        let rows = sqlx::query(&format!("PRAGMA table_info({t})"))
            .fetch_all(&pool)
            .await
            .unwrap();
        let cols = rows
            .iter()
            .map(|r| {
                let name: String = r.get("name");
                let ty: String = r.get("type");
                let notnull: i64 = r.get("notnull");
                let pk: i64 = r.get("pk");
                // SQLite lets a primary key column be NULL unless declared otherwise; PostgreSQL
                // never does: compare what a key means, not that quirk.
                (name, (kind(&ty), notnull == 0 && pk == 0, pk > 0))
            })
            .collect();
        out.insert(t, cols);
    }
    let indexes: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    (out, indexes)
}

async fn pg_schema(url: &str) -> (BTreeMap<String, Columns>, Vec<String>) {
    let pool = sqlx::PgPool::connect(url).await.unwrap();
    let rows = sqlx::query(
        "SELECT c.table_name::text AS t, c.column_name::text AS n, c.data_type::text AS ty, \
         c.is_nullable::text AS nullable, \
         EXISTS (SELECT 1 FROM information_schema.key_column_usage k \
                 JOIN information_schema.table_constraints tc ON tc.constraint_name = k.constraint_name \
                  AND tc.table_schema = k.table_schema \
                 WHERE tc.constraint_type = 'PRIMARY KEY' AND k.table_name = c.table_name \
                  AND k.column_name = c.column_name AND k.table_schema = c.table_schema) AS pk \
         FROM information_schema.columns c WHERE c.table_schema = current_schema()",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let mut out: BTreeMap<String, Columns> = BTreeMap::new();
    for r in rows {
        let t: String = r.get("t");
        let n: String = r.get("n");
        let ty: String = r.get("ty");
        let nullable: String = r.get("nullable");
        let pk: bool = r.get("pk");
        out.entry(t)
            .or_default()
            .insert(n, (kind(&ty), nullable == "YES", pk));
    }
    let indexes: Vec<String> = sqlx::query_scalar(
        "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() \
         AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key' ORDER BY indexname",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    (out, indexes)
}

#[tokio::test]
async fn one_migration_source_makes_one_schema_on_both_databases() {
    let Some(pg) = common::pg_url().await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let lite = format!("sqlite://{}?mode=rwc", dir.path().join("schema.db").display());
    Db::connect(&lite).await.unwrap().close().await;
    Db::connect(&pg).await.unwrap().close().await;
    let (lite_tables, lite_indexes) = sqlite_schema(&lite).await;
    let (pg_tables, mut pg_indexes) = pg_schema(&pg).await;
    assert!(lite_tables.len() > 20, "{:?}", lite_tables.keys());
    assert_eq!(
        lite_tables.keys().collect::<Vec<_>>(),
        pg_tables.keys().collect::<Vec<_>>(),
        "the same tables"
    );
    for (t, cols) in &lite_tables {
        assert_eq!(cols, &pg_tables[t], "table {t}");
    }
    // PostgreSQL's covering index of the explorer's positions is its own (SQLite's table is
    // clustered on that key already).
    pg_indexes.retain(|i| i != "db_positions_stats");
    assert_eq!(lite_indexes, pg_indexes, "the same indexes");
    // Applied twice, nothing changes: every version is recorded.
    let db = Db::connect(&pg).await.unwrap();
    let (applied, known) = db.readiness().await.unwrap();
    assert_eq!(applied, known);
}
