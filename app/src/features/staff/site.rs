//! `/staff/site` (the site's texts, credit prices, countries, colours and gifts) and
//! `/staff/pricing` (credit bundles and discount codes). Each form is its own server function;
//! the rules are `domain::staff`'s, the input limits on the page come from the same constants.
//! Every change lands in the staff log with its old and new values, and this node reloads the
//! settings at once (other nodes follow on PostgreSQL's announcement or their refresh).

use std::collections::BTreeMap;

use domain::staff as rules;
use domain::staff::SettingsForm;
use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, fail_back, redirect, staff_call};

use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::use_i18n;
use crate::ui::forms::{ActionError, TextArea};

/// The settings as the forms show them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteSettingsView {
    pub domain: String,
    pub texts: rules::SiteTexts,
    pub credits: rules::CreditSettings,
    pub delivery: rules::DeliverySettings,
    pub lifecycle: rules::LifecycleSettings,
    pub attribution: rules::AttributionSettings,
    pub age: rules::AgeSettings,
    pub fraud: rules::FraudSettings,
    pub chat_photos: rules::ChatPhotoSettings,
    /// An age-check provider is configured (without one, checks cannot be asked for).
    pub age_checks_available: bool,
    pub countries: rules::CountrySettings,
    pub theme: domain::site::Theme,
    /// Every gift with whether it is on offer.
    pub gifts: Vec<(domain::chat::Gift, bool)>,
    pub contact_rules: domain::contact::ContactPolicy,
    pub spam_rules: domain::spam::SpamRules,
    pub rules: rules::SiteRules,
    pub message_costs: Vec<domain::site::MessageCost>,
    pub company: rules::CompanyDetails,
    /// The other sites of the same company (their domains).
    pub company_shared: Vec<String>,
    pub logo: Option<domain::site::Logo>,
}

#[server(prefix = "/api/fn", endpoint = "staff_site", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_site() -> Result<SiteSettingsView, ApiError> {
    let (c, member) = staff_call(StaffArea::Site).await?;
    let s = &c.site.settings;
    let offered = s.offered_gifts();
    Ok(SiteSettingsView {
        domain: s.domain.clone(),
        texts: s.into(),
        credits: s.into(),
        delivery: s.into(),
        lifecycle: s.into(),
        attribution: s.into(),
        age: s.into(),
        fraud: s.into(),
        chat_photos: s.into(),
        age_checks_available: c.state.age.available(),
        countries: s.into(),
        theme: s.theme.clone(),
        gifts: domain::chat::Gift::ALL.into_iter().map(|g| (g, offered.contains(&g))).collect(),
        contact_rules: s.contact_rules,
        spam_rules: s.spam_rules,
        rules: s.into(),
        message_costs: s.minimum_message_costs.clone(),
        company: (&c.site.company).into(),
        company_shared: c.state.staff.company_shared_with(&member, s.id).await.map_err(fail)?,
        logo: s.logo.clone(),
    })
}

/// Applies one settings form: refusals come back to the page with the error, success with `saved`.
#[cfg(feature = "ssr")]
pub(super) async fn apply<S: leptos::server_fn::ServerFn>(change: server::staff::SiteChange, anchor: &str) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Site).await?;
    if let Err(error) = c.state.staff.change_site(&member, c.site.settings.id, change, c.now()).await {
        return Err(fail_back::<S>(error, "/staff/site", &[]));
    }
    c.state.sites.reload().await.map_err(fail)?;
    redirect(&crate::paths::staff_site_saved(anchor));
    Ok(())
}

#[server(prefix = "/api/fn", endpoint = "staff_site_texts")]
pub async fn staff_site_texts(#[server(flatten)] texts: rules::SiteTexts) -> Result<(), ApiError> {
    apply::<StaffSiteTexts>(server::staff::SiteChange::Texts(texts), "texts").await
}

#[server(prefix = "/api/fn", endpoint = "staff_site_credits")]
pub async fn staff_site_credits(#[server(flatten)] credits: rules::CreditSettings) -> Result<(), ApiError> {
    apply::<StaffSiteCredits>(server::staff::SiteChange::Credits(credits), "credits").await
}

#[server(prefix = "/api/fn", endpoint = "staff_site_delivery")]
pub async fn staff_site_delivery(#[server(flatten)] delivery: rules::DeliverySettings) -> Result<(), ApiError> {
    apply::<StaffSiteDelivery>(server::staff::SiteChange::Delivery(delivery), "delivery").await
}

#[server(prefix = "/api/fn", endpoint = "staff_site_attribution")]
pub async fn staff_site_attribution(#[server(flatten)] attribution: rules::AttributionSettings) -> Result<(), ApiError> {
    apply::<StaffSiteAttribution>(server::staff::SiteChange::Attribution(attribution), "attribution").await
}

/// Where members must pass an age check first; refused while no provider can do the checks.
#[server(prefix = "/api/fn", endpoint = "staff_site_age")]
pub async fn staff_site_age(#[server(flatten)] age: rules::AgeSettings) -> Result<(), ApiError> {
    let (c, _) = staff_call(StaffArea::Site).await?;
    if let Err(error) = c.state.age.check_setting(&age) {
        return Err(fail_back::<StaffSiteAge>(error, "/staff/site", &[]));
    }
    apply::<StaffSiteAge>(server::staff::SiteChange::Age(age), "age").await
}

#[server(prefix = "/api/fn", endpoint = "staff_site_fraud")]
pub async fn staff_site_fraud(#[server(flatten)] fraud: rules::FraudSettings) -> Result<(), ApiError> {
    apply::<StaffSiteFraud>(server::staff::SiteChange::Fraud(fraud), "fraud").await
}

#[server(prefix = "/api/fn", endpoint = "staff_site_chat_photos")]
pub async fn staff_site_chat_photos(#[server(flatten)] chat_photos: rules::ChatPhotoSettings) -> Result<(), ApiError> {
    apply::<StaffSiteChatPhotos>(server::staff::SiteChange::ChatPhotos(chat_photos), "chat-photos").await
}

#[server(prefix = "/api/fn", endpoint = "staff_site_lifecycle")]
pub async fn staff_site_lifecycle(#[server(flatten)] lifecycle: rules::LifecycleSettings) -> Result<(), ApiError> {
    apply::<StaffSiteLifecycle>(server::staff::SiteChange::Lifecycle(lifecycle), "lifecycle").await
}

#[server(prefix = "/api/fn", endpoint = "staff_site_countries")]
pub async fn staff_site_countries(
    #[server(default)] countries: BTreeMap<String, String>,
    geoip_country: String,
    #[server(default)] geoip_selected_country: String,
    min_age: i64,
) -> Result<(), ApiError> {
    let settings =
        rules::CountrySettings { countries: countries.into_keys().collect(), geoip_country, geoip_selected_country: Some(geoip_selected_country), min_age };
    apply::<StaffSiteCountries>(server::staff::SiteChange::Countries(settings), "countries").await
}

#[server(prefix = "/api/fn", endpoint = "staff_site_theme")]
pub async fn staff_site_theme(primary: String, secondary: String, accent: String) -> Result<(), ApiError> {
    apply::<StaffSiteTheme>(server::staff::SiteChange::Theme(domain::site::Theme { primary, secondary, accent }), "theme").await
}

/// `gifts[rose]=on` for each gift on offer.
#[server(prefix = "/api/fn", endpoint = "staff_site_gifts")]
pub async fn staff_site_gifts(#[server(default)] gifts: BTreeMap<String, String>) -> Result<(), ApiError> {
    apply::<StaffSiteGifts>(server::staff::SiteChange::Gifts(gifts.into_keys().collect()), "gifts").await
}

#[component]
pub(super) fn Saved(anchor: &'static str) -> impl IntoView {
    let saved = use_query_map().get_untracked().get("saved").as_deref() == Some(anchor);
    saved.then(|| view! { <p class="notice notice--ok" role="status" data-testid="saved">{use_i18n().t("staff.site.saved")}</p> })
}

/// A labelled number input whose limits are the rule's.
#[component]
pub(crate) fn NumberField(range: rules::Range, value: i64, #[prop(optional)] name: Option<&'static str>) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field__label">{use_i18n().t(&format!("staff.setting.{}", range.setting))}</span>
            <input type="number" name=name.unwrap_or(range.setting) required min=range.min.to_string() max=range.max.to_string() step="1" value=value.to_string()/>
        </label>
    }
}

#[component]
pub(crate) fn TextField(
    setting: &'static str,
    value: String,
    #[prop(optional)] required: bool,
    #[prop(default = rules::LINE_MAX_CHARS)] max: usize,
    #[prop(optional)] kind: Option<&'static str>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field__label">{use_i18n().t(&format!("staff.setting.{setting}"))}</span>
            <input type=kind.unwrap_or("text") name=setting value=value required=required maxlength=max.to_string()/>
        </label>
    }
}

/// The inputs of a declared settings form ([`rules::SettingsForm`]), in its order, each labelled
/// `staff.setting.{name}` and limited by its rule.
#[component]
pub(crate) fn DeclaredFields(inputs: Vec<(&'static str, rules::Field, rules::Stored)>) -> impl IntoView {
    use rules::{Field, Stored};
    inputs
        .into_iter()
        .map(|(name, field, value)| {
            let text = || match &value {
                Stored::Text(t) => t.clone(),
                Stored::MaybeText(t) => t.clone().unwrap_or_default(),
                other => other.to_string(),
            };
            match field {
                Field::Int(range) | Field::Money(range) => {
                    let n = if let Stored::Int(n) = value { n } else { 0 };
                    view! { <NumberField range=range value=n/> }.into_any()
                }
                Field::Flag => view! {
                    <label class="check">
                        <input type="checkbox" name=name value="on" checked=value == Stored::Flag(true)/>
                        <span>{use_i18n().t(&format!("staff.setting.{name}"))}</span>
                    </label>
                }
                .into_any(),
                Field::Line { required, max } => view! { <TextField setting=name value=text() required=required max=max/> }.into_any(),
                Field::Email => view! { <TextField setting=name value=text() required=true kind="email"/> }.into_any(),
                Field::Phone => view! { <TextField setting=name value=text() required=true max=30 kind="tel"/> }.into_any(),
                Field::Origin => view! { <TextField setting=name value=text() max=200 kind="url"/> }.into_any(),
                Field::Countries => view! { <TextField setting=name value=text() max=200/> }.into_any(),
                Field::Text { max } => view! {
                    <label class="field">
                        <span class="field__label">{use_i18n().t(&format!("staff.setting.{name}"))}</span>
                        <TextArea value=text() attr:name=name attr:rows="3" attr:maxlength=max.to_string()/>
                    </label>
                }
                .into_any(),
            }
        })
        .collect_view()
}

pub(super) fn country_options(selected: &str, with_none: Option<String>) -> impl IntoView {
    let selected = selected.to_string();
    view! {
        {with_none.map(|label| view! { <option value="" selected=selected.is_empty()>{label}</option> })}
        {rules::COUNTRIES.iter().map(|c| view! { <option value=*c selected=selected == *c>{use_i18n().t(&format!("country.{c}"))}</option> }).collect_view()}
    }
}

#[component]
fn SettingsForms(v: SiteSettingsView) -> impl IntoView {
    let t = v.texts;
    let c = v.credits;
    let k = v.countries;
    let pinned = k.geoip_selected_country.clone().unwrap_or_default();
    let served = k.countries.clone();
    let language = v.rules.domain_language.clone();
    let name = t.name.clone();
    view! {
        <nav class="staff-toc" aria-label=use_i18n().t("staff.site.sections")>
            <ul>
                {[("texts", "staff.site.texts"), ("credits", "staff.site.credits"), ("countries", "staff.site.countries"), ("rules", "staff.site.rules"), ("costs", "staff.site.message_costs"), ("theme", "staff.site.theme"), ("logo", "staff.site.logo"), ("delivery", "staff.site.delivery"), ("lifecycle", "staff.site.lifecycle"), ("attribution", "staff.site.attribution"), ("age", "staff.site.age"), ("fraud", "staff.site.fraud"), ("chat-photos", "staff.site.chat_photos"), ("gifts", "staff.site.gifts"), ("contact", "staff.site.contact"), ("spam", "staff.site.spam"), ("company", "staff.site.company"), ("new-site", "staff.site.new_site")]
                    .into_iter()
                    .map(|(anchor, key)| view! { <li><a href=format!("#{anchor}")>{use_i18n().t(key)}</a></li> })
                    .collect_view()}
            </ul>
        </nav>
        <section class="card staff-settings" id="texts" aria-labelledby="texts-title">
            <h2 id="texts-title">{use_i18n().t("staff.site.texts")}</h2>
            <Saved anchor="texts"/>
            <ActionError action={ServerAction::<StaffSiteTexts>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteTexts>::new()} attr:class="form" attr:data-testid="form-texts">
                <DeclaredFields inputs=t.inputs()/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
        <section class="card staff-settings" id="credits" aria-labelledby="credits-title">
            <h2 id="credits-title">{use_i18n().t("staff.site.credits")}</h2>
            <Saved anchor="credits"/>
            <ActionError action={ServerAction::<StaffSiteCredits>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteCredits>::new()} attr:class="form staff-settings__grid" attr:data-testid="form-credits">
                <DeclaredFields inputs=c.inputs()/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
        <section class="card staff-settings" id="countries" aria-labelledby="countries-title">
            <h2 id="countries-title">{use_i18n().t("staff.site.countries")}</h2>
            <Saved anchor="countries"/>
            <ActionError action={ServerAction::<StaffSiteCountries>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteCountries>::new()} attr:class="form" attr:data-testid="form-countries">
                <fieldset class="staff-settings__checks">
                    <legend>{use_i18n().t("staff.setting.countries")}</legend>
                    {rules::COUNTRIES.iter().map(|code| {
                        let on = k.countries.iter().any(|x| x == code);
                        view! {
                            <label class="check">
                                <input type="checkbox" name=format!("countries[{code}]") value="on" checked=on/>
                                <span>{use_i18n().t(&format!("country.{code}"))}</span>
                            </label>
                        }
                    }).collect_view()}
                </fieldset>
                <label class="field">
                    <span class="field__label">{use_i18n().t("staff.setting.geoip_country")}</span>
                    <select name="geoip_country" required>{country_options(&k.geoip_country, None)}</select>
                </label>
                <label class="field">
                    <span class="field__label">{use_i18n().t("staff.setting.geoip_selected_country")}</span>
                    <select name="geoip_selected_country">{country_options(&pinned, Some(use_i18n().t("staff.site.pinned_none")))}</select>
                </label>
                <NumberField range=rules::MIN_AGE value=k.min_age/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
        <super::site_setup::RulesForm r=v.rules/>
        <super::site_setup::MessageCostsForm countries=served costs=v.message_costs/>
        <section class="card staff-settings" id="theme" aria-labelledby="theme-title">
            <h2 id="theme-title">{use_i18n().t("staff.site.theme")}</h2>
            <Saved anchor="theme"/>
            <ActionError action={ServerAction::<StaffSiteTheme>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteTheme>::new()} attr:class="form staff-settings__grid" attr:data-testid="form-theme">
                {[("primary", "theme_primary", v.theme.primary.clone()), ("secondary", "theme_secondary", v.theme.secondary.clone()), ("accent", "theme_accent", v.theme.accent.clone())]
                    .into_iter()
                    .map(|(name, setting, value)| view! {
                        <label class="field">
                            <span class="field__label">{use_i18n().t(&format!("staff.setting.{setting}"))}</span>
                            <input type="color" name=name value=value required/>
                        </label>
                    })
                    .collect_view()}
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
        <super::site_setup::LogoForm logo=v.logo name=name/>
        <section class="card staff-settings" id="delivery" aria-labelledby="delivery-title">
            <h2 id="delivery-title">{use_i18n().t("staff.site.delivery")}</h2>
            <p class="muted">{use_i18n().t("staff.site.delivery_intro")}</p>
            <Saved anchor="delivery"/>
            <ActionError action={ServerAction::<StaffSiteDelivery>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteDelivery>::new()} attr:class="form" attr:data-testid="form-delivery">
                <DeclaredFields inputs=v.delivery.inputs()/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
        <section class="card staff-settings" id="lifecycle" aria-labelledby="lifecycle-title">
            <h2 id="lifecycle-title">{use_i18n().t("staff.site.lifecycle")}</h2>
            <p class="muted">{use_i18n().t("staff.site.lifecycle_intro")}</p>
            <Saved anchor="lifecycle"/>
            <ActionError action={ServerAction::<StaffSiteLifecycle>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteLifecycle>::new()} attr:class="form" attr:data-testid="form-lifecycle">
                <DeclaredFields inputs=v.lifecycle.inputs()/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
        <section class="card staff-settings" id="attribution" aria-labelledby="attribution-title">
            <h2 id="attribution-title">{use_i18n().t("staff.site.attribution")}</h2>
            <p class="muted">{use_i18n().t("staff.site.attribution_intro")}</p>
            <Saved anchor="attribution"/>
            <ActionError action={ServerAction::<StaffSiteAttribution>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteAttribution>::new()} attr:class="form" attr:data-testid="form-attribution">
                <DeclaredFields inputs=v.attribution.inputs()/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
        <section class="card staff-settings" id="age" aria-labelledby="age-title">
            <h2 id="age-title">{use_i18n().t("staff.site.age")}</h2>
            <p class="muted">{use_i18n().t("staff.site.age_intro")}</p>
            {(!v.age_checks_available).then(|| view! { <p class="notice notice--warning" role="note">{use_i18n().t("error.age_checks_unavailable")}</p> })}
            <Saved anchor="age"/>
            <ActionError action={ServerAction::<StaffSiteAge>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteAge>::new()} attr:class="form" attr:data-testid="form-age">
                <DeclaredFields inputs=v.age.inputs()/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
        <section class="card staff-settings" id="fraud" aria-labelledby="fraud-title">
            <h2 id="fraud-title">{use_i18n().t("staff.site.fraud")}</h2>
            <p class="muted">{use_i18n().t("staff.site.fraud_intro")}</p>
            <Saved anchor="fraud"/>
            <ActionError action={ServerAction::<StaffSiteFraud>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteFraud>::new()} attr:class="form" attr:data-testid="form-fraud">
                <DeclaredFields inputs=v.fraud.inputs()/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
        <section class="card staff-settings" id="chat-photos" aria-labelledby="chat-photos-title">
            <h2 id="chat-photos-title">{use_i18n().t("staff.site.chat_photos")}</h2>
            <p class="muted">{use_i18n().t("staff.site.chat_photos_intro")}</p>
            <Saved anchor="chat-photos"/>
            <ActionError action={ServerAction::<StaffSiteChatPhotos>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteChatPhotos>::new()} attr:class="form" attr:data-testid="form-chat-photos">
                <DeclaredFields inputs=v.chat_photos.inputs()/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
        <section class="card staff-settings" id="gifts" aria-labelledby="gifts-title">
            <h2 id="gifts-title">{use_i18n().t("staff.site.gifts")}</h2>
            <Saved anchor="gifts"/>
            <ActionError action={ServerAction::<StaffSiteGifts>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteGifts>::new()} attr:class="form" attr:data-testid="form-gifts">
                <fieldset class="staff-settings__checks">
                    <legend>{use_i18n().t("staff.setting.gifts")}</legend>
                    {v.gifts.into_iter().map(|(gift, on)| view! {
                        <label class="check">
                            <input type="checkbox" name=format!("gifts[{}]", gift.code()) value="on" checked=on/>
                            <span>{use_i18n().t(&gift.locale_key())}</span>
                        </label>
                    }).collect_view()}
                </fieldset>
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
        <super::chat_settings::ChatSettingsForms contact=v.contact_rules spam=v.spam_rules/>
        <super::site_setup::CompanyForm company=v.company shared=v.company_shared.clone()/>
        <super::site_setup::NewSiteForm known=v.company_shared language=language/>
    }
    .into_any()
}

#[component]
pub fn StaffSitePage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Site) {
        return refused;
    }
    let i18n = use_i18n();
    let settings = Resource::new_blocking(|| (), |_| staff_site());
    view! {
        <Title text=i18n.t("staff.site.title")/>
        <div class="container container--narrow page">
            <p><a href="/staff">{use_i18n().t("staff.home.title")}</a></p>
            <h1>{use_i18n().t("staff.site.title")}</h1>
            <Suspense fallback=|| ()>
                {move || settings.get().map(|result| match result {
                    Ok(v) => view! {
                        <p class="muted">{v.domain.clone()}</p>
                        <SettingsForms v=v/>
                    }.into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    }
    .into_any()
}
