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

    // The backup while the site serves, from a cron job that knows nothing of payments.
    let backup_dir = dir.path().join("backups/today");
    let mut cron = vars.clone();
    cron.remove("VONK_PAYMENTS");
    let out = run(&cron, &["backup", backup_dir.to_str().unwrap()]);
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

/// The site's files are its own: a data directory an older version left readable to others is
/// tightened when the server starts, everything the server creates (a new data directory, its
/// database, media and mail) is 0700/0600, and so are `vonk backup`'s folder and a restore. `vonk
/// check` names a file others may read and a link in the media, and exits 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_site_reads_its_files() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &std::path::Path| std::fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777;
    let dir = tempfile::tempdir().unwrap();

    // A new data directory, made by the server itself.
    let port = free_port();
    let fresh = dir.path().join("fresh");
    let vars = binary::vars(&fresh, port, &[]);
    let mut server = binary::spawn(&vars, &[], "warn", Stdio::null());
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(fresh.join("vonk.db").is_file());
    let found = server::files::inspect(&fresh).unwrap();
    assert!(found.is_clean(), "a new data directory is the site's alone: {found:?}");
    assert_eq!((mode(&fresh), mode(&fresh.join("vonk.db"))), (0o700, 0o600));

    // One an older version left open: tightened at the next start.
    let data = dir.path().join("data");
    let vars = binary::vars(&data, port, &[]);
    {
        let state = binary::state(&vars).await;
        binary::signup_anna(&state, "http://x").await;
        state.db.close().await;
    }
    std::fs::create_dir_all(data.join("media/public")).unwrap();
    std::fs::write(data.join("media/public/p.jpg"), b"portrait").unwrap();
    for (path, loose) in [(data.clone(), 0o755), (data.join("vonk.db"), 0o644), (data.join("media"), 0o755), (data.join("media/public/p.jpg"), 0o644)] {
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(loose)).unwrap();
    }
    let out = run(&vars, &["check"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("vonk.db has mode 0644: others may read it"), "{}", text(&out));
    let mut server = binary::spawn(&vars, &[], "warn", Stdio::null());
    let found = server::files::inspect(&data).unwrap();
    assert!(found.is_clean(), "tightened at start: {found:?}");

    let backup_dir = dir.path().join("backups/today");
    let out = run(&vars, &["backup", backup_dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(server::files::inspect(&backup_dir).unwrap().is_clean(), "the backup is the site's alone");
    assert_eq!(mode(&backup_dir.join("vonk.db")), 0o600);
    server.kill().unwrap();
    server.wait().unwrap();

    // A link in the public media would hand out whatever it points to.
    std::os::unix::fs::symlink("/etc/hostname", data.join("media/public/leak.txt")).unwrap();
    let out = run(&vars, &["check"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("media/public/leak.txt is a symbolic link"), "{}", text(&out));

    let restored = dir.path().join("restored");
    let out = run(&binary::vars(&restored, port, &[]), &["restore", backup_dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(server::files::inspect(&restored).unwrap().is_clean(), "a restore is the site's alone");
}

/// The command line says what it takes: `--help` lists the commands; an unknown command, an
/// extra argument or a wrong value is refused with the usage and exit status 2, and nothing runs.
#[test]
fn the_command_line_refuses_what_it_does_not_know() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let vars = binary::vars(&data, free_port(), &[]);
    let out = run(&vars, &["--help"]);
    assert!(out.status.success(), "{}", text(&out));
    for command in ["serve", "backup", "restore", "check", "staff", "payments", "vapid-keys"] {
        assert!(text(&out).contains(command), "{command} in {}", text(&out));
    }
    for args in [
        &["check", "now"][..],
        &["frobnicate"],
        &["backup"],
        &["staff", "grant", "anna@example.nl", "king"],
        &["payments", "collect", "7", "maybe"],
        &["payments", "reverse", "seven"],
    ] {
        let out = run(&vars, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert!(text(&out).starts_with("error: "), "{args:?}: {}", text(&out));
    }
    let out = run(&vars, &["check", "now"]);
    assert!(text(&out).contains("Usage: vonk check"), "the usage line: {}", text(&out));
    assert!(!data.exists(), "nothing ran: no data directory was made");
}

/// `vonk mail-report` with one returned mail on standard input, as a bounce mailbox's mail
/// server hands it over.
fn mail_report(vars: &HashMap<&str, String>, mail: &str) -> Output {
    use std::io::Write;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vonk"));
    cmd.env_clear().env("PATH", std::env::var("PATH").unwrap_or_default()).env("RUST_LOG", "warn");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let mut child = cmd.arg("mail-report").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the vonk binary runs");
    child.stdin.take().unwrap().write_all(mail.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_returned_mail_on_standard_input_stops_the_mails_to_its_address() {
    let dir = tempfile::tempdir().unwrap();
    let vars = binary::vars(&dir.path().join("data"), free_port(), &[]);
    let state = binary::state(&vars).await;
    // As the mail server runs it: no payment provider configured.
    let mut vars = vars.clone();
    vars.remove("VONK_PAYMENTS");
    binary::signup_anna(&state, "http://x").await;
    let disabled = || async {
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM notifications_disabled WHERE reason = 'bounce'").fetch_one(state.db.pool()).await.unwrap();
        n
    };
    let away = "From: anna@example.nl\r\nSubject: Afwezig\r\n\r\nIk ben tot maandag weg.\r\n";
    let out = mail_report(&vars, away);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("nothing changed"));
    assert_eq!(disabled().await, 0);
    let dsn = "From: MAILER-DAEMON@mx.example.com\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n\
--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.com\r\n\r\n\
Final-Recipient: rfc822; Anna@example.nl\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n--b--\r\n";
    let out = mail_report(&vars, dsn);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("anna@example.nl: bounce, 1 account(s)"), "{}", text(&out));
    assert_eq!(disabled().await, 1);
    state.db.close().await;
}
