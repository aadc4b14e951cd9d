//! Staff and the money (`/staff/payments`): find payments by member, id, status, method and
//! date; a payment's timeline from what is stored about it (created, paid, booked, receipt,
//! taken back); the sales report per month or quarter (`domain::sales`) for the VAT return.
//! Staff of the payment's own site only.

use domain::checkout::PaymentStatus;
use domain::payment::PaymentMethod;
pub use domain::payment::StaffPayment;
use domain::sales::{Period, ReportRow, Sale};

use super::Payments;
use crate::accounts::Member;
use crate::error::AppError;
use crate::staff::require_staff;

/// The most payments one search shows.
pub const FOUND_MAX: i64 = 200;

/// What staff search for; empty parts match everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PaymentFilter {
    /// A member's email address or id (`123` or `#123`).
    pub member: Option<String>,
    pub payment: Option<i64>,
    pub status: Option<PaymentStatus>,
    pub method: Option<PaymentMethod>,
    /// Created from this moment up to (not including) `until` (unix seconds).
    pub from: Option<i64>,
    pub until: Option<i64>,
}

/// One step in a payment's life.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimelineEntry {
    pub at: i64,
    /// `created`, `paid`, `booked`, `receipt`, `failed`, `canceled`, `expired`, `reversed`,
    /// `credits_back`, `refund`, `provider_refund`, `chargeback`, `refund_requested`,
    /// `refund_refused`, `credit_note` (labels `staff.payments.event.{kind}` in `locales/`).
    pub kind: &'static str,
    /// Credits booked or taken back (0 for the other steps).
    pub credits: i64,
    /// Money that went back (refunds and chargebacks), minor units.
    pub amount: i64,
    /// Credits a refund could not take back because the member had used them.
    pub spent: i64,
    /// The refund's reason as staff gave it.
    pub note: String,
}

impl TimelineEntry {
    fn step(at: i64, kind: &'static str, credits: i64) -> TimelineEntry {
        TimelineEntry { at, kind, credits, amount: 0, spent: 0, note: String::new() }
    }
}

const STAFF_PAYMENT_COLUMNS: &str =
    "p.id, p.user_id, pr.name, u.email, p.credits, p.amount, p.currency, p.vat_rate, p.country, p.method, p.status, p.created_at, p.paid_at, p.refunded";

/// A row of [`STAFF_PAYMENT_COLUMNS`] (`#[derive(sqlx::FromRow)]` on the domain's type).
fn staff_payment(row: &sqlx::any::AnyRow) -> Result<StaffPayment, AppError> {
    Ok(<StaffPayment as sqlx::FromRow<_>>::from_row(row)?)
}

/// A payment with what its timeline needs beside [`STAFF_PAYMENT_COLUMNS`].
#[derive(sqlx::FromRow)]
struct TimelineRow {
    #[sqlx(flatten)]
    payment: StaffPayment,
    updated_at: i64,
    receipt_sent_at: Option<i64>,
}

/// A booking of a payment's credits, or of their taking back.
#[derive(sqlx::FromRow)]
struct LedgerRow {
    delta: i64,
    reference: String,
    created_at: i64,
}

/// A payment as the sales report counts it.
#[derive(sqlx::FromRow)]
struct SaleRow {
    id: i64,
    country: String,
    vat_rate: i64,
    currency: String,
    amount: i64,
    paid_at: Option<i64>,
    status: String,
    updated_at: i64,
}

impl Payments {
    /// The site's payments that match, newest first (at most [`FOUND_MAX`]).
    pub async fn staff_find(&self, staff: &Member, site_id: i64, filter: &PaymentFilter) -> Result<Vec<StaffPayment>, AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Payments)?;
        // Every condition is a bound value; an absent one is switched off by its own flag.
        let member = filter.member.as_deref().map(str::trim).filter(|m| !m.is_empty());
        let member_id = member.and_then(|m| m.trim_start_matches('#').parse::<i64>().ok());
        let email = member.filter(|_| member_id.is_none()).map(str::to_lowercase);
        let rows = sqlx::query(&format!(
            "SELECT {STAFF_PAYMENT_COLUMNS} FROM payments p JOIN users u ON u.id = p.user_id JOIN profiles pr ON pr.user_id = u.id \
             WHERE p.site_id = $1 AND ($2 = 0 OR p.user_id = $3) AND ($4 = 0 OR u.email = $5) AND ($6 = 0 OR p.id = $7) \
             AND ($8 = 0 OR p.status = $9) AND ($10 = 0 OR p.method = $11) AND p.created_at >= $12 AND p.created_at < $13 \
             ORDER BY p.id DESC LIMIT {FOUND_MAX}"
        ))
        .bind(site_id)
        .bind(i64::from(member_id.is_some()))
        .bind(member_id.unwrap_or(0))
        .bind(i64::from(email.is_some()))
        .bind(email.unwrap_or_default())
        .bind(i64::from(filter.payment.is_some()))
        .bind(filter.payment.unwrap_or(0))
        .bind(i64::from(filter.status.is_some()))
        .bind(filter.status.map(PaymentStatus::code).unwrap_or(""))
        .bind(i64::from(filter.method.is_some()))
        .bind(filter.method.map(PaymentMethod::code).unwrap_or(""))
        .bind(filter.from.unwrap_or(i64::MIN))
        .bind(filter.until.unwrap_or(i64::MAX))
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(staff_payment).collect()
    }

    /// One payment of the site with its timeline, oldest step first; None when it is not the site's.
    pub async fn staff_payment(&self, staff: &Member, site_id: i64, payment_id: i64) -> Result<Option<(StaffPayment, Vec<TimelineEntry>)>, AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Payments)?;
        let row = sqlx::query_as::<_, TimelineRow>(&format!(
            "SELECT {STAFF_PAYMENT_COLUMNS}, p.updated_at, p.receipt_sent_at FROM payments p JOIN users u ON u.id = p.user_id JOIN profiles pr ON pr.user_id = u.id \
             WHERE p.site_id = $1 AND p.id = $2"
        ))
        .bind(site_id)
        .bind(payment_id)
        .fetch_optional(self.pool())
        .await?;
        let Some(TimelineRow { payment, updated_at, receipt_sent_at }) = row else { return Ok(None) };
        let mut timeline = vec![TimelineEntry::step(payment.created_at, "created", 0)];
        if let Some(at) = payment.paid_at {
            timeline.push(TimelineEntry::step(at, "paid", 0));
        }
        let ledger = sqlx::query_as::<_, LedgerRow>("SELECT delta, reference, created_at FROM credit_ledger WHERE reference IN ($1, $2) ORDER BY id")
            .bind(format!("payment:{payment_id}"))
            .bind(format!("reversal:{payment_id}"))
            .fetch_all(self.pool())
            .await?;
        for entry in &ledger {
            let kind = if entry.reference.starts_with("payment:") { "booked" } else { "credits_back" };
            timeline.push(TimelineEntry::step(entry.created_at, kind, entry.delta));
        }
        if let Some(at) = receipt_sent_at {
            timeline.push(TimelineEntry::step(at, "receipt", 0));
        }
        for r in self.refunds_of(payment_id).await? {
            use domain::refund::{RefundKind, RefundState};
            let kind = match (r.state, r.kind) {
                (RefundState::Requested, _) => "refund_requested",
                (RefundState::Refused, _) => "refund_refused",
                (RefundState::Done, RefundKind::Refund) => "refund",
                (RefundState::Done, RefundKind::ProviderRefund) => "provider_refund",
                (RefundState::Done, RefundKind::Chargeback) => "chargeback",
            };
            timeline.push(TimelineEntry { at: r.at, kind, credits: r.credits.taken, amount: r.amount, spent: r.credits.spent, note: r.reason });
            if let Some(at) = r.note_sent_at {
                timeline.push(TimelineEntry::step(at, "credit_note", 0));
            }
        }
        let status = PaymentStatus::parse(&payment.status);
        let ended = match status {
            Some(PaymentStatus::Failed) => Some("failed"),
            Some(PaymentStatus::Canceled) => Some("canceled"),
            Some(PaymentStatus::Expired) => Some("expired"),
            Some(PaymentStatus::Reversed) => Some("reversed"),
            _ => None,
        };
        if let Some(kind) = ended {
            timeline.push(TimelineEntry::step(updated_at, kind, 0));
        }
        // Stable: steps at the same second keep the order above.
        timeline.sort_by_key(|e| e.at);
        Ok(Some((payment, timeline)))
    }

    /// The sales report of a period: payments paid in it, minus what went back in it (reversed
    /// direct debits, refunds in full or in part, chargebacks).
    pub async fn sales_report(&self, staff: &Member, site_id: i64, period: Period) -> Result<Vec<ReportRow>, AppError> {
        use domain::refund::RefundState;
        require_staff(staff, site_id, crate::staff::StaffArea::Payments)?;
        let (start, end) = period.range();
        let rows = sqlx::query_as::<_, SaleRow>(
            "SELECT id, country, vat_rate, currency, amount, paid_at, status, updated_at FROM payments \
             WHERE site_id = $1 AND paid_at IS NOT NULL AND ((paid_at >= $2 AND paid_at < $3) OR (status = $4 AND updated_at >= $2 AND updated_at < $3) \
             OR id IN (SELECT payment_id FROM refunds WHERE state = $5 AND updated_at >= $2 AND updated_at < $3))",
        )
        .bind(site_id)
        .bind(start)
        .bind(end)
        .bind(PaymentStatus::Reversed.code())
        .bind(RefundState::Done.code())
        .fetch_all(self.pool())
        .await?;
        let refunds: Vec<(i64, i64, i64)> = sqlx::query_as(
            "SELECT r.payment_id, r.updated_at, r.amount FROM refunds r JOIN payments p ON p.id = r.payment_id WHERE p.site_id = $1 AND r.state = $2 AND r.updated_at >= $3 AND r.updated_at < $4",
        )
        .bind(site_id)
        .bind(RefundState::Done.code())
        .bind(start)
        .bind(end)
        .fetch_all(self.pool())
        .await?;
        let mut sales = Vec::with_capacity(rows.len());
        for row in rows {
            let mut returns: Vec<(i64, i64)> = refunds.iter().filter(|(p, _, _)| *p == row.id).map(|(_, at, back)| (*at, *back)).collect();
            if row.status == PaymentStatus::Reversed.code() {
                returns.push((row.updated_at, row.amount));
            }
            sales.push(Sale {
                country: row.country,
                vat_rate_bp: row.vat_rate,
                currency: row.currency,
                amount: row.amount,
                paid_at: row.paid_at.unwrap_or_default(),
                returns,
            });
        }
        Ok(domain::sales::report(period, &sales))
    }
}
