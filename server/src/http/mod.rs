//! HTTP pieces that are not Leptos server functions: request helpers, middleware and the
//! small form endpoints of the site shell.

pub mod cookies;
pub mod guard;
pub mod shell_routes;
pub mod visitor;

pub use guard::{same_origin_guard, security_headers};
pub use shell_routes::routes;
