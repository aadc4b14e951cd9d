//! Endpoints that mail programs and providers call, not our pages: RFC 8058 one-click
//! unsubscribe and the mail provider's bounce and spam-complaint reports. The same-origin guard
//! lets them through; a token in the URL or a shared secret is what authorises them, and neither
//! reads the session cookie.

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use domain::{ApiError, ErrorCode};
use http::StatusCode;
use serde::Deserialize;

use crate::accounts::tokens::constant_time_eq;
use crate::accounts::DisabledReason;
use crate::error::AppError;
use crate::state::AppState;

/// Paths that the same-origin guard does not check (see the module comment).
pub const TOKEN_AUTHORISED_PATHS: [&str; 2] = ["/api/unsubscribe", "/api/mail-events"];

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/unsubscribe", post(unsubscribe)).route("/api/mail-events", post(mail_event))
}

#[derive(Deserialize)]
pub struct TokenQuery {
    token: String,
    /// A lifecycle message's kind: only that kind stops. An unknown kind stops every
    /// notification mail (the member asked for less mail; less it is).
    kind: Option<String>,
}

/// RFC 8058: the mail program POSTs `List-Unsubscribe=One-Click` to the URL of the header.
/// Unknown tokens answer the same as known ones (nothing to learn by guessing).
async fn unsubscribe(State(state): State<AppState>, Query(q): Query<TokenQuery>) -> Response {
    let result = match q.kind.as_deref().and_then(domain::lifecycle::LifecycleKind::parse) {
        Some(kind) => state.accounts.unsubscribe_from(&q.token, kind).await,
        None => state.accounts.unsubscribe(&q.token).await,
    };
    match result {
        Ok(_) => (StatusCode::OK, "unsubscribed").into_response(),
        Err(error) => error.into_response(),
    }
}

#[derive(Deserialize)]
pub struct MailEvent {
    /// `bounce` or `complaint` (a spam report).
    event: String,
    email: String,
}

/// A mail provider reports a hard bounce or a spam complaint. Authorised by
/// `Authorization: Bearer {VONK_MAIL_EVENTS_SECRET}`; without that setting the endpoint is off.
async fn mail_event(State(state): State<AppState>, headers: HeaderMap, Json(event): Json<MailEvent>) -> Response {
    let Some(secret) = state.config.mail_events_secret.as_deref() else { return AppError::from(ErrorCode::NotFound).into_response() };
    let given = headers.get(http::header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer ")).unwrap_or("");
    if !constant_time_eq(given.as_bytes(), secret.as_bytes()) {
        return (StatusCode::UNAUTHORIZED, Json(ApiError::new(ErrorCode::Forbidden))).into_response();
    }
    let reason = match event.event.as_str() {
        "bounce" => DisabledReason::Bounce,
        "complaint" | "spam" => DisabledReason::Spam,
        _ => return AppError::from(ErrorCode::BadRequest).into_response(),
    };
    match state.accounts.mail_event(&event.email, reason).await {
        Ok(count) => Json(serde_json::json!({ "accounts": count })).into_response(),
        Err(error) => error.into_response(),
    }
}
