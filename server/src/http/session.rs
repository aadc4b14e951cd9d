//! Resolves the session cookie once per request; handlers and pages read the result from the
//! request's extensions.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use domain::constants::AUTH_COOKIE;

use crate::accounts::Member;
use crate::http::cookies;
use crate::state::AppState;

/// The logged-in member of this request, if any.
#[derive(Clone, Debug, Default)]
pub struct CurrentMember(pub Option<Member>);

/// In a member's writing request: a handler that brought this node's member cache up to date
/// with its write itself (`MemberCache::sent`) says so with [`CacheKept::keep`], and the member's
/// kept sessions are not dropped after it.
#[derive(Clone, Default)]
pub struct CacheKept(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl CacheKept {
    pub fn keep(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Release);
    }

    fn kept(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Acquire)
    }
}

/// The stored hash of the request's session token, if it carries one: what a long-lived
/// connection registers with (`streams`), so it ends with its session.
pub fn session_hash(headers: &http::HeaderMap) -> Option<String> {
    cookies::get(headers, AUTH_COOKIE).map(|token| crate::accounts::tokens::hash(&token))
}

/// Built assets never depend on who asks; they skip the session lookup.
const STATIC_PREFIXES: [&str; 3] = ["/pkg/", "/widgets/", "/media/public/"];

pub async fn resolve_member(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    // The client's address, once, for every per-address limit (behind trusted proxies).
    let peer = request.extensions().get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip());
    let mut client = peer;
    if !state.config.trusted_proxies.is_empty() {
        if let Some(peer) = peer {
            let forwarded: Vec<&str> = request.headers().get_all("x-forwarded-for").iter().filter_map(|v| v.to_str().ok()).collect();
            let found = crate::http::client_addr::client(peer, &forwarded, &state.config.trusted_proxies);
            client = Some(found);
            request.extensions_mut().insert(crate::http::extract::ClientIp(found));
        }
    }
    if STATIC_PREFIXES.iter().any(|p| request.uri().path().starts_with(p)) {
        return next.run(request).await;
    }
    // The visitor's country: a trusted proxy's header, else the GeoIP database.
    if state.geoip.is_configured() {
        let from_proxy = peer.is_some_and(|p| crate::http::client_addr::is_trusted(p, &state.config.trusted_proxies));
        let country = client.and_then(|ip| state.geoip.country(from_proxy.then(|| request.headers()), ip));
        request.extensions_mut().insert(crate::geoip::DetectedCountry(country));
    }
    let token = cookies::get(request.headers(), AUTH_COOKIE);
    let (member, renewed) = match &token {
        Some(token) => match state.accounts.resolve_session(token).await {
            Ok(Some(resolved)) => (Some(resolved.member), resolved.renewed),
            Ok(None) => (None, false),
            Err(error) => {
                tracing::error!(%error, "session lookup failed");
                (None, false)
            }
        },
        None => (None, false),
    };
    // A session of another site does not count here.
    let site = crate::http::visitor::site(&state.sites, request.headers());
    let member = member.filter(|m| site.as_ref().is_some_and(|s| s.settings.id == m.site_id));
    if let Some(blocked) = member.as_ref().filter(|m| m.status == domain::account::UserStatus::Blocked) {
        return blocked_member(&state, blocked.id, request, next).await;
    }
    let renew = renewed && member.is_some();
    if let (true, Some(member), Some(zone)) = (renew, member.as_ref(), cookies::get(request.headers(), domain::constants::TIME_ZONE_COOKIE)) {
        if let Err(error) = state.accounts.note_time_zone(member.id, &zone).await {
            tracing::warn!(%error, "could not keep the member's time zone");
        }
    }
    // What a member's own call changes reaches their next request here at once, whatever the
    // database (other nodes hear of it from the database, see `member_cache`).
    let writer = member.as_ref().filter(|_| !matches!(*request.method(), http::Method::GET | http::Method::HEAD)).map(|m| m.id);
    request.extensions_mut().insert(CurrentMember(member));
    let kept = CacheKept::default();
    request.extensions_mut().insert(kept.clone());
    let mut response = next.run(request).await;
    if let (Some(id), false) = (writer, kept.kept()) {
        state.accounts.member_cache().forget(id);
    }
    // A session slides with use: its cookie lives 30 days from the last use too. A response
    // that sets the session cookie itself (login, logout) keeps its own.
    if let (true, Some(token)) = (renew, token) {
        let sets_session = response.headers().get_all(http::header::SET_COOKIE).iter().any(|v| v.as_bytes().starts_with(format!("{AUTH_COOKIE}=").as_bytes()));
        if !sets_session {
            let cookie = cookies::set(AUTH_COOKIE, &token, domain::constants::AUTH_COOKIE_DAYS, state.config.secure_cookies);
            if let Ok(value) = http::HeaderValue::from_str(&cookie) {
                response.headers_mut().append(http::header::SET_COOKIE, value);
            }
        }
    }
    response
}

/// A blocked member's session ends at its first request: their sessions are deleted, the cookie
/// cleared, and they see the ban notice (a call gets `403 forbidden`).
async fn blocked_member(state: &AppState, user_id: i64, mut request: Request, next: Next) -> Response {
    use axum::response::IntoResponse;
    if let Err(error) = state.accounts.end_sessions(user_id).await {
        tracing::error!(%error, "ending a blocked member's sessions failed");
    }
    tracing::info!(target: "security", user_id, "a blocked member's session was ended");
    let clear = cookies::clear(AUTH_COOKIE, state.config.secure_cookies);
    let is_get = matches!(*request.method(), http::Method::GET | http::Method::HEAD);
    let mut response = if request.uri().path() == BAN_PAGE {
        request.extensions_mut().insert(CurrentMember(None));
        next.run(request).await
    } else if is_get {
        axum::response::Redirect::to(BAN_PAGE).into_response()
    } else {
        crate::error::AppError::from(domain::ErrorCode::Forbidden).into_response()
    };
    if let Ok(value) = http::HeaderValue::from_str(&clear) {
        response.headers_mut().append(http::header::SET_COOKIE, value);
    }
    response
}

/// Where a blocked member is sent (SPEC §2's ban notice).
const BAN_PAGE: &str = "/pages/ban";
