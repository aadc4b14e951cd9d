//! Staff pages (a role beyond SPEC §6, granted with `vonk staff grant <email>`): the staff home
//! with the log of staff actions, complaints and reports, photo review. Everyone else gets the
//! not-found page, so the pages do not announce themselves; the server functions check again.

pub mod chat_settings;
pub mod complaints;
pub mod contact_weeks;
pub mod held;
pub mod members;
pub mod operators;
pub mod payments;
pub mod photos;
pub mod pricing;
pub mod site;
pub mod site_setup;

use leptos::prelude::*;

/// For a staff page: a visitor is sent to log in (and back to `path`), a member who is not
/// staff gets the not-found answer (404 and its notice); staff get `None` and see the page.
pub fn refuse_non_staff(path: &str) -> Option<AnyView> {
    match crate::features::account::member_or_login(path) {
        None => Some(().into_any()),
        Some(m) if !m.staff => Some(view! { <div class="container page">{crate::features::members::profile::profile_not_found()}</div> }.into_any()),
        Some(_) => None,
    }
}
