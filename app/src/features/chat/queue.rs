//! The operator queue's list on `/staff/chats`, live: the `LiveQueue` island listens to the
//! site's queue changes (`GET /staff/chats/events`, server-sent events fed by the chat bus on
//! every node) and reads the list again through `operator_queue` — at once when something
//! changed, and every minute for the waiting times. Without JavaScript the list is the one the
//! page was rendered with.

use domain::ApiError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use super::console::ConsoleThread;

/// Where the island hears of queue changes.
pub const QUEUE_EVENTS: &str = "/staff/chats/events";

/// The texts of the list, with their `{minutes}` and `{name}` placeholders.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueueLabels {
    pub nav: String,
    pub empty: String,
    pub waited: String,
    pub claimed_by: String,
}

/// One list row of an operator thread, for this operator (their own claim is not "taken").
#[cfg(feature = "ssr")]
pub fn thread_view(t: &server::chat::OperatorThread, me: i64, now: i64) -> ConsoleThread {
    use domain::chat::MessageKind;
    ConsoleThread {
        id: t.id,
        profile: t.profile.name.clone(),
        member: t.member.name.clone(),
        member_id: t.member.id,
        member_age: t.member.age,
        member_place: t.member.place.clone(),
        last: t
            .last
            .as_ref()
            .map(|m| if m.kind == MessageKind::Text { domain::chat::preview(&m.body) } else { format!("[{}]", m.kind.as_str()) })
            .unwrap_or_default(),
        waiting: t.waiting,
        waited_minutes: t.waiting_since.map(|since| (now - since).max(0) / 60),
        claimed_by: t.claimed_by.as_ref().filter(|(op, _)| *op != me).map(|(_, name)| name.clone()),
    }
}

/// The queue as the list shows it (reading it claims nothing); operators only.
#[server(prefix = "/api/fn", endpoint = "operator_queue", input = leptos::server_fn::codec::GetUrl)]
pub async fn operator_queue() -> Result<Vec<ConsoleThread>, ApiError> {
    use crate::call::{fail, staff_call};
    use domain::staff::StaffArea;
    let (c, me) = staff_call(StaffArea::Console).await?;
    let now = c.now();
    let threads = c.state.chat.operator_threads(&me, c.site.id, now).await.map_err(fail)?;
    Ok(threads.iter().map(|t| thread_view(t, me.id, now)).collect())
}

fn row(t: ConsoleThread, open: Option<i64>, labels: &QueueLabels) -> impl IntoView {
    use domain::i18n::interpolate;
    let current = Some(t.id) == open;
    view! {
        <li>
            <a class="console__thread" class:console__thread--open=current href=crate::paths::staff_chat(t.id) aria-current=current.then_some("page") data-testid="console-thread">
                <strong>{format!("{} → {}", t.member, t.profile)}</strong>
                <span class="muted">{t.last}</span>
                <span class="console__badges">
                    {(t.waiting > 0).then(|| view! { <span class="pill">{t.waiting}</span> })}
                    {t.waited_minutes.map(|m| view! { <span class="console__waited" data-testid="console-waited">{interpolate(&labels.waited, &[("minutes", &m.to_string())])}</span> })}
                    {t.claimed_by.map(|name| view! { <span class="console__claimed" data-testid="console-claimed">{interpolate(&labels.claimed_by, &[("name", &name)])}</span> })}
                </span>
            </a>
        </li>
    }
}

#[island(lazy)]
pub fn LiveQueue(threads: Vec<ConsoleThread>, open: Option<i64>, labels: QueueLabels) -> impl IntoView {
    let threads = RwSignal::new(threads);
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| live::start(threads));
    let nav = labels.nav.clone();
    let empty = labels.empty.clone();
    view! {
        <nav aria-label=nav data-testid="console-queue">
            <ul class="console__list">
                {move || threads.get().into_iter().map(|t| row(t, open, &labels)).collect_view()}
            </ul>
            {move || threads.with(Vec::is_empty).then(|| view! { <p class="muted">{empty.clone()}</p> })}
        </nav>
    }
}

#[cfg(feature = "hydrate")]
mod live {
    use std::cell::Cell;
    use std::rc::Rc;
    use std::time::Duration;

    use leptos::prelude::*;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    use super::ConsoleThread;

    /// Waiting times are in whole minutes: the list is read again at least this often.
    const REFRESH: Duration = Duration::from_secs(60);

    /// One read at a time; a change heard during a read starts another after it.
    #[derive(Clone)]
    struct Reader {
        threads: RwSignal<Vec<ConsoleThread>>,
        busy: Rc<Cell<bool>>,
        again: Rc<Cell<bool>>,
    }

    impl Reader {
        fn read(&self) {
            if self.busy.replace(true) {
                self.again.set(true);
                return;
            }
            let reader = self.clone();
            leptos::task::spawn_local(async move {
                loop {
                    reader.again.set(false);
                    if let Ok(list) = super::operator_queue().await {
                        reader.threads.set(list);
                    }
                    if !reader.again.get() {
                        break;
                    }
                }
                reader.busy.set(false);
            });
        }
    }

    pub fn start(threads: RwSignal<Vec<ConsoleThread>>) {
        let reader = Reader { threads, busy: Rc::new(Cell::new(false)), again: Rc::new(Cell::new(false)) };
        if let Ok(source) = web_sys::EventSource::new(super::QUEUE_EVENTS) {
            let on_change = {
                let reader = reader.clone();
                Closure::<dyn Fn(web_sys::Event)>::new(move |_: web_sys::Event| reader.read())
            };
            let _ = source.add_event_listener_with_callback("queue", on_change.as_ref().unchecked_ref());
            on_change.forget();
            // After a lost connection (the browser reconnects by itself) changes may have been missed.
            let opened = Rc::new(Cell::new(false));
            let on_open = {
                let reader = reader.clone();
                Closure::<dyn Fn(web_sys::Event)>::new(move |_: web_sys::Event| {
                    if opened.replace(true) {
                        reader.read();
                    }
                })
            };
            let _ = source.add_event_listener_with_callback("open", on_open.as_ref().unchecked_ref());
            on_open.forget();
            std::mem::forget(source);
        }
        set_interval(move || reader.read(), REFRESH);
    }
}
