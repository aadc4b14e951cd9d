//! Chat layout: bare, full height; the age-check banner where the site asks for one; the entry warning only on Dutch and German sites (SPEC §2).

use leptos::prelude::*;

use crate::context::use_page_ctx;
use crate::layouts::entry_warning::EntryWarning;

/// Whether the chat layout shows the entry warning for a site's country.
pub fn chat_shows_entry_warning(country: &str) -> bool {
    matches!(country.to_ascii_uppercase().as_str(), "NL" | "DE")
}

#[component]
pub fn ChatLayout(children: Children) -> impl IntoView {
    let warn = chat_shows_entry_warning(&use_page_ctx().country);
    view! {
        <div class="layout layout--chat">
            <crate::layouts::age_alert::AgeAlert/>
            <main id="main" class="layout__main layout__main--bare">{children()}</main>
            {warn.then(|| view! { <EntryWarning/> })}
        </div>
    }
}
