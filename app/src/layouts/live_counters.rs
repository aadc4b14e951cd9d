//! The member's counters in the top bar: new likes (heart) and unread notifications (bell),
//! capped at 99+. An island: 5 s after the page loads, then every 60 s (300 s once push is
//! subscribed), it calls the `counts` server function and updates the pills, the title's count and the app
//! badge (SPEC §2, §4, §9). A `vonk:counts` event on the window refreshes at once.

use domain::counters::Counters;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ui::icons::{BellIcon, ChatIcon, HeartIcon};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CounterLabels {
    pub messages: String,
    pub likes: String,
    pub notifications: String,
}

#[island(lazy)]
pub fn LiveCounters(counts: Counters, labels: CounterLabels) -> impl IntoView {
    let counts = RwSignal::new(counts);
    #[cfg(feature = "hydrate")]
    refresh::start(counts);
    let messages_pill =
        move || domain::counters::pill(counts.get().unread_messages).map(|p| view! { <span class="pill pill--accent" data-testid="messages-pill">{p}</span> });
    let likes_pill = move || domain::counters::pill(counts.get().new_likes).map(|p| view! { <span class="pill" data-testid="likes-pill">{p}</span> });
    let bell_pill =
        move || domain::counters::pill(counts.get().notifications).map(|p| view! { <span class="pill" data-testid="notifications-pill">{p}</span> });
    view! {
        <a class="topbar__link topbar__link--messages" href="/chats" data-testid="messages-link">
            <ChatIcon/>
            <span class="topbar__link-text">{labels.messages.clone()}</span>
            " "
            {messages_pill}
        </a>
        <a class="topbar__link topbar__link--likes" href="/likes">
            <HeartIcon/>
            <span class="topbar__link-text">{labels.likes.clone()}</span>
            " "
            {likes_pill}
        </a>
        <a class="topbar__link topbar__link--bell" href="/notifications" data-testid="notifications-link">
            <BellIcon/>
            <span class="topbar__link-text">{labels.notifications.clone()}</span>
            " "
            {bell_pill}
        </a>
    }
}

#[cfg(feature = "hydrate")]
mod refresh {
    use std::time::Duration;

    use domain::notifications::{refresh_interval_secs, REFRESH_START_SECS};
    use leptos::prelude::*;
    use wasm_bindgen::prelude::*;

    use domain::counters::Counters;

    use crate::browser;

    async fn reload(counts: RwSignal<Counters>) {
        // Retried a few times; if it still fails, what is shown stays until the next refresh.
        if let Ok(fresh) = browser::with_retries(crate::features::likes::server_fns::counts).await {
            counts.set(fresh);
        }
    }

    pub fn start(counts: RwSignal<Counters>) {
        // Title and badge follow the counts, including the first render's.
        Effect::new(move |_| {
            let c = counts.get();
            browser::set_title_count(&c);
            browser::set_badge(c.title_count());
        });
        // A push shown or clicked refreshes the counts at once.
        browser::refresh_counts_on_push();
        set_timeout(
            move || {
                leptos::task::spawn_local(async move {
                    // This browser's push subscription belongs to the current session: stored
                    // again after each login (and after the push service renewed it).
                    if let Some(sub) = browser::push_current().await {
                        let _ = crate::features::account::server_fns::save_push_subscription(sub.endpoint, sub.p256dh, sub.auth).await;
                    }
                    reload(counts).await;
                    let every = refresh_interval_secs(browser::push_subscribed().await);
                    set_interval(move || leptos::task::spawn_local(reload(counts)), Duration::from_secs(every.into()));
                });
            },
            Duration::from_secs(REFRESH_START_SECS.into()),
        );
        let on_request = Closure::<dyn Fn()>::new(move || leptos::task::spawn_local(reload(counts)));
        if let Some(window) = web_sys::window() {
            let _ = window.add_event_listener_with_callback(browser::COUNTS_EVENT, on_request.as_ref().unchecked_ref());
        }
        // The listener lives as long as the page.
        on_request.forget();
    }
}
