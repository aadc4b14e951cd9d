//! `/chats`, `/chats/{id}` and `/members/{id}/chat` in the chat layout. The page renders the
//! list and the open conversation's newest 50 messages with a plain send form, so a member
//! without JavaScript can read and answer; the island beside it takes over once its widget runs.

use domain::chat::MessageKind;
use domain::widgets::{ChatMessage, ChatPanelProps};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use super::island::ChatIsland;
use super::server_fns::{chat_page, ChatPageData, SendMessage};
use crate::i18n::use_i18n;
use crate::ui::forms::{ActionError, TextArea};

/// Which conversation the address asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatRoute {
    List,
    Conversation,
    Member,
}

#[component]
pub fn ChatsPage(route: ChatRoute) -> impl IntoView {
    let id = use_params_map().get_untracked().get("id").and_then(|v| v.parse::<i64>().ok());
    let path = match (route, id) {
        (ChatRoute::Conversation, Some(id)) => crate::paths::chat(id),
        (ChatRoute::Member, Some(id)) => crate::paths::member_chat(id),
        _ => "/chats".to_string(),
    };
    crate::features::account::member_or_login(&path)?;
    let (conversation, member) = match route {
        ChatRoute::List => (None, None),
        ChatRoute::Conversation => (Some(id.unwrap_or(0)), None),
        ChatRoute::Member => (None, Some(id.unwrap_or(0))),
    };
    let gift = leptos_router::hooks::use_query_map().get_untracked().get("gift").is_some_and(|v| v == "1");
    // Blocking: the page arrives whole, so it works without JavaScript.
    let data = Resource::new_blocking(move || (conversation, member), |(c, m)| chat_page(c, m));
    // Outside the Suspense: a title that waits for data does not reach the document's head.
    let i18n = use_i18n();
    Some(
        view! {
            <Title text=i18n.t("chat.title")/>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| match result {
                    Ok(mut page) => {
                        // A profile's gift button (`?gift=1`) opens the chat with its gift picker.
                        page.props.gift_picker = gift && page.props.open.is_some();
                        view! { <ChatView page=page/> }.into_any()
                    }
                    Err(error) => {
                        let i18n = use_i18n();
                        #[cfg(feature = "ssr")]
                        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
                            response.set_status(http::StatusCode::from_u16(error.code.http_status()).unwrap_or(http::StatusCode::NOT_FOUND));
                        }
                        view! {
                            <div class="container page">
                                <p class="notice notice--error" role="alert">{i18n.error(&error)}</p>
                                <a class="btn btn--primary" href="/chats">{i18n.t("chat.all_conversations")}</a>
                            </div>
                        }.into_any()
                    }
                })}
            </Suspense>
        }
        .into_any(),
    )
}

#[component]
fn ChatView(page: ChatPageData) -> impl IntoView {
    let i18n = use_i18n();
    let fallback = fallback_view(&page.props);
    view! {
        <div class="chat" data-testid="chat">
            <header class="chat__bar">
                <a class="chat__home" href="/members">{i18n.t("chat.to_site")}</a>
                <h1 class="chat__title">{i18n.t("chat.title")}</h1>
            </header>
            <ChatIsland page_json=serde_json::to_string(&page).unwrap_or_default()/>
            {fallback}
        </div>
    }
}

fn time_of(at: i64) -> String {
    let t = domain::date::from_unix(at);
    format!("{:02}-{:02} {:02}:{:02}", t.day, t.month, t.hour, t.minute)
}

/// The server-rendered chat: a list of conversations, the open one's newest messages, and a
/// plain form that sends a text message.
fn fallback_view(props: &ChatPanelProps) -> impl IntoView {
    let i18n = use_i18n();
    let open_id = props.open.as_ref().and_then(|o| o.id);
    let list = props.conversations.clone().unwrap_or_default();
    let labels = props.labels.clone();
    let items = list
        .into_iter()
        .map(|c| {
            let current = Some(c.id) == open_id;
            let pill = domain::counters::pill(c.unread);
            view! {
                <li>
                    <a class="chat-fallback__item" class:chat-fallback__item--open=current href=c.href.clone() aria-current=current.then_some("page")>
                        <span class="chat-fallback__name">{c.peer.name.clone()}</span>
                        <span class="chat-fallback__last">{c.last.clone()}</span>
                        {pill.map(|p| view! { <span class="pill" aria-label=labels.unread.text(c.unread, &[])>{p}</span> })}
                    </a>
                </li>
            }
        })
        .collect_view();
    let empty = props.conversations.as_ref().is_some_and(|l| l.is_empty()).then(|| {
        view! { <p class="muted">{labels.empty_list.clone()} " " <a href="/members">{labels.find_members.clone()}</a></p> }
    });
    let open = props.open.clone().map(|open| {
        let labels = props.labels.clone();
        let gifts = props.gifts.clone();
        let peer = open.peer.clone();
        let messages = open.messages.iter().rev().take(domain::chat::PAGE_SIZE as usize).rev().cloned().collect::<Vec<ChatMessage>>();
        // A new conversation says so, as the live panel does (and in the same size: the panel
        // taking over then paints nothing larger than what is already there).
        let nothing_yet = messages.is_empty().then(|| view! { <p class="chat-fallback__empty">{domain::i18n::interpolate(&labels.empty_chat, &[("name", &peer.name)])}</p> });
        let gift_label = move |m: &ChatMessage| m.gift.and_then(|g| gifts.iter().find(|o| o.gift == g)).map(|o| o.label.clone()).unwrap_or_default();
        let rows = messages
            .into_iter()
            .map(|m| {
                let content = match m.kind {
                    MessageKind::Text => view! { <p class="chat-fallback__text">{m.body.clone()}</p> }.into_any(),
                    MessageKind::Photo => {
                        use domain::moderation::PhotoReview;
                        // As the live panel says it (`MessageList.tsx`, `reviewNote`).
                        let note = match m.photo_review {
                            Some(PhotoReview::Rejected) => Some(labels.photo_rejected.clone()),
                            Some(r) if r.waits() && m.mine => Some(labels.photo_in_review.clone()),
                            Some(r) if r.waits() && m.photo.is_none() => Some(labels.photo_held.clone()),
                            _ => None,
                        };
                        let picture = m.photo.clone().map(|src| view! { <img class="chat-fallback__photo" src=src alt=labels.photo_sent.clone() loading="lazy"/> });
                        let fallback = (picture.is_none() && note.is_none()).then(|| view! { <p class="chat-fallback__text">{labels.photo_sent.clone()}</p> });
                        view! { {picture}{fallback}{note.map(|n| view! { <p class="chat-fallback__text" data-testid="photo-review">{n}</p> })} }.into_any()
                    }
                    MessageKind::Gift => view! { <p class="chat-fallback__text">{domain::i18n::interpolate(&labels.gift_sent, &[("gift", &gift_label(&m))])}</p> }.into_any(),
                };
                let mark = m.mine.then(|| {
                    if m.waiting {
                        labels.waiting.clone()
                    } else if m.id <= open.read_up_to {
                        labels.read.clone()
                    } else if m.id <= open.delivered_up_to {
                        labels.delivered.clone()
                    } else {
                        String::new()
                    }
                });
                view! {
                    <li id=format!("m-{}", m.id) class="chat-fallback__message" class:chat-fallback__message--mine=m.mine>
                        {content}
                        <span class="chat-fallback__meta">{time_of(m.at)} {mark.map(|t| view! { " · " {t} })}</span>
                    </li>
                }
            })
            .collect_view();
        let i18n = use_i18n();
        let heading = match peer.age {
            Some(age) => format!("{}, {age}", peer.name),
            None => peer.name.clone(),
        };
        let footer = if open.blocked {
            view! { <p class="notice notice--error" role="alert">{labels.blocked.clone()}</p> }.into_any()
        } else {
            let client_id = super::new_client_id();
            let (conversation, member) = (open.id.map(|id| id.to_string()), open.id.is_none().then(|| peer.id.to_string()));
            let kept = leptos_router::hooks::use_query_map().get_untracked().get("text").unwrap_or_default();
            view! {
                <ActionForm action={ServerAction::<SendMessage>::new()} attr:class="chat-fallback__form">
                    {conversation.map(|c| view! { <input type="hidden" name="conversation" value=c/> })}
                    {member.map(|m| view! { <input type="hidden" name="member" value=m/> })}
                    <input type="hidden" name="client_id" value=client_id/>
                    <label class="visually-hidden" for="chat-text">{use_i18n().t("chat.message")}</label>
                    <TextArea value=kept attr:id="chat-text" attr:name="text" attr:rows="2" attr:placeholder=use_i18n().t("chat.placeholder") attr:required=true/>
                    <button type="submit" class="btn btn--primary">{use_i18n().t("chat.send")}</button>
                    <ActionError action={ServerAction::<SendMessage>::new()}/>
                </ActionForm>
            }.into_any()
        };
        let section_label = heading.clone();
        view! {
            <section class="chat-fallback__open" aria-label=section_label>
                <header class="chat-fallback__head">
                    <h2>{heading} {peer.fictional.then(|| view! { <span class="fictional-mark">{labels.fictional.clone()}</span> })}</h2>
                    <p class="muted">{peer.place.clone()}</p>
                    <a href=peer.href.clone()>{i18n.t("chat.view_profile")}</a>
                    {open.id.map(|id| view! { " · " <a href=crate::paths::complaint_about_conversation(id) data-testid="report-conversation">{use_i18n().t("chat.report")}</a> })}
                    {(peer.fictional && !labels.fictional_warning.is_empty()).then(|| view! { <p class="notice">{labels.fictional_warning.clone()}</p> })}
                    {open.peer_unconfirmed.then(|| view! { <p class="notice">{domain::i18n::interpolate(&labels.peer_unconfirmed, &[("name", &peer.name)])}</p> })}
                </header>
                <div role="log" aria-label=labels.message.clone()><ol class="chat-fallback__messages">{rows}</ol>{nothing_yet}</div>
                {footer}
            </section>
        }
    });
    view! {
        <div class="chat-fallback" data-testid="chat-fallback">
            <nav class="chat-fallback__list" aria-label=i18n.t("chat.conversations")>
                <h2 class="chat-fallback__heading">{i18n.t("chat.conversations")}</h2>
                <ul>{items}</ul>
                {empty}
            </nav>
            {open}
        </div>
    }
}
