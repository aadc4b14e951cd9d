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

/// The nonce of this request's Content-Security-Policy, in the request's extensions: the page
/// renderer gives it to Leptos, which puts it on every script it writes (hydration, islands,
/// streamed resources). Scripts without it do not run.
#[derive(Clone, Debug)]
pub struct CspNonce(pub String);

impl CspNonce {
    /// 16 random bytes from the operating system, hex encoded.
    pub fn new() -> CspNonce {
        CspNonce(crate::accounts::tokens::random_hex::<16>())
    }
}

impl Default for CspNonce {
    fn default() -> CspNonce {
        CspNonce::new()
    }
}

/// The Content-Security-Policy for an answer. Scripts run only with the nonce, and what they
/// load (the wasm glue, the widget bundle, the service worker) by `'strict-dynamic'`; the wasm
/// needs `'wasm-unsafe-eval'`. Styles may be inline (the site's theme colours are a `style`
/// attribute). Forms post to this site, and on to `form_targets` when a post is redirected there
/// (the payment provider's checkout, the company's other sites).
///
/// `files`: the origin of the site's CDN (`cdn_prefix`), which serves the stylesheet, the wasm
/// (fetched), fonts, portraits and clips; scripts it serves run by `'strict-dynamic'`.
pub fn content_security_policy(nonce: &str, form_targets: &[&str], files: Option<&str>) -> String {
    let mut form_action = String::from("'self'");
    for target in form_targets {
        form_action.push(' ');
        form_action.push_str(target);
    }
    let cdn = files.map(|origin| format!(" {origin}")).unwrap_or_default();
    format!(
        "default-src 'self'; script-src 'nonce-{nonce}' 'strict-dynamic' 'wasm-unsafe-eval'; style-src 'self'{cdn} 'unsafe-inline'; \
         img-src 'self'{cdn} data: blob:; media-src 'self'{cdn}; font-src 'self'{cdn}; connect-src 'self'{cdn}; worker-src 'self'; manifest-src 'self'; \
         frame-ancestors 'none'; object-src 'none'; base-uri 'none'; form-action {form_action}"
    )
}

/// The origin (`https://host[:port]`) of a site's `cdn_prefix`, if it has one.
pub fn prefix_origin(prefix: &str) -> Option<String> {
    let checked = domain::staff::file_origin(prefix).filter(|p| !p.is_empty())?;
    let (scheme, rest) = checked.split_once("://")?;
    Some(format!("{scheme}://{}", rest.split('/').next().unwrap_or_default()))
}

/// Adds security headers to every response: the Content-Security-Policy with a fresh nonce
/// (see [`CspNonce`]), and more. Answers to a member (a request with a session cookie) are never
/// stored by the browser or a proxy, unless the route set its own caching (built assets); over
/// https the browser is told to stay on https (HSTS).
pub async fn security_headers(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let member = crate::http::cookies::get(request.headers(), domain::constants::AUTH_COOKIE).is_some();
    let host = request.headers().get(header::HOST).and_then(|h| h.to_str().ok());
    let site = state.sites.for_host(host);
    let files = site.as_ref().and_then(|site| prefix_origin(&site.settings.cdn_prefix));
    // Forms post on to the payment provider's checkout and, where the site offers its members
    // the company's other sites (`member_resell`), to those sites' sign-in links.
    let mut form_targets: Vec<String> = state.payments.provider().checkout_origins().iter().map(|o| o.to_string()).collect();
    if let Some(site) = site.as_ref().filter(|s| member && s.settings.member_resell) {
        let others = state.sites.all().into_iter().filter(|o| o.settings.id != site.settings.id && o.settings.company_id == site.settings.company_id);
        form_targets.extend(others.map(|o| state.base_url(&o).trim_end_matches('/').to_string()));
    }
    let form_targets: Vec<&str> = form_targets.iter().map(String::as_str).collect();
    let nonce = CspNonce::new();
    request.extensions_mut().insert(nonce.clone());
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    if member {
        headers.entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static("private, no-store"));
    }
    if state.config.secure_cookies {
        headers.entry(header::STRICT_TRANSPORT_SECURITY).or_insert(HeaderValue::from_static("max-age=31536000; includeSubDomains"));
    }
    if let Ok(policy) = HeaderValue::from_str(&content_security_policy(&nonce.0, &form_targets, files.as_deref())) {
        headers.entry(header::CONTENT_SECURITY_POLICY).or_insert(policy);
    }
    let pairs = [
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "strict-origin-when-cross-origin"),
        ("permissions-policy", "camera=(), microphone=(), geolocation=(self), payment=(self)"),
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
    fn the_policy_allows_scripts_only_with_the_nonce() {
        let a = CspNonce::new();
        assert_eq!(a.0.len(), 32);
        assert_ne!(a.0, CspNonce::new().0, "a fresh nonce per answer");
        let policy = content_security_policy(&a.0, &[], None);
        assert!(policy.contains(&format!("script-src 'nonce-{}' 'strict-dynamic' 'wasm-unsafe-eval';", a.0)), "{policy}");
        assert!(!policy.split(';').find(|d| d.trim().starts_with("script-src")).unwrap().contains("unsafe-inline"));
        assert!(policy.contains("default-src 'self'") && policy.contains("frame-ancestors 'none'") && policy.contains("object-src 'none'"));
        assert!(policy.ends_with("form-action 'self'"));
        assert!(content_security_policy("n", &["https://www.mollie.com"], None).ends_with("form-action 'self' https://www.mollie.com"));
        assert!(HeaderValue::from_str(&policy).is_ok(), "one header line");
    }

    #[test]
    fn a_cdn_serves_files_but_never_runs_scripts_of_its_own() {
        assert_eq!(prefix_origin("https://cdn.vonk.nl/site/"), Some("https://cdn.vonk.nl".into()));
        assert_eq!(prefix_origin("http://127.0.0.1:3108"), Some("http://127.0.0.1:3108".into()));
        assert_eq!(prefix_origin(""), None);
        assert_eq!(prefix_origin("https://x.nl; script-src *"), None, "a stored value that would add a directive is ignored");
        let policy = content_security_policy("n", &[], Some("https://cdn.vonk.nl"));
        for directive in ["style-src", "img-src", "media-src", "font-src", "connect-src"] {
            let d = policy.split(';').find(|d| d.trim().starts_with(directive)).unwrap();
            assert!(d.contains("https://cdn.vonk.nl"), "{d}");
        }
        let scripts = policy.split(';').find(|d| d.trim().starts_with("script-src")).unwrap();
        assert!(!scripts.contains("cdn.vonk.nl"), "scripts run by the nonce and what they load, never by host");
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
