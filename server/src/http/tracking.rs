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

/// The middleware that counts landing visits (`crate::visits`), inside the session's (it knows
/// the member, the client's address and country): a visitor's `GET` of a landing page that
/// answered with a page gets the visitor cookie and, unless it is a bot's or a prefetch, one
/// visit per day and touch, written after the answer (`Visits::record_later`). Only a touch's
/// first view of the day writes (one small insert).
pub async fn count_visit(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let landing = (request.method() == Method::GET).then(|| domain::visits::landing(request.uri().path())).flatten();
    let Some(landing) = landing else { return next.run(request).await };
    let member = request.extensions().get::<crate::http::CurrentMember>().is_some_and(|m| m.0.is_some());
    let site = crate::http::visitor::site(&state.sites, request.headers());
    let (Some(site), false) = (site, member) else { return next.run(request).await };
    let headers = request.headers();
    let user_agent = headers.get(http::header::USER_AGENT).and_then(|v| v.to_str().ok()).map(str::to_string);
    let prefetch = ["sec-purpose", "purpose", "x-moz", "x-purpose"]
        .iter()
        .any(|h| headers.get(*h).and_then(|v| v.to_str().ok()).is_some_and(|v| v.to_ascii_lowercase().contains("prefetch") || v.contains("preview")));
    let known = cookies::get(headers, crate::visits::VISITOR_COOKIE).filter(|v| crate::accounts::tokens::is_well_formed(v));
    let pairs: Vec<(String, String)> = request
        .uri()
        .query()
        .unwrap_or("")
        .split('&')
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (domain::account::percent_decode(k), domain::account::percent_decode(v)))
        .collect();
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let (tracking, click_id) = (Tracking::from_pairs(pairs.iter().copied()), domain::visits::click_id(pairs.iter().copied()));
    let ip = request
        .extensions()
        .get::<crate::http::ClientIp>()
        .map(|c| c.0)
        .or_else(|| request.extensions().get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip()));
    let country = crate::http::visitor::country(request.extensions(), &site);
    // The visitor's value: their cookie's, or a new one (set on the answer). A lander under a
    // split test shows the design drawn from it, chosen before the page is drawn.
    let new_visitor = known.is_none();
    let visitor = known.unwrap_or_else(crate::accounts::tokens::new_token);
    let shown = match (landing.page, landing.lander.as_deref()) {
        (domain::visits::VisitPage::Lander, Some(lander)) => state.splits.shown(site.id, lander, &visitor).await,
        _ => None,
    };
    let mut request = request;
    if let Some(shown) = &shown {
        request.extensions_mut().insert(shown.clone());
    }
    let mut response = next.run(request).await;
    // Bots and prefetches get no cookie and count nothing (under a test they saw a design drawn
    // for a value they never keep).
    if !response.status().is_success() || domain::visits::not_a_visit(user_agent.as_deref(), prefetch) {
        return response;
    }
    if new_visitor {
        let cookie = cookies::set(crate::visits::VISITOR_COOKIE, &visitor, crate::visits::VISITOR_DAYS, state.config.secure_cookies);
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(http::header::SET_COOKIE, value);
        }
    }
    let visit = crate::visits::Visit {
        site_id: site.id,
        visitor,
        landing,
        tracking,
        click_id,
        country: Some(country),
        device: domain::visits::Device::of(user_agent.as_deref().unwrap_or("")),
        ip_prefix: ip.map(domain::visits::ip_prefix),
        variant: shown.map(|s| s.variant),
        at: state.clock.now(),
    };
    state.visits.record_later(visit);
    response
}
