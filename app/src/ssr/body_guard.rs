//! What a server function's request body must be before Leptos reads it. The multipart codec
//! of `server_fn` panics on a multipart request without a boundary, and reads a multipart body
//! as a stream without any limit of its own (the per-field limits of
//! [`crate::call::read_upload_form`] do not bound the number of fields). So, for server
//! functions:
//! - a multipart request without a boundary, or a body of another kind to a function that takes
//!   a multipart one, is refused with `bad_request` (400 for a script, the form's page with the
//!   error for a browser);
//! - a multipart body may be at most [`multipart_limit`] bytes: one that says it is larger is
//!   refused before a byte of it is read, and one that grows past it while it streams stops
//!   there. The upload functions then answer their translated `photo_too_large`, and the
//!   connection closes after a refusal instead of reading the rest of the body.
//!
//! Other bodies of server functions are read whole by Leptos, within axum's default limit
//! (2 MiB, `DefaultBodyLimit`).

use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use domain::{ApiError, ErrorCode};
use http::{header, Method, StatusCode};

/// Room for a multipart body's boundaries, part headers and small text fields beside its file.
pub const MULTIPART_OVERHEAD: usize = 64 * 1024;

/// The largest multipart body a server function reads: the largest file any upload function
/// takes (a photo, `VONK_PHOTO_MAX_BYTES`, or a logo) plus [`MULTIPART_OVERHEAD`].
pub fn multipart_limit(photo_max_bytes: usize) -> usize {
    photo_max_bytes.max(domain::staff::LOGO_MAX_BYTES) + MULTIPART_OVERHEAD
}

/// The server functions that take a multipart body (their codec reads nothing else).
pub fn multipart_functions() -> Vec<&'static str> {
    use leptos::server_fn::ServerFn;
    vec![
        crate::features::account::server_fns::UploadPhoto::PATH,
        crate::features::chat::server_fns::SendChatPhoto::PATH,
        crate::features::staff::site_setup::StaffSiteLogo::PATH,
    ]
}

/// What the middleware knows: [`multipart_limit`]'s answer and [`multipart_functions`].
#[derive(Clone, Debug)]
pub struct Limits {
    pub multipart_bytes: usize,
    pub multipart_functions: std::sync::Arc<[&'static str]>,
}

/// The middleware.
pub async fn guard(State(limits): State<Limits>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST || !request.uri().path().starts_with("/api/fn/") {
        return next.run(request).await;
    }
    let limit = limits.multipart_bytes;
    let content_type = request.headers().get(header::CONTENT_TYPE).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned()).unwrap_or_default();
    let multipart = content_type.trim_start().to_ascii_lowercase().starts_with("multipart/");
    let takes_multipart = limits.multipart_functions.contains(&request.uri().path());
    if !multipart && !takes_multipart {
        return next.run(request).await;
    }
    // A multipart function reads nothing else, and a multipart body needs its boundary.
    if !multipart || multer::parse_boundary(&content_type).is_err() {
        tracing::debug!(path = %request.uri().path(), "a multipart request without a boundary");
        return close_after(refuse(&request, ApiError::new(ErrorCode::BadRequest)));
    }
    let declared = request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<u64>().ok());
    let (parts, body) = request.into_parts();
    let body = if declared.is_some_and(|n| n > limit as u64) {
        // Not read at all: the function's reader fails at once and answers its refusal.
        Body::from_stream(futures_util::stream::once(async { Err::<axum::body::Bytes, std::io::Error>(std::io::Error::other("body larger than allowed")) }))
    } else {
        Body::new(http_body_util::Limited::new(body, limit))
    };
    let response = next.run(Request::from_parts(parts, body)).await;
    if response.status().is_success()
        || response.status().is_redirection() && !response.headers().get(header::LOCATION).is_some_and(|l| l.to_str().unwrap_or_default().contains("__err="))
    {
        response
    } else {
        close_after(response)
    }
}

/// A refused multipart body may not have been read to its end: the connection closes after the
/// answer instead of reading (and discarding) the rest of an upload that can be endless.
fn close_after(mut response: Response) -> Response {
    response.headers_mut().insert(header::CONNECTION, http::HeaderValue::from_static("close"));
    response
}

/// A refusal as a server function gives it: a browser's form post goes back to its page with
/// the error in the address (as Leptos does), a script gets the status and `{"code":…}`.
fn refuse(request: &Request, error: ApiError) -> Response {
    let accepts_html = request.headers().get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|a| a.contains("text/html"));
    let referer = request.headers().get(header::REFERER).and_then(|v| v.to_str().ok()).and_then(|r| reqwest::Url::parse(r).ok());
    if let (true, Some(referer)) = (accepts_html, referer) {
        let page = format!("http://page{}", referer.path());
        if let Ok(url) = leptos::server_fn::error::ServerFnUrlError::new(request.uri().path(), error.clone()).to_url(&page) {
            let location = crate::call::header_safe_location(&format!("{}?{}", url.path(), url.query().unwrap_or_default()));
            return (StatusCode::FOUND, [(header::LOCATION, location)]).into_response();
        }
    }
    let status = StatusCode::from_u16(error.code.http_status()).unwrap_or(StatusCode::BAD_REQUEST);
    (status, axum::Json(error)).into_response()
}
