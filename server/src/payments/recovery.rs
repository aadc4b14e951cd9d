//! The recovery job: payments without news are read again from the provider (a missed
//! webhook, a process that died before booking), old open ones expire, receipts, refunds and
//! credit notes that did not go out go now. It runs at start and every minute.

use domain::checkout::PaymentStatus;

use super::Payments;
use crate::error::AppError;

/// What a recovery run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Recovery {
    pub checked: usize,
    pub paid: usize,
    pub expired: usize,
    pub receipts: usize,
    /// Refunds the provider answered only now.
    pub refunds: usize,
}

impl Payments {
    /// The recovery job's run: open payments without news for a while are read again from the
    /// provider (a missed webhook, a process that died before booking); those older than the
    /// expiry that the provider still has open are expired; receipts that did not go out go now.
    pub async fn recover(&self, now: i64) -> Result<Recovery, AppError> {
        let mut report = Recovery::default();
        let rows: Vec<(i64, i64, Option<String>)> =
            sqlx::query_as("SELECT id, created_at, provider_id FROM payments WHERE status IN ($2, $3) AND checked_at <= $1 ORDER BY id LIMIT 500")
                .bind(now - self.recheck_after)
                .bind(domain::checkout::PaymentStatus::Open.code())
                .bind(domain::checkout::PaymentStatus::Pending.code())
                .fetch_all(self.pool())
                .await?;
        for (id, created_at, provider_id) in rows {
            report.checked += 1;
            let status = match provider_id {
                Some(_) => match self.sync(id, now).await {
                    Ok(status) => status,
                    Err(error) => {
                        tracing::warn!(payment = id, %error, "recovery could not read the payment");
                        continue;
                    }
                },
                // No checkout was made (the process died while creating it) — unless it is a
                // direct debit, which needs none.
                None => self.sync(id, now).await?,
            };
            if status == PaymentStatus::Paid {
                report.paid += 1;
            } else if status.is_open() && created_at <= now - self.expire_after && self.apply(id, PaymentStatus::Expired, now).await? == PaymentStatus::Expired
            {
                report.expired += 1;
            }
            sqlx::query("UPDATE payments SET checked_at = $1 WHERE id = $2 AND status IN ($3, $4)")
                .bind(now)
                .bind(id)
                .bind(domain::checkout::PaymentStatus::Open.code())
                .bind(domain::checkout::PaymentStatus::Pending.code())
                .execute(self.pool())
                .await?;
        }
        let unsent: Vec<(i64,)> = sqlx::query_as("SELECT id FROM payments WHERE status = $1 AND receipt_sent_at IS NULL ORDER BY id LIMIT 100")
            .bind(domain::checkout::PaymentStatus::Paid.code())
            .fetch_all(self.pool())
            .await?;
        for (id,) in unsent {
            if self.send_receipt(id, now).await.unwrap_or(false) {
                report.receipts += 1;
            }
        }
        report.refunds = self.recover_refunds(now).await?;
        Ok(report)
    }

    /// Puts the recurring recovery job in the queue (once, whichever node asks first) and
    /// registers its handler: one node recovers every `every`, whatever the number of nodes.
    pub async fn schedule_recovery(&self, jobs: &crate::jobs::Jobs, every: std::time::Duration, now: i64) -> Result<(), AppError> {
        jobs.handle(domain::jobs::JobKind::PaymentRecovery, std::sync::Arc::new(RecoveryJob { payments: self.clone(), every: every.as_secs().max(1) as i64 }));
        let mut tx = self.db.begin().await?;
        crate::jobs::enqueue(&mut tx, None, domain::jobs::JobKind::PaymentRecovery, "payment_recovery", &serde_json::json!({}), now, now).await?;
        // A node's start recovers at once (a crash may have left a payment half done), and a
        // recurring job left failed (it failed every try) starts again with it.
        sqlx::query("UPDATE jobs SET status = $1, attempts = 0, due_at = $2 WHERE job_key = 'payment_recovery' AND (status = $3 OR due_at > $2)")
            .bind(domain::jobs::JobStatus::Queued.as_str())
            .bind(now)
            .bind(domain::jobs::JobStatus::Failed.as_str())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}

/// The recurring recovery job: recovers, then waits `every` seconds.
struct RecoveryJob {
    payments: Payments,
    every: i64,
}

#[async_trait::async_trait]
impl crate::jobs::Handler for RecoveryJob {
    async fn run(&self, _job: &crate::jobs::Job, now: i64) -> Result<crate::jobs::Outcome, AppError> {
        let r = self.payments.recover(now).await?;
        if r != Recovery::default() {
            tracing::info!(checked = r.checked, paid = r.paid, expired = r.expired, receipts = r.receipts, "payment recovery");
        }
        Ok(crate::jobs::Outcome::Later(now + self.every))
    }
}
