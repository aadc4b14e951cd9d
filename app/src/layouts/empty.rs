//! Empty layout (SPEC: "signup modal only"): the page and nothing around it. `/join` uses it:
//! the signup page reached from a link elsewhere, with no navigation to leave by.

use leptos::prelude::*;

#[component]
pub fn EmptyLayout(children: Children) -> impl IntoView {
    view! {
        <div class="layout layout--empty">
            <main id="main" class="layout__main layout__main--bare">{children()}</main>
        </div>
    }
}
