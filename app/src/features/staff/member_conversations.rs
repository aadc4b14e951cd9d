//! `/staff/members/conversations?member=N&reason=…[&c=M]`: a member's conversations, and one of
//! them read, for support and admins — only with a reason, which goes to the staff log with every
//! list and every conversation opened (`server::staff::Staff::read_conversation`). Photos and
//! gifts are named, not shown.

use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, staff_call};
use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::use_i18n;

pub const PAGE: &str = "/staff/members/conversations";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConversationView {
    pub id: i64,
    pub peer_id: i64,
    pub peer_name: String,
    pub messages: i64,
    pub last_at: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadMessageView {
    pub mine: bool,
    pub kind: String,
    pub body: String,
    pub gift: Option<String>,
    pub created_at: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemberConversations {
    pub name: String,
    pub list: Vec<ConversationView>,
    /// The conversation opened, with the other member's name.
    pub opened: Option<(String, Vec<ReadMessageView>)>,
}

/// The member's conversations and, with `c`, one read (each logged with the reason).
#[server(prefix = "/api/fn", endpoint = "staff_member_conversations", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_member_conversations(member: i64, reason: String, c: Option<i64>) -> Result<MemberConversations, ApiError> {
    let (call, staff) = staff_call(StaffArea::Members).await?;
    let site = call.site.settings.id;
    let list = call.state.staff.member_conversations(&staff, site, member, &reason, call.now()).await.map_err(fail)?;
    let opened = match c {
        Some(conversation) => {
            let messages = call.state.staff.read_conversation(&staff, site, member, conversation, &reason, call.now()).await.map_err(fail)?;
            let peer = list.iter().find(|l| l.id == conversation).map(|l| l.peer_name.clone()).unwrap_or_default();
            let messages = messages
                .into_iter()
                .map(|m| ReadMessageView { mine: m.sender_id == member, kind: m.kind, body: m.body, gift: m.gift, created_at: m.created_at })
                .collect();
            Some((peer, messages))
        }
        None => None,
    };
    let name = call.state.accounts.member(member).await.map_err(fail)?.map(|m| m.name).unwrap_or_default();
    let list =
        list.into_iter().map(|l| ConversationView { id: l.id, peer_id: l.peer_id, peer_name: l.peer_name, messages: l.messages, last_at: l.last_at }).collect();
    Ok(MemberConversations { name, list, opened })
}

#[component]
pub fn MemberConversationsPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Members) {
        return refused;
    }
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let member = query.get("member").and_then(|m| m.parse::<i64>().ok()).unwrap_or(0);
    let reason = query.get("reason").unwrap_or_default();
    let opened = query.get("c").and_then(|c| c.parse::<i64>().ok());
    let back = format!("/staff/members?q=%23{member}");
    let asked = (member, reason.clone(), opened);
    let data = Resource::new_blocking(move || asked.clone(), |(member, reason, c)| staff_member_conversations(member, reason, c));
    view! {
        <Title text=i18n.t("staff.members.conversations")/>
        <div class="container container--narrow page">
            <p><a href=back>{i18n.t("staff.members.back_to_member")}</a></p>
            <h1>{i18n.t("staff.members.conversations")}</h1>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| {
                    let i18n = use_i18n();
                    match result {
                        Err(e) => view! { <p class="notice notice--error" role="alert" data-testid="conversations-refused">{i18n.error(&e)}</p> }.into_any(),
                        Ok(v) => {
                            let reason = reason.clone();
                            let items = v.list.iter().map(|l| {
                                let i18n = use_i18n();
                                let href = format!("{PAGE}?member={member}&reason={}&c={}", domain::account::percent_encode(&reason), l.id);
                                let messages = i18n.plural("staff.members.conversation_messages", l.messages, &[]);
                                let line = i18n.tf("staff.members.conversation_line", &[("name", &l.peer_name), ("messages", &messages), ("date", &i18n.date(l.last_at))]);
                                view! { <li><a href=href aria-current=(opened == Some(l.id)).then_some("page")>{line}</a></li> }
                            }).collect_view();
                            let thread = v.opened.map(|(peer, messages)| {
                                let name = v.name.clone();
                                let lines = messages.into_iter().map(|m| {
                                    let i18n = use_i18n();
                                    let who = if m.mine { name.clone() } else { peer.clone() };
                                    let text = match m.kind.as_str() {
                                        "photo" => i18n.t("staff.members.message_photo"),
                                        "gift" => i18n.tf("staff.members.message_gift", &[("gift", &m.gift.clone().map(|g| i18n.t(&format!("chat.gift.{g}"))).unwrap_or_default())]),
                                        _ => m.body.clone(),
                                    };
                                    view! {
                                        <li class="staff-thread__message" class:staff-thread__message--mine=m.mine>
                                            <span class="staff-thread__meta">{who}" · "{i18n.date(m.created_at)}</span>
                                            <span class="staff-thread__text">{text}</span>
                                        </li>
                                    }
                                }).collect_view();
                                view! {
                                    <section class="card" aria-labelledby="thread-title" data-testid="staff-thread">
                                        <h2 id="thread-title">{use_i18n().tf("staff.members.conversation_with", &[("name", &peer)])}</h2>
                                        <ol class="staff-thread">{lines}</ol>
                                    </section>
                                }
                            });
                            view! {
                                <p class="muted">{i18n.tf("staff.members.conversations_of", &[("name", &v.name), ("reason", &reason)])}</p>
                                {if v.list.is_empty() {
                                    view! { <p class="notice">{use_i18n().t("staff.members.conversations_none")}</p> }.into_any()
                                } else {
                                    view! { <ul class="staff-member__list" data-testid="member-conversations">{items}</ul> }.into_any()
                                }}
                                {thread}
                            }.into_any()
                        }
                    }
                })}
            </Suspense>
        </div>
    }
    .into_any()
}
