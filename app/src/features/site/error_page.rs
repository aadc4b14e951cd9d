//! The error page (SPEC §8): the message or "Error", the status (500 by default); on a 404
//! "This page could not be found" and a link back to the home page.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::i18n::use_i18n;

#[component]
pub fn ErrorPage(#[prop(optional)] status: Option<u16>, #[prop(optional, into)] message: Option<String>) -> impl IntoView {
    let i18n = use_i18n();
    let status = status.unwrap_or(500);
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR));
    }
    let not_found = status == 404;
    let heading = match (&message, not_found) {
        (Some(m), _) if !m.is_empty() => m.clone(),
        (_, true) => i18n.t("error.not_found_title"),
        _ => i18n.t("error.title"),
    };
    let title = if not_found { i18n.t("title.not_found") } else { i18n.t("title.error") };
    view! {
        <Title text=title/>
        <section class="error-page" data-status=status>
            <p class="error-page__status" aria-hidden="true">{status}</p>
            <h1 class="error-page__title">{heading}</h1>
            <p class="error-page__body">
                {if not_found { i18n.t("error.not_found_body") } else { i18n.tf("error.status", &[("status", &status.to_string())]) }}
            </p>
            {not_found.then(|| view! { <a class="btn btn--primary" href="/">{i18n.t("error.back_home")}</a> })}
        </section>
    }
}

#[component]
pub fn NotFoundPage() -> impl IntoView {
    view! { <ErrorPage status=404/> }
}
