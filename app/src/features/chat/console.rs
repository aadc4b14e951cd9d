//! `/staff/chats`: the operator console. Operators see only conversations with fictional
//! profiles, newest first with the members' unanswered messages counted, and answer as the
//! profile through a plain form.

use domain::chat::MessageKind;
use domain::widgets::ChatMessage;
use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

use super::server_fns::OperatorReply;
use crate::ui::forms::{ActionError, TextArea};
use crate::i18n::use_i18n;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConsoleThread {
    pub id: i64,
    pub profile: String,
    pub member: String,
    pub member_id: i64,
    pub last: String,
    pub waiting: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Console {
    pub threads: Vec<ConsoleThread>,
    pub open: Option<(ConsoleThread, Vec<ChatMessage>)>,
}

#[server(prefix = "/api/fn", endpoint = "operator_console")]
pub async fn operator_console(conversation: Option<i64>) -> Result<Console, ApiError> {
    use crate::call::{fail, member_call};
    let (c, me) = member_call().await?;
    let now = c.now();
    let view = |t: &server::chat::OperatorThread| ConsoleThread {
        id: t.id,
        profile: t.profile.name.clone(),
        member: t.member.name.clone(),
        member_id: t.member.id,
        last: t.last.as_ref().map(|m| if m.kind == MessageKind::Text { domain::chat::preview(&m.body) } else { format!("[{}]", m.kind.as_str()) }).unwrap_or_default(),
        waiting: t.waiting,
    };
    let threads = c.state.chat.operator_threads(&me, c.site.id, now).await.map_err(fail)?;
    let open = match conversation {
        Some(id) => {
            let (thread, messages) = c.state.chat.operator_thread(&me, c.site.id, id, now).await.map_err(fail)?;
            Some((view(&thread), messages))
        }
        None => None,
    };
    Ok(Console { threads: threads.iter().map(view).collect(), open })
}

#[component]
pub fn OperatorConsolePage() -> impl IntoView {
    let i18n = use_i18n();
    let member = crate::features::account::member_or_login("/staff/chats")?;
    // Like every staff page: to anyone else the page does not exist.
    if !member.operator {
        return Some(view! { <div class="container page">{crate::features::members::profile::profile_not_found()}</div> }.into_any());
    }
    let conversation = use_query_map().get_untracked().get("c").and_then(|v| v.parse::<i64>().ok());
    let data = Resource::new_blocking(move || conversation, operator_console);
    Some(view! {
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
    }.into_any())
}

#[component]
fn ConsoleView(console: Console) -> impl IntoView {
    let i18n = use_i18n();
    let open_id = console.open.as_ref().map(|(t, _)| t.id);
    let list = console
        .threads
        .iter()
        .map(|t| {
            let current = Some(t.id) == open_id;
            view! {
                <li>
                    <a class="console__thread" class:console__thread--open=current href=crate::paths::staff_chat(t.id) aria-current=current.then_some("page") data-testid="console-thread">
                        <strong>{format!("{} → {}", t.member, t.profile)}</strong>
                        <span class="muted">{t.last.clone()}</span>
                        {(t.waiting > 0).then(|| view! { <span class="pill">{t.waiting}</span> })}
                    </a>
                </li>
            }
        })
        .collect_view();
    let empty = console.threads.is_empty().then(|| view! { <p class="muted">{use_i18n().t("console.empty")}</p> });
    let open = console.open.map(|(thread, messages)| {
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
        view! {
            <section class="console__open" aria-label=format!("{} → {}", thread.member, thread.profile)>
                <h2>{i18n.tf("console.answer_as", &[("name", &thread.profile)])}</h2>
                <ol class="chat-fallback__messages" role="log">{rows}</ol>
                <ActionForm action={ServerAction::<OperatorReply>::new()} attr:class="chat-fallback__form">
                    <input type="hidden" name="conversation" value=thread.id.to_string()/>
                    <input type="hidden" name="client_id" value=super::new_client_id()/>
                    <label class="visually-hidden" for="console-text">{use_i18n().t("chat.message")}</label>
                    <TextArea attr:id="console-text" attr:name="text" attr:rows="3" attr:required=true attr:data-testid="console-text"/>
                    <button type="submit" class="btn btn--primary" data-testid="console-send">{use_i18n().t("chat.send")}</button>
                    <ActionError action={ServerAction::<OperatorReply>::new()}/>
                </ActionForm>
            </section>
        }
    });
    view! {
        <div class="console__grid">
            <nav aria-label=i18n.t("chat.conversations")><ul class="console__list">{list}</ul>{empty}</nav>
            {open}
        </div>
    }
}
