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
        // A photo staff may still turn down is not kept: once it is, the recipient sees it no more.
        Ok(Some((bytes, keep))) => {
            ([(header::CACHE_CONTROL, if keep { "private, max-age=86400" } else { "no-store" }), (header::CONTENT_TYPE, "image/jpeg")], Body::from(bytes))
                .into_response()
        }
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

/// Whether the browser takes WebP (every current browser says so in `Accept` for images).
pub fn takes_webp(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|t| t.split(';').next().is_some_and(|t| t.trim().eq_ignore_ascii_case("image/webp"))))
}

/// A photo file after the access check, as WebP for browsers that take it. Addresses never
/// change content, so browsers may keep them; `private` keeps shared caches out because the
/// answer depends on who asks, and `Vary` names what the answer depends on.
async fn serve(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, id: i64, thumb: bool) -> Response {
    let Some(site) = visitor::site(&state.sites, &headers) else { return StatusCode::NOT_FOUND.into_response() };
    match state.photos.file(current.0.as_ref(), site.settings.id, id, thumb, takes_webp(&headers)).await {
        Ok(Ok(file)) => {
            let etag = format!("\"p{id}{}{}\"", if thumb { "t" } else { "" }, if file.content_type == "image/webp" { "w" } else { "" });
            let cache =
                [(header::CACHE_CONTROL, "private, max-age=86400".to_string()), (header::ETAG, etag.clone()), (header::VARY, "Cookie, Accept".to_string())];
            if headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
                return (StatusCode::NOT_MODIFIED, cache).into_response();
            }
            (cache, [(header::CONTENT_TYPE, file.content_type)], Body::from(file.bytes)).into_response()
        }
        Ok(Err(Access::LoginRequired | Access::PremiumRequired)) => (StatusCode::FORBIDDEN, [(header::CACHE_CONTROL, "no-store")]).into_response(),
        Ok(Err(_)) => (StatusCode::NOT_FOUND, [(header::CACHE_CONTROL, "no-store")]).into_response(),
        Err(error) => {
            error.into_public();
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// In front of the public media folder (demo portraits): a request for `X.jpg` from a browser
/// that takes WebP gets `X.webp` when it lies beside it. Every JPEG answer there says `Vary: Accept`.
pub async fn public_webp(
    axum::extract::State(root): axum::extract::State<std::sync::Arc<std::path::PathBuf>>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let path = request.uri().path().to_string();
    let Some(stem) = path.strip_suffix(".jpg") else { return next.run(request).await };
    if takes_webp(request.headers()) && !path.split('/').any(|part| part == "..") {
        let webp = format!("{stem}.webp");
        if tokio::fs::try_exists(root.join(webp.trim_start_matches('/'))).await.unwrap_or(false) {
            if let Ok(uri) = webp.parse::<http::Uri>() {
                *request.uri_mut() = uri;
            }
        }
    }
    let mut response = next.run(request).await;
    response.headers_mut().append(header::VARY, http::HeaderValue::from_static("Accept"));
    response
}
