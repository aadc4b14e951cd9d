//! Sessions: the browser keeps a random token in the `auth.session` cookie; the database keeps
//! only its hash, its member and its expiry.

use domain::constants::AUTH_COOKIE_DAYS;
use sqlx::{Any, Transaction};

use super::member::member_select;
use super::{tokens, Accounts, Member};
use crate::error::AppError;

pub const SESSION_TTL_SECS: i64 = AUTH_COOKIE_DAYS * 24 * 3600;

/// Starts a session inside the caller's transaction; returns the token for the cookie.
pub(super) async fn start(tx: &mut Transaction<'_, Any>, user_id: i64, now: i64) -> Result<String, sqlx::Error> {
    let token = tokens::new_token();
    sqlx::query("INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
        .bind(tokens::hash(&token))
        .bind(user_id)
        .bind(now)
        .bind(now + SESSION_TTL_SECS)
        .execute(&mut **tx)
        .await?;
    Ok(token)
}

/// Ends every session of a member inside the caller's transaction.
pub(super) async fn end_all(tx: &mut Transaction<'_, Any>, user_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(&mut **tx).await?;
    Ok(())
}

impl Accounts {
    /// Starts a session for a member without a password: for the operator's own tools (the
    /// chat load test logs its members in this way). Returns the cookie's token.
    pub async fn open_session(&self, user_id: i64) -> Result<String, AppError> {
        let mut tx = self.db().pool().begin().await?;
        let token = start(&mut tx, user_id, self.clock().now()).await?;
        tx.commit().await?;
        Ok(token)
    }

    /// The member behind a session cookie, if the session is valid.
    pub async fn member_for_session(&self, token: &str) -> Result<Option<Member>, AppError> {
        if !tokens::is_well_formed(token) {
            return Ok(None);
        }
        let row = sqlx::query(&format!("{} JOIN sessions s ON s.user_id = u.id WHERE s.token_hash = $1 AND s.expires_at > $2 AND u.status <> 'deleted'", member_select()))
            .bind(tokens::hash(token))
            .bind(self.clock.now())
            .fetch_optional(self.db.pool())
            .await?;
        self.complete_member(row).await
    }

    /// Ends one session on the server.
    /// Ends every session of a member (a blocked member, everywhere at once).
    pub async fn end_sessions(&self, user_id: i64) -> Result<(), AppError> {
        sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(self.db.pool()).await?;
        Ok(())
    }

    /// Blocks or unblocks a member (for staff tools); blocking ends
    /// their sessions in the same transaction.
    pub async fn set_blocked(&self, user_id: i64, blocked: bool) -> Result<(), AppError> {
        let mut tx = self.db.pool().begin().await?;
        if blocked {
            sqlx::query("UPDATE users SET status = 'blocked' WHERE id = $1 AND status <> 'deleted'").bind(user_id).execute(&mut *tx).await?;
            end_all(&mut tx, user_id).await?;
        } else {
            sqlx::query("UPDATE users SET status = 'active' WHERE id = $1 AND status = 'blocked'").bind(user_id).execute(&mut *tx).await?;
        }
        crate::members::search::refresh_searchable(&mut *tx, user_id).await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn logout(&self, token: &str) -> Result<(), AppError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(tokens::hash(token)).execute(self.db.pool()).await?;
        Ok(())
    }
}
