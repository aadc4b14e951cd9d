//! Per-IP rate limits on the endpoints that attackers hammer (login, signup). Counted per node in
//! memory, in fixed windows; the login lockout per account is separate and lives in the database.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use http::Method;

use crate::state::AppState;

/// (path, requests allowed per window, window in seconds, where to send a refused form)
const LIMITS: [(&str, u32, i64, &str); 3] =
    [("/api/login", 20, 60, "/login"), ("/api/signup", 10, 600, "/signup"), ("/api/reset-password", 5, 600, "/reset-password")];

#[derive(Clone, Debug, Default)]
pub struct RateLimiter {
    windows: Arc<Mutex<HashMap<(&'static str, IpAddr), (i64, u32)>>>,
}

impl RateLimiter {
    /// Counts one request; false when the caller is over the limit for this window.
    pub fn allow(&self, bucket: &'static str, ip: IpAddr, limit: u32, window_secs: i64, now: i64) -> bool {
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if windows.len() > 100_000 {
            // Old windows are worthless; drop them rather than grow without bound.
            windows.retain(|_, (start, _)| now - *start < window_secs);
        }
        let entry = windows.entry((bucket, ip)).or_insert((now, 0));
        if now - entry.0 >= window_secs {
            *entry = (now, 0);
        }
        entry.1 += 1;
        entry.1 <= limit
    }
}

pub async fn rate_limit(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if request.method() == Method::POST {
        let path = request.uri().path();
        if let Some((bucket, limit, window, back)) = LIMITS.iter().find(|(p, ..)| *p == path) {
            let ip = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()).unwrap_or(IpAddr::from([0, 0, 0, 0]));
            let limit = limit.saturating_mul(state.config.rate_limit_factor);
            if !state.rate_limiter.allow(bucket, ip, limit, *window, state.accounts.clock().now()) {
                tracing::warn!(%ip, path, "rate limit reached");
                return Redirect::to(&format!("{back}?error=error.too_many_requests")).into_response();
            }
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_window_per_ip_and_bucket() {
        let limiter = RateLimiter::default();
        let a = IpAddr::from([10, 0, 0, 1]);
        let b = IpAddr::from([10, 0, 0, 2]);
        for _ in 0..3 {
            assert!(limiter.allow("/api/login", a, 3, 60, 1000));
        }
        assert!(!limiter.allow("/api/login", a, 3, 60, 1010), "fourth in the window");
        assert!(limiter.allow("/api/login", b, 3, 60, 1010), "another address has its own count");
        assert!(limiter.allow("/api/signup", a, 3, 60, 1010), "another bucket has its own count");
        assert!(limiter.allow("/api/login", a, 3, 60, 1060), "a new window");
    }
}
