//! `/likes`, `/likes/{type}`: tabs for likes received (new ones first, marked), matches and likes
//! given, each a grid of profile cards, `domain::likes::PAGE_SIZE` to a page (`?page=N`).

use domain::likes::LikeKind;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::context::use_page_ctx;
use crate::features::likes::match_dialog::MatchDialog;
use crate::features::likes::server_fns::my_likes;
use crate::features::members::card::{CardLike, MemberCardView};
use crate::i18n::use_i18n;
use crate::ui::pager::Pager;

#[component]
pub fn LikesPage() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    let kind_param = use_params_map().get_untracked().get("type");
    let query = leptos_router::hooks::use_query_map().get_untracked();
    let matched_id = query.get("match").and_then(|v| v.parse::<i64>().ok());
    let page = domain::likes::page(query.get("page").as_deref());
    crate::features::account::member_or_login("/likes")?;
    let kind = match kind_param.as_deref() {
        None => LikeKind::Received,
        Some(code) => match LikeKind::parse(code) {
            Some(kind) => kind,
            None => {
                #[cfg(feature = "ssr")]
                if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
                    response.set_status(http::StatusCode::NOT_FOUND);
                }
                return Some(view! { <div class="container page"><p class="notice">{i18n.t("error.not_found")}</p></div> }.into_any());
            }
        },
    };
    let new_likes = ctx.member.as_ref().map(|m| m.counters.new_likes).unwrap_or(0);
    // Blocking: the page arrives whole, so it works without JavaScript.
    let list = Resource::new_blocking(move || (kind, page), |(kind, page)| my_likes(kind, page));
    // This page's address: where likes on its cards come back to.
    let page_href = move |page: u32| crate::paths::likes(kind, page);
    let tabs = LikeKind::ALL
        .into_iter()
        .map(|k| {
            let i18n = use_i18n();
            let pill = (k == LikeKind::Received).then(|| domain::counters::pill(new_likes)).flatten();
            view! {
                <a class="tabs__tab" class:tabs__tab--active=k == kind href=crate::paths::likes(k, 1) aria-current=(k == kind).then_some("page")>
                    {i18n.t(&format!("likes.tab.{}", k.code()))}
                    {pill.map(|p| view! { <span class="pill">{p}</span> })}
                </a>
            }
        })
        .collect_view();
    Some(
        view! {
            <Title text=i18n.t("likes.title")/>
            <div class="container page">
                <div class="page__head">
                    <h1 class="page__title">{i18n.t("likes.title")}</h1>
                    <div class="page__actions">
                        <a class="btn btn--ghost btn--small" href="/match-finder" data-testid="open-finder">{i18n.t("finder.title")}</a>
                        <a class="btn btn--primary btn--small" href="/swipe-game" data-testid="play-swipe">{i18n.t("likes.play")}</a>
                    </div>
                </div>
                <nav class="tabs" aria-label=i18n.t("likes.title")>{tabs}</nav>
                <crate::features::likes::server_fns::LikeErrors/>
                <Suspense fallback=|| ()>
                    {move || list.get().map(|result| match result {
                        Ok(list) if list.items.is_empty() && page == 1 => {
                            let i18n = use_i18n();
                            view! {
                                <div class="panel empty-state" data-testid="likes-empty">
                                    <p>{i18n.t(&format!("likes.empty.{}", kind.code()))}</p>
                                    <a class="btn btn--primary" href="/members">{i18n.t("likes.find")}</a>
                                </div>
                            }
                            .into_any()
                        }
                        Ok(list) => {
                            let items = list.items;
                            // Back from liking someone back on a card: the match dialog.
                            let matched = matched_id.and_then(|id| items.iter().find(|i| i.card.id == id && i.liked)).map(|i| {
                                let close = format!("{}#m-{}", page_href(page), i.card.id);
                                view! { <MatchDialog name=i.card.name.clone() photo=i.card.thumb.clone() close_href=close/> }
                            });
                            // Each card's HTML is kept for everyone who sees it alike (`kept_html`).
                            let cards = items.into_iter().fold(String::new(), |mut all, item| {
                                let like = Some(CardLike::member(item.liked));
                                let html = crate::render::kept_html("like-card", (&item.card, &like, item.new), || {
                                    let badge = item.new.then(|| use_i18n().t("likes.new"));
                                    crate::render::html_now(view! { <MemberCardView card=item.card.clone() badge=badge like=like.clone()/> })
                                });
                                all.push_str(&html);
                                all
                            });
                            let prev = (page > 1).then(|| page_href(page - 1));
                            let next = list.has_more.then(|| page_href(page + 1));
                            view! {
                            {matched}
                            <crate::features::likes::server_fns::CardLikeForms return_to=page_href(page)/>
                            <ul class="member-grid" data-testid="likes-list" inner_html=cards></ul>
                            <Pager page=page prev=prev next=next/>
                            }
                            .into_any()
                        }
                        Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                    })}
                </Suspense>
            </div>
        }
        .into_any(),
    )
}
