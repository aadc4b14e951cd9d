//! Password hashing with argon2id (m = 19456 KiB, t = 2, p = 1, the OWASP baseline), always
//! off the async threads: hashing takes tens of milliseconds by design.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::error::AppError;

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

    #[tokio::test]
    async fn unknown_user_never_verifies() {
        assert!(!verify("anything".into(), None).await.unwrap());
    }
}
