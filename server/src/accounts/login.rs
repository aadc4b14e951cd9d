//! Login with email and password, and the lockout after too many wrong passwords (kept in the
//! database, so every node sees it).

use domain::account::{LockoutPolicy, UserStatus};
use domain::{ApiError, ErrorCode};
use sqlx::Row;

use super::{passwords, sessions, tokens, Accounts};
use crate::error::AppError;

/// Five wrong passwords lock an account for 15 minutes.
pub const LOCKOUT: LockoutPolicy = LockoutPolicy::DEFAULT;

fn locked(minutes: i64) -> AppError {
    ApiError::new(ErrorCode::TooManyAttempts).with("minutes", minutes).into()
}

impl Accounts {
    /// Logs in with email and password on one site. Wrong passwords count towards the lockout.
    /// A successful login returns a brand-new session token and ends `previous_session` (no
    /// session fixation).
    pub async fn login(&self, site_id: i64, email: &str, password: &str, previous_session: Option<&str>) -> Result<String, AppError> {
        let now = self.clock.now();
        let email = email.trim().to_lowercase();
        let row = sqlx::query("SELECT id, password_hash, status, failed_logins, locked_until FROM users WHERE site_id = $1 AND email = $2")
            .bind(site_id)
            .bind(&email)
            .fetch_optional(self.db.pool())
            .await?;
        let Some(row) = row else {
            // Same work as for a real account, same answer.
            passwords::verify(password.to_string(), None).await?;
            return Err(ErrorCode::LoginFailed.into());
        };
        let user_id: i64 = row.try_get("id")?;
        let locked_until: Option<i64> = row.try_get("locked_until")?;
        if let Some(minutes) = LOCKOUT.minutes_left(locked_until, now) {
            return Err(locked(minutes));
        }
        let status = UserStatus::parse(&row.try_get::<String, _>("status")?);
        let ok = passwords::verify(password.to_string(), Some(row.try_get("password_hash")?)).await?;
        if ok && status == Some(UserStatus::Deleted) {
            return Err(ErrorCode::AccountNotDeletedYet.into());
        }
        if !ok || status == Some(UserStatus::Blocked) {
            let failures: i64 = row.try_get("failed_logins")?;
            let (failures, lock) = LOCKOUT.after_failure(u32::try_from(failures).unwrap_or(u32::MAX), now);
            sqlx::query("UPDATE users SET failed_logins = $1, locked_until = $2 WHERE id = $3")
                .bind(i64::from(failures))
                .bind(lock)
                .bind(user_id)
                .execute(self.db.pool())
                .await?;
            return Err(match lock.and_then(|until| LOCKOUT.minutes_left(Some(until), now)) {
                Some(minutes) => locked(minutes),
                None => ErrorCode::LoginFailed.into(),
            });
        }
        let mut tx = self.db.pool().begin().await?;
        sqlx::query("UPDATE users SET failed_logins = 0, locked_until = NULL WHERE id = $1").bind(user_id).execute(&mut *tx).await?;
        if let Some(old) = previous_session {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(tokens::hash(old)).execute(&mut *tx).await?;
        }
        let session = sessions::start(&mut tx, user_id, now).await?;
        tx.commit().await?;
        Ok(session)
    }
}
