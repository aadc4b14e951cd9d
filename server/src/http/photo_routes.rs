//! Photo endpoints: upload (multipart), main/private/delete on one's own photos, the checked
//! file route `/media/photos/{id}[/thumb]`, and the staff review actions.
//!
//! Forms get a redirect back to `/profile#photos` with `saved=` or `error=`; callers that ask
//! for JSON (the chat footer, later) get `{"id":…}` or `{"code":…}`.

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Form, Json, Router};
use domain::photo::{Access, UploadError};
use http::{header, StatusCode};
use serde::Deserialize;

use crate::error::PublicError;
use crate::http::member_routes::{authentication_required, wants_json};
use crate::http::session::CurrentMember;
use crate::http::visitor;
use crate::members::photos::PhotoError;
use crate::state::AppState;

/// The request body limit of the upload route: above any configurable photo size, so that
/// the configured limit (checked while reading) answers with its own translated text.
const UPLOAD_BODY_LIMIT: usize = 65 << 20;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/profile/photos", post(upload).layer(DefaultBodyLimit::max(UPLOAD_BODY_LIMIT)))
        .route("/api/profile/photos/{id}/main", post(set_main))
        .route("/api/profile/photos/{id}/private", post(set_private))
        .route("/api/profile/photos/{id}/delete", post(delete))
        .route("/media/photos/{id}", get(full))
        .route("/media/photos/{id}/thumb", get(thumb))
        .route("/api/staff/photos/{id}/approve", post(approve))
        .route("/api/staff/photos/{id}/reject", post(reject))
}

fn done(headers: &HeaderMap, back: &str, result: Result<i64, PhotoError>) -> Response {
    let json = wants_json(headers);
    match result {
        Ok(id) if json => Json(serde_json::json!({ "id": id })).into_response(),
        Ok(_) => Redirect::to(&format!("{back}?saved=photo#photos")).into_response(),
        Err(error) => {
            let key = error.key();
            if json {
                let status = match error {
                    PhotoError::NotFound => StatusCode::NOT_FOUND,
                    PhotoError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
                    PhotoError::Upload(UploadError::TooLarge) => StatusCode::PAYLOAD_TOO_LARGE,
                    PhotoError::Upload(_) => StatusCode::UNPROCESSABLE_ENTITY,
                };
                (status, Json(PublicError { code: key.into() })).into_response()
            } else {
                Redirect::to(&format!("{back}?error={key}#photos")).into_response()
            }
        }
    }
}

/// Reads the form: the `photo` file (at most the configured size) and the `private` box.
async fn read_upload(mut multipart: Multipart, max: usize) -> Result<(Vec<u8>, bool), UploadError> {
    let mut photo = None;
    let mut private = false;
    while let Some(mut field) = multipart.next_field().await.map_err(|_| UploadError::TooLarge)? {
        match field.name() {
            Some("photo") => {
                let mut bytes = Vec::new();
                while let Some(chunk) = field.chunk().await.map_err(|_| UploadError::TooLarge)? {
                    if bytes.len() + chunk.len() > max {
                        return Err(UploadError::TooLarge);
                    }
                    bytes.extend_from_slice(&chunk);
                }
                photo = Some(bytes);
            }
            Some("private") => private = true,
            _ => {}
        }
    }
    match photo {
        Some(bytes) if !bytes.is_empty() => Ok((bytes, private)),
        _ => Err(UploadError::NoFile),
    }
}

async fn upload(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, "/profile") };
    let result = match multipart {
        Err(_) => Err(PhotoError::Upload(UploadError::NoFile)),
        Ok(multipart) => match read_upload(multipart, state.photos.max_bytes()).await {
            Err(e) => Err(PhotoError::Upload(e)),
            Ok((bytes, private)) => state.photos.upload(m, bytes, private, state.accounts.clock().now()).await,
        },
    };
    done(&headers, "/profile", result)
}

async fn set_main(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Path(id): Path<i64>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, "/profile") };
    done(&headers, "/profile", state.photos.set_main(m.id, id).await.map(|()| id))
}

#[derive(Deserialize)]
pub struct PrivateFields {
    #[serde(default)]
    private: Option<String>,
}

async fn set_private(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Path(id): Path<i64>, Form(f): Form<PrivateFields>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, "/profile") };
    let private = f.private.is_some_and(|v| v == "1" || v == "on");
    done(&headers, "/profile", state.photos.set_private(m.id, id, private).await.map(|()| id))
}

async fn delete(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Path(id): Path<i64>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, "/profile") };
    done(&headers, "/profile", state.photos.delete(m.id, id).await.map(|()| id))
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
            error.public();
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

async fn review(state: AppState, headers: HeaderMap, current: CurrentMember, id: i64, approve: bool) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, "/staff/photos") };
    if !m.staff {
        return (StatusCode::FORBIDDEN, Json(PublicError { code: "forbidden".into() })).into_response();
    }
    let Some(site) = visitor::site(&state.sites, &headers) else { return StatusCode::NOT_FOUND.into_response() };
    match state.photos.review(m, site.settings.id, id, approve, state.accounts.clock().now()).await {
        Ok(()) => Redirect::to(&format!("/staff/photos?saved={}", if approve { "approved" } else { "rejected" })).into_response(),
        Err(error) => Redirect::to(&format!("/staff/photos?error={}", error.key())).into_response(),
    }
}

async fn approve(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Path(id): Path<i64>) -> Response {
    review(state, headers, current, id, true).await
}

async fn reject(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Path(id): Path<i64>) -> Response {
    review(state, headers, current, id, false).await
}
