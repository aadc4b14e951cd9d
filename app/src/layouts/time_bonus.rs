//! The time bonus (SPEC §4, §9): for a logged-in non-paid member within the site's time-bonus
//! hours after signup, a one-line banner in the member area with an hh:mm:ss countdown that
//! links to `/credits`, and 40 s after entering the member area a modal — only when the balance
//! is 0 and the modal was not dismissed before (closing it stores the dismissal). At zero both
//! go away. The modal says what follows: "only the first hours" when nothing as good does, else
//! the welcome discount's percentage and how long it lasts (`domain::offers`).

use domain::checkout::countdown;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::context::use_page_ctx;
use crate::i18n::use_i18n;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimeBonusTexts {
    /// The banner, split around its countdown.
    pub before: String,
    pub after: String,
    pub modal_title: String,
    /// The modal's text, split around its countdown.
    pub modal_before: String,
    pub modal_after: String,
    pub modal_cta: String,
    pub modal_close: String,
}

fn split(text: &str) -> (String, String) {
    match text.split_once("{time}") {
        Some((a, b)) => (a.to_string(), b.to_string()),
        None => (text.to_string(), String::new()),
    }
}

/// The banner and modal for the current page, when the time bonus applies.
#[component]
pub fn TimeBonus() -> impl IntoView {
    let ctx = use_page_ctx();
    let member = ctx.member.as_ref()?;
    let left = member.offers.time_bonus_left(ctx.now)?;
    let bonus = member.offers.now?;
    let path = leptos_router::hooks::use_location().pathname.get_untracked();
    if !domain::notifications::in_member_area(&path) {
        return None;
    }
    let i18n = use_i18n();
    let percent = bonus.percent.to_string();
    let (before, after) = split(&i18n.tf("timebonus.banner", &[("percent", &percent)]));
    let body = match member.offers.next {
        Some(next) => i18n.tf(
            "timebonus.modal_body_then",
            &[("percent", &percent), ("next_percent", &next.percent.to_string()), ("duration", &i18n.duration(next.ends_at - bonus.ends_at))],
        ),
        None => i18n.plural("timebonus.modal_body", bonus.hours, &[("percent", &percent)]),
    };
    let (modal_before, modal_after) = split(&body);
    let texts = TimeBonusTexts {
        before,
        after,
        modal_title: i18n.t("timebonus.modal_title"),
        modal_before,
        modal_after,
        modal_cta: i18n.t("timebonus.modal_cta"),
        modal_close: i18n.t("timebonus.modal_close"),
    };
    let modal = member.credits == 0 && !member.dismissed_alerts.iter().any(|a| a == "time_bonus");
    Some(view! { <TimeBonusIsland left=left modal=modal texts=texts/> })
}

#[island(lazy)]
fn TimeBonusIsland(left: i64, modal: bool, texts: TimeBonusTexts) -> impl IntoView {
    let remaining = RwSignal::new(left);
    let open = RwSignal::new(false);
    #[cfg(feature = "hydrate")]
    {
        use std::time::Duration;
        // The end as the browser's clock sees it; each tick recomputes from it (no drift).
        let end = js_sys::Date::now() + (left as f64) * 1000.0;
        if let Ok(handle) = set_interval_with_handle(
            move || {
                let secs = ((end - js_sys::Date::now()) / 1000.0).ceil() as i64;
                remaining.set(secs.max(0));
            },
            Duration::from_secs(1),
        ) {
            on_cleanup(move || handle.clear());
        }
        if modal {
            set_timeout(
                move || {
                    if remaining.get_untracked() > 0 {
                        open.set(true);
                    }
                },
                Duration::from_secs(domain::constants::TIME_BONUS_MODAL_DELAY_SECS.into()),
            );
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = modal;
    let close = move |_| {
        open.set(false);
        leptos::task::spawn_local(async move {
            let _ = crate::features::credits::server_fns::dismiss_time_bonus().await;
        });
    };
    let time = move || countdown(remaining.get());
    let texts_modal = texts.clone();
    view! {
        <Show when=move || { remaining.get() > 0 }>
            <a class="timebonus" href="/credits" data-testid="time-bonus">
                <crate::ui::icons::ClockIcon/>
                <span>{texts.before.clone()}<time class="timebonus__time" data-testid="time-bonus-countdown">{time}</time>{texts.after.clone()}</span>
            </a>
        </Show>
        <Show when=move || { open.get() && remaining.get() > 0 }>
            <div class="modal-backdrop">
                <div class="like-modal timebonus-modal" role="dialog" aria-modal="true" aria-labelledby="timebonus-title" data-testid="time-bonus-modal">
                    <h2 id="timebonus-title" class="like-modal__title">{texts_modal.modal_title.clone()}</h2>
                    <p>{texts_modal.modal_before.clone()}<strong>{time}</strong>{texts_modal.modal_after.clone()}</p>
                    <div class="like-modal__actions">
                        <a class="btn btn--primary" href="/credits">{texts_modal.modal_cta.clone()}</a>
                        <button type="button" class="btn btn--ghost" on:click=close data-testid="time-bonus-close">{texts_modal.modal_close.clone()}</button>
                    </div>
                </div>
            </div>
        </Show>
    }
}
