//! The bounce beacon of landers opened with `lb` (SPEC §9): the page's first script sends an
//! empty JSON body here when the page is hidden before the visitor clicked anything; the page
//! it came from is the request's Referer (same origin, so the whole address).

use domain::ApiError;
use leptos::prelude::*;

#[cfg(feature = "ssr")]
use crate::call::{call, fail};

/// Stores a bounce of the referring page when its URL has `lb`; anything else is ignored.
#[server(prefix = "/api/fn", endpoint = "page_bounce", input = leptos::server_fn::codec::Json)]
pub async fn page_bounce(#[server(default)] page: Option<String>) -> Result<(), ApiError> {
    let c = call().await?;
    let _ = page;
    c.state.rate_limiter.check(server::http::rate_limit::Limit::Bounce, c.client_ip(), c.now()).await.map_err(fail)?;
    let referer = c.parts.headers.get(http::header::REFERER).and_then(|v| v.to_str().ok()).unwrap_or_default();
    // Only this site's own pages: scheme and host as the request's.
    let host = server::http::visitor::host(&c.parts.headers).unwrap_or_default();
    let Some(rest) = referer.strip_prefix("https://").or_else(|| referer.strip_prefix("http://")) else { return Ok(()) };
    let Some(path) = rest.strip_prefix(host).filter(|p| !host.is_empty() && p.starts_with('/')) else { return Ok(()) };
    c.state.landers.record_bounce(c.site.settings.id, path, c.now()).await.map_err(fail)?;
    Ok(())
}
