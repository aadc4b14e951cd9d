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

    /// Runs [`Payments::recover`] now and then every `every`.
    pub fn spawn_recovery(&self, clock: crate::clock::Clock, every: std::time::Duration) -> tokio::task::JoinHandle<()> {
        let payments = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                match payments.recover(clock.now()).await {
                    Ok(r) if r != Recovery::default() => {
                        tracing::info!(checked = r.checked, paid = r.paid, expired = r.expired, receipts = r.receipts, "payment recovery")
                    }
                    Ok(_) => {}
                    Err(error) => tracing::warn!(%error, "payment recovery failed"),
                }
            }
        })
    }
}
