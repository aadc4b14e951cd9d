//! The like popup (SPEC §2 like modal, §3 auto-like, query parameter `t`): someone liked you,
//! with a button to view the profile. An island in the member layout that asks
//! `/api/auto-like` once per page: after `t` seconds when the address carries `?t=N` (then the
//! parameter leaves the address), otherwise 30 s after a member-area page loads during a new
//! member's first week, when the site gives auto-likes. 500 ms after the call the counters reload.

use domain::likes::Liker;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LikePopupLabels {
    /// "{name} vindt jou leuk!"
    pub title: String,
    pub view_profile: String,
    pub close: String,
}

/// `auto`: the member may be due an auto-like now (new member, site gives them).
#[island(lazy)]
pub fn LikePopup(auto: bool, labels: LikePopupLabels) -> impl IntoView {
    let shown = RwSignal::new(None::<Liker>);
    let view_button = NodeRef::<leptos::html::A>::new();
    #[cfg(feature = "hydrate")]
    {
        ask::start(auto, shown);
        // A modal takes the focus when it opens, on its main action.
        Effect::new(move |_| {
            if shown.get().is_some() {
                if let Some(button) = view_button.get() {
                    let _ = button.focus();
                }
            }
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = auto;
    move || {
        shown.get().map(|p| {
            let title = domain::i18n::interpolate(&labels.title, &[("name", &p.name)]);
            let initial = crate::ui::initial(&p.name);
            view! {
                <div class="like-modal" role="dialog" aria-modal="true" aria-labelledby="like-modal-title" data-testid="like-popup"
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { shown.set(None) }>
                    <div class="like-modal__body">
                        {match p.photo.clone() {
                            Some(src) => view! { <img class="like-modal__photo" src=src alt=""/> }.into_any(),
                            None => view! { <span class="like-modal__photo portrait--empty" aria-hidden="true">{initial}</span> }.into_any(),
                        }}
                        <h2 id="like-modal-title" class="like-modal__title">{title}</h2>
                        <p class="muted">{format!("{}, {}", p.age, p.place)}</p>
                        <div class="like-modal__actions">
                            <a class="btn btn--primary" href=crate::paths::liked_member(p.id) node_ref=view_button data-testid="like-popup-view">{labels.view_profile.clone()}</a>
                            <button type="button" class="btn btn--ghost" on:click=move |_| shown.set(None) data-testid="like-popup-close">{labels.close.clone()}</button>
                        </div>
                    </div>
                </div>
            }
        })
    }
}

#[cfg(feature = "hydrate")]
mod ask {
    use std::time::Duration;

    use domain::likes::Liker;
    use domain::notifications::{AUTO_LIKE_DELAY_SECS, LIKES_RELOAD_MS};
    use leptos::prelude::*;

    use crate::browser;

    pub fn start(auto: bool, shown: RwSignal<Option<Liker>>) {
        // `t` wins; values beyond an hour are not meant seriously.
        let t = browser::query_param("t").and_then(|v| v.parse::<u32>().ok()).map(|t| t.min(3600));
        let delay = match (t, auto) {
            (Some(t), _) => t,
            (None, true) => AUTO_LIKE_DELAY_SECS,
            (None, false) => return,
        };
        set_timeout(
            move || {
                leptos::task::spawn_local(async move {
                    if let Ok(Some(liker)) = crate::features::likes::server_fns::auto_like().await {
                        shown.set(Some(liker));
                    }
                    if t.is_some() {
                        browser::drop_param("t");
                    }
                    set_timeout(browser::request_counts_refresh, Duration::from_millis(LIKES_RELOAD_MS.into()));
                });
            },
            Duration::from_secs(delay.into()),
        );
    }
}
