//! The activation reminder (SPEC §4): while a member has not confirmed the email address, an
//! alert offers to send the link again. Hidden on the signup, settings and notification pages.

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};

use crate::context::use_page_ctx;
use crate::i18n::use_i18n;

/// Routes where the reminder stays away.
pub fn reminder_hidden_on(path: &str) -> bool {
    ["/signup", "/complete-signup", "/profile", "/notifications"].iter().any(|p| path == *p || path.starts_with(&format!("{p}/")))
}

#[component]
pub fn ActivationReminder() -> impl IntoView {
    let ctx = use_page_ctx();
    let member = ctx.member.as_ref()?;
    let path = use_location().pathname.get_untracked();
    if member.confirmed || reminder_hidden_on(&path) {
        return None;
    }
    let i18n = use_i18n();
    let sent = use_query_map().get_untracked().get("activation").is_some();
    Some(view! {
        <div class="banner banner--warning" role="status" data-testid="activation-reminder">
            <div class="banner__inner">
                <p>{i18n.tf("reminder.body", &[("email", &member.email)])}</p>
                {if sent {
                    view! { <p class="banner__done">{i18n.t("reminder.sent")}</p> }.into_any()
                } else {
                    view! {
                        <form method="post" action="/api/account/resend-activation" class="inline-form">
                            <input type="hidden" name="return_to" value=path.clone()/>
                            <button type="submit" class="btn btn--light btn--small">{i18n.t("reminder.resend")}</button>
                        </form>
                    }
                    .into_any()
                }}
            </div>
        </div>
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn hidden_on_signup_settings_and_notifications() {
        assert!(super::reminder_hidden_on("/signup"));
        assert!(super::reminder_hidden_on("/profile"));
        assert!(super::reminder_hidden_on("/notifications"));
        assert!(!super::reminder_hidden_on("/pricing"));
        assert!(!super::reminder_hidden_on("/signupx"));
    }
}
