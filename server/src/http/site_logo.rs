//! A site's uploaded logo, from memory (it is loaded with the settings). Its address carries
//! its version, so browsers keep it for a year; served outside the page layers (no session).

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::state::AppState;

pub fn routes(state: AppState) -> Router {
    Router::new().route("/site-logo/{file}", get(logo)).with_state(state)
}

async fn logo(State(state): State<AppState>, headers: HeaderMap, Path(file): Path<String>) -> Response {
    let Some(site) = super::visitor::site(&state.sites, &headers) else { return StatusCode::NOT_FOUND.into_response() };
    let (Some(current), Some(png)) = (site.logo.as_ref(), site.logo_png.clone()) else { return StatusCode::NOT_FOUND.into_response() };
    // An older version's address (a page cached before the change) gets today's logo, briefly.
    let cache = if file == format!("{}.png", current.version) { "public, max-age=31536000, immutable" } else { "public, max-age=300" };
    (
        [(header::CONTENT_TYPE, "image/png"), (header::CACHE_CONTROL, cache), (header::VARY, "Host"), (header::X_CONTENT_TYPE_OPTIONS, "nosniff")],
        axum::body::Bytes::from_owner(png),
    )
        .into_response()
}
