//! Credits: an append-only ledger and the balance it explains (DESIGN: money is a ledger).
//!
//! Every change of a member's credits is one [`book`] call inside the transaction of the action
//! that causes it (signup, a message, a payment). A booking names its cause with a reference
//! (`payment:tr_123`); booking a reference twice is a quiet [`Booking::AlreadyBooked`], so a
//! repeated webhook or a retried request never counts twice. No booking takes a balance below
//! zero, and the database refuses that too. [`reconcile`] checks that the ledger explains every
//! balance.

use sqlx::{Any, Row, Transaction};

use crate::db::Db;
use crate::error::AppError;
use domain::ErrorCode;

/// Why credits changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The site's welcome credits.
    Signup,
    /// A bought bundle.
    Purchase,
    /// A sent message, photo or gift.
    Spend,
    /// Money back after a refund or a reversed payment.
    Refund,
    /// A correction by staff.
    Adjustment,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Signup => "signup",
            Reason::Purchase => "purchase",
            Reason::Spend => "spend",
            Reason::Refund => "refund",
            Reason::Adjustment => "adjustment",
        }
    }
}

/// One booking: who, how much (negative spends), why, and the cause's unique reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry<'a> {
    pub user_id: i64,
    pub delta: i64,
    pub reason: Reason,
    /// Unique per cause, e.g. `signup:42`, `message:9001`, `payment:tr_WDqYK6vllg`.
    pub reference: &'a str,
}

/// What a booking did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Booking {
    /// Written now; the new balance.
    Booked { balance: i64 },
    /// This reference was booked before: nothing changed; the balance as it is.
    AlreadyBooked { balance: i64 },
}

impl Booking {
    pub fn balance(self) -> i64 {
        match self {
            Booking::Booked { balance } | Booking::AlreadyBooked { balance } => balance,
        }
    }
}

/// Books an entry inside the caller's transaction. Refuses with `insufficient_credits` when the
/// balance would go below zero (the caller's transaction then changes nothing).
pub async fn book(tx: &mut Transaction<'_, Any>, entry: Entry<'_>, now: i64) -> Result<Booking, AppError> {
    if entry.reference.trim().is_empty() {
        return Err(AppError::Internal("a ledger booking needs a reference".into()));
    }
    // Lock the member's row first: bookings for one member happen one after the other.
    let (balance,): (i64,) = sqlx::query_as("UPDATE users SET credits = credits WHERE id = $1 RETURNING credits")
        .bind(entry.user_id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| AppError::Internal(format!("booking for unknown member {}", entry.user_id)))?;
    let after = balance + entry.delta;
    if after < 0 {
        return match already_booked(tx, &entry).await? {
            true => Ok(Booking::AlreadyBooked { balance }),
            false => Err(ErrorCode::InsufficientCredits.into()),
        };
    }
    let inserted: Option<(i64,)> = sqlx::query_as(
        "INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference, created_at) VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (reference) DO NOTHING RETURNING id",
    )
    .bind(entry.user_id)
    .bind(entry.delta)
    .bind(after)
    .bind(entry.reason.as_str())
    .bind(entry.reference)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    if inserted.is_none() {
        already_booked(tx, &entry).await?;
        return Ok(Booking::AlreadyBooked { balance });
    }
    sqlx::query("UPDATE users SET credits = $1 WHERE id = $2").bind(after).bind(entry.user_id).execute(&mut **tx).await?;
    Ok(Booking::Booked { balance: after })
}

/// Whether the reference is in the ledger; a reference booked for another member, amount or
/// reason is a bug in the caller, not a repeat.
async fn already_booked(tx: &mut Transaction<'_, Any>, entry: &Entry<'_>) -> Result<bool, AppError> {
    let row = sqlx::query("SELECT user_id, delta, reason FROM credit_ledger WHERE reference = $1").bind(entry.reference).fetch_optional(&mut **tx).await?;
    let Some(row) = row else { return Ok(false) };
    let same = row.try_get::<i64, _>("user_id")? == entry.user_id
        && row.try_get::<i64, _>("delta")? == entry.delta
        && row.try_get::<String, _>("reason")? == entry.reason.as_str();
    if same {
        Ok(true)
    } else {
        Err(AppError::Internal(format!("ledger reference {} was booked with other values", entry.reference)))
    }
}

/// A member whose balance the ledger does not explain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    pub user_id: i64,
    pub credits: i64,
    pub ledger_sum: i64,
}

/// Every member whose `credits` differ from the sum of their ledger rows (none, when all is well).
pub async fn reconcile(db: &Db) -> Result<Vec<Mismatch>, AppError> {
    let rows = sqlx::query(
        "SELECT u.id, u.credits, CAST(COALESCE((SELECT SUM(l.delta) FROM credit_ledger l WHERE l.user_id = u.id), 0) AS BIGINT) AS ledger_sum \
         FROM users u",
    )
    .fetch_all(db.pool())
    .await?;
    let mut out = Vec::new();
    for row in rows {
        let (credits, ledger_sum): (i64, i64) = (row.try_get("credits")?, row.try_get("ledger_sum")?);
        if credits != ledger_sum {
            out.push(Mismatch { user_id: row.try_get("id")?, credits, ledger_sum });
        }
    }
    Ok(out)
}

/// A member's balance and the sum of their ledger, for tests and audits.
pub async fn balance_and_ledger(db: &Db, user_id: i64) -> Result<(i64, i64), AppError> {
    let (credits,): (i64,) = sqlx::query_as("SELECT credits FROM users WHERE id = $1").bind(user_id).fetch_one(db.pool()).await?;
    let (sum,): (i64,) =
        sqlx::query_as("SELECT CAST(COALESCE(SUM(delta), 0) AS BIGINT) FROM credit_ledger WHERE user_id = $1").bind(user_id).fetch_one(db.pool()).await?;
    Ok((credits, sum))
}
