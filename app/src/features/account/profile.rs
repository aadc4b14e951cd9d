//! `/profile` (account menu → My profile): how others see the member, with editors for the
//! basics, the details (choice fields, interests, about text) and the photos.

use domain::account::Ymd;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::context::use_page_ctx;
use crate::features::account::basics::BasicsForm;
use crate::features::account::photos::PhotoManager;
use crate::features::account::server_fns::{get_my_basics, get_my_photos, MyBasics, SaveDetails};
use crate::i18n::use_i18n;
use crate::ui::forms::{ActionError, TextArea};

#[component]
fn ProfileCard(basics: MyBasics) -> impl IntoView {
    let i18n = use_i18n();
    let ctx = use_page_ctx();
    let age = Ymd::parse(&basics.date_of_birth).map(|dob| dob.age_on(Ymd::from_unix(ctx.now)));
    let initial = crate::ui::initial(&basics.name);
    let gender = (!basics.gender.is_empty()).then(|| i18n.t(&format!("profile.gender.{}", basics.gender)));
    let sexuality = (!basics.sexuality.is_empty()).then(|| i18n.t(&format!("profile.sexuality.{}", basics.sexuality)));
    let mut parts: Vec<String> = [basics.city.clone(), basics.region_name.clone()].into_iter().filter(|s| !s.is_empty()).collect();
    parts.dedup();
    let place = parts.join(", ");
    let not_set = i18n.t("profile.not_set");
    view! {
        <section class="profile-card" data-testid="profile-card">
            {match ctx.member.as_ref().and_then(|m| m.main_photo) {
                Some(id) => view! { <img class="profile-card__avatar profile-card__avatar--photo" src=domain::photo::photo_url(id, true) alt="" data-testid="profile-main-photo"/> }.into_any(),
                None => view! { <a class="profile-card__avatar" href="#photos" aria-label=i18n.t("alert.profile_photo_add")>{initial}</a> }.into_any(),
            }}
            <div class="profile-card__main">
                <h1 class="profile-card__name">
                    {basics.name.clone()}
                    {age.map(|a| view! { <span class="profile-card__age">", " {i18n.tf("profile.age", &[("age", &a.to_string())])}</span> })}
                </h1>
                <p class="profile-card__place" data-testid="profile-place">{if place.is_empty() { not_set.clone() } else { place }}</p>
                <ul class="profile-card__facts">
                    <li>{gender.unwrap_or_else(|| not_set.clone())}</li>
                    <li>{sexuality.unwrap_or(not_set)}</li>
                </ul>
            </div>
        </section>
    }
}

#[component]
pub fn ProfilePage() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    crate::features::account::member_or_login("/profile")?;
    let query = use_query_map().get_untracked();
    let saved = query.get("saved").map(|what| match what.as_str() {
        "welcome" => i18n.tf("complete.welcome", &[("site", &ctx.site.name)]),
        _ => i18n.t("profile.saved"),
    });
    // A refused editor opens again with its error.
    let refused = query.get("__path").unwrap_or_default();
    let (editing_basics, editing_details) = (refused.ends_with("/save_basics"), refused.ends_with("/save_details"));
    // Blocking: the page arrives whole, so it works without JavaScript.
    let basics = Resource::new_blocking(|| (), |_| get_my_basics());
    let photos = Resource::new_blocking(|| (), |_| get_my_photos());
    Some(view! {
        <Title text=i18n.t("profile.title")/>
        <div class="container container--narrow page">
            {saved.map(|text| view! { <p class="notice notice--ok" role="status" data-testid="saved">{text}</p> })}
            <Suspense fallback=|| ()>
                {move || basics.get().map(move |result| match result {
                    Ok(b) => {
                        let i18n = use_i18n();
                        view! {
                            <ProfileCard basics=b.clone()/>
                            <Suspense fallback=|| ()>
                                {move || photos.get().map(|r| r.ok().map(|p| view! { <PhotoManager photos=p/> }))}
                            </Suspense>
                            <details class="panel panel--collapsible" open=editing_basics data-testid="edit-basics">
                                <summary><h2>{i18n.t("profile.basics_title")}</h2><span class="btn btn--ghost btn--small">{i18n.t("profile.edit")}</span></summary>
                                <BasicsForm basics=b.clone() from="profile" submit=i18n.t("settings.save")/>
                            </details>
                            <TextReviewNotice status=b.text_status reason=b.text_reason/>
                            <details class="panel panel--collapsible" id="details" open=editing_details || b.text_status == Some(domain::moderation::TextStatus::Rejected) data-testid="edit-details">
                                <summary><h2>{i18n.t("profile.details_title")}</h2><span class="btn btn--ghost btn--small">{i18n.t("profile.edit")}</span></summary>
                                <DetailsEditor details=b.details.clone()/>
                            </details>
                            <p class="muted"><a href="/settings">{i18n.t("profile.settings_link")}</a></p>
                        }
                        .into_any()
                    }
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    })
}

/// The editor for the choice fields, interests and the about text.
/// Where the member's profile text stands: waiting for review, or turned down and why (the
/// editor below then opens with the text to change).
#[component]
fn TextReviewNotice(status: Option<domain::moderation::TextStatus>, reason: Option<domain::moderation::Reason>) -> impl IntoView {
    use domain::moderation::TextStatus;
    let i18n = use_i18n();
    match status? {
        TextStatus::Waiting => Some(view! { <p class="notice" role="status" data-testid="text-waiting">{i18n.t("profile.about_waiting")}</p> }.into_any()),
        TextStatus::Rejected => {
            let reason = reason.map(|r| i18n.t(&format!("moderation.reason.{}", r.as_str()))).unwrap_or_default();
            Some(view! { <p class="notice notice--error" role="alert" data-testid="text-rejected">{i18n.tf("profile.about_rejected", &[("reason", &reason)])}</p> }.into_any())
        }
    }
}

#[component]
fn DetailsEditor(details: domain::profile::DetailsForm) -> impl IntoView {
    use domain::profile::{Attribute, ABOUT_MAX_CHARS, INTERESTS, MAX_INTERESTS};
    let selects = Attribute::ALL
        .into_iter()
        .map(|a| {
            let current = details.attributes.iter().find(|(f, _)| f == a.field()).map(|(_, v)| v.clone()).unwrap_or_default();
            let i18n = use_i18n();
            view! {
                <label class="field">
                    <span class="field__label">{i18n.t(&format!("profile.{}", a.field()))}</span>
                    <select name=format!("attributes[{}]", a.field())>
                        <option value="">{i18n.t("profile.choose")}</option>
                        {a.choices().iter().map(|c| view! { <option value=*c selected=current == *c>{i18n.t(&format!("profile.{}.{c}", a.field()))}</option> }).collect_view()}
                    </select>
                </label>
            }
        })
        .collect_view();
    let chips = INTERESTS
        .iter()
        .map(|(code, icon)| {
            let checked = details.interests.iter().any(|i| i == code);
            view! {
                <label class="chip chip--small">
                    <input type="checkbox" name=format!("interests[{code}]") value="on" checked=checked/>
                    <span><span aria-hidden="true">{*icon}</span>" " {use_i18n().t(&format!("profile.interest.{code}"))}</span>
                </label>
            }
        })
        .collect_view();
    let action = ServerAction::<SaveDetails>::new();
    view! {
        <ActionError action=action/>
        <ActionForm action=action attr:class="form" attr:data-testid="details-form">
            <div class="form__row">{selects}</div>
            <fieldset class="field field--chips">
                <legend class="field__label">{use_i18n().t("members.interests")}</legend>
                <p class="field__hint">{use_i18n().tf("profile.interests_hint", &[("max", &MAX_INTERESTS.to_string())])}</p>
                <div class="chips">{chips}</div>
            </fieldset>
            <label class="field">
                <span class="field__label">{use_i18n().t("profile.about_text")}</span>
                <TextArea value=details.about.clone() attr:name="about" attr:rows="4" attr:maxlength=ABOUT_MAX_CHARS.to_string()/>
                <span class="field__hint">{use_i18n().t("profile.about_hint")}</span>
            </label>

            <button type="submit" class="btn btn--primary">{use_i18n().t("settings.save")}</button>
        </ActionForm>
    }
}
