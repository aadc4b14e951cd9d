//! Account form endpoints: signup, login, logout and the activation link. They answer with a
//! redirect (303) so they work as plain HTML forms; errors return to the form with a code.

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use domain::account::{SignupForm, Tracking};
use domain::constants::{AUTH_COOKIE, AUTH_COOKIE_DAYS};
use http::header::SET_COOKIE;
use serde::Deserialize;

use crate::accounts::{AccountError, SignupRequest};
use crate::http::{cookies, visitor};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/signup", post(signup))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/activate", get(activate))
        .route("/api/mail-change", get(confirm_mail_change))
        .route("/api/reactivate", get(reactivate))
        .route("/api/reset-password", post(request_reset))
        .route("/api/reset-password/do", post(do_reset))
}

fn session_cookie(state: &AppState, token: &str) -> String {
    cookies::set(AUTH_COOKIE, token, AUTH_COOKIE_DAYS, state.config.secure_cookies)
}

fn back_with_error(path: &str, error: &AccountError) -> Response {
    let mut url = format!("{path}?error={}", error.key());
    if let AccountError::Locked { minutes } = error {
        url.push_str(&format!("&minutes={minutes}"));
    }
    Redirect::to(&url).into_response()
}

#[derive(Deserialize)]
pub struct SignupFields {
    email: String,
    name: String,
    password: String,
    date_of_birth: String,
    #[serde(default)]
    signup_message: String,
    network: Option<String>,
    r#ref: Option<String>,
    sub1: Option<String>,
    sub2: Option<String>,
    sub3: Option<String>,
    profile: Option<String>,
}

async fn signup(State(state): State<AppState>, headers: HeaderMap, Form(f): Form<SignupFields>) -> Response {
    let Some(site) = visitor::site(&state.sites, &headers) else { return Redirect::to("/signup?error=error.generic").into_response() };
    let locale = visitor::locale(&headers, &site);
    let clip = |v: Option<String>| v.map(|s| s.chars().take(100).collect::<String>()).filter(|s| !s.trim().is_empty());
    let request = SignupRequest {
        site: &site.settings,
        form: SignupForm { email: f.email, name: f.name, password: f.password, date_of_birth: f.date_of_birth, signup_message: f.signup_message },
        tracking: Tracking { network: clip(f.network), r#ref: clip(f.r#ref), sub1: clip(f.sub1), sub2: clip(f.sub2), sub3: clip(f.sub3) },
        locale,
        base_url: state.base_url(&site),
    };
    // Signing up from one member's page (`/members/{id}/signup`) leads back to that member.
    let entry = f.profile.as_deref().and_then(|v| v.parse::<i64>().ok()).filter(|id| *id > 0);
    match state.accounts.signup(request).await {
        Ok((_, token)) => {
            let next = entry.map(|id| format!("/complete-signup?profile={id}")).unwrap_or_else(|| "/complete-signup".into());
            ([(SET_COOKIE, session_cookie(&state, &token))], Redirect::to(&next)).into_response()
        }
        Err(error) => back_with_error(&entry.map(|id| format!("/members/{id}/signup")).unwrap_or_else(|| "/signup".into()), &error),
    }
}

#[derive(Deserialize)]
pub struct LoginFields {
    email: String,
    password: String,
    return_to: Option<String>,
}

async fn login(State(state): State<AppState>, headers: HeaderMap, Form(f): Form<LoginFields>) -> Response {
    let Some(site) = visitor::site(&state.sites, &headers) else { return Redirect::to("/login?error=error.generic").into_response() };
    let previous = cookies::get(&headers, AUTH_COOKIE);
    match state.accounts.login(site.settings.id, &f.email, &f.password, previous.as_deref()).await {
        Ok(token) => ([(SET_COOKIE, session_cookie(&state, &token))], Redirect::to(&visitor::safe_return_path(f.return_to.as_deref()))).into_response(),
        Err(error) => back_with_error("/login", &error),
    }
}

async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Some(token) = cookies::get(&headers, AUTH_COOKIE) {
        if let Err(error) = state.accounts.logout(&token).await {
            tracing::error!(%error, "logout failed");
        }
    }
    ([(SET_COOKIE, cookies::clear(AUTH_COOKIE, state.config.secure_cookies))], Redirect::to("/")).into_response()
}

#[derive(Deserialize)]
pub struct ResetRequestFields {
    email: String,
}

async fn request_reset(State(state): State<AppState>, headers: HeaderMap, Form(f): Form<ResetRequestFields>) -> Response {
    let Some(site) = visitor::site(&state.sites, &headers) else { return Redirect::to("/reset-password?error=error.generic").into_response() };
    match state.accounts.request_password_reset(&site.settings, &f.email, &state.base_url(&site)).await {
        Ok(()) => Redirect::to("/reset-password?sent=1").into_response(),
        Err(error) => back_with_error("/reset-password", &error),
    }
}

#[derive(Deserialize)]
pub struct ResetFields {
    token: String,
    password: String,
    password_repeat: String,
}

async fn do_reset(State(state): State<AppState>, Form(f): Form<ResetFields>) -> Response {
    match state.accounts.reset_password(&f.token, &f.password, &f.password_repeat).await {
        Ok(session) => ([(SET_COOKIE, session_cookie(&state, &session))], Redirect::to("/")).into_response(),
        Err(error) => {
            // Only a well-formed token goes back into the URL.
            let token = if crate::accounts::tokens::is_well_formed(&f.token) { f.token.as_str() } else { "" };
            Redirect::to(&format!("/reset-password/do?token={token}&error={}", error.key())).into_response()
        }
    }
}

async fn reactivate(State(state): State<AppState>, Query(q): Query<ActivateQuery>) -> Response {
    match state.accounts.reactivate(&q.token).await {
        Ok(_) => Redirect::to("/account-deleted?reactivated=1").into_response(),
        Err(error) => Redirect::to(&format!("/account-deleted?error={}", error.key())).into_response(),
    }
}

async fn confirm_mail_change(State(state): State<AppState>, Query(q): Query<ActivateQuery>) -> Response {
    match state.accounts.confirm_email_change(&q.token).await {
        Ok(_) => Redirect::to("/mail-change/do?done=1").into_response(),
        Err(error) => Redirect::to(&format!("/mail-change/do?error={}", error.key())).into_response(),
    }
}

#[derive(Deserialize)]
pub struct ActivateQuery {
    token: String,
}

async fn activate(State(state): State<AppState>, Query(q): Query<ActivateQuery>) -> Response {
    match state.accounts.activate(&q.token).await {
        Ok(_) => Redirect::to("/activate/done").into_response(),
        Err(_) => Redirect::to("/activate/error").into_response(),
    }
}
