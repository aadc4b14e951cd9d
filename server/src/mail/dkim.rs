//! DKIM (RFC 6376): every mail is signed for its sender's domain with the key of
//! `VONK_DKIM_KEY_FILE` under the selector `VONK_DKIM_SELECTOR`, so that receiving mail
//! servers can check it came from us unaltered. The public half is published in DNS at
//! `{selector}._domainkey.{domain}` (docs/operations.md shows how, with SPF and DMARC).
//!
//! The key is an RSA key in PKCS#1 PEM (`openssl genrsa 2048`) or an Ed25519 key as the base64
//! of its 32 secret bytes. Signing uses lettre's DKIM; headers and body are canonicalised
//! "relaxed", which survives the small rewrapping relays do.

use lettre::message::dkim::{DkimCanonicalization, DkimCanonicalizationType, DkimConfig, DkimSigningAlgorithm, DkimSigningKey};
use lettre::message::header::HeaderName;
use lettre::Message;

use crate::error::AppError;

/// The headers signed, where the mail has them: who, what, when, which, and the unsubscribe
/// headers (one-click unsubscribe counts only when they are signed).
const SIGNED: [&str; 9] = ["From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type", "List-Unsubscribe", "List-Unsubscribe-Post"];

/// A DKIM signing key and its selector.
#[derive(Clone)]
pub struct Dkim {
    selector: String,
    key: String,
    algorithm: DkimSigningAlgorithm,
}

impl std::fmt::Debug for Dkim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key.
        f.debug_struct("Dkim").field("selector", &self.selector).finish_non_exhaustive()
    }
}

impl Dkim {
    /// The key from its text (a PKCS#1 PEM RSA key, or a base64 Ed25519 secret), checked now so a
    /// bad key stops the start rather than every mail.
    pub fn new(selector: &str, key_text: &str) -> Result<Dkim, String> {
        let selector = selector.trim();
        if selector.is_empty() || !selector.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.') {
            return Err("the selector takes letters, digits, '-' and '.'".into());
        }
        let key = key_text.trim().to_string();
        let algorithm = if key.starts_with("-----BEGIN RSA PRIVATE KEY-----") {
            DkimSigningAlgorithm::Rsa
        } else if key.starts_with("-----BEGIN") {
            return Err("an RSA key must be in PKCS#1 PEM (BEGIN RSA PRIVATE KEY); convert with `openssl rsa -traditional`".into());
        } else {
            DkimSigningAlgorithm::Ed25519
        };
        DkimSigningKey::new(&key, algorithm).map_err(|e| format!("not a usable key: {e:?}"))?;
        Ok(Dkim { selector: selector.to_string(), key, algorithm })
    }

    pub fn selector(&self) -> &str {
        &self.selector
    }

    /// Adds the `DKIM-Signature` header for the domain of the mail's `From` address.
    pub fn sign(&self, message: &mut Message) -> Result<(), AppError> {
        let from = message.headers().get_raw("From").unwrap_or_default().to_string();
        let domain = from.rsplit_once('@').map(|(_, d)| d.trim_end_matches(['>', ' ', '"'])).filter(|d| !d.is_empty());
        let Some(domain) = domain else { return Err(AppError::Internal("DKIM: the mail has no sender domain".into())) };
        let headers: Vec<HeaderName> =
            SIGNED.iter().filter(|name| message.headers().get_raw(name).is_some()).map(|name| HeaderName::new_from_ascii_str(name)).collect();
        let key = DkimSigningKey::new(&self.key, self.algorithm).map_err(|e| AppError::Internal(format!("DKIM key: {e:?}")))?;
        let config = DkimConfig::new(
            self.selector.clone(),
            domain.to_ascii_lowercase(),
            key,
            headers,
            DkimCanonicalization { header: DkimCanonicalizationType::Relaxed, body: DkimCanonicalizationType::Relaxed },
        );
        message.sign(&config);
        Ok(())
    }
}
