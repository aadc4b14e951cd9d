//! What every server function shares: the request's state, site and member ([`call`],
//! [`member_call`]), the one place errors leave the server ([`fail`], [`fail_back`]),
//! redirects, cookies and the upload reader. Imports no page: features import this.

use std::sync::Arc;

use domain::ApiError;
use http::request::Parts;
use http::{header, HeaderValue};
use leptos::prelude::*;
use server::sites::Site;
use server::{AppError, AppState};

/// What a server function knows about its request.
pub struct Call {
    pub state: AppState,
    pub site: Arc<Site>,
    pub parts: Parts,
}

impl Call {
    /// `now` by the application's one clock.
    pub fn now(&self) -> i64 {
        self.state.clock.now()
    }

    /// The base of links in mails for this site.
    pub fn base_url(&self) -> String {
        self.state.base_url(&self.site)
    }

    /// The member asking, if any.
    pub fn viewer(&self) -> Option<server::accounts::Member> {
        server::http::Viewer::from_parts(&self.parts).0
    }

    /// The peer's address (per-address limits).
    pub fn client_ip(&self) -> std::net::IpAddr {
        server::http::ClientIp::from_parts(&self.parts).0
    }

    /// The address, device and country of this request, for sessions and security events.
    pub fn client(&self) -> server::accounts::Client {
        let user_agent = self.parts.headers.get(http::header::USER_AGENT).and_then(|v| v.to_str().ok());
        server::accounts::Client::new(Some(self.client_ip().to_string()), user_agent, Some(self.country()))
            .with_time_zone(self.cookie(domain::constants::TIME_ZONE_COOKIE).as_deref())
            .with_visitor(self.visitor())
    }

    /// The country of this request (the member's, else GeoIP's, else the site's).
    pub fn country(&self) -> String {
        server::http::visitor::country(&self.parts.extensions, &self.site)
    }

    /// The browser's first-party visitor cookie, when it holds one the site could have made.
    pub fn visitor(&self) -> Option<String> {
        self.cookie(server::visits::VISITOR_COOKIE).filter(|v| server::accounts::tokens::is_well_formed(v))
    }

    /// A cookie of the request.
    pub fn cookie(&self, name: &str) -> Option<String> {
        server::http::cookies::get(&self.parts.headers, name)
    }
}

/// For server functions: the state and the site of this request (the same extractor the HTTP
/// handlers use).
pub async fn call() -> Result<Call, ApiError> {
    use axum::extract::FromRequestParts;
    let state = use_context::<AppState>().ok_or_else(|| fail(AppError::Internal("AppState missing".into())))?;
    let mut parts = use_context::<Parts>().ok_or_else(|| fail(AppError::Internal("request parts missing".into())))?;
    let server::http::RequestSite(site) = server::http::RequestSite::from_request_parts(&mut parts, &state).await.map_err(fail)?;
    Ok(Call { state, site, parts })
}

/// For server functions only members may call: also the member, or `authentication_required`
/// (SPEC §8: 403 with `{"code":"authentication_required"}` for JSON clients).
pub async fn member_call() -> Result<(Call, server::accounts::Member), ApiError> {
    use axum::extract::FromRequestParts;
    let mut call = call().await?;
    let server::http::RequireMember(member) = server::http::RequireMember::from_request_parts(&mut call.parts, &call.state).await.map_err(fail)?;
    Ok((call, member))
}

/// For staff server functions: the member, when they are staff of this site with a role that
/// opens `area` and two-step login on (`two_step_required` without it); anyone else — a visitor
/// too — is told the function's subject does not exist (`not_found`, 404), as staff pages answer.
/// The services check again.
pub async fn staff_call(area: domain::staff::StaffArea) -> Result<(Call, server::accounts::Member), ApiError> {
    let (call, member) = member_call().await.map_err(|_| fail(domain::ErrorCode::NotFound))?;
    server::staff::require_staff(&member, call.site.settings.id, area).map_err(fail)?;
    Ok((call, member))
}

/// The one boundary of server functions: logs the error (internal causes in full, once) and
/// returns its public part. [`server_fn_status`] gives the answer its HTTP status.
pub fn fail(error: impl Into<AppError>) -> ApiError {
    error.into().into_public()
}

/// Whether the browser posted a plain form (no JavaScript): it then gets a redirect.
pub fn accepts_html() -> bool {
    use_context::<Parts>().and_then(|p| p.headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).map(|a| a.contains("text/html"))).unwrap_or(false)
}

/// [`fail`] for a form posted without JavaScript that should keep what was typed: the browser
/// goes back to `page` with `kept` in its query, beside the error Leptos reads back.
pub fn fail_back<S: leptos::server_fn::ServerFn>(error: impl Into<AppError>, page: &str, kept: &[(&str, &str)]) -> ApiError {
    let public = fail(error);
    if accepts_html() {
        let base = format!("http://page{page}");
        if let Ok(mut url) = leptos::server_fn::error::ServerFnUrlError::new(S::PATH, public.clone()).to_url(&base) {
            let pairs: Vec<(String, String)> = url.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
            url.query_pairs_mut().clear().extend_pairs(kept.iter().copied().filter(|(_, v)| !v.is_empty())).extend_pairs(pairs);
            redirect(&format!("{}?{}", url.path(), url.query().unwrap_or_default()));
        }
    }
    public
}

/// A photo upload form as read: the `photo` file (at most `max` bytes, counted while reading,
/// before anything is decoded) and its small text fields (at most 1 KiB each).
pub struct PhotoForm {
    pub photo: Vec<u8>,
    pub fields: std::collections::BTreeMap<String, String>,
}

/// Reads a multipart photo form. Refusals: `photo_too_large` (with `max` in MiB), `photo_no_file`.
pub async fn read_photo_form(data: leptos::server_fn::codec::MultipartData, max: usize) -> Result<PhotoForm, ApiError> {
    read_upload_form(data, "photo", max).await
}

/// The most parts an upload form may have (its file and its small fields).
pub const UPLOAD_FIELDS_MAX: usize = 8;

/// Reads a multipart form with one picture file named `file` (at most `max` bytes, counted
/// while reading); refusals as [`read_photo_form`]'s.
pub async fn read_upload_form(data: leptos::server_fn::codec::MultipartData, file: &str, max: usize) -> Result<PhotoForm, ApiError> {
    use domain::photo::UploadError;
    const FIELD_MAX: usize = 1024;
    let mut multipart = data.into_inner().ok_or_else(|| fail(domain::ErrorCode::BadRequest))?;
    let too_large = || fail(ApiError::new(UploadError::TooLarge.code()).with("max", max.div_ceil(1 << 20)));
    let (mut photo, mut fields) = (None, std::collections::BTreeMap::new());
    let mut count = 0;
    while let Some(mut field) = multipart.next_field().await.map_err(|_| too_large())? {
        // A form of ours has a file and two or three small fields: a body of many is refused
        // at the first one too many, before it is read further.
        count += 1;
        if count > UPLOAD_FIELDS_MAX {
            return Err(fail(domain::ErrorCode::BadRequest));
        }
        let name = field.name().unwrap_or_default().to_string();
        let limit = if name == file { max } else { FIELD_MAX };
        let mut bytes = Vec::new();
        while let Some(chunk) = field.chunk().await.map_err(|_| too_large())? {
            if bytes.len() + chunk.len() > limit {
                return Err(if name == file { too_large() } else { fail(domain::ErrorCode::BadRequest) });
            }
            // Grow by doubling, but never past the limit: eight uploads near it in parallel
            // hold eight times 10 MiB, not eight times the next power of two (16 MiB).
            let needed = bytes.len() + chunk.len();
            if needed > bytes.capacity() {
                let target = needed.max(bytes.capacity() * 2).min(limit);
                bytes.reserve_exact(target - bytes.len());
            }
            bytes.extend_from_slice(&chunk);
        }
        if name == file {
            photo = Some(bytes);
        } else {
            fields.insert(name, String::from_utf8(bytes).map_err(|_| fail(domain::ErrorCode::BadRequest))?);
        }
    }
    let photo = photo.filter(|b| !b.is_empty()).ok_or_else(|| fail(UploadError::NoFile.code()))?;
    Ok(PhotoForm { photo, fields })
}

/// Sets a cookie on the answer of this server function.
pub fn set_cookie(cookie: String) {
    if let (Some(options), Ok(value)) = (use_context::<leptos_axum::ResponseOptions>(), HeaderValue::from_str(&cookie)) {
        options.append_header(header::SET_COOKIE, value);
    }
}

/// Sends the browser on to `path` (a form post gets a 302; the islands' client follows the
/// server-function redirect header). Every redirect of the app goes through here: what is not
/// allowed in a header (a control character, a space, a non-ASCII letter a member typed) is
/// percent-encoded, so no input can break the answer's headers.
pub fn redirect(path: &str) {
    leptos_axum::redirect(&header_safe_location(path));
}

/// `location` with every byte outside printable ASCII percent-encoded.
pub fn header_safe_location(location: &str) -> String {
    let mut out = String::with_capacity(location.len());
    for b in location.bytes() {
        if (0x21..=0x7e).contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
