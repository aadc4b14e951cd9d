//! The island's live side (in the browser only): its state, the widget's actions and the calls
//! to the chat's server functions; the socket and what its pushes change are in `socket.rs`.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Duration;

use domain::chat::{Gift, MessageKind, TYPING_EXPIRY_SECS, TYPING_THROTTLE_SECS};
use domain::chat_socket::Push;
use domain::widgets::{ChatAction, ChatAlert, ChatLink, ChatMessage, ChatPanelProps, Connection, OpenChat, PendingMessage};
use domain::ApiError;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::features::chat::server_fns as api;

/// What a send carries, kept for a retry.
#[derive(Clone)]
enum Outbox {
    Text(String),
    Gift(Gift),
    Photo(SendWrapper<web_sys::File>),
}

struct Live {
    state: RwSignal<ChatPanelProps>,
    errors: BTreeMap<String, String>,
    /// The newest message id this tab has: where the socket resumes.
    last_id: Cell<i64>,
    outbox: RefCell<BTreeMap<String, Outbox>>,
    /// Sends waiting their turn: one at a time, in the order they were made, so that messages
    /// typed one after the other arrive and are numbered in that order.
    queue: RefCell<std::collections::VecDeque<(String, Outbox)>>,
    sending: Cell<bool>,
    attempts: Cell<u32>,
    socket: RefCell<Option<web_sys::WebSocket>>,
    last_typing_sent: Cell<f64>,
    typing_seq: Cell<u32>,
    refresh_timer: RefCell<Option<IntervalHandle>>,
    seen_sent: Cell<i64>,
    /// Which socket is the current one (a late close of an old one changes nothing).
    generation: Cell<u32>,
    /// The socket gave way to a newer tab of the same session: it comes back when this tab
    /// is shown again.
    parked: Cell<bool>,
    /// The unread total last pushed: every socket opens with it, and only a change asks the
    /// top bar to refresh its counters.
    unread: Cell<Option<i64>>,
}

type Shared = SendWrapper<Rc<Live>>;

mod socket;
use socket::{connect, watch_network};

pub fn start(state: RwSignal<ChatPanelProps>, latest: i64, errors: BTreeMap<String, String>, host: NodeRef<leptos::html::Div>) -> Callback<String> {
    let live = Rc::new(Live {
        state,
        errors,
        last_id: Cell::new(latest),
        outbox: RefCell::new(BTreeMap::new()),
        queue: RefCell::new(std::collections::VecDeque::new()),
        sending: Cell::new(false),
        attempts: Cell::new(0),
        socket: RefCell::new(None),
        last_typing_sent: Cell::new(0.0),
        typing_seq: Cell::new(0),
        refresh_timer: RefCell::new(None),
        seen_sent: Cell::new(0),
        generation: Cell::new(0),
        parked: Cell::new(false),
        unread: Cell::new(None),
    });
    // The page is live: the server-rendered view steps aside. The photo event carries a
    // File, which the JSON bridge cannot: it is read here from the event itself.
    let shared = SendWrapper::new(live.clone());
    Effect::new(move |_| {
        let Some(div) = host.get() else { return };
        let el: web_sys::Element = div.unchecked_into();
        if let Ok(Some(chat)) = el.closest(".chat") {
            // What was typed into the page's own form while the panel loaded goes with it.
            let typed = chat
                .query_selector("#chat-text")
                .ok()
                .flatten()
                .and_then(|text| js_sys::Reflect::get(&text, &"value".into()).ok())
                .and_then(|v| v.as_string())
                .filter(|v| !v.trim().is_empty());
            if let Some(typed) = typed {
                shared.state.update(|s| s.draft = typed);
            }
            let _ = chat.class_list().add_1("chat--live");
        }
        let for_photo = shared.clone();
        let listener = Closure::<dyn Fn(web_sys::Event)>::new(move |e: web_sys::Event| {
            let Some(detail) = e.dyn_ref::<web_sys::CustomEvent>().map(|ce| ce.detail()) else { return };
            let action = js_sys::Reflect::get(&detail, &"action".into()).ok().and_then(|a| a.as_string());
            if action.as_deref() != Some("send_photo") {
                return;
            }
            let client_id = js_sys::Reflect::get(&detail, &"client_id".into()).ok().and_then(|a| a.as_string()).unwrap_or_default();
            if let Some(file) = js_sys::Reflect::get(&detail, &"file".into()).ok().and_then(|f| f.dyn_into::<web_sys::File>().ok()) {
                send(&for_photo, client_id, Outbox::Photo(SendWrapper::new(file)));
            }
        });
        let _ = el.add_event_listener_with_callback(domain::widgets::CHAT_EVENT, listener.as_ref().unchecked_ref());
        listener.forget();
    });
    connect(&SendWrapper::new(live.clone()));
    watch_network(&SendWrapper::new(live.clone()));
    let shared = SendWrapper::new(live);
    Callback::new(move |detail: String| {
        if let Ok(action) = serde_json::from_slice::<ChatAction>(detail.as_bytes()) {
            on_action(&shared, action);
        }
    })
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

fn open_id(live: &Live) -> Option<i64> {
    live.state.with_untracked(|s| s.open.as_ref().and_then(|o| o.id))
}

fn open_member(live: &Live) -> Option<i64> {
    live.state.with_untracked(|s| s.open.as_ref().map(|o| o.peer.id))
}

fn push_url(path: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.push_state_with_url(&JsValue::NULL, "", Some(path));
    }
}

fn error_text(live: &Live, error: &ApiError) -> String {
    live.errors
        .get(error.code.as_str())
        .map(|t| domain::i18n::interpolate(t, &error.arg_pairs()))
        .or_else(|| live.errors.get("internal").cloned())
        .unwrap_or_default()
}

/// A refusal in the alert above the footer, with the way out it offers.
fn show_alert(live: &Live, error: &ApiError) {
    let link = match error.code {
        domain::ErrorCode::InsufficientCredits => {
            Some(ChatLink { href: "/credits".into(), text: live.errors.get("credits_link").cloned().unwrap_or_default() })
        }
        domain::ErrorCode::PremiumOnly => Some(ChatLink { href: "/premium".into(), text: live.errors.get("premium_link").cloned().unwrap_or_default() }),
        domain::ErrorCode::AgeCheckRequired => {
            Some(ChatLink { href: crate::paths::age_check(None), text: live.errors.get("age_link").cloned().unwrap_or_default() })
        }
        _ => None,
    };
    let alert = ChatAlert { code: error.code.as_str().to_string(), text: error_text(live, error), link };
    live.state.update(|s| {
        s.alert = Some(alert);
        if error.code == domain::ErrorCode::BlockedByMember {
            if let Some(open) = s.open.as_mut() {
                open.blocked = true;
            }
        }
    });
}

fn on_action(live: &Shared, action: ChatAction) {
    match action {
        ChatAction::Open { conversation } => open(live, conversation),
        ChatAction::Back => {
            live.state.update(|s| s.open = None);
            push_url("/chats");
        }
        ChatAction::Send { client_id, text } => send(live, client_id, Outbox::Text(text)),
        ChatAction::SendGift { client_id, gift } => send(live, client_id, Outbox::Gift(gift)),
        // Read from the DOM event itself (it carries the File), see `start`.
        ChatAction::SendPhoto { .. } => {}
        ChatAction::Retry { client_id } => {
            let again = live.outbox.borrow().get(&client_id).cloned();
            if let Some(content) = again {
                send(live, client_id, content);
            }
        }
        ChatAction::Discard { client_id } => {
            live.outbox.borrow_mut().remove(&client_id);
            live.state.update(|s| {
                if let Some(open) = s.open.as_mut() {
                    open.pending.retain(|p| p.client_id != client_id);
                }
            });
        }
        ChatAction::LoadOlder { before } => load_older(live, before),
        ChatAction::Delete { conversation } => delete(live, conversation),
        ChatAction::Block { member } => {
            leptos::task::spawn_local(async move {
                let _ = crate::features::members::server_fns::block(member).await;
                if let Some(w) = web_sys::window() {
                    let _ = w.location().set_href(&crate::paths::member_notice(member, crate::paths::ProfileNotice::Blocked));
                }
            });
        }
        ChatAction::Typing => {
            let Some(conversation) = open_id(live) else { return };
            if now_ms() - live.last_typing_sent.get() < f64::from(TYPING_THROTTLE_SECS) * 1000.0 {
                return;
            }
            live.last_typing_sent.set(now_ms());
            leptos::task::spawn_local(async move {
                let _ = api::chat_typing(conversation).await;
            });
        }
        ChatAction::Seen { up_to } => {
            let Some(conversation) = open_id(live) else { return };
            if up_to <= live.seen_sent.get() {
                return;
            }
            live.seen_sent.set(up_to);
            live.state.update(|s| {
                if let Some(item) = s.conversations.as_mut().and_then(|l| l.iter_mut().find(|c| c.id == conversation)) {
                    item.unread = 0;
                }
            });
            leptos::task::spawn_local(async move {
                let _ = api::mark_chat_read(conversation, up_to).await;
            });
        }
        ChatAction::DismissAlert => live.state.update(|s| s.alert = None),
    }
}

fn open(live: &Shared, conversation: i64) {
    push_url(&crate::paths::chat(conversation));
    live.state.update(|s| {
        s.alert = None;
        if let Some(item) = s.conversations.as_mut().and_then(|l| l.iter_mut().find(|c| c.id == conversation)) {
            // SPEC §4: opening a conversation sets its unread count to 0.
            item.unread = 0;
            s.open = Some(OpenChat {
                id: Some(conversation),
                peer: item.peer.clone(),
                messages: Vec::new(),
                has_older: false,
                loading_older: true,
                pending: Vec::new(),
                delivered_up_to: 0,
                read_up_to: 0,
                peer_typing: false,
                peer_unconfirmed: false,
                blocked: false,
            });
        }
    });
    let live = live.clone();
    leptos::task::spawn_local(async move {
        match crate::browser::with_retries(|| api::chat_thread(Some(conversation), None)).await {
            Ok(thread) => {
                if let Some(newest) = thread.messages.iter().map(|m| m.id).max() {
                    live.last_id.set(live.last_id.get().max(newest));
                }
                live.state.update(|s| {
                    if s.open.as_ref().and_then(|o| o.id) == Some(conversation) {
                        s.open = Some(thread);
                    }
                });
            }
            Err(error) => show_alert(&live, &error),
        }
    });
}

fn kind_of(content: &Outbox) -> (MessageKind, String, Option<Gift>, Option<String>) {
    match content {
        Outbox::Text(t) => (MessageKind::Text, t.clone(), None, None),
        Outbox::Gift(g) => (MessageKind::Gift, String::new(), Some(*g), None),
        Outbox::Photo(file) => (MessageKind::Photo, String::new(), None, web_sys::Url::create_object_url_with_blob(file).ok()),
    }
}

/// Sends a message: shown at once as pending, then sent after the ones before it. Contact
/// details are the server's to judge (`domain::contact`, with the sender's earlier tries, which
/// only it knows): a refusal comes back like any other, the text is put back in the composer and
/// nothing is sent.
fn send(live: &Shared, client_id: String, content: Outbox) {
    if open_id(live).is_none() && open_member(live).is_none() {
        return;
    }
    live.outbox.borrow_mut().insert(client_id.clone(), content.clone());
    // Typing after this send is news again for the peer.
    live.last_typing_sent.set(0.0);
    let (kind, body, gift, photo) = kind_of(&content);
    live.state.update(|s| {
        s.alert = None;
        if let Some(open) = s.open.as_mut() {
            open.pending.retain(|p| p.client_id != client_id);
            open.pending.push(PendingMessage { client_id: client_id.clone(), kind, body, gift, photo, failed: false });
        }
    });
    live.queue.borrow_mut().push_back((client_id, content));
    if !live.sending.replace(true) {
        let live = live.clone();
        leptos::task::spawn_local(async move {
            loop {
                let next = live.queue.borrow_mut().pop_front();
                let Some((client_id, content)) = next else { break };
                deliver(&live, client_id, content).await;
            }
            live.sending.set(false);
        });
    }
}

/// One send to the server, and what its answer changes. The first message to a member opens the
/// conversation; the ones queued behind it go to that conversation.
async fn deliver(live: &Shared, client_id: String, content: Outbox) {
    let (conversation, member) = (open_id(live), open_member(live));
    if conversation.is_none() && member.is_none() {
        return;
    }
    let typed = match &content {
        Outbox::Text(text) => Some(text.clone()),
        _ => None,
    };
    {
        let result = match content {
            Outbox::Text(text) => api::send_message(conversation, member.filter(|_| conversation.is_none()), client_id.clone(), text, None).await,
            Outbox::Gift(gift) => {
                api::send_message(conversation, member.filter(|_| conversation.is_none()), client_id.clone(), String::new(), Some(gift.code().to_string()))
                    .await
            }
            Outbox::Photo(file) => {
                let form = web_sys::FormData::new().expect("FormData");
                let _ = form.append_with_str("client_id", &client_id);
                match conversation {
                    Some(id) => {
                        let _ = form.append_with_str("conversation", &id.to_string());
                    }
                    None => {
                        let _ = form.append_with_str("member", &member.unwrap_or_default().to_string());
                    }
                }
                let _ = form.append_with_blob("photo", &file);
                api::send_chat_photo(form.into()).await
            }
        };
        match result {
            Ok(sent) => {
                live.outbox.borrow_mut().remove(&client_id);
                live.state.update(|s| {
                    s.balance = sent.balance;
                    s.free_messages = sent.free_left;
                    if let Some(text) = sent.notice {
                        s.alert = Some(ChatAlert { code: "contact".into(), text, link: None });
                    }
                });
                let first = conversation.is_none();
                add_message(live, sent.message.clone());
                if first {
                    push_url(&crate::paths::chat(sent.message.conversation));
                    reload_list(live);
                }
            }
            Err(error) => {
                use domain::ErrorCode::*;
                let final_refusal = matches!(
                    error.code,
                    InsufficientCredits
                        | PremiumOnly
                        | BlockedByMember
                        | MessageTooLong
                        | MessageEmpty
                        | ContactDetailsRefused
                        | ContactDetailsRepeated
                        | NotFound
                        | PhotoTooLarge
                        | PhotoNotAnImage
                        | PhotoUnreadable
                        | PhotoTooManyPixels
                        | PhotoNoFile
                        | AgeCheckRequired
                );
                live.state.update(|s| {
                    if let Some(open) = s.open.as_mut() {
                        if final_refusal {
                            open.pending.retain(|p| p.client_id != client_id);
                        } else if let Some(p) = open.pending.iter_mut().find(|p| p.client_id == client_id) {
                            p.failed = true;
                        }
                    }
                });
                if final_refusal {
                    live.outbox.borrow_mut().remove(&client_id);
                    show_alert(live, &error);
                    if let Some(text) =
                        typed.as_deref().filter(|_| matches!(error.code, MessageTooLong | ContactDetailsRefused | ContactDetailsRepeated | AgeCheckRequired))
                    {
                        restore_draft(live, text);
                    }
                }
            }
        }
    }
}

/// Puts a refused text back into the composer (when it is empty) so it can be changed.
fn restore_draft(live: &Shared, text: &str) {
    live.state.update(|s| s.draft = String::new());
    live.state.update(|s| s.draft = text.to_string());
}

/// A stored message into the open conversation and the list (each id once).
fn add_message(live: &Shared, message: ChatMessage) {
    live.last_id.set(live.last_id.get().max(message.id));
    let mut list_knows = false;
    live.state.update(|s| {
        let is_open = match s.open.as_mut() {
            Some(open) if open.id == Some(message.conversation) || (open.id.is_none() && message.mine) => {
                open.id = Some(message.conversation);
                if !message.client_id.is_empty() {
                    open.pending.retain(|p| p.client_id != message.client_id);
                }
                if !message.mine {
                    open.peer_typing = false;
                }
                if !open.messages.iter().any(|m| m.id == message.id) {
                    let at = open.messages.partition_point(|m| m.id < message.id);
                    open.messages.insert(at, message.clone());
                }
                true
            }
            _ => false,
        };
        if let Some(list) = s.conversations.as_mut() {
            if let Some(pos) = list.iter().position(|c| c.id == message.conversation) {
                list_knows = true;
                let mut item = list.remove(pos);
                if message.at >= item.last_at {
                    item.last = match message.kind {
                        MessageKind::Text => domain::chat::preview(&message.body),
                        MessageKind::Photo => s.labels.photo_sent.clone(),
                        MessageKind::Gift => domain::i18n::interpolate(
                            &s.labels.gift_sent,
                            &[("gift", &message.gift.and_then(|g| s.gifts.iter().find(|o| o.gift == g)).map(|o| o.label.clone()).unwrap_or_default())],
                        ),
                    };
                    item.last_at = message.at;
                    item.last_mine = message.mine;
                }
                if !message.mine && !is_open {
                    item.unread += 1;
                }
                list.insert(0, item);
            }
        }
    });
    if !list_knows {
        reload_list(live);
    }
}

fn reload_list(live: &Shared) {
    let live = live.clone();
    leptos::task::spawn_local(async move {
        if let Ok(list) = crate::browser::with_retries(api::chat_list).await {
            let open = open_id(&live);
            live.state.update(|s| {
                s.conversations = Some(
                    list.into_iter()
                        .map(|mut c| {
                            if Some(c.id) == open {
                                c.unread = 0;
                            }
                            c
                        })
                        .collect(),
                );
            });
        }
    });
}

fn reload_open(live: &Shared) {
    let (conversation, member) = (open_id(live), open_member(live));
    if conversation.is_none() && member.is_none() {
        return;
    }
    let live = live.clone();
    leptos::task::spawn_local(async move {
        if let Ok(mut thread) = crate::browser::with_retries(|| api::chat_thread(conversation, member.filter(|_| conversation.is_none()))).await {
            live.state.update(|s| {
                if let Some(open) = s.open.as_ref() {
                    if open.peer.id == thread.peer.id {
                        thread.pending = open.pending.clone();
                        s.open = Some(thread);
                    }
                }
            });
        }
    });
}

fn load_older(live: &Shared, before: i64) {
    let Some(conversation) = open_id(live) else { return };
    live.state.update(|s| {
        if let Some(open) = s.open.as_mut() {
            open.loading_older = true;
        }
    });
    let live = live.clone();
    leptos::task::spawn_local(async move {
        let result = crate::browser::with_retries(|| api::chat_older(conversation, before)).await;
        live.state.update(|s| {
            let Some(open) = s.open.as_mut().filter(|o| o.id == Some(conversation)) else { return };
            open.loading_older = false;
            if let Ok(older) = result {
                open.has_older = older.has_older;
                let known: std::collections::HashSet<i64> = open.messages.iter().map(|m| m.id).collect();
                let mut merged: Vec<ChatMessage> = older.messages.into_iter().filter(|m| !known.contains(&m.id)).collect();
                merged.append(&mut open.messages);
                open.messages = merged;
            }
        });
    });
}

/// SPEC §4: gone from the list at once, then the server; on failure an alert and a reload.
fn delete(live: &Shared, conversation: i64) {
    live.state.update(|s| {
        if let Some(list) = s.conversations.as_mut() {
            list.retain(|c| c.id != conversation);
        }
        if s.open.as_ref().and_then(|o| o.id) == Some(conversation) {
            s.open = None;
        }
    });
    push_url("/chats");
    let live = live.clone();
    leptos::task::spawn_local(async move {
        if let Err(error) = api::delete_chat(conversation).await {
            if let Some(w) = web_sys::window() {
                let _ = w.alert_with_message(&error_text(&live, &error));
            }
            reload_list(&live);
        }
    });
}
