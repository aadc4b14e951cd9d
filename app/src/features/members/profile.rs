//! `/members/{id}`: a member's profile: photos with a viewer, facts the site shows, interests, about, block or
//! unblock, and related profiles. Hidden, blocked and unknown profiles answer 404.

use crate::features::likes::server_fns::{LikeErrors, LikeForm};
use crate::features::members::server_fns::{Block, Unblock};
use crate::ui::forms::ActionError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::context::use_page_ctx;
use crate::features::likes::match_dialog::MatchDialog;
use crate::features::members::card::{MemberCardView, Portrait};
use crate::features::members::server_fns::{member_profile, ProfilePage};
use crate::i18n::use_i18n;
use crate::ui::icons::{HeartIcon, LockIcon};
use domain::photo::{photo_url, GalleryPhoto};

/// The main portrait, a strip of the other photos and a lightbox per open photo. The lightbox
/// is CSS `:target` with plain links: it works before and without JavaScript.
#[component]
fn Gallery(name: String, main: Option<String>, photos: Vec<GalleryPhoto>, login_to: Option<String>) -> impl IntoView {
    let i18n = use_i18n();
    let open: Vec<i64> = photos.iter().filter(|p| !p.locked).map(|p| p.id).collect();
    let main_id = photos.first().filter(|p| !p.locked && main.as_deref() == Some(format!("photos/{}", p.id).as_str())).map(|p| p.id);
    let portrait = view! { <Portrait name=name.clone() src=main.clone() class="member-profile__img"/> };
    let locked_href = login_to.clone().unwrap_or_else(|| "/premium".to_string());
    let locked_text = if login_to.is_some() { i18n.t("photos.locked_login") } else { i18n.t("photos.locked_premium") };
    let boxes = open
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let prev = (i > 0).then(|| open[i - 1]);
            let next = open.get(i + 1).copied();
            let i18n = use_i18n();
            view! {
                <div class="lightbox" id=format!("photo-{id}") role="dialog" aria-label=i18n.tf("photos.of", &[("name", &name)])>
                    <a class="lightbox__backdrop" href="#gallery" aria-label=i18n.t("auth.close")></a>
                    <img class="lightbox__img" src=photo_url(*id, false) alt=i18n.tf("photos.of", &[("name", &name)]) loading="lazy" decoding="async"/>
                    {prev.map(|p| view! { <a class="lightbox__nav lightbox__nav--prev" href=format!("#photo-{p}") aria-label=use_i18n().t("photos.previous")>"‹"</a> })}
                    {next.map(|n| view! { <a class="lightbox__nav lightbox__nav--next" href=format!("#photo-{n}") aria-label=use_i18n().t("photos.next")>"›"</a> })}
                    <a class="lightbox__close" href="#gallery" aria-label=i18n.t("auth.close")>"×"</a>
                </div>
            }
        })
        .collect_view();
    view! {
        <div class="member-profile__gallery" id="gallery">
            <div class="member-profile__photo">
                {match main_id {
                    Some(id) => view! { <a href=format!("#photo-{id}") class="member-profile__photo-link" aria-label=i18n.tf("photos.of", &[("name", &name)])>{portrait}</a> }.into_any(),
                    None => portrait.into_any(),
                }}
            </div>
            {(photos.len() > 1 || photos.iter().any(|p| p.locked)).then(|| view! {
                <ul class="gallery-strip" data-testid="gallery">
                    {photos.iter().enumerate().map(|(i, p)| {
                        if p.locked {
                            view! {
                                <li><a class="gallery-strip__item gallery-strip__item--locked" href=locked_href.clone() data-testid="locked-photo">
                                    <LockIcon/><span>{locked_text.clone()}</span>
                                </a></li>
                            }.into_any()
                        } else {
                            view! {
                                <li><a class="gallery-strip__item" href=format!("#photo-{}", p.id) data-testid="open-photo" aria-label=format!("{} ({})", use_i18n().tf("photos.of", &[("name", &name)]), i + 1)>
                                    <img src=photo_url(p.id, true) alt="" loading="lazy" decoding="async"/>
                                </a></li>
                            }.into_any()
                        }
                    }).collect_view()}
                </ul>
            })}
            {boxes}
        </div>
    }
}

#[component]
fn ProfileBody(page: ProfilePage) -> impl IntoView {
    let i18n = use_i18n();
    let ctx = use_page_ctx();
    let p = page.profile.clone();
    let query = use_query_map().get_untracked();
    let notice = if query.get("liked").is_some() {
        Some(i18n.tf("likes.liked_notice", &[("name", &p.name)]))
    } else if query.get("welcome").is_some() {
        Some(i18n.tf("members.welcome_profile", &[("site", &ctx.site.name), ("name", &p.name)]))
    } else if query.get("blocked").is_some() {
        Some(i18n.tf("members.blocked_notice", &[("name", &p.name)]))
    } else if query.get("unblocked").is_some() {
        Some(i18n.tf("members.unblocked_notice", &[("name", &p.name)]))
    } else {
        None
    };
    let place = p.place();
    let facts: Vec<(String, String)> = [("gender", p.gender.clone()), ("sexuality", p.sexuality.clone())]
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .filter(|(f, _)| *f != "gender" || ctx.site_shows("gender"))
        .map(|(f, v)| (i18n.t(&format!("profile.{f}")), i18n.t(&format!("profile.{f}.{v}"))))
        .chain(p.attributes.iter().map(|(f, v)| (i18n.t(&format!("profile.{f}")), i18n.t(&format!("profile.{f}.{v}")))))
        .collect();
    let member = ctx.member.is_some();
    view! {
        <Title text=format!("{}, {}", p.name, p.age)/>
        {notice.map(|text| view! { <p class="notice notice--ok" role="status" data-testid="saved">{text}</p> })}
        {(query.get("match").is_some() && page.likes == Some((true, true))).then(|| view! { <MatchDialog name=p.name.clone() photo=p.photo.clone() close_href=crate::paths::member(p.id)/> })}
        <article class="member-profile" data-testid="member-profile">
            <Gallery name=p.name.clone() main=p.photo.clone() photos=page.photos.clone() login_to=(!member).then(|| crate::paths::login_then(&crate::paths::member(p.id)))/>
            <div class="member-profile__main">
                <h1 class="member-profile__name">
                    <span>{p.name.clone()}<span class="member-profile__age">", " {p.age}</span></span>
                    {p.fictional.then(|| view! { <span class="member-profile__fictional" title=ctx.site.fictional_singular.clone()><HeartIcon/></span> })}
                </h1>
                {p.age_verified.then(|| view! { <p class="member-profile__verified"><span class="badge badge--verified" data-testid="age-verified">{use_i18n().t("age.badge")}</span></p> })}
                <p class="member-profile__place">{place}</p>
                {(p.fictional && ctx.site.fictional_warning).then(|| view! {
                    <p class="notice member-profile__warning" data-testid="fictional-warning">{i18n.tf("members.fictional_warning", &[("label", &ctx.site.fictional_singular)])}</p>
                })}
                {p.is_me.then(|| view! { <p class="notice">{use_i18n().t("members.own_profile")}</p> })}
                {p.about.clone().filter(|a| !a.is_empty()).map(|about| view! {
                    <section class="member-profile__section">
                        <h2>{use_i18n().tf("members.about", &[("name", &p.name)])}</h2>
                        <p>{about}</p>
                    </section>
                })}
                {(!facts.is_empty()).then(|| view! {
                    <section class="member-profile__section">
                        <h2>{use_i18n().t("members.details")}</h2>
                        <dl class="facts">
                            {facts.into_iter().map(|(k, v)| view! { <div><dt>{k}</dt><dd>{v}</dd></div> }).collect_view()}
                        </dl>
                    </section>
                })}
                {(!p.interests.is_empty()).then(|| {
                    let i18n = use_i18n();
                    view! {
                        <section class="member-profile__section">
                            <h2>{i18n.t("members.interests")}</h2>
                            <ul class="interest-list">
                                {p.interests.iter().map(|(code, icon)| view! { <li><span aria-hidden="true">{icon.clone()}</span>" " {i18n.t(&format!("profile.interest.{code}"))}</li> }).collect_view()}
                            </ul>
                        </section>
                    }
                })}
                {page.likes.filter(|_| !p.blocked_by_me).map(|(i_liked, they_liked)| view! { <LikeActions id=p.id name=p.name.clone() i_liked=i_liked they_liked=they_liked/> })}
                {(member && !p.is_me && !p.blocked_by_me).then(|| view! {
                    <div class="member-profile__actions">
                        <a class="btn btn--primary member-profile__message" href=crate::paths::member_chat(p.id) data-testid="send-message">
                            <crate::ui::icons::ChatIcon/> {use_i18n().tf("chat.message_to", &[("name", &p.name)])}
                        </a>
                        <a class="btn btn--ghost member-profile__gift" href=crate::paths::member_gift(p.id) data-testid="send-gift">
                            <crate::ui::icons::GiftIcon/> {use_i18n().t("chat.gift")}
                        </a>
                    </div>
                })}
                {(!member).then(|| view! { <VisitorActions id=p.id name=p.name.clone()/> })}
                {(member && !p.is_me).then(|| {

                    let form = if p.blocked_by_me {
                        view! {
                            <ActionForm action={ServerAction::<Unblock>::new()}>
                                <input type="hidden" name="id" value=p.id.to_string()/>
                                <button type="submit" class="btn btn--ghost" data-testid="block-toggle">{use_i18n().t("members.unblock")}</button>
                            </ActionForm>
                        }
                        .into_any()
                    } else {
                        view! {
                            <ActionForm action={ServerAction::<Block>::new()}>
                                <input type="hidden" name="id" value=p.id.to_string()/>
                                <button type="submit" class="btn btn--ghost btn--danger-ghost" data-testid="block-toggle">{use_i18n().t("members.block")}</button>
                            </ActionForm>
                        }
                        .into_any()
                    };
                    view! {
                        <section class="member-profile__section member-profile__block">
                            {(!p.blocked_by_me).then(|| view! { <p class="muted">{use_i18n().t("members.block_body")}</p> })}
                            {form}
                        </section>
                    }
                })}
                {(!p.is_me).then(|| view! {
                    <p class="member-profile__report"><a href=crate::paths::complaint_about_member(p.id) data-testid="report-member">{use_i18n().t("members.report")}</a></p>
                })}
            </div>
        </article>
        {(!page.related.is_empty()).then(|| view! {
            <section class="similar" aria-labelledby="related-title">
                <h2 id="related-title">{use_i18n().tf("members.related", &[("name", &page.profile.name)])}</h2>
                <ul class="member-grid member-grid--small">
                    {page.related.into_iter().map(|card| view! { <MemberCardView card=card/> }).collect_view()}
                </ul>
            </section>
        })}
    }
}

/// What a member can do here, for a visitor: each opens the signup with this profile
/// remembered (the modal on a wide screen, the page on a phone; tracking parameters kept), and
/// the new member comes back to it.
#[component]
fn VisitorActions(id: i64, name: String) -> impl IntoView {
    let i18n = use_i18n();
    // Each action signs up first and is done (the like) or ready (the chat) on coming back.
    let signup = |then| crate::features::account::signup::with_tracking(&crate::paths::member_signup_then(id, then));
    use domain::lander::EntryAction;
    view! {
        <section class="member-profile__section visitor-actions" data-testid="visitor-actions">
            <a class="btn btn--primary member-profile__message" href=signup(EntryAction::Message) data-signup-link="" data-testid="visitor-message">
                <crate::ui::icons::ChatIcon/> {i18n.tf("chat.message_to", &[("name", &name)])}
            </a>
            <div class="visitor-actions__more">
                <a class="btn btn--ghost" href=signup(EntryAction::Like) data-signup-link="" data-testid="visitor-like"><HeartIcon/> {i18n.t("likes.like")}</a>
                <a class="btn btn--ghost" href=signup(EntryAction::Gift) data-signup-link="" data-testid="visitor-gift"><crate::ui::icons::GiftIcon/> {i18n.t("chat.gift")}</a>
            </div>
            <p class="muted visitor-actions__free">{i18n.t("landing.free")}</p>
        </section>
    }
}

/// Like or unlike, with what the other member did; a mutual like shows the match dialog.
#[component]
fn LikeActions(id: i64, name: String, i_liked: bool, they_liked: bool) -> impl IntoView {
    let i18n = use_i18n();
    let (label, class) = if i_liked { (i18n.t("likes.unlike"), "btn btn--ghost") } else { (i18n.t("likes.like"), "btn btn--primary") };
    let status = match (i_liked, they_liked) {
        (true, true) => Some(i18n.tf("likes.is_match", &[("name", &name)])),
        (true, false) => Some(i18n.tf("likes.you_liked", &[("name", &name)])),
        (false, true) => Some(i18n.tf("likes.liked_you", &[("name", &name)])),
        (false, false) => None,
    };
    view! {
        <section class="member-profile__section like-actions" data-testid="like-actions">
            {status.map(|text| view! { <p class="like-actions__status" data-testid="like-status"><HeartIcon/> {text}</p> })}
            <LikeForm id=id liked=i_liked source="profile" return_to=crate::paths::member(id)>
                <button type="submit" class=class data-testid="like-toggle"><HeartIcon/> {label}</button>
            </LikeForm>
        </section>
    }
}

/// A hidden, blocked or unknown profile: the 404 status and a notice.
pub(crate) fn profile_not_found() -> AnyView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::NOT_FOUND);
    }
    view! { <p class="notice" data-testid="profile-not-found">{use_i18n().t("members.not_found")}</p> }.into_any()
}

#[component]
pub fn MemberProfilePage() -> impl IntoView {
    let id: i64 = use_params_map().get_untracked().get("id").and_then(|v| v.parse().ok()).unwrap_or(0);
    // Blocking: the status (404 for hidden profiles) must be known before the headers go out.
    let data = Resource::new_blocking(move || id, member_profile);
    view! {
        <div class="container page">
            <p class="back-link"><a href="/members">"← " {use_i18n().t("members.back_to_search")}</a></p>
            // A refused like or block shows here, also when the profile is hidden now.
            <LikeErrors/>
            <ActionError action={ServerAction::<Block>::new()}/>
            <ActionError action={ServerAction::<Unblock>::new()}/>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| match result {
                    Ok(Some(page)) => view! { <ProfileBody page=page/> }.into_any(),
                    Ok(None) => profile_not_found(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    }
}
