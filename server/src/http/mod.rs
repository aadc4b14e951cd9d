//! HTTP pieces that cannot be Leptos server functions: the session and same-origin
//! middleware, extractors shared with the server functions, and the few routes of their own —
//! photo files and the photo upload, the one-click unsubscribe of mail programs (RFC 8058), the
//! mail provider's reports, payment providers' webhooks and the chat socket. Every page's write is a server function in the app.

pub mod app_manifest;
pub mod client_addr;
pub mod cookies;
pub mod dev_reload;
pub mod extract;
pub mod guard;
pub mod mail_routes;
pub mod ops;
pub mod payment_routes;
pub mod photo_routes;
pub mod privacy_routes;
pub mod rate_limit;
pub mod session;
pub mod site_logo;
pub mod staff_routes;
pub mod tracking;
pub mod visitor;
pub mod ws;

pub use extract::{ClientIp, RequestSite, RequireMember, Viewer};
pub use guard::{same_origin_guard, security_headers, CspNonce};
pub use session::{resolve_member, CacheKept, CurrentMember};

/// The routes of the server crate.
pub fn routes() -> axum::Router<crate::state::AppState> {
    mail_routes::routes()
        .merge(app_manifest::routes())
        .merge(photo_routes::routes())
        .merge(privacy_routes::routes())
        .merge(payment_routes::routes())
        .merge(staff_routes::routes())
        .merge(ws::routes())
}
