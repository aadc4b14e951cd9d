//! The activation reminder (SPEC §4): while a member has not confirmed the email address (and
//! the profile is still disabled, and no notification mails are switched off), an alert offers
//! to send the link again. With `api_signup_complete` in the URL it is a modal on smartphones.
//! Hidden on the signup, settings and notification pages.

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};

use crate::context::use_page_ctx;
use crate::features::account::server_fns::ResendActivation;
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

/// Routes where the reminder stays away.
pub fn reminder_hidden_on(path: &str) -> bool {
    ["/signup", "/complete-signup", "/settings", "/notifications"].iter().any(|p| path == *p || path.starts_with(&format!("{p}/")))
}

#[component]
pub fn ActivationReminder() -> impl IntoView {
    let ctx = use_page_ctx();
    let member = ctx.member.as_ref()?;
    let path = use_location().pathname.get_untracked();
    if member.confirmed || !member.profile_disabled || !member.notifications_disabled.is_empty() || reminder_hidden_on(&path) {
        return None;
    }
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let sent = query.get("activation").is_some();
    let as_modal = query.get("api_signup_complete").is_some();
    let action = ServerAction::<ResendActivation>::new();
    Some(view! {
        <div class="banner banner--warning" class:banner--phone-modal=as_modal role=if as_modal { "dialog" } else { "status" } aria-labelledby="reminder-title" data-testid="activation-reminder">
            <div class="banner__inner">
                <h2 id="reminder-title" class="banner__title">{i18n.t("reminder.title")}</h2>
                <p>{i18n.tf("reminder.body", &[("email", &member.email)])}</p>
                {if sent {
                    view! { <p class="banner__done">{i18n.t("reminder.sent")}</p> }.into_any()
                } else {
                    let back = path.clone();
                    view! {
                        <ActionForm action=action attr:class="inline-form">
                            <input type="hidden" name="return_to" value=back/>
                            <button type="submit" class="btn btn--light btn--small">{use_i18n().t("reminder.resend")}</button>
                        </ActionForm>
                        <ActionError action=action/>
                    }
                    .into_any()
                }}
                {as_modal.then(|| view! { <a class="banner__later" href=path.clone()>{i18n.t("reminder.later")}</a> })}
            </div>
        </div>
    })
}
