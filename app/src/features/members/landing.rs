//! A visitor's way in through one profile: `/members/{id}/landing` shows the member and leads
//! to `/members/{id}/signup`, the signup form with that member remembered; after signup the new
//! member lands on that profile. Members who are logged in go straight to the profile.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::context::use_page_ctx;
use crate::features::account::signup::SignupPage;
use crate::features::members::card::{MemberCardView, Portrait};
use crate::features::members::profile::profile_not_found;
use crate::features::members::server_fns::{member_profile, ProfilePage};
use crate::i18n::use_i18n;

fn route_id() -> i64 {
    use_params_map().get_untracked().get("id").and_then(|v| v.parse().ok()).unwrap_or(0)
}

#[component]
fn Landing(page: ProfilePage) -> impl IntoView {
    let i18n = use_i18n();
    let ctx = use_page_ctx();
    let p = page.profile.clone();
    let place = p.place();
    view! {
        <Title text=i18n.tf("landing.title", &[("name", &p.name), ("site", &ctx.site.name)])/>
        <article class="landing-profile" data-testid="landing-profile">
            <div class="landing-profile__photo">
                <Portrait name=p.name.clone() src=p.photo.clone() class="member-profile__img"/>
            </div>
            <div class="landing-profile__main">
                <p class="landing-profile__kicker">{i18n.tf("landing.kicker", &[("site", &ctx.site.name)])}</p>
                <h1 class="member-profile__name"><span>{p.name.clone()}<span class="member-profile__age">", " {p.age}</span></span></h1>
                <p class="member-profile__place">{place}</p>
                {p.about.clone().filter(|a| !a.is_empty()).map(|about| view! { <blockquote class="landing-profile__about">{about}</blockquote> })}
                {(!p.interests.is_empty()).then(|| {
                    let i18n = use_i18n();
                    view! {
                        <ul class="interest-list">
                            {p.interests.iter().take(6).map(|(code, icon)| view! { <li><span aria-hidden="true">{icon.clone()}</span>" " {i18n.t(&format!("profile.interest.{code}"))}</li> }).collect_view()}
                        </ul>
                    }
                })}
                <a class="btn btn--primary btn--large btn--block" href=crate::paths::member_signup(p.id) data-signup-cta="" data-testid="landing-signup">
                    {i18n.tf("landing.cta", &[("name", &p.name)])}
                </a>
                <p class="landing-profile__login">{i18n.t("auth.have_account")} " " <a href=crate::paths::login_then(&crate::paths::member(p.id))>{i18n.t("auth.login_submit")}</a></p>
                <p class="muted landing-profile__free">{i18n.t("landing.free")}</p>
            </div>
        </article>
        {(!page.related.is_empty()).then(|| view! {
            <section class="similar" aria-labelledby="landing-more">
                <h2 id="landing-more">{use_i18n().t("landing.more")}</h2>
                <ul class="member-grid member-grid--small">
                    {page.related.into_iter().map(|card| view! { <MemberCardView card=card/> }).collect_view()}
                </ul>
            </section>
        })}
    }
    .into_any()
}

#[component]
pub fn MemberLandingPage() -> impl IntoView {
    let id = route_id();
    if crate::features::landers::members_go_in(crate::paths::member(id)) {
        return None;
    }
    let data = Resource::new_blocking(move || id, member_profile);
    Some(view! {
        <div class="container page">
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| match result {
                    Ok(Some(page)) => view! { <Landing page=page/> }.into_any(),
                    Ok(None) => profile_not_found(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    })
}

/// The teaser above the signup form.
#[component]
fn SignupTeaser(page: ProfilePage) -> impl IntoView {
    let i18n = use_i18n();
    let p = page.profile.clone();
    view! {
        <div class="signup-teaser" data-testid="signup-teaser">
            <Portrait name=p.name.clone() src=p.photo.clone() class="signup-teaser__photo"/>
            <p>{i18n.tf("landing.signup_intro", &[("name", &p.name)])}</p>
        </div>
    }
}

#[component]
pub fn MemberSignupPage() -> impl IntoView {
    let id = route_id();
    if crate::features::landers::members_go_in(crate::paths::member(id)) {
        return None;
    }
    let data = Resource::new_blocking(move || id, member_profile);
    // The form shows whatever happens; the teaser only while the profile is visible.
    Some(view! {
        <crate::features::account::invitation::InviteGate>
            <SignupPage profile=id>
                <Suspense fallback=|| ()>
                    {move || data.get().map(|result| match result {
                        Ok(Some(page)) => Some(view! { <SignupTeaser page=page/> }),
                        _ => None,
                    })}
                </Suspense>
            </SignupPage>
        </crate::features::account::invitation::InviteGate>
    })
}
