//! Middleware: the same-origin check on state-changing requests and security headers.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{header, HeaderValue, Method};

use crate::error::AppError;
use crate::state::AppState;

/// Refuses state-changing requests (anything but GET, HEAD, OPTIONS) that a browser marks as
/// coming from another site. Uses Sec-Fetch-Site where the browser sends it, else Origin
/// against the Host header and the configured public origins.
pub async fn same_origin_guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    // Mail programs and payment providers are servers, not browsers: a token, a shared secret
    // or (for webhooks) our own call back to the provider is what they are checked by.
    let path = request.uri().path();
    let token_authorised = crate::http::mail_routes::TOKEN_AUTHORISED_PATHS.contains(&path) || path.starts_with(crate::http::payment_routes::WEBHOOK_PREFIX);
    if is_safe(request.method()) || token_authorised || origin_allowed(request.headers(), &state.config.public_origins) {
        next.run(request).await
    } else {
        tracing::warn!(path = %request.uri().path(), "refused a cross-origin state-changing request");
        AppError::from(domain::ErrorCode::ForbiddenOrigin).into_response()
    }
}

fn is_safe(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The decision of [`same_origin_guard`], separate for testing.
pub fn origin_allowed(headers: &http::HeaderMap, public_origins: &[String]) -> bool {
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        // "none" is a navigation the user typed or bookmarked.
        return matches!(site, "same-origin" | "none");
    }
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        // Old browsers and non-browser clients send neither header; cookies are SameSite=Lax,
        // so a cross-site form post from such a browser carries no session.
        return true;
    };
    if origin == "null" {
        return false;
    }
    if public_origins.iter().any(|o| o.eq_ignore_ascii_case(origin)) {
        return true;
    }
    let origin_host = origin.split_once("://").map(|(_, rest)| rest).unwrap_or("");
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
    !host.is_empty() && origin_host.eq_ignore_ascii_case(host)
}

/// Adds security headers to every response. Answers to a member (a request with a session
/// cookie) are never stored by the browser or a proxy, unless the route set its own caching
/// (built assets); over https the browser is told to stay on https (HSTS).
pub async fn security_headers(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let member = crate::http::cookies::get(request.headers(), domain::constants::AUTH_COOKIE).is_some();
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    if member {
        headers.entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static("private, no-store"));
    }
    if state.config.secure_cookies {
        headers.entry(header::STRICT_TRANSPORT_SECURITY).or_insert(HeaderValue::from_static("max-age=31536000; includeSubDomains"));
    }
    let pairs = [
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "strict-origin-when-cross-origin"),
        ("permissions-policy", "camera=(), microphone=(), geolocation=(self), payment=(self)"),
        ("content-security-policy", "frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'"),
        ("cross-origin-opener-policy", "same-origin"),
    ];
    for (name, value) in pairs {
        headers.entry(name).or_insert(HeaderValue::from_static(value));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderMap;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn fetch_metadata_decides_first() {
        assert!(origin_allowed(&headers(&[("sec-fetch-site", "same-origin"), ("origin", "https://evil.example")]), &[]));
        assert!(!origin_allowed(&headers(&[("sec-fetch-site", "cross-site"), ("host", "vonk.nl")]), &[]));
        assert!(!origin_allowed(&headers(&[("sec-fetch-site", "same-site")]), &[]));
    }

    #[test]
    fn origin_must_match_host() {
        assert!(origin_allowed(&headers(&[("origin", "http://localhost:3000"), ("host", "localhost:3000")]), &[]));
        assert!(!origin_allowed(&headers(&[("origin", "http://evil.example"), ("host", "localhost:3000")]), &[]));
        assert!(!origin_allowed(&headers(&[("origin", "null"), ("host", "localhost:3000")]), &[]));
        assert!(origin_allowed(&headers(&[("origin", "https://vonk.nl"), ("host", "10.0.0.5:3000")]), &["https://vonk.nl".into()]));
    }
}
