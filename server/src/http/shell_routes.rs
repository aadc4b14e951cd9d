//! Form endpoints of the site shell. They work without JavaScript: a form posts, the server
//! sets a cookie and redirects back.

use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::post;
use axum::{Form, Router};
use domain::constants::{ENTRY_WARNING_COOKIE, ENTRY_WARNING_COOKIE_DAYS, LANGUAGE_COOKIE, LANGUAGE_COOKIE_DAYS};
use domain::Locale;
use http::header::SET_COOKIE;
use serde::Deserialize;

use crate::error::AppError;
use crate::http::{cookies, visitor};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/language", post(set_language)).route("/api/entry-warning", post(accept_entry_warning))
}

#[derive(Deserialize)]
pub struct LanguageForm {
    pub lang: String,
    pub return_to: Option<String>,
}

/// Stores the chosen language in the `i18n_redirected` cookie for a year.
async fn set_language(
    State(state): State<AppState>,
    current: Option<axum::Extension<crate::http::CurrentMember>>,
    Form(form): Form<LanguageForm>,
) -> Result<Response, AppError> {
    let locale = Locale::parse(&form.lang).filter(|l| l.code() == form.lang).ok_or(AppError::Invalid("unsupported_language"))?;
    if let Some(member) = current.and_then(|c| c.0 .0.clone()) {
        state.accounts.set_language(member.id, locale).await?;
    }
    let cookie = cookies::set(LANGUAGE_COOKIE, locale.code(), LANGUAGE_COOKIE_DAYS, state.config.secure_cookies);
    Ok(([(SET_COOKIE, cookie)], Redirect::to(&visitor::safe_return_path(form.return_to.as_deref()))).into_response())
}

#[derive(Deserialize)]
pub struct EntryForm {
    pub return_to: Option<String>,
}

/// Records that the visitor confirmed being an adult who wants to see adult content.
async fn accept_entry_warning(State(state): State<AppState>, Form(form): Form<EntryForm>) -> Response {
    let cookie = cookies::set(ENTRY_WARNING_COOKIE, "1", ENTRY_WARNING_COOKIE_DAYS, state.config.secure_cookies);
    ([(SET_COOKIE, cookie)], Redirect::to(&visitor::safe_return_path(form.return_to.as_deref()))).into_response()
}
