//! Fraud signals on a member (`domain::fraud`): the facts gathered from the account, its
//! sign-ins, checkouts and direct debits, read when staff open the member file.

use std::collections::HashSet;
use std::sync::OnceLock;

use domain::checkout::PaymentStatus;
use domain::fraud::{address_domains, score, signals, Facts, Signal, LOOK_BACK_DAYS};
use domain::staff::StaffArea;

use crate::accounts::Member;
use crate::db::Db;
use crate::error::AppError;
use crate::staff::require_staff;

/// Disposable-mail domains (PyPI's disposable-email-domains, MIT licence:
/// `data/disposable-domains.LICENSE`; `make disposable-domains` refreshes it).
const DISPOSABLE: &str = include_str!("../data/disposable-domains.txt");

fn disposable() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| DISPOSABLE.lines().map(str::trim).filter(|l| !l.is_empty()).collect())
}

/// Whether an address is at a disposable-mail domain (or under one).
pub fn is_disposable(email: &str) -> bool {
    address_domains(email).iter().any(|d| disposable().contains(d.as_str()))
}

/// A member's signals and score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FraudReport {
    pub signals: Vec<Signal>,
    pub score: u32,
}

/// The facts about member `user_id` of `site_id` (none: not the site's).
pub async fn facts(db: &Db, site_id: i64, user_id: i64, now: i64) -> Result<Option<Facts>, AppError> {
    let pool = db.pool();
    let since = now - LOOK_BACK_DAYS * 86_400;
    let row: Option<(String, Option<String>)> =
        sqlx::query_as("SELECT u.email, p.country FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = $1 AND u.site_id = $2")
            .bind(user_id)
            .bind(site_id)
            .fetch_optional(pool)
            .await?;
    let Some((email, profile_country)) = row else { return Ok(None) };
    let (accounts_on_same_ip,): (i64,) = sqlx::query_as(
        "SELECT COUNT(DISTINCT o.user_id) FROM security_events o JOIN users u ON u.id = o.user_id \
         WHERE u.site_id = $1 AND o.user_id <> $2 AND o.created_at >= $3 AND o.ip IN \
         (SELECT e.ip FROM security_events e WHERE e.user_id = $2 AND e.created_at >= $3 AND e.ip IS NOT NULL)",
    )
    .bind(site_id)
    .bind(user_id)
    .bind(since)
    .fetch_one(pool)
    .await?;
    let (accounts_with_same_iban,): (i64,) = sqlx::query_as(
        "SELECT COUNT(DISTINCT o.user_id) FROM direct_debits o JOIN users u ON u.id = o.user_id \
         WHERE u.site_id = $1 AND o.user_id <> $2 AND o.iban IN (SELECT d.iban FROM direct_debits d WHERE d.user_id = $2)",
    )
    .bind(site_id)
    .bind(user_id)
    .fetch_one(pool)
    .await?;
    let (checkouts_last_day,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM payments WHERE user_id = $1 AND created_at >= $2").bind(user_id).bind(now - 86_400).fetch_one(pool).await?;
    let countries: Vec<(Option<String>,)> = sqlx::query_as(
        "SELECT DISTINCT country FROM security_events WHERE user_id = $1 AND created_at >= $2 \
         UNION SELECT DISTINCT country FROM payments WHERE user_id = $1 AND created_at >= $2",
    )
    .bind(user_id)
    .bind(since)
    .fetch_all(pool)
    .await?;
    let (charged_back,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM direct_debits o JOIN payments p ON p.id = o.payment_id \
         WHERE p.site_id = $1 AND o.user_id <> $2 AND p.status IN ($4, $5) AND p.updated_at >= $3 \
         AND o.iban IN (SELECT d.iban FROM direct_debits d WHERE d.user_id = $2)",
    )
    .bind(site_id)
    .bind(user_id)
    .bind(since)
    .bind(PaymentStatus::ChargedBack.code())
    .bind(PaymentStatus::Reversed.code())
    .fetch_one(pool)
    .await?;
    Ok(Some(Facts {
        disposable_address: is_disposable(&email),
        accounts_on_same_ip,
        accounts_with_same_iban,
        checkouts_last_day,
        profile_country,
        seen_countries: countries.into_iter().filter_map(|(c,)| c).collect(),
        iban_charged_back_elsewhere: charged_back > 0,
    }))
}

/// The signals and score of a member of the site, for staff with the member file.
pub async fn report(db: &Db, who: &Member, site_id: i64, user_id: i64, now: i64) -> Result<FraudReport, AppError> {
    require_staff(who, site_id, StaffArea::Members)?;
    let facts = facts(db, site_id, user_id, now).await?.ok_or(domain::ErrorCode::NotFound)?;
    let signals = signals(&facts);
    Ok(FraudReport { score: score(&signals), signals })
}

/// Where a member's payments stand with staff (`users.payment_review`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaymentReview {
    /// Waiting for staff (else allowed by them).
    pub waiting: bool,
    /// The score when the member was held.
    pub score: i64,
    pub since: i64,
}

const WAITING: &str = "waiting";
const CLEARED: &str = "cleared";

/// Whether `member` may pay now: where the site holds payments from a fraud score
/// (`payment_review_score`), a member at or above it who staff did not allow is refused with
/// `payment_review` before anything is stored or charged, and is listed for staff
/// ([`reviews`]). Staff's allowance holds for good.
pub async fn payment_gate(db: &Db, site: &domain::site::SiteSettings, member: &Member, now: i64) -> Result<(), AppError> {
    if site.payment_review_score <= 0 {
        return Ok(());
    }
    let (state,): (Option<String>,) = sqlx::query_as("SELECT payment_review FROM users WHERE id = $1").bind(member.id).fetch_one(db.pool()).await?;
    if state.as_deref() == Some(CLEARED) {
        return Ok(());
    }
    let Some(facts) = facts(db, site.id, member.id, now).await? else { return Ok(()) };
    let score = score(&signals(&facts));
    if !domain::fraud::payment_waits(score, site.payment_review_score) {
        return Ok(());
    }
    sqlx::query(
        "UPDATE users SET payment_review = $1, payment_review_score = $2, payment_review_at = COALESCE(payment_review_at, $3) \
         WHERE id = $4 AND (payment_review IS NULL OR payment_review = $1)",
    )
    .bind(WAITING)
    .bind(i64::from(score))
    .bind(now)
    .bind(member.id)
    .execute(db.pool())
    .await?;
    tracing::info!(target: "security", member = member.id, score, "a payment waits for staff's review");
    Err(domain::ErrorCode::PaymentReview.into())
}

/// Where member `user_id`'s payments stand with staff, if they were ever held.
pub async fn review_of(db: &Db, user_id: i64) -> Result<Option<PaymentReview>, AppError> {
    let row: Option<(Option<String>, Option<i64>, Option<i64>)> =
        sqlx::query_as("SELECT payment_review, payment_review_score, payment_review_at FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(db.pool())
            .await?;
    Ok(row.and_then(|(state, score, since)| {
        let state = state?;
        Some(PaymentReview { waiting: state == WAITING, score: score.unwrap_or(0), since: since.unwrap_or(0) })
    }))
}

/// The site's members whose payments wait for review, longest first (support and admins).
pub async fn reviews(db: &Db, who: &Member, site_id: i64) -> Result<Vec<domain::fraud::PaymentWaiting>, AppError> {
    require_staff(who, site_id, StaffArea::Credits)?;
    Ok(sqlx::query_as(
        "SELECT u.id, p.name, u.email, COALESCE(u.payment_review_score, 0) AS score, COALESCE(u.payment_review_at, 0) AS since \
         FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.site_id = $1 AND u.payment_review = $2 AND u.status <> $3 \
         ORDER BY u.payment_review_at, u.id LIMIT 100",
    )
    .bind(site_id)
    .bind(WAITING)
    .bind(domain::account::UserStatus::Deleted.as_str())
    .fetch_all(db.pool())
    .await?)
}

/// Staff allow a held member's payments (support and admins), with the reason in the staff log.
/// A member not waiting changes nothing.
pub async fn allow_payments(db: &Db, who: &Member, site_id: i64, user_id: i64, reason: &str, now: i64) -> Result<bool, AppError> {
    require_staff(who, site_id, StaffArea::Credits)?;
    let reason = domain::staff::validate_staff_reason(reason)?;
    let mut tx = db.begin().await?;
    let moved = sqlx::query("UPDATE users SET payment_review = $1 WHERE id = $2 AND site_id = $3 AND payment_review = $4")
        .bind(CLEARED)
        .bind(user_id)
        .bind(site_id)
        .bind(WAITING)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if moved == 1 {
        crate::staff::record(&mut tx, site_id, who, "payments_allowed", &format!("member #{user_id}"), &reason, now).await?;
    }
    tx.commit().await?;
    Ok(moved == 1)
}
