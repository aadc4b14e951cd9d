//! The push opt-in alert (SPEC §4): asks a member to turn on notifications on this device while
//! the browser can do push, has not been asked or holds no subscription, and the member has not
//! dismissed it. Only the browser knows its push state, so the server renders the banner hidden
//! and the island shows it once it has asked the browser. It waits while another alert shows
//! and stays off the pages where the photo alert does.

use leptos::prelude::*;
use leptos_router::hooks::use_location;
use serde::{Deserialize, Serialize};

use crate::context::use_page_ctx;
use crate::features::account::server_fns::DismissAlert as DismissAlertFn;
use crate::i18n::use_i18n;
use crate::layouts::photo_alert::{photo_alert_hidden_on, photo_alert_shows};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PushAlertLabels {
    pub text: String,
    pub enable: String,
    pub failed: String,
    pub dismiss: String,
}

#[component]
pub fn PushOptIn() -> impl IntoView {
    let ctx = use_page_ctx();
    let member = ctx.member.as_ref()?;
    let key = ctx.push_key.clone()?;
    let path = use_location().pathname.get_untracked();
    let reminder_shows = !member.confirmed && member.profile_disabled;
    if member.dismissed_alerts.iter().any(|a| a == domain::push::ALERT)
        || !member.basics_complete
        || reminder_shows
        || !member.notifications_disabled.is_empty()
        || photo_alert_shows(member, &path)
        || photo_alert_hidden_on(&path)
    {
        return None;
    }
    let i18n = use_i18n();
    let labels = PushAlertLabels {
        text: i18n.t("alert.push"),
        enable: i18n.t("alert.push_enable"),
        failed: i18n.t("alert.push_failed"),
        dismiss: i18n.t("alert.dismiss"),
    };
    Some(view! { <PushAlert key=key labels=labels return_to=path/> })
}

#[island(lazy)]
pub fn PushAlert(key: String, labels: PushAlertLabels, return_to: String) -> impl IntoView {
    // Unknown until the browser has been asked.
    let state = RwSignal::new(None::<domain::push::PushState>);
    let failed = RwSignal::new(false);
    let busy = RwSignal::new(false);
    let dismiss = ServerAction::<DismissAlertFn>::new();
    #[cfg(feature = "hydrate")]
    leptos::task::spawn_local(async move { state.set(Some(crate::browser::push_state().await)) });
    let enable = move |_| {
        #[cfg(feature = "hydrate")]
        {
            let key = key.clone();
            busy.set(true);
            failed.set(false);
            leptos::task::spawn_local(async move {
                let saved = match crate::browser::push_subscribe(&key).await {
                    Some(sub) => crate::features::account::server_fns::save_push_subscription(sub.endpoint, sub.p256dh, sub.auth).await.is_ok(),
                    None => false,
                };
                let now = crate::browser::push_state().await;
                // A refusal in the browser's own prompt hides the alert (denied); anything else says so.
                failed.set(!saved && now != domain::push::PushState::Denied);
                state.set(Some(if saved { domain::push::PushState::Subscribed } else { now }));
                busy.set(false);
            });
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = &key;
    };
    let hidden = move || !(state.get().is_some_and(|s| s.alert_shows(false)) || failed.get());
    view! {
        <div class="banner banner--info" role="status" data-testid="push-alert" data-push-state=move || state.get().map(|s| s.code()) hidden=hidden>
            <div class="banner__inner">
                <p>{labels.text.clone()}</p>
                <Show when=move || failed.get()>
                    <p class="banner__error" role="alert">{labels.failed.clone()}</p>
                </Show>
                <div class="banner__actions">
                    <button type="button" class="btn btn--light btn--small" data-testid="push-enable" on:click=enable disabled=move || busy.get()>
                        {labels.enable.clone()}
                    </button>
                    // The same dismissal as the other alerts' (an island has no page context for theirs).
                    <ActionForm action=dismiss attr:class="inline-form">
                        <input type="hidden" name="alert" value=domain::push::ALERT/>
                        <input type="hidden" name="return_to" value=return_to.clone()/>
                        <button type="submit" class="btn btn--ghost btn--small banner__dismiss">{labels.dismiss.clone()}</button>
                    </ActionForm>
                </div>
            </div>
        </div>
    }
}
