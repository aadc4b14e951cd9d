//! The adult-content entry warning for logged-out visitors (SPEC §1), when the site enables it.
//! Accepting posts a form that sets a cookie for a year; it works without JavaScript.

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::context::use_page_ctx;
use crate::features::account::server_fns::AcceptEntryWarning;
use crate::i18n::use_i18n;
use crate::ui::icons::FlameIcon;

#[component]
pub fn EntryWarning() -> impl IntoView {
    let ctx = use_page_ctx();
    if !ctx.site.enable_site_entry_popup || ctx.entry_accepted || ctx.member.is_some() {
        return None;
    }
    let i18n = use_i18n();
    let location = use_location();
    let site = ctx.site.name.clone();
    let action = ServerAction::<AcceptEntryWarning>::new();
    Some(view! {
        <div class="modal-backdrop modal-backdrop--opaque" data-testid="entry-warning">
            <div class="modal entry-warning" role="dialog" aria-modal="true" aria-labelledby="entry-warning-title" aria-describedby="entry-warning-body">
                <div class="entry-warning__badge"><FlameIcon/><span>"18+"</span></div>
                <h2 id="entry-warning-title">{i18n.t("entry.title")}</h2>
                <p id="entry-warning-body">{i18n.tf("entry.body", &[("site", &site)])}</p>
                <ActionForm action=action attr:class="entry-warning__actions">
                    <input type="hidden" name="return_to" value=location.pathname.get_untracked()/>
                    <button type="submit" class="btn btn--primary btn--block" autofocus>{use_i18n().t("entry.confirm")}</button>
                    <a class="btn btn--ghost btn--block" href="https://duckduckgo.com/" rel="noreferrer">{use_i18n().t("entry.leave")}</a>
                </ActionForm>
            </div>
        </div>
    })
}
