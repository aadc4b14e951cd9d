//! Previous and next links under a grid of cards (search results, likes).

use leptos::prelude::*;

use crate::i18n::use_i18n;

/// Previous and next links under a grid of cards (search results, likes), with the page's
/// number; nothing when there is only the one page.
#[component]
pub fn Pager(page: u32, prev: Option<String>, next: Option<String>) -> impl IntoView {
    let i18n = use_i18n();
    (prev.is_some() || next.is_some()).then(|| {
        view! {
            <nav class="pager" aria-label=i18n.t("members.results_nav")>
                {prev.map(|href| view! { <a class="btn btn--ghost" href=href rel="prev">{use_i18n().t("members.previous")}</a> })}
                <span class="pager__page">{i18n.tf("members.page", &[("page", &page.to_string())])}</span>
                {next.map(|href| view! { <a class="btn btn--ghost" href=href rel="next" data-testid="next-page">{use_i18n().t("members.next")}</a> })}
            </nav>
        }
    })
}
