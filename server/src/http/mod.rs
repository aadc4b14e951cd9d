//! HTTP pieces that are not Leptos server functions: request helpers, middleware and the
//! small form endpoints of the site shell.

pub mod account_routes;
pub mod cookies;
pub mod guard;
pub mod like_routes;
pub mod mail_routes;
pub mod member_routes;
pub mod photo_routes;
pub mod profile_routes;
pub mod rate_limit;
pub mod session;
pub mod shell_routes;
pub mod visitor;

pub use guard::{same_origin_guard, security_headers};
pub use rate_limit::rate_limit;
pub use session::{resolve_member, CurrentMember};

/// Every form endpoint of the server crate.
pub fn routes() -> axum::Router<crate::state::AppState> {
    shell_routes::routes()
        .merge(account_routes::routes())
        .merge(member_routes::routes())
        .merge(profile_routes::routes())
        .merge(mail_routes::routes())
        .merge(photo_routes::routes())
        .merge(like_routes::routes())
}
