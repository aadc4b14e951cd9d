//! Staff pages (a role beyond SPEC §6, granted with `vonk staff grant <email>`): the staff home
//! with the log of staff actions, complaints and reports, photo review. Everyone else gets the
//! not-found page, so the pages do not announce themselves; the server functions check again.

pub mod complaints;
pub mod members;
pub mod photos;

use leptos::prelude::*;

use crate::context::use_page_ctx;
use crate::i18n::use_i18n;

/// For a staff page: a visitor is sent to log in (and back to `path`), a member who is not
/// staff gets a 404 with the not-found text; staff get `None` and see the page.
pub fn refuse_non_staff(path: &str) -> Option<AnyView> {
    let ctx = use_page_ctx();
    match ctx.member.as_ref() {
        None => {
            #[cfg(feature = "ssr")]
            leptos_axum::redirect(&format!("/login?return_to={path}"));
            let _ = path;
            Some(().into_any())
        }
        Some(m) if !m.staff => {
            #[cfg(feature = "ssr")]
            if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
                response.set_status(http::StatusCode::NOT_FOUND);
            }
            Some(view! { <div class="container page"><p class="notice">{use_i18n().t("members.not_found")}</p></div> }.into_any())
        }
        Some(_) => None,
    }
}
