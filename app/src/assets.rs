//! The built site's files (stylesheet, hydration script and wasm, widget bundle, icons), read
//! into memory at start-up and served from there: no file system call, no session lookup and
//! no compression per request.
//!
//! - Versioned URLs: `/assets/{hash}/pkg/vonk.js`. The hash is over the content of the file's
//!   group (the stylesheet; the script with its wasm and snippets, which load each other by
//!   relative path; the widget bundle), so a group's URL changes exactly when its bytes do and
//!   browsers may keep it for a year (`immutable`). A URL with another hash is not found.
//! - Precompressed: `X.br` and `X.gz` written beside `X` by the build (`scripts/precompress.mjs`)
//!   are sent as they are to clients that accept them.
//! - The unversioned paths (`/pkg/…`, `/widgets/…`, `/favicon.svg`, `/sw.js`, the app icons)
//!   answer too, cached for an hour.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use axum::body::Body;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;
use sha2::{Digest, Sha256};

/// A year: versioned URLs never change their content.
#[doc(hidden)]
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
#[doc(hidden)]
pub const HOUR: &str = "public, max-age=3600";

#[derive(Debug)]
struct File {
    content_type: &'static str,
    identity: Bytes,
    gzip: Option<Bytes>,
    brotli: Option<Bytes>,
    /// The group's hash: the version in the file's URL.
    version: String,
}

/// The files of the built site, by path below the site root (`pkg/vonk.css`).
#[derive(Debug, Default)]
pub struct Assets {
    files: HashMap<String, File>,
    versions: HashMap<&'static str, String>,
}

/// Which files change together (see the module's notes).
fn group(path: &str) -> &'static str {
    if path.ends_with(".css") && path.starts_with("pkg/") {
        "style"
    } else if path.starts_with("pkg/") {
        "script"
    } else if path.starts_with("widgets/") {
        "widgets"
    } else {
        "root"
    }
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "svg" => "image/svg+xml",
        "webmanifest" => "application/manifest+json",
        "json" => "application/json",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

impl Assets {
    /// Reads every file below `root` (TypeScript declarations and compressed copies aside).
    /// A missing root gives an empty set: pages still render, their assets are not found.
    pub fn load(root: &Path) -> Assets {
        let mut paths = Vec::new();
        collect(root, root, &mut paths);
        paths.sort();
        let mut hashers: HashMap<&'static str, Sha256> = HashMap::new();
        let mut files = HashMap::new();
        for path in paths {
            let Ok(identity) = std::fs::read(root.join(&path)) else { continue };
            let hasher = hashers.entry(group(&path)).or_default();
            hasher.update(path.as_bytes());
            hasher.update(&identity);
            let sibling = |ext: &str| std::fs::read(root.join(format!("{path}.{ext}"))).ok().map(Bytes::from);
            let file =
                File { content_type: content_type(&path), gzip: sibling("gz"), brotli: sibling("br"), identity: Bytes::from(identity), version: String::new() };
            files.insert(path, file);
        }
        let versions: HashMap<&'static str, String> =
            hashers.into_iter().map(|(g, h)| (g, h.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect())).collect();
        for (path, file) in files.iter_mut() {
            file.version = versions.get(group(path)).cloned().unwrap_or_default();
        }
        Assets { files, versions }
    }

    /// The versioned URL of a file of the site (`pkg/vonk.css`), for pages to link to.
    pub fn url(&self, path: &str) -> String {
        format!("{}/{path}", self.root(group(path)))
    }

    /// `/assets/{hash}` for a group: the script's root as the hydration loader wants it.
    pub fn root(&self, group: &str) -> String {
        format!("/assets/{}", self.versions.get(group).map(String::as_str).unwrap_or("none"))
    }

    /// The script group's root (`/assets/{hash}`), below which `pkg/vonk.js` and its wasm live.
    pub fn script_root(&self) -> String {
        self.root("script")
    }

    #[doc(hidden)]
    pub fn respond(&self, path: &str, version: Option<&str>, headers: &HeaderMap) -> Response {
        let Some(file) = self.files.get(path).filter(|f| version.is_none_or(|v| v == f.version)) else {
            return StatusCode::NOT_FOUND.into_response();
        };
        let accepts = |coding: &str| {
            headers.get_all(header::ACCEPT_ENCODING).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).any(|part| {
                let mut it = part.split(';');
                it.next().is_some_and(|c| c.trim().eq_ignore_ascii_case(coding)) && !it.any(|p| matches!(p.trim(), "q=0" | "q=0.0" | "q=0.00" | "q=0.000"))
            })
        };
        let (body, coding) = match (&file.brotli, &file.gzip) {
            (Some(br), _) if accepts("br") => (br.clone(), Some("br")),
            (_, Some(gz)) if accepts("gzip") => (gz.clone(), Some("gzip")),
            _ => (file.identity.clone(), None),
        };
        let etag = format!("\"{}-{}\"", file.version, coding.unwrap_or("id"));
        let cache = if version.is_some() { IMMUTABLE } else { HOUR };
        let matches = headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()).is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
        let mut response = if matches { StatusCode::NOT_MODIFIED.into_response() } else { Response::new(Body::from(body)) };
        let h = response.headers_mut();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static(file.content_type));
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        // Public and the same for everyone: pages served from a CDN's address (`cdn_prefix`)
        // load these as cross-origin modules, wasm and fonts.
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
        if let Ok(value) = HeaderValue::from_str(&etag) {
            h.insert(header::ETAG, value);
        }
        if let Some(coding) = coding {
            h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
        }
        response
    }
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, out);
        } else if let Ok(relative) = path.strip_prefix(root) {
            let name = relative.to_string_lossy().replace('\\', "/");
            if !(name.ends_with(".gz") || name.ends_with(".br") || name.ends_with(".d.ts")) {
                out.push(name);
            }
        }
    }
}

async fn versioned(
    State(assets): State<Arc<Assets>>,
    axum::extract::Path((version, path)): axum::extract::Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    assets.respond(&path, Some(&version), &headers)
}

async fn unversioned(State(assets): State<Arc<Assets>>, uri: Uri, headers: HeaderMap) -> Response {
    assets.respond(uri.path().trim_start_matches('/'), None, &headers)
}

/// The routes of the site's files. Merged beside the page router, outside its layers.
pub fn router(assets: Arc<Assets>) -> Router {
    Router::new()
        .route("/assets/{version}/{*path}", axum::routing::get(versioned))
        .route("/pkg/{*path}", axum::routing::get(unversioned))
        .route("/widgets/{*path}", axum::routing::get(unversioned))
        .route("/favicon.svg", axum::routing::get(unversioned))
        // The service worker must live at the root to control every page.
        .route("/sw.js", axum::routing::get(unversioned))
        .route("/icon-192.png", axum::routing::get(unversioned))
        .route("/icon-512.png", axum::routing::get(unversioned))
        .route("/icon-maskable-512.png", axum::routing::get(unversioned))
        .with_state(assets)
}
