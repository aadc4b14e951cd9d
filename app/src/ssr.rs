//! Server-side assembly: the page context from a request, helpers for server functions, and
//! the axum router with every layer. Used by the binary, the HTTP tests and the benchmark.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::FromRef;
use axum::response::{Html, IntoResponse, Response};
use axum::Router;
use http::request::Parts;
use http::{header, HeaderValue, StatusCode};
use leptos::prelude::*;
use leptos_axum::{generate_route_list, LeptosRoutes};
use server::sites::Site;
use server::{AppError, AppState};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::app::{shell, App};
use crate::context::{MemberView, PageCtx, SiteView};

/// The router's state: Leptos' options beside our application state.
#[derive(Clone, FromRef)]
pub struct ServerState {
    pub leptos_options: LeptosOptions,
    pub app: AppState,
}

/// The page context of one request.
pub fn page_ctx(state: &AppState, parts: &Parts) -> PageCtx {
    let site = server::http::visitor::site(&state.sites, &parts.headers).expect("the database has at least one site");
    let locale = server::http::visitor::locale(&parts.headers, &site);
    let country = site.settings.visitor_country().to_string();
    PageCtx {
        locale,
        texts: state.catalog.texts(locale),
        switcher: domain::locale::switcher_choices(&country, locale),
        country,
        entry_accepted: server::http::visitor::entry_accepted(&parts.headers),
        year: domain::date::from_unix(server::seed::now_unix()).year,
        now: server::seed::now_unix(),
        member: parts.extensions.get::<server::http::CurrentMember>().and_then(|m| m.0.as_ref()).map(|m| MemberView {
            name: m.name.clone(),
            email: m.email.clone(),
            invisible: m.invisible,
            credits: m.credits,
            paid_user: m.paid_user,
            confirmed: m.is_confirmed(),
            profile_disabled: m.profile_status == "disabled",
            basics_complete: m.basics_complete,
            notifications_disabled: m.alerts.notifications_disabled.clone(),
            dismissed_alerts: m.alerts.dismissed.clone(),
            main_photo: m.main_photo_id,
            staff: m.staff,
            new_likes: m.new_likes,
            notifications: m.unread_notifications,
            auto_like: site.settings.auto_like.count > 0
                && m.basics_complete
                && server::seed::now_unix() - m.signup_date <= domain::notifications::AUTO_LIKE_WINDOW_SECS,
        }),
        site: site_view(&site),
    }
}

fn site_view(site: &Site) -> SiteView {
    let s = &site.settings;
    SiteView {
        name: s.name.clone(),
        domain: s.domain.clone(),
        niche: s.niche.number(),
        theme: s.theme.clone(),
        enable_site_entry_popup: s.enable_site_entry_popup,
        geoip_country: s.geoip_country.clone(),
        support_email: s.support_email.clone(),
        support_phone: s.support_phone.clone(),
        support_phone_clean: s.support_phone_clean(),
        message_credits: s.message_credits,
        photo_credits: s.photo_credits,
        gift_credits: s.gift_credits,
        refund_days: s.refund_days,
        min_age: s.min_age,
        logged_out_search: s.logged_out_search,
        logged_out_search_trafficsource: s.logged_out_search_trafficsource,
        fictional_icon: s.fictional_icon.clone(),
        fictional_warning: s.fictional_warning,
        fictional_singular: s.fictional_singular.clone(),
        visible_profile_fields: s.visible_profile_fields.clone(),
        company: site.company.clone(),
        terms_date: domain::site::terms_version_date(Some(site.company.added)),
    }
}

/// For server functions: the application state and the site of this request.
pub fn request_site() -> Result<(AppState, Arc<Site>), ServerFnError> {
    let state = use_context::<AppState>().ok_or_else(|| public_error(AppError::Internal("AppState missing".into())))?;
    let parts = use_context::<Parts>().ok_or_else(|| public_error(AppError::Internal("request parts missing".into())))?;
    let site = server::http::visitor::site(&state.sites, &parts.headers).ok_or_else(|| public_error(AppError::NotFound))?;
    Ok((state, site))
}

/// For server functions that only a logged-in member may call: also the member, or the
/// `authentication_required` error (SPEC §8).
pub fn request_member() -> Result<(AppState, Arc<Site>, server::accounts::Member), ServerFnError> {
    let (state, site) = request_site()?;
    let parts = use_context::<Parts>().ok_or_else(|| public_error(AppError::Internal("request parts missing".into())))?;
    let member = parts.extensions.get::<server::http::CurrentMember>().and_then(|m| m.0.clone());
    let Some(member) = member else {
        let error: ServerFnError = ServerFnError::ServerError("authentication_required".into());
        return Err(error);
    };
    Ok((state, site, member))
}

/// Logs the cause and returns only the stable error code to the browser.
pub fn public_error(error: AppError) -> ServerFnError {
    ServerFnError::ServerError(error.public().code)
}

/// Leptos options for the compiled site. `LEPTOS_SITE_ROOT` points at the built assets
/// (default `target/site`, as cargo-leptos builds them).
pub fn leptos_options(addr: std::net::SocketAddr) -> LeptosOptions {
    let site_root = std::env::var("LEPTOS_SITE_ROOT").unwrap_or_else(|_| "target/site".into());
    LeptosOptions::builder().output_name("vonk").site_root(site_root).site_pkg_dir("pkg").site_addr(addr).build()
}

/// The whole application as an axum router.
pub fn router(app: AppState, leptos_options: LeptosOptions) -> Router {
    let routes = generate_route_list(App);
    let state = ServerState { leptos_options: leptos_options.clone(), app: app.clone() };
    let context = {
        let app = app.clone();
        move || provide_context(app.clone())
    };
    let render = {
        let options = leptos_options.clone();
        let app = app.clone();
        move || {
            let parts = use_context::<Parts>().unwrap_or_else(|| http::Request::new(()).into_parts().0);
            shell(options.clone(), page_ctx(&app, &parts))
        }
    };
    let site_root = leptos_options.site_root.to_string();
    let cached = |dir: String| {
        tower::ServiceBuilder::new()
            .layer(SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600")))
            .service(ServeDir::new(dir))
    };
    let not_found = {
        let app = app.clone();
        let app_for_context = app.clone();
        leptos_axum::file_and_error_handler_with_context::<ServerState, _>(
            move || provide_context(app_for_context.clone()),
            move |opts: LeptosOptions| {
                let parts = use_context::<Parts>().unwrap_or_else(|| http::Request::new(()).into_parts().0);
                shell(opts, page_ctx(&app, &parts))
            },
        )
    };
    Router::new()
        .leptos_routes_with_context(&state, routes, context, render)
        .merge(server::http::routes().with_state(app.clone()))
        .nest_service("/pkg", cached(format!("{site_root}/pkg")))
        .nest_service("/widgets", cached(format!("{site_root}/widgets")))
        // Public renditions only (approved, not private); originals never live here.
        .nest_service("/media/public", cached(app.config.data_dir.join("media/public").display().to_string()))
        .fallback(not_found)
        .with_state(state)
        .layer(axum::middleware::from_fn_with_state(app.clone(), server::http::resolve_member))
        .layer(axum::middleware::from_fn_with_state(app.clone(), server::http::rate_limit))
        .layer(axum::middleware::from_fn_with_state(app.clone(), server::http::same_origin_guard))
        .layer(axum::middleware::from_fn(server::http::security_headers))
        .layer(CompressionLayer::new())
        .layer(CatchPanicLayer::custom(panic_page))
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

/// Grants or takes back the staff role (the `vonk staff` command).
pub async fn set_staff(config: server::Config, email: &str, grant: bool) -> Result<u64, AppError> {
    let db = server::Db::connect(&config.database_url, 2).await?;
    let outbox = server::mail::Outbox::from_config(config.smtp_url.as_deref(), &config.data_dir)?;
    let accounts = server::accounts::Accounts::new(db.clone(), server::clock::Clock::System, outbox, std::sync::Arc::new(server::locales::Catalog::embedded()));
    let changed = accounts.set_staff(email, grant).await?;
    db.close().await;
    Ok(changed)
}

/// Starts the app: connect, migrate, seed, cache, serve until Ctrl-C / SIGTERM.
pub async fn serve(config: server::Config) -> Result<(), AppError> {
    let addr = config.addr;
    let refresh = config.site_cache_refresh;
    let state = AppState::start(config).await?;
    let _refresh = state.sites.spawn_refresh(refresh.max(Duration::from_secs(1)));
    let _purge = state.accounts.spawn_purge();
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| AppError::Internal(format!("cannot listen on {addr}: {e}")))?;
    let local = listener.local_addr().map_err(|e| AppError::Internal(e.to_string()))?;
    let listener = no_delay(listener);
    let app = router(state.clone(), leptos_options(local));
    tracing::info!("Vonk listens on http://{local}");
    println!("Vonk listens on http://{local}");
    axum::serve(listener, app.into_make_service_with_connect_info::<std::net::SocketAddr>())
        .with_graceful_shutdown(shutdown_signal())
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?;
    state.db.close().await;
    Ok(())
}

/// Pages stream in several chunks; without TCP_NODELAY, Nagle's algorithm and delayed ACKs
/// hold the later chunks back by ~40 ms.
pub fn no_delay(listener: tokio::net::TcpListener) -> axum::serve::TapIo<tokio::net::TcpListener, fn(&mut tokio::net::TcpStream)> {
    use axum::serve::ListenerExt;
    fn set(tcp: &mut tokio::net::TcpStream) {
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY");
        }
    }
    listener.tap_io(set as fn(&mut tokio::net::TcpStream))
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let terminate = async {
        if let Ok(mut sig) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            sig.recv().await;
        }
    };
    tokio::select! { _ = ctrl_c => {}, _ = terminate => {} }
}
