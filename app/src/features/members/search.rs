//! `/members`: search with gender, country, region and age filters that live in the URL and
//! render on the server (plain GET form, so it works without JavaScript), paged, with similar
//! profiles when a page comes out short.

use std::sync::Arc;

use domain::profile::Gender;
use domain::search::MAX_AGE;
use leptos::prelude::*;

use crate::ui::pager::Pager;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::context::use_page_ctx;
use crate::features::account::location::country_choices;
use crate::features::likes::match_dialog::MatchDialog;
use crate::features::members::card::{CardLike, MemberCardView, Portrait};
use crate::features::members::server_fns::{search_members, SearchPage};
use crate::i18n::use_i18n;

#[component]
fn Filters(page: Arc<SearchPage>) -> impl IntoView {
    let i18n = use_i18n();
    let ctx = use_page_ctx();
    let f = page.filters.clone();
    let gender = f.gender.map(|g| g.code()).unwrap_or("any");
    // Two number fields rather than two lists of 80 ages each (5 KB of options per page).
    let (min, max) = (ctx.site.min_age.to_string(), MAX_AGE.to_string());
    let age_field = move |name: &'static str, value: u32, label: String| {
        view! {
            <label>
                <span class="visually-hidden">{label.clone()}</span>
                <input type="number" name=name value=value.to_string() min=min.clone() max=max.clone() step="1" inputmode="numeric" required aria-label=label class="search-filters__age"/>
            </label>
        }
    };
    // The fields the site offers (`search_fields`); none: the results alone.
    if ctx.site.search_fields.is_empty() {
        return None;
    }
    let shows = |field: &str| ctx.site.search_fields.iter().any(|f| f == field);
    let countries = country_choices(&i18n, &page.countries);
    let regions = page.regions.clone();
    let gender_field = shows("gender").then(|| {
        view! {
                <label class="field">
                    <span class="field__label">{i18n.t("members.seeking")}</span>
                    <select name="gender">
                        <option value="any" selected=gender == "any">{i18n.t("members.gender_any")}</option>
                        <option value=Gender::Female.code() selected=gender == "female">{i18n.t("members.women")}</option>
                        <option value=Gender::Male.code() selected=gender == "male">{i18n.t("members.men")}</option>
                    </select>
                </label>
        }
    });
    let country_field = shows("country").then(|| view! {
            <label class="field">
                <span class="field__label">{i18n.t("profile.country")}</span>
                <select name="country">
                    <option value="">{i18n.t("members.country_any")}</option>
                    {countries.iter().map(|(code, name)| view! { <option value=code.clone() selected=f.country.as_deref() == Some(code.as_str())>{name.clone()}</option> }).collect_view()}
                </select>
            </label>
    });
    let region_field = shows("region").then(|| view! {
            <label class="field">
                <span class="field__label">{i18n.t("profile.region")}</span>
                <select name="region">
                    <option value="">{i18n.t("members.region_any")}</option>
                    {countries.iter().map(|(code, name)| {
                        let list: Vec<_> = regions.iter().filter(|r| &r.country == code).cloned().collect();
                        view! {
                            <optgroup label=name.clone()>
                                {list.into_iter().map(|r| view! { <option value=r.code.clone() selected=f.region.as_deref() == Some(r.code.as_str())>{r.name}</option> }).collect_view()}
                            </optgroup>
                        }
                    }).collect_view()}
                </select>
            </label>
    });
    let age_fields = shows("age").then(|| {
        view! {
                <fieldset class="field search-filters__ages">
                    <legend class="field__label">{i18n.t("members.age")}</legend>
                    {age_field("min_age", f.min_age, i18n.t("members.age_from"))}
                    <span aria-hidden="true">"–"</span>
                    {age_field("max_age", f.max_age, i18n.t("members.age_to"))}
                </fieldset>
        }
    });
    Some(view! {
        <form method="get" action="/members" class="search-filters" data-testid="search-filters">
            {gender_field}
            {country_field}
            {region_field}
            {age_fields}
            <button type="submit" class="btn btn--primary">{i18n.t("members.search")}</button>
        </form>
    })
}

#[component]
fn Results(page: Arc<SearchPage>) -> impl IntoView {
    let i18n = use_i18n();
    let f = page.filters.clone();
    let r = page.results.clone();
    let empty = r.results.is_empty();
    let prev = (f.page > 1).then(|| crate::paths::search(&f.to_query(f.page - 1), None));
    let next = r.has_more.then(|| crate::paths::search(&f.to_query(f.page + 1), None));
    let last = page.last_opened.clone();
    let here = crate::paths::search(&f.to_query(f.page), None);
    let liked = page.liked.clone();
    let member = liked.is_some();
    // Cards with their like buttons (members only); the first screen's portraits load at once.
    // Each card's HTML is kept for everyone who sees it alike (crate::render::kept_html).
    let cards = move |list: Vec<domain::search::MemberCard>, first_screen: bool| {
        list.into_iter()
            .enumerate()
            .map(|(i, card)| {
                let like = match liked.as_ref() {
                    Some(l) => Some(CardLike::member(l.contains(&card.id))),
                    // A visitor's heart signs up first.
                    None => Some(CardLike {
                        liked: false,
                        signup: Some(crate::features::account::signup::with_tracking(&crate::paths::member_signup_then(
                            card.id,
                            domain::lander::EntryAction::Like,
                        ))),
                    }),
                };
                let eager = first_screen && i < crate::features::members::card::EAGER_CARDS;
                crate::render::kept_html("card", (&card, &like, eager), || {
                    crate::render::html_now(view! { <MemberCardView card=card.clone() like=like.clone() eager=eager/> })
                })
            })
            .fold(String::new(), |mut all, html| {
                all.push_str(&html);
                all
            })
    };
    let similar_cards = cards.clone();
    // Back from a like on a card: a notice, or the match dialog for a mutual like.
    let query = use_query_map().get_untracked();
    let shown = |key: &str| query.get(key).and_then(|v| v.parse::<i64>().ok()).and_then(|id| r.results.iter().chain(&r.similar).find(|c| c.id == id).cloned());
    let matched = shown("match").map(|card| {
        let close = crate::paths::search(&f.to_query(f.page), Some(card.id));
        view! { <MatchDialog name=card.name.clone() photo=card.thumb.clone() close_href=close/> }
    });
    let notice = shown("liked").map(|card| i18n.tf("likes.liked_notice", &[("name", &card.name)]));
    view! {
        {matched}
        {notice.map(|text| view! { <p class="notice notice--ok" role="status" data-testid="saved">{text}</p> })}
        {last.map(|card| {
            let i18n = use_i18n();
            view! {
                <a class="last-opened" href=crate::paths::member(card.id) data-testid="last-opened">
                    <Portrait name=card.name.clone() src=card.thumb.clone() class="last-opened__photo"/>
                    <span><span class="last-opened__label">{i18n.t("members.last_opened")}</span>" " <strong>{card.name.clone()}", " {card.age}</strong></span>
                    <span class="last-opened__go" aria-hidden="true">"→"</span>
                </a>
            }
        })}
        {empty.then(|| view! { <p class="notice" data-testid="no-results">{i18n.t("members.no_results")}</p> })}
        {member.then(|| view! { <crate::features::likes::server_fns::CardLikeForms return_to=here.clone()/> })}
        <ul class="member-grid" data-testid="results" inner_html=cards(r.results, true)></ul>
        <Pager page=f.page prev=prev next=next/>
        {(!r.similar.is_empty()).then(|| view! {
            <section class="similar" aria-labelledby="similar-title">
                <h2 id="similar-title">{use_i18n().t("members.similar")}</h2>
                <ul class="member-grid" data-testid="similar" inner_html=similar_cards(r.similar, false)></ul>
            </section>
        })}
    }
}

#[component]
pub fn MembersPage() -> impl IntoView {
    let i18n = use_i18n();
    let query: Vec<(String, String)> = {
        let map = use_query_map().get_untracked();
        ["gender", "country", "region", "min_age", "max_age", "page", "network", "ref"]
            .into_iter()
            .filter_map(|k| map.get(k).map(|v| (k.to_string(), v.chars().take(40).collect())))
            .collect()
    };
    // Blocking: the results arrive with the page, so it works without JavaScript.
    let data = Resource::new_blocking(move || query.clone(), search_members);
    view! {
        <Title text=i18n.t("members.title")/>
        <div class="container page members-page">
            <h1 class="page__title">{i18n.t("members.title")}</h1>
            <crate::features::likes::server_fns::LikeErrors/>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| match result {
                    Ok(page) if page.visitor_refused => {
                        let i18n = use_i18n();
                        view! {
                            <section class="panel visitor-gate" data-testid="search-visitor-gate">
                                <h2>{i18n.t("members.visitor_title")}</h2>
                                <p class="muted">{i18n.t("members.visitor_body")}</p>
                                <a class="btn btn--primary" href="/signup" data-signup-link="">{i18n.t("nav.signup")}</a>
                            </section>
                        }
                        .into_any()
                    }
                    Ok(page) => {
                        let page = Arc::new(page);
                        // The form and the grid are hundreds of elements: rendered at once.
                        // The search form is the same for everyone with the same filters.
                        let form = crate::render::kept_html("search-form", (&page.filters, &page.countries), || crate::render::html_now(view! { <Filters page=page.clone()/> }));
                        let html = crate::render::html_now(view! {
                            <aside class="members-layout__filters" inner_html=form.to_string()></aside>
                            <div class="members-layout__results"><Results page=page/></div>
                        });
                        view! { <div class="members-layout" inner_html=html></div> }.into_any()
                    }
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    }
}
