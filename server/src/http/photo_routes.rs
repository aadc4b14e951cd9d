//! Photo files: `/media/photos/{id}[/thumb]` and chat photos `/media/chat/{message}`, served
//! only after the access check. Uploads and
//! the owner's and staff's photo actions are server functions in the app.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use domain::photo::Access;
use http::{header, StatusCode};

use crate::http::session::CurrentMember;
use crate::http::visitor;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/media/photos/{id}", get(full)).route("/media/photos/{id}/thumb", get(thumb)).route("/media/chat/{id}", get(chat_photo))
}

/// A photo sent in a chat: for the conversation's two members only (404 for everyone else,
/// so that a guess learns nothing).
async fn chat_photo(State(state): State<AppState>, Extension(current): Extension<CurrentMember>, Path(id): Path<i64>) -> Response {
    let Some(viewer) = current.0 else { return (StatusCode::FORBIDDEN, [(header::CACHE_CONTROL, "no-store")]).into_response() };
    match state.chat.photo(viewer.id, id).await {
        Ok(Some(bytes)) => ([(header::CACHE_CONTROL, "private, max-age=86400"), (header::CONTENT_TYPE, "image/jpeg")], Body::from(bytes)).into_response(),
        Ok(None) => (StatusCode::NOT_FOUND, [(header::CACHE_CONTROL, "no-store")]).into_response(),
        Err(error) => {
            error.into_public();
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

async fn full(state: State<AppState>, headers: HeaderMap, current: Extension<CurrentMember>, Path(id): Path<i64>) -> Response {
    serve(state, headers, current, id, false).await
}

async fn thumb(state: State<AppState>, headers: HeaderMap, current: Extension<CurrentMember>, Path(id): Path<i64>) -> Response {
    serve(state, headers, current, id, true).await
}

/// A photo file after the access check. Addresses never change content, so browsers may keep
/// them; `private` keeps shared caches out because the answer depends on who asks.
async fn serve(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, id: i64, thumb: bool) -> Response {
    let Some(site) = visitor::site(&state.sites, &headers) else { return StatusCode::NOT_FOUND.into_response() };
    let etag = format!("\"p{id}{}\"", if thumb { "t" } else { "" });
    match state.photos.file(current.0.as_ref(), site.settings.id, id, thumb).await {
        Ok(Ok(bytes)) => {
            let cache = [(header::CACHE_CONTROL, "private, max-age=86400".to_string()), (header::ETAG, etag.clone()), (header::VARY, "Cookie".to_string())];
            if headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
                return (StatusCode::NOT_MODIFIED, cache).into_response();
            }
            (cache, [(header::CONTENT_TYPE, "image/jpeg")], Body::from(bytes)).into_response()
        }
        Ok(Err(Access::LoginRequired | Access::PremiumRequired)) => (StatusCode::FORBIDDEN, [(header::CACHE_CONTROL, "no-store")]).into_response(),
        Ok(Err(_)) => (StatusCode::NOT_FOUND, [(header::CACHE_CONTROL, "no-store")]).into_response(),
        Err(error) => {
            error.into_public();
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}
