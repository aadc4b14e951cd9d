//! Money after the sale: refunds staff make (whole or in part, through the provider), refunds
//! made in the provider's own dashboard and chargebacks by the buyer's bank (both heard through
//! the webhook), and the block a chargeback puts on card and direct-debit payments.
//!
//! Never lost, never twice:
//! - A staff refund is written down first (`refunds`, state `requested`, its amount reserved in
//!   `payments.refunded`) under the payment's row lock, keyed by the form's idempotency key; only
//!   then is the provider asked, with that same key. A repeat of the request (a second click, a
//!   replay, two staff at once) finds the key and does not refund again. A provider that did not
//!   answer is asked again by the recovery job with the same key.
//! - Settling a refund (credits back through the ledger as `refund:{id}`, the status, the mail)
//!   happens once: the refund's row moves from `requested` to `done` in that transaction.
//! - What the provider reports as refunded or charged back beyond what we know is recorded under
//!   a key made of the payment and the provider's running total, so a webhook heard twice is one
//!   refund.

use domain::checkout::PaymentStatus;
use domain::payment::{PaymentGroup, PaymentMethod};
use domain::refund::{credits_back, credits_for, CreditsBack, RefundKind, RefundState, Refundable};
use domain::ErrorCode;
use sqlx::Row;

use super::provider::{ProviderError, ProviderPayment, RefundRequest};
use super::{Payments, DIRECT_DEBIT};
use crate::accounts::Member;
use crate::credits::{self, Entry, Reason};
use crate::db::flag;
use crate::error::AppError;
use crate::staff::require_staff;

/// After this long without an answer the recovery job asks the provider again.
const RETRY_AFTER_SECS: i64 = 60;

/// What a refund request came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct RefundOutcome {
    pub refund_id: i64,
    pub amount: i64,
    #[sqlx(try_from = "String")]
    pub state: RefundState,
    /// Credits taken back, and those the member had already used (known once done).
    #[sqlx(flatten)]
    pub credits: CreditsBack,
    /// The payment's status afterwards.
    #[sqlx(try_from = "String")]
    pub status: PaymentStatus,
}

/// What the test provider's dashboard or the bank does (`vonk payments …` after `make run`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestChange {
    /// A refund of this many cents typed in the dashboard.
    Refund(i64),
    Chargeback,
    /// A pending direct debit collected (true) or not.
    Collected(bool),
}

/// One refund or chargeback of a payment, for its timeline.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct RefundEntry {
    pub id: i64,
    #[sqlx(try_from = "String")]
    pub kind: RefundKind,
    #[sqlx(try_from = "String")]
    pub state: RefundState,
    pub amount: i64,
    #[sqlx(flatten)]
    pub credits: CreditsBack,
    pub reason: String,
    #[sqlx(rename = "updated_at")]
    pub at: i64,
    pub note_sent_at: Option<i64>,
}

/// Whether a staff form's idempotency key is one we made (the form carries 32 random hex bytes).
fn well_formed_key(key: &str) -> bool {
    (16..=64).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_alphanumeric())
}

impl Payments {
    /// Staff refund `amount` minor units (None: all that is left) of one of the site's paid
    /// payments. `key` is the form's idempotency key; the same key answers the same refund.
    pub async fn refund(
        &self,
        staff: &Member,
        site_id: i64,
        payment_id: i64,
        amount: Option<i64>,
        reason: &str,
        key: &str,
        now: i64,
    ) -> Result<RefundOutcome, AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Refunds)?;
        if !well_formed_key(key) {
            return Err(ErrorCode::BadRequest.into());
        }
        let site = self.site_by_id(site_id).await?;
        let mut tx = self.db.begin().await?;
        // The payment's row lock first: two requests with the same key, or two staff at once,
        // are then taken one after the other.
        let row = sqlx::query("UPDATE payments SET updated_at = updated_at WHERE id = $1 AND site_id = $2 RETURNING status, amount, refunded, paid_at")
            .bind(payment_id)
            .bind(site_id)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(ErrorCode::NotFound)?;
        let known: Option<(i64, i64)> = sqlx::query_as("SELECT id, payment_id FROM refunds WHERE request_key = $1").bind(key).fetch_optional(&mut *tx).await?;
        let refund_id = match known {
            // A repeat: the same refund, as it stands. Only the request that wrote it down asks
            // the provider; one the provider left unanswered is asked again by the recovery
            // job, so no two calls for one refund are ever under way at once.
            Some((id, payment)) if payment == payment_id => {
                drop(tx);
                return self.outcome(id).await;
            }
            Some(_) => return Err(ErrorCode::BadRequest.into()),
            None => {
                let refundable = Refundable {
                    status: super::status_of(&row, "status")?,
                    amount: row.try_get("amount")?,
                    refunded: row.try_get("refunded")?,
                    paid_at: row.try_get::<Option<i64>, _>("paid_at")?.unwrap_or(0),
                };
                let (amount, reason) = refundable.check(amount, reason, now, site.settings.refund_days)?;
                let id = self.reserve(&mut tx, payment_id, RefundKind::Refund, amount, &reason, Some(staff.id), key, now).await?;
                let detail = format!("{} {}", super::mollie::amount_value(amount), reason);
                crate::staff::record(&mut tx, site_id, staff, "payment_refund", &format!("#{payment_id}"), detail.trim(), now).await?;
                id
            }
        };
        tx.commit().await?;
        self.ask_provider(refund_id, now).await
    }

    /// Writes a refund down as requested and reserves its amount (the caller holds the
    /// payment's row lock).
    async fn reserve(
        &self,
        tx: &mut sqlx::Transaction<'static, sqlx::Any>,
        payment_id: i64,
        kind: RefundKind,
        amount: i64,
        reason: &str,
        staff: Option<i64>,
        key: &str,
        now: i64,
    ) -> Result<i64, AppError> {
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO refunds (payment_id, kind, state, amount, reason, staff_id, request_key, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id",
        )
        .bind(payment_id)
        .bind(kind.code())
        .bind(RefundState::Requested.code())
        .bind(amount)
        .bind(reason)
        .bind(staff)
        .bind(key)
        .bind(now)
        .fetch_one(&mut **tx)
        .await?;
        sqlx::query("UPDATE payments SET refunded = refunded + $1 WHERE id = $2").bind(amount).bind(payment_id).execute(&mut **tx).await?;
        Ok(id)
    }

    /// Asks the provider for a requested refund (again: the key makes a repeat the same
    /// refund) and settles it. A direct debit was collected by us, not a provider: its refund
    /// is paid back by bank transfer and booked at once.
    async fn ask_provider(&self, refund_id: i64, now: i64) -> Result<RefundOutcome, AppError> {
        #[derive(sqlx::FromRow)]
        struct Asked {
            #[sqlx(try_from = "String")]
            state: RefundState,
            amount: i64,
            request_key: String,
            payment_id: i64,
            provider: String,
            provider_id: Option<String>,
            currency: String,
            site_name: String,
        }
        let row: Asked = sqlx::query_as(
            "SELECT r.state, r.amount, r.request_key, p.id AS payment_id, p.provider, p.provider_id, p.currency, s.name AS site_name FROM refunds r \
             JOIN payments p ON p.id = r.payment_id JOIN sites s ON s.id = p.site_id WHERE r.id = $1",
        )
        .bind(refund_id)
        .fetch_one(self.pool())
        .await?;
        if row.state != RefundState::Requested {
            return self.outcome(refund_id).await;
        }
        let (provider, payment_id) = (row.provider.as_str(), row.payment_id);
        if provider == DIRECT_DEBIT {
            return self.settle(refund_id, None, now).await;
        }
        if provider != self.provider.name() {
            tracing::warn!(refund = refund_id, provider, "a refund of a provider that is no longer configured waits");
            return self.outcome(refund_id).await;
        }
        let request = RefundRequest {
            provider_id: row.provider_id.unwrap_or_default(),
            amount: row.amount,
            currency: row.currency,
            description: format!("{} – #{payment_id}", row.site_name),
            idempotency_key: row.request_key,
        };
        match self.provider.refund(&request).await {
            Ok(provider_refund_id) => self.settle(refund_id, Some(&provider_refund_id), now).await,
            Err(ProviderError::Refused(reason)) => {
                tracing::warn!(refund = refund_id, reason, "the provider refused the refund");
                let mut tx = self.db.begin().await?;
                let freed = sqlx::query("UPDATE refunds SET state = $1, updated_at = $2 WHERE id = $3 AND state = $4 RETURNING payment_id, amount")
                    .bind(RefundState::Refused.code())
                    .bind(now)
                    .bind(refund_id)
                    .bind(RefundState::Requested.code())
                    .fetch_optional(&mut *tx)
                    .await?;
                if let Some(freed) = freed {
                    sqlx::query("UPDATE payments SET refunded = refunded - $1 WHERE id = $2")
                        .bind(freed.try_get::<i64, _>("amount")?)
                        .bind(freed.try_get::<i64, _>("payment_id")?)
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
                Err(ErrorCode::NotRefundable.into())
            }
            Err(ProviderError::Unavailable(reason)) => {
                tracing::warn!(refund = refund_id, reason, "the provider did not answer the refund; asked again later");
                sqlx::query("UPDATE refunds SET updated_at = $1 WHERE id = $2").bind(now).bind(refund_id).execute(self.pool()).await?;
                self.outcome(refund_id).await
            }
        }
    }

    /// Settles a requested refund once: the credits in proportion go back through the ledger
    /// (as far as they are left), the payment is refunded or charged back when nothing is left
    /// of it, a chargeback blocks card and direct-debit payments; then the credit note goes out.
    async fn settle(&self, refund_id: i64, provider_refund_id: Option<&str>, now: i64) -> Result<RefundOutcome, AppError> {
        let mut tx = self.db.begin().await?;
        let settled = self.settle_in(&mut tx, refund_id, provider_refund_id, now).await?;
        tx.commit().await?;
        if let Some((user_id, kind)) = settled {
            self.after_settled(refund_id, user_id, kind, now).await;
        }
        self.outcome(refund_id).await
    }

    /// The settling itself, in the caller's transaction; answers the member and the kind when
    /// this call settled it (None: it was settled or refused before).
    async fn settle_in(
        &self,
        tx: &mut sqlx::Transaction<'static, sqlx::Any>,
        refund_id: i64,
        provider_refund_id: Option<&str>,
        now: i64,
    ) -> Result<Option<(i64, RefundKind)>, AppError> {
        let settled = sqlx::query(
            "UPDATE refunds SET state = $1, provider_refund_id = $2, updated_at = $3 WHERE id = $4 AND state = $5 RETURNING payment_id, amount, kind",
        )
        .bind(RefundState::Done.code())
        .bind(provider_refund_id)
        .bind(now)
        .bind(refund_id)
        .bind(RefundState::Requested.code())
        .fetch_optional(&mut **tx)
        .await?;
        let Some(settled) = settled else { return Ok(None) };
        let (payment_id, amount): (i64, i64) = (settled.try_get("payment_id")?, settled.try_get("amount")?);
        let kind = RefundKind::parse(&settled.try_get::<String, _>("kind")?).ok_or_else(|| AppError::Internal("refund kind".into()))?;
        let payment = sqlx::query(
            "UPDATE payments SET updated_at = updated_at WHERE id = $1 RETURNING user_id, site_id, credits, amount, refunded, status, currency, paid_at",
        )
        .bind(payment_id)
        .fetch_one(&mut **tx)
        .await?;
        let (user_id, site_id, bundle, paid, refunded): (i64, i64, i64, i64, i64) =
            (payment.try_get("user_id")?, payment.try_get("site_id")?, payment.try_get("credits")?, payment.try_get("amount")?, payment.try_get("refunded")?);
        let status = super::status_of(&payment, "status")?;
        let (before,): (i64,) =
            sqlx::query_as("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM refunds WHERE payment_id = $1 AND state = $2 AND id <> $3")
                .bind(payment_id)
                .bind(RefundState::Done.code())
                .bind(refund_id)
                .fetch_one(&mut **tx)
                .await?;
        let (balance,): (i64,) = sqlx::query_as("SELECT credits FROM users WHERE id = $1").bind(user_id).fetch_one(&mut **tx).await?;
        let currency: String = payment.try_get("currency")?;
        crate::figures::refunded(tx, user_id, amount, &currency, now).await?;
        let paid_at: Option<i64> = payment.try_get("paid_at")?;
        crate::splits::refunded(tx, user_id, amount, &currency, paid_at.unwrap_or(now)).await?;
        let back = credits_back(credits_for(bundle, paid, before, amount), balance);
        if back.taken > 0 {
            credits::book(tx, Entry { user_id, delta: -back.taken, reason: Reason::Refund, reference: &format!("refund:{refund_id}") }, now).await?;
        }
        sqlx::query("UPDATE refunds SET credits_taken = $1, credits_spent = $2 WHERE id = $3")
            .bind(back.taken)
            .bind(back.spent)
            .bind(refund_id)
            .execute(&mut **tx)
            .await?;
        let next = match kind {
            RefundKind::Chargeback => PaymentStatus::ChargedBack,
            _ if refunded >= paid => PaymentStatus::Refunded,
            _ => status,
        };
        if next != status && status.may_become(next) {
            sqlx::query("UPDATE payments SET status = $1, updated_at = $2 WHERE id = $3")
                .bind(next.code())
                .bind(now)
                .bind(payment_id)
                .execute(&mut **tx)
                .await?;
            // Nothing is left of the payment: the network that brought the buyer hears of it.
            if matches!(next, PaymentStatus::Refunded | PaymentStatus::ChargedBack) {
                let (currency,): (String,) = sqlx::query_as("SELECT currency FROM payments WHERE id = $1").bind(payment_id).fetch_one(&mut **tx).await?;
                let facts = crate::postbacks::PaymentFacts { id: payment_id, amount: paid, currency };
                crate::postbacks::queue(tx, site_id, user_id, domain::postbacks::PostbackEvent::Reversal, Some(&facts), now).await?;
            }
        }
        if kind == RefundKind::Chargeback {
            sqlx::query("UPDATE users SET payments_blocked = TRUE WHERE id = $1").bind(user_id).execute(&mut **tx).await?;
            sqlx::query("INSERT INTO staff_actions (site_id, staff_id, staff_name, action, target, detail, created_at) VALUES ($1, NULL, $2, $3, $4, $5, $6)")
                .bind(site_id)
                .bind(self.provider.name())
                .bind("payment_chargeback")
                .bind(format!("#{payment_id}"))
                .bind(super::mollie::amount_value(amount))
                .bind(now)
                .execute(&mut **tx)
                .await?;
        }
        Ok(Some((user_id, kind)))
    }

    /// After a settled refund's commit: the metric, the member's open chats, the credit note.
    async fn after_settled(&self, refund_id: i64, user_id: i64, kind: RefundKind, now: i64) {
        crate::metrics::payment(kind.code());
        if let Some(bus) = &self.bus {
            if let Err(error) = bus.publish(&[crate::chat::bus::Signal::Balance { user: user_id }]).await {
                tracing::warn!(refund = refund_id, %error, "the open chats did not hear of the new balance");
            }
        }
        if kind != RefundKind::Chargeback {
            if let Err(error) = self.send_credit_note(refund_id, now).await {
                tracing::warn!(refund = refund_id, %error, "the credit note did not go out; the recovery job tries again");
            }
        }
    }

    async fn outcome(&self, refund_id: i64) -> Result<RefundOutcome, AppError> {
        Ok(sqlx::query_as(
            "SELECT r.id AS refund_id, r.amount, r.state, r.credits_taken, r.credits_spent, p.status FROM refunds r \
             JOIN payments p ON p.id = r.payment_id WHERE r.id = $1",
        )
        .bind(refund_id)
        .fetch_one(self.pool())
        .await?)
    }

    /// Mails a settled refund's credit note once (claimed first, given back when sending fails).
    async fn send_credit_note(&self, refund_id: i64, now: i64) -> Result<bool, AppError> {
        let claimed = sqlx::query("UPDATE refunds SET note_sent_at = $1 WHERE id = $2 AND state = $3 AND kind <> $4 AND note_sent_at IS NULL")
            .bind(now)
            .bind(refund_id)
            .bind(RefundState::Done.code())
            .bind(RefundKind::Chargeback.code())
            .execute(self.pool())
            .await?
            .rows_affected();
        if claimed == 0 {
            return Ok(false);
        }
        let sent = async {
            let row = sqlx::query("SELECT payment_id, amount, credits_taken, credits_spent, updated_at FROM refunds WHERE id = $1")
                .bind(refund_id)
                .fetch_one(self.pool())
                .await?;
            let payment_id: i64 = row.try_get("payment_id")?;
            let p = sqlx::query(&format!("SELECT {}, user_id, site_id FROM payments WHERE id = $1", super::PAYMENT_COLUMNS))
                .bind(payment_id)
                .fetch_one(self.pool())
                .await?;
            let payment = super::view(&p)?;
            let site = self.site_by_id(p.try_get("site_id")?).await?;
            let base_url = site.base_url(&self.public_url);
            let credits = CreditsBack { taken: row.try_get("credits_taken")?, spent: row.try_get("credits_spent")? };
            self.accounts
                .mail_credit_note(
                    &site,
                    &base_url,
                    p.try_get("user_id")?,
                    &payment,
                    refund_id,
                    row.try_get("amount")?,
                    credits,
                    row.try_get("updated_at")?,
                    &self.links.transaction(payment_id),
                )
                .await
        }
        .await;
        if sent.is_err() {
            sqlx::query("UPDATE refunds SET note_sent_at = NULL WHERE id = $1").bind(refund_id).execute(self.pool()).await?;
        }
        sent.map(|_| true)
    }

    /// What the provider says went back of a paid payment, beyond what we know: a refund made
    /// in its dashboard, or a chargeback. Recorded once per running total and settled.
    pub(super) async fn heard_after_sale(&self, payment_id: i64, reported: &ProviderPayment, now: i64) -> Result<PaymentStatus, AppError> {
        for (kind, total) in [(RefundKind::ProviderRefund, reported.refunded), (RefundKind::Chargeback, reported.charged_back)] {
            if total <= 0 {
                continue;
            }
            let mut tx = self.db.begin().await?;
            let row = sqlx::query("UPDATE payments SET updated_at = updated_at WHERE id = $1 RETURNING amount, refunded, status")
                .bind(payment_id)
                .fetch_one(&mut *tx)
                .await?;
            let (paid, refunded): (i64, i64) = (row.try_get("amount")?, row.try_get("refunded")?);
            let status = super::status_of(&row, "status")?;
            // What we know of this kind: refunds ours and the dashboard's (a chargeback is its
            // own count), requested or done.
            let kinds: &[RefundKind] =
                if kind == RefundKind::Chargeback { &[RefundKind::Chargeback] } else { &[RefundKind::Refund, RefundKind::ProviderRefund] };
            let (known,): (i64,) =
                sqlx::query_as("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM refunds WHERE payment_id = $1 AND state <> $2 AND kind IN ($3, $4)")
                    .bind(payment_id)
                    .bind(RefundState::Refused.code())
                    .bind(kinds[0].code())
                    .bind(kinds[kinds.len() - 1].code())
                    .fetch_one(&mut *tx)
                    .await?;
            // Never more than is left of the payment.
            let new = (total - known).min(paid - refunded);
            let next = if kind == RefundKind::Chargeback { PaymentStatus::ChargedBack } else { PaymentStatus::Refunded };
            if new <= 0 || !(status == PaymentStatus::Paid || status.may_become(next)) {
                continue;
            }
            let key = format!("{}:{payment_id}:{total}", kind.code());
            let exists: Option<(i64,)> = sqlx::query_as("SELECT id FROM refunds WHERE request_key = $1").bind(&key).fetch_optional(&mut *tx).await?;
            if exists.is_some() {
                continue;
            }
            // Nothing to ask anyone: written down and settled in one transaction, so a second
            // report waiting on the row lock finds it settled.
            let id = self.reserve(&mut tx, payment_id, kind, new, "", None, &key, now).await?;
            let settled = self.settle_in(&mut tx, id, None, now).await?;
            tx.commit().await?;
            if let Some((user_id, kind)) = settled {
                self.after_settled(id, user_id, kind, now).await;
            }
        }
        let (status,): (String,) = sqlx::query_as("SELECT status FROM payments WHERE id = $1").bind(payment_id).fetch_one(self.pool()).await?;
        PaymentStatus::parse(&status).ok_or_else(|| AppError::Internal("payment status".into()))
    }

    /// The recovery job's part: refunds the provider did not answer are asked again (same
    /// key), credit notes that did not go out go now.
    pub(super) async fn recover_refunds(&self, now: i64) -> Result<usize, AppError> {
        let waiting: Vec<(i64,)> = sqlx::query_as("SELECT id FROM refunds WHERE state = $1 AND updated_at <= $2 ORDER BY id LIMIT 100")
            .bind(RefundState::Requested.code())
            .bind(now - RETRY_AFTER_SECS)
            .fetch_all(self.pool())
            .await?;
        let mut settled = 0;
        for (id,) in waiting {
            match self.ask_provider(id, now).await {
                Ok(o) if o.state == RefundState::Done => settled += 1,
                Ok(_) => {}
                Err(error) => tracing::warn!(refund = id, %error, "a waiting refund was not settled"),
            }
        }
        let unsent: Vec<(i64,)> = sqlx::query_as("SELECT id FROM refunds WHERE state = $1 AND kind <> $2 AND note_sent_at IS NULL ORDER BY id LIMIT 100")
            .bind(RefundState::Done.code())
            .bind(RefundKind::Chargeback.code())
            .fetch_all(self.pool())
            .await?;
        for (id,) in unsent {
            let _ = self.send_credit_note(id, now).await;
        }
        Ok(settled)
    }

    /// A payment's refunds and chargebacks, oldest first.
    pub async fn refunds_of(&self, payment_id: i64) -> Result<Vec<RefundEntry>, AppError> {
        Ok(sqlx::query_as(
            "SELECT id, kind, state, amount, credits_taken, credits_spent, reason, updated_at, note_sent_at FROM refunds WHERE payment_id = $1 ORDER BY id",
        )
        .bind(payment_id)
        .fetch_all(self.pool())
        .await?)
    }

    /// Whether a chargeback stopped this member's card and direct-debit payments.
    pub async fn payments_blocked(&self, member_id: i64) -> Result<bool, AppError> {
        let row = sqlx::query("SELECT payments_blocked FROM users WHERE id = $1").bind(member_id).fetch_one(self.pool()).await?;
        Ok(flag(&row, "payments_blocked")?)
    }

    /// Refuses card and direct-debit payments of a member a chargeback blocked.
    pub(super) async fn refuse_if_blocked(&self, member_id: i64, method: PaymentMethod) -> Result<(), AppError> {
        let risky = matches!(method.group(), PaymentGroup::Card) || method == PaymentMethod::DirectDebit;
        if risky && self.payments_blocked(member_id).await? {
            return Err(ErrorCode::PaymentsBlocked.into());
        }
        Ok(())
    }

    /// Staff lift a chargeback's block on a member of their site (logged).
    pub async fn lift_payment_block(&self, staff: &Member, site_id: i64, member_id: i64, now: i64) -> Result<bool, AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Refunds)?;
        let mut tx = self.db.begin().await?;
        let lifted = sqlx::query("UPDATE users SET payments_blocked = FALSE WHERE id = $1 AND site_id = $2 AND payments_blocked = TRUE")
            .bind(member_id)
            .bind(site_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if lifted > 0 {
            crate::staff::record(&mut tx, site_id, staff, "payment_block_lifted", &format!("#{member_id}"), "", now).await?;
        }
        tx.commit().await?;
        Ok(lifted > 0)
    }

    /// The test provider's dashboard and the buyer's bank, for trying refunds, chargebacks and
    /// collections after `make run` (`vonk payments provider-refund|chargeback|collect`): the
    /// test provider records it, then the webhook hears it as it would from Mollie.
    pub async fn test_outside_change(&self, payment_id: i64, change: TestChange, now: i64) -> Result<PaymentStatus, AppError> {
        let test = self.test_provider().ok_or(ErrorCode::MethodUnavailable)?;
        let (provider_id,): (Option<String>,) =
            sqlx::query_as("SELECT provider_id FROM payments WHERE id = $1").bind(payment_id).fetch_optional(self.pool()).await?.ok_or(ErrorCode::NotFound)?;
        let provider_id = provider_id.ok_or(ErrorCode::NotFound)?;
        match change {
            TestChange::Refund(amount) => test.outside_change(&provider_id, false, amount).await?,
            TestChange::Chargeback => test.outside_change(&provider_id, true, 0).await?,
            TestChange::Collected(collected) => test.collect(&provider_id, collected).await?,
        }
        self.webhook(super::test_provider::TestProvider::NAME, &provider_id, now).await?.ok_or_else(|| ErrorCode::NotFound.into())
    }
}
