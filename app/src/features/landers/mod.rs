//! Landing pages (SPEC §2): `/landers/{design}/{slug?}`, `/landers/tinderswipe` and
//! `/members/{id}/landing2|3/{slug?}` (one profile up front). Each design is a React widget
//! (`react-widgets/src/widgets/Landers`) in the lander layout. The server renders the design in
//! its first state (`designs`): the whole page without JavaScript, and the very boxes the widget
//! draws, so nothing moves when it mounts. The widget only mounts where it has something to do
//! (the swipe stack, the like popup of `?t=N`); the other designs stay as the server sent them
//! and load no React (a few lines of script start the video landers' clip). A slug with another niche's prefix is sent on to this site's
//! (`Niche::canonical_slug`).

mod designs;

use domain::lander::Design;
use domain::widgets::{LanderClip, LanderLabels, LanderProfile, LanderProps};
use leptos::prelude::*;
use leptos_meta::{Meta, Title};
use leptos_router::hooks::{use_location, use_params_map, use_query_map};
use serde::{Deserialize, Serialize};

use crate::context::use_page_ctx;
use crate::features::site::error_page::NotFoundPage;
use crate::i18n::{use_i18n, I18n};
use crate::widgets::ReactWidget;

/// What a lander shows: members of the site (the visitor's country first), the featured member
/// of a profile lander, the clip and how many members are online.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LanderData {
    pub profiles: Vec<LanderProfile>,
    pub featured: Option<LanderProfile>,
    pub clip: Option<LanderClip>,
    pub online_count: u32,
}

/// `None` when the featured member is not to be found.
#[server(prefix = "/api/fn", endpoint = "lander_page", input = leptos::server_fn::codec::GetUrl)]
pub async fn lander_page(design: String, member: Option<i64>) -> Result<Option<LanderData>, domain::ApiError> {
    use crate::call::{call, fail};
    use domain::search::SearchFilters;
    let c = call().await?;
    let (state, site) = (&c.state, &c.site);
    let design = Design::from_route(&design).ok_or_else(|| domain::ApiError::new(domain::ErrorCode::NotFound))?;
    let now = c.now();
    let today = domain::account::Ymd::from_unix(now);
    let settings = &site.settings;
    let featured = match member {
        Some(id) => match state.members.profile(settings, None, id, today).await.map_err(fail)? {
            Some(p) => Some(p),
            None => return Ok(None),
        },
        None => None,
    };
    // Who the niche is about: men on the gay niche, women elsewhere; the visitor's country first.
    let gender = if settings.niche.lander_prefix() == Some("gay") { domain::profile::Gender::Male } else { domain::profile::Gender::Female };
    let country = Some(c.country()).filter(|c| settings.countries.contains(c));
    let mut filters = SearchFilters { gender: Some(gender), country, region: None, min_age: settings.min_age, max_age: domain::search::MAX_AGE, page: 1 };
    let mut found = state.members.search(settings, None, &filters, today).await.map_err(fail)?;
    if found.results.len() < 4 && filters.country.is_some() {
        filters.country = None;
        found = state.members.search(settings, None, &filters, today).await.map_err(fail)?;
    }
    // Members with a photo first (a lander sells faces); the search's order otherwise.
    let mut cards: Vec<&domain::search::MemberCard> = found.results.iter().chain(found.similar.iter()).filter(|c| Some(c.id) != member).collect();
    cards.sort_by_key(|c| c.thumb.is_none());
    cards.truncate(12);
    let since = now - domain::lander::ONLINE_SECS;
    let mut ids: Vec<i64> = cards.iter().map(|c| c.id).collect();
    ids.extend(member);
    let details = state.landers.details(settings.id, &ids, since).await.map_err(fail)?;
    let online = |id: i64| details.get(&id).is_some_and(|d| d.online);
    let large = |id: i64| details.get(&id).and_then(|d| d.photo.as_ref()).map(|p| crate::paths::media(p));
    let online_count = state.landers.online_count(settings.id, since).await.map_err(fail)?;
    let media = |path: &Option<String>| path.as_ref().map(|p| crate::paths::media(p));
    let profiles = cards
        .iter()
        .map(|c| LanderProfile {
            id: c.id,
            name: c.name.clone(),
            age: c.age,
            place: c.place(),
            photo: media(&c.thumb),
            large: large(c.id).or_else(|| media(&c.thumb)),
            online: online(c.id),
            href: crate::paths::member_signup(c.id),
        })
        .collect();
    let featured = featured.map(|p| LanderProfile {
        id: p.id,
        name: p.name.clone(),
        age: p.age,
        place: p.place(),
        photo: media(&p.photo),
        large: media(&p.photo),
        online: online(p.id),
        href: crate::paths::member_signup(p.id),
    });
    let clip = (design.plays_clip() && state.config.data_dir.join("media").join(server::landers::CLIP_PATH).exists())
        .then(|| LanderClip { src: crate::paths::media(server::landers::CLIP_PATH), poster: Some(crate::paths::media(server::landers::CLIP_POSTER)) });
    Ok(Some(LanderData { profiles, featured, clip, online_count: online_count.clamp(0, u32::MAX as i64) as u32 }))
}

fn labels(i18n: &I18n, design: Design, featured: Option<&LanderProfile>) -> LanderLabels {
    let (headline, intro) = match featured {
        Some(p) => (i18n.tf("lander.profile.headline", &[("name", &p.name)]), i18n.tf("lander.profile.intro", &[("name", &p.name)])),
        None => (i18n.t(&format!("lander.{}.headline", design.route())), i18n.t(&format!("lander.{}.intro", design.route()))),
    };
    LanderLabels {
        headline,
        intro,
        cta: i18n.t("lander.cta"),
        have_account: i18n.t("auth.have_account"),
        login: i18n.t("auth.login_submit"),
        free: i18n.t("lander.free"),
        online: i18n.t("lander.online"),
        members_online: i18n.counted("lander.members_online"),
        nearby: i18n.t("lander.nearby"),
        live: i18n.t("lander.live"),
        live_now: i18n.t("lander.live_now"),
        watching: i18n.counted("lander.watching"),
        liked_you: i18n.t("likes.liked_you"),
        view_profile: i18n.t("swipe.view_profile"),
        close: i18n.t("auth.close"),
        point_discreet: i18n.t("lander.point_discreet"),
        point_discreet_body: i18n.t("lander.point_discreet_body"),
        point_match: i18n.t("lander.point_match"),
        point_match_body: i18n.t("lander.point_match_body"),
        point_chat: i18n.t("lander.point_chat"),
        point_chat_body: i18n.t("lander.point_chat_body"),
        react_like: i18n.t("swipe.like"),
        react_message: i18n.t("lander.react_message"),
        swipe_stack: i18n.t("swipe.stack"),
        swipe_like: i18n.t("swipe.like"),
        swipe_pass: i18n.t("swipe.pass"),
        swipe_done: i18n.t("lander.swipe_done"),
    }
}

/// Runs in the browser: mounts the design's widget (props arrive as one JSON text).
#[island(lazy)]
fn LanderHost(design: String, props: String) -> impl IntoView {
    let name = Design::from_route(&design).unwrap_or(Design::Gallery).widget();
    view! { <ReactWidget name=name props=Signal::stored(props) class="widget--lander"/> }
}

/// Visitors only: a member is sent into the site (to `to`); true when they were.
pub(crate) fn members_go_in(to: String) -> bool {
    if use_page_ctx().member.is_some() {
        #[cfg(feature = "ssr")]
        crate::call::redirect(&to);
        let _ = to;
        return true;
    }
    false
}

/// Sends a slug with the wrong niche prefix on to the right one, permanently, with the query.
fn redirect_to_canonical(base: &str, slug: &str) -> bool {
    let niche = domain::site::Niche::new(use_page_ctx().site.niche).or(domain::site::Niche::new(1)).expect("niche 1 exists");
    let canonical = niche.canonical_slug(slug);
    if canonical == slug {
        return false;
    }
    let query = use_location().search.get_untracked();
    let path = if canonical.is_empty() { base.to_string() } else { format!("{base}/{canonical}") };
    let to = if query.is_empty() { path } else { format!("{path}?{}", query.trim_start_matches('?')) };
    #[cfg(feature = "ssr")]
    {
        crate::call::redirect(&to);
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(http::StatusCode::MOVED_PERMANENTLY);
        }
    }
    let _ = to;
    true
}

fn lander(design: Design, member: Option<i64>) -> AnyView {
    let data = Resource::new_blocking(move || (design, member), |(design, member)| lander_page(design.route().to_string(), member));
    let like_after = use_query_map().get_untracked().get("t").and_then(|t| t.trim().parse::<u32>().ok()).map(|t| t.min(600));
    view! {
        <Suspense fallback=|| ()>
            {move || data.get().map(|result| match result {
                Ok(Some(d)) => {
                    let i18n = use_i18n();
                    let labels = labels(&i18n, design, d.featured.as_ref());
                    let props = LanderProps {
                        profiles: d.profiles,
                        featured: d.featured,
                        clip: d.clip,
                        online_count: d.online_count,
                        signup_href: "/signup".into(),
                        login_href: "/login".into(),
                        like_after,
                        labels,
                    };
                    // The widget mounts only where it adds something to the server's page.
                    let interactive = design == Design::TinderSwipe || props.like_after.is_some();
                    let clip = props.clip.is_some().then(|| view! { <script nonce=leptos::nonce::use_nonce() inner_html=designs::CLIP_SCRIPT></script> });
                    let json = interactive.then(|| serde_json::to_string(&props).unwrap_or_default());
                    view! {
                        <Title text=props.labels.headline.clone()/>
                        <Meta name="description" content=props.labels.intro.clone()/>
                        <div class="lander" data-design=design.route()>
                            <div class="widget--lander lander-fallback" data-testid="lander-fallback">{designs::design(design, &props)}</div>
                            {json.map(|json| view! { <LanderHost design=design.route().to_string() props=json/> })}
                        </div>
                        {clip}
                    }
                    .into_any()
                }
                Ok(None) => view! { <NotFoundPage/> }.into_any(),
                Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
            })}
        </Suspense>
    }
    .into_any()
}

/// `/landers/{design}` and `/landers/{design}/{slug}`.
#[component]
pub fn LanderPage() -> impl IntoView {
    let params = use_params_map().get_untracked();
    let design = params.get("design").and_then(|d| Design::from_route(&d));
    let slug = params.get("slug");
    if members_go_in("/members".into()) {
        return None;
    }
    let Some(design) = design else { return Some(view! { <NotFoundPage/> }.into_any()) };
    if let Some(slug) = slug {
        if !design.takes_slug() || !domain::lander::valid_slug(&slug) {
            return Some(view! { <NotFoundPage/> }.into_any());
        }
        if redirect_to_canonical(&crate::paths::lander(design.route()), &slug) {
            return None;
        }
    }
    Some(lander(shown_design().unwrap_or(design), None))
}

/// The design a split test shows this visitor instead (`server::splits`, chosen by the visit
/// middleware before the page is drawn).
fn shown_design() -> Option<Design> {
    #[cfg(feature = "ssr")]
    {
        use_context::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<server::splits::Shown>().cloned())
            .and_then(|shown| Design::from_route(&shown.design))
    }
    #[cfg(not(feature = "ssr"))]
    None
}

/// `/members/{id}/landing2|3` and with a slug: the member up front.
#[component]
pub fn ProfileLanderPage(kind: &'static str) -> impl IntoView {
    let params = use_params_map().get_untracked();
    let id: i64 = params.get("id").and_then(|v| v.parse().ok()).unwrap_or(0);
    let slug = params.get("slug");
    if members_go_in(crate::paths::member(id)) {
        return None;
    }
    let Some(design) = Design::for_profile_lander(kind) else { return Some(view! { <NotFoundPage/> }.into_any()) };
    if let Some(slug) = slug {
        if !domain::lander::valid_slug(&slug) {
            return Some(view! { <NotFoundPage/> }.into_any());
        }
        if redirect_to_canonical(&crate::paths::member_lander(id, kind), &slug) {
            return None;
        }
    }
    Some(lander(design, Some(id)))
}
