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
    // Push (SPEC §4, §7): capable|permission|subscribed, e.g. 1|default|0.
    export function vonk_push_facts() {
        try {
            if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return Promise.resolve('0|unsupported|0');
            const permission = Notification.permission;
            return navigator.serviceWorker.getRegistration()
                .then(r => r ? r.pushManager.getSubscription() : null)
                .then(s => '1|' + permission + '|' + (s ? 1 : 0), () => '1|' + permission + '|0');
        } catch (e) { return Promise.resolve('0|unsupported|0'); }
    }
    function vonk_sub_lines(s) {
        const j = s.toJSON();
        return [j.endpoint, (j.keys && j.keys.p256dh) || '', (j.keys && j.keys.auth) || ''].join('\\n');
    }
    // Asks for permission, registers the service worker and subscribes; resolves with
    // the endpoint, p256dh and auth on three lines, or '' when the member said no or the browser could not.
    export function vonk_push_subscribe(key) {
        try {
            const b64 = key.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - key.length % 4) % 4);
            const server_key = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
            return Notification.requestPermission()
                .then(p => p === 'granted' ? navigator.serviceWorker.register('/sw.js?v=2').then(() => navigator.serviceWorker.ready) : null)
                .then(reg => reg ? reg.pushManager.getSubscription().then(s => s || reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: server_key })) : null)
                .then(s => s ? vonk_sub_lines(s) : '', () => '');
        } catch (e) { return Promise.resolve(''); }
    }
    // The subscription this browser already holds (and the service worker kept up to date), or ''.
    export function vonk_push_current() {
        try {
            if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window) || Notification.permission !== 'granted') return Promise.resolve('');
            return navigator.serviceWorker.register('/sw.js?v=2')
                .then(reg => reg.pushManager.getSubscription())
                .then(s => s ? vonk_sub_lines(s) : '', () => '');
        } catch (e) { return Promise.resolve(''); }
    }
    // Calls back when the service worker reports a push or a click on one.
    export function vonk_push_listen(callback) {
        try {
            if (!('serviceWorker' in navigator)) return;
            navigator.serviceWorker.addEventListener('message', e => {
                const t = e.data && e.data.type;
                if (t === 'NEW_PUSH_MESSAGE' || t === 'NEW_PUSH_CLICK') callback();
            });
        } catch (e) {}
    }
    // The installed app's back button goes back in history when the last page was ours.
    export function vonk_app_back() {
        document.addEventListener('click', e => {
            const a = e.target && e.target.closest ? e.target.closest('a[data-app-back]') : null;
            if (!a) return;
            try {
                if (history.length > 1 && document.referrer && new URL(document.referrer).origin === location.origin) {
                    e.preventDefault();
                    history.back();
                }
            } catch (x) {}
        });
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
    fn vonk_push_facts() -> js_sys::Promise;
    fn vonk_app_back();
    fn vonk_push_subscribe(key: &str) -> js_sys::Promise;
    fn vonk_push_current() -> js_sys::Promise;
    fn vonk_push_listen(callback: &Closure<dyn Fn()>);
    fn vonk_drop_param(name: &str);
}

/// SPEC §4: the app badge shows unread messages plus new likes where the browser supports it.
pub fn set_badge(count: i64) {
    vonk_set_badge(count.max(0) as f64);
}

pub async fn push_subscribed() -> bool {
    JsFuture::from(vonk_push_subscribed()).await.ok().and_then(|v| v.as_bool()).unwrap_or(false)
}

/// SPEC §2: the installed app's back button goes back in history (its link is the fallback).
pub fn app_back_button() {
    vonk_app_back();
}

/// Waits `ms` milliseconds.
pub async fn sleep(ms: u32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms as i32);
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// SPEC §7: a read that failed (network, a node restarting) is tried again up to five times,
/// waiting longer each time; the last answer is the one that counts.
pub async fn with_retries<T, E, F, Fut>(mut call: F) -> Result<T, E>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, E>>,
{
    for delay in domain::constants::retry_delays_ms() {
        match call().await {
            Ok(value) => return Ok(value),
            Err(_) => sleep(delay).await,
        }
    }
    call().await
}

/// Where push stands in this browser (SPEC §4's five states).
pub async fn push_state() -> domain::push::PushState {
    let facts = JsFuture::from(vonk_push_facts()).await.ok().and_then(|v| v.as_string()).unwrap_or_default();
    let mut parts = facts.split('|');
    let (capable, permission, subscribed) = (parts.next() == Some("1"), parts.next().unwrap_or(""), parts.next() == Some("1"));
    domain::push::PushState::from_browser(capable, permission, subscribed)
}

fn subscription_from(lines: Option<String>) -> Option<domain::push::Subscription> {
    let lines = lines?;
    let mut parts = lines.split('\n');
    let (endpoint, p256dh, auth) = (parts.next()?, parts.next()?, parts.next()?);
    domain::push::Subscription { endpoint: endpoint.into(), p256dh: p256dh.into(), auth: auth.into() }.validate().ok()
}

/// Asks to allow notifications and subscribes with the site's key; `None` when the member
/// declined or the browser could not subscribe.
pub async fn push_subscribe(key: &str) -> Option<domain::push::Subscription> {
    subscription_from(JsFuture::from(vonk_push_subscribe(key)).await.ok().and_then(|v| v.as_string()))
}

/// This browser's existing subscription, when notifications are allowed.
pub async fn push_current() -> Option<domain::push::Subscription> {
    subscription_from(JsFuture::from(vonk_push_current()).await.ok().and_then(|v| v.as_string()))
}

/// Refreshes the counters whenever the service worker shows a push or one is clicked.
pub fn refresh_counts_on_push() {
    let callback = Closure::<dyn Fn()>::new(request_counts_refresh);
    vonk_push_listen(&callback);
    // The listener lives as long as the page.
    callback.forget();
}

/// What the first form field matching `selector` holds now.
pub fn field_value(selector: &str) -> Option<String> {
    let field = web_sys::window()?.document()?.query_selector(selector).ok()??;
    js_sys::Reflect::get(&field, &JsValue::from_str("value")).ok()?.as_string()
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
