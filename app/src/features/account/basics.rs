//! `/complete-signup` (step 2 of signup: gender, sexuality and location) and the fields it
//! shares with the profile editor.

use domain::profile::{Gender, Sexuality};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::context::use_page_ctx;
use crate::features::account::location::{country_choices, LocationFields, LocationTexts};
use crate::features::account::server_fns::{get_my_basics, MyBasics, SaveBasics};
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

/// Values from a refused post win over the stored ones, so the form keeps what was typed.
fn with_kept_values(mut basics: MyBasics) -> MyBasics {
    let query = use_query_map().get_untracked();
    if query.get("__err").is_some() {
        let keep = |field: &mut String, key: &str| {
            if let Some(v) = query.get(key) {
                *field = v.chars().take(80).collect();
            }
        };
        keep(&mut basics.gender, "gender");
        keep(&mut basics.sexuality, "sexuality");
        keep(&mut basics.country, "country");
        keep(&mut basics.region, "region");
        keep(&mut basics.city, "city");
    }
    basics
}

/// Gender and sexuality as choice chips, then the location fields. `from` tells the server
/// function where to go on: `complete` or `profile`.
#[component]
pub fn BasicsForm(basics: MyBasics, from: &'static str, submit: String) -> impl IntoView {
    let action = ServerAction::<SaveBasics>::new();
    let i18n = use_i18n();
    let ctx = use_page_ctx();
    let basics = with_kept_values(basics);
    let mut country = basics.country.clone();
    if country.is_empty() && basics.countries.contains(&ctx.country) {
        // A sensible first guess: the visitor's country.
        country = ctx.country.clone();
    }
    let gender_chips = Gender::ALL
        .into_iter()
        .map(|g| {
            let checked = basics.gender == g.code();
            view! {
                <label class="chip">
                    <input type="radio" name="gender" value=g.code() required checked=checked/>
                    <span>{i18n.t(&format!("profile.gender.{}", g.code()))}</span>
                </label>
            }
        })
        .collect_view();
    let sexuality_chips = Sexuality::ALL
        .into_iter()
        .map(|s| {
            let checked = basics.sexuality == s.code();
            view! {
                <label class="chip">
                    <input type="radio" name="sexuality" value=s.code() required checked=checked/>
                    <span>{i18n.t(&format!("profile.sexuality.{}", s.code()))}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <ActionError action=action/>
        <ActionForm action=action attr:class="form" attr:data-testid="basics-form">
            <input type="hidden" name="from" value=from/>
            {entry_profile().map(|id| view! { <input type="hidden" name="profile" value=id.to_string()/> })}
            {entry_profile().and(entry_action()).map(|then| view! { <input type="hidden" name="then" value=then.as_ref().to_string()/> })}
            <fieldset class="field field--chips">
                <legend class="field__label">{use_i18n().t("profile.gender")}</legend>
                <div class="chips">{gender_chips}</div>
            </fieldset>
            <fieldset class="field field--chips">
                <legend class="field__label">{use_i18n().t("profile.sexuality")}</legend>
                <div class="chips">{sexuality_chips}</div>
            </fieldset>
            <LocationFields
                texts=LocationTexts::new(&i18n)
                countries=country_choices(&i18n, &basics.countries)
                regions=basics.regions.clone()
                country=country
                region=basics.region.clone()
                city=basics.city.clone()
            />
            <p class="field__hint">{use_i18n().t("location.privacy")}</p>
            <button type="submit" class="btn btn--primary btn--block btn--large">{submit}</button>
        </ActionForm>
    }
}

/// The profile a visitor signed up from (`/members/{id}/signup`), carried to the end of signup.
fn entry_profile() -> Option<i64> {
    leptos_router::hooks::use_query_map().get_untracked().get("profile").and_then(|v| v.parse().ok()).filter(|id: &i64| *id > 0)
}

/// What the visitor was about to do on that profile (`then`), carried along with it.
pub(crate) fn entry_action() -> Option<domain::lander::EntryAction> {
    leptos_router::hooks::use_query_map().get_untracked().get("then").as_deref().and_then(domain::lander::EntryAction::parse)
}

#[component]
pub fn CompleteSignupPage() -> impl IntoView {
    let i18n = use_i18n();
    crate::features::account::member_or_login("/complete-signup")?;
    // Blocking: the form arrives with the page, so it works without JavaScript.
    let basics = Resource::new_blocking(|| (), |_| get_my_basics());
    let submit = i18n.t("complete.submit");
    Some(view! {
        <Title text=i18n.t("complete.title")/>
        <div class="auth-page">
            <div class="auth-card auth-card--wide">
                <p class="auth-card__step">{i18n.t("complete.step")}</p>
                <h1 class="auth-card__title">{i18n.t("complete.title")}</h1>
                <p class="auth-card__intro">{i18n.t("complete.intro")}</p>
                <Suspense fallback=|| ()>
                    {move || {
                        let submit = submit.clone();
                        basics.get().map(move |result| match result {
                            Ok(b) => view! { <BasicsForm basics=b from="complete" submit=submit/> }.into_any(),
                            Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                        })
                    }}
                </Suspense>
            </div>
        </div>
    })
}
