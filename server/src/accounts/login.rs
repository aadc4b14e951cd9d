//! Login with email and password, and the lockout after too many wrong passwords (kept in the
//! database, so every node sees it).

use domain::account::{LockoutPolicy, UserStatus};
use domain::security::SecurityEventKind;
use domain::{ApiError, ErrorCode};
use sqlx::Row;

use super::security::{record, Client};
use super::{passwords, sessions, tokens, Accounts};
use crate::error::AppError;

/// What a right password leads to: a session, or (two-step login on) the second step, whose
/// short-lived token the browser keeps until the authenticator code is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginOutcome {
    Session(String),
    SecondStep(String),
}

impl LoginOutcome {
    /// The session token, when the login is complete.
    pub fn session(self) -> Option<String> {
        match self {
            LoginOutcome::Session(token) => Some(token),
            LoginOutcome::SecondStep(_) => None,
        }
    }
}

/// The second step's token lives five minutes.
pub const SECOND_STEP_TTL_SECS: i64 = 300;

/// Five wrong passwords lock an account for 15 minutes.
pub const LOCKOUT: LockoutPolicy = LockoutPolicy::DEFAULT;

fn locked(minutes: i64) -> AppError {
    ApiError::new(ErrorCode::TooManyAttempts).with("minutes", minutes).into()
}

impl Accounts {
    /// Counts a wrong password (or second-step code) in one atomic statement (parallel guesses
    /// each count) and locks the account when the count reaches the limit; both are security
    /// events. Answers the lockout refusal when the account is locked now, else `None` (the
    /// caller says what was wrong).
    pub(super) async fn count_failure(&self, user_id: i64, now: i64, client: &Client) -> Result<Option<AppError>, AppError> {
        record(self.db.pool(), user_id, SecurityEventKind::LoginFailed, client, now).await?;
        let row: Option<(Option<i64>, i64)> = sqlx::query_as(
            "UPDATE users SET \
             locked_until = CASE WHEN failed_logins + 1 >= $2 THEN $3 ELSE locked_until END, \
             failed_logins = CASE WHEN failed_logins + 1 >= $2 THEN 0 ELSE failed_logins + 1 END \
             WHERE id = $1 RETURNING locked_until, failed_logins",
        )
        .bind(user_id)
        .bind(i64::from(LOCKOUT.max_failures))
        .bind(now + LOCKOUT.lock_secs)
        .fetch_optional(self.db.pool())
        .await?;
        // The statement that locked leaves the count at 0 and the lock at now's.
        let until = row.and_then(|(until, _)| until);
        if row.is_some_and(|(until, failures)| failures == 0 && until == Some(now + LOCKOUT.lock_secs)) {
            record(self.db.pool(), user_id, SecurityEventKind::Locked, client, now).await?;
        }
        Ok(LOCKOUT.minutes_left(until, now).map(locked))
    }

    /// Ends the failure count after a right password, unless the account is locked (then false).
    pub(super) async fn clear_failures(&self, tx: &mut sqlx::Transaction<'_, sqlx::Any>, user_id: i64, now: i64) -> Result<bool, AppError> {
        let cleared = sqlx::query("UPDATE users SET failed_logins = 0, locked_until = NULL WHERE id = $1 AND (locked_until IS NULL OR locked_until <= $2)")
            .bind(user_id)
            .bind(now)
            .execute(&mut **tx)
            .await?
            .rows_affected();
        Ok(cleared == 1)
    }

    /// The lockout refusal with the minutes left now.
    pub(super) async fn lock_error(&self, user_id: i64, now: i64) -> Result<AppError, AppError> {
        let (until,): (Option<i64>,) = sqlx::query_as("SELECT locked_until FROM users WHERE id = $1").bind(user_id).fetch_one(self.db.pool()).await?;
        Ok(locked(LOCKOUT.minutes_left(until, now).unwrap_or(1)))
    }

    /// Checks the password of a logged-in member (changing the password or the email, two-step
    /// login on or off, deleting the account) under the same lockout as login: a wrong one
    /// counts, and a locked account is refused before the check. `wrong` is the refusal for a
    /// wrong password; a deleted account needs a login again.
    pub(super) async fn check_own_password(&self, user_id: i64, password: &str, wrong: ApiError, client: &Client) -> Result<(), AppError> {
        let now = self.clock.now();
        let (hash, until): (String, Option<i64>) = sqlx::query_as("SELECT password_hash, locked_until FROM users WHERE id = $1 AND status <> $2")
            .bind(user_id)
            .bind(domain::account::UserStatus::Deleted.as_str())
            .fetch_optional(self.db.pool())
            .await?
            .ok_or(ErrorCode::AuthenticationRequired)?;
        if let Some(minutes) = LOCKOUT.minutes_left(until, now) {
            return Err(locked(minutes));
        }
        if passwords::verify(password.to_string(), Some(hash)).await? {
            let mut tx = self.db.begin().await?;
            let ok = self.clear_failures(&mut tx, user_id, now).await?;
            tx.commit().await?;
            return if ok { Ok(()) } else { Err(self.lock_error(user_id, now).await?) };
        }
        Err(self.count_failure(user_id, now, client).await?.unwrap_or_else(|| wrong.into()))
    }

    /// Logs in with email and password on one site. Wrong passwords count towards the lockout.
    /// A successful login returns a brand-new session token and ends `previous_session` (no
    /// session fixation); with two-step login on, it returns the second step's token instead.
    pub async fn login(&self, site_id: i64, email: &str, password: &str, previous_session: Option<&str>, client: &Client) -> Result<LoginOutcome, AppError> {
        let now = self.clock.now();
        let email = email.trim().to_lowercase();
        let row = sqlx::query("SELECT id, password_hash, status, failed_logins, locked_until, totp_secret FROM users WHERE site_id = $1 AND email = $2")
            .bind(site_id)
            .bind(&email)
            .fetch_optional(self.db.pool())
            .await?;
        // An address without an account gets the same work and the same answers as one with an
        // account: the password is checked (against a hash nobody knows), wrong ones are counted
        // towards the same lockout, and a locked address answers after the same check.
        let Some(row) = row else {
            passwords::verify(password.to_string(), None).await?;
            if let Some(minutes) = self.unknown_locked(site_id, &email, LOCKOUT, now).await? {
                return Err(locked(minutes));
            }
            return Err(self.count_unknown_failure(site_id, &email, LOCKOUT, now).await?.map(locked).unwrap_or_else(|| ErrorCode::LoginFailed.into()));
        };
        let user_id: i64 = row.try_get("id")?;
        let locked_until: Option<i64> = row.try_get("locked_until")?;
        let ok = passwords::verify(password.to_string(), Some(row.try_get("password_hash")?)).await?;
        if let Some(minutes) = LOCKOUT.minutes_left(locked_until, now) {
            return Err(locked(minutes));
        }
        let status = UserStatus::parse(&row.try_get::<String, _>("status")?);
        if ok && status == Some(UserStatus::Deleted) {
            return Err(ErrorCode::AccountNotDeletedYet.into());
        }
        if !ok || status == Some(UserStatus::Blocked) {
            return Err(self.count_failure(user_id, now, client).await?.unwrap_or_else(|| ErrorCode::LoginFailed.into()));
        }
        if row.try_get::<Option<String>, _>("totp_secret")?.is_some() {
            // The failure count stays until the code is right too.
            let token = tokens::new_token();
            let mut tx = self.db.begin().await?;
            tokens::insert(&mut tx, user_id, tokens::Kind::TwoStep, &token, None, now, SECOND_STEP_TTL_SECS).await?;
            tx.commit().await?;
            return Ok(LoginOutcome::SecondStep(token));
        }
        self.finish_login(user_id, previous_session, client, now, SecurityEventKind::Login).await.map(LoginOutcome::Session)
    }

    /// The last part of every login: the failure count ends (unless a parallel wrong guess
    /// locked the account meanwhile), the previous session ends, a new one starts.
    pub(super) async fn finish_login(
        &self,
        user_id: i64,
        previous_session: Option<&str>,
        client: &Client,
        now: i64,
        event: SecurityEventKind,
    ) -> Result<String, AppError> {
        let mut tx = self.db.begin().await?;
        if !self.clear_failures(&mut tx, user_id, now).await? {
            return Err(self.lock_error(user_id, now).await?);
        }
        if let Some(old) = previous_session {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(tokens::hash(old)).execute(&mut *tx).await?;
        }
        let session = sessions::start(&mut tx, user_id, now, client).await?;
        record(&mut *tx, user_id, event, client, now).await?;
        tx.commit().await?;
        Ok(session)
    }
}
