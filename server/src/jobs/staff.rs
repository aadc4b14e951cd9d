//! What staff see of the queue (`/staff/jobs`): how many jobs of each kind are waiting, done,
//! dropped or failed, the failed ones with their last error, and running a failed one again.
//! Admins of a site see its jobs and the node-wide ones (the daily scan, payment recovery),
//! which hold no member's data.

use domain::jobs::{JobKind, JobStatus};
use domain::staff::StaffArea;

use super::Jobs;
use crate::accounts::Member;
use crate::error::AppError;
use crate::staff::require_staff;

/// Jobs of one kind in one state.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct JobCount {
    pub kind: String,
    pub status: String,
    pub jobs: i64,
}

/// A job that failed every try.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct FailedJob {
    pub id: i64,
    pub kind: String,
    pub job_key: String,
    pub attempts: i64,
    pub last_error: Option<String>,
    pub finished_at: Option<i64>,
}

/// At most this many failed jobs are listed.
const FAILED_SHOWN: i64 = 100;

impl Jobs {
    /// A site's jobs per kind and state: every waiting or failed one, and those done or dropped
    /// since `since`.
    pub async fn counts(&self, who: &Member, site_id: i64, since: i64) -> Result<Vec<JobCount>, AppError> {
        require_staff(who, site_id, StaffArea::Jobs)?;
        Ok(sqlx::query_as(
            "SELECT kind, status, COUNT(*) AS jobs FROM jobs WHERE (site_id = $2 OR site_id IS NULL) AND (status IN ($3, $4) OR finished_at >= $1) \
             GROUP BY kind, status ORDER BY kind, status",
        )
        .bind(since)
        .bind(site_id)
        .bind(JobStatus::Queued.as_str())
        .bind(JobStatus::Failed.as_str())
        .fetch_all(self.db.pool())
        .await?)
    }

    /// A site's failed jobs, the latest first.
    pub async fn failed(&self, who: &Member, site_id: i64) -> Result<Vec<FailedJob>, AppError> {
        require_staff(who, site_id, StaffArea::Jobs)?;
        Ok(sqlx::query_as(
            "SELECT id, kind, job_key, attempts, last_error, finished_at FROM jobs WHERE status = $1 AND (site_id = $3 OR site_id IS NULL) \
             ORDER BY finished_at DESC, id DESC LIMIT $2",
        )
        .bind(JobStatus::Failed.as_str())
        .bind(FAILED_SHOWN)
        .bind(site_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Puts a failed job back in the queue, due now, with its tries counted from nothing, and
    /// notes it in the staff log. Returns the job's kind, or `None` when there was no such
    /// failed job (a second click, a job that is not failed, a job of another site: nothing changes).
    pub async fn retry(&self, who: &Member, site_id: i64, id: i64) -> Result<Option<JobKind>, AppError> {
        require_staff(who, site_id, StaffArea::Jobs)?;
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        let row: Option<(String, String)> = sqlx::query_as(
            "UPDATE jobs SET status = $1, due_at = $2, attempts = 0, last_error = NULL, finished_at = NULL \
             WHERE id = $3 AND status = $4 AND (site_id = $5 OR site_id IS NULL) RETURNING kind, job_key",
        )
        .bind(JobStatus::Queued.as_str())
        .bind(now)
        .bind(id)
        .bind(JobStatus::Failed.as_str())
        .bind(site_id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((kind, key)) = row else { return Ok(None) };
        crate::staff::record(&mut tx, site_id, who, "job_retried", &format!("job #{id}"), &key, now).await?;
        tx.commit().await?;
        Ok(JobKind::parse(&kind))
    }
}
