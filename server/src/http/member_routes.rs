//! Endpoints for logged-in members: account settings and the activation reminder's resend.
//! Without a valid session they answer 403 `authentication_required` to API clients (SPEC §8)
//! and send browsers to the login page, which brings them back afterwards.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::post;
use axum::{Extension, Form, Json, Router};
use domain::constants::{AUTH_COOKIE, AUTH_COOKIE_DAYS};
use http::header::SET_COOKIE;
use http::StatusCode;
use serde::Deserialize;

use crate::accounts::Member;
use crate::error::PublicError;
use crate::http::session::CurrentMember;
use crate::http::{cookies, visitor};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/account/password", post(change_password))
        .route("/api/account/invisible", post(set_invisible))
        .route("/api/account/resend-activation", post(resend_activation))
        .route("/api/account/email", post(change_email))
        .route("/api/account/delete", post(delete_account))
}

/// Whether the caller asked for JSON (scripts and widgets) rather than a page.
pub fn wants_json(headers: &HeaderMap) -> bool {
    headers.get(http::header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|a| a.contains("application/json"))
}

/// The answer to a member-only call without a session.
pub fn authentication_required(headers: &HeaderMap, return_to: &str) -> Response {
    if wants_json(headers) {
        (StatusCode::FORBIDDEN, Json(PublicError { code: "authentication_required".into() })).into_response()
    } else {
        Redirect::to(&format!("/login?return_to={return_to}")).into_response()
    }
}

fn member(current: &CurrentMember) -> Option<&Member> {
    current.0.as_ref()
}

#[derive(Deserialize)]
pub struct PasswordFields {
    old_password: String,
    password: String,
    password_repeat: String,
}

async fn change_password(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Form(f): Form<PasswordFields>) -> Response {
    let Some(m) = member(&current) else { return authentication_required(&headers, "/settings") };
    match state.accounts.change_password(m.id, &f.old_password, &f.password, &f.password_repeat).await {
        Ok(session) => (
            [(SET_COOKIE, cookies::set(AUTH_COOKIE, &session, AUTH_COOKIE_DAYS, state.config.secure_cookies))],
            Redirect::to("/settings?saved=password"),
        )
            .into_response(),
        Err(error) => Redirect::to(&format!("/settings?error={}", error.key())).into_response(),
    }
}

#[derive(Deserialize)]
pub struct InvisibleFields {
    #[serde(default)]
    invisible: Option<String>,
}

async fn set_invisible(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Form(f): Form<InvisibleFields>) -> Response {
    let Some(m) = member(&current) else { return authentication_required(&headers, "/settings") };
    match state.accounts.set_invisible(m.id, f.invisible.is_some()).await {
        Ok(()) => Redirect::to("/settings?saved=invisible").into_response(),
        Err(error) => {
            error.public();
            Redirect::to("/settings?error=error.generic").into_response()
        }
    }
}

#[derive(Deserialize)]
pub struct EmailFields {
    email: String,
}

async fn change_email(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Form(f): Form<EmailFields>) -> Response {
    let Some(m) = member(&current) else { return authentication_required(&headers, "/settings") };
    let Some(site) = visitor::site(&state.sites, &headers) else { return Redirect::to("/settings?error=error.generic").into_response() };
    match state.accounts.request_email_change(&site.settings, m.id, &f.email, &state.base_url(&site)).await {
        Ok(()) => Redirect::to("/settings?saved=email").into_response(),
        Err(error) => Redirect::to(&format!("/settings?error={}", error.key())).into_response(),
    }
}

#[derive(Deserialize)]
pub struct DeleteFields {
    password: String,
    #[serde(default)]
    reason: String,
}

async fn delete_account(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Form(f): Form<DeleteFields>) -> Response {
    let Some(m) = member(&current) else { return authentication_required(&headers, "/settings") };
    let Some(site) = visitor::site(&state.sites, &headers) else { return Redirect::to("/settings?error=error.generic").into_response() };
    match state.accounts.delete_account(&site.settings, m.id, &f.password, &f.reason, &state.base_url(&site)).await {
        Ok(()) => {
            ([(SET_COOKIE, cookies::clear(AUTH_COOKIE, state.config.secure_cookies))], Redirect::to("/account-deleted")).into_response()
        }
        Err(error) => Redirect::to(&format!("/settings?error={}", error.key())).into_response(),
    }
}

#[derive(Deserialize)]
pub struct ResendFields {
    return_to: Option<String>,
}

async fn resend_activation(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Form(f): Form<ResendFields>) -> Response {
    let Some(m) = member(&current) else { return authentication_required(&headers, "/") };
    let back = visitor::safe_return_path(f.return_to.as_deref());
    let sep = if back.contains('?') { '&' } else { '?' };
    let Some(site) = visitor::site(&state.sites, &headers) else { return Redirect::to("/").into_response() };
    match state.accounts.resend_activation(&site.settings, m.id, &state.base_url(&site)).await {
        Ok(()) => Redirect::to(&format!("{back}{sep}activation=sent")).into_response(),
        Err(error) => Redirect::to(&format!("{back}{sep}error={}", error.key())).into_response(),
    }
}
