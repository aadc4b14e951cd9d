//! `POST /settings/data-export`: the member's data as one zip (see [`crate::privacy`]). A POST
//! from the settings page's form, not a link: each export uses up part of the member's hourly
//! quota, so another site must not be able to start one (the same-origin guard refuses its
//! post, and a link or an image there is a GET, which only leads back to the settings page).
//! Refusals go back to the settings page, which says why in the member's language. A file
//! download is no server function's answer, which is why this is a route of its own.

use axum::body::Body;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::{Extension, Router};

use crate::http::rate_limit::Limit;
use crate::http::session::CurrentMember;
use crate::state::AppState;

pub const PATH: &str = "/settings/data-export";

pub fn routes() -> Router<AppState> {
    Router::new().route(PATH, get(|| async { Redirect::to("/settings#data") }).post(export))
}

async fn export(State(state): State<AppState>, Extension(current): Extension<CurrentMember>) -> Response {
    let Some(member) = current.0 else { return Redirect::to("/login").into_response() };
    let now = state.clock.now();
    if state.rate_limiter.check_member(Limit::DataExport, member.id, now).await.is_err() {
        return Redirect::to("/settings?export=too_many#data").into_response();
    }
    let locale = domain::Locale::parse(&member.language).unwrap_or(domain::Locale::DEFAULT);
    match crate::privacy::export(&state.db, &state.media, &state.catalog, locale, member.id, now).await {
        Ok(file) => {
            let length = file.metadata().map(|m| m.len()).unwrap_or(0);
            let stream = tokio_util::io::ReaderStream::new(tokio::fs::File::from_std(file));
            let d = domain::date::from_unix(now);
            let name = format!("attachment; filename=\"vonk-data-{:04}-{:02}-{:02}.zip\"", d.year, d.month, d.day);
            (
                [
                    (header::CONTENT_TYPE, "application/zip".to_string()),
                    (header::CONTENT_DISPOSITION, name),
                    (header::CONTENT_LENGTH, length.to_string()),
                    (header::CACHE_CONTROL, "no-store".to_string()),
                ],
                Body::from_stream(stream),
            )
                .into_response()
        }
        Err(error) => {
            error.into_public();
            (StatusCode::SEE_OTHER, [(header::LOCATION, "/settings?export=failed#data")]).into_response()
        }
    }
}
