//! Empty layout: only the page (the signup modal joins it with the accounts feature).

use leptos::prelude::*;

#[component]
pub fn EmptyLayout(children: Children) -> impl IntoView {
    view! {
        <div class="layout layout--empty">
            <main id="main" class="layout__main layout__main--bare">{children()}</main>
        </div>
    }
}
