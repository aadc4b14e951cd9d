//! The one job queue (DESIGN.md habit 11): work that happens later runs from the `jobs` table,
//! never from a timer in memory. A job is enqueued inside the transaction of the event it
//! belongs to (a signup enqueues its reminders), so it exists exactly when the event does.
//!
//! Every node runs [`Jobs::spawn_runner`]. A node takes due jobs in one statement — on
//! PostgreSQL with `FOR UPDATE SKIP LOCKED`, so two nodes never take the same job; on SQLite
//! the single writer serialises the statement — and holds them for a lease
//! ([`domain::jobs::LEASE_SECS`]). A node that dies while running a job lets go of it when the
//! lease ends and another runs it again: delivery is at least once, and every handler checks
//! that its work is still to be done before doing it. A failed job is tried again later
//! ([`domain::jobs::after_failure`]); after the last try it waits for staff (`/staff/jobs`),
//! who can run it again. A job found too long after its due time (the site was down) is
//! dropped instead of run ([`domain::jobs::is_fresh`]).

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use domain::jobs::{after_failure, is_fresh, AfterFailure, JobKind, JobStatus, BATCH, LEASE_SECS};

use crate::clock::Clock;
use crate::db::{Backend, Db};
use crate::error::AppError;

mod staff;

pub use staff::{FailedJob, JobCount};

/// A job a node took to run.
#[derive(Debug, Clone)]
pub struct Job {
    pub id: i64,
    pub kind: JobKind,
    /// The event the job is for (unique among all jobs).
    pub key: String,
    pub payload: serde_json::Value,
    pub due_at: i64,
    /// Tries so far, this one included.
    pub attempts: u32,
}

/// How a handler's run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Done,
    /// Nothing to do any more (the member confirmed, unsubscribed, left…); the reason is kept.
    Dropped(&'static str),
    /// Not now: run again at this time (the member's night, the cap). Not counted as a try.
    Later(i64),
}

/// Runs the jobs of one kind.
#[async_trait::async_trait]
pub trait Handler: Send + Sync {
    async fn run(&self, job: &Job, now: i64) -> Result<Outcome, AppError>;
}

/// What one pass over the due jobs did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunReport {
    pub done: u32,
    pub dropped: u32,
    pub later: u32,
    pub failed: u32,
}

#[derive(Clone)]
pub struct Jobs {
    db: Db,
    clock: Clock,
    /// This node's name in `jobs.locked_by`.
    node: Arc<str>,
    handlers: Arc<RwLock<HashMap<JobKind, Arc<dyn Handler>>>>,
}

impl std::fmt::Debug for Jobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Jobs").field("node", &self.node).finish()
    }
}

/// Puts a job in the queue inside the caller's transaction. A job with the same key already
/// queued (or run) makes this do nothing: one event, one job.
pub async fn enqueue(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    site_id: Option<i64>,
    kind: JobKind,
    key: &str,
    payload: &serde_json::Value,
    due_at: i64,
    now: i64,
) -> Result<(), AppError> {
    sqlx::query("INSERT INTO jobs (kind, site_id, job_key, payload, due_at, created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (job_key) DO NOTHING")
        .bind(kind.as_str())
        .bind(site_id)
        .bind(key)
        .bind(payload.to_string())
        .bind(due_at)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[derive(sqlx::FromRow)]
struct TakenRow {
    id: i64,
    kind: String,
    job_key: String,
    payload: String,
    due_at: i64,
    attempts: i64,
}

impl Jobs {
    /// `node` names this node in the queue (its host name and process, say).
    pub fn new(db: Db, clock: Clock, node: &str) -> Jobs {
        Jobs { db, clock, node: node.into(), handlers: Default::default() }
    }

    /// The handler of a kind of job (one per kind; a later one replaces it).
    pub fn handle(&self, kind: JobKind, handler: Arc<dyn Handler>) {
        self.handlers.write().expect("job handlers lock").insert(kind, handler);
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Takes up to [`BATCH`] due jobs for this node and holds them for a lease.
    async fn take(&self, now: i64) -> Result<Vec<Job>, AppError> {
        let lock = match self.db.backend() {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let sql = format!(
            "UPDATE jobs SET locked_by = $1, locked_until = $2, attempts = attempts + 1 \
             WHERE id IN (SELECT id FROM jobs WHERE status = $5 AND due_at <= $3 AND (locked_until IS NULL OR locked_until <= $3) \
             ORDER BY due_at, id LIMIT $4{lock}) \
             RETURNING id, kind, job_key, payload, due_at, attempts"
        );
        let rows: Vec<TakenRow> = sqlx::query_as(&sql)
            .bind(&*self.node)
            .bind(now + LEASE_SECS)
            .bind(now)
            .bind(i64::from(BATCH))
            .bind(JobStatus::Queued.as_str())
            .fetch_all(self.db.pool())
            .await?;
        let mut jobs = Vec::with_capacity(rows.len());
        for row in rows {
            match JobKind::parse(&row.kind) {
                Some(kind) => jobs.push(Job {
                    id: row.id,
                    kind,
                    key: row.job_key,
                    payload: serde_json::from_str(&row.payload).unwrap_or(serde_json::Value::Null),
                    due_at: row.due_at,
                    attempts: u32::try_from(row.attempts).unwrap_or(u32::MAX),
                }),
                // A kind this build does not know (an older node reading a newer queue): left
                // for staff rather than run by guess.
                None => self.finish(row.id, JobStatus::Failed, Some("unknown kind"), now).await?,
            }
        }
        Ok(jobs)
    }

    /// Runs every job that is due now, batch after batch, and reports what became of them.
    pub async fn run_due(&self) -> Result<RunReport, AppError> {
        let mut report = RunReport::default();
        loop {
            let now = self.clock.now();
            let jobs = self.take(now).await?;
            if jobs.is_empty() {
                return Ok(report);
            }
            for job in jobs {
                self.run_one(job, now, &mut report).await?;
            }
        }
    }

    async fn run_one(&self, job: Job, now: i64, report: &mut RunReport) -> Result<(), AppError> {
        if !is_fresh(job.kind, job.due_at, now) {
            report.dropped += 1;
            return self.finish(job.id, JobStatus::Dropped, Some("stale"), now).await;
        }
        let handler = self.handlers.read().expect("job handlers lock").get(&job.kind).cloned();
        let result = match handler {
            Some(handler) => handler.run(&job, now).await,
            None => Err(AppError::Internal(format!("no handler for {}", job.kind.as_str()))),
        };
        match result {
            Ok(Outcome::Done) => {
                report.done += 1;
                self.finish(job.id, JobStatus::Done, None, now).await
            }
            Ok(Outcome::Dropped(reason)) => {
                report.dropped += 1;
                self.finish(job.id, JobStatus::Dropped, Some(reason), now).await
            }
            Ok(Outcome::Later(at)) => {
                report.later += 1;
                sqlx::query("UPDATE jobs SET due_at = $1, attempts = attempts - 1, locked_by = NULL, locked_until = NULL WHERE id = $2 AND locked_by = $3")
                    .bind(at.max(now + 1))
                    .bind(job.id)
                    .bind(&*self.node)
                    .execute(self.db.pool())
                    .await?;
                Ok(())
            }
            Err(error) => {
                let message: String = error.to_string().chars().take(500).collect();
                tracing::warn!(job = job.id, kind = job.kind.as_str(), attempt = job.attempts, %message, "job failed");
                match after_failure(job.attempts, now) {
                    AfterFailure::RetryAt(at) => {
                        report.later += 1;
                        sqlx::query("UPDATE jobs SET due_at = $1, last_error = $2, locked_by = NULL, locked_until = NULL WHERE id = $3 AND locked_by = $4")
                            .bind(at)
                            .bind(&message)
                            .bind(job.id)
                            .bind(&*self.node)
                            .execute(self.db.pool())
                            .await?;
                        Ok(())
                    }
                    AfterFailure::GiveUp => {
                        report.failed += 1;
                        self.finish(job.id, JobStatus::Failed, Some(&message), now).await
                    }
                }
            }
        }
    }

    /// Ends a job this node holds. A job whose lease ended and that another node took
    /// meanwhile is that node's to end (the `locked_by` check).
    async fn finish(&self, id: i64, status: JobStatus, reason: Option<&str>, now: i64) -> Result<(), AppError> {
        sqlx::query("UPDATE jobs SET status = $1, last_error = $2, finished_at = $3, locked_by = NULL, locked_until = NULL WHERE id = $4 AND locked_by = $5")
            .bind(status.as_str())
            .bind(reason)
            .bind(now)
            .bind(id)
            .bind(&*self.node)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Runs the due jobs now and then every `every`, for as long as the node runs.
    pub fn spawn_runner(&self, every: std::time::Duration) -> tokio::task::JoinHandle<()> {
        let jobs = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                match jobs.run_due().await {
                    Ok(r) if r != RunReport::default() => {
                        tracing::info!(done = r.done, dropped = r.dropped, later = r.later, failed = r.failed, "jobs run")
                    }
                    Ok(_) => {}
                    Err(error) => tracing::warn!(%error, "running jobs failed"),
                }
            }
        })
    }
}

/// This node's name in the queue: the host's name and the process id.
pub fn node_name() -> String {
    let host = std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty()).unwrap_or_else(|| "node".into());
    format!("{host}:{}", std::process::id())
}
