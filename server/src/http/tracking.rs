//! Where a visitor came from (SPEC §3 tracking data: `network`, `ref`, `sub1`–`sub3`). A landing
//! URL's parameters are kept in a first-party cookie for 30 days, so they still count when the
//! visitor signs up later, from another page, through the modal, the signup page or a member's
//! signup page. The latest landing with parameters wins; signup's own fields come first.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use domain::account::Tracking;
use http::{HeaderMap, HeaderValue, Method};

use crate::http::cookies;
use crate::state::AppState;

pub const TRACKING_COOKIE: &str = "vonk_tracking";
pub const TRACKING_DAYS: i64 = 30;

/// The tracking the visitor's cookie holds.
pub fn from_cookie(headers: &HeaderMap) -> Tracking {
    cookies::get(headers, TRACKING_COOKIE).map(|v| Tracking::from_query(&v)).unwrap_or_default()
}

/// The middleware: a page opened with tracking parameters sets the cookie.
pub async fn remember(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let landing = (request.method() == Method::GET)
        .then(|| request.uri().query())
        .flatten()
        .filter(|q| Tracking::KEYS.iter().any(|k| q.contains(k)))
        .map(Tracking::from_query)
        .filter(|t| !t.is_empty() && !request.uri().path().starts_with("/api/"));
    let mut response = next.run(request).await;
    if let Some(tracking) = landing {
        let cookie = cookies::set(TRACKING_COOKIE, &tracking.to_query(), TRACKING_DAYS, state.config.secure_cookies);
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(http::header::SET_COOKIE, value);
        }
    }
    response
}
