//! What operators and load balancers ask: `/health` (the process answers), `/ready` (and its
//! database does), `/metrics` (Prometheus, with the operator's token), and the request id that
//! every log line of a request carries and every answer returns as `x-request-id`.

use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tracing::Instrument;

use crate::state::AppState;

pub const REQUEST_ID: &str = "x-request-id";

/// `/health`, `/ready` and `/metrics`, outside the page middleware (no session lookup).
pub fn routes(state: AppState) -> Router {
    Router::new().route("/health", get(health)).route("/ready", get(ready)).route("/metrics", get(metrics)).with_state(state)
}

async fn health() -> Response {
    ([(header::CACHE_CONTROL, "no-store")], "ok").into_response()
}

/// Ready while the database answers within two seconds; a load balancer stops sending requests
/// to a node that is not. With scheduled backups the details follow on the next lines (a
/// failed backup does not make the node unready: it can still serve).
async fn ready(State(state): State<AppState>) -> Response {
    let ping = sqlx::query("SELECT 1").execute(state.db.pool());
    let problem = match tokio::time::timeout(Duration::from_secs(2), ping).await {
        Ok(Ok(_)) => {
            let mut body = String::from("ready");
            if state.config.backup.is_some() {
                let status = crate::backup::status();
                match (&status.last_failure, status.last_success_at) {
                    (Some((at, error)), _) => body.push_str(&format!("\nbackup: failed at {}: {error}", domain::date::from_unix(*at))),
                    (None, Some(at)) => body.push_str(&format!("\nbackup: ok at {}", domain::date::from_unix(at))),
                    (None, None) => body.push_str("\nbackup: none yet"),
                }
            }
            return ([(header::CACHE_CONTROL, "no-store")], body).into_response();
        }
        Ok(Err(error)) => error.to_string(),
        Err(_) => "no answer within 2 s".to_string(),
    };
    tracing::warn!(%problem, "not ready: the database is unavailable");
    (StatusCode::SERVICE_UNAVAILABLE, [(header::CACHE_CONTROL, "no-store")], "database unavailable").into_response()
}

/// Prometheus's scrape, for whoever holds `VONK_METRICS_TOKEN` (as a bearer token). Without a
/// token configured there is no such page.
async fn metrics(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let Some(token) = state.config.metrics_token.as_deref() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let given = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer ")).unwrap_or("");
    if !crate::accounts::tokens::constant_time_eq(given.as_bytes(), token.as_bytes()) {
        return (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, "Bearer")]).into_response();
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4"), (header::CACHE_CONTROL, "no-store")], crate::metrics::render(&state.db)).into_response()
}

/// Middleware: the request's id — the one a proxy in front sent when it looks like an id
/// (letters, digits, `-`, `_`, `.`, up to 64), otherwise a new one — on the tracing span of
/// everything the request logs, and on the answer.
pub async fn request_id(mut request: Request, next: Next) -> Response {
    let id = request.headers().get(REQUEST_ID).and_then(|v| v.to_str().ok()).filter(|v| plausible_id(v)).map(str::to_string).unwrap_or_else(new_id);
    let value = HeaderValue::from_str(&id).expect("ids are visible ASCII");
    request.headers_mut().insert(REQUEST_ID, value.clone());
    let span = tracing::info_span!("request", id = %id, method = %request.method(), path = %request.uri().path());
    let mut response = next.run(request).instrument(span).await;
    response.headers_mut().insert(REQUEST_ID, value);
    response
}

/// This process's random prefix and a counter: unique across nodes and restarts, and cheap
/// (no system call per request).
fn new_id() -> String {
    static PREFIX: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let prefix = PREFIX.get_or_init(crate::accounts::tokens::random_hex::<6>);
    format!("{prefix}-{}", NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
}

fn plausible_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::plausible_id;

    #[test]
    fn only_short_plain_ids_are_taken_from_the_proxy() {
        assert!(plausible_id("4bf92f3577b34da6a3ce929d0e0e4736"));
        assert!(plausible_id("req-1.2_3"));
        assert!(!plausible_id(""));
        assert!(!plausible_id(&"a".repeat(65)));
        assert!(!plausible_id("a b"));
        assert!(!plausible_id("x\u{e9}"));
        assert!(!plausible_id("id\r\nSet-Cookie: a=b"));
    }
}
