//! Password hashing with argon2id (m = 19456 KiB, t = 2, p = 1, the OWASP baseline), always
//! off the async threads: hashing takes tens of milliseconds by design.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use domain::account::validate_password;
use domain::Field;
use domain::{ApiError, ErrorCode};

use crate::error::AppError;

/// The 10,000 most common passwords (SecLists, MIT licence: `data/common-passwords.LICENSE`).
/// The browser checks a short list for instant feedback; this is the check that counts.
const COMMON: &str = include_str!("../../data/common-passwords.txt");

fn common() -> &'static std::collections::HashSet<String> {
    static SET: std::sync::OnceLock<std::collections::HashSet<String>> = std::sync::OnceLock::new();
    SET.get_or_init(|| COMMON.lines().map(|l| l.trim().to_lowercase()).filter(|l| !l.is_empty()).collect())
}

/// Whether a password is among the most common ones (letter case does not matter).
pub fn is_common(password: &str) -> bool {
    common().contains(&password.to_lowercase())
}

/// The rules for a new password on the server: the shared ones, then the long list.
pub fn check_new(password: &str, email: &str, name: &str) -> Result<(), ApiError> {
    validate_password(password, email, name)?;
    if is_common(password) {
        return Err(ApiError::field(Field::Password, ErrorCode::PasswordTooCommon));
    }
    Ok(())
}

fn argon() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::new(19_456, 2, 1, None).expect("valid argon2 parameters"))
}

pub async fn hash(password: String) -> Result<String, AppError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        argon().hash_password(password.as_bytes(), &salt).map(|h| h.to_string()).map_err(|e| AppError::Internal(format!("hashing failed: {e}")))
    })
    .await
    .map_err(|e| AppError::Internal(format!("hashing task failed: {e}")))?
}

/// Verifies a password against a stored hash. `None` verifies against a dummy hash so that an
/// unknown email takes as long as a known one (no user enumeration by timing).
pub async fn verify(password: String, stored: Option<String>) -> Result<bool, AppError> {
    tokio::task::spawn_blocking(move || {
        let known = stored.is_some();
        let stored = stored.unwrap_or_else(|| DUMMY_HASH.to_string());
        let parsed = PasswordHash::new(&stored).map_err(|e| AppError::Internal(format!("stored hash unreadable: {e}")))?;
        Ok(argon().verify_password(password.as_bytes(), &parsed).is_ok() && known)
    })
    .await
    .map_err(|e| AppError::Internal(format!("verify task failed: {e}")))?
}

/// argon2id hash of a random string nobody knows, with the production parameters.
const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$V4hZ8y9c4dS2Kg6o1bq9lXnq0m4cJ9m3Yb1xv4Xq8xM";

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_argon2id_with_our_parameters_and_verify() {
        let h = hash("rode kater op het dak".into()).await.unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify("rode kater op het dak".into(), Some(h.clone())).await.unwrap());
        assert!(!verify("Rode kater op het dak".into(), Some(h.clone())).await.unwrap());
        let again = hash("rode kater op het dak".into()).await.unwrap();
        assert_ne!(h, again, "salted");
    }

    #[test]
    fn the_ten_thousand_most_common_passwords_are_refused() {
        assert!(common().len() >= 9_900, "{}", common().len());
        for password in ["password1", "Qwertyuiop", "iloveyou2", "starwars", "12345678"] {
            assert!(is_common(password), "{password}");
            assert_eq!(check_new(password, "a@b.nl", "Anna").unwrap_err().code, ErrorCode::PasswordTooCommon, "{password}");
        }
        // Not on the short list the browser knows, but on the long one.
        assert!(validate_password("football1", "a@b.nl", "Anna").is_ok());
        assert!(check_new("football1", "a@b.nl", "Anna").is_err());
        assert!(check_new("rode kater op het dak", "a@b.nl", "Anna").is_ok());
    }

    #[tokio::test]
    async fn unknown_user_never_verifies() {
        assert!(!verify("anything".into(), None).await.unwrap());
    }
}
