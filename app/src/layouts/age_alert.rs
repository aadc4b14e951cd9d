//! The age-check banner (`domain::age`): on a site that asks this member for a passed age check,
//! every page says so above the content and links to `/age-check`, until they pass. It cannot be
//! dismissed: chatting and buying wait for the check.

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::context::use_page_ctx;
use crate::i18n::use_i18n;

#[component]
pub fn AgeAlert() -> impl IntoView {
    let ctx = use_page_ctx();
    let member = ctx.member.as_ref()?;
    let path = use_location().pathname.get_untracked();
    if !member.age_check_needed || path.starts_with("/age-check") || path.starts_with("/staff") {
        return None;
    }
    let i18n = use_i18n();
    Some(view! {
        <div class="banner banner--info" role="status" data-testid="age-alert">
            <div class="banner__inner">
                <p>{i18n.t("age.alert")}</p>
                <div class="banner__actions">
                    <a class="btn btn--light btn--small" href=crate::paths::age_check(None)>{i18n.t("age.start")}</a>
                </div>
            </div>
        </div>
    })
}
