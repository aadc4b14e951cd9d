//! The web app manifest (PWA), per site: each site installs under its own name and colours.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/manifest.webmanifest", get(manifest))
}

/// The installed app opens on search, stands alone (SPEC §2's own back button), and has the
/// site's name and theme colour. Icons: the vector mark, PNGs for launchers, and a maskable one.
pub fn manifest_json(name: &str, theme_colour: &str) -> String {
    let theme = if domain::site::Theme::is_valid_colour(theme_colour) { theme_colour } else { "#8b0d1a" };
    serde_json::json!({
        "id": "/",
        "name": name,
        "short_name": name,
        "start_url": "/members",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fff8f7",
        "theme_color": theme,
        "icons": [
            { "src": "/favicon.svg", "sizes": "any", "type": "image/svg+xml" },
            { "src": "/icon-192.png", "sizes": "192x192", "type": "image/png" },
            { "src": "/icon-512.png", "sizes": "512x512", "type": "image/png" },
            { "src": "/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable" }
        ]
    })
    .to_string()
}

async fn manifest(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let Some(site) = super::visitor::site(&state.sites, &headers) else { return StatusCode::NOT_FOUND.into_response() };
    (
        [(header::CONTENT_TYPE, "application/manifest+json"), (header::CACHE_CONTROL, "public, max-age=3600"), (header::VARY, "Host")],
        manifest_json(&site.name, &site.theme.primary),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_manifest_carries_the_sites_name_and_a_safe_colour() {
        let m: serde_json::Value = serde_json::from_str(&super::manifest_json("Vonk \"BE\"", "#123abc")).unwrap();
        assert_eq!((m["name"].as_str(), m["theme_color"].as_str(), m["display"].as_str()), (Some("Vonk \"BE\""), Some("#123abc"), Some("standalone")));
        assert_eq!(m["icons"].as_array().unwrap().iter().filter(|i| i["purpose"] == "maskable").count(), 1);
        let m: serde_json::Value = serde_json::from_str(&super::manifest_json("Vonk", "red;}")).unwrap();
        assert_eq!(m["theme_color"], "#8b0d1a");
    }
}
