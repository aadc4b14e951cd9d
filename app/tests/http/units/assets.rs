//! Tests of `app::assets` (moved out of the crate: one compile of the app crate, not two).

use std::path::Path;
use std::sync::Arc;

use app::assets::*;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;

fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("pkg")).unwrap();
    std::fs::write(dir.path().join("pkg/vonk.js"), "export default 1").unwrap();
    std::fs::write(dir.path().join("pkg/vonk.js.br"), "BR").unwrap();
    std::fs::write(dir.path().join("pkg/vonk.js.gz"), "GZ").unwrap();
    std::fs::write(dir.path().join("pkg/vonk.wasm"), [0u8, 97, 115, 109]).unwrap();
    std::fs::write(dir.path().join("pkg/vonk.css"), "body{}").unwrap();
    dir
}

fn accept(coding: &str) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(coding).unwrap());
    h
}

async fn body(r: Response) -> Vec<u8> {
    axum::body::to_bytes(r.into_body(), 1 << 20).await.unwrap().to_vec()
}

#[tokio::test]
async fn a_file_is_served_precompressed_under_its_groups_hash_and_nowhere_else() {
    let dir = site();
    let assets = Assets::load(dir.path());
    let js = assets.url("pkg/vonk.js");
    assert!(js.starts_with("/assets/") && js.ends_with("/pkg/vonk.js"), "{js}");
    assert_eq!(assets.url("pkg/vonk.wasm").rsplit_once('/').unwrap().0.replace("/pkg", ""), assets.script_root(), "the wasm shares the script's root");
    assert_ne!(assets.url("pkg/vonk.css").split('/').nth(2), js.split('/').nth(2), "the stylesheet has its own version");
    let version = js.split('/').nth(2).unwrap().to_string();

    let r = assets.respond("pkg/vonk.js", Some(&version), &accept("gzip, deflate, br"));
    assert_eq!(r.headers()[header::CONTENT_ENCODING], "br");
    assert_eq!(r.headers()[header::CACHE_CONTROL], IMMUTABLE);
    assert_eq!(r.headers()[header::CONTENT_TYPE], "text/javascript; charset=utf-8");
    assert_eq!(r.headers()[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*", "loadable as a module from a CDN's address");
    assert_eq!(body(r).await, b"BR");
    let r = assets.respond("pkg/vonk.js", Some(&version), &accept("gzip;q=1, br;q=0"));
    assert_eq!(r.headers()[header::CONTENT_ENCODING], "gzip");
    assert_eq!(body(r).await, b"GZ");
    let r = assets.respond("pkg/vonk.js", Some(&version), &HeaderMap::new());
    assert!(r.headers().get(header::CONTENT_ENCODING).is_none());
    let etag = r.headers()[header::ETAG].clone();
    assert_eq!(body(r).await, b"export default 1");

    let mut again = HeaderMap::new();
    again.insert(header::IF_NONE_MATCH, etag);
    assert_eq!(assets.respond("pkg/vonk.js", Some(&version), &again).status(), StatusCode::NOT_MODIFIED);
    assert_eq!(assets.respond("pkg/vonk.js", Some("0123456789abcdef"), &HeaderMap::new()).status(), StatusCode::NOT_FOUND, "an old version");
    assert_eq!(assets.respond("pkg/missing.js", Some(&version), &HeaderMap::new()).status(), StatusCode::NOT_FOUND);
    assert_eq!(assets.respond("pkg/vonk.js.br", None, &HeaderMap::new()).status(), StatusCode::NOT_FOUND, "compressed copies are not files of their own");
    assert_eq!(assets.respond("pkg/vonk.css", None, &HeaderMap::new()).headers()[header::CACHE_CONTROL], HOUR);
}

#[tokio::test]
async fn the_service_worker_is_served_at_the_root() {
    use tower::ServiceExt;
    let public = Path::new(env!("CARGO_MANIFEST_DIR")).join("../public");
    let app = router(Arc::new(Assets::load(&public)));
    let r = app.oneshot(axum::http::Request::get("/sw.js?v=2").body(axum::body::Body::empty()).unwrap()).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()[header::CONTENT_TYPE], "text/javascript; charset=utf-8");
    let js = String::from_utf8(body(r).await).unwrap();
    assert!(js.contains("'NEW_PUSH_MESSAGE'") && js.contains("'NEW_PUSH_CLICK'") && js.contains("showNotification"));
    // The manifest's launcher icons.
    for icon in ["/icon-192.png", "/icon-512.png", "/icon-maskable-512.png"] {
        let r = router(Arc::new(Assets::load(&public))).oneshot(axum::http::Request::get(icon).body(axum::body::Body::empty()).unwrap()).await.unwrap();
        assert_eq!((r.status(), r.headers()[header::CONTENT_TYPE].to_str().unwrap()), (StatusCode::OK, "image/png"), "{icon}");
        assert!(body(r).await.starts_with(b"\x89PNG"), "{icon}");
    }
}

#[test]
fn a_changed_file_changes_its_groups_url_only() {
    let dir = site();
    let before = Assets::load(dir.path());
    std::fs::write(dir.path().join("pkg/vonk.css"), "body{color:red}").unwrap();
    let after = Assets::load(dir.path());
    assert_ne!(before.url("pkg/vonk.css"), after.url("pkg/vonk.css"));
    assert_eq!(before.url("pkg/vonk.js"), after.url("pkg/vonk.js"));
}
