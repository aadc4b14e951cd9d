//! Endpoints that mail programs and providers call, not our pages: RFC 8058 one-click
//! unsubscribe and the mail provider's bounce and spam-complaint reports. The same-origin guard
//! lets them through; a token in the URL or a shared secret is what authorises them, and neither
//! reads the session cookie.

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use base64ct::Encoding;
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

/// A mail provider reports hard bounces or spam complaints: our own `{"event": "bounce" |
/// "complaint", "email": …}`, or an Amazon SES notification (through SNS or SES's event
/// publishing; [`crate::mail::reports::parse_ses`]). Authorised by
/// `Authorization: Bearer {VONK_MAIL_EVENTS_SECRET}`, or HTTP basic authentication with that
/// secret as the password (SNS sends the credentials of its subscription's URL that way);
/// without that setting the endpoint is off.
async fn mail_event(State(state): State<AppState>, headers: HeaderMap, body: axum::body::Bytes) -> Response {
    let Some(secret) = state.config.mail_events_secret.as_deref() else { return AppError::from(ErrorCode::NotFound).into_response() };
    if !authorised(&headers, secret) {
        return (StatusCode::UNAUTHORIZED, Json(ApiError::new(ErrorCode::Forbidden))).into_response();
    }
    let Ok(body) = serde_json::from_slice::<serde_json::Value>(&body) else { return AppError::from(ErrorCode::BadRequest).into_response() };
    if let Some(url) = crate::mail::reports::sns_subscribe_url(&body) {
        // Confirmed by hand: Vonk never fetches an address a request names.
        tracing::warn!(%url, "an SNS subscription to mail events waits for confirmation: open this address once");
        return Json(serde_json::json!({ "accounts": 0 })).into_response();
    }
    let reports = match (body.get("event").and_then(|e| e.as_str()), body.get("email").and_then(|e| e.as_str())) {
        (Some(event), Some(email)) => {
            let reason = match event {
                "bounce" => DisabledReason::Bounce,
                "complaint" | "spam" => DisabledReason::Spam,
                _ => return AppError::from(ErrorCode::BadRequest).into_response(),
            };
            let message_id = body.get("message_id").and_then(|m| m.as_str()).map(str::to_string);
            vec![crate::mail::reports::MailReport { address: email.to_string(), reason, message_id }]
        }
        _ => crate::mail::reports::parse_ses(&body),
    };
    let mut accounts = 0;
    for report in reports {
        match state.accounts.mail_report(&report).await {
            Ok(count) => accounts += count,
            Err(error) => return error.into_response(),
        }
    }
    Json(serde_json::json!({ "accounts": accounts })).into_response()
}

/// `Bearer {secret}`, or basic authentication whose password is the secret.
fn authorised(headers: &HeaderMap, secret: &str) -> bool {
    let given = headers.get(http::header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or("");
    if let Some(token) = given.strip_prefix("Bearer ") {
        return constant_time_eq(token.as_bytes(), secret.as_bytes());
    }
    let password = given
        .strip_prefix("Basic ")
        .and_then(|b| base64ct::Base64::decode_vec(b.trim()).ok())
        .and_then(|raw| String::from_utf8(raw).ok())
        .and_then(|pair| pair.split_once(':').map(|(_, password)| password.to_string()));
    password.is_some_and(|p| constant_time_eq(p.as_bytes(), secret.as_bytes()))
}
