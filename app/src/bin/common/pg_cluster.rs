//! A private PostgreSQL cluster for the benchmarks (`vonk-chat-load`, `vonk-figures-bench`):
//! the Debian server binaries, a temp dir, loopback, a free port; stopped and removed on drop.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A PostgreSQL cluster of our own in a temp dir, on loopback, stopped and removed on drop.
pub struct PgCluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    pub url: String,
    as_postgres_user: bool,
    started: bool,
}

impl PgCluster {
    /// A new cluster in a temp dir named with `prefix`, with `extra` server options.
    pub fn start(prefix: &str, extra: &str) -> Result<PgCluster, String> {
        let bin = pg_bin()?;
        let dir = tempfile::Builder::new().prefix(prefix).tempdir().map_err(|e| format!("temp dir: {e}"))?;
        // PostgreSQL refuses to run as root: run it as the 'postgres' system user then.
        let as_postgres_user = is_root();
        if as_postgres_user {
            let status = Command::new("chown").args(["-R", "postgres:postgres"]).arg(dir.path()).status().map_err(|e| format!("chown: {e}"))?;
            if !status.success() {
                return Err("chown of the cluster's directory to postgres failed".into());
            }
        }
        let data = dir.path().join("data");
        let mut cluster = PgCluster { url: String::new(), dir, bin, as_postgres_user, started: false };
        cluster.run("initdb", &["-D", path(&data)?, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"])?;
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map_err(|e| format!("free port: {e}"))?.port();
        let options = format!("-p {port} -k {} -c listen_addresses=127.0.0.1 -c max_connections=100 {extra}", cluster.dir.path().display());
        let log = cluster.dir.path().join("pg.log");
        // Marked first: a start that fails half-way is still stopped on drop.
        cluster.started = true;
        cluster.run("pg_ctl", &["-D", path(&data)?, "-o", &options, "-l", path(&log)?, "-w", "-t", "30", "start"])?;
        cluster.url = format!("postgres://postgres@127.0.0.1:{port}/postgres");
        Ok(cluster)
    }

    /// The postmaster (first line of `postmaster.pid`; `vonk-chat-load` measures its CPU).
    #[allow(dead_code)]
    pub fn postmaster_pid(&self) -> Option<u32> {
        std::fs::read_to_string(self.dir.path().join("data/postmaster.pid")).ok()?.lines().next()?.trim().parse().ok()
    }

    fn command(&self, tool: &str) -> Command {
        let program = self.bin.join(tool);
        if self.as_postgres_user {
            let mut cmd = Command::new("runuser");
            cmd.args(["-u", "postgres", "--"]).arg(program);
            cmd
        } else {
            Command::new(program)
        }
    }

    fn run(&self, tool: &str, args: &[&str]) -> Result<(), String> {
        let output = self.command(tool).args(args).stdin(Stdio::null()).output().map_err(|e| format!("cannot run {tool}: {e}"))?;
        if output.status.success() {
            Ok(())
        } else {
            Err(format!("{tool} failed: {}\n{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr)))
        }
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        if !self.started {
            return;
        }
        let data = self.dir.path().join("data");
        if let Ok(data) = path(&data) {
            let _ = self.command("pg_ctl").args(["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]).stdin(Stdio::null()).output();
        }
    }
}

pub fn pg_bin() -> Result<PathBuf, String> {
    if let Ok(dir) = std::env::var("PG_BIN") {
        return Ok(PathBuf::from(dir));
    }
    for version in ["17", "16", "15", "14"] {
        let p = PathBuf::from(format!("/usr/lib/postgresql/{version}/bin"));
        if p.join("initdb").exists() {
            return Ok(p);
        }
    }
    Err("PostgreSQL server binaries not found: install the 'postgresql' package or set PG_BIN".into())
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0").unwrap_or(false)
}

pub fn path(p: &Path) -> Result<&str, String> {
    p.to_str().ok_or_else(|| format!("not a UTF-8 path: {}", p.display()))
}
