//! Rate limits on what attackers hammer: per address (login, signup, reset mails) and per
//! member (chat sends, typing marks). Counted per node in memory, in fixed windows; the login
//! lockout per account is separate and lives in the database. Server functions call [`RateLimiter::check`] before they do the work.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use domain::ErrorCode;

use crate::error::AppError;

/// A limited action: requests allowed per window (before `VONK_RATE_LIMIT_FACTOR`), window in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    Login,
    Signup,
    ResetMail,
    /// Chat sends per member (messages, photos, gifts).
    ChatSend,
    /// Typing marks per member (the browser sends at most one per 3 s).
    ChatTyping,
    /// Checkouts and direct-debit codes a member starts.
    Checkout,
    /// Payment-provider webhook calls per address (each may cost a call to the provider).
    Webhook,
}

/// Who a limit counts: an address, or a logged-in member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Subject {
    Address(IpAddr),
    Member(i64),
}

impl Limit {
    pub fn per_window(self) -> (u32, i64) {
        match self {
            Limit::Login => (20, 60),
            Limit::Signup => (10, 600),
            Limit::ResetMail => (5, 600),
            Limit::ChatSend => (30, 60),
            Limit::ChatTyping => (40, 60),
            Limit::Checkout => (20, 600),
            Limit::Webhook => (300, 60),
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct RateLimiter {
    windows: Arc<Mutex<HashMap<(Limit, Subject), (i64, u32)>>>,
    factor: u32,
}

impl RateLimiter {
    /// `factor` multiplies every limit (`VONK_RATE_LIMIT_FACTOR`).
    pub fn new(factor: u32) -> RateLimiter {
        RateLimiter { windows: Default::default(), factor: factor.max(1) }
    }

    /// Counts one request; false when the caller is over the limit for this window.
    pub fn allow(&self, limit: Limit, ip: IpAddr, now: i64) -> bool {
        self.count(limit, Subject::Address(crate::http::client_addr::limit_key(ip)), now)
    }

    fn count(&self, limit: Limit, subject: Subject, now: i64) -> bool {
        let (allowed, window_secs) = limit.per_window();
        let allowed = allowed.saturating_mul(self.factor.max(1));
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if windows.len() > 100_000 {
            // Old windows are worthless; drop them rather than grow without bound.
            windows.retain(|(l, _), (start, _)| now - *start < l.per_window().1);
        }
        let entry = windows.entry((limit, subject)).or_insert((now, 0));
        if now - entry.0 >= window_secs {
            *entry = (now, 0);
        }
        entry.1 += 1;
        entry.1 <= allowed
    }

    /// [`RateLimiter::allow`] as an error: `too_many_requests`.
    pub fn check(&self, limit: Limit, ip: IpAddr, now: i64) -> Result<(), AppError> {
        if self.allow(limit, ip, now) {
            Ok(())
        } else {
            tracing::warn!(%ip, ?limit, "rate limit reached");
            Err(ErrorCode::TooManyRequests.into())
        }
    }

    /// [`RateLimiter::check`] per member rather than per address.
    pub fn check_member(&self, limit: Limit, member: i64, now: i64) -> Result<(), AppError> {
        if self.count(limit, Subject::Member(member), now) {
            Ok(())
        } else {
            tracing::warn!(member, ?limit, "rate limit reached");
            Err(ErrorCode::TooManyRequests.into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_window_per_address_and_action() {
        let limiter = RateLimiter::new(1);
        let a = IpAddr::from([10, 0, 0, 1]);
        let b = IpAddr::from([10, 0, 0, 2]);
        for _ in 0..20 {
            assert!(limiter.allow(Limit::Login, a, 1000));
        }
        assert!(!limiter.allow(Limit::Login, a, 1010), "21st in the window");
        assert_eq!(limiter.check(Limit::Login, a, 1010).unwrap_err().code(), ErrorCode::TooManyRequests);
        assert!(limiter.allow(Limit::Login, b, 1010), "another address has its own count");
        assert!(limiter.allow(Limit::Signup, a, 1010), "another action has its own count");
        assert!(limiter.allow(Limit::Login, a, 1060), "a new window");
        let relaxed = RateLimiter::new(2);
        assert!((0..40).all(|_| relaxed.allow(Limit::Login, a, 1000)));
    }
}
