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
use domain::ApiError;
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
    let country = server::http::visitor::country(&parts.extensions, &site);
    let now = state.clock.now();
    let site_view = site_view(&site, &country);
    PageCtx {
        locale,
        texts: state.catalog.texts(locale),
        switcher: domain::locale::switcher_choices(&country, locale),
        country,
        entry_accepted: server::http::visitor::entry_accepted(&parts.headers),
        year: domain::date::from_unix(now).year,
        now,
        push_key: state.push.public_key().map(str::to_string),
        member: server::http::Viewer::from_parts(parts).0.map(|m| MemberView {
            name: m.name.clone(),
            email: m.email.clone(),
            invisible: m.invisible,
            credits: m.credits,
            paid_user: m.paid_user,
            confirmed: m.is_confirmed(),
            profile_disabled: m.profile_status == domain::account::ProfileStatus::Disabled,
            basics_complete: m.basics_complete,
            notifications_disabled: m.alerts.notifications_disabled.clone(),
            dismissed_alerts: m.alerts.dismissed.clone(),
            main_photo: m.main_photo_id,
            staff: m.is_staff(),
            counters: m.counters,
            auto_like: site.settings.auto_like.count > 0 && m.basics_complete && now - m.signup_date <= domain::notifications::AUTO_LIKE_WINDOW_SECS,
            time_bonus_left: domain::checkout::time_bonus_left(m.signup_date, now, m.paid_user),
        }),
        site: site_view,
    }
}

fn site_view(site: &Site, country: &str) -> SiteView {
    let s = &site.settings;
    SiteView {
        name: s.name.clone(),
        domain: s.domain.clone(),
        niche: s.niche.number(),
        theme: s.theme.clone(),
        enable_site_entry_popup: s.enable_site_entry_popup,
        support_email: s.support_email.clone(),
        support_phone: s.support_phone.clone(),
        support_phone_clean: s.support_phone_clean(),
        message_credits: s.message_credits,
        photo_credits: s.photo_credits,
        gift_credits: s.gift_credits,
        minimum_message_cost: s
            .minimum_message_costs
            .iter()
            .find(|c| c.country.eq_ignore_ascii_case(country))
            .map(|c| (c.costs, c.currency.clone())),
        refund_days: s.refund_days,
        min_age: s.min_age,
        logged_out_search: s.logged_out_search,
        logged_out_search_trafficsource: s.logged_out_search_trafficsource,
        fictional_icon: s.fictional_icon.clone(),
        fictional_warning: s.fictional_warning,
        fictional_singular: s.fictional_singular.clone(),
        visible_profile_fields: s.visible_profile_fields.clone(),
        logo: s.logo.clone(),
        company: site.company.clone(),
        terms_date: domain::site::terms_version_date(Some(site.company.added)),
        us_edition: s.us_edition(),
    }
}

/// The pages that mails link to (see `server::links`).
#[derive(Debug)]
pub struct PageLinks;

impl server::links::PageLinks for PageLinks {
    fn activation(&self, token: &str) -> String {
        format!("/activate?token={token}")
    }
    fn password_reset(&self, token: &str) -> String {
        format!("/reset-password/do?token={token}")
    }
    fn email_change(&self, token: &str) -> String {
        format!("/mail-change/do?token={token}")
    }
    fn email_undo(&self, token: &str) -> String {
        format!("/mail-change/undo?token={token}")
    }
    fn reactivation(&self, token: &str) -> String {
        format!("/account-deleted?token={token}")
    }
    fn unsubscribe(&self, token: &str) -> String {
        format!("/unsubscribe?token={token}")
    }
    fn member(&self, member_id: i64) -> String {
        format!("/likes/m/{member_id}")
    }
    fn chat(&self, conversation_id: i64) -> String {
        format!("/chats/{conversation_id}")
    }
    fn transaction(&self, payment_id: i64) -> String {
        format!("/transactions/{payment_id}")
    }
    fn test_checkout(&self, checkout_id: &str) -> String {
        format!("/checkout/test/{checkout_id}")
    }
}

pub fn page_links() -> server::links::Links {
    Arc::new(PageLinks)
}

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
    }

    /// The country of this request (the member's, else GeoIP's, else the site's).
    pub fn country(&self) -> String {
        server::http::visitor::country(&self.parts.extensions, &self.site)
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

/// The one boundary of server functions: logs the error (internal causes in full, once) and
/// returns its public part. [`server_fn_status`] gives the answer its HTTP status.
pub fn fail(error: impl Into<AppError>) -> ApiError {
    error.into().into_public()
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

/// Reads a multipart form with one picture file named `file` (at most `max` bytes, counted
/// while reading); refusals as [`read_photo_form`]'s.
pub async fn read_upload_form(data: leptos::server_fn::codec::MultipartData, file: &str, max: usize) -> Result<PhotoForm, ApiError> {
    use domain::photo::UploadError;
    const FIELD_MAX: usize = 1024;
    let mut multipart = data.into_inner().ok_or_else(|| fail(domain::ErrorCode::BadRequest))?;
    let too_large = || fail(ApiError::new(UploadError::TooLarge.code()).with("max", max.div_ceil(1 << 20)));
    let (mut photo, mut fields) = (None, std::collections::BTreeMap::new());
    while let Some(mut field) = multipart.next_field().await.map_err(|_| too_large())? {
        let name = field.name().unwrap_or_default().to_string();
        let limit = if name == file { max } else { FIELD_MAX };
        let mut bytes = Vec::new();
        while let Some(chunk) = field.chunk().await.map_err(|_| too_large())? {
            if bytes.len() + chunk.len() > limit {
                return Err(if name == file { too_large() } else { fail(domain::ErrorCode::BadRequest) });
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
/// server-function redirect header).
pub fn redirect(path: &str) {
    leptos_axum::redirect(path);
}

/// Leptos options for the compiled site. `LEPTOS_SITE_ROOT` points at the built assets
/// (default `target/site`, as cargo-leptos builds them).
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
    let cached = |dir: String| {
        tower::ServiceBuilder::new()
            .layer(SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600")))
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
        .route("/likes/m/{id}", axum::routing::get(|axum::extract::Path(id): axum::extract::Path<i64>| async move { axum::response::Redirect::to(&format!("/members/{id}")) }))
        // Public renditions only (approved, not private); originals never live here.
        .nest_service("/media/public", cached(app.config.data_dir.join("media/public").display().to_string()))
        .fallback(not_found)
        .with_state(state)
        .layer(axum::middleware::from_fn(server_fn_status))
        .layer(axum::middleware::from_fn_with_state(Arc::new(crate::page_cache::PageCache::new(page_cache)), crate::page_cache::serve))
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

/// Grants or takes back the staff role (the `vonk staff` command).
pub async fn set_staff(config: server::Config, email: &str, grant: bool, operator: bool) -> Result<u64, AppError> {
    let db = server::Db::connect(&config.database_url, 2).await?;
    let outbox = server::mail::Outbox::from_config(config.smtp_url.as_deref(), &config.data_dir)?;
    let accounts = server::accounts::Accounts::new(db.clone(), server::clock::Clock::System, outbox, std::sync::Arc::new(server::locales::Catalog::embedded()), page_links());
    let changed = if operator { accounts.set_operator(email, grant).await? } else { accounts.set_staff(email, grant).await? };
    db.close().await;
    Ok(changed)
}

/// Records that the bank reversed a direct debit (the `vonk payments reverse <id>` command):
/// the credits go as far as they are left, and direct debit closes for the member.
pub async fn reverse_direct_debit(config: server::Config, payment_id: i64) -> Result<domain::checkout::PaymentStatus, AppError> {
    let state = AppState::start(server::Config { seed: server::config::SeedMode::None, ..config }, page_links()).await?;
    let status = state.payments.reverse(payment_id, state.clock.now()).await;
    state.db.close().await;
    status
}

/// Starts the app: connect, migrate, seed, cache, serve until Ctrl-C / SIGTERM.
pub async fn serve(config: server::Config) -> Result<(), AppError> {
    let addr = config.addr;
    let refresh = config.site_cache_refresh;
    let state = AppState::start(config, page_links()).await?;
    let _refresh = state.sites.spawn_refresh(refresh.max(Duration::from_secs(1)));
    let _listen = state.sites.spawn_listen(&state.config.database_url);
    let _housekeeping = state.spawn_housekeeping();
    // Missed webhooks, payments left open by a process that died, receipts: now and every minute.
    let _recovery = state.payments.spawn_recovery(state.clock.clone(), Duration::from_secs(60));
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| AppError::Internal(format!("cannot listen on {addr}: {e}")))?;
    let local = listener.local_addr().map_err(|e| AppError::Internal(e.to_string()))?;
    let app = router(state.clone(), leptos_options(local));
    tracing::info!("Vonk listens on http://{local}");
    println!("Vonk listens on http://{local}");
    // Chat sockets live outside the connections' graceful shutdown: once the node has stopped
    // accepting, they close with 1001 and their clients reconnect, through the load balancer, to
    // another node.
    let bus = state.chat.bus().clone();
    serve_connections_then(listener, app, state.config.header_timeout, shutdown_signal(), async move { bus.close(Duration::from_secs(3)).await }).await;
    state.db.close().await;
    Ok(())
}

/// Serves HTTP/1.1 on `listener` until `shutdown`, then lets open requests finish. Unlike
/// `axum::serve` it limits how long a client may take to send its headers (a slow-loris client
/// is disconnected), sets TCP_NODELAY, and gives handlers the peer's address (`ConnectInfo`).
pub async fn serve_connections(
    listener: tokio::net::TcpListener,
    app: Router,
    header_timeout: Duration,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) {
    serve_connections_then(listener, app, header_timeout, shutdown, async {}).await
}

/// [`serve_connections`], running `stopped` as soon as the listener is closed (new connections
/// are refused from then on), while the open requests finish.
pub async fn serve_connections_then(
    listener: tokio::net::TcpListener,
    app: Router,
    header_timeout: Duration,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    stopped: impl std::future::Future<Output = ()> + Send + 'static,
) {
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use hyper_util::server::conn::auto::Builder;
    use hyper_util::service::TowerToHyperService;
    use tower::ServiceExt;
    // HTTP/1.1 only (TLS and HTTP/2 end at the load balancer): no protocol sniffing.
    let mut builder = Builder::new(TokioExecutor::new()).http1_only();
    builder.http1().timer(TokioTimer::new()).header_read_timeout(header_timeout);
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(());
    let (done_tx, done_rx) = tokio::sync::watch::channel(());
    tokio::pin!(shutdown);
    loop {
        let (tcp, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(connection) => connection,
                // Out of file descriptors and the like: wait a moment rather than spin.
                Err(error) => {
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY");
        }
        let service = app.clone().map_request(move |mut request: axum::extract::Request<hyper::body::Incoming>| {
            request.extensions_mut().insert(axum::extract::ConnectInfo(remote));
            request
        });
        let (builder, mut stop, done) = (builder.clone(), stop_rx.clone(), done_rx.clone());
        tokio::spawn(async move {
            // With upgrades: the chat's WebSocket.
            let connection = builder.serve_connection_with_upgrades(TokioIo::new(tcp), TowerToHyperService::new(service));
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = stop.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            drop(done);
        });
    }
    drop(listener);
    drop(stop_rx);
    let _ = stop_tx.send(());
    drop(done_rx);
    // Every connection task holds a receiver: wait until the last one finished.
    tokio::join!(stopped, done_tx.closed());
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
