//! Rate limits on what attackers hammer: per address (login, signup, reset mails) and per
//! member (chat sends, typing marks, photo uploads), in fixed windows. On PostgreSQL, where
//! several nodes share one database, the counts live in it (`rate_counters`, one row per limit
//! and subject, counted by one atomic upsert), so an attacker spread over the nodes of a load
//! balancer meets one limit; on SQLite (one node) they live in this node's memory. The login
//! lockout per account is separate and lives in the database either way. Server functions call
//! [`RateLimiter::check`] before they do the work. Every limit has a default here and can be
//! set by configuration (`VONK_RATE_LIMITS`, see [`RateLimits::parse`]).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use domain::ErrorCode;

use crate::db::Backend;
use crate::error::AppError;
use crate::Db;

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
    /// Photo uploads per member (profile and chat photos; each one is a decode).
    PhotoUpload,
    /// Data downloads per member (each reads every photo).
    DataExport,
    /// Complaints per address (each mails support).
    Complaint,
    /// Lander bounce beacons per address.
    Bounce,
}

/// Who a limit counts: an address, or a logged-in member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Subject {
    Address(IpAddr),
    Member(i64),
}

impl Limit {
    pub const ALL: [Limit; 11] = [
        Limit::Login,
        Limit::Signup,
        Limit::ResetMail,
        Limit::ChatSend,
        Limit::ChatTyping,
        Limit::Checkout,
        Limit::Webhook,
        Limit::PhotoUpload,
        Limit::DataExport,
        Limit::Complaint,
        Limit::Bounce,
    ];

    /// The name configuration uses for this limit.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Login => "login",
            Limit::Signup => "signup",
            Limit::ResetMail => "reset_mail",
            Limit::ChatSend => "chat_send",
            Limit::ChatTyping => "chat_typing",
            Limit::Checkout => "checkout",
            Limit::Webhook => "webhook",
            Limit::PhotoUpload => "photo_upload",
            Limit::DataExport => "data_export",
            Limit::Complaint => "complaint",
            Limit::Bounce => "bounce",
        }
    }

    /// The default: requests allowed per window, and the window in seconds.
    pub fn default_window(self) -> (u32, i64) {
        match self {
            Limit::Login => (20, 60),
            Limit::Signup => (10, 600),
            Limit::ResetMail => (5, 600),
            Limit::ChatSend => (30, 60),
            Limit::ChatTyping => (40, 60),
            Limit::Checkout => (20, 600),
            Limit::Webhook => (300, 60),
            Limit::PhotoUpload => (20, 3600),
            Limit::DataExport => (5, 3600),
            Limit::Complaint => (5, 3600),
            Limit::Bounce => (30, 60),
        }
    }
}

/// Limits set by configuration, over the defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RateLimits(HashMap<Limit, (u32, i64)>);

impl RateLimits {
    /// Reads `name=count/seconds` pairs separated by commas, e.g.
    /// `login=50/60, photo_upload=10/3600`. Unknown names, a count of 0 or a window of 0 are refused.
    pub fn parse(text: &str) -> Result<RateLimits, String> {
        let mut limits = HashMap::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let bad = || format!("'{part}' is not name=count/seconds with a known name");
            let (name, value) = part.split_once('=').ok_or_else(bad)?;
            let limit = Limit::ALL.into_iter().find(|l| l.name() == name.trim()).ok_or_else(bad)?;
            let (count, secs) = value.split_once('/').ok_or_else(bad)?;
            let count: u32 = count.trim().parse().ok().filter(|c| *c > 0).ok_or_else(bad)?;
            let secs: i64 = secs.trim().parse().ok().filter(|s| (1..=86_400).contains(s)).ok_or_else(bad)?;
            limits.insert(limit, (count, secs));
        }
        Ok(RateLimits(limits))
    }

    pub fn per_window(&self, limit: Limit) -> (u32, i64) {
        self.0.get(&limit).copied().unwrap_or_else(|| limit.default_window())
    }
}

/// Each limit's and subject's window: when it started and what it counted.
type Windows = HashMap<(Limit, Subject), (i64, u32)>;

#[derive(Clone, Debug, Default)]
pub struct RateLimiter {
    windows: Arc<Mutex<Windows>>,
    /// The database the counts are shared through (PostgreSQL only).
    shared: Option<Db>,
    limits: RateLimits,
    factor: u32,
}

impl RateLimiter {
    /// `factor` multiplies every limit (`VONK_RATE_LIMIT_FACTOR`).
    pub fn new(factor: u32) -> RateLimiter {
        RateLimiter::with_limits(factor, RateLimits::default())
    }

    /// `limits` replace the defaults they name (`VONK_RATE_LIMITS`); `factor` multiplies all.
    pub fn with_limits(factor: u32, limits: RateLimits) -> RateLimiter {
        RateLimiter { windows: Default::default(), shared: None, limits, factor: factor.max(1) }
    }

    /// Counts in `db` when it is PostgreSQL (every node of the site sees the same counts); a
    /// SQLite database serves one node, whose memory is enough.
    pub fn shared_through(mut self, db: &Db) -> RateLimiter {
        if db.backend() == Backend::Postgres {
            self.shared = Some(db.clone());
        }
        self
    }

    /// Whether the counts are shared between nodes.
    pub fn is_shared(&self) -> bool {
        self.shared.is_some()
    }

    /// Counts one request; false when the caller is over the limit for this window.
    pub async fn allow(&self, limit: Limit, ip: IpAddr, now: i64) -> bool {
        self.count(limit, Subject::Address(crate::http::client_addr::limit_key(ip)), now).await
    }

    async fn count(&self, limit: Limit, subject: Subject, now: i64) -> bool {
        let (allowed, window_secs) = self.limits.per_window(limit);
        let allowed = allowed.saturating_mul(self.factor.max(1));
        if let Some(db) = &self.shared {
            match count_shared(db, limit, subject, now, window_secs).await {
                Ok(hits) => return hits <= i64::from(allowed),
                // The limit still holds on this node while the database does not answer.
                Err(error) => tracing::warn!(%error, "shared rate counters unavailable; counting on this node"),
            }
        }
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if windows.len() > 100_000 {
            // Old windows are worthless; drop them rather than grow without bound.
            let limits = &self.limits;
            windows.retain(|(l, _), (start, _)| now - *start < limits.per_window(*l).1);
        }
        let entry = windows.entry((limit, subject)).or_insert((now, 0));
        if now - entry.0 >= window_secs {
            *entry = (now, 0);
        }
        entry.1 += 1;
        entry.1 <= allowed
    }

    /// [`RateLimiter::allow`] as an error: `too_many_requests`.
    pub async fn check(&self, limit: Limit, ip: IpAddr, now: i64) -> Result<(), AppError> {
        if self.allow(limit, ip, now).await {
            Ok(())
        } else {
            tracing::warn!(%ip, ?limit, "rate limit reached");
            Err(ErrorCode::TooManyRequests.into())
        }
    }

    /// [`RateLimiter::check`] per member rather than per address.
    pub async fn check_member(&self, limit: Limit, member: i64, now: i64) -> Result<(), AppError> {
        if self.count(limit, Subject::Member(member), now).await {
            Ok(())
        } else {
            tracing::warn!(member, ?limit, "rate limit reached");
            Err(ErrorCode::TooManyRequests.into())
        }
    }

    /// Removes shared counts whose window ended (none lasts more than a day); the number removed.
    pub async fn purge(&self, now: i64) -> Result<u64, AppError> {
        let Some(db) = &self.shared else { return Ok(0) };
        Ok(sqlx::query("DELETE FROM rate_counters WHERE window_start < $1").bind(now - 86_400).execute(db.pool()).await?.rows_affected())
    }
}

/// One more hit for `subject` on `limit`, in one statement (parallel requests on any node
/// each get their own count); the hits in the current window, this one included.
async fn count_shared(db: &Db, limit: Limit, subject: Subject, now: i64, window_secs: i64) -> Result<i64, sqlx::Error> {
    let subject = match subject {
        Subject::Address(ip) => ip.to_string(),
        Subject::Member(id) => format!("member:{id}"),
    };
    let (hits,): (i64,) = sqlx::query_as(
        "INSERT INTO rate_counters (name, subject, window_start, hits) VALUES ($1, $2, $3, 1) \
         ON CONFLICT (name, subject) DO UPDATE SET \
           hits = CASE WHEN rate_counters.window_start <= $4 THEN 1 ELSE rate_counters.hits + 1 END, \
           window_start = CASE WHEN rate_counters.window_start <= $4 THEN $3 ELSE rate_counters.window_start END \
         RETURNING hits",
    )
    .bind(limit.name())
    .bind(subject)
    .bind(now)
    .bind(now - window_secs)
    .fetch_one(db.pool())
    .await?;
    Ok(hits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn fixed_window_per_address_and_action() {
        let limiter = RateLimiter::new(1);
        let a = IpAddr::from([10, 0, 0, 1]);
        let b = IpAddr::from([10, 0, 0, 2]);
        for _ in 0..20 {
            assert!(limiter.allow(Limit::Login, a, 1000).await);
        }
        assert!(!limiter.allow(Limit::Login, a, 1010).await, "21st in the window");
        assert_eq!(limiter.check(Limit::Login, a, 1010).await.unwrap_err().code(), ErrorCode::TooManyRequests);
        assert!(limiter.allow(Limit::Login, b, 1010).await, "another address has its own count");
        assert!(limiter.allow(Limit::Signup, a, 1010).await, "another action has its own count");
        assert!(limiter.allow(Limit::Login, a, 1060).await, "a new window");
        let relaxed = RateLimiter::new(2);
        for _ in 0..40 {
            assert!(relaxed.allow(Limit::Login, a, 1000).await);
        }
    }

    #[tokio::test]
    async fn limits_come_from_configuration() {
        let limits = RateLimits::parse(" login=3/10, photo_upload=2/3600 ,").unwrap();
        assert_eq!(limits.per_window(Limit::Login), (3, 10));
        assert_eq!(limits.per_window(Limit::PhotoUpload), (2, 3600));
        assert_eq!(limits.per_window(Limit::Signup), Limit::Signup.default_window(), "unnamed limits keep their default");
        for bad in ["login", "login=3", "login=0/10", "login=3/0", "logins=3/10", "login=x/10", "login=3/90000"] {
            assert!(RateLimits::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(RateLimits::parse("").unwrap(), RateLimits::default());
        let limiter = RateLimiter::with_limits(1, limits);
        let a = IpAddr::from([10, 0, 0, 1]);
        for _ in 0..3 {
            assert!(limiter.allow(Limit::Login, a, 1000).await);
        }
        assert!(!limiter.allow(Limit::Login, a, 1005).await);
        assert!(limiter.allow(Limit::Login, a, 1010).await, "the configured window is 10 s");
        assert!(limiter.check_member(Limit::PhotoUpload, 7, 1000).await.is_ok() && limiter.check_member(Limit::PhotoUpload, 7, 1000).await.is_ok());
        assert!(limiter.check_member(Limit::PhotoUpload, 7, 1000).await.is_err());
        assert!(limiter.check_member(Limit::PhotoUpload, 8, 1000).await.is_ok(), "per member");
        let names: std::collections::HashSet<_> = Limit::ALL.iter().map(|l| l.name()).collect();
        assert_eq!(names.len(), Limit::ALL.len());
    }
}
