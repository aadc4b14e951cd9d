//! What every form of the app shares. A page's form is an `ActionForm` of its server function:
//! it posts to the function's URL, with or without JavaScript. On success the function sends the
//! browser on; on a refusal Leptos brings the browser back to the page with the error in the URL,
//! and the page's `ServerAction` holds it again, so [`ActionError`] shows it, translated, next to
//! the form it belongs to.

use domain::ApiError;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

use crate::i18n::use_i18n;

/// The translated refusal of the last call of `action`, if there was one.
#[component]
pub fn ActionError<S>(action: ServerAction<S>) -> impl IntoView
where
    S: ServerFn<Error = ApiError> + Clone + Send + Sync + 'static,
    S::Output: Send + Sync + 'static,
{
    let i18n = use_i18n();
    move || {
        action.value().with(|v| v.as_ref().and_then(|r| r.as_ref().err().cloned())).map(|e| {
            view! { <p class="notice notice--error" role="alert" data-testid="form-error" data-code=e.code.as_str()>{i18n.error(&e)}</p> }
        })
    }
}

/// The refusal of the server function at `path` that the URL carries (a form posted without
/// JavaScript comes back with it), for functions that cannot have a `ServerAction` (multipart).
#[component]
pub fn UrlError(path: &'static str) -> impl IntoView {
    let query = leptos_router::hooks::use_query_map().get_untracked();
    let error = (query.get("__path").as_deref() == Some(path))
        .then(|| query.get("__err"))
        .flatten()
        .map(|err| leptos::server_fn::error::ServerFnUrlError::<ApiError>::decode_err(&err));
    let i18n = use_i18n();
    error.map(|e| view! { <p class="notice notice--error" role="alert" data-testid="form-error" data-code=e.code.as_str()>{i18n.error(&e)}</p> })
}

/// A `<textarea>` with `value` in it. Leptos' renderer writes a textarea's children as they
/// are, as it does a `<script>`'s, so a value holding `</textarea>` would end the element and
/// put the rest on the page as live markup (a form, a meta refresh). On the server the value is
/// escaped here; in the browser it is text. Every textarea of the app is this component, and
/// its other attributes are given with `attr:` (`<TextArea value=v attr:name="text"/>`).
#[component]
pub fn TextArea(#[prop(optional, into)] value: String) -> impl IntoView {
    #[cfg(feature = "ssr")]
    let value = escape_text(&value);
    view! { <textarea>{value}</textarea> }
}

/// `text` as the content of a raw-text element (`&` and `<` are all that can end or change it).
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// The path of the page being shown, with its query: forms send it as `return_to` so that a
/// function can come back to exactly this page.
pub fn current_path() -> String {
    let location = leptos_router::hooks::use_location();
    let path = location.pathname.get_untracked();
    let query = location.search.get_untracked();
    let query: String = url_pairs(&query).filter(|(k, _)| k != "__path" && k != "__err").map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&");
    if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    }
}

fn url_pairs(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()).map(|p| match p.split_once('=') {
        Some((k, v)) => (k.to_string(), v.to_string()),
        None => (p.to_string(), String::new()),
    })
}

/// `path` with `param` added to its query, before any `#anchor`.
pub fn with_param(path: &str, param: &str) -> String {
    let (path, anchor) = path.split_once('#').map(|(p, a)| (p, format!("#{a}"))).unwrap_or((path, String::new()));
    let sep = if path.contains('?') { '&' } else { '?' };
    format!("{path}{sep}{param}{anchor}")
}

/// A page's refusal (another member's checkout or check, a gone address): its text, and the
/// refusal's HTTP status on the server's answer.
#[component]
pub fn RefusedNotice(error: domain::ApiError) -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::from_u16(error.code.http_status()).unwrap_or(http::StatusCode::NOT_FOUND));
    }
    view! { <p class="notice notice--error" role="alert">{crate::i18n::use_i18n().error(&error)}</p> }
}
