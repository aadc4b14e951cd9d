//! Server functions of the chat: the page's data, older messages, sending (text, gift, photo),
//! read marks, deleting, typing, and the operator console's answer. The member always comes
//! from the session; a conversation is always looked up as one of theirs.

use std::collections::BTreeMap;

use domain::widgets::{ChatMessage, ChatPanelProps, ChatSummary, OpenChat};
use domain::ApiError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, fail_back, member_call, redirect};

/// Everything the chat page shows, for the server-rendered view and the island alike.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatPageData {
    pub props: ChatPanelProps,
    /// Where the socket resumes (the newest message id the member can see).
    pub latest: i64,
    /// Refusal texts the island shows in its alert, by public code.
    pub errors: BTreeMap<String, String>,
}

/// An older page of a conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OlderMessages {
    pub messages: Vec<ChatMessage>,
    pub has_older: bool,
}

/// What a send answers: the stored message and the sender's balance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SentMessage {
    pub message: ChatMessage,
    pub balance: i64,
    /// Free text messages left after this send.
    pub free_left: i64,
    /// What the island tells the sender about contact details in the text: hidden, or held
    /// until staff have read it, and the warning for a sender who keeps trying (translated here,
    /// so the island carries no texts or rules for it).
    #[serde(default)]
    pub notice: Option<String>,
}

#[cfg(feature = "ssr")]
mod build {
    use super::*;
    use crate::i18n::I18n;
    use domain::chat::{Gift, MessageKind};
    use domain::widgets::{ChatPanelLabels, Connection, GiftOption};
    use server::chat::{Summary, Thread};

    pub fn i18n(c: &crate::call::Call) -> I18n {
        let locale = server::http::visitor::locale(&c.parts.headers, &c.site);
        I18n::new(locale, c.state.catalog.texts(locale))
    }

    pub fn gift_label(i18n: &I18n, gift: Gift) -> String {
        i18n.t(&gift.locale_key())
    }

    /// The list's last line for a message.
    pub fn last_line(i18n: &I18n, m: &server::chat::store::MessageRow) -> String {
        match m.kind {
            MessageKind::Text => domain::chat::preview(&m.body),
            MessageKind::Photo => i18n.t("chat.photo_sent"),
            MessageKind::Gift => i18n.tf("chat.gift_sent", &[("gift", &m.gift.map(|g| gift_label(i18n, g)).unwrap_or_default())]),
        }
    }

    pub fn summary(i18n: &I18n, me: i64, s: &Summary) -> ChatSummary {
        ChatSummary {
            id: s.id,
            peer: s.peer.to_peer(crate::paths::member(s.peer.id), s.peer.thumb.as_deref().map(crate::paths::media)),
            last: s.last.as_ref().map(|m| last_line(i18n, m)).unwrap_or_default(),
            last_at: s.last.as_ref().map(|m| m.created_at).unwrap_or(0),
            last_mine: s.last.as_ref().is_some_and(|m| m.sender_id == me),
            unread: s.unread,
            href: crate::paths::chat(s.id),
        }
    }

    pub fn open(me: i64, t: &Thread) -> OpenChat {
        OpenChat {
            id: t.id,
            peer: t.peer.to_peer(crate::paths::member(t.peer.id), t.peer.thumb.as_deref().map(crate::paths::media)),
            messages: t.messages.iter().map(|m| m.view(me)).collect(),
            has_older: t.has_older,
            loading_older: false,
            pending: Vec::new(),
            delivered_up_to: t.delivered_up_to,
            read_up_to: t.read_up_to,
            peer_typing: false,
            peer_unconfirmed: t.peer_unconfirmed,
            blocked: t.blocked,
        }
    }

    pub fn labels(i18n: &I18n, site: &server::sites::Site) -> ChatPanelLabels {
        let t = |k: &str| i18n.t(&format!("chat.{k}"));
        ChatPanelLabels {
            conversations: t("conversations"),
            loading: t("loading"),
            empty_list: t("empty_list"),
            find_members: t("find_members"),
            empty_chat: t("empty_chat"),
            back: t("back"),
            view_profile: t("view_profile"),
            block: t("block"),
            report: t("report"),
            delete: t("delete"),
            delete_confirm: t("delete_confirm"),
            cancel: t("cancel"),
            message: t("message"),
            placeholder: t("placeholder"),
            send: t("send"),
            sending: t("sending"),
            failed: t("failed"),
            retry: t("retry"),
            photo: t("photo"),
            gift: t("gift"),
            gifts_title: t("gifts_title"),
            icebreakers: t("icebreakers"),
            icebreakers_title: t("icebreakers_title"),
            close: t("close"),
            cost_message: i18n.counted("chat.cost_message"),
            cost_photo: i18n.counted("chat.cost_photo"),
            cost_gift: i18n.counted("chat.cost_gift"),
            balance: i18n.counted("chat.balance"),
            free_left: t("free_left"),
            balance_short: t("balance_short"),
            buy: t("buy"),
            characters: t("characters"),
            load_older: t("load_older"),
            typing: t("typing"),
            delivered: t("delivered"),
            read: t("read"),
            waiting: t("waiting"),
            peer_unconfirmed: t("peer_unconfirmed"),
            blocked: i18n.t("error.blocked_by_member"),
            reconnecting: t("reconnecting"),
            offline: t("offline"),
            fictional: site.fictional_singular.clone(),
            fictional_warning: if site.fictional_warning {
                i18n.tf("chat.fictional_warning", &[("fictional", &site.fictional_singular)])
            } else {
                String::new()
            },
            gift_sent: t("gift_sent"),
            photo_sent: t("photo_sent"),
            photo_in_review: t("photo_in_review"),
            photo_held: t("photo_held"),
            photo_rejected: t("photo_rejected"),
            today: t("today"),
            yesterday: t("yesterday"),
            unread: i18n.counted("chat.unread"),
        }
    }

    pub fn props(
        i18n: &I18n,
        site: &server::sites::Site,
        me: &server::accounts::Member,
        conversations: Vec<ChatSummary>,
        open: Option<OpenChat>,
        free_left: i64,
    ) -> ChatPanelProps {
        ChatPanelProps {
            conversations: Some(conversations),
            open,
            message_length: site.message_length,
            message_credits: site.message_credits,
            photo_credits: site.photo_credits,
            gift_credits: site.gift_credits,
            free_messages: free_left,
            balance: me.credits,
            buy_href: if me.paid_user { "/credits/repeat-order" } else { "/premium" }.to_string(),
            gifts: site.offered_gifts().into_iter().map(|gift| GiftOption { gift, label: gift_label(i18n, gift) }).collect(),
            icebreakers: (1..=6).map(|n| i18n.t(&format!("chat.icebreaker.{n}"))).collect(),
            connection: Connection::Connecting,
            alert: None,
            // An image address; a named icon (the seed's "heart") leaves the widget's drawn mark.
            fictional_icon: if site.fictional_icon.starts_with('/') || site.fictional_icon.starts_with("https://") {
                site.fictional_icon.clone()
            } else {
                String::new()
            },
            locale: i18n.locale.code().to_string(),
            labels: labels(i18n, site),
            draft: String::new(),
            gift_picker: false,
        }
    }

    /// Texts of the refusals a send can meet, for the island's alert.
    pub fn errors(i18n: &I18n) -> BTreeMap<String, String> {
        use domain::ErrorCode::*;
        [
            InsufficientCredits,
            PremiumOnly,
            BlockedByMember,
            MessageTooLong,
            MessageEmpty,
            ContactDetailsRefused,
            ContactDetailsRepeated,
            TooManyRequests,
            NotFound,
            PhotoTooLarge,
            PhotoNotAnImage,
            PhotoUnreadable,
            PhotoTooManyPixels,
            PhotoNoFile,
            AgeCheckRequired,
            Internal,
        ]
        .into_iter()
        .map(|code| (code.as_str().to_string(), i18n.t(code.locale_key())))
        .chain([
            ("premium_link".to_string(), i18n.t("chat.premium_link")),
            ("credits_link".to_string(), i18n.t("chat.credits_link")),
            ("age_link".to_string(), i18n.t("age.start")),
        ])
        .collect()
    }
}

/// Who a chat call is about: a conversation of the member's wins over a member.
#[cfg(feature = "ssr")]
fn resolve_target(conversation: Option<i64>, member: Option<i64>) -> Option<server::chat::To> {
    use server::chat::To;
    match (conversation, member) {
        (Some(id), _) => Some(To::Conversation(id)),
        (None, Some(id)) => Some(To::Member(id)),
        (None, None) => None,
    }
}

/// The conversation a target names, newest page; `not_found` for anyone the member cannot write to.
#[cfg(feature = "ssr")]
async fn open_thread(chat: &server::chat::Chat, me: i64, to: server::chat::To, now: i64) -> Result<server::chat::Thread, ApiError> {
    match to {
        server::chat::To::Conversation(id) => chat.thread(me, id, now).await.map_err(fail),
        server::chat::To::Member(peer) => chat.thread_with(me, peer, now).await.map_err(fail)?.ok_or_else(|| fail(domain::ErrorCode::NotFound)),
    }
}

/// The chat page: the member's conversations and, when one is asked for (by conversation, or
/// by member for `/members/{id}/chat`), that conversation's newest messages.
#[server(prefix = "/api/fn", endpoint = "chat_page")]
pub async fn chat_page(conversation: Option<i64>, member: Option<i64>) -> Result<ChatPageData, ApiError> {
    let (c, me) = member_call().await?;
    let now = c.now();
    let i18n = build::i18n(&c);
    let chat = &c.state.chat;
    let list = chat.conversations(me.id, now).await.map_err(fail)?;
    let open = match resolve_target(conversation, member) {
        Some(to) => Some(open_thread(chat, me.id, to, now).await?),
        None => None,
    };
    let open_id = open.as_ref().and_then(|t| t.id);
    // SPEC §4: opening a conversation sets its unread count to 0.
    if let (Some(id), Some(t)) = (open_id, open.as_ref().filter(|t| t.unread > 0)) {
        if let Some(newest) = t.messages.last() {
            chat.mark_read(me.id, id, newest.id).await.map_err(fail)?;
        }
    }
    let summaries = list
        .iter()
        .map(|s| {
            let mut view = build::summary(&i18n, me.id, s);
            if open_id == Some(s.id) {
                view.unread = 0;
            }
            view
        })
        .collect();
    let free_left = server::chat::Chat::free_left(&c.site, chat.free_used(me.id).await.map_err(fail)?);
    Ok(ChatPageData {
        props: build::props(&i18n, &c.site, &me, summaries, open.as_ref().map(|t| build::open(me.id, t)), free_left),
        latest: chat.latest_id(me.id).await.map_err(fail)?,
        errors: build::errors(&i18n),
    })
}

/// The member's conversation list (the island's refresh while the socket is down).
#[server(prefix = "/api/fn", endpoint = "chat_list")]
pub async fn chat_list() -> Result<Vec<ChatSummary>, ApiError> {
    let (c, me) = member_call().await?;
    let i18n = build::i18n(&c);
    let list = c.state.chat.conversations(me.id, c.now()).await.map_err(fail)?;
    Ok(list.iter().map(|s| build::summary(&i18n, me.id, s)).collect())
}

/// One conversation of the member's (by id, or with a member), newest page.
#[server(prefix = "/api/fn", endpoint = "chat_thread")]
pub async fn chat_thread(conversation: Option<i64>, member: Option<i64>) -> Result<OpenChat, ApiError> {
    let (c, me) = member_call().await?;
    let to = resolve_target(conversation, member).ok_or_else(|| fail(domain::ErrorCode::BadRequest))?;
    Ok(build::open(me.id, &open_thread(&c.state.chat, me.id, to, c.now()).await?))
}

/// Older messages of one of the member's conversations, before message `before`.
#[server(prefix = "/api/fn", endpoint = "chat_older")]
pub async fn chat_older(conversation: i64, before: i64) -> Result<OlderMessages, ApiError> {
    let (c, me) = member_call().await?;
    let (rows, has_older) = c.state.chat.page(me.id, conversation, Some(before)).await.map_err(fail)?;
    Ok(OlderMessages { messages: rows.iter().map(|m| m.view(me.id)).collect(), has_older })
}

/// Sends a text or a gift into one of the member's conversations, or to a member (the first
/// message starts the conversation). Without JavaScript the plain form comes back to the
/// conversation (or to its page with the typed text kept and the refusal shown).
#[server(prefix = "/api/fn", endpoint = "send_message")]
pub async fn send_message(
    conversation: Option<i64>,
    member: Option<i64>,
    client_id: String,
    #[server(default)] text: String,
    gift: Option<String>,
) -> Result<SentMessage, ApiError> {
    use server::chat::{Content, To};
    let (c, me) = member_call().await?;
    let target = resolve_target(conversation, member);
    let page = match target {
        Some(To::Conversation(id)) => crate::paths::chat(id),
        Some(To::Member(id)) => crate::paths::member_chat(id),
        None => "/chats".to_string(),
    };
    let back = |e: server::AppError| fail_back::<SendMessage>(e, &page, &[("text", text.as_str())]);
    c.state.rate_limiter.check_member(server::http::rate_limit::Limit::ChatSend, me.id, c.now()).await.map_err(back)?;
    let to = target.ok_or_else(|| back(domain::ErrorCode::BadRequest.into()))?;
    let content = match gift.as_deref() {
        Some(code) => Content::Gift(domain::chat::Gift::parse(code).ok_or_else(|| back(domain::ErrorCode::ChoiceInvalid.into()))?),
        None => Content::Text(text.clone()),
    };
    let cache = c.state.accounts.member_cache();
    let ticket = cache.send_ticket();
    let sent = c.state.chat.send(&c.site, &me, to, &client_id, content, c.now()).await.map_err(back)?;
    // The sender's next request finds their new balance in this node's cache at once.
    if sent.new && cache.sent(ticket, me.id, sent.message.id, sent.balance) {
        if let Some(kept) = c.parts.extensions.get::<server::http::CacheKept>() {
            kept.keep();
        }
    }
    if crate::call::accepts_html() {
        redirect(&crate::paths::chat_message(sent.message.conversation, sent.message.id));
    }
    answer(&c, sent)
}

/// What a send answers: the message, and the balance and free messages left after it.
#[cfg(feature = "ssr")]
fn answer(c: &crate::call::Call, sent: server::chat::Sent) -> Result<SentMessage, ApiError> {
    let free_left = server::chat::Chat::free_left(&c.site, sent.free_used);
    let i18n = build::i18n(c);
    // Held for review says more than hidden; a sender who keeps trying is told what comes next.
    let notice = match (sent.held.is_empty(), sent.masked.is_empty()) {
        (false, _) => Some(i18n.t("chat.contact_held")),
        (true, false) => Some(i18n.t("chat.contact_masked")),
        (true, true) => None,
    }
    .map(|text| if sent.warned { format!("{text} {}", i18n.t("chat.contact_warning")) } else { text });
    Ok(SentMessage { message: sent.message, balance: sent.balance, free_left, notice })
}

/// Sends a photo (multipart: `photo`, `client_id`, and `conversation` or `member`). It goes
/// through the photo pipeline (re-encoded, EXIF gone) and only the two members can open it.
#[server(prefix = "/api/fn", endpoint = "send_chat_photo", input = leptos::server_fn::codec::MultipartFormData)]
pub async fn send_chat_photo(data: leptos::server_fn::codec::MultipartData) -> Result<SentMessage, ApiError> {
    let (c, me) = member_call().await?;
    c.state.rate_limiter.check_member(server::http::rate_limit::Limit::ChatSend, me.id, c.now()).await.map_err(fail)?;
    c.state.rate_limiter.check_member(server::http::rate_limit::Limit::PhotoUpload, me.id, c.now()).await.map_err(fail)?;
    let form = crate::call::read_photo_form(data, c.state.photos.max_bytes()).await?;
    let number = |name: &str| form.fields.get(name).and_then(|v| v.parse::<i64>().ok());
    let to = resolve_target(number("conversation"), number("member")).ok_or_else(|| fail(domain::ErrorCode::BadRequest))?;
    let client_id = form.fields.get("client_id").cloned().unwrap_or_default();
    let sent = c.state.chat.send_photo(&c.site, &me, to, &client_id, form.photo, c.state.photos.decoder(), c.now()).await.map_err(fail)?;
    answer(&c, sent)
}

/// The member read a conversation up to a message.
#[server(prefix = "/api/fn", endpoint = "mark_chat_read")]
pub async fn mark_chat_read(conversation: i64, up_to: i64) -> Result<i64, ApiError> {
    let (c, me) = member_call().await?;
    c.state.chat.mark_read(me.id, conversation, up_to).await.map_err(fail)
}

/// Deletes a conversation from the member's list (SPEC §4, §7).
#[server(prefix = "/api/fn", endpoint = "delete_chat")]
pub async fn delete_chat(conversation: i64) -> Result<(), ApiError> {
    let (c, me) = member_call().await?;
    c.state.chat.delete(me.id, conversation).await.map_err(fail)?;
    if crate::call::accepts_html() {
        redirect("/chats");
    }
    Ok(())
}

/// The member is typing (throttled by the browser; not stored).
#[server(prefix = "/api/fn", endpoint = "chat_typing")]
pub async fn chat_typing(conversation: i64) -> Result<(), ApiError> {
    let (c, me) = member_call().await?;
    c.state.rate_limiter.check_member(server::http::rate_limit::Limit::ChatTyping, me.id, c.now()).await.map_err(fail)?;
    c.state.chat.typing(me.id, conversation).await.map_err(fail)
}

/// The operators' shared note on the member and profile of a conversation (`/staff/chats`).
#[server(prefix = "/api/fn", endpoint = "operator_note")]
pub async fn operator_note(conversation: i64, #[server(default)] note: String) -> Result<(), ApiError> {
    let (c, me) = member_call().await?;
    let page = crate::paths::staff_chat(conversation);
    c.state
        .chat
        .save_operator_note(&me, c.site.id, conversation, &note, c.now())
        .await
        .map_err(|e| fail_back::<OperatorNote>(e, &page, &[("note", note.as_str())]))?;
    redirect(&page);
    Ok(())
}

/// Renews the operator's claim on a conversation while they type (the console's island).
/// Answers whether they still hold it.
#[server(prefix = "/api/fn", endpoint = "operator_claim")]
pub async fn operator_claim(conversation: i64) -> Result<bool, ApiError> {
    let (c, me) = member_call().await?;
    let claim = c.state.chat.claim(&me, c.site.id, conversation, c.now()).await.map_err(fail)?;
    Ok(matches!(claim, server::chat::Claim::Mine { .. }))
}

/// An operator answers as the fictional profile of a conversation (`/staff/chats`).
#[server(prefix = "/api/fn", endpoint = "operator_reply")]
pub async fn operator_reply(conversation: i64, client_id: String, #[server(default)] text: String) -> Result<(), ApiError> {
    let (c, me) = member_call().await?;
    let page = crate::paths::staff_chat(conversation);
    c.state
        .chat
        .operator_send(&c.site, &me, conversation, &client_id, &text, c.now())
        .await
        .map_err(|e| fail_back::<OperatorReply>(e, &page, &[("text", text.as_str())]))?;
    redirect(&page);
    Ok(())
}
