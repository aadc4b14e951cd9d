//! `/staff/pricing`: the site's credit bundles and discount codes, and their server functions.

use domain::staff as rules;
use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::site::{country_options, NumberField};
#[cfg(feature = "ssr")]
use crate::call::{fail, fail_back, redirect, staff_call};
use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;
use crate::ui::money::MoneyField;

#[server(prefix = "/api/fn", endpoint = "staff_pricing", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_pricing() -> Result<(Vec<rules::PackRecord>, Vec<rules::DiscountRecord>), ApiError> {
    let (c, member) = staff_call(StaffArea::Pricing).await?;
    let site = c.site.settings.id;
    let packs = c.state.staff.packs(&member, site).await.map_err(fail)?;
    let codes = c.state.staff.discounts(&member, site).await.map_err(fail)?;
    Ok((packs, codes))
}

/// A money field as typed (`domain::money`, the reading the form's field applies too), or its
/// refusal naming the setting.
#[cfg(feature = "ssr")]
pub(super) fn amount_of(text: &str, setting: &'static str) -> Result<i64, ApiError> {
    domain::money::parse_amount(text).map_err(|_| ApiError::new(domain::ErrorCode::AmountInvalid).with("setting", setting))
}

/// Adds a bundle (no `id`) or changes one.
#[server(prefix = "/api/fn", endpoint = "staff_save_pack")]
pub async fn staff_save_pack(
    #[server(default)] id: Option<i64>,
    credits: i64,
    price: String,
    currency: String,
    sort_order: i64,
    #[server(default)] highlighted: Option<String>,
    #[server(default)] active: Option<String>,
) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Pricing).await?;
    let result = async {
        let edit = rules::PackEdit {
            id,
            credits,
            price_minor: amount_of(&price, "price")?,
            currency,
            highlighted: highlighted.is_some(),
            sort_order,
            active: active.is_some(),
        };
        c.state.staff.save_pack(&member, c.site.settings.id, edit, c.now()).await.map_err(fail)
    }
    .await;
    match result {
        Ok(id) => {
            c.state.sites.reload().await.map_err(fail)?;
            redirect(&crate::paths::staff_pack_saved(id));
            Ok(())
        }
        Err(error) => Err(fail_back::<StaffSavePack>(error, "/staff/pricing", &[])),
    }
}

/// A new discount code; `expires` is the last day it works (`YYYY-MM-DD`, through the end of that day UTC).
#[server(prefix = "/api/fn", endpoint = "staff_add_discount")]
pub async fn staff_add_discount(
    code: String,
    percentage: i64,
    #[server(default)] minimum_order: String,
    #[server(default)] country: String,
    #[server(default)] expires: String,
) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Pricing).await?;
    let result = async {
        let minimum_order = if minimum_order.trim().is_empty() { 0 } else { amount_of(&minimum_order, "minimum_order")? };
        let expires_at = match expires.trim() {
            "" => None,
            day => Some(
                domain::account::Ymd::parse(day)
                    .map(|d| domain::date::to_unix(i64::from(d.year), d.month, d.day, 23, 59) + 59)
                    .ok_or_else(|| ApiError::new(domain::ErrorCode::ChoiceInvalid).with("setting", "expires_at"))?,
            ),
        };
        let edit = rules::DiscountEdit { code, percentage, minimum_order, country: Some(country), expires_at };
        c.state.staff.add_discount(&member, c.site.settings.id, edit, c.now()).await.map_err(fail)
    }
    .await;
    match result {
        Ok(_) => {
            redirect("/staff/pricing?saved=codes#codes");
            Ok(())
        }
        Err(error) => Err(fail_back::<StaffAddDiscount>(error, "/staff/pricing", &[])),
    }
}

#[server(prefix = "/api/fn", endpoint = "staff_discount_active")]
pub async fn staff_discount_active(id: i64, active: bool) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Pricing).await?;
    if let Err(error) = c.state.staff.set_discount_active(&member, c.site.settings.id, id, active, c.now()).await {
        return Err(fail_back::<StaffDiscountActive>(error, "/staff/pricing", &[]));
    }
    redirect("/staff/pricing?saved=codes#codes");
    Ok(())
}

pub(super) fn money(minor: i64) -> String {
    domain::money::form_value(minor)
}

#[component]
fn PackForm(pack: Option<rules::PackRecord>) -> impl IntoView {
    let i18n = use_i18n();
    let id = pack.as_ref().map(|p| p.id);
    let p = pack.clone().unwrap_or(rules::PackRecord {
        id: 0,
        credits: 100,
        price_minor: 0,
        currency: "EUR".into(),
        highlighted: false,
        sort_order: 0,
        active: true,
        sold: 0,
    });
    let anchor = id.map(|id| format!("pack-{id}")).unwrap_or_else(|| "pack-new".into());
    let saved = use_query_map().get_untracked().get("saved").as_deref() == Some(anchor.as_str());
    let title = match &pack {
        Some(p) => i18n.plural("staff.pricing.pack", p.credits, &[("id", &p.id.to_string())]),
        None => i18n.t("staff.pricing.add_pack"),
    };
    let currency = p.currency.clone();
    view! {
        <section class="card staff-pack" id=anchor.clone() data-testid="staff-pack" data-id=id.map(|i| i.to_string())>
            <h3>{title}{pack.as_ref().map(|p| format!(" · {}", use_i18n().plural("staff.pricing.sold", p.sold, &[])))}</h3>
            {saved.then(|| view! { <p class="notice notice--ok" role="status" data-testid="saved">{use_i18n().t("staff.site.saved")}</p> })}
            <ActionForm action={ServerAction::<StaffSavePack>::new()} attr:class="form staff-settings__grid">
                {id.map(|id| view! { <input type="hidden" name="id" value=id.to_string()/> })}
                <NumberField range=rules::PACK_CREDITS value=p.credits/>
                <MoneyField
                    name="price".to_string()
                    label=use_i18n().t("staff.setting.price")
                    value={ if p.price_minor > 0 { money(p.price_minor) } else { String::new() } }
                    placeholder=String::new()
                    required=true
                    invalid=use_i18n().t("validation.amount_invalid")
                    hint=String::new()
                />
                <label class="field">
                    <span class="field__label">{use_i18n().t("staff.setting.currency")}</span>
                    <select name="currency">{rules::CURRENCIES.iter().map(|c| view! { <option value=*c selected=currency == *c>{*c}</option> }).collect_view()}</select>
                </label>
                <NumberField range=rules::PACK_SORT value=p.sort_order/>
                <label class="check"><input type="checkbox" name="highlighted" value="on" checked=p.highlighted/><span>{use_i18n().t("staff.setting.highlighted")}</span></label>
                <label class="check"><input type="checkbox" name="active" value="on" checked=p.active/><span>{use_i18n().t("staff.setting.active")}</span></label>
                <button type="submit" class="btn btn--primary">{if id.is_some() { i18n.t("staff.site.save") } else { i18n.t("staff.pricing.add_pack") }}</button>
            </ActionForm>
        </section>
    }
}

#[component]
fn DiscountRow(d: rules::DiscountRecord) -> impl IntoView {
    let i18n = use_i18n();
    let country = d.country.as_ref().map(|c| i18n.t(&format!("country.{c}"))).unwrap_or_else(|| i18n.t("staff.pricing.all_countries"));
    let until = d.expires_at.map(|at| i18n.date(at)).unwrap_or_else(|| i18n.t("staff.pricing.no_end"));
    let (label, next) = if d.active { (i18n.t("staff.pricing.turn_off"), "false") } else { (i18n.t("staff.pricing.turn_on"), "true") };
    view! {
        <tr data-testid="staff-code" data-active=d.active.to_string()>
            <td><strong>{d.code.clone()}</strong></td>
            <td>{format!("{} %", d.percentage)}</td>
            <td>{money(d.minimum_order)}</td>
            <td>{country}</td>
            <td>{until}</td>
            <td>{d.redeemed.to_string()}</td>
            <td>
                <ActionForm action={ServerAction::<StaffDiscountActive>::new()}>
                    <input type="hidden" name="id" value=d.id.to_string()/>
                    <input type="hidden" name="active" value=next/>
                    <button type="submit" class="btn btn--ghost btn--small">{label}</button>
                </ActionForm>
            </td>
        </tr>
    }
}

#[component]
pub fn StaffPricingPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Pricing) {
        return refused;
    }
    let i18n = use_i18n();
    let data = Resource::new_blocking(|| (), |_| staff_pricing());
    let codes_saved = use_query_map().get_untracked().get("saved").as_deref() == Some("codes");
    view! {
        <Title text=i18n.t("staff.pricing.title")/>
        <div class="container container--narrow page">
            <p><a href="/staff">{use_i18n().t("staff.home.title")}</a></p>
            <h1>{use_i18n().t("staff.pricing.title")}</h1>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| match result {
                    Ok((packs, codes)) => {
                        view! {
                            <h2>{use_i18n().t("staff.pricing.packs")}</h2>
                            <ActionError action={ServerAction::<StaffSavePack>::new()}/>
                            {packs.into_iter().map(|p| view! { <PackForm pack=Some(p)/> }).collect_view()}
                            <PackForm pack=None/>
                            <h2 id="codes">{use_i18n().t("staff.pricing.codes")}</h2>
                            {codes_saved.then(|| view! { <p class="notice notice--ok" role="status" data-testid="saved">{use_i18n().t("staff.site.saved")}</p> })}
                            <ActionError action={ServerAction::<StaffAddDiscount>::new()}/>
                            <ActionError action={ServerAction::<StaffDiscountActive>::new()}/>
                            {if codes.is_empty() {
                                view! { <p class="notice">{use_i18n().t("staff.pricing.no_codes")}</p> }.into_any()
                            } else {
                                view! {
                                    <div class="table-scroll">
                                        <table class="staff-log" data-testid="staff-codes">
                                            <thead><tr>
                                                <th scope="col">{use_i18n().t("staff.setting.code")}</th>
                                                <th scope="col">{use_i18n().t("staff.setting.percentage")}</th>
                                                <th scope="col">{use_i18n().t("staff.setting.minimum_order")}</th>
                                                <th scope="col">{use_i18n().t("staff.setting.country")}</th>
                                                <th scope="col">{use_i18n().t("staff.setting.expires_at")}</th>
                                                <th scope="col">{use_i18n().t("staff.pricing.redeemed")}</th>
                                                <th scope="col">{use_i18n().t("staff.setting.active")}</th>
                                            </tr></thead>
                                            <tbody>{codes.into_iter().map(|d| view! { <DiscountRow d=d/> }).collect_view()}</tbody>
                                        </table>
                                    </div>
                                }.into_any()
                            }}
                            <section class="card" aria-labelledby="add-code-title">
                                <h3 id="add-code-title">{use_i18n().t("staff.pricing.add_code")}</h3>
                                <ActionForm action={ServerAction::<StaffAddDiscount>::new()} attr:class="form staff-settings__grid" attr:data-testid="form-code">
                                    <label class="field">
                                        <span class="field__label">{use_i18n().t("staff.setting.code")}</span>
                                        <input type="text" name="code" required minlength=rules::CODE_MIN_CHARS.to_string() maxlength=rules::CODE_MAX_CHARS.to_string() pattern="[A-Za-z0-9_\\-]+" autocapitalize="characters"/>
                                    </label>
                                    <NumberField range=rules::DISCOUNT_PERCENT value=25/>
                                    <MoneyField
                                        name="minimum_order".to_string()
                                        label=use_i18n().t("staff.setting.minimum_order")
                                        value=String::new()
                                        placeholder=String::new()
                                        required=false
                                        invalid=use_i18n().t("validation.amount_invalid")
                                        hint=String::new()
                                    />
                                    <label class="field">
                                        <span class="field__label">{use_i18n().t("staff.setting.country")}</span>
                                        <select name="country">{country_options("", Some(use_i18n().t("staff.pricing.all_countries")))}</select>
                                    </label>
                                    <label class="field">
                                        <span class="field__label">{use_i18n().t("staff.setting.expires_at")}</span>
                                        <input type="date" name="expires"/>
                                    </label>
                                    <button type="submit" class="btn btn--primary">{use_i18n().t("staff.pricing.add_code")}</button>
                                </ActionForm>
                            </section>
                        }.into_any()
                    }
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    }
    .into_any()
}
