//! Small browser calls the islands share: the app badge, whether push
//! is subscribed, and query parameters. Every helper swallows the browser's refusals (SPEC §8:
//! badge failures are ignored), so an island never breaks over an optional feature.

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(inline_js = "
    export function vonk_set_badge(n) {
        try {
            const p = n > 0 ? navigator.setAppBadge && navigator.setAppBadge(n) : navigator.clearAppBadge && navigator.clearAppBadge();
            if (p && p.catch) p.catch(() => {});
        } catch (e) {}
    }
    export function vonk_push_subscribed() {
        try {
            if (!('serviceWorker' in navigator) || !('PushManager' in window)) return Promise.resolve(false);
            return navigator.serviceWorker.getRegistration()
                .then(r => r ? r.pushManager.getSubscription().then(s => !!s) : false).catch(() => false);
        } catch (e) { return Promise.resolve(false); }
    }
    export function vonk_query_param(name) { return new URL(location.href).searchParams.get(name); }
    export function vonk_drop_param(name) {
        const u = new URL(location.href);
        if (u.searchParams.has(name)) {
            u.searchParams.delete(name);
            history.replaceState(history.state, '', u.pathname + u.search + u.hash);
        }
    }
")]
extern "C" {
    fn vonk_set_badge(n: f64);
    fn vonk_push_subscribed() -> js_sys::Promise;
    fn vonk_query_param(name: &str) -> Option<String>;
    fn vonk_drop_param(name: &str);
}

/// SPEC §4: the app badge shows unread messages plus new likes where the browser supports it.
pub fn set_badge(count: i64) {
    vonk_set_badge(count.max(0) as f64);
}

pub async fn push_subscribed() -> bool {
    JsFuture::from(vonk_push_subscribed()).await.ok().and_then(|v| v.as_bool()).unwrap_or(false)
}

pub fn query_param(name: &str) -> Option<String> {
    vonk_query_param(name)
}

/// Removes a parameter from the address bar without a reload.
pub fn drop_param(name: &str) {
    vonk_drop_param(name);
}

/// SPEC §2: the document title starts with the count of unread messages plus new likes.
pub fn set_title_count(counters: &domain::counters::Counters) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let title = document.title();
    let base = domain::counters::strip_count(&title);
    let next = match counters.title_prefix() {
        Some(prefix) => format!("{prefix}{base}"),
        None => base.to_string(),
    };
    if next != title {
        document.set_title(&next);
    }
}

/// Asks the counters in the top bar to refresh now (after an auto-like, say).
pub const COUNTS_EVENT: &str = "vonk:counts";

pub fn request_counts_refresh() {
    if let Some(window) = web_sys::window() {
        if let Ok(event) = web_sys::Event::new(COUNTS_EVENT) {
            let _ = window.dispatch_event(&event);
        }
    }
}
