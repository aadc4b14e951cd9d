//! Random secrets (session and account tokens). The browser or the mail gets the token; the
//! database keeps only its SHA-256, so a database leak opens nothing.

use sha2::{Digest, Sha256};

/// 32 random bytes from the operating system, hex encoded.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    getrandom::getrandom(&mut bytes).expect("the operating system's random source");
    hex(&bytes)
}

pub fn hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Tokens arrive from URLs and cookies: only 64 lowercase hex characters are worth a lookup.
pub fn is_well_formed(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
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
