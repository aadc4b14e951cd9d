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
