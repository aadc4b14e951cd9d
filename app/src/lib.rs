#![recursion_limit = "256"]
//! Vonk's Leptos application: router, layouts, pages grouped by feature, server functions,
//! the React widget bridge and translations. Built twice: as the server library (feature
//! `ssr`) and as the browser bundle (feature `hydrate`).

pub mod app;
#[cfg(feature = "hydrate")]
pub mod browser;
pub mod context;
pub mod features;
pub mod i18n;
pub mod layouts;
pub mod paths;
pub mod render;
pub mod ui;
pub mod widgets;

#[cfg(feature = "ssr")]
pub mod assets;
#[cfg(feature = "ssr")]
pub mod call;
#[cfg(feature = "ssr")]
pub mod page_cache;
#[cfg(feature = "ssr")]
pub mod ssr;

/// Browser entry point. Pages are rendered on the server; only the interactive parts
/// (`#[island]` components) are hydrated, so the browser downloads code for those alone.
/// The first module holds the runtime and two small islands: the visitor's signup modal and the
/// signup page's form shell. Every other island is `#[island(lazy)]` and the signup forms
/// themselves are `#[lazy]` functions: `make build` splits each into a module of its own,
/// fetched when a page that has it hydrates (a form: after the page is interactive). Each page's
/// total has a budget (`scripts/bundle-pages.json`, checked by `scripts/bundle-sizes.sh`).
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    // The installed app's back button (on every member screen) works from the first module,
    // not only once a page's lazy islands have come.
    browser::app_back_button();
    leptos::mount::hydrate_islands();
    // Loaded: from here on a failed fetch is the network's, not a reason to reload (`app::CLIENT_RESILIENCE`).
    if let Some(window) = web_sys::window() {
        let _ = js_sys::Reflect::set(&window, &"vonkLoaded".into(), &true.into());
    }
}
