//! Counts per e-mail address, kept whether or not the address has an account, so that login and
//! password reset answer an address without an account exactly as they answer one with an
//! account: the same lockout after wrong passwords, the same daily cap on reset mails.

use domain::account::LockoutPolicy;

use super::{tokens, Accounts};
use crate::error::AppError;

/// What is counted for an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Wrong passwords for an address without an account (an account counts on its own row).
    Login,
    /// Password-reset mails asked for, with or without an account.
    Reset,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Login => "login",
            Kind::Reset => "reset",
        }
    }
}

fn address_hash(email: &str) -> String {
    tokens::hash(&email.trim().to_lowercase())
}

impl Accounts {
    /// A wrong password for an address without an account, counted as an account's would be
    /// (`count_failure`): the lockout's minutes once `policy.max_failures` are reached, for
    /// `policy.lock_secs`.
    pub(super) async fn count_unknown_failure(&self, site_id: i64, email: &str, policy: LockoutPolicy, now: i64) -> Result<Option<i64>, AppError> {
        let (until,): (Option<i64>,) = sqlx::query_as(
            "INSERT INTO address_attempts (site_id, address_hash, kind, uses, since, locked_until) VALUES ($1, $2, $3, 1, $4, NULL) \
             ON CONFLICT (site_id, address_hash, kind) DO UPDATE SET \
             locked_until = CASE WHEN address_attempts.uses + 1 >= $5 THEN $6 ELSE address_attempts.locked_until END, \
             uses = CASE WHEN address_attempts.uses + 1 >= $5 THEN 0 ELSE address_attempts.uses + 1 END, \
             since = $4 \
             RETURNING locked_until",
        )
        .bind(site_id)
        .bind(address_hash(email))
        .bind(Kind::Login.as_str())
        .bind(now)
        .bind(i64::from(policy.max_failures))
        .bind(now + policy.lock_secs)
        .fetch_one(self.db.pool())
        .await?;
        Ok(policy.minutes_left(until, now))
    }

    /// The lockout minutes left for an address without an account, if it is locked.
    pub(super) async fn unknown_locked(&self, site_id: i64, email: &str, policy: LockoutPolicy, now: i64) -> Result<Option<i64>, AppError> {
        let row: Option<(Option<i64>,)> = sqlx::query_as("SELECT locked_until FROM address_attempts WHERE site_id = $1 AND address_hash = $2 AND kind = $3")
            .bind(site_id)
            .bind(address_hash(email))
            .bind(Kind::Login.as_str())
            .fetch_optional(self.db.pool())
            .await?;
        Ok(policy.minutes_left(row.and_then(|(until,)| until), now))
    }

    /// Counts one more use of `kind` for the address in a window of `window_secs`; answers the
    /// count in the current window (1 for the first).
    pub(super) async fn count_address_use(&self, site_id: i64, email: &str, kind: Kind, window_secs: i64, now: i64) -> Result<i64, AppError> {
        let (count,): (i64,) = sqlx::query_as(
            "INSERT INTO address_attempts (site_id, address_hash, kind, uses, since) VALUES ($1, $2, $3, 1, $4) \
             ON CONFLICT (site_id, address_hash, kind) DO UPDATE SET \
             uses = CASE WHEN address_attempts.since <= $5 THEN 1 ELSE address_attempts.uses + 1 END, \
             since = CASE WHEN address_attempts.since <= $5 THEN $4 ELSE address_attempts.since END \
             RETURNING uses",
        )
        .bind(site_id)
        .bind(address_hash(email))
        .bind(kind.as_str())
        .bind(now)
        .bind(now - window_secs)
        .fetch_one(self.db.pool())
        .await?;
        Ok(count)
    }

    /// Removes counts that can no longer change an answer: reset counts of a past day, and
    /// login counts untouched for 90 days.
    pub(super) async fn purge_address_attempts(&self, now: i64) -> Result<u64, AppError> {
        Ok(sqlx::query("DELETE FROM address_attempts WHERE (kind = $1 AND since <= $2) OR since <= $3")
            .bind(Kind::Reset.as_str())
            .bind(now - 86_400)
            .bind(now - 90 * 86_400)
            .execute(self.db.pool())
            .await?
            .rows_affected())
    }
}
