//! Server functions of likes: the likes pages' list, liking and unliking (profile pages,
//! search cards, likes cards), liking several at once (the match finder), auto-likes and the
//! top bar's counters. The member always comes from the session.

use std::collections::BTreeMap;

use domain::search::MemberCard;
use domain::ApiError;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, member_call, redirect};
#[cfg(feature = "ssr")]
use crate::ui::forms::with_param;
#[cfg(feature = "ssr")]
use server::http::visitor::safe_return_path as safe_return;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LikeItem {
    pub card: MemberCard,
    /// SPEC §3 like_new: a received like not looked at yet.
    pub new: bool,
    /// Whether the member likes this profile too (the card's heart).
    pub liked: bool,
}

/// One page of a likes tab: its cards, and whether a next page follows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LikesList {
    pub items: Vec<LikeItem>,
    pub has_more: bool,
}

/// One likes page (`domain::likes::PAGE_SIZE` cards), newest first (received: new ones first).
#[server(prefix = "/api/fn", endpoint = "my_likes")]
pub async fn my_likes(kind: domain::likes::LikeKind, #[server(default)] page: u32) -> Result<LikesList, ApiError> {
    let (c, member) = member_call().await?;
    let (state, site) = (&c.state, &c.site);
    let today = domain::account::Ymd::from_unix(c.now());
    // One card more than the page shows says whether there is a next page.
    let size = i64::from(domain::likes::PAGE_SIZE);
    let mut list = state.likes.list(&site.settings, member.id, kind, today, size + 1, domain::likes::offset(page)).await.map_err(fail)?;
    let has_more = list.len() as i64 > size;
    list.truncate(size as usize);
    let items = list.into_iter().map(|l| LikeItem { liked: l.liked_back, card: l.card, new: l.new }).collect();
    Ok(LikesList { items, has_more })
}

/// Where a like form comes back to: its `return_to`, else the profile.
#[cfg(feature = "ssr")]
fn back(return_to: Option<String>, id: i64) -> String {
    match return_to {
        Some(path) => safe_return(Some(&path)),
        None => crate::paths::member(id),
    }
}

/// With `card` (a grid's heart), back to that card in the list: `#m-{id}`.
#[cfg(feature = "ssr")]
fn to_card(path: String, card: bool, id: i64) -> String {
    if card && !path.contains('#') {
        format!("{path}#m-{id}")
    } else {
        path
    }
}

/// Likes a member (from a profile, a search card or a likes card) and comes back with `liked=`
/// or, on a like back, `match=` (the match dialog).
#[server(prefix = "/api/fn", endpoint = "like")]
pub async fn like(id: i64, #[server(default)] source: String, return_to: Option<String>, #[server(default)] card: bool) -> Result<bool, ApiError> {
    use domain::likes::LikeSource;
    let (c, member) = member_call().await?;
    let source = LikeSource::parse(&source).filter(|s| *s != LikeSource::Auto).unwrap_or(LikeSource::Profile);
    let outcome = c.state.likes.like(&c.site, &member, id, source, c.now()).await.map_err(fail)?;
    let param = if outcome.matched { format!("match={id}") } else { format!("liked={id}") };
    redirect(&to_card(with_param(&back(return_to, id), &param), card, id));
    Ok(outcome.matched)
}

/// Takes a like back.
#[server(prefix = "/api/fn", endpoint = "unlike")]
pub async fn unlike(id: i64, return_to: Option<String>, #[server(default)] card: bool) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.likes.unlike(member.id, id).await.map_err(fail)?;
    redirect(&to_card(with_param(&back(return_to, id), "unliked=1"), card, id));
    Ok(())
}

/// The match finder's "like them all": `ids[{id}]=on` for each chosen member. Members who
/// cannot be liked any more are skipped; the page comes back with how many were liked and the
/// first match.
#[server(prefix = "/api/fn", endpoint = "like_many")]
pub async fn like_many(#[server(default)] ids: BTreeMap<String, String>, return_to: Option<String>) -> Result<usize, ApiError> {
    let (c, member) = member_call().await?;
    let mut ids: Vec<i64> = ids.keys().filter_map(|k| k.parse().ok()).filter(|id: &i64| *id > 0).collect();
    ids.truncate(domain::notifications::MATCH_FINDER_SIZE);
    if ids.is_empty() {
        return Err(fail(domain::ErrorCode::NoneChosen));
    }
    let done = c.state.likes.like_many(&c.site, &member, &ids, domain::likes::LikeSource::Search, c.now()).await.map_err(fail)?;
    let mut param = format!("liked_many={}", done.len());
    if let Some((id, _)) = done.iter().find(|(_, o)| o.matched) {
        param.push_str(&format!("&match={id}"));
    }
    redirect(&with_param(&safe_return(return_to.as_deref()), &param));
    Ok(done.len())
}

/// SPEC §7 auto-like: a fitting operator-run profile likes the new member, if one is due; the
/// answer is that profile or none.
#[server(prefix = "/api/fn", endpoint = "auto_like")]
pub async fn auto_like() -> Result<Option<domain::likes::Liker>, ApiError> {
    let (c, member) = member_call().await?;
    let now = c.now();
    let card = c.state.likes.auto_like(&c.site, &member, now, domain::account::Ymd::from_unix(now)).await.map_err(fail)?;
    Ok(card.map(|c| domain::likes::Liker { id: c.id, place: c.place(), photo: c.thumb.map(|t| crate::paths::media(&t)), name: c.name, age: c.age }))
}

/// The top bar's counters (SPEC §4, §9), read with the member's row by the session middleware.
#[server(prefix = "/api/fn", endpoint = "counts", output = leptos::server_fn::codec::Json)]
pub async fn counts() -> Result<domain::counters::Counters, ApiError> {
    let (_, member) = member_call().await?;
    if let Some(options) = use_context::<leptos_axum::ResponseOptions>() {
        options.insert_header(http::header::CACHE_CONTROL, http::HeaderValue::from_static("no-store"));
    }
    Ok(member.counters)
}

/// A like or unlike form for one member: the `like` server function, or `unlike` when the
/// member likes them already. `children` is the button.
#[component]
pub fn LikeForm(id: i64, liked: bool, source: &'static str, return_to: String, children: Children) -> impl IntoView {
    let fields = view! {
        <input type="hidden" name="id" value=id.to_string()/>
        <input type="hidden" name="source" value=source/>
        <input type="hidden" name="return_to" value=return_to/>
        {children()}
    };
    if liked {
        view! { <ActionForm action={ServerAction::<Unlike>::new()}>{fields}</ActionForm> }.into_any()
    } else {
        view! { <ActionForm action={ServerAction::<Like>::new()}>{fields}</ActionForm> }.into_any()
    }
}

/// The like and unlike forms a grid's hearts submit (`<button form=… name="id">`): the list
/// and where to come back to are written once, not on each of its cards.
#[component]
pub fn CardLikeForms(return_to: String) -> impl IntoView {
    let fields = move || {
        view! {
            <input type="hidden" name="source" value="search"/>
            <input type="hidden" name="return_to" value=return_to.clone()/>
            <input type="hidden" name="card" value="true"/>
        }
    };
    view! {
        <form id=CARD_LIKE method="post" action=Like::url() hidden>{fields()}</form>
        <form id=CARD_UNLIKE method="post" action=Unlike::url() hidden>{fields()}</form>
    }
}

/// The ids of [`CardLikeForms`].
pub const CARD_LIKE: &str = "card-like-form";
pub const CARD_UNLIKE: &str = "card-unlike-form";

/// The refusal of the last like or unlike, for the pages that carry like buttons.
#[component]
pub fn LikeErrors() -> impl IntoView {
    view! {
        <crate::ui::forms::ActionError action={ServerAction::<Like>::new()}/>
        <crate::ui::forms::ActionError action={ServerAction::<Unlike>::new()}/>
    }
}
