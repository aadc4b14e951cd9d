//! The profile photo alert (SPEC §4): while the member has no main photo, a banner asks for
//! one. Dismissing it is stored with its moment and holds. It gives way to the activation
//! reminder and the notifications alert, and stays off the pages where it would be in the way.

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::context::use_page_ctx;
use crate::i18n::use_i18n;
use crate::layouts::notifications_alert::DismissAlert;

/// Routes where the alert stays away (the photo form itself is on `/profile`).
pub fn photo_alert_hidden_on(path: &str) -> bool {
    ["/signup", "/complete-signup", "/profile", "/settings", "/notifications", "/staff"].iter().any(|p| path == *p || path.starts_with(&format!("{p}/")))
}

/// Whether the banner shows for this member on this page.
pub fn photo_alert_shows(member: &crate::context::MemberView, path: &str) -> bool {
    let reminder_shows = !member.confirmed && member.profile_disabled;
    !(member.main_photo.is_some()
        || !member.basics_complete
        || reminder_shows
        || !member.notifications_disabled.is_empty()
        || member.dismissed_alerts.iter().any(|a| a == "profile_photo")
        || photo_alert_hidden_on(path))
}

#[component]
pub fn PhotoAlert() -> impl IntoView {
    let ctx = use_page_ctx();
    let member = ctx.member.as_ref()?;
    let path = use_location().pathname.get_untracked();
    if !photo_alert_shows(member, &path) {
        return None;
    }
    let i18n = use_i18n();
    Some(view! {
        <div class="banner banner--info" role="status" data-testid="photo-alert">
            <div class="banner__inner">
                <p>{i18n.t("alert.profile_photo")}</p>
                <div class="banner__actions">
                    <a class="btn btn--light btn--small" href="/profile#photos">{i18n.t("alert.profile_photo_add")}</a>
                    <DismissAlert alert="profile_photo" return_to=path/>
                </div>
            </div>
        </div>
    })
}
