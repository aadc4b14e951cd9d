//! Test support: a real SQLite file and a private, throwaway PostgreSQL cluster.

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use server::Db;

pub mod shop;
pub mod world;

/// The text of a PDF, as poppler's `pdftotext` reads it (installed by `make test`).
pub fn pdf_text(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("receipt.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = Command::new("pdftotext").arg("-layout").arg(&path).arg("-").output().expect("pdftotext (poppler-utils) runs");
    assert!(out.status.success(), "pdftotext: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// A mail's quoted-printable text as read: soft line breaks joined, `=XX` bytes decoded.
pub fn decode_qp(text: &str) -> String {
    let joined = text.replace("=\r\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'=', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Page paths for the links in mails, as the app names them.
#[derive(Debug)]
pub struct TestLinks;

impl server::links::PageLinks for TestLinks {
    fn activation(&self, token: &str) -> String {
        format!("/activate?token={token}")
    }
    fn password_reset(&self, token: &str) -> String {
        format!("/reset-password/do?token={token}")
    }
    fn email_change(&self, token: &str) -> String {
        format!("/mail-change/do?token={token}")
    }
    fn email_undo(&self, token: &str) -> String {
        format!("/mail-change/undo?token={token}")
    }
    fn reactivation(&self, token: &str) -> String {
        format!("/account-deleted?token={token}")
    }
    fn unsubscribe(&self, token: &str) -> String {
        format!("/unsubscribe?token={token}")
    }
    fn member(&self, member_id: i64) -> String {
        format!("/likes/m/{member_id}")
    }
    fn chat(&self, conversation_id: i64) -> String {
        format!("/chats/{conversation_id}")
    }
    fn transaction(&self, payment_id: i64) -> String {
        format!("/transactions/{payment_id}")
    }
    fn test_checkout(&self, checkout_id: &str) -> String {
        format!("/checkout/test/{checkout_id}")
    }
    fn age_check(&self, check: Option<i64>) -> String {
        check.map_or_else(|| "/age-check".to_string(), |c| format!("/age-check?check={c}"))
    }
    fn test_age_check(&self, id: &str) -> String {
        format!("/age-check/test/{id}")
    }
}

pub fn links() -> server::links::Links {
    std::sync::Arc::new(TestLinks)
}

/// A fresh SQLite database in a temporary directory (kept alive by the returned guard).
pub async fn sqlite() -> (Db, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}/test.db", dir.path().display());
    let db = Db::connect(&url, 4).await.expect("connect sqlite");
    server::reference_data::sync(&db).await.expect("reference data");
    (db, dir)
}

/// A PostgreSQL 15 cluster of our own in a temp dir, stopped and removed on drop.
pub struct PgCluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    pub url: String,
    as_postgres_user: bool,
}

fn pg_bin() -> PathBuf {
    if let Ok(dir) = std::env::var("PG_BIN") {
        return PathBuf::from(dir);
    }
    for version in ["17", "16", "15", "14"] {
        let p = PathBuf::from(format!("/usr/lib/postgresql/{version}/bin"));
        if p.join("initdb").exists() {
            return p;
        }
    }
    panic!("PostgreSQL server binaries not found: install the 'postgresql' package (make test does) or set PG_BIN");
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0").unwrap_or(false)
}

impl PgCluster {
    pub fn start() -> PgCluster {
        let bin = pg_bin();
        let dir = tempfile::Builder::new().prefix("vonk-pg-").tempdir().expect("tempdir");
        // PostgreSQL refuses to run as root: run it as the 'postgres' system user then.
        let as_postgres_user = is_root();
        if as_postgres_user {
            let status = Command::new("chown").args(["-R", "postgres:postgres"]).arg(dir.path()).status().unwrap();
            assert!(status.success(), "chown failed");
        }
        let data = dir.path().join("data");
        let mut cluster = PgCluster { url: String::new(), dir, bin, as_postgres_user };
        cluster.run("initdb", &["-D", path(&data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"]);
        let port = free_port();
        let options = format!("-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off", cluster.dir.path().display());
        let log = cluster.dir.path().join("pg.log");
        cluster.run("pg_ctl", &["-D", path(&data), "-o", &options, "-l", path(&log), "-w", "-t", "30", "start"]);
        cluster.url = format!("postgres://postgres@127.0.0.1:{port}/postgres");
        cluster
    }

    fn run(&self, tool: &str, args: &[&str]) {
        let program = self.bin.join(tool);
        let output = if self.as_postgres_user {
            Command::new("runuser").args(["-u", "postgres", "--"]).arg(&program).args(args).output()
        } else {
            Command::new(&program).args(args).output()
        }
        .unwrap_or_else(|e| panic!("cannot run {tool}: {e}"));
        assert!(output.status.success(), "{tool} failed: {}\n{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    }

    pub async fn db(&self) -> Db {
        let db = Db::connect(&self.url, 4).await.expect("connect postgres");
        server::reference_data::sync(&db).await.expect("reference data");
        db
    }
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let data = self.dir.path().join("data");
        let program = self.bin.join("pg_ctl");
        let args = ["-D", path(&data), "-m", "immediate", "-w", "stop"];
        let _ = if self.as_postgres_user {
            Command::new("runuser").args(["-u", "postgres", "--"]).arg(&program).args(args).output()
        } else {
            Command::new(&program).args(args).output()
        };
    }
}

/// Runs one async test body against SQLite and against PostgreSQL.
#[macro_export]
macro_rules! on_both_databases {
    ($name:ident, $body:expr) => {
        mod $name {
            use super::*;

            #[tokio::test]
            async fn sqlite() {
                let (db, _dir) = support::sqlite().await;
                ($body)(db).await;
            }

            #[tokio::test]
            async fn postgres() {
                let cluster = support::PgCluster::start();
                let db = cluster.db().await;
                ($body)(db.clone()).await;
                db.close().await;
            }
        }
    };
}

/// A local S3-compatible server (`moto_server` from PyPI; `make test` installs it into
/// `~/.cache/vonk/moto`), on a free loopback port, stopped on drop.
pub struct S3Server {
    child: std::process::Child,
    pub endpoint: String,
}

fn moto_binary() -> PathBuf {
    if let Ok(path) = std::env::var("MOTO_SERVER") {
        return PathBuf::from(path);
    }
    if let Some(home) = std::env::var_os("HOME") {
        let cached = Path::new(&home).join(".cache/vonk/moto/bin/moto_server");
        if cached.exists() {
            return cached;
        }
    }
    PathBuf::from("moto_server")
}

impl S3Server {
    pub async fn start() -> S3Server {
        let port = free_port();
        let child = Command::new(moto_binary())
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("moto_server not found: run scripts/install-tools.sh --test (make test does) or set MOTO_SERVER");
        let endpoint = format!("http://127.0.0.1:{port}");
        let server = S3Server { child, endpoint };
        let client = reqwest::Client::new();
        for _ in 0..200 {
            if client.get(&server.endpoint).send().await.is_ok() {
                return server;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("moto_server did not answer on {}", server.endpoint);
    }

    /// Makes a bucket and answers the configuration of a store in it.
    pub async fn bucket(&self, name: &str, prefix: &str) -> server::media::S3Config {
        let made = reqwest::Client::new().put(format!("{}/{name}", self.endpoint)).send().await.unwrap();
        assert!(made.status().is_success(), "bucket {name}: {}", made.status());
        server::media::S3Config {
            bucket: name.into(),
            endpoint: self.endpoint.clone(),
            region: "us-east-1".into(),
            access_key_id: "testing".into(),
            secret_access_key: "testing".into(),
            prefix: prefix.into(),
        }
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Gives every account of `email` a staff role with two-step login on (staff use their roles only
/// with it; the secret is a fixed test one). Returns how many accounts there are.
#[allow(dead_code)]
pub async fn grant_staff(db: &Db, accounts: &server::accounts::Accounts, email: &str, role: domain::staff::StaffRole) -> u64 {
    let n = accounts.set_staff_role(email, role, true).await.unwrap();
    sqlx::query("UPDATE users SET totp_secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' WHERE email = $1 AND totp_secret IS NULL")
        .bind(email)
        .execute(db.pool())
        .await
        .unwrap();
    n
}
