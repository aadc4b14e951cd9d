//! `/staff/chats`: the operator queue. Operators see only conversations with fictional
//! profiles: those waiting for an answer first, the longest wait first, with how long and who is
//! answering. Opening one claims it (see `server::chat` console); the claim is renewed while the
//! operator types (the `ClaimKeeper` island) and lapses after two idle minutes. Beside the
//! conversation: what the member bought and spent, and the notes every operator shares on this
//! member and profile. Answers and notes are plain forms.

use domain::chat::MessageKind;
use domain::widgets::ChatMessage;
use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

use super::server_fns::{OperatorNote, OperatorReply};
use crate::i18n::use_i18n;
use crate::ui::forms::{ActionError, TextArea};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConsoleThread {
    pub id: i64,
    pub profile: String,
    pub member: String,
    pub member_id: i64,
    /// The member's age (0: not shown) and place.
    pub member_age: i32,
    pub member_place: String,
    pub last: String,
    pub waiting: i64,
    /// Minutes the oldest unanswered message has waited.
    pub waited_minutes: Option<i64>,
    /// Another operator answering it now.
    pub claimed_by: Option<String>,
}

/// The conversation the operator opened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpenThread {
    pub thread: ConsoleThread,
    pub messages: Vec<ChatMessage>,
    /// None: this operator holds it; Some(name): another operator does.
    pub taken_by: Option<String>,
    pub note: String,
    pub bought: i64,
    pub spent: i64,
    pub payments: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Console {
    pub threads: Vec<ConsoleThread>,
    pub open: Option<OpenThread>,
}

#[server(prefix = "/api/fn", endpoint = "operator_console")]
pub async fn operator_console(conversation: Option<i64>) -> Result<Console, ApiError> {
    use crate::call::{fail, staff_call};
    use domain::staff::StaffArea;
    let (c, me) = staff_call(StaffArea::Console).await?;
    let now = c.now();
    let chat = &c.state.chat;
    // Opening claims first, so the list below already shows it as this operator's.
    let claim = match conversation {
        Some(id) => Some(chat.claim(&me, c.site.id, id, now).await.map_err(fail)?),
        None => None,
    };
    let view = |t: &server::chat::OperatorThread| super::queue::thread_view(t, me.id, now);
    let threads = chat.operator_threads(&me, c.site.id, now).await.map_err(fail)?;
    let open = match (conversation, claim) {
        (Some(id), Some(claim)) => {
            let (thread, messages) = chat.operator_thread(&me, c.site.id, id, now).await.map_err(fail)?;
            let figures = chat.member_figures(&me, c.site.id, id).await.map_err(fail)?;
            Some(OpenThread {
                thread: view(&thread),
                messages,
                taken_by: match claim {
                    server::chat::Claim::Mine { .. } => None,
                    server::chat::Claim::Taken { by, .. } => Some(by),
                },
                note: chat.operator_note(&me, c.site.id, id).await.map_err(fail)?,
                bought: figures.bought,
                spent: figures.spent,
                payments: figures.payments,
            })
        }
        _ => None,
    };
    Ok(Console { threads: threads.iter().map(view).collect(), open })
}

#[component]
pub fn OperatorConsolePage() -> impl IntoView {
    let i18n = use_i18n();
    // Like every staff page: to anyone but operators the page does not exist.
    if let Some(refused) = crate::features::staff::refuse_outside(crate::features::staff::StaffArea::Console) {
        return Some(refused);
    }
    let conversation = use_query_map().get_untracked().get("c").and_then(|v| v.parse::<i64>().ok());
    let data = Resource::new_blocking(move || conversation, operator_console);
    Some(
        view! {
            <Title text=i18n.t("console.title")/>
            <div class="container page console">
                <h1 class="page__title">{i18n.t("console.title")}</h1>
                <Suspense fallback=|| ()>
                    {move || data.get().map(|result| match result {
                        Ok(console) => view! { <ConsoleView console=console/> }.into_any(),
                        Err(error) => view! { <p class="notice notice--error" role="alert">{use_i18n().error(&error)}</p> }.into_any(),
                    })}
                </Suspense>
            </div>
        }
        .into_any(),
    )
}

#[component]
fn ConsoleView(console: Console) -> impl IntoView {
    let i18n = use_i18n();
    let open_id = console.open.as_ref().map(|o| o.thread.id);
    let labels = super::queue::QueueLabels {
        nav: i18n.t("chat.conversations"),
        empty: i18n.t("console.empty"),
        waited: i18n.t("console.waited"),
        claimed_by: i18n.t("console.claimed_by"),
    };
    let list = view! { <super::queue::LiveQueue threads=console.threads open=open_id labels=labels/> };
    let open = console.open.map(|OpenThread { thread, messages, taken_by, note, bought, spent, payments }| {
        let rows = messages
            .into_iter()
            .map(|m| {
                let text = match m.kind {
                    MessageKind::Text => m.body.clone(),
                    other => format!("[{}]", other.as_str()),
                };
                view! { <li class="chat-fallback__message" class:chat-fallback__message--mine=m.mine><p class="chat-fallback__text">{text}</p></li> }
            })
            .collect_view();
        let i18n = use_i18n();
        let answer = match taken_by {
            Some(name) => view! { <p class="notice notice--error" role="status" data-testid="console-taken">{i18n.tf("error.claimed_by_other", &[("name", &name)])}</p> }.into_any(),
            None => view! {
                <p class="muted console__mine" data-testid="console-mine">{use_i18n().t("console.claimed_by_you")}</p>
                <ActionForm action={ServerAction::<OperatorReply>::new()} attr:class="chat-fallback__form">
                    <input type="hidden" name="conversation" value=thread.id.to_string()/>
                    <input type="hidden" name="client_id" value=super::new_client_id()/>
                    <label class="visually-hidden" for="console-text">{use_i18n().t("chat.message")}</label>
                    <TextArea attr:id="console-text" attr:name="text" attr:rows="3" attr:required=true attr:data-testid="console-text"/>
                    <button type="submit" class="btn btn--primary" data-testid="console-send">{use_i18n().t("chat.send")}</button>
                    <ActionError action={ServerAction::<OperatorReply>::new()}/>
                </ActionForm>
                <ClaimKeeper conversation=thread.id/>
            }
            .into_any(),
        };
        view! {
            <section class="console__open" aria-label=format!("{} → {}", thread.member, thread.profile)>
                <h2>{i18n.tf("console.answer_as", &[("name", &thread.profile)])}</h2>
                <div role="log"><ol class="chat-fallback__messages">{rows}</ol></div>
                {answer}
            </section>
            <aside class="console__side card" aria-labelledby="console-member-title">
                <h2 id="console-member-title">{i18n.tf("console.about", &[("name", &thread.member)])}</h2>
                <p data-testid="console-member">
                    {[(thread.member_age > 0).then(|| i18n.tf("profile.age", &[("age", &thread.member_age.to_string())])), Some(thread.member_place.clone()).filter(|p| !p.is_empty())].into_iter().flatten().collect::<Vec<_>>().join(" · ")}
                    " "<a href=crate::paths::member(thread.member_id)>{i18n.t("chat.view_profile")}</a>
                </p>
                <p data-testid="console-figures">
                    {i18n.plural("console.bought", bought, &[("payments", &i18n.plural("console.payments", payments, &[]))])}<br/>
                    {i18n.plural("console.spent", spent, &[])}
                </p>
                <ActionForm action={ServerAction::<OperatorNote>::new()} attr:class="form" attr:data-testid="console-note-form">
                    <input type="hidden" name="conversation" value=thread.id.to_string()/>
                    <label for="console-note">{i18n.t("console.notes")}</label>
                    <TextArea attr:id="console-note" attr:name="note" attr:rows="5" attr:maxlength=domain::chat::OPERATOR_NOTE_CHARS.to_string() attr:aria-describedby="console-note-hint" attr:data-testid="console-note" value=note/>
                    <p class="muted" id="console-note-hint">{i18n.t("console.notes_hint")}</p>
                    <button type="submit" class="btn" data-testid="console-note-save">{i18n.t("console.save_note")}</button>
                    <ActionError action={ServerAction::<OperatorNote>::new()}/>
                </ActionForm>
            </aside>
        }
    });
    view! {
        <div class="console__grid">
            {list}
            {open}
        </div>
    }
}

/// Renews the operator's claim while they type in the answer box (at most every
/// `OPERATOR_CLAIM_RENEW_SECS`); when another operator has taken the conversation meanwhile,
/// the page reloads to say so.
#[island(lazy)]
fn ClaimKeeper(conversation: i64) -> impl IntoView {
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        use wasm_bindgen::prelude::*;
        use wasm_bindgen::JsCast;
        let Some(text) = leptos::prelude::document().get_element_by_id("console-text") else { return };
        let last = std::rc::Rc::new(std::cell::Cell::new(js_sys::Date::now()));
        let on_input = Closure::<dyn Fn(web_sys::Event)>::new(move |_: web_sys::Event| {
            let now = js_sys::Date::now();
            if now - last.get() < domain::chat::OPERATOR_CLAIM_RENEW_SECS as f64 * 1000.0 {
                return;
            }
            last.set(now);
            leptos::task::spawn_local(async move {
                if let Ok(false) = super::server_fns::operator_claim(conversation).await {
                    if let Some(window) = web_sys::window() {
                        let _ = window.location().reload();
                    }
                }
            });
        });
        let _ = text.add_event_listener_with_callback("input", on_input.as_ref().unchecked_ref());
        on_input.forget();
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = conversation;
}
