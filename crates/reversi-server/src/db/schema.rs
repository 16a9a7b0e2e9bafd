//! The schema, written once (`migrations/NNNN_name.sql`) for both databases and turned into each
//! one's dialect here. The source is SQLite's SQL with the few real differences marked:
//!
//! - types: `INTEGER` and `REAL` become `BIGINT` and `DOUBLE PRECISION` on PostgreSQL (the server
//!   reads every integer as 64 bits);
//! - `{{serial_id}}`: a key the database numbers (`INTEGER PRIMARY KEY`, `BIGSERIAL PRIMARY KEY`);
//! - `{{without_rowid}}`: SQLite's clustered table (`WITHOUT ROWID`; nothing on PostgreSQL);
//! - `{{random_secret}}`: a random hex secret made in SQL;
//! - a line starting `--postgres: ` (or `--sqlite: `) is a statement of that database only.
//!
//! A test applies the whole schema to both databases and compares the tables, columns, types,
//! keys and indexes they end up with (`tests/schema.rs`).

/// Which SQL a database speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// The migrations, in order: (version, portable SQL). Applied once each, recorded in
/// `schema_migrations`.
pub const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../../migrations/0001_init.sql")),
    (
        2,
        include_str!("../../migrations/0002_archive_analysis_rematch.sql"),
    ),
    (3, include_str!("../../migrations/0003_version_invite.sql")),
    (4, include_str!("../../migrations/0004_accounts_clocks_lobby.sql")),
    (5, include_str!("../../migrations/0005_tournaments.sql")),
    (6, include_str!("../../migrations/0006_presence.sql")),
    (7, include_str!("../../migrations/0007_coach.sql")),
    (8, include_str!("../../migrations/0008_explorer.sql")),
    (9, include_str!("../../migrations/0009_puzzles.sql")),
    (10, include_str!("../../migrations/0010_hardening.sql")),
    (11, include_str!("../../migrations/0011_declined_challenges.sql")),
    (12, include_str!("../../migrations/0012_lessons.sql")),
    (13, include_str!("../../migrations/0013_tie_rule.sql")),
    (14, include_str!("../../migrations/0014_mail.sql")),
    (15, include_str!("../../migrations/0015_prefs.sql")),
    (16, include_str!("../../migrations/0016_people.sql")),
    (
        17,
        include_str!("../../migrations/0017_takebacks_conditional.sql"),
    ),
    (18, include_str!("../../migrations/0018_country.sql")),
];

/// The newest version this build knows.
pub fn latest() -> i64 {
    MIGRATIONS.last().map_or(0, |m| m.0)
}

/// The portable `sql` in `dialect`.
pub fn translate(sql: &str, dialect: Dialect) -> String {
    let mut out = String::with_capacity(sql.len() + 64);
    for line in sql.lines() {
        let line = match (line.strip_prefix("--postgres: "), line.strip_prefix("--sqlite: ")) {
            (Some(pg), _) if dialect == Dialect::Postgres => pg,
            (_, Some(lite)) if dialect == Dialect::Sqlite => lite,
            (Some(_), _) | (_, Some(_)) => continue,
            _ => line,
        };
        out.push_str(&translate_line(line, dialect));
        out.push('\n');
    }
    out
}

fn translate_line(line: &str, dialect: Dialect) -> String {
    let (serial, rowid, secret) = match dialect {
        Dialect::Sqlite => (
            "INTEGER PRIMARY KEY",
            "WITHOUT ROWID",
            "lower(hex(randomblob(24)))",
        ),
        Dialect::Postgres => (
            "BIGSERIAL PRIMARY KEY",
            "",
            "md5(random()::text || clock_timestamp()::text || id)",
        ),
    };
    let line = line
        .replace("{{serial_id}}", serial)
        .replace("{{without_rowid}}", rowid)
        .replace("{{random_secret}}", secret);
    if dialect == Dialect::Sqlite || line.trim_start().starts_with("--") {
        return line;
    }
    // Whole words only, outside comments: `INTEGER` → `BIGINT`, `REAL` → `DOUBLE PRECISION`.
    let (code, comment) = match line.find("--") {
        Some(i) => line.split_at(i),
        None => (line.as_str(), ""),
    };
    let mut words = String::with_capacity(code.len() + 16);
    let mut word = String::new();
    let flush = |word: &mut String, words: &mut String| {
        words.push_str(match word.as_str() {
            "INTEGER" => "BIGINT",
            "REAL" => "DOUBLE PRECISION",
            w => w,
        });
        word.clear();
    };
    for c in code.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut words);
            words.push(c);
        }
    }
    flush(&mut word, &mut words);
    words + comment
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dialects_differ_only_where_marked() {
        let src = "CREATE TABLE t (\n    id {{serial_id}},\n    n INTEGER NOT NULL, -- an INTEGER\n    x REAL,\n    \
                   integer_count INTEGER\n) {{without_rowid}};\n--postgres: CREATE INDEX i ON t (n) INCLUDE (x);\n\
                   --sqlite: PRAGMA nothing;\nUPDATE t SET s = {{random_secret}};\n";
        let pg = translate(src, Dialect::Postgres);
        assert!(pg.contains("id BIGSERIAL PRIMARY KEY,"), "{pg}");
        assert!(pg.contains("n BIGINT NOT NULL, -- an INTEGER"), "{pg}");
        assert!(pg.contains("x DOUBLE PRECISION,"), "{pg}");
        assert!(pg.contains("integer_count BIGINT"), "{pg}");
        assert!(
            pg.contains("\n) ;") && pg.contains("INCLUDE (x)") && !pg.contains("PRAGMA"),
            "{pg}"
        );
        assert!(pg.contains("md5(random()"), "{pg}");
        let lite = translate(src, Dialect::Sqlite);
        assert!(
            lite.contains("id INTEGER PRIMARY KEY,") && lite.contains("WITHOUT ROWID"),
            "{lite}"
        );
        assert!(
            lite.contains("PRAGMA nothing") && !lite.contains("INCLUDE"),
            "{lite}"
        );
        assert!(
            lite.contains("n INTEGER NOT NULL") && lite.contains("x REAL"),
            "{lite}"
        );
        for (v, sql) in MIGRATIONS {
            assert!(!translate(sql, Dialect::Postgres).contains("{{"), "migration {v}");
        }
    }
}
