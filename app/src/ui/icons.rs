//! Inline SVG icons (drawn for Vonk; decorative, so hidden from assistive technology).

use leptos::prelude::*;

#[component]
pub fn FlameIcon(#[prop(optional)] class: &'static str) -> impl IntoView {
    view! {
        <svg class=class viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M12.6 2.2c.5 3-1 4.9-2.6 6.6-1.5 1.6-3 3.2-3 5.9A5 5 0 0 0 12 20a5 5 0 0 0 5-5.2c0-1.9-.8-3.3-1.8-4.6-.1 1.3-.7 2.4-1.8 2.9.6-3.3-.2-7.4-.8-10.9z"/>
        </svg>
    }
}

#[component]
pub fn GlobeIcon() -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="1.8"/>
            <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" fill="none" stroke="currentColor" stroke-width="1.8"/>
        </svg>
    }
}

#[component]
pub fn CheckIcon() -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M5 12.5l4.2 4.2L19 7" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>
        </svg>
    }
}

/// Icons that repeat on a page (a heart on every card) are drawn once here and referenced.
#[component]
pub fn IconSprite() -> impl IntoView {
    view! {
        <svg class="icon-sprite" aria-hidden="true" focusable="false" width="0" height="0">
            <symbol id="i-heart" viewBox="0 0 24 24">
                <path fill="currentColor" d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8 3.5 4.5 7 4.5c2 0 3.6 1.1 5 2.9 1.4-1.8 3-2.9 5-2.9 3.5 0 5.5 3.5 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2z"/>
            </symbol>
        </svg>
    }
}

#[component]
pub fn HeartIcon() -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><use href="#i-heart"></use></svg>
    }
}

#[component]
pub fn ClockIcon() -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <circle cx="12" cy="13" r="8" fill="none" stroke="currentColor" stroke-width="1.9"/>
            <path d="M12 9v4.2l2.8 1.8M9.5 2.8h5" fill="none" stroke="currentColor" stroke-width="1.9" stroke-linecap="round" stroke-linejoin="round"/>
        </svg>
    }
}

#[component]
pub fn ShieldIcon() -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M12 2.8l7.5 3v5.6c0 4.6-3.1 8.5-7.5 9.8-4.4-1.3-7.5-5.2-7.5-9.8V5.8z" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/>
            <path d="M8.5 12l2.4 2.4 4.6-4.8" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/>
        </svg>
    }
}

#[component]
pub fn MaskIcon() -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M3 8.5c3-1.6 6-2 9-2s6 .4 9 2c0 5-2.2 8-5 8-2 0-2.6-2-4-2s-2 2-4 2c-2.8 0-5-3-5-8z" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/>
            <circle cx="8.3" cy="11" r="1.4" fill="currentColor"/><circle cx="15.7" cy="11" r="1.4" fill="currentColor"/>
        </svg>
    }
}

#[component]
pub fn GiftIcon() -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <rect x="3.5" y="8.5" width="17" height="4" rx="1" fill="none" stroke="currentColor" stroke-width="1.8"/>
            <path d="M5 12.5v8h14v-8M12 8.5v12M12 8.5c-1.5-3.5-5.5-4-5.5-1.5S12 8.5 12 8.5zm0 0c1.5-3.5 5.5-4 5.5-1.5S12 8.5 12 8.5z" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/>
        </svg>
    }
}

#[component]
pub fn ChatIcon() -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M4 5.5h16v10H9l-5 4z" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/>
        </svg>
    }
}

#[component]
pub fn LockIcon() -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <rect x="5" y="10.5" width="14" height="10" rx="2.2" fill="currentColor"/>
            <path d="M8.2 10.5V8a3.8 3.8 0 0 1 7.6 0v2.5" fill="none" stroke="currentColor" stroke-width="2.2"/>
        </svg>
    }
}

/// A bell: notifications.
#[component]
pub fn BellIcon() -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-1.7 1.7A1 1 0 0 0 4 19.4h16a1 1 0 0 0 .7-1.7z"/>
        </svg>
    }
}
