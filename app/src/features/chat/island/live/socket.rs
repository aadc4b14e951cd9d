//! The chat socket: connecting, what each push changes, reconnecting with backoff, the network
//! going offline and online, a socket that gave way to a newer tab of the session.

use super::*;

pub(super) fn set_connection(live: &Live, connection: Connection) {
    if live.state.with_untracked(|s| s.connection) != connection {
        live.state.update(|s| s.connection = connection);
    }
}

pub(super) fn on_push(live: &Shared, push: Push) {
    match push {
        Push::Message { message } => {
            add_message(live, message);
        }
        Push::Delivered { conversation, up_to } => live.state.update(|s| {
            if let Some(open) = s.open.as_mut().filter(|o| o.id == Some(conversation)) {
                open.delivered_up_to = open.delivered_up_to.max(up_to);
            }
        }),
        Push::Read { conversation, up_to } => live.state.update(|s| {
            if let Some(open) = s.open.as_mut().filter(|o| o.id == Some(conversation)) {
                open.read_up_to = open.read_up_to.max(up_to);
                open.delivered_up_to = open.delivered_up_to.max(up_to);
            }
        }),
        Push::Typing { conversation } => {
            if open_id(live) != Some(conversation) {
                return;
            }
            let seq = live.typing_seq.get() + 1;
            live.typing_seq.set(seq);
            live.state.update(|s| {
                if let Some(open) = s.open.as_mut() {
                    open.peer_typing = true;
                }
            });
            let live = live.clone();
            set_timeout(
                move || {
                    if live.typing_seq.get() == seq {
                        live.state.update(|s| {
                            if let Some(open) = s.open.as_mut() {
                                open.peer_typing = false;
                            }
                        });
                    }
                },
                Duration::from_secs(TYPING_EXPIRY_SECS.into()),
            );
        }
        Push::Removed { conversation } => {
            live.state.update(|s| {
                if let Some(list) = s.conversations.as_mut() {
                    list.retain(|c| c.id != conversation);
                }
                if s.open.as_ref().and_then(|o| o.id) == Some(conversation) {
                    s.open = None;
                }
            });
        }
        Push::Balance { credits } => {
            // A purchase (or a reversal) booked in another tab or by the provider's webhook.
            live.state.update(|s| s.balance = credits);
        }
        Push::Unread { total } => {
            // The first socket's first frame matches the page just rendered.
            if live.unread.replace(Some(total)).is_some_and(|before| before != total) {
                crate::browser::request_counts_refresh();
            }
        }
        Push::Resync => {
            reload_list(live);
            reload_open(live);
        }
    }
}

pub(super) fn socket_url(after: i64) -> Option<String> {
    let location = web_sys::window()?.location();
    let scheme = if location.protocol().ok()? == "https:" { "wss:" } else { "ws:" };
    Some(format!("{scheme}//{}/ws?after={after}", location.host().ok()?))
}

/// The browser going offline drops the socket at once (it would linger half-open); coming
/// back online reconnects without waiting for the backoff.
pub(super) fn watch_network(live: &Shared) {
    let Some(window) = web_sys::window() else { return };
    let on_offline = {
        let live = live.clone();
        Closure::<dyn Fn()>::new(move || {
            if let Some(ws) = live.socket.borrow().as_ref() {
                let _ = ws.close();
            }
            set_connection(&live, Connection::Offline);
        })
    };
    let on_online = {
        let live = live.clone();
        Closure::<dyn Fn()>::new(move || {
            if live.socket.borrow().is_none() {
                connect(&live);
            }
        })
    };
    // A socket that gave way to a newer tab comes back when this tab is shown again (and
    // then takes the oldest one's place).
    let on_shown = {
        let live = live.clone();
        Closure::<dyn Fn()>::new(move || {
            let hidden = web_sys::window().and_then(|w| w.document()).is_none_or(|d| d.hidden());
            if !hidden && live.parked.replace(false) {
                connect(&live);
            }
        })
    };
    if let Some(document) = window.document() {
        let _ = document.add_event_listener_with_callback("visibilitychange", on_shown.as_ref().unchecked_ref());
    }
    on_shown.forget();
    let _ = window.add_event_listener_with_callback("offline", on_offline.as_ref().unchecked_ref());
    let _ = window.add_event_listener_with_callback("online", on_online.as_ref().unchecked_ref());
    on_offline.forget();
    on_online.forget();
}

pub(super) fn connect(live: &Shared) {
    if live.socket.borrow().is_some() {
        return;
    }
    let Some(url) = socket_url(live.last_id.get()) else { return };
    let Ok(ws) = web_sys::WebSocket::new(&url) else {
        schedule_reconnect(live);
        return;
    };
    let generation = live.generation.get() + 1;
    live.generation.set(generation);
    let on_open = {
        let live = live.clone();
        Closure::<dyn Fn()>::new(move || {
            let was_down = live.attempts.get() > 0;
            live.attempts.set(0);
            set_connection(&live, Connection::Online);
            if let Some(timer) = live.refresh_timer.borrow_mut().take() {
                timer.clear();
            }
            if was_down {
                // What happened meanwhile came with the backlog; the list may have moved too.
                reload_list(&live);
            }
        })
    };
    let on_message = {
        let live = live.clone();
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            if let Some(text) = e.data().as_string() {
                if let Ok(push) = serde_json::from_slice::<Push>(text.as_bytes()) {
                    on_push(&live, push);
                }
            }
        })
    };
    let on_close = {
        let live = live.clone();
        Closure::<dyn Fn(web_sys::CloseEvent)>::new(move |e: web_sys::CloseEvent| {
            if live.generation.get() != generation {
                return;
            }
            live.socket.borrow_mut().take();
            match e.code() {
                // The session ended (logged out elsewhere, blocked): the page is reloaded and
                // shows what is true now, instead of knocking with a dead session.
                4401 => {
                    if let Some(window) = web_sys::window() {
                        let _ = window.location().reload();
                    }
                }
                // A newer tab of this session took this socket's place.
                4409 => {
                    live.parked.set(true);
                    live.attempts.set(1);
                }
                _ => schedule_reconnect(&live),
            }
        })
    };
    ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
    // The socket lives as long as the page; its handlers with it.
    on_open.forget();
    on_message.forget();
    on_close.forget();
    *live.socket.borrow_mut() = Some(ws);
}

/// Backoff with jitter: 0.5 s doubling up to 30 s, each wait between half and all of it.
pub(super) fn schedule_reconnect(live: &Shared) {
    let attempt = live.attempts.get() + 1;
    live.attempts.set(attempt);
    let online = web_sys::window().map(|w| w.navigator().on_line()).unwrap_or(true);
    set_connection(live, if online { Connection::Reconnecting } else { Connection::Offline });
    if live.refresh_timer.borrow().is_none() {
        // SPEC §9: the periodic refresh stands in while the socket is down.
        let every = Duration::from_secs(domain::notifications::REFRESH_SECS.into());
        let for_timer = live.clone();
        if let Ok(handle) = set_interval_with_handle(
            move || {
                reload_list(&for_timer);
                reload_open(&for_timer);
            },
            every,
        ) {
            *live.refresh_timer.borrow_mut() = Some(handle);
        }
    }
    let cap = 30_000.0_f64;
    let base = (500.0 * 2f64.powi(attempt.min(10) as i32 - 1)).min(cap);
    let wait = base / 2.0 + js_sys::Math::random() * base / 2.0;
    let live = live.clone();
    set_timeout(move || connect(&live), Duration::from_millis(wait as u64));
}
