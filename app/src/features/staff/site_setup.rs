//! More of `/staff/site`: how the site meets visitors (niche, who may join, logged-out search,
//! the entry popup, first language, profile details shown), the smallest message price per
//! country, the company behind the site, its logo, and starting a new site on another domain.
//! Each form is its own server function; the rules are `domain::staff`'s.

use std::collections::BTreeMap;

use domain::staff as rules;
use domain::ApiError;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_router::hooks::use_query_map;

#[cfg(feature = "ssr")]
use crate::call::{fail, fail_back, redirect, staff_call};

use crate::i18n::use_i18n;
use crate::ui::forms::{ActionError, TextArea};
use crate::ui::money::MoneyField;

#[server(prefix = "/api/fn", endpoint = "staff_site_rules")]
pub async fn staff_site_rules(
    niche: i64,
    signups: String,
    domain_language: String,
    #[server(default)] logged_out_search: Option<String>,
    #[server(default)] logged_out_search_trafficsource: Option<String>,
    #[server(default)] enable_site_entry_popup: Option<String>,
    #[server(default)] visible_profile_fields: BTreeMap<String, String>,
    #[server(default)] visible_profile_notes: Option<String>,
    auto_likes: i64,
    auto_like_gap_minutes: i64,
    #[server(default)] search_fields: BTreeMap<String, String>,
) -> Result<(), ApiError> {
    let rules = rules::SiteRules {
        niche,
        signups,
        logged_out_search: logged_out_search.is_some(),
        logged_out_search_trafficsource: logged_out_search_trafficsource.is_some(),
        enable_site_entry_popup: enable_site_entry_popup.is_some(),
        domain_language,
        visible_profile_fields: visible_profile_fields.into_keys().collect(),
        visible_profile_notes: visible_profile_notes.is_some(),
        auto_likes,
        auto_like_gap_minutes,
        search_fields: search_fields.into_keys().collect(),
    };
    super::site::apply::<StaffSiteRules>(server::staff::SiteChange::Rules(rules), "rules").await
}

/// `cost[NL]=0,99` and `currency[NL]=EUR` per country; an empty price: no minimum there.
#[server(prefix = "/api/fn", endpoint = "staff_site_message_costs")]
pub async fn staff_site_message_costs(
    #[server(default)] cost: BTreeMap<String, String>,
    #[server(default)] currency: BTreeMap<String, String>,
) -> Result<(), ApiError> {
    let mut rows = Vec::new();
    for (country, text) in cost.iter().filter(|(_, t)| !t.trim().is_empty()) {
        let costs = match super::pricing::amount_of(text, "minimum_message_costs") {
            Ok(costs) => costs,
            Err(error) => return Err(fail_back::<StaffSiteMessageCosts>(error, "/staff/site", &[])),
        };
        rows.push(domain::site::MessageCost { country: country.clone(), costs, currency: currency.get(country).cloned().unwrap_or_default() });
    }
    super::site::apply::<StaffSiteMessageCosts>(server::staff::SiteChange::MessageCosts(rows), "costs").await
}

#[server(prefix = "/api/fn", endpoint = "staff_site_company")]
pub async fn staff_site_company(
    company_name: String,
    address: String,
    postal_code: String,
    city: String,
    company_country: String,
    kvk: String,
    #[server(default)] tradenames: String,
    #[server(default)] vat_numbers: String,
    company_phone: String,
    delete_discount: i64,
) -> Result<(), ApiError> {
    let (c, member) = staff_call(domain::staff::StaffArea::Site).await?;
    let details = rules::CompanyDetails {
        name: company_name,
        address,
        postal_code,
        city,
        country: company_country,
        kvk,
        tradenames: rules::split_list(&tradenames),
        vat_numbers: rules::split_list(&vat_numbers),
        support_phone: company_phone,
        delete_discount,
    };
    if let Err(error) = c.state.staff.change_company(&member, c.site.settings.id, details, c.now()).await {
        return Err(fail_back::<StaffSiteCompany>(error, "/staff/site", &[]));
    }
    c.state.sites.reload().await.map_err(fail)?;
    redirect("/staff/site?saved=company#company");
    Ok(())
}

/// The logo upload (multipart: the `logo` file). Staff only; decoded and written anew as PNG.
#[server(prefix = "/api/fn", endpoint = "staff_site_logo", input = leptos::server_fn::codec::MultipartFormData)]
pub async fn staff_site_logo(data: leptos::server_fn::codec::MultipartData) -> Result<(), ApiError> {
    let (c, member) = staff_call(domain::staff::StaffArea::Site).await?;
    let site = c.site.settings.id;
    let result = async {
        c.state.rate_limiter.check_member(server::http::rate_limit::Limit::PhotoUpload, member.id, c.now()).await.map_err(fail)?;
        let form = crate::call::read_upload_form(data, "logo", rules::LOGO_MAX_BYTES).await?;
        c.state.staff.set_logo(&member, site, Some(form.photo), c.now()).await.map_err(fail)
    }
    .await;
    if let Err(error) = result {
        return Err(fail_back::<StaffSiteLogo>(error, "/staff/site", &[]));
    }
    c.state.sites.reload().await.map_err(fail)?;
    redirect("/staff/site?saved=logo#logo");
    Ok(())
}

/// Back to the flame mark with the site's name.
#[server(prefix = "/api/fn", endpoint = "staff_site_logo_remove")]
pub async fn staff_site_logo_remove() -> Result<(), ApiError> {
    let (c, member) = staff_call(domain::staff::StaffArea::Site).await?;
    if let Err(error) = c.state.staff.set_logo(&member, c.site.settings.id, None, c.now()).await {
        return Err(fail_back::<StaffSiteLogoRemove>(error, "/staff/site", &[]));
    }
    c.state.sites.reload().await.map_err(fail)?;
    redirect("/staff/site?saved=logo#logo");
    Ok(())
}

#[server(prefix = "/api/fn", endpoint = "staff_new_site")]
pub async fn staff_new_site(domain: String, name: String, domain_language: String) -> Result<(), ApiError> {
    let (c, member) = staff_call(domain::staff::StaffArea::Site).await?;
    let new = rules::NewSite { domain, name, domain_language };
    match c.state.staff.create_site(&member, c.site.settings.id, new.clone(), c.now()).await {
        Ok(_) => {
            c.state.sites.reload().await.map_err(fail)?;
            let domain = rules::normalise_domain(&new.domain).unwrap_or_default();
            redirect(&crate::paths::staff_site_created(&domain));
            Ok(())
        }
        Err(error) => Err(fail_back::<StaffNewSite>(error, "/staff/site", &[])),
    }
}

fn check(name: String, on: bool, label: String) -> impl IntoView {
    view! {
        <label class="check">
            <input type="checkbox" name=name value="on" checked=on/>
            <span>{label}</span>
        </label>
    }
}

/// The first-language choices: ours, and the current one if it is another country's variant.
fn language_options(current: &str) -> impl IntoView {
    let mut tags: Vec<String> = rules::DOMAIN_LANGUAGES.iter().map(|t| t.to_string()).collect();
    if !current.is_empty() && !tags.iter().any(|t| t == current) {
        tags.insert(0, current.to_string());
    }
    let current = current.to_string();
    tags.into_iter()
        .map(|tag| {
            let name = domain::Locale::parse(&tag).map(|l| l.autonym()).unwrap_or_default();
            let label = format!("{name} ({tag})");
            view! { <option value=tag.clone() selected=tag == current>{label}</option> }
        })
        .collect_view()
}

#[component]
pub fn RulesForm(r: rules::SiteRules) -> impl IntoView {
    let niche = r.niche;
    let signups = r.signups.clone();
    view! {
        <section class="card staff-settings" id="rules" aria-labelledby="rules-title">
            <h2 id="rules-title">{use_i18n().t("staff.site.rules")}</h2>
            <super::site::Saved anchor="rules"/>
            <ActionError action={ServerAction::<StaffSiteRules>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteRules>::new()} attr:class="form" attr:data-testid="form-rules">
                <label class="field">
                    <span class="field__label">{use_i18n().t("staff.setting.niche")}</span>
                    <select name="niche">
                        {(1..=7).map(|n: i64| view! { <option value=n.to_string() selected=n == niche>{use_i18n().t(&format!("staff.niche.{n}"))}</option> }).collect_view()}
                    </select>
                </label>
                <label class="field">
                    <span class="field__label">{use_i18n().t("staff.setting.signups")}</span>
                    <select name="signups">
                        {["all", "traffic_source_only", "invite_only"].into_iter().map(|p| view! { <option value=p selected=signups == p>{use_i18n().t(&format!("staff.signups.{p}"))}</option> }).collect_view()}
                    </select>
                </label>
                <label class="field">
                    <span class="field__label">{use_i18n().t("staff.setting.domain_language")}</span>
                    <select name="domain_language">{language_options(&r.domain_language)}</select>
                </label>
                {check("logged_out_search".into(), r.logged_out_search, use_i18n().t("staff.setting.logged_out_search"))}
                {check("logged_out_search_trafficsource".into(), r.logged_out_search_trafficsource, use_i18n().t("staff.setting.logged_out_search_trafficsource"))}
                {check("enable_site_entry_popup".into(), r.enable_site_entry_popup, use_i18n().t("staff.setting.enable_site_entry_popup"))}
                <fieldset class="staff-settings__checks">
                    <legend>{use_i18n().t("staff.setting.visible_profile_fields")}</legend>
                    {domain::profile::Attribute::ALL.into_iter().map(|a| {
                        let field = a.field();
                        let on = r.visible_profile_fields.iter().any(|f| f == field);
                        check(format!("visible_profile_fields[{field}]"), on, use_i18n().t(&format!("profile.{field}")))
                    }).collect_view()}
                    {check("visible_profile_notes".into(), r.visible_profile_notes, use_i18n().t("staff.setting.visible_profile_notes"))}
                </fieldset>
                <fieldset class="staff-settings__checks">
                    <legend>{use_i18n().t("staff.setting.search_fields")}</legend>
                    {domain::search::SEARCH_FIELDS.into_iter().map(|field| {
                        let on = r.search_fields.iter().any(|f| f == field);
                        check(format!("search_fields[{field}]"), on, use_i18n().t(search_field_label(field)))
                    }).collect_view()}
                </fieldset>
                <div class="staff-settings__grid">
                    <super::site::NumberField range=rules::AUTO_LIKES value=r.auto_likes/>
                    <super::site::NumberField range=rules::AUTO_LIKE_GAP value=r.auto_like_gap_minutes/>
                </div>
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
    }
}

#[component]
pub fn MessageCostsForm(countries: Vec<String>, costs: Vec<domain::site::MessageCost>) -> impl IntoView {
    view! {
        <section class="card staff-settings" id="costs" aria-labelledby="costs-title">
            <h2 id="costs-title">{use_i18n().t("staff.site.message_costs")}</h2>
            <p class="muted">{use_i18n().t("staff.site.message_costs_hint")}</p>
            <super::site::Saved anchor="costs"/>
            <ActionError action={ServerAction::<StaffSiteMessageCosts>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteMessageCosts>::new()} attr:class="form" attr:data-testid="form-costs">
                {countries.into_iter().map(|country| {
                    let row = costs.iter().find(|c| c.country == country).cloned();
                    let currency = row.as_ref().map(|r| r.currency.clone()).unwrap_or_else(|| "EUR".into());
                    let name = use_i18n().t(&format!("country.{country}"));
                    let price_label = format!("{} – {}", use_i18n().t("staff.setting.minimum_message_costs"), name);
                    let currency_label = format!("{} – {}", use_i18n().t("staff.setting.currency"), name);
                    view! {
                        <div class="staff-settings__row" data-country=country.clone()>
                            <MoneyField
                                name=format!("cost[{country}]")
                                label=price_label
                                value=row.as_ref().map(|r| super::pricing::money(r.costs)).unwrap_or_default()
                                placeholder=String::new()
                                required=false
                                invalid=use_i18n().t("validation.amount_invalid")
                                hint=String::new()
                            />
                            <label class="field">
                                <span class="field__label">{currency_label}</span>
                                <select name=format!("currency[{country}]")>
                                    {rules::CURRENCIES.iter().map(|c| view! { <option value=*c selected=currency == *c>{*c}</option> }).collect_view()}
                                </select>
                            </label>
                        </div>
                    }
                }).collect_view()}
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
    }
}

#[component]
pub fn CompanyForm(company: rules::CompanyDetails, shared: Vec<String>) -> impl IntoView {
    let c = company;
    let country = c.country.clone();
    view! {
        <section class="card staff-settings" id="company" aria-labelledby="company-title">
            <h2 id="company-title">{use_i18n().t("staff.site.company")}</h2>
            {(!shared.is_empty()).then(|| view! { <p class="notice" data-testid="company-shared">{use_i18n().tf("staff.site.company_shared", &[("domains", &shared.join(", "))])}</p> })}
            <super::site::Saved anchor="company"/>
            <ActionError action={ServerAction::<StaffSiteCompany>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteCompany>::new()} attr:class="form" attr:data-testid="form-company">
                <super::site::TextField setting="company_name" value=c.name required=true max=rules::LINE_MAX_CHARS/>
                <super::site::TextField setting="address" value=c.address required=true max=rules::LINE_MAX_CHARS/>
                <div class="staff-settings__grid">
                    <super::site::TextField setting="postal_code" value=c.postal_code required=true max=12/>
                    <super::site::TextField setting="city" value=c.city required=true max=rules::LINE_MAX_CHARS/>
                </div>
                <label class="field">
                    <span class="field__label">{use_i18n().t("staff.setting.company_country")}</span>
                    <select name="company_country" required>
                        {rules::COUNTRIES.iter().map(|k| view! { <option value=*k selected=country == *k>{use_i18n().t(&format!("country.{k}"))}</option> }).collect_view()}
                    </select>
                </label>
                <super::site::TextField setting="kvk" value=c.kvk required=true max=20/>
                <label class="field">
                    <span class="field__label">{use_i18n().t("staff.setting.tradenames")}</span>
                    <TextArea value=c.tradenames.join("\n") attr:name="tradenames" attr:rows="2"/>
                </label>
                <label class="field">
                    <span class="field__label">{use_i18n().t("staff.setting.vat_numbers")}</span>
                    <TextArea value=c.vat_numbers.join("\n") attr:name="vat_numbers" attr:rows="2"/>
                </label>
                <super::site::TextField setting="company_phone" value=c.support_phone required=true max=30 kind="tel"/>
                <super::site::NumberField range=rules::DELETE_DISCOUNT value=c.delete_discount/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
    }
}

#[component]
pub fn LogoForm(logo: Option<domain::site::Logo>, name: String) -> impl IntoView {
    let i18n = use_i18n();
    let max_mb = rules::LOGO_MAX_BYTES.div_ceil(1 << 20).to_string();
    view! {
        <section class="card staff-settings" id="logo" aria-labelledby="logo-title">
            <h2 id="logo-title">{i18n.t("staff.site.logo")}</h2>
            <super::site::Saved anchor="logo"/>
            <crate::ui::forms::UrlError path=StaffSiteLogo::PATH/>
            <ActionError action={ServerAction::<StaffSiteLogoRemove>::new()}/>
            {match logo {
                Some(l) => view! {
                    <div class="staff-logo" data-testid="staff-logo">
                        <img src=l.url() width=l.width.to_string() height=l.height.to_string() alt=name.clone()/>
                        <span class="muted">{format!("{} × {} px", l.width, l.height)}</span>
                    </div>
                    <ActionForm action={ServerAction::<StaffSiteLogoRemove>::new()}>
                        <button type="submit" class="btn btn--ghost btn--small">{use_i18n().t("staff.site.logo_remove")}</button>
                    </ActionForm>
                }.into_any(),
                None => view! { <p class="muted" data-testid="staff-logo-none">{use_i18n().t("staff.site.logo_none")}</p> }.into_any(),
            }}
            // Multipart: a plain form to the server function's address.
            <form method="post" action=StaffSiteLogo::url() enctype="multipart/form-data" class="form upload-form" data-testid="form-logo">
                <label class="upload-drop">
                    <span class="upload-drop__title">{i18n.t("staff.site.logo_choose")}</span>
                    <span class="upload-drop__hint">{i18n.tf("staff.site.logo_hint", &[("max", &max_mb)])}</span>
                    <input type="file" name="logo" accept="image/png,image/jpeg,image/webp" required/>
                </label>
                <button type="submit" class="btn btn--primary">{i18n.t("staff.site.logo_upload")}</button>
            </form>
        </section>
    }
}

#[component]
pub fn NewSiteForm(known: Vec<String>, language: String) -> impl IntoView {
    let created = use_query_map().get_untracked().get("created").filter(|d| known.iter().any(|k| k == d));
    view! {
        <section class="card staff-settings" id="new-site" aria-labelledby="new-site-title">
            <h2 id="new-site-title">{use_i18n().t("staff.site.new_site")}</h2>
            <p class="muted">{use_i18n().t("staff.site.new_site_hint")}</p>
            {created.map(|domain| view! {
                <p class="notice notice--ok" role="status" data-testid="site-created">
                    {use_i18n().tf("staff.site.created", &[("domain", &domain)])}
                    " "
                    <a href=format!("https://{domain}/login")>{use_i18n().t("staff.site.created_login")}</a>
                </p>
            })}
            <ActionError action={ServerAction::<StaffNewSite>::new()}/>
            <ActionForm action={ServerAction::<StaffNewSite>::new()} attr:class="form" attr:data-testid="form-new-site">
                <label class="field">
                    <span class="field__label">{use_i18n().t("staff.setting.domain")}</span>
                    <input type="text" name="domain" required maxlength="253" inputmode="url" autocapitalize="off" spellcheck="false" placeholder="example.com"/>
                </label>
                <label class="field">
                    <span class="field__label">{use_i18n().t("staff.setting.name")}</span>
                    <input type="text" name="name" required maxlength=rules::LINE_MAX_CHARS.to_string()/>
                </label>
                <label class="field">
                    <span class="field__label">{use_i18n().t("staff.setting.domain_language")}</span>
                    <select name="domain_language">{language_options(&language)}</select>
                </label>
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.new_site_create")}</button>
            </ActionForm>
        </section>
    }
}

/// The label of a search form field, as the search form itself names it.
pub(crate) fn search_field_label(field: &str) -> &'static str {
    match field {
        "gender" => "members.seeking",
        "country" => "profile.country",
        "region" => "profile.region",
        _ => "members.age",
    }
}
