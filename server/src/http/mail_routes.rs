//! Mail-related endpoints: notification preferences, one-click unsubscribe (RFC 8058), the mail
//! provider's bounce and spam-complaint reports, and dismissing alerts.
//!
//! `/api/unsubscribe` and `/api/mail-events` are called by mail programs and providers, not by
//! our pages, so the same-origin guard lets them through; a token in the URL or a shared secret
//! is what authorises them, and neither reads the session cookie.

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::post;
use axum::{Extension, Form, Json, Router};
use http::StatusCode;
use serde::Deserialize;

use crate::accounts::{DisabledReason, NotificationPrefs};
use crate::error::AppError;
use crate::http::member_routes::authentication_required;
use crate::http::session::CurrentMember;
use crate::http::visitor;
use crate::state::AppState;

/// Paths that the same-origin guard does not check (see the module comment).
pub const TOKEN_AUTHORISED_PATHS: [&str; 2] = ["/api/unsubscribe", "/api/mail-events"];

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/account/notifications", post(save_prefs))
        .route("/api/account/notifications/enable", post(enable))
        .route("/api/alerts/dismiss", post(dismiss))
        .route("/api/unsubscribe", post(unsubscribe))
        .route("/api/mail-events", post(mail_event))
}

#[derive(Deserialize)]
pub struct PrefFields {
    messages: Option<String>,
    likes: Option<String>,
    news: Option<String>,
}

async fn save_prefs(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Form(f): Form<PrefFields>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, "/settings") };
    let prefs = NotificationPrefs { messages: f.messages.is_some(), likes: f.likes.is_some(), news: f.news.is_some() };
    match state.accounts.set_notification_prefs(m.id, prefs).await {
        Ok(()) => Redirect::to("/settings?saved=notifications#notifications").into_response(),
        Err(error) => {
            error.public();
            Redirect::to("/settings?error=error.generic#notifications").into_response()
        }
    }
}

#[derive(Deserialize)]
pub struct ReturnFields {
    return_to: Option<String>,
}

async fn enable(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Form(f): Form<ReturnFields>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, "/settings") };
    let back = visitor::safe_return_path(f.return_to.as_deref());
    match state.accounts.enable_notifications(m.id).await {
        Ok(()) => Redirect::to(&back).into_response(),
        Err(error) => {
            error.public();
            Redirect::to("/settings?error=error.generic").into_response()
        }
    }
}

#[derive(Deserialize)]
pub struct DismissFields {
    alert: String,
    return_to: Option<String>,
}

async fn dismiss(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Form(f): Form<DismissFields>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, "/") };
    let back = visitor::safe_return_path(f.return_to.as_deref());
    match state.accounts.dismiss_alert(m.id, &f.alert).await {
        Ok(()) => Redirect::to(&back).into_response(),
        Err(error) => (error.status(), Json(error.public())).into_response(),
    }
}

#[derive(Deserialize)]
pub struct TokenQuery {
    token: String,
    /// Set by our own confirmation page: answer with a redirect instead of a bare 200.
    page: Option<String>,
}

/// RFC 8058: the mail program POSTs `List-Unsubscribe=One-Click` to the URL of the header.
/// Unknown tokens answer the same as known ones (nothing to learn by guessing).
async fn unsubscribe(State(state): State<AppState>, Query(q): Query<TokenQuery>) -> Response {
    if let Err(error) = state.accounts.unsubscribe(&q.token).await {
        return (error.status(), Json(error.public())).into_response();
    }
    if q.page.is_some() {
        Redirect::to("/unsubscribe?done=1").into_response()
    } else {
        (StatusCode::OK, "unsubscribed").into_response()
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
    let Some(secret) = state.config.mail_events_secret.as_deref() else { return AppError::NotFound.into_response() };
    let given = headers.get(http::header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer ")).unwrap_or("");
    if !constant_time_eq(given.as_bytes(), secret.as_bytes()) {
        return (StatusCode::UNAUTHORIZED, Json(crate::error::PublicError { code: "unauthorized".into() })).into_response();
    }
    let reason = match event.event.as_str() {
        "bounce" => DisabledReason::Bounce,
        "complaint" | "spam" => DisabledReason::Spam,
        _ => return AppError::Invalid("unknown_event").into_response(),
    };
    match state.accounts.mail_event(&event.email, reason).await {
        Ok(count) => Json(serde_json::json!({ "accounts": count })).into_response(),
        Err(error) => error.into_response(),
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
