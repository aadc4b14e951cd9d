//! Rendering a large part of a page at once.

use leptos::prelude::*;

/// The HTML of `view`, rendered synchronously. Inside a `Suspense`, Leptos resolves what the
/// data produced element by element as futures; for a grid of cards that costs more than the
/// rendering itself (README, Performance). Callers put the string into their container with
/// `inner_html`. For server-rendered parts only: nothing inside is hydrated.
pub fn html_now(view: impl IntoView) -> String {
    view.into_view().to_html()
}

/// `view` rendered at once and placed as its HTML: for the parts of a page that the server
/// renders without data of their own (the layout's top bar, alerts and footer), which would
/// otherwise be resolved element by element as futures with the page (README, Performance).
/// Islands inside render as they would in place and hydrate as usual.
#[cfg(feature = "ssr")]
pub fn at_once(view: impl IntoView) -> impl IntoView {
    leptos::tachys::html::InertElement::new(html_now(view))
}

/// In the browser nothing renders the layout (it is not an island): the view as it is.
#[cfg(not(feature = "ssr"))]
pub fn at_once(view: impl IntoView) -> impl IntoView {
    view
}

/// Parts of pages that many requests render alike (a member's card in a grid, the search form),
/// kept as HTML under a key that names everything they are made of: the part, the site (and the
/// generation of its settings), the language and the data shown. Nothing private goes in: a
/// card's like state is part of its key, and the same card with the same state is the same HTML
/// for everyone. Bounded: past the limit it starts again empty.
#[cfg(feature = "ssr")]
pub fn kept_html(part: &str, data: impl std::fmt::Debug, render: impl FnOnce() -> String) -> std::sync::Arc<str> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    const MOST: usize = 20_000;
    static KEPT: OnceLock<Mutex<HashMap<String, Arc<str>>>> = OnceLock::new();
    let ctx = crate::context::use_page_ctx();
    let key = format!("{part}|{}|{}|{}|{data:?}", ctx.site.domain, server::sites::SiteCache::generation(), ctx.locale.code());
    let kept = KEPT.get_or_init(Default::default);
    if let Some(html) = kept.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return html.clone();
    }
    let html: Arc<str> = render().into();
    let mut map = kept.lock().unwrap_or_else(|e| e.into_inner());
    if map.len() >= MOST {
        map.clear();
    }
    map.insert(key, html.clone());
    html
}

/// In the browser nothing is kept.
#[cfg(not(feature = "ssr"))]
pub fn kept_html(_part: &str, _data: impl std::fmt::Debug, render: impl FnOnce() -> String) -> std::sync::Arc<str> {
    render().into()
}
