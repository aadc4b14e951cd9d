//! Visitors' pages, rendered once and reused for a few seconds (README, Performance).
//!
//! What a visitor sees on `/`, the info pages, `/pricing`, `/members` and a profile depends on the
//! address (host, path and query), the language asked for, the visitor's cookies and country
//! (`server::geoip`), and on data
//! that changes rarely. So the rendered page is kept under exactly those inputs for
//! `VONK_PAGE_CACHE_SECS` (default 5, 0: off). Members' pages are never kept: they carry the
//! member's counters, likes and blocks.
//!
//! The page's scripts carry this request's Content-Security-Policy nonce; a kept page is stored
//! split at the nonce it was rendered with and joined with the new request's nonce, so every answer
//! still has a fresh one. Only complete `200` HTML answers that set no cookie are kept.
//!
//! A visitor page that comes to depend on anything else of the request (the client's address, a
//! header) must add it to [`Key`], or leave [`keepable`].
//!
//! Freshness: a change in who can be found (`server::members::search_cache::invalidate`) and
//! every reload of the site settings make what was kept stale at once on this node.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{header, HeaderMap, Method, StatusCode};
use server::ttl_cache::TtlCache;

/// At most this many pages are kept (a page is 15–30 KB).
const MAX_ENTRIES: usize = 2048;
/// Larger answers are not kept.
const MAX_BYTES: usize = 256 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    host: String,
    uri: String,
    language: String,
    cookies: String,
    /// The visitor's country (languages offered, packs and payment methods on `/pricing`).
    country: Option<String>,
    /// The design of a lander under a split test this visitor is shown (`server::splits`).
    shown: Option<String>,
}

impl Key {
    fn of(request: &Request) -> Key {
        let headers = request.headers();
        let text = |name: header::HeaderName| headers.get_all(name).iter().filter_map(|v| v.to_str().ok()).collect::<Vec<_>>().join("; ");
        Key {
            host: text(header::HOST),
            uri: request.uri().path_and_query().map(|p| p.as_str().to_string()).unwrap_or_default(),
            language: text(header::ACCEPT_LANGUAGE),
            cookies: text(header::COOKIE),
            country: request.extensions().get::<server::geoip::DetectedCountry>().and_then(|c| c.0.clone()),
            shown: request.extensions().get::<server::splits::Shown>().map(|s| s.design.clone()),
        }
    }
}

/// A rendered page: its headers and its body cut at the nonce.
#[derive(Debug)]
#[doc(hidden)]
pub struct Page {
    headers: HeaderMap,
    pieces: Vec<String>,
    len: usize,
}

impl Page {
    pub fn new(headers: HeaderMap, body: &str, nonce: &str) -> Page {
        let pieces: Vec<String> = body.split(nonce).map(str::to_string).collect();
        Page { headers, len: body.len(), pieces }
    }

    /// The page with `nonce` where the old one was.
    pub fn body(&self, nonce: &str) -> String {
        let mut body = String::with_capacity(self.len + self.pieces.len() * nonce.len());
        for (i, piece) in self.pieces.iter().enumerate() {
            if i > 0 {
                body.push_str(nonce);
            }
            body.push_str(piece);
        }
        body
    }

    fn response(&self, nonce: &str) -> Response {
        let mut response = Response::new(Body::from(self.body(nonce)));
        *response.headers_mut() = self.headers.clone();
        response
    }
}

/// The kept pages of this process.
#[derive(Debug)]
pub struct PageCache(TtlCache<Key, Arc<Page>>);

impl PageCache {
    pub fn new(ttl: Duration) -> PageCache {
        PageCache(TtlCache::new(ttl, MAX_ENTRIES))
    }
}

/// What makes everything kept so far stale.
fn generation() -> u64 {
    server::members::search_cache::SearchCache::generation().wrapping_add(server::sites::SiteCache::generation())
}

/// The visitor pages that may be kept; everything else (account pages with tokens in their
/// links, forms, server functions, media) always runs.
#[doc(hidden)]
pub fn keepable(path: &str) -> bool {
    match path {
        "/" | "/pricing" | "/members" => true,
        _ => {
            if let Some(slug) = path.strip_prefix("/pages/") {
                return !slug.is_empty() && slug.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
            }
            path.strip_prefix("/members/").is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
        }
    }
}

/// The middleware; it runs after the session is resolved (it must know there is no member) and
/// inside the security headers (the request's nonce is known).
pub async fn serve(State(cache): State<Arc<PageCache>>, request: Request, next: Next) -> Response {
    let visitor = matches!(request.extensions().get::<server::http::CurrentMember>(), Some(server::http::CurrentMember(None)));
    let nonce = request.extensions().get::<server::http::CspNonce>().map(|n| n.0.clone());
    let Some(nonce) = nonce.filter(|_| cache.0.enabled() && visitor && request.method() == Method::GET && keepable(request.uri().path())) else {
        return next.run(request).await;
    };
    let key = Key::of(&request);
    let generation = generation();
    if let Some(page) = cache.0.get(&key, generation) {
        return page.response(&nonce);
    }
    let response = next.run(request).await;
    let html = response.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("text/html"));
    if response.status() != StatusCode::OK || !html || response.headers().contains_key(header::SET_COOKIE) {
        return response;
    }
    let (parts, body) = response.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_BYTES).await {
        Ok(bytes) => bytes,
        Err(error) => {
            // Too large to keep, or the rendering failed half-way: this answer is lost either way.
            tracing::error!(%error, "a visitor page could not be read for the page cache");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    let mut headers = parts.headers.clone();
    headers.remove(header::CONTENT_LENGTH);
    cache.0.put(key, generation, Arc::new(Page::new(headers, text, &nonce)));
    Response::from_parts(parts, Body::from(bytes))
}
