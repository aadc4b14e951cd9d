//! `make bench` (after `vonk-bench`): chat load against the real release server binary
//! (`$CARGO_TARGET_DIR/release/vonk`, run as a child process on loopback), once on SQLite and
//! once on a private, throwaway PostgreSQL cluster.
//!
//! Per backend: the tool prepares the database itself (the site, members made real premium
//! members with credits, one session each), starts the server (on PostgreSQL two nodes on the
//! one database), opens one chat socket per member (member i on node i mod nodes; memory per
//! open socket from the servers' VmRSS), then sends messages through the real send path
//! (`POST /api/fn/send_message`, to the sender's node) at fixed rates, member i to member i+1
//! (so with two nodes every message crosses to the other node), and times each from the start
//! of the send until the recipient's socket receives its `message` push. On PostgreSQL it counts
//! the statements the servers sent per message (pg_stat_statements, top level). Last, it opens
//! `CHAT_LOAD_IDLE_SOCKETS` more sockets on one node and prints the memory each takes.
//!
//! Budget, with 1,000 open sockets: p99 ≤ 50 ms at 2,000 messages/s on SQLite and at 1,500/s on
//! PostgreSQL. The tool exits non-zero when a backend misses its budget or could not be measured.
//!
//! Knobs: `CHAT_LOAD_SOCKETS` (1000), `CHAT_LOAD_SECS` (5 per rate), `CHAT_LOAD_BACKENDS`
//! (`sqlite,postgres`), `CHAT_LOAD_RATES` (`500,1000,1500,2000,2500`), `CHAT_LOAD_NODES` (nodes
//! on PostgreSQL, 2), `CHAT_LOAD_IDLE_SOCKETS` (10000; 0 skips), `CHAT_LOAD_PG_OPTIONS`
//! (extra PostgreSQL server options, e.g. `-c synchronous_commit=off`), `CHAT_LOAD_PG_STATS=1`
//! (print the statements that took PostgreSQL's time, from pg_stat_statements), `PG_BIN` (PostgreSQL's
//! binaries, else /usr/lib/postgresql/<version>/bin). The PostgreSQL cluster keeps its default
//! durability (fsync on), as in production; SQLite runs as the server configures it (WAL,
//! synchronous = NORMAL).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[path = "common/pg_cluster.rs"]
mod pg_cluster;
use pg_cluster::PgCluster;

use futures_util::StreamExt;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const BUDGET_P99_MS: f64 = 50.0;
const BUDGET_SOCKETS: usize = 1000;
/// Sockets opened at a time.
const OPENING: usize = 64;
/// Each rate runs this long before its measured seconds (same load, not counted).
const WARMUP: Duration = Duration::from_secs(1);
/// How long deliveries may still arrive after the last send answered.
const GRACE: Duration = Duration::from_secs(3);
/// How long the server may stay busy after a rate before the next one starts anyway.
const DRAIN_MAX: Duration = Duration::from_secs(30);
/// The server counts as quiet under 5% of a core over this long.
const QUIET_WINDOW: Duration = Duration::from_millis(500);
/// Other processes using more than this share of a core disturb a rate's figures.
const DISTURBED_PCT: f64 = 25.0;
/// A rate this far over the budget (or with this share failing) ends the climb.
const GIVE_UP_P99_MS: f64 = 2000.0;
const GIVE_UP_FAILED: f64 = 0.05;
const SHARDS: usize = 16;
const TEXT_PREFIX: &str = "load ";

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    fn label(self) -> &'static str {
        match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        }
    }

    /// The rate the budget asks this backend to hold at p99 ≤ [`BUDGET_P99_MS`].
    fn budget_rate(self) -> u32 {
        match self {
            Backend::Sqlite => 2000,
            Backend::Postgres => 1500,
        }
    }
}

struct Settings {
    sockets: usize,
    secs: u64,
    backends: Vec<Backend>,
    rates: Vec<u32>,
    /// Nodes on PostgreSQL (SQLite serves from one).
    pg_nodes: usize,
    idle_sockets: usize,
    server_bin: PathBuf,
}

fn settings() -> Result<Settings, String> {
    fn var<T: std::str::FromStr>(name: &str, default: T) -> Result<T, String> {
        match std::env::var(name) {
            Ok(v) if !v.trim().is_empty() => v.trim().parse().map_err(|_| format!("{name}={v} is not valid")),
            _ => Ok(default),
        }
    }
    let sockets: usize = var("CHAT_LOAD_SOCKETS", BUDGET_SOCKETS)?;
    if sockets < 2 {
        return Err("CHAT_LOAD_SOCKETS must be at least 2".into());
    }
    let secs: u64 = var("CHAT_LOAD_SECS", 5)?;
    if secs == 0 {
        return Err("CHAT_LOAD_SECS must be at least 1".into());
    }
    let backends = var("CHAT_LOAD_BACKENDS", "sqlite,postgres".to_string())?
        .split(',')
        .map(str::trim)
        .filter(|b| !b.is_empty())
        .map(|b| match b {
            "sqlite" => Ok(Backend::Sqlite),
            "postgres" | "postgresql" | "pg" => Ok(Backend::Postgres),
            other => Err(format!("CHAT_LOAD_BACKENDS: unknown backend {other} (sqlite, postgres)")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let pg_nodes: usize = var("CHAT_LOAD_NODES", 2)?;
    if !(1..=8).contains(&pg_nodes) {
        return Err("CHAT_LOAD_NODES must be 1 to 8".into());
    }
    let idle_sockets: usize = var("CHAT_LOAD_IDLE_SOCKETS", 10_000)?;
    let rates = var("CHAT_LOAD_RATES", "500,1000,1500,2000,2500".to_string())?
        .split(',')
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|r| r.parse::<u32>().ok().filter(|r| *r > 0).ok_or(format!("CHAT_LOAD_RATES: {r} is not a rate")))
        .collect::<Result<Vec<_>, _>>()?;
    let target = std::env::var("CARGO_TARGET_DIR")
        .ok()
        .filter(|t| !t.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var("HOME").ok().map(|h| PathBuf::from(h).join(".cache/vonk/target")))
        .unwrap_or_else(|| PathBuf::from("target"));
    Ok(Settings { sockets, secs, backends, rates, pg_nodes, idle_sockets, server_bin: target.join("release/vonk") })
}

#[tokio::main]
async fn main() {
    let settings = match settings() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("chat load: {e}");
            std::process::exit(2);
        }
    };
    if !settings.server_bin.exists() {
        eprintln!("chat load: the server binary {} is missing.", settings.server_bin.display());
        eprintln!(
            "Build it first: `make build` (with CARGO_TARGET_DIR={}).",
            settings.server_bin.parent().and_then(Path::parent).map_or(String::new(), |p| p.display().to_string())
        );
        std::process::exit(2);
    }
    // Ctrl-C drops the run, and with it the server and the cluster (their guards stop them).
    let code = {
        let mut run = Box::pin(run(settings));
        tokio::select! {
            code = &mut run => code,
            _ = tokio::signal::ctrl_c() => {
                eprintln!("chat load: interrupted, stopping the server");
                130
            }
        }
    };
    std::process::exit(code);
}

async fn run(settings: Settings) -> i32 {
    let mut verdicts = Vec::new();
    for &backend in &settings.backends {
        match run_backend(backend, &settings).await {
            Ok(verdict) => verdicts.push((backend, Ok(verdict))),
            Err(error) => {
                println!("chat load ({}): FAILED: {error}", backend.label());
                verdicts.push((backend, Err(error)));
            }
        }
        println!();
    }
    let mut code = 0;
    println!(
        "chat load summary (budget p99 ≤ {BUDGET_P99_MS:.0} ms with {BUDGET_SOCKETS} sockets at {}/s on SQLite, {}/s on PostgreSQL)",
        Backend::Sqlite.budget_rate(),
        Backend::Postgres.budget_rate()
    );
    for (backend, verdict) in &verdicts {
        match verdict {
            Ok(v) => {
                println!("  {:<11} {}", backend.label(), v.line);
                if v.budget == Some(false) {
                    code = 1;
                }
            }
            Err(error) => {
                println!("  {:<11} not measured: {error}", backend.label());
                code = 1;
            }
        }
    }
    if code != 0 {
        println!("chat load: FAILED (see above)");
    }
    code
}

// ---------------------------------------------------------------------------------------------
// One backend
// ---------------------------------------------------------------------------------------------

struct Verdict {
    /// None: the budget's rate was not run.
    budget: Option<bool>,
    line: String,
}

struct Member {
    id: i64,
    cookie: String,
}

async fn run_backend(backend: Backend, settings: &Settings) -> Result<Verdict, String> {
    let n = settings.sockets;
    // Dropped in reverse order: sockets, server, cluster, then the directory.
    let dir = tempfile::Builder::new().prefix("vonk-chat-load-").tempdir().map_err(|e| format!("temp dir: {e}"))?;
    let cluster = match backend {
        Backend::Postgres => {
            // CHAT_LOAD_PG_OPTIONS adds server options, e.g. `-c synchronous_commit=off` to see
            // what waiting for the WAL flush costs.
            let mut extra = std::env::var("CHAT_LOAD_PG_OPTIONS").unwrap_or_default();
            // The statements per message are counted on every run (those the servers send:
            // nested ones, of triggers and foreign keys, only with CHAT_LOAD_PG_STATS=1).
            extra.push_str(" -c shared_preload_libraries=pg_stat_statements");
            if pg_stats_wanted() {
                extra.push_str(" -c pg_stat_statements.track=all");
            }
            Some(PgCluster::start("vonk-chat-load-pg-", &extra)?)
        }
        Backend::Sqlite => None,
    };
    let database_url = match &cluster {
        Some(c) => c.url.clone(),
        None => format!("sqlite://{}/vonk.db", dir.path().display()),
    };

    let preparing = Instant::now();
    let members = Arc::new(prepare(&database_url, dir.path(), n).await?);
    let prepared = preparing.elapsed();

    let node_count = if backend == Backend::Postgres { settings.pg_nodes } else { 1 };
    let mut servers = Vec::with_capacity(node_count);
    let mut bases = Vec::with_capacity(node_count);
    for k in 0..node_count {
        // Each node its own data directory (mail outbox, media); the database is the one.
        let node_dir = dir.path().join(format!("node{k}"));
        std::fs::create_dir_all(&node_dir).map_err(|e| format!("node directory: {e}"))?;
        let mut server = Server::start(&settings.server_bin, if k == 0 { dir.path() } else { &node_dir }, cluster.as_ref().map(|c| c.url.as_str()))?;
        bases.push(server.wait_ready(Duration::from_secs(60)).await?);
        servers.push(server);
    }
    let server = Nodes(servers);
    let budget_rate = backend.budget_rate();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(512)
        .tcp_nodelay(true)
        .timeout(Duration::from_secs(20))
        .build()
        .map_err(|e| format!("http client: {e}"))?;
    // A few pages first, so the pool's connections and the caches exist before the baseline.
    let warm: Vec<_> = (0..32).map(|k| client.get(format!("{}/", bases[k % node_count])).send()).collect();
    for res in futures_util::future::join_all(warm).await {
        res.map_err(|e| format!("GET / failed: {e}"))?;
    }
    wait_quiet(&server, Duration::from_secs(10)).await;
    let rss_before = server.rss_kib()?;

    // The sockets: one per member, each read by its own task.
    let shared = Arc::new(Shared::new());
    let opening = Instant::now();
    let opened: Vec<Result<(usize, Socket), String>> = futures_util::stream::iter(0..n)
        .map(|i| open_socket(bases[i % node_count].clone(), members[i].cookie.clone(), i))
        .buffer_unordered(OPENING)
        .collect()
        .await;
    let mut readers = Readers(Vec::with_capacity(n));
    let mut refused = Vec::new();
    for result in opened {
        match result {
            Ok((i, ws)) => readers.0.push(tokio::spawn(read_socket(i, ws, shared.clone()))),
            Err(e) => refused.push(e),
        }
    }
    if !refused.is_empty() {
        return Err(format!("{} of {n} sockets did not open (first: {})", refused.len(), refused[0]));
    }
    let opened_in = opening.elapsed();
    // Every socket finished its start (subscribe, read its latest id) once the servers are quiet.
    wait_quiet(&server, Duration::from_secs(20)).await;
    let rss_sockets = server.rss_kib()?;
    let per_socket_kib = (rss_sockets as f64 - rss_before as f64) / n as f64;
    shared.live.store(true, Ordering::SeqCst);

    let ctx = Arc::new(Ctx {
        client,
        urls: bases.iter().map(|base| format!("{base}/api/fn/send_message")).collect(),
        origins: bases.clone(),
        members: members.clone(),
        shared: shared.clone(),
        seq: AtomicU64::new(0),
    });

    println!(
        "chat load ({}, {n} sockets on {node_count} node{})   server RSS {:.1} MB → {:.1} MB: {:.1} KB per socket",
        backend.label(),
        if node_count == 1 { "" } else { "s" },
        rss_before as f64 / 1024.0,
        rss_sockets as f64 / 1024.0,
        per_socket_kib
    );

    // Every member's first message opens the conversation with the next member: done once,
    // not timed, so the rates below measure sends into existing conversations.
    let priming = Instant::now();
    let prime_step = shared.new_step("conversations opened");
    futures_util::stream::iter(0..n).map(|_| send_one(ctx.clone(), prime_step)).buffer_unordered(16).collect::<Vec<()>>().await;
    settle(&shared, &[prime_step], GRACE).await;
    // The first message of a conversation also mails its recipient (in the background).
    wait_quiet(&server, Duration::from_secs(20)).await;
    let primed = shared.step_summary(prime_step);
    println!(
        "setup: {n} members with sessions in {:.1}s, {n} sockets opened in {:.1}s, {n} conversations opened in {:.1}s ({} failed, {} not delivered)",
        prepared.as_secs_f64(),
        opened_in.as_secs_f64(),
        priming.elapsed().as_secs_f64(),
        primed.failed,
        primed.missing
    );

    let pg_stats_url = cluster.as_ref().map(|c| c.url.clone());
    if let Some(url) = &pg_stats_url {
        if let Err(e) = pg_stats(url, true).await {
            println!("{e}");
        }
    }
    let sent_before = ctx.seq.load(Ordering::SeqCst);
    println!("(cpu: % of one core during the measured seconds; db: the PostgreSQL processes; other: the rest of the machine)");
    println!(
        "{:>6} {:>6} {:>10} {:>8} {:>8} {:>8} {:>12} {:>11} {:>11} {:>7} {:>9} {:>10} {:>10} {:>8}",
        "rate/s",
        "sent",
        "delivered",
        "p50 ms",
        "p99 ms",
        "max ms",
        "send p99 ms",
        "achieved/s",
        "server cpu",
        "db cpu",
        "tool cpu",
        "other cpu",
        "srv warns",
        "drain s"
    );
    let mut disturbed = false;
    let mut rows: Vec<(u32, StepSummary)> = Vec::new();
    let mut skipped = Vec::new();
    for (k, &rate) in settings.rates.iter().enumerate() {
        if let Some((last_rate, last)) = rows.last() {
            if last.p99_ms > GIVE_UP_P99_MS || last.failed_share() > GIVE_UP_FAILED {
                skipped = settings.rates[k..].to_vec();
                println!("(stopped climbing: {last_rate}/s was far over the budget)");
                break;
            }
        }
        let warm = shared.new_step(&format!("warm-up at {rate}/s"));
        let step = shared.new_step(&format!("{rate}/s"));
        let warnings_before = server.warnings();
        let mut tasks = drive(&ctx, rate, WARMUP, warm).await;
        let started = Instant::now();
        let cpu_start = CpuSample::take(&server, cluster.as_ref());
        tasks.extend(drive(&ctx, rate, Duration::from_secs(settings.secs), step).await);
        let window = started.elapsed();
        let cpu = CpuSample::take(&server, cluster.as_ref()).since(&cpu_start, window);
        for t in tasks {
            let _ = t.await;
        }
        settle(&shared, &[warm, step], GRACE).await;
        // The server keeps working after the pushes (delivered marks, unread totals, mails):
        // the next rate starts from a quiet server, and how long that took is shown.
        let draining = Instant::now();
        wait_quiet(&server, DRAIN_MAX).await;
        let drain = draining.elapsed().saturating_sub(QUIET_WINDOW);
        let warnings = server.warnings() - warnings_before;
        let mut s = shared.step_summary(step);
        s.achieved = s.delivered as f64 / s.span.unwrap_or(window).as_secs_f64().max(window.as_secs_f64());
        let pct = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.0}%"));
        let busy = cpu.other.is_some_and(|o| o > DISTURBED_PCT);
        disturbed |= busy;
        s.disturbed = busy;
        println!(
            "{:>6} {:>6} {:>10} {:>8.1} {:>8.1} {:>8.1} {:>12.1} {:>11.1} {:>11} {:>7} {:>9} {:>10} {:>10} {:>8.1}{}",
            rate,
            s.sent,
            s.delivered,
            s.p50_ms,
            s.p99_ms,
            s.max_ms,
            s.send_p99_ms,
            s.achieved,
            pct(cpu.server),
            pct(cpu.db),
            pct(cpu.tool),
            pct(cpu.other),
            warnings,
            drain.as_secs_f64(),
            if busy { "  !" } else { "" }
        );
        rows.push((rate, s));
    }
    shared.live.store(false, Ordering::SeqCst);
    if disturbed {
        println!(
            "! other processes used over {DISTURBED_PCT:.0}% of a core during the rates marked !: their figures are disturbed (this machine has {} cores)",
            std::thread::available_parallelism().map_or(0, |n| n.get())
        );
    }
    let rss_after = server.rss_kib().unwrap_or(0);
    let mut per_message = String::new();
    if let Some(url) = &pg_stats_url {
        let messages = ctx.seq.load(Ordering::SeqCst) - sent_before;
        match pg_stats(url, false).await {
            Ok(calls) => {
                let each = calls as f64 / messages.max(1) as f64;
                println!("PostgreSQL: the servers sent {calls} statements for {messages} messages, {each:.1} per message (all they asked meanwhile)");
                per_message = format!("; {each:.1} statements per message");
            }
            Err(e) => println!("{e}"),
        }
    }

    // Verdict.
    let held: Vec<u32> = rows.iter().filter(|(_, s)| s.held()).map(|(r, _)| *r).collect();
    let highest = held.iter().max().map_or("none".to_string(), |r| format!("{r}/s"));
    let budget_row = rows.iter().find(|(r, _)| *r == budget_rate).map(|(_, s)| s);
    let (budget, budget_text) = match budget_row {
        None if skipped.contains(&budget_rate) => (Some(false), "OVER (not reached: an earlier rate was already far over)".to_string()),
        None => (None, format!("not measured ({budget_rate}/s is not in CHAT_LOAD_RATES)")),
        Some(s) if s.failed + s.missing > 0 => (Some(false), format!("OVER ({} failed, {} not delivered; p99 {:.1} ms)", s.failed, s.missing, s.p99_ms)),
        Some(s) if s.p99_ms <= BUDGET_P99_MS => (Some(true), format!("ok (p99 {:.1} ms)", s.p99_ms)),
        Some(s) => (Some(false), format!("OVER by {:.1} ms (p99 {:.1} ms)", s.p99_ms - BUDGET_P99_MS, s.p99_ms)),
    };
    let mut sockets_note = if n == BUDGET_SOCKETS { String::new() } else { format!(" [with {n} sockets, not {BUDGET_SOCKETS}]") };
    if budget_row.is_some_and(|s| s.disturbed) {
        sockets_note.push_str(" [disturbed by other processes: run again on a quiet machine]");
    }
    println!(
        "highest rate with p99 ≤ {BUDGET_P99_MS:.0} ms: {highest}    budget (p99 ≤ {BUDGET_P99_MS:.0} ms at {budget_rate}/s): {budget_text}{sockets_note}"
    );

    // Everything that went wrong, where it went wrong.
    let mut problems = Vec::new();
    for (label, s) in shared.all_summaries() {
        if s.failed > 0 || s.missing > 0 {
            let codes: Vec<String> = s.failures.iter().map(|(c, k)| format!("{c} ×{k}")).collect();
            problems.push(format!(
                "{label}: {} sends failed [{}], {} sent but not delivered within {}s",
                s.failed,
                codes.join(", "),
                s.missing,
                GRACE.as_secs()
            ));
        }
    }
    let extra = [
        ("pushes for an unknown or already settled send (late)", shared.late.load(Ordering::Relaxed)),
        ("pushes to the wrong member", shared.misrouted.load(Ordering::Relaxed)),
        ("resync pushes (a socket fell behind)", shared.resyncs.load(Ordering::Relaxed)),
        ("sockets closed by the server during the run", shared.closed.load(Ordering::Relaxed)),
    ];
    for (what, count) in extra {
        if count > 0 {
            problems.push(format!("{what}: {count}"));
        }
    }
    for p in &problems {
        println!("FAILURES {p}");
    }
    if problems.is_empty() {
        println!("no failed sends, every message delivered");
    }
    if !skipped.is_empty() {
        println!("rates not run (an earlier rate was far over the budget): {skipped:?}");
    }

    // Idle sockets on one node: what each costs in memory.
    let idle = match settings.idle_sockets {
        0 => String::new(),
        count => match idle_sockets(&server.0[0], &bases[0], &members, count).await {
            Ok(line) => {
                println!("idle: {line}");
                format!("; idle: {line}")
            }
            Err(e) => {
                println!("idle sockets not measured: {e}");
                format!("; idle sockets not measured: {e}")
            }
        },
    };

    // Stop: our sockets first, then the servers (SIGTERM), then the cluster.
    readers.abort();
    let mut server = server;
    for (k, node) in server.0.iter_mut().enumerate() {
        let status = node.stop();
        let log = node.log.lock().unwrap_or_else(|e| e.into_inner());
        println!(
            "node {k}: server log: {} warnings, {} errors; stopped: {}",
            log.warnings,
            log.errors,
            status.map_or("killed after no exit in 15s".to_string(), |s| s.to_string())
        );
        for (kind, count) in &log.kinds {
            println!("  server log: {count:>6} × {kind}");
        }
    }
    println!("server RSS after the load {:.1} MB", rss_after as f64 / 1024.0);
    drop(server);
    drop(cluster);
    let line = format!(
        "highest rate with p99 ≤ {BUDGET_P99_MS:.0} ms: {highest}; budget: {budget_text}; {per_socket_kib:.1} KB per socket{per_message}{idle}{sockets_note}"
    );
    Ok(Verdict { budget, line })
}

/// Seeds the site and `n` members on the default site, makes them real premium members with
/// credits, and logs each in.
async fn prepare(url: &str, data_dir: &Path, n: usize) -> Result<Vec<Member>, String> {
    let db = server::Db::connect(url, 4).await.map_err(|e| format!("connect {}: {e}", server::config::redact_url(url)))?;
    let result = prepare_on(&db, data_dir, n).await;
    db.close().await;
    result
}

async fn prepare_on(db: &server::Db, data_dir: &Path, n: usize) -> Result<Vec<Member>, String> {
    let e = |what: &'static str| move |error: server::AppError| format!("{what}: {error}");
    let q = |what: &'static str| move |error: sqlx::Error| format!("{what}: {error}");
    server::reference_data::sync(db).await.map_err(e("regions and interests"))?;
    server::seed::seed_if_empty(db).await.map_err(e("seed the site"))?;
    let now = server::seed::now_unix();
    server::members::demo::seed_demo_members(db, None, n as u32, now).await.map_err(e("seed members"))?;
    let (site,): (i64,) = sqlx::query_as("SELECT id FROM sites WHERE is_default = $1").bind(true).fetch_one(db.pool()).await.map_err(q("default site"))?;
    sqlx::query("UPDATE users SET fictional = $1, paid_user = $2, credits = $3 WHERE site_id = $4")
        .bind(false)
        .bind(true)
        .bind(10_000_000_i64)
        .bind(site)
        .execute(db.pool())
        .await
        .map_err(q("make members real"))?;
    sqlx::query("UPDATE profiles SET fictional = $1 WHERE user_id IN (SELECT id FROM users WHERE site_id = $2)")
        .bind(false)
        .bind(site)
        .execute(db.pool())
        .await
        .map_err(q("make profiles real"))?;
    let ids: Vec<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE site_id = $1 ORDER BY id LIMIT $2")
        .bind(site)
        .bind(n as i64)
        .fetch_all(db.pool())
        .await
        .map_err(q("member ids"))?;
    if ids.len() < n {
        return Err(format!("only {} members on the default site, {n} needed", ids.len()));
    }
    let outbox = server::mail::Outbox::from_config(None, data_dir).map_err(e("outbox"))?;
    let accounts = server::accounts::Accounts::new(
        db.clone(),
        server::clock::Clock::System,
        outbox,
        Arc::new(server::locales::Catalog::embedded()),
        app::ssr::page_links(),
    );
    let mut members = Vec::with_capacity(n);
    for (id,) in ids {
        let token = accounts.open_session(id).await.map_err(e("open a session"))?;
        members.push(Member { id, cookie: format!("{}={token}", domain::constants::AUTH_COOKIE) });
    }
    Ok(members)
}

// ---------------------------------------------------------------------------------------------
// Sends and deliveries
// ---------------------------------------------------------------------------------------------

struct Ctx {
    client: reqwest::Client,
    /// The send path and the origin of each node; a member sends through their own node.
    urls: Vec<String>,
    origins: Vec<String>,
    members: Arc<Vec<Member>>,
    shared: Arc<Shared>,
    /// Message k goes from member k mod n to the next member.
    seq: AtomicU64,
}

/// A send whose push has not arrived yet.
struct Pending {
    start: Instant,
    recipient: usize,
    step: usize,
}

#[derive(Default)]
struct StepLog {
    label: String,
    sent: u64,
    ok: u64,
    failures: BTreeMap<String, u64>,
    /// Send start → the recipient's push, in microseconds.
    latencies: Vec<u64>,
    /// Send start → the send's HTTP answer, in microseconds.
    answers: Vec<u64>,
    first_start: Option<Instant>,
    last_delivery: Option<Instant>,
    missing: u64,
}

struct Shared {
    pending: Vec<Mutex<HashMap<u64, Pending>>>,
    steps: Mutex<Vec<StepLog>>,
    /// Set while messages flow: a socket closing then is a failure.
    live: AtomicBool,
    late: AtomicU64,
    misrouted: AtomicU64,
    resyncs: AtomicU64,
    closed: AtomicU64,
}

#[derive(Default, Clone)]
struct StepSummary {
    sent: u64,
    delivered: u64,
    failed: u64,
    missing: u64,
    failures: BTreeMap<String, u64>,
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
    send_p99_ms: f64,
    achieved: f64,
    /// First send → last delivery.
    span: Option<Duration>,
    /// Other processes took CPU during the measurement.
    disturbed: bool,
}

impl StepSummary {
    fn failed_share(&self) -> f64 {
        if self.sent == 0 {
            return 0.0;
        }
        (self.failed + self.missing) as f64 / self.sent as f64
    }

    /// The rate was held: everything delivered, in time, at (nearly) the asked rate.
    fn held(&self) -> bool {
        self.failed == 0 && self.missing == 0 && self.sent > 0 && self.p99_ms <= BUDGET_P99_MS
    }
}

fn percentile_ms(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i] as f64 / 1000.0
}

impl Shared {
    fn new() -> Shared {
        Shared {
            pending: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
            steps: Mutex::new(Vec::new()),
            live: AtomicBool::new(false),
            late: AtomicU64::new(0),
            misrouted: AtomicU64::new(0),
            resyncs: AtomicU64::new(0),
            closed: AtomicU64::new(0),
        }
    }

    fn steps(&self) -> std::sync::MutexGuard<'_, Vec<StepLog>> {
        self.steps.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn shard(&self, seq: u64) -> std::sync::MutexGuard<'_, HashMap<u64, Pending>> {
        self.pending[seq as usize % SHARDS].lock().unwrap_or_else(|e| e.into_inner())
    }

    fn new_step(&self, label: &str) -> usize {
        let mut steps = self.steps();
        steps.push(StepLog { label: label.to_string(), ..Default::default() });
        steps.len() - 1
    }

    fn pending_in(&self, steps: &[usize]) -> usize {
        (0..SHARDS).map(|s| self.pending[s].lock().unwrap_or_else(|e| e.into_inner()).values().filter(|p| steps.contains(&p.step)).count()).sum()
    }

    /// Whatever of these steps is still pending is counted as not delivered.
    fn sweep(&self, steps: &[usize]) {
        let mut missing: HashMap<usize, u64> = HashMap::new();
        for s in 0..SHARDS {
            self.pending[s].lock().unwrap_or_else(|e| e.into_inner()).retain(|_, p| {
                if steps.contains(&p.step) {
                    *missing.entry(p.step).or_insert(0) += 1;
                    false
                } else {
                    true
                }
            });
        }
        let mut logs = self.steps();
        for (step, count) in missing {
            logs[step].missing += count;
        }
    }

    fn delivered(&self, socket: usize, seq: u64) {
        let now = Instant::now();
        let Some(p) = self.shard(seq).remove(&seq) else {
            self.late.fetch_add(1, Ordering::Relaxed);
            return;
        };
        if p.recipient != socket {
            self.misrouted.fetch_add(1, Ordering::Relaxed);
        }
        let mut steps = self.steps();
        let log = &mut steps[p.step];
        log.latencies.push(now.duration_since(p.start).as_micros() as u64);
        log.last_delivery = Some(log.last_delivery.map_or(now, |l| l.max(now)));
    }

    fn summary(log: &StepLog) -> StepSummary {
        let mut latencies = log.latencies.clone();
        latencies.sort_unstable();
        let mut answers = log.answers.clone();
        answers.sort_unstable();
        StepSummary {
            sent: log.sent,
            delivered: latencies.len() as u64,
            failed: log.sent - log.ok,
            missing: log.missing,
            failures: log.failures.clone(),
            p50_ms: percentile_ms(&latencies, 0.50),
            p99_ms: percentile_ms(&latencies, 0.99),
            max_ms: percentile_ms(&latencies, 1.0),
            send_p99_ms: percentile_ms(&answers, 0.99),
            achieved: 0.0,
            span: log.first_start.zip(log.last_delivery).map(|(a, b)| b.duration_since(a)),
            disturbed: false,
        }
    }

    fn step_summary(&self, step: usize) -> StepSummary {
        Shared::summary(&self.steps()[step])
    }

    fn all_summaries(&self) -> Vec<(String, StepSummary)> {
        self.steps().iter().map(|l| (l.label.clone(), Shared::summary(l))).collect()
    }
}

/// Issues `rate` sends a second for `duration` (open loop: a slow answer does not hold the next
/// send back). Returns the send tasks.
async fn drive(ctx: &Arc<Ctx>, rate: u32, duration: Duration, step: usize) -> Vec<tokio::task::JoinHandle<()>> {
    let total = (rate as f64 * duration.as_secs_f64()).round() as u64;
    let start = tokio::time::Instant::now();
    let mut tasks = Vec::with_capacity(total as usize);
    let mut issued = 0;
    while issued < total {
        let due = ((start.elapsed().as_secs_f64() * rate as f64) as u64 + 1).min(total);
        while issued < due {
            tasks.push(tokio::spawn(send_one(ctx.clone(), step)));
            issued += 1;
        }
        if issued < total {
            tokio::time::sleep_until(start + Duration::from_secs_f64(issued as f64 / rate as f64)).await;
        }
    }
    tasks
}

async fn send_one(ctx: Arc<Ctx>, step: usize) {
    let seq = ctx.seq.fetch_add(1, Ordering::Relaxed);
    let n = ctx.members.len();
    let from = (seq % n as u64) as usize;
    let to = (from + 1) % n;
    let form = [("member", ctx.members[to].id.to_string()), ("client_id", format!("load{seq:010}")), ("text", format!("{TEXT_PREFIX}{seq}"))];
    let start = Instant::now();
    ctx.shared.shard(seq).insert(seq, Pending { start, recipient: to, step });
    {
        let mut steps = ctx.shared.steps();
        let log = &mut steps[step];
        log.sent += 1;
        log.first_start.get_or_insert(start);
    }
    let node = from % ctx.urls.len();
    let result = ctx
        .client
        .post(&ctx.urls[node])
        .header("accept", "application/json")
        .header("origin", &ctx.origins[node])
        .header("cookie", &ctx.members[from].cookie)
        .form(&form)
        .send()
        .await;
    let outcome: Result<(), String> = match result {
        Ok(res) => {
            let status = res.status();
            match res.bytes().await {
                Ok(body) if status.is_success() => {
                    if serde_json::from_slice::<serde_json::Value>(&body).ok().is_some_and(|v| v.get("message").is_some()) {
                        Ok(())
                    } else {
                        Err(format!("{status} without a message"))
                    }
                }
                Ok(body) => {
                    let code = serde_json::from_slice::<serde_json::Value>(&body).ok().and_then(|v| v.get("code").and_then(|c| c.as_str()).map(str::to_string));
                    Err(format!("{} {}", status.as_u16(), code.unwrap_or_default()).trim().to_string())
                }
                Err(e) => Err(format!("{status}, body: {}", error_kind(&e))),
            }
        }
        Err(e) => Err(error_kind(&e)),
    };
    let answered = start.elapsed().as_micros() as u64;
    if outcome.is_err() {
        // Not sent: not waited for either (a push that still comes counts as late).
        ctx.shared.shard(seq).remove(&seq);
    }
    let mut steps = ctx.shared.steps();
    let log = &mut steps[step];
    log.answers.push(answered);
    match outcome {
        Ok(()) => log.ok += 1,
        Err(code) => *log.failures.entry(code).or_insert(0) += 1,
    }
}

fn error_kind(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        "timeout".into()
    } else if e.is_connect() {
        "connect error".into()
    } else {
        format!("transport error: {e}")
    }
}

/// Waits until nothing of these steps is pending (or `grace` passed), then counts the rest as
/// not delivered.
async fn settle(shared: &Shared, steps: &[usize], grace: Duration) {
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline && shared.pending_in(steps) > 0 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    shared.sweep(steps);
}

/// The part of a push the tool reads.
#[derive(serde::Deserialize)]
struct PushIn {
    message: MessageIn,
}

#[derive(serde::Deserialize)]
struct MessageIn {
    mine: bool,
    body: String,
}

async fn read_socket(member: usize, mut ws: Socket, shared: Arc<Shared>) {
    while let Some(frame) = ws.next().await {
        match frame {
            Ok(Message::Text(text)) => {
                let text = text.as_str();
                // Serde writes the tag first; other pushes (unread, delivered) are skipped unread.
                if text.starts_with(r#"{"type":"message""#) {
                    match serde_json::from_str::<PushIn>(text) {
                        // The sender's own sockets get their message too.
                        Ok(push) if push.message.mine => {}
                        Ok(push) => match push.message.body.strip_prefix(TEXT_PREFIX).and_then(|s| s.parse::<u64>().ok()) {
                            Some(seq) => shared.delivered(member, seq),
                            None => {
                                shared.late.fetch_add(1, Ordering::Relaxed);
                            }
                        },
                        Err(_) => {
                            shared.late.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                } else if text.starts_with(r#"{"type":"resync""#) {
                    shared.resyncs.fetch_add(1, Ordering::Relaxed);
                }
            }
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => {}
        }
    }
    if shared.live.load(Ordering::SeqCst) {
        shared.closed.fetch_add(1, Ordering::Relaxed);
    }
}

/// The socket reader tasks, aborted (their sockets dropped) when done or on an early return.
struct Readers(Vec<tokio::task::JoinHandle<()>>);

impl Readers {
    fn abort(&mut self) {
        for task in self.0.drain(..) {
            task.abort();
        }
    }
}

impl Drop for Readers {
    fn drop(&mut self) {
        self.abort();
    }
}

/// Opens one chat socket as a member (`i` names it in errors).
async fn open_socket(base: String, cookie: String, i: usize) -> Result<(usize, Socket), String> {
    let url = base.replace("http://", "ws://") + "/ws";
    let mut request = url.into_client_request().map_err(|e| e.to_string())?;
    request.headers_mut().insert("cookie", cookie.parse().map_err(|_| "cookie header".to_string())?);
    request.headers_mut().insert("origin", base.parse().map_err(|_| "origin header".to_string())?);
    match tokio::time::timeout(Duration::from_secs(20), tokio_tungstenite::connect_async(request)).await {
        Ok(Ok((ws, _))) => Ok((i, ws)),
        Ok(Err(e)) => Err(format!("socket {i}: {e}")),
        Err(_) => Err(format!("socket {i}: no answer in 20s")),
    }
}

/// Opens `count` more sockets on one node (the members' sessions in turn, several sockets each)
/// and measures the node's memory before and after, once it is quiet; closes them again.
async fn idle_sockets(node: &Server, base: &str, members: &[Member], count: usize) -> Result<String, String> {
    let limit = raise_open_files();
    // This process holds each socket, and the server its end: both need a descriptor each.
    if limit.is_some_and(|l| l < (count + BUDGET_SOCKETS + 512) as libc::rlim_t) {
        return Err(format!("open files are limited to {} here (ulimit -n); {count} sockets need more", limit.unwrap_or(0)));
    }
    wait_quiet_one(node, Duration::from_secs(20)).await;
    let before = node.rss_kib()?;
    let opening = Instant::now();
    let opened: Vec<Result<(usize, Socket), String>> = futures_util::stream::iter(0..count)
        .map(|i| open_socket(base.to_string(), members[i % members.len()].cookie.clone(), i))
        .buffer_unordered(OPENING)
        .collect()
        .await;
    let opened_in = opening.elapsed();
    let mut sockets = Vec::with_capacity(count);
    let mut refused = Vec::new();
    for result in opened {
        match result {
            Ok((_, ws)) => sockets.push(ws),
            Err(e) => refused.push(e),
        }
    }
    if !refused.is_empty() {
        return Err(format!("{} of {count} idle sockets did not open (first: {})", refused.len(), refused[0]));
    }
    wait_quiet_one(node, Duration::from_secs(30)).await;
    let after = node.rss_kib()?;
    drop(sockets);
    Ok(format!(
        "{count} more sockets on one node, opened in {:.1}s: RSS {:.1} MB → {:.1} MB, {:.1} KB per socket",
        opened_in.as_secs_f64(),
        before as f64 / 1024.0,
        after as f64 / 1024.0,
        (after as f64 - before as f64) / count as f64
    ))
}

/// Raises this process's soft limit of open files to its hard limit (the servers it starts
/// inherit it); the limit now, if it could be read.
fn raise_open_files() -> Option<libc::rlim_t> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit read and write the struct passed, nothing else.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return None;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    Some(limit.rlim_cur)
}

/// The nodes of one run, read together (memory, CPU and warnings summed).
struct Nodes(Vec<Server>);

impl Nodes {
    fn rss_kib(&self) -> Result<u64, String> {
        self.0.iter().map(Server::rss_kib).sum()
    }

    fn cpu_ticks(&self) -> Option<u64> {
        self.0.iter().map(Server::cpu_ticks).sum()
    }

    fn warnings(&self) -> u64 {
        self.0.iter().map(Server::warnings).sum()
    }

    fn pids(&self) -> Vec<u32> {
        self.0.iter().map(|s| s.pid).collect()
    }
}

// ---------------------------------------------------------------------------------------------
// The server process
// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct ServerLog {
    listen: Option<String>,
    tail: VecDeque<String>,
    warnings: u64,
    errors: u64,
    /// Warnings and errors by kind (level, target and message; the statement of slow ones).
    kinds: BTreeMap<String, u64>,
}

/// `WARN sqlx::query: slow statement: … summary="UPDATE users …" db.statement=…` →
/// `WARN sqlx::query: slow statement: … [UPDATE users …]`.
fn log_kind(line: &str) -> String {
    let start = line.find(" WARN ").or_else(|| line.find(" ERROR ")).map_or(0, |i| i + 1);
    let rest = &line[start..];
    let mut tokens = rest.split_whitespace();
    let level = tokens.next().unwrap_or_default();
    // A span's fields (`request{method=POST uri=…}:`) come before the target: skip to it.
    let tokens: Vec<&str> = tokens.collect();
    let target = tokens.iter().position(|t| t.ends_with(':') && t.contains("::") && !t.contains('=') && !t.contains('}')).unwrap_or(0);
    let mut kind: String = std::iter::once(level).chain(tokens[target..].iter().copied().take_while(|t| !t.contains('='))).collect::<Vec<_>>().join(" ");
    if let Some(summary) = rest.split("summary=\"").nth(1).and_then(|s| s.split('"').next()) {
        kind.push_str(&format!(" [{summary}]"));
    }
    kind.chars().take(200).collect()
}

struct Server {
    child: Child,
    pid: u32,
    log: Arc<Mutex<ServerLog>>,
    stopped: Option<Option<ExitStatus>>,
}

impl Server {
    fn start(bin: &Path, data_dir: &Path, database_url: Option<&str>) -> Result<Server, String> {
        let site_root = std::env::var("LEPTOS_SITE_ROOT").unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../target/site").to_string());
        let mut cmd = Command::new(bin);
        cmd.env("VONK_ADDR", "127.0.0.1:0")
            .env("DATA_DIR", data_dir)
            .env("VONK_SEED", "none")
            .env("VONK_DEMO_MEMBERS", "0")
            .env("VONK_PAYMENTS", "test")
            .env_remove("MOLLIE_API_KEY")
            .env("VONK_RATE_LIMIT_FACTOR", "1000")
            .env("LEPTOS_SITE_ROOT", site_root)
            .env("NO_COLOR", "1")
            .env_remove("RUST_LOG")
            .env_remove("DATABASE_MAX_CONNECTIONS")
            .env_remove("VONK_PUBLIC_ORIGINS")
            .env_remove("VONK_PUBLIC_URL")
            .env_remove("VONK_SMTP_URL")
            .env_remove("VONK_SITE_CACHE_SECS")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        match database_url {
            Some(url) => cmd.env("DATABASE_URL", url),
            None => cmd.env_remove("DATABASE_URL"),
        };
        let mut child = cmd.spawn().map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        let log = Arc::new(Mutex::new(ServerLog::default()));
        for stream in [
            child.stdout.take().map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
            child.stderr.take().map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
        ]
        .into_iter()
        .flatten()
        {
            let log = log.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines() {
                    let Ok(line) = line else { break };
                    let mut log = log.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(rest) = line.split("Vonk listens on ").nth(1) {
                        log.listen.get_or_insert_with(|| rest.trim().to_string());
                    }
                    let (warn, error) = (line.contains(" WARN "), line.contains(" ERROR "));
                    log.warnings += warn as u64;
                    log.errors += error as u64;
                    if warn || error {
                        *log.kinds.entry(log_kind(&line)).or_insert(0) += 1;
                    }
                    log.tail.push_back(line);
                    if log.tail.len() > 40 {
                        log.tail.pop_front();
                    }
                }
            });
        }
        let pid = child.id();
        Ok(Server { child, pid, log, stopped: None })
    }

    fn warnings(&self) -> u64 {
        let log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        log.warnings + log.errors
    }

    fn tail(&self) -> String {
        self.log.lock().unwrap_or_else(|e| e.into_inner()).tail.iter().cloned().collect::<Vec<_>>().join("\n")
    }

    /// Waits for the listening line and for `GET /` to answer; returns the base URL.
    async fn wait_ready(&mut self, within: Duration) -> Result<String, String> {
        let deadline = Instant::now() + within;
        let client = reqwest::Client::builder().timeout(Duration::from_secs(5)).build().map_err(|e| e.to_string())?;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.stopped = Some(Some(status));
                return Err(format!("the server exited ({status}) before it answered:\n{}", self.tail()));
            }
            let listen = self.log.lock().unwrap_or_else(|e| e.into_inner()).listen.clone();
            if let Some(base) = listen {
                if let Ok(res) = client.get(format!("{base}/")).send().await {
                    if res.status().as_u16() < 500 {
                        return Ok(base);
                    }
                }
            }
            if Instant::now() > deadline {
                return Err(format!("the server did not answer GET / within {}s:\n{}", within.as_secs(), self.tail()));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    fn rss_kib(&self) -> Result<u64, String> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid)).map_err(|e| format!("read the server's /proc status: {e}"))?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| "no VmRSS in the server's /proc status".to_string())
    }

    fn cpu_ticks(&self) -> Option<u64> {
        cpu_ticks_of(&format!("/proc/{}/stat", self.pid))
    }

    /// SIGTERM (graceful: the server closes its sockets and drains), SIGKILL after 15 s.
    fn stop(&mut self) -> Option<ExitStatus> {
        if let Some(status) = self.stopped {
            return status;
        }
        let status = match self.child.try_wait() {
            Ok(Some(status)) => Some(status),
            _ => {
                let _ = Command::new("kill").args(["-TERM", &self.pid.to_string()]).status();
                let deadline = Instant::now() + Duration::from_secs(15);
                loop {
                    match self.child.try_wait() {
                        Ok(Some(status)) => break Some(status),
                        Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(50)),
                        _ => {
                            let _ = self.child.kill();
                            let _ = self.child.wait();
                            break None;
                        }
                    }
                }
            }
        };
        self.stopped = Some(status);
        status
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// utime + stime of a process, in clock ticks.
fn cpu_ticks_of(stat_path: &str) -> Option<u64> {
    stat_of(stat_path).map(|(_, ticks)| ticks)
}

/// (parent pid, utime + stime) from a `/proc/<pid>/stat`.
fn stat_of(stat_path: &str) -> Option<(u32, u64)> {
    let stat = std::fs::read_to_string(stat_path).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    Some((fields.get(1)?.parse().ok()?, fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?))
}

/// A process and its children (the postmaster and its backends), in clock ticks.
fn tree_ticks(root: u32) -> Option<u64> {
    let mut total = cpu_ticks_of(&format!("/proc/{root}/stat"))?;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        if let Some((parent, ticks)) = stat_of(&format!("/proc/{pid}/stat")) {
            if parent == root {
                total += ticks;
            }
        }
    }
    Some(total)
}

/// CPU of every other process on the machine, in clock ticks: own time plus that of reaped
/// children (so a short-lived process counts once its parent waited for it). Per-process
/// accounting, not `/proc/stat`, whose ticks do not add up over a few seconds on a VM.
fn others_ticks(ours: &[u32], db_root: Option<u32>) -> Option<u64> {
    let mut total = 0u64;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let f: Vec<&str> = rest.split_whitespace().collect();
        let parent: u32 = f.get(1).and_then(|v| v.parse().ok()).unwrap_or(0);
        if ours.contains(&pid) || db_root.is_some_and(|root| pid == root || parent == root) {
            continue;
        }
        let tick = |i: usize| f.get(i).and_then(|v| v.parse::<i64>().ok()).unwrap_or(0).max(0) as u64;
        total += tick(11) + tick(12) + tick(13) + tick(14);
    }
    Some(total)
}

/// Where the machine's CPU went: the server, the database's processes, this tool, the rest.
struct CpuSample {
    server: Option<u64>,
    db: Option<u64>,
    tool: Option<u64>,
    others: Option<u64>,
}

/// Percentages of one core over a window.
struct CpuUse {
    server: Option<f64>,
    db: Option<f64>,
    tool: Option<f64>,
    other: Option<f64>,
}

impl CpuSample {
    fn take(server: &Nodes, cluster: Option<&PgCluster>) -> CpuSample {
        let db_root = cluster.and_then(PgCluster::postmaster_pid);
        let mut ours = server.pids();
        ours.push(std::process::id());
        CpuSample { server: server.cpu_ticks(), db: db_root.and_then(tree_ticks), tool: self_cpu_ticks(), others: others_ticks(&ours, db_root) }
    }

    fn since(&self, start: &CpuSample, window: Duration) -> CpuUse {
        let scale = 100.0 / clock_ticks() / window.as_secs_f64();
        let d = |a: Option<u64>, b: Option<u64>| a.zip(b).map(|(a, b)| b.saturating_sub(a));
        let (server, db, tool, other) = (d(start.server, self.server), d(start.db, self.db), d(start.tool, self.tool), d(start.others, self.others));
        let pct = |v: Option<u64>| v.map(|v| v as f64 * scale);
        CpuUse { server: pct(server), db: pct(db), tool: pct(tool), other: pct(other) }
    }
}

/// Waits (up to `max`) until one node uses under 5% of a core over [`QUIET_WINDOW`].
async fn wait_quiet_one(server: &Server, max: Duration) {
    wait_quiet_ticks(|| server.cpu_ticks(), max).await
}

/// Waits (up to `max`) until the nodes together use under 5% of a core over [`QUIET_WINDOW`].
async fn wait_quiet(server: &Nodes, max: Duration) {
    wait_quiet_ticks(|| server.cpu_ticks(), max).await
}

async fn wait_quiet_ticks(ticks: impl Fn() -> Option<u64>, max: Duration) {
    let deadline = Instant::now() + max;
    while Instant::now() < deadline {
        let before = ticks();
        tokio::time::sleep(QUIET_WINDOW).await;
        let Some(used) = before.zip(ticks()).map(|(a, b)| (b - a) as f64 / clock_ticks() / QUIET_WINDOW.as_secs_f64()) else { return };
        if used < 0.05 {
            return;
        }
    }
}

fn self_cpu_ticks() -> Option<u64> {
    cpu_ticks_of("/proc/self/stat")
}

fn clock_ticks() -> f64 {
    static TICKS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
            .filter(|t: &f64| *t > 0.0)
            .unwrap_or(100.0)
    })
}

// ---------------------------------------------------------------------------------------------
// A private PostgreSQL cluster
// ---------------------------------------------------------------------------------------------

/// `CHAT_LOAD_PG_STATS=1`: the statements that took the database's time during the rates.
fn pg_stats_wanted() -> bool {
    matches!(std::env::var("CHAT_LOAD_PG_STATS").as_deref(), Ok("1" | "true" | "yes"))
}

/// Resets the statement counts (`reset`), or answers how many statements ran since, printing
/// the top 15 by time when `CHAT_LOAD_PG_STATS=1`.
async fn pg_stats(url: &str, reset: bool) -> Result<i64, String> {
    let pool = sqlx::any::AnyPoolOptions::new().max_connections(1).connect(url).await.map_err(|e| format!("pg_stat_statements: {e}"))?;
    let result = async {
        if reset {
            sqlx::query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements").execute(&pool).await?;
            sqlx::query("SELECT CAST(1 AS BIGINT) FROM (SELECT pg_stat_statements_reset()) r").execute(&pool).await?;
            return Ok(0);
        }
        // Top level only: what the servers sent (the round trips), not what triggers and
        // foreign keys ran inside them.
        let (calls,): (i64,) =
            sqlx::query_as("SELECT CAST(COALESCE(SUM(calls), 0) AS BIGINT) FROM pg_stat_statements WHERE toplevel AND query NOT LIKE '%pg_stat_statements%'")
                .fetch_one(&pool)
                .await?;
        if !pg_stats_wanted() {
            return Ok(calls);
        }
        let rows: Vec<(i64, f64, f64, String)> = sqlx::query_as(
            "SELECT calls, total_exec_time, mean_exec_time, regexp_replace(query, '\\s+', ' ', 'g') FROM pg_stat_statements \
             WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT 15",
        )
        .fetch_all(&pool)
        .await?;
        let total: f64 = rows.iter().map(|r| r.1).sum();
        println!("PostgreSQL statements during the rates (pg_stat_statements, top 15 by execution time; commit waits not included):");
        println!("{:>9} {:>10} {:>8}  statement", "calls", "total ms", "mean ms");
        for (calls, total_ms, mean_ms, query) in rows {
            println!("{calls:>9} {total_ms:>10.0} {mean_ms:>8.3}  {}", query.trim().chars().take(110).collect::<String>());
        }
        println!("{:>9} {total:>10.0}", "");
        Ok::<i64, sqlx::Error>(calls)
    }
    .await;
    pool.close().await;
    result.map_err(|e| format!("pg_stat_statements: {e}"))
}
