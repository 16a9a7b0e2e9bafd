//! `reversi serve`'s settings: the configuration file, the environment and the command line,
//! in that order of precedence, shown by `--print-config` with the database password masked;
//! a bad key or value in the file is an error that names the file and the key.

use std::process::Command;

fn serve(args: &[&str], env: &[(&str, &str)]) -> (bool, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_reversi"));
    c.arg("serve").args(args);
    for (k, _) in std::env::vars().filter(|(k, _)| k.starts_with("REVERSI_")) {
        c.env_remove(k);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn file_then_environment_then_flags() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("reversi.toml");
    std::fs::write(
        &file,
        "rate = 50\nmax_connections = 900\nsecure-cookies = true\n\
         allowed-origin = [\"https://reversi.example.org\"]\ntrusted-proxy = [\"10.0.0.0/8\", \"192.0.2.7\"]\n\
         database = \"postgres://site:hunter2@db.internal/reversi\"\n\
         metrics-token = \"scrape-me-please-0123\"\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let (ok, out, err) = serve(&["--config", f, "--print-config"], &[]);
    assert!(ok, "{err}");
    assert!(out.contains("rate = 50.0"), "{out}");
    assert!(out.contains("max-connections = 900"), "{out}");
    assert!(out.contains("secure-cookies = true"), "{out}");
    assert!(out.contains("https://reversi.example.org"), "{out}");
    assert!(
        out.contains("\"10.0.0.0/8\"") && out.contains("\"192.0.2.7/32\""),
        "{out}"
    );
    assert!(out.contains("postgres://site:****@db.internal/reversi"), "{out}");
    assert!(!out.contains("hunter2"), "the password is printed: {out}");
    assert!(
        out.contains("metrics-token = \"****\"") && !out.contains("scrape-me"),
        "{out}"
    );
    // Defaults fill the rest.
    assert!(out.contains("addr = \"127.0.0.1:8080\""), "{out}");
    // The environment wins over the file, the command line over both.
    let (_, out, _) = serve(&["--config", f, "--print-config"], &[("REVERSI_RATE", "60")]);
    assert!(out.contains("rate = 60.0"), "{out}");
    let (_, out, _) = serve(
        &["--config", f, "--print-config", "--rate", "70"],
        &[("REVERSI_RATE", "60")],
    );
    assert!(out.contains("rate = 70.0"), "{out}");
    // The file may be named by the environment too.
    let (_, out, _) = serve(&["--print-config"], &[("REVERSI_CONFIG", f)]);
    assert!(out.contains("max-connections = 900"), "{out}");
}

#[test]
fn bad_keys_and_values_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    for (text, wanted) in [
        ("rate = -1\n", "rate: invalid value"),
        ("speed = 3\n", "unknown key \"speed\""),
        ("max-connections = \"many\"\n", "max-connections: invalid value"),
        (
            "secure-cookies = \"yes\"\n",
            "secure-cookies: this key is true or false",
        ),
        (
            "trusted-proxy = [\"example.org\"]\n",
            "trusted-proxy: invalid value",
        ),
        ("rate = \n", "reversi.toml"),
    ] {
        let f = write("reversi.toml", text);
        let (ok, _, err) = serve(&["--config", &f, "--print-config"], &[]);
        assert!(!ok, "{text} was taken");
        assert!(err.contains(wanted), "{text}: {err}");
        assert!(
            err.contains("reversi.toml"),
            "{text}: the file is not named: {err}"
        );
    }
    let (ok, _, err) = serve(&["--config", "/nonexistent/reversi.toml", "--print-config"], &[]);
    assert!(!ok && err.contains("/nonexistent/reversi.toml"), "{err}");
    // A bad value from the environment is refused too, by its variable's option.
    let (ok, _, err) = serve(&["--print-config"], &[("REVERSI_RATE", "fast")]);
    assert!(!ok && err.contains("--rate"), "{err}");
}
