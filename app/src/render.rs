//! Rendering a large part of a page at once.

use leptos::prelude::*;

/// The HTML of `view`, rendered synchronously. Inside a `Suspense`, Leptos resolves what the
/// data produced element by element as futures; for a grid of cards that costs more than the
/// rendering itself (README, Performance). Callers put the string into their container with
/// `inner_html`. For server-rendered parts only: nothing inside is hydrated.
pub fn html_now(view: impl IntoView) -> String {
    view.into_view().to_html()
}
