//! `reversi db import` and `reversi db stats` through the real binary: a year of WTHOR is
//! imported once (a second import adds nothing), and the statistics of a position count its
//! games and match the JSON the web API gives; `reversi db moderator` gives and takes the role.

mod common;
use common::reversi;

#[test]
fn import_a_year_of_wthor_and_read_a_position() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("games.db").display());
    let wthor = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/wthor/WTH_1981.wtb");
    let (ok, out, err) = reversi(&["db", "import", wthor, "--database", &db]);
    assert!(ok, "{err}");
    let new: u64 = out.split_whitespace().next().unwrap().parse().unwrap();
    assert!(new > 100, "{out}");
    let (ok, again, err) = reversi(&["db", "import", wthor, "--database", &db]);
    assert!(ok, "{err}");
    assert!(again.starts_with("0 new games"), "{again}");

    let (ok, json, err) = reversi(&["db", "stats", "--database", &db, "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["total"].as_u64(), Some(new), "every game reached the start");
    let (ok, json, err) = reversi(&["db", "stats", "-m", "f5d6", "--database", &db, "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let moves = v["moves"].as_array().unwrap();
    let sum: u64 = moves.iter().map(|m| m["games"].as_u64().unwrap()).sum();
    assert_eq!(Some(sum), v["total"].as_u64());
    for m in moves {
        let n = m["games"].as_u64().unwrap();
        let wdl = ["black_wins", "draws", "black_losses"].map(|k| m[k].as_u64().unwrap());
        assert_eq!(wdl.iter().sum::<u64>(), n, "{m}");
    }
    // The text form names the moves; a bad line is an error that says where.
    let (ok, text, _) = reversi(&["db", "stats", "-m", "f5d6", "--database", &db]);
    assert!(ok && text.contains(moves[0]["move"].as_str().unwrap()), "{text}");
    let (ok, _, err) = reversi(&["db", "stats", "-m", "f5f5", "--database", &db]);
    assert!(!ok && err.contains("moves"), "{err}");
    let (ok, _, err) = reversi(&["db", "import", "no/such/file.wtb", "--database", &db]);
    assert!(!ok && err.contains("no such file"), "{err}");
}

/// `reversi db moderator`: the role is given to an account that exists (and refused, by name,
/// for one that does not), seen by the server, taken away, and both changes are in the log.
#[test]
fn the_moderator_role_is_given_and_taken_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("site.db").display());
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let open = || runtime.block_on(async { reversi_server::db::Db::connect(&db).await.unwrap() });
    let id = runtime.block_on(async {
        let d = reversi_server::db::Db::connect(&db).await.unwrap();
        assert!(d
            .accounts()
            .create_user("u1", "Alice", &reversi_site::account::skeleton("Alice"), "x", 1)
            .await
            .unwrap());
        "u1".to_string()
    });
    let (ok, _, err) = reversi(&["db", "moderator", "Bob", "--database", &db]);
    assert!(!ok && err.contains("no account named \"Bob\""), "{err}");
    let (ok, out, err) = reversi(&["db", "moderator", "alice", "--database", &db]);
    assert!(ok, "{err}");
    assert!(out.contains("Alice is a moderator"), "{out}");
    let user = |d: &reversi_server::db::Db| {
        runtime.block_on(async { d.accounts().user_by_id(&id).await.unwrap().unwrap() })
    };
    assert!(user(&open()).moderator);
    let (ok, out, err) = reversi(&["db", "moderator", "Alice", "--remove", "--database", &db]);
    assert!(ok && out.contains("no longer a moderator"), "{out}{err}");
    let d = open();
    assert!(!user(&d).moderator);
    let log = runtime.block_on(async { d.moderation().log_lines(10).await.unwrap() });
    let actions: Vec<(&str, Option<&str>)> = log
        .iter()
        .map(|l| (l.action.as_str(), l.moderator.as_deref()))
        .collect();
    assert_eq!(actions, vec![("revoke", None), ("grant", None)]);
    assert_eq!(log[0].target, "Alice");
}
