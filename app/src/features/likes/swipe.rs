//! `/swipe-game`: the swipe game widget (React, `react-widgets/src/widgets/SwipeGame`) in an
//! island that sends every like or pass to the server and hands the new allowance back to the
//! widget. Free members get 4 likes a day (SPEC §9); a mutual like shows the match overlay. The
//! server draws the game's first state (`first_state`) so the first card is there with the page;
//! the widget takes its place when it mounts, in the same boxes.

use domain::widgets::{SwipeCard, SwipeDecision, SwipeGameLabels, SwipeGameProps, SWIPE_EVENT};
use leptos::prelude::*;
use leptos_meta::Title;
use serde::{Deserialize, Serialize};

use crate::i18n::{use_i18n, I18n};
use crate::widgets::ReactWidget;

/// The stack and what the member may still do today.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SwipeDeck {
    pub cards: Vec<SwipeCard>,
    pub remaining: Option<u32>,
    pub next_at: Option<i64>,
}

/// The answer to one swipe.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SwipeResult {
    pub remaining: Option<u32>,
    pub next_at: Option<i64>,
    pub matched: bool,
}

#[server(prefix = "/api/fn", endpoint = "swipe_stack")]
pub async fn swipe_stack() -> Result<SwipeDeck, domain::ApiError> {
    use crate::call::{fail as public_error, member_call};
    let (c, member) = member_call().await?;
    let (state, site) = (&c.state, &c.site);
    let now = c.now();
    let today = domain::account::Ymd::from_unix(now);
    let basics = state.members.basics(member.id).await.map_err(public_error)?;
    let genders: Vec<&str> = basics.seeks().map(|seeks| seeks.iter().map(|g| g.code()).collect()).unwrap_or_default();
    let cards = state.likes.swipe_candidates(&site.settings, member.id, &genders, now, today, 30).await.map_err(public_error)?;
    let allowance = state.likes.allowance(&member, now).await.map_err(public_error)?;
    Ok(SwipeDeck {
        cards: cards
            .iter()
            .map(|c| SwipeCard {
                id: c.id,
                name: c.name.clone(),
                age: c.age,
                place: c.place(),
                photo: c.thumb.as_ref().map(|t| crate::paths::media(t)),
                href: crate::paths::member(c.id),
            })
            .collect(),
        remaining: allowance.remaining.map(|r| r as u32),
        next_at: allowance.next_at,
    })
}

/// A like (through the daily allowance) or a pass.
#[server(prefix = "/api/fn", endpoint = "swipe")]
pub async fn swipe(id: i64, like: bool) -> Result<SwipeResult, domain::ApiError> {
    use crate::call::{fail as public_error, member_call};
    let (c, member) = member_call().await?;
    let (state, site) = (&c.state, &c.site);
    let now = c.now();
    let mut matched = false;
    if like {
        match state.likes.like(site, &member, id, domain::likes::LikeSource::Swipe, now).await {
            Ok(outcome) => matched = outcome.matched,
            // Used up, gone or blocked meanwhile: the new allowance below tells the widget.
            Err(server::AppError::Refused(_)) => {}
            Err(e) => return Err(public_error(e)),
        }
    } else {
        state.likes.pass(member.id, id, now).await.map_err(public_error)?;
    }
    let allowance = state.likes.allowance(&member, now).await.map_err(public_error)?;
    Ok(SwipeResult { remaining: allowance.remaining.map(|r| r as u32), next_at: allowance.next_at, matched })
}

fn labels(i18n: &I18n) -> SwipeGameLabels {
    SwipeGameLabels {
        title: i18n.t("swipe.stack"),
        like: i18n.t("swipe.like"),
        pass: i18n.t("swipe.pass"),
        view_profile: i18n.t("swipe.view_profile"),
        keys: i18n.t("swipe.keys"),
        remaining: i18n.counted("swipe.remaining"),
        used_up: i18n.t("swipe.used_up"),
        come_back: i18n.t("swipe.come_back"),
        empty: i18n.t("swipe.empty"),
        search: i18n.t("likes.find"),
        match_title: i18n.t("likes.match_title"),
        match_body: i18n.t("likes.match_body"),
        match_close: i18n.t("likes.match_close"),
    }
}

/// Runs in the browser: passes each decision to the server and the answer back to the widget.
#[island(lazy)]
fn SwipeHost(props: SwipeGameProps) -> impl IntoView {
    let state = RwSignal::new(props);
    let json = Signal::derive(move || serde_json::to_string(&state.get()).unwrap_or_default());
    let on_swipe = Callback::new(move |detail: String| {
        let Ok(decision) = serde_json::from_str::<SwipeDecision>(&detail) else { return };
        leptos::task::spawn_local(async move {
            if let Ok(result) = swipe(decision.id, decision.like).await {
                state.update(|p| {
                    p.remaining = result.remaining;
                    p.next_at = result.next_at;
                    if result.matched {
                        p.matched = p.cards.iter().find(|c| c.id == decision.id).cloned();
                    }
                });
            }
        });
    });
    view! { <ReactWidget name="SwipeGame" props=json event=SWIPE_EVENT on_event=on_swipe class="widget--swipe"/> }
}

/// The game's first state as the server draws it, element for element what `SwipeGame.tsx` draws
/// before the first swipe (the widgets' stylesheet is in the head): the first photo loads with the
/// page, and the widget mounting over it moves nothing. Without JavaScript the cards' profile
/// links still work.
fn first_state(props: &SwipeGameProps, now: i64) -> impl IntoView {
    let l = &props.labels;
    let used_up = props.remaining.is_some_and(|r| r == 0);
    let photo = |card: &SwipeCard, top: bool| match card.photo.clone() {
        Some(src) => view! {
            <img class="vw-swipe__photo" src=src alt="" draggable="false" loading=if top { "eager" } else { "lazy" } fetchpriority=top.then_some("high")
                decoding="async" width="480" height="640"/>
        }
        .into_any(),
        None => view! {
            <span class="vw-swipe__photo vw-swipe__initial" aria-hidden="true">{crate::ui::initial(&card.name)}</span>
        }
        .into_any(),
    };
    // The widget's heart, from the page's icon sprite (the same path).
    let heart = || view! { <svg viewBox="0 0 24 24" width="30" height="30" aria-hidden="true" focusable="false"><use href="#i-heart"></use></svg> };
    let card = props.cards.first().filter(|_| !used_up);
    let body = if used_up {
        let wait = props.next_at.map(|at| {
            let minutes = ((at - now).max(0) + 59) / 60;
            domain::i18n::interpolate(&l.come_back, &[("time", &format!("{}:{:02}", minutes / 60, minutes % 60))])
        });
        view! {
            <div class="vw-swipe__done" role="status">
                {heart()}
                <h2>{l.used_up.clone()}</h2>
                {wait.map(|w| view! { <p>{w}</p> })}
                <a class="vw-swipe__link" href="/members">{l.search.clone()}</a>
            </div>
        }
        .into_any()
    } else if let Some(card) = card {
        view! {
            <div class="vw-swipe__stage" role="group" aria-label=l.title.clone() tabindex="0" aria-describedby="vw-swipe-keys-first">
                {props.cards.get(1).map(|next| view! { <div class="vw-swipe__card vw-swipe__card--next" aria-hidden="true">{photo(next, false)}</div> })}
                <div class="vw-swipe__card" data-id=card.id>
                    {photo(card, true)}
                    <span class="vw-swipe__stamp vw-swipe__stamp--like" aria-hidden="true">{l.like.clone()}</span>
                    <span class="vw-swipe__stamp vw-swipe__stamp--pass" aria-hidden="true">{l.pass.clone()}</span>
                    <div class="vw-swipe__info">
                        <h2 class="vw-swipe__name">{format!("{}, {}", card.name, card.age)}</h2>
                        <p class="vw-swipe__place">{card.place.clone()}</p>
                        <a class="vw-swipe__link vw-swipe__link--light" href=card.href.clone()>{l.view_profile.clone()}</a>
                    </div>
                </div>
                <p id="vw-swipe-keys-first" class="vw-swipe__keys">{l.keys.clone()}</p>
            </div>
        }
        .into_any()
    } else {
        view! {
            <div class="vw-swipe__done" role="status">
                <p>{l.empty.clone()}</p>
                <a class="vw-swipe__link" href="/members">{l.search.clone()}</a>
            </div>
        }
        .into_any()
    };
    view! {
        <div class="vw-swipe">
            {props.remaining.filter(|r| *r > 0).map(|r| view! { <p class="vw-swipe__remaining">{l.remaining.text(r.into(), &[])}</p> })}
            {body}
            {card.map(|_| view! {
                <div class="vw-swipe__buttons">
                    <button type="button" class="vw-swipe__button vw-swipe__button--pass" aria-label=l.pass.clone()>
                        <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" focusable="false">
                            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="3" stroke-linecap="round"></path>
                        </svg>
                    </button>
                    <button type="button" class="vw-swipe__button vw-swipe__button--like" aria-label=l.like.clone()>{heart()}</button>
                </div>
            })}
        </div>
    }
}

#[component]
pub fn SwipeGamePage() -> impl IntoView {
    let i18n = use_i18n();
    crate::features::account::member_or_login("/swipe-game")?;
    let stack = Resource::new_blocking(|| (), |_| swipe_stack());
    Some(view! {
        <Title text=i18n.t("swipe.title")/>
        <div class="container container--narrow page swipe-page">
            <h1 class="page__title">{i18n.t("swipe.title")}</h1>
            <p class="muted">{i18n.t("swipe.intro")}</p>
            <Suspense fallback=|| ()>
                {move || stack.get().map(|result| match result {
                    Ok(s) => {
                        let props = SwipeGameProps { cards: s.cards, remaining: s.remaining, next_at: s.next_at, matched: None, labels: labels(&use_i18n()) };
                        let now = crate::context::use_page_ctx().now;
                        view! {
                            <div class="swipe-game">
                                <div class="widget--swipe swipe-game__first" data-testid="swipe-first">{first_state(&props, now)}</div>
                                <SwipeHost props=props/>
                            </div>
                        }
                        .into_any()
                    }
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    })
}
