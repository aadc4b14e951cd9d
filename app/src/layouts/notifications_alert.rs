//! The disabled-notifications alert (SPEC §4): shown while notification mails are off because of
//! a spam complaint, a bounce or list-unsubscribe. The member turns them back on here or
//! dismisses the alert; the dismissal is stored and holds until mails stop for a new reason.

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::context::use_page_ctx;
use crate::features::account::server_fns::{DismissAlert as DismissAlertFn, EnableNotifications};
use crate::i18n::use_i18n;

/// The reason to explain first: a bounce asks the member to act, a spam report next.
pub fn main_reason(reasons: &[String]) -> Option<&'static str> {
    ["bounce", "spam", "list_unsubscribe"].into_iter().find(|r| reasons.iter().any(|x| x == r))
}

/// The button that stores an alert's dismissal and comes back to the same page.
#[component]
pub fn DismissAlert(alert: &'static str, return_to: String) -> impl IntoView {
    let action = ServerAction::<DismissAlertFn>::new();
    view! {
        <ActionForm action=action attr:class="inline-form">
            <input type="hidden" name="alert" value=alert/>
            <input type="hidden" name="return_to" value=return_to/>
            <button type="submit" class="btn btn--ghost btn--small banner__dismiss">{use_i18n().t("alert.dismiss")}</button>
        </ActionForm>
    }
}

#[component]
pub fn NotificationsAlert() -> impl IntoView {
    let ctx = use_page_ctx();
    let member = ctx.member.as_ref()?;
    if member.dismissed_alerts.iter().any(|a| a == "notifications_disabled") {
        return None;
    }
    let reason = main_reason(&member.notifications_disabled)?;
    let i18n = use_i18n();
    let path = use_location().pathname.get_untracked();
    let enable = ServerAction::<EnableNotifications>::new();
    let back = path.clone();
    Some(view! {
        <div class="banner banner--info" role="status" data-testid="notifications-alert">
            <div class="banner__inner">
                <p>{i18n.tf(&format!("alert.notifications_disabled.{reason}"), &[("email", &member.email)])}</p>
                <div class="banner__actions">
                    <ActionForm action=enable attr:class="inline-form">
                        <input type="hidden" name="return_to" value=back/>
                        <button type="submit" class="btn btn--light btn--small">{use_i18n().t("alert.enable")}</button>
                    </ActionForm>
                    <DismissAlert alert="notifications_disabled" return_to=path/>
                </div>
            </div>
        </div>
    })
}
