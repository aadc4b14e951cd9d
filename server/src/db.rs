//! The database: one connection pool, SQLite or PostgreSQL chosen by the URL's scheme.
//!
//! Queries go through sqlx's `Any` driver so that one repository serves both backends; where
//! their SQL differs, code asks [`Db::backend`]. Migrations live per backend in
//! `migrations/sqlite` and `migrations/postgres` and are embedded in the binary.

use std::path::Path;
use std::str::FromStr;

use sqlx::any::{install_default_drivers, AnyPoolOptions};
use sqlx::migrate::Migrator;
use sqlx::AnyPool;

use crate::error::AppError;

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("../migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("../migrations/postgres");

/// The migrations embedded for a backend.
pub fn migrator(backend: Backend) -> &'static Migrator {
    match backend {
        Backend::Sqlite => &SQLITE_MIGRATIONS,
        Backend::Postgres => &POSTGRES_MIGRATIONS,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl FromStr for Backend {
    type Err = AppError;
    fn from_str(url: &str) -> Result<Self, Self::Err> {
        if url.starts_with("sqlite:") {
            Ok(Backend::Sqlite)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Ok(Backend::Postgres)
        } else {
            Err(AppError::Internal("DATABASE_URL must start with sqlite:// or postgres://".into()))
        }
    }
}

#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    backend: Backend,
    /// The SQLite database's file (none in memory or on PostgreSQL).
    sqlite_path: Option<std::path::PathBuf>,
    /// For a SQLite file, the one connection write transactions take turns on ([`Db::begin`]).
    writer: Option<AnyPool>,
}

impl Db {
    /// Connects (creating a SQLite file and its folder when missing) and runs the migrations.
    /// The reference data the product needs is written apart ([`crate::reference_data::sync`]).
    pub async fn connect(url: &str, max_connections: u32) -> Result<Db, AppError> {
        let db = Db::open(url, max_connections).await?;
        db.migrate().await?;
        Ok(db)
    }

    /// Connects like [`Db::connect`] without running the migrations (the upgrade test builds
    /// a database at an older schema with it).
    pub async fn open(url: &str, max_connections: u32) -> Result<Db, AppError> {
        install_default_drivers();
        let backend: Backend = url.parse()?;
        let url = match backend {
            Backend::Sqlite => prepare_sqlite_url(url)?,
            Backend::Postgres => url.to_string(),
        };
        let options = |max_connections: u32| {
            AnyPoolOptions::new()
                .max_connections(max_connections.max(1))
                // A SQLite connection is a file handle in this process: it cannot have dropped,
                // so no ping before each use (one worker round trip per query saved; README,
                // Performance). A PostgreSQL connection can, and is checked.
                .test_before_acquire(backend == Backend::Postgres)
                .after_connect(move |conn, _| {
                    Box::pin(async move {
                        if backend == Backend::Sqlite {
                            // WAL lets readers run beside the writer; foreign keys are off by default in SQLite.
                            sqlx::query("PRAGMA foreign_keys = ON").execute(&mut *conn).await?;
                            sqlx::query("PRAGMA journal_mode = WAL").execute(&mut *conn).await?;
                            sqlx::query("PRAGMA synchronous = NORMAL").execute(&mut *conn).await?;
                            sqlx::query("PRAGMA busy_timeout = 5000").execute(&mut *conn).await?;
                        }
                        Ok(())
                    })
                })
        };
        let pool = options(max_connections).connect(&url).await?;
        let sqlite_path = (backend == Backend::Sqlite).then(|| sqlite_file(&url)).flatten();
        // A database in memory is the pool's own: it has no second pool.
        let writer = match sqlite_path {
            Some(_) => Some(options(1).connect(&url).await?),
            None => None,
        };
        Ok(Db { pool, backend, sqlite_path, writer })
    }

    async fn migrate(&self) -> Result<(), AppError> {
        match self.backend {
            Backend::Sqlite => SQLITE_MIGRATIONS.run(&self.pool).await?,
            Backend::Postgres => POSTGRES_MIGRATIONS.run(&self.pool).await?,
        }
        Ok(())
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Starts a transaction that may write. On SQLite it takes the write lock at once
    /// (`BEGIN IMMEDIATE`): a transaction that first reads and then writes would otherwise be
    /// refused at once ("database is locked", no waiting) whenever another connection holds the
    /// write lock at the moment it upgrades, because SQLite cannot wait there without risking a
    /// deadlock. And it runs on the one writing connection ([`Db::writer`]): a transaction waits
    /// for it in the pool's queue, holding nothing, and starts the moment the last one ends.
    /// On a connection of its own it would find the lock taken and sleep in SQLite's busy
    /// handler (1, 2, 5, 10 ms and longer) holding that connection, and under load the reads
    /// would wait for connections while the lock stood free. PostgreSQL has no such upgrade
    /// and starts a plain transaction on the pool. Every transaction in the product starts here
    /// (a source test refuses `pool().begin()`).
    pub async fn begin(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        match self.backend {
            Backend::Sqlite => self.writer().begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => self.pool.begin().await,
        }
    }

    /// Where a frequent write outside a transaction runs: on SQLite the writing connection of
    /// [`Db::begin`] (it waits its turn instead of sleeping in SQLite's busy handler); on
    /// PostgreSQL, and for a SQLite database in memory, the pool. Never inside a transaction
    /// of [`Db::begin`]: on SQLite it would wait for that transaction's own connection.
    pub fn writer(&self) -> &AnyPool {
        self.writer.as_ref().unwrap_or(&self.pool)
    }

    /// The SQLite database's file, when it has one.
    pub fn sqlite_path(&self) -> Option<&Path> {
        self.sqlite_path.as_deref()
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// A table's column names, as the database has them after its migrations.
    pub async fn columns(&self, table: &str) -> Result<Vec<String>, sqlx::Error> {
        let sql = match self.backend {
            Backend::Sqlite => "SELECT name FROM pragma_table_info($1) ORDER BY cid",
            Backend::Postgres => {
                "SELECT column_name::TEXT FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position"
            }
        };
        sqlx::query_scalar(sql).bind(table).fetch_all(&self.pool).await
    }

    pub async fn close(&self) {
        if let Some(writer) = &self.writer {
            writer.close().await;
        }
        self.pool.close().await;
    }
}

/// Reads a boolean column: PostgreSQL stores BOOLEAN, SQLite stores INTEGER 0/1
/// ([`domain::rows::Flag`], which `#[derive(sqlx::FromRow)]` rows name for such columns).
pub fn flag(row: &sqlx::any::AnyRow, column: &str) -> Result<bool, sqlx::Error> {
    use sqlx::Row;
    row.try_get::<domain::rows::Flag, _>(column).map(bool::from)
}

/// What a PostgreSQL `LISTEN` loop hears: a notification (its channel and payload), or word that
/// announcements may have been missed (the listener has just started, or reconnected after a
/// lost connection).
pub enum Heard {
    Notification { channel: String, payload: String },
    MayHaveMissed,
}

/// Listens on `channels` for as long as the process runs, on the process's one `LISTEN`
/// connection for the database at `url`, and hands `on` every notification on them. Whenever
/// announcements may have been lost (at the start, after a reconnect, and when a later listener
/// brings a channel not heard yet, which reconnects with every channel) `on` hears
/// [`Heard::MayHaveMissed`], once the `LISTEN` is in place, so the caller can catch up. `on` runs on the listening task: it must
/// not wait (hand work to a task of its own). `what` names the listener in the log.
///
/// One connection, not one per listener: PostgreSQL wakes every listening connection of a
/// database at each notifying commit, whatever its channels, and the chat notifies at every
/// message (bus, member cache and site settings would be three wake-ups a node).
pub fn listen<F>(url: &str, channels: &'static [&'static str], what: &'static str, on: F)
where
    F: Fn(Heard) + Send + Sync + 'static,
{
    static HUBS: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<Hub>>>> = std::sync::OnceLock::new();
    let mut hubs = HUBS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    // A hub whose task ended (its runtime shut down: tests run one each) is replaced.
    hubs.retain(|_, hub| hub.running.load(std::sync::atomic::Ordering::Acquire));
    let hub = hubs.entry(url.to_string()).or_insert_with(|| {
        let hub = std::sync::Arc::new(Hub { running: std::sync::atomic::AtomicBool::new(true), ..Hub::default() });
        let (running, url) = (Running(hub.clone()), url.to_string());
        tokio::spawn(async move {
            let hub = running.0.clone();
            let _running = running;
            run_hub(url, hub).await
        });
        hub
    });
    let covered = {
        let active = hub.active.lock().unwrap_or_else(|e| e.into_inner());
        channels.iter().all(|channel| active.contains(channel))
    };
    let mut listeners = hub.listeners.lock().unwrap_or_else(|e| e.into_inner());
    listeners.push(HubListener { channels, what, on: Box::new(on) });
    if covered {
        // Its channels are heard already: it hears from now on, and nothing is listened again.
        if let Some(listener) = listeners.last() {
            (listener.on)(Heard::MayHaveMissed);
        }
    } else {
        hub.joined.notify_one();
    }
}

/// The listeners of one database's `LISTEN` connection.
#[derive(Default)]
struct Hub {
    /// Its task runs (cleared when the task ends or is dropped with its runtime).
    running: std::sync::atomic::AtomicBool,
    listeners: std::sync::Mutex<Vec<HubListener>>,
    /// A listener joined with a channel not heard yet: the connection listens again, on every
    /// channel.
    joined: tokio::sync::Notify,
    /// The channels the connection listens on now (none while it is down).
    active: std::sync::Mutex<Vec<&'static str>>,
}

/// Clears [`Hub::running`] when the hub's task ends or is dropped.
struct Running(std::sync::Arc<Hub>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.store(false, std::sync::atomic::Ordering::Release);
    }
}

struct HubListener {
    channels: &'static [&'static str],
    what: &'static str,
    on: Box<dyn Fn(Heard) + Send + Sync>,
}

impl Hub {
    /// Every listener's channels, and how many listeners there are.
    fn channels(&self) -> (Vec<&'static str>, usize, String) {
        let listeners = self.listeners.lock().unwrap_or_else(|e| e.into_inner());
        let mut channels: Vec<&'static str> = listeners.iter().flat_map(|l| l.channels.iter().copied()).collect();
        channels.sort_unstable();
        channels.dedup();
        (channels, listeners.len(), listeners.iter().map(|l| l.what).collect::<Vec<_>>().join(", "))
    }

    fn may_have_missed(&self) {
        for listener in self.listeners.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            (listener.on)(Heard::MayHaveMissed);
        }
    }

    fn heard(&self, channel: &str, payload: &str) {
        for listener in self.listeners.lock().unwrap_or_else(|e| e.into_inner()).iter().filter(|l| l.channels.contains(&channel)) {
            (listener.on)(Heard::Notification { channel: channel.to_string(), payload: payload.to_string() });
        }
    }

    fn count(&self) -> usize {
        self.listeners.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// The `LISTEN` connection's task: connects, reconnects with a backoff from 200 ms to 10 s, and
/// listens again on every channel when a listener joins.
async fn run_hub(url: String, hub: std::sync::Arc<Hub>) {
    let mut backoff = std::time::Duration::from_millis(200);
    loop {
        let (channels, count, what) = hub.channels();
        let lost = match sqlx::postgres::PgListener::connect(&url).await {
            Ok(mut listener) => match listener.listen_all(channels.iter().copied()).await {
                Ok(()) => {
                    backoff = std::time::Duration::from_millis(200);
                    *hub.active.lock().unwrap_or_else(|e| e.into_inner()) = channels.clone();
                    hub.may_have_missed();
                    loop {
                        tokio::select! {
                            _ = hub.joined.notified() => {
                                if hub.count() != count {
                                    // Listen again with the newcomer's channels (every listener hears
                                    // that it may have missed something meanwhile).
                                    break false;
                                }
                            }
                            received = listener.try_recv() => match received {
                                Ok(Some(notification)) => hub.heard(notification.channel(), notification.payload()),
                                // sqlx reconnected and listens again; whatever was sent meanwhile is lost.
                                Ok(None) => {
                                    tracing::warn!(listener = %what, "listener reconnected");
                                    hub.may_have_missed();
                                }
                                Err(error) => {
                                    tracing::warn!(listener = %what, %error, "listener lost its connection");
                                    break true;
                                }
                            },
                        }
                    }
                }
                Err(error) => {
                    tracing::warn!(listener = %what, %error, "could not listen");
                    true
                }
            },
            Err(error) => {
                tracing::warn!(listener = %what, %error, "listener cannot connect");
                true
            }
        };
        hub.active.lock().unwrap_or_else(|e| e.into_inner()).clear();
        if lost {
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(std::time::Duration::from_secs(10));
            hub.may_have_missed();
        }
    }
}

/// The file of a prepared SQLite URL (`sqlite://path?query`); none for a database in memory.
fn sqlite_file(url: &str) -> Option<std::path::PathBuf> {
    let rest = url.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    (path != ":memory:" && !path.is_empty() && !query.split('&').any(|p| p == "mode=memory")).then(|| std::path::PathBuf::from(path))
}

/// Makes sure the SQLite file's folder exists and asks sqlx to create the file.
fn prepare_sqlite_url(url: &str) -> Result<String, AppError> {
    let rest = url.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
    let (path, query) = match rest.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (rest, None),
    };
    if path != ":memory:" {
        if let Some(parent) = Path::new(path).parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| AppError::Internal(format!("cannot create {}: {e}", parent.display())))?;
        }
    }
    let query = match query {
        Some(q) if q.contains("mode=") => q.to_string(),
        Some(q) => format!("{q}&mode=rwc"),
        None => "mode=rwc".to_string(),
    };
    Ok(format!("sqlite://{path}?{query}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backend_from_scheme() {
        assert_eq!("sqlite://x.db".parse::<Backend>().unwrap(), Backend::Sqlite);
        assert_eq!("postgres://u@h/d".parse::<Backend>().unwrap(), Backend::Postgres);
        assert!("mysql://h/d".parse::<Backend>().is_err());
    }

    #[test]
    fn sqlite_url_gets_create_mode() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("sub/vonk.db");
        let url = prepare_sqlite_url(&format!("sqlite://{}", file.display())).unwrap();
        assert!(url.ends_with("?mode=rwc"));
        assert!(dir.path().join("sub").is_dir());
    }
}
