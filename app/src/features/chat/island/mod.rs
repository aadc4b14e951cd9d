//! The live chat: an island that hosts the React `ChatPanel` widget, keeps its props, calls
//! the chat's server functions for what the member does, and listens on the chat socket
//! (`/ws`) for what others do. While the socket is down it reconnects with backoff and jitter
//! and refreshes the list and the open conversation on the SPEC's period instead.
//!
//! The server-rendered view beside it (see `page.rs`) works without JavaScript; once the
//! widget is mounted the island marks the page live and that view steps aside.

use domain::widgets::CHAT_EVENT;
use leptos::prelude::*;

use super::server_fns::ChatPageData;
use crate::widgets::ReactWidget;

/// `page_json`: the page's `ChatPageData` as JSON. The island reads it, the socket's pushes and
/// the widget's events as bytes (`serde_json::from_slice`), as the server functions' client
/// reads their answers: each type then has one reader in the module, not one per input kind
/// (a whole-props island argument is read from a `&str`, which doubled them).
#[island(lazy)]
pub fn ChatIsland(page_json: String) -> impl IntoView {
    // Unreadable props (never written by this server): the page's own view without JavaScript stays.
    let Ok(page) = serde_json::from_slice::<ChatPageData>(page_json.as_bytes()) else { return ().into_any() };
    let ChatPageData { props, latest, errors } = page;
    let state = RwSignal::new(props);
    let json = Signal::derive(move || serde_json::to_string(&state.get()).unwrap_or_default());
    let host = NodeRef::<leptos::html::Div>::new();
    #[cfg(feature = "hydrate")]
    let on_event = Some(live::start(state, latest, errors, host));
    #[cfg(not(feature = "hydrate"))]
    let on_event: Option<Callback<String>> = {
        let _ = (latest, errors);
        None
    };
    view! {
        <div class="chat-island" node_ref=host>
            {match on_event {
                Some(on_event) => view! { <ReactWidget name="ChatPanel" props=json event=CHAT_EVENT on_event=on_event class="chat-panel"/> }.into_any(),
                None => view! { <ReactWidget name="ChatPanel" props=json class="chat-panel"/> }.into_any(),
            }}
        </div>
    }
    .into_any()
}

#[cfg(feature = "hydrate")]
mod live;
