//! Random secrets (session and account tokens). The browser or the mail gets the token; the
//! database keeps only its SHA-256, so a database leak opens nothing.

use domain::ErrorCode;
use sha2::{Digest, Sha256};
use sqlx::{Any, Transaction};

use super::Accounts;
use crate::error::AppError;

/// 32 random bytes from the operating system, hex encoded.
pub fn new_token() -> String {
    random_hex::<32>()
}

/// `N` random bytes from the operating system, hex encoded.
pub fn random_hex<const N: usize>() -> String {
    let mut bytes = [0u8; N];
    getrandom::getrandom(&mut bytes).expect("the operating system's random source");
    hex(&bytes)
}

/// Compares secrets without stopping at the first differing byte.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

pub fn hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Tokens arrive from URLs and cookies: only 64 lowercase hex characters are worth a lookup.
pub fn is_well_formed(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// What an account token is for (`account_tokens.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Activation,
    PasswordReset,
    MailChange,
    Reactivation,
    /// The old address's link that undoes an email change.
    MailUndo,
    /// Between a right password and the authenticator code (two-step login).
    TwoStep,
    /// A lifecycle mail's one-tap way back in (`/{token}`); its payload is the page it opens.
    SignIn,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Activation => "activation",
            Kind::PasswordReset => "password_reset",
            Kind::MailChange => "mail_change",
            Kind::Reactivation => "reactivation",
            Kind::MailUndo => "mail_undo",
            Kind::TwoStep => "two_step",
            Kind::SignIn => "sign_in",
        }
    }
}

/// Stores a new token's hash with its expiry; `payload` is what the link confirms (a new address).
pub(super) async fn insert(
    tx: &mut Transaction<'_, Any>,
    user_id: i64,
    kind: Kind,
    token: &str,
    payload: Option<&str>,
    now: i64,
    ttl: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO account_tokens (token_hash, user_id, kind, payload, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(hash(token))
        .bind(user_id)
        .bind(kind.as_str())
        .bind(payload)
        .bind(now)
        .bind(now + ttl)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

impl Accounts {
    /// Uses a token up: its member and payload, or `link_expired`. One statement marks it used,
    /// so two clicks at once cannot both succeed.
    pub(super) async fn consume_token(&self, token: &str, kind: Kind) -> Result<(i64, Option<String>), AppError> {
        if !is_well_formed(token) {
            return Err(ErrorCode::LinkExpired.into());
        }
        let row: Option<(i64, Option<String>)> = sqlx::query_as(
            "UPDATE account_tokens SET used_at = $1 WHERE token_hash = $2 AND kind = $3 AND used_at IS NULL AND expires_at > $1 RETURNING user_id, payload",
        )
        .bind(self.clock.now())
        .bind(hash(token))
        .bind(kind.as_str())
        .fetch_optional(self.db.pool())
        .await?;
        row.ok_or_else(|| ErrorCode::LinkExpired.into())
    }

    /// How many links of one kind went to a member in the last 24 hours.
    pub(super) async fn tokens_sent_today(&self, user_id: i64, kind: Kind) -> Result<i64, AppError> {
        let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM account_tokens WHERE user_id = $1 AND kind = $2 AND created_at > $3")
            .bind(user_id)
            .bind(kind.as_str())
            .bind(self.clock.now() - 24 * 3600)
            .fetch_one(self.db.pool())
            .await?;
        Ok(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_hex_and_hash_stably() {
        let a = new_token();
        let b = new_token();
        assert_ne!(a, b);
        assert!(is_well_formed(&a));
        assert_eq!(hash(&a), hash(&a));
        assert_ne!(hash(&a), a);
        assert!(!is_well_formed("../../etc/passwd"));
    }
}
