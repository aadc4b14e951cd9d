//! `vonk backup`, `vonk restore` and `vonk check` as an operator runs them: the real binary,
//! backing up a site while it serves, restoring into a new data directory that then serves the
//! same member, and checking it (exit status 0 when all is well, 1 when something is listed).

use std::collections::HashMap;
use std::process::{Command, Output, Stdio};

#[path = "support/binary.rs"]
mod binary;
use binary::free_port;

fn run(vars: &HashMap<&str, String>, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vonk"));
    cmd.env_clear().env("PATH", std::env::var("PATH").unwrap_or_default()).env("RUST_LOG", "warn");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    cmd.args(args).output().expect("the vonk binary runs")
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Whether Anna's login on the server at `port` gives her a session cookie.
async fn anna_logs_in(port: u16) -> bool {
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let res = client
        .post(format!("http://127.0.0.1:{port}/api/fn/login"))
        .header("origin", format!("http://127.0.0.1:{port}"))
        .header("accept", "application/json")
        .form(&[("email", "anna@example.nl"), ("password", "rode kater op het dak")])
        .send()
        .await
        .unwrap();
    let session = format!("{}=", domain::constants::AUTH_COOKIE);
    res.headers().get_all("set-cookie").iter().any(|c| c.to_str().unwrap_or("").starts_with(&session))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_site_backed_up_while_serving_restores_checks_and_serves_again() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let vars = binary::vars(&dir.path().join("data"), port, &[]);
    {
        let state = binary::state(&vars).await;
        binary::signup_anna(&state, "http://x").await;
        state.db.close().await;
    }
    let mut server = binary::spawn(&vars, &[], "warn", Stdio::null());
    assert!(anna_logs_in(port).await);

    // The backup while the site serves.
    let backup_dir = dir.path().join("backups/today");
    let out = run(&vars, &["backup", backup_dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("backup in") && backup_dir.join("manifest.json").is_file() && backup_dir.join("vonk.db").is_file());
    let out = run(&vars, &["backup", backup_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "an existing folder is refused: {}", text(&out));
    server.kill().unwrap();
    server.wait().unwrap();

    // Restored into a new data directory, checked, and serving Anna again.
    let port2 = free_port();
    let restored = binary::vars(&dir.path().join("restored"), port2, &[]);
    let out = run(&restored, &["restore", backup_dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    let out = run(&restored, &["check"]);
    assert!(out.status.success() && text(&out).contains("ok:"), "{}", text(&out));
    let mut server = binary::spawn(&restored, &[], "warn", Stdio::null());
    assert!(anna_logs_in(port2).await, "the restored site knows Anna");
    server.kill().unwrap();
    server.wait().unwrap();

    // Not over a site; a stray file makes `check` say so and exit 1.
    let out = run(&restored, &["restore", backup_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("not empty"));
    let stray = dir.path().join("restored/media/private/photos/9");
    std::fs::create_dir_all(&stray).unwrap();
    std::fs::write(stray.join("lost.jpg"), b"?").unwrap();
    let out = run(&restored, &["check"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("file no row names: photos/9/lost.jpg"), "{}", text(&out));
    let out = run(&restored, &["backup"]);
    assert_eq!(out.status.code(), Some(2), "usage: {}", text(&out));
}
