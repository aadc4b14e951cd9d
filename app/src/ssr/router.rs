//! The whole application as one axum router: pages, server functions, the server's own routes,
//! static files, and the layers around them.

use std::sync::Arc;

use axum::extract::{FromRef, State};
use axum::response::{Html, IntoResponse, Response};
use axum::Router;
use domain::ApiError;
use http::request::Parts;
use http::{header, HeaderValue, StatusCode};
use leptos::prelude::*;
use leptos_axum::{generate_route_list, LeptosRoutes};
use server::AppState;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

use super::page_context::page_ctx;
use crate::app::{shell, App};

/// The router's state: Leptos' options beside our application state.
#[derive(Clone, FromRef)]
pub struct ServerState {
    pub leptos_options: LeptosOptions,
    pub app: AppState,
}

/// A lifecycle message's sign-in link, `/{token}` (SPEC §2): a `GET` of a path that is one
/// token (64 hex characters) goes to the page that asks before signing in, or, for the member
/// it belongs to who is signed in already (a tapped push opens in the browser that holds the
/// session), straight to its page: signing in again would end that session and the browser's
/// push subscription with it. As a layer rather than a route so that the site's own files at
/// the root (`/sw.js`, `/robots.txt`) keep their way.
pub async fn sign_in_link(State(app): State<AppState>, request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let token = request.uri().path().strip_prefix('/').filter(|t| server::accounts::tokens::is_well_formed(t));
    match token {
        Some(token) if request.method() == http::Method::GET || request.method() == http::Method::HEAD => {
            let member = request.extensions().get::<server::http::CurrentMember>().and_then(|m| m.0.as_ref()).map(|m| m.id);
            if let Some(member) = member {
                match app.accounts.sign_in_link_target_for(token, member).await {
                    Ok(Some(target)) => return axum::response::Redirect::to(&server::http::visitor::safe_return_path(Some(&target))).into_response(),
                    Ok(None) => {}
                    Err(error) => tracing::warn!(%error, "could not look at a sign-in link"),
                }
            }
            axum::response::Redirect::to(&crate::features::account::sign_in_link::page(token)).into_response()
        }
        _ => next.run(request).await,
    }
}

/// Server functions answer a refusal with Leptos' 500 and the error's JSON, whether our code
/// refused or Leptos could not read the arguments. This gives JSON clients the code's own status
/// (`ErrorCode::http_status`, e.g. SPEC §8's 403 for `authentication_required`). Form posts
/// without JavaScript are redirects and stay as they are.
pub async fn server_fn_status(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let response = next.run(request).await;
    if response.status() != StatusCode::INTERNAL_SERVER_ERROR || !response.headers().contains_key(leptos::server_fn::error::SERVER_FN_ERROR_HEADER) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 64 * 1024).await else {
        return (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(ApiError::new(domain::ErrorCode::Internal))).into_response();
    };
    if let Ok(error) = serde_json::from_slice::<ApiError>(&bytes) {
        parts.status = StatusCode::from_u16(error.code.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    }
    Response::from_parts(parts, axum::body::Body::from(bytes))
}

/// Leptos options for the compiled site. `LEPTOS_SITE_ROOT` points at the built assets
/// (default `target/site`, as scripts/build-site.sh builds them).
pub fn leptos_options(addr: std::net::SocketAddr) -> LeptosOptions {
    let site_root = std::env::var("LEPTOS_SITE_ROOT").unwrap_or_else(|_| "target/site".into());
    LeptosOptions::builder().output_name("vonk").site_root(site_root).site_pkg_dir("pkg").site_addr(addr).build()
}

/// The contexts every page and server function gets: the state, and this request's CSP nonce
/// (set by `server::http::security_headers`), which Leptos writes on each of its scripts.
fn provide_page_context(app: &AppState, assets: &Arc<crate::context::AssetUrls>) {
    provide_context(app.clone());
    provide_context(assets.clone());
    if let Some(nonce) = use_context::<Parts>().and_then(|parts| parts.extensions.get::<server::http::CspNonce>().cloned()) {
        provide_context(leptos::nonce::Nonce::from_value(nonce.0));
    }
}

/// The whole application as an axum router.
pub fn router(app: AppState, leptos_options: LeptosOptions) -> Router {
    let page_cache = app.config.page_cache;
    router_with_page_cache(app, leptos_options, page_cache)
}

/// The routes, generated once per process. Generating them switches resource loading off for
/// the whole process while it runs (leptos_server's `SuppressResourceLoad` is a global flag), and
/// a resource first polled in that window never loads: a page rendered at that moment by another
/// router of the same process (the HTTP tests start dozens; the bench starts two) waited forever.
fn route_list() -> Vec<leptos_axum::AxumRouteListing> {
    static ROUTES: std::sync::OnceLock<Vec<leptos_axum::AxumRouteListing>> = std::sync::OnceLock::new();
    ROUTES.get_or_init(|| generate_route_list(App)).clone()
}

/// The address pattern of every page the router serves (`/members/{id}`), for tests that
/// visit them all.
pub fn page_paths() -> Vec<String> {
    route_list().iter().map(|route| route.path().to_string()).collect()
}

/// The application with visitors' pages kept `page_cache` long (zero: every page rendered;
/// `make bench` measures both).
pub fn router_with_page_cache(app: AppState, leptos_options: LeptosOptions, page_cache: std::time::Duration) -> Router {
    let routes = route_list();
    let state = ServerState { leptos_options: leptos_options.clone(), app: app.clone() };
    let site_root = leptos_options.site_root.to_string();
    let assets = Arc::new(crate::assets::Assets::load(std::path::Path::new(&site_root)));
    let urls = Arc::new(crate::context::AssetUrls {
        stylesheet: assets.url("pkg/vonk.css"),
        script_root: assets.script_root(),
        widgets: assets.url("widgets/vonk-widgets.js"),
        dev_reload: app.config.dev_reload,
    });
    let context = {
        let (app, urls) = (app.clone(), urls.clone());
        move || provide_page_context(&app, &urls)
    };
    let render = {
        let options = leptos_options.clone();
        let app = app.clone();
        move || {
            let parts = use_context::<Parts>().unwrap_or_else(|| http::Request::new(()).into_parts().0);
            shell(options.clone(), page_ctx(&app, &parts))
        }
    };
    let public_media = app.config.data_dir.join("media/public");
    let cached = |dir: String| {
        tower::ServiceBuilder::new()
            .layer(SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600")))
            // Public renditions, the same for everyone: also fetched through a site's CDN.
            .layer(SetResponseHeaderLayer::overriding(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*")))
            .service(ServeDir::new(dir))
    };
    let not_found = {
        let app = app.clone();
        let app_for_context = app.clone();
        leptos_axum::file_and_error_handler_with_context::<ServerState, _>(
            move || provide_page_context(&app_for_context, &urls),
            move |opts: LeptosOptions| {
                let parts = use_context::<Parts>().unwrap_or_else(|| http::Request::new(()).into_parts().0);
                shell(opts, page_ctx(&app, &parts))
            },
        )
    };
    Router::new()
        .leptos_routes_with_context(&state, routes, context, render)
        .merge(server::http::routes().with_state(app.clone()))
        // The link in like mails (SPEC §2 `likes-m-id`): that member's profile, for any client.
        .route(
            "/likes/m/{id}",
            axum::routing::get(|axum::extract::Path(id): axum::extract::Path<i64>| async move { axum::response::Redirect::to(&crate::paths::member(id)) }),
        )
        // Public renditions only (approved, not private); originals never live here.
        .nest_service(
            "/media/public",
            tower::ServiceBuilder::new()
                .layer(axum::middleware::from_fn_with_state(Arc::new(public_media.clone()), server::http::photo_routes::public_webp))
                .service(cached(public_media.display().to_string())),
        )
        .fallback(not_found)
        .with_state(state)
        .layer(axum::middleware::from_fn(server_fn_status))
        .layer(axum::middleware::from_fn_with_state(app.clone(), sign_in_link))
        .layer(axum::middleware::from_fn_with_state(
            super::body_guard::Limits {
                multipart_bytes: super::body_guard::multipart_limit(app.config.photo_max_bytes),
                multipart_functions: super::body_guard::multipart_functions().into(),
            },
            super::body_guard::guard,
        ))
        .layer(axum::middleware::from_fn_with_state(Arc::new(crate::page_cache::PageCache::new(page_cache)), crate::page_cache::serve))
        .layer(axum::middleware::from_fn_with_state(app.clone(), server::http::payment_routes::settle_before_result_page))
        .layer(axum::middleware::from_fn_with_state(app.clone(), server::http::tracking::count_visit))
        .layer(axum::middleware::from_fn_with_state(app.clone(), server::http::resolve_member))
        .layer(axum::middleware::from_fn_with_state(app.clone(), server::http::tracking::remember))
        .layer(axum::middleware::from_fn_with_state(app.clone(), server::http::same_origin_guard))
        .layer(axum::middleware::from_fn_with_state(app.clone(), server::http::security_headers))
        .layer(CompressionLayer::new())
        // A request gets this long until its answer starts (a chat socket's upgrade answers at
        // once and is not cut); slow clients cannot hold a worker forever.
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, app.config.request_timeout))
        .layer(CatchPanicLayer::custom(panic_page))
        .layer(axum::middleware::from_fn(server::metrics::track))
        // The site's files from memory, and the operators' /health, /ready and /metrics, outside
        // the page layers (no session, nonce or compression).
        .merge(crate::assets::router(assets))
        .merge(server::http::ops::routes(app.clone()))
        .merge(server::http::site_logo::routes(app.clone()))
        .merge(server::http::dev_reload::routes(app.config.dev_reload))
        // Outermost: every request (files included) has an id that its log lines carry.
        .layer(axum::middleware::from_fn(server::http::ops::request_id))
}

/// What a visitor sees when rendering a page (or the error page) failed outright.
fn panic_page(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    tracing::error!("a request panicked while rendering");
    (StatusCode::INTERNAL_SERVER_ERROR, Html(PANIC_PAGE)).into_response()
}

/// Static on purpose: it must render even when translations or the database are the problem.
/// Dutch first (the default locale), English below.
pub const PANIC_PAGE: &str = "<!DOCTYPE html><html lang=\"nl\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>Fout</title></head>\
<body style=\"font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f1a1c\">\
<h1>Er is een fout opgetreden bij het tonen van de foutpagina</h1><p lang=\"en\">An error occurred while showing the error page.</p>\
<p><a href=\"/\" style=\"color:#8b0d1a\">Terug naar de startpagina</a> · <a href=\"/\" lang=\"en\" style=\"color:#8b0d1a\">Back to the home page</a></p></body></html>";
