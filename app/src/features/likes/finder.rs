//! `/match-finder` and `/signup-matches`: members who fit the member both ways (gender and
//! sexuality, same country), all selected, liked in one go with one button (a plain form post
//! to `/api/likes/many`). `/signup-matches` is the last step of signup; its button and its skip
//! link lead on to the member's profile.

use crate::features::likes::server_fns::LikeMany;
use crate::ui::forms::ActionError;

use domain::search::MemberCard;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

use crate::features::likes::match_dialog::MatchDialog;
use crate::features::members::card::Portrait;
use crate::i18n::use_i18n;
use crate::ui::icons::HeartIcon;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Suggestions {
    pub cards: Vec<MemberCard>,
    /// The member behind `?match=`, when the two like each other: (name, photo).
    pub matched: Option<(String, Option<String>)>,
}

#[server(prefix = "/api/fn", endpoint = "match_suggestions")]
pub async fn match_suggestions(matched: Option<i64>) -> Result<Suggestions, domain::ApiError> {
    use crate::call::{fail as public_error, member_call};
    let (c, member) = member_call().await?;
    let (state, site) = (&c.state, &c.site);
    let today = domain::account::Ymd::from_unix(c.now());
    let cards = state.likes.suggestions(&site.settings, member.id, today, domain::notifications::MATCH_FINDER_SIZE as i64).await.map_err(public_error)?;
    let mut shown = None;
    if let Some(id) = matched {
        let both = state.likes.state(member.id, id).await.map_err(public_error)?;
        if both.i_liked && both.they_liked {
            shown = state.members.profile(&site.settings, Some(member.id), id, today).await.map_err(public_error)?.map(|p| (p.name, p.photo));
        }
    }
    Ok(Suggestions { cards, matched: shown })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Finder,
    Signup,
}

#[component]
fn Finder(mode: Mode) -> impl IntoView {
    let i18n = use_i18n();
    let path = if mode == Mode::Finder { "/match-finder" } else { "/signup-matches" };
    crate::features::account::member_or_login(path)?;
    let query = use_query_map().get_untracked();
    let matched = query.get("match").and_then(|v| v.parse::<i64>().ok());
    let liked_many = query.get("liked_many").and_then(|v| v.parse::<u32>().ok());
    let data = Resource::new_blocking(move || matched, match_suggestions);
    let like_many = ServerAction::<LikeMany>::new();
    // After signup the member goes on to the profile, liked or not.
    let (return_to, title_key, intro_key) = match mode {
        Mode::Finder => (path.to_string(), "finder.title", "finder.intro"),
        Mode::Signup => ("/profile?saved=welcome".to_string(), "finder.signup_title", "finder.signup_intro"),
    };
    Some(view! {
        <Title text=i18n.t(title_key)/>
        <div class="container page finder">
            <div class="page__head">
                <h1 class="page__title">{i18n.t(title_key)}</h1>
                {(mode == Mode::Signup).then(|| view! { <a class="btn btn--ghost btn--small" href="/profile?saved=welcome" data-testid="finder-skip">{use_i18n().t("finder.skip")}</a> })}
            </div>
            <p class="muted">{i18n.t(intro_key)}</p>
            {liked_many.map(|n| view! { <p class="notice notice--ok" role="status" data-testid="saved">{use_i18n().plural("finder.liked", i64::from(n), &[])}</p> })}
            <ActionError action=like_many/>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| match result {
                    Ok(s) => {
                        let i18n = use_i18n();
                        let dialog = s.matched.map(|(name, photo)| view! { <MatchDialog name=name photo=photo close_href=path.to_string()/> });
                        if s.cards.is_empty() {
                            let next = if mode == Mode::Signup { "/profile?saved=welcome" } else { "/members" };
                            let label = if mode == Mode::Signup { i18n.t("finder.continue") } else { i18n.t("likes.find") };
                            return view! {
                                {dialog}
                                <div class="panel empty-state" data-testid="finder-empty">
                                    <p>{i18n.t("finder.empty")}</p>
                                    <a class="btn btn--primary" href=next>{label}</a>
                                </div>
                            }.into_any();
                        }
                        let return_to_field = return_to.clone();
                        view! {
                            {dialog}
                            <ActionForm action=like_many attr:class="finder__form" attr:data-testid="finder-form">
                                <input type="hidden" name="return_to" value=return_to_field/>
                                <ul class="finder__grid">
                                    {s.cards.into_iter().map(|card| view! {
                                        <li class="finder__item">
                                            <label class="finder__card">
                                                <input type="checkbox" name=format!("ids[{}]", card.id) value="on" checked class="finder__check" data-testid="finder-check"/>
                                                <Portrait name=card.name.clone() src=card.thumb.clone() class="finder__photo"/>
                                                <span class="finder__mark" aria-hidden="true"><HeartIcon/></span>
                                                <span class="finder__text">
                                                    <span class="finder__name">{card.name.clone()}", " {card.age}</span>
                                                    <span class="finder__place">{card.place()}</span>
                                                </span>
                                            </label>
                                        </li>
                                    }).collect_view()}
                                </ul>
                                <div class="finder__actions">
                                    <button type="submit" class="btn btn--primary btn--large" data-testid="finder-like-all">
                                        <HeartIcon/> " " {use_i18n().t("finder.like_all")}
                                    </button>
                                </div>
                            </ActionForm>
                        }.into_any()
                    }
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    })
}

#[component]
pub fn MatchFinderPage() -> impl IntoView {
    view! { <Finder mode=Mode::Finder/> }
}

#[component]
pub fn SignupMatchesPage() -> impl IntoView {
    view! { <Finder mode=Mode::Signup/> }
}
