//! Account pages: signup, login, activation results.

pub mod activate;
pub mod basics;
pub mod location;
pub mod login;
pub mod photos;
pub mod profile;
pub mod reset;
pub mod server_fns;
pub mod settings;
pub mod signup;
pub mod unsubscribe;

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::i18n::use_i18n;

/// The error a form endpoint sent back (`?error=key&minutes=N`), translated; unknown keys are
/// not shown as they are.
#[component]
pub fn FormError() -> impl IntoView {
    let i18n = use_i18n();
    let ctx = crate::context::use_page_ctx();
    let query = use_query_map().get_untracked();
    let key = query.get("error").unwrap_or_default();
    let minutes = query.get("minutes").filter(|m| m.chars().all(|c| c.is_ascii_digit())).unwrap_or_default();
    let known = ["error.", "validation."].iter().any(|ns| key.starts_with(ns)) && i18n.t(&key) != key;
    let key = if known { key } else if key.is_empty() { return None } else { "error.generic".to_string() };
    // {min}/{max}: the password rules, or the profile's limits; the name's limits are checked in the browser.
    let min = domain::account::PASSWORD_MIN_CHARS.to_string();
    let max = match key.as_str() {
        "validation.too_many_interests" => domain::profile::MAX_INTERESTS,
        "validation.about_too_long" => domain::profile::ABOUT_MAX_CHARS,
        _ => domain::account::PASSWORD_MAX_CHARS,
    }
    .to_string();
    let text = i18n.tf(&key, &[("minutes", &minutes), ("min_age", &ctx.site.min_age.to_string()), ("min", &min), ("max", &max)]);
    Some(view! { <p class="notice notice--error" role="alert" data-testid="form-error">{text}</p> })
}

/// For member-only pages: the member, or `None` after sending the visitor to the login page,
/// which brings them back to `path`.
pub fn member_or_login(path: &str) -> Option<crate::context::MemberView> {
    let member = crate::context::use_page_ctx().member;
    if member.is_none() {
        #[cfg(feature = "ssr")]
        leptos_axum::redirect(&format!("/login?return_to={path}"));
        #[cfg(not(feature = "ssr"))]
        let _ = path;
    }
    member
}
