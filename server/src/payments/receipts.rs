//! Receipts of paid payments: mailed once, and as a PDF for the member.

use domain::checkout::PaymentStatus;
use domain::ErrorCode;
use sqlx::Row;

use super::{receipt_pdf, view, Payments, PAYMENT_COLUMNS};
use crate::error::AppError;

impl Payments {
    /// Mails the receipt of a paid payment once: the row is claimed first, and given back when
    /// sending fails.
    pub(super) async fn send_receipt(&self, payment_id: i64, now: i64) -> Result<bool, AppError> {
        let claimed = sqlx::query("UPDATE payments SET receipt_sent_at = $1 WHERE id = $2 AND status = $3 AND receipt_sent_at IS NULL")
            .bind(now)
            .bind(payment_id)
            .bind(domain::checkout::PaymentStatus::Paid.code())
            .execute(self.pool())
            .await?
            .rows_affected();
        if claimed == 0 {
            return Ok(false);
        }
        let sent = self.mail_receipt(payment_id).await;
        if sent.is_err() {
            sqlx::query("UPDATE payments SET receipt_sent_at = NULL WHERE id = $1").bind(payment_id).execute(self.pool()).await?;
        }
        sent.map(|_| true)
    }

    pub(super) async fn mail_receipt(&self, payment_id: i64) -> Result<(), AppError> {
        let row =
            sqlx::query(&format!("SELECT {PAYMENT_COLUMNS}, user_id, site_id FROM payments WHERE id = $1")).bind(payment_id).fetch_one(self.pool()).await?;
        let payment = view(&row)?;
        let site = self.site_by_id(row.try_get("site_id")?).await?;
        let base_url = site.base_url(&self.public_url);
        self.accounts.mail_receipt(&site, &base_url, row.try_get("user_id")?, &payment, &self.links.transaction(payment_id)).await
    }

    /// The receipt of the member's own paid payment as a PDF, in the member's language (the
    /// mail's content). Someone else's payment, or one not paid (or paid and reversed), is
    /// not found.
    pub async fn receipt_pdf(&self, member_id: i64, payment_id: i64) -> Result<Vec<u8>, AppError> {
        let row = sqlx::query(&format!("SELECT {PAYMENT_COLUMNS}, site_id FROM payments WHERE id = $1 AND user_id = $2 AND status = $3"))
            .bind(payment_id)
            .bind(member_id)
            .bind(PaymentStatus::Paid.code())
            .fetch_optional(self.pool())
            .await?
            .ok_or(ErrorCode::NotFound)?;
        let payment = view(&row)?;
        let site = self.site_by_id(row.try_get("site_id")?).await?;
        let receipt = self.accounts.receipt(&site, member_id, &payment).await?;
        let (name, logo) = (site.settings.name.clone(), site.logo_png.clone());
        // Fonts are subset and the page compressed: CPU work, off the request threads.
        tokio::task::spawn_blocking(move || receipt_pdf::render(&name, logo.as_deref(), &receipt))
            .await
            .map_err(|e| AppError::Internal(format!("receipt pdf: {e}")))?
    }

    pub(super) async fn site_by_id(&self, site_id: i64) -> Result<std::sync::Arc<crate::sites::Site>, AppError> {
        Ok(match self.sites.as_ref().and_then(|sites| sites.by_id(site_id)) {
            Some(site) => site,
            None => std::sync::Arc::new(
                crate::sites::load_all(&self.db)
                    .await?
                    .into_iter()
                    .find(|s| s.settings.id == site_id)
                    .ok_or_else(|| AppError::Internal(format!("site {site_id}")))?,
            ),
        })
    }
}
