//! `/staff/figures/tests` (admins and finance): split tests of landers — a lander's traffic
//! shared between designs by weight, each visitor keeping their design — and of prices — the
//! members shown a bundle shared between prices, each keeping theirs — and what each variant
//! brought, with 95 % intervals and the winner once one is clear (`domain::splits`,
//! `server::splits`).

use domain::lander::Design;
use domain::splits::{VariantFigures, WonOn, MAX_VARIANTS, MAX_WEIGHT, MIN_VISITS, NAME_MAX_CHARS};
use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, fail_back, redirect, staff_call};

use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::{use_i18n, I18n};
use crate::ui::forms::ActionError;

/// The page's address.
pub const PAGE: &str = "/staff/figures/tests";
/// Tests shown with their figures (the newest; older ones are listed by name).
#[cfg(feature = "ssr")]
const REPORTED: usize = 10;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestView {
    pub id: i64,
    pub name: String,
    pub lander: String,
    /// A price test's bundle (none for a lander test).
    pub bundle: Option<BundleView>,
    pub started: String,
    pub stopped: Option<String>,
    pub currency: String,
    pub variants: Vec<VariantFigures>,
    /// The winner's index among the variants, and the figure it won on.
    pub winner: Option<(usize, WonOn)>,
}

/// A bundle on sale, as the price test's form and cards name it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BundleView {
    pub id: i64,
    pub credits: i64,
    pub price_minor: i64,
    pub currency: String,
    /// The country it is sold in (none: every country without bundles of its own).
    pub country: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SplitsData {
    pub tests: Vec<TestView>,
    pub bundles: Vec<BundleView>,
}

#[server(prefix = "/api/fn", endpoint = "staff_splits", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_splits() -> Result<SplitsData, ApiError> {
    let (c, member) = staff_call(StaffArea::Figures).await?;
    let site = c.site.settings.id;
    let tests = c.state.splits.list(&member, site).await.map_err(fail)?;
    let bundles: Vec<BundleView> = c
        .state
        .splits
        .bundles(&member, site)
        .await
        .map_err(fail)?
        .into_iter()
        .map(|b| BundleView { id: b.id, credits: b.credits, price_minor: b.price_minor, currency: b.currency, country: b.country })
        .collect();
    let mut out = Vec::new();
    for (i, test) in tests.into_iter().enumerate() {
        let day = |at: i64| domain::date::from_unix(at).to_string();
        let (currency, variants, winner) = if i < REPORTED {
            let r = c.state.splits.report(&member, site, test.id).await.map_err(fail)?;
            (r.currency, r.variants, r.winner)
        } else {
            (String::new(), Vec::new(), None)
        };
        let bundle = test.pack_id().map(|id| {
            bundles.iter().find(|b| b.id == id).cloned().unwrap_or(BundleView {
                id,
                credits: 0,
                price_minor: 0,
                currency: test.currency.clone().unwrap_or_default(),
                country: None,
            })
        });
        out.push(TestView {
            id: test.id,
            name: test.name,
            lander: test.lander,
            bundle,
            started: day(test.started_at),
            stopped: test.stopped_at.map(day),
            currency,
            variants,
            winner,
        });
    }
    Ok(SplitsData { tests: out, bundles })
}

/// Starts a test: a name, the lander, and up to four designs with their weights (rows left
/// empty are skipped); logged.
#[allow(clippy::too_many_arguments)]
#[server(prefix = "/api/fn", endpoint = "staff_split_start")]
pub async fn staff_split_start(
    name: String,
    lander: String,
    design_1: String,
    weight_1: String,
    design_2: String,
    weight_2: String,
    design_3: String,
    weight_3: String,
    design_4: String,
    weight_4: String,
) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Figures).await?;
    let rows = [(design_1, weight_1), (design_2, weight_2), (design_3, weight_3), (design_4, weight_4)];
    match c.state.splits.start(&member, c.site.settings.id, &name, &lander, &rows).await {
        Ok(_) => redirect(&format!("{PAGE}?started=1")),
        Err(error) => return Err(fail_back::<StaffSplitStart>(error, PAGE, &[("name", &name), ("lander", &lander)])),
    }
    Ok(())
}

/// Starts a price test: a name, the bundle, and up to four prices with their weights (rows
/// left empty are skipped); logged.
#[allow(clippy::too_many_arguments)]
#[server(prefix = "/api/fn", endpoint = "staff_price_test_start")]
pub async fn staff_price_test_start(
    name: String,
    pack: String,
    price_1: String,
    weight_1: String,
    price_2: String,
    weight_2: String,
    price_3: String,
    weight_3: String,
    price_4: String,
    weight_4: String,
) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Figures).await?;
    let pack_id: i64 = pack.trim().parse().map_err(|_| ApiError::new(domain::ErrorCode::BadRequest))?;
    let rows = [(price_1, weight_1), (price_2, weight_2), (price_3, weight_3), (price_4, weight_4)];
    match c.state.splits.start_price(&member, c.site.settings.id, &name, pack_id, &rows).await {
        Ok(_) => redirect(&format!("{PAGE}?started=1")),
        Err(error) => return Err(fail_back::<StaffPriceTestStart>(error, PAGE, &[("price_name", &name), ("pack", &pack)])),
    }
    Ok(())
}

/// Stops a running test; its figures stay. Logged.
#[server(prefix = "/api/fn", endpoint = "staff_split_stop")]
pub async fn staff_split_stop(id: i64) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Figures).await?;
    match c.state.splits.stop(&member, c.site.settings.id, id).await {
        Ok(()) => redirect(&format!("{PAGE}?stopped=1")),
        Err(error) => return Err(fail_back::<StaffSplitStop>(error, PAGE, &[])),
    }
    Ok(())
}

fn design_label(i18n: &I18n, route: &str) -> String {
    i18n.t(&format!("staff.tests.design.{route}"))
}

/// A bundle as `60 credits · € 19,95 · NL` (or every country).
fn bundle_label(i18n: &I18n, b: &BundleView) -> String {
    let credits = if b.credits > 0 { i18n.plural("credits.pack_credits", b.credits, &[]) } else { format!("#{}", b.id) };
    let price = domain::site::format_money(b.price_minor, &b.currency, i18n.decimal_comma());
    let place = b.country.clone().unwrap_or_else(|| i18n.t("staff.tests.all_countries"));
    if b.credits > 0 {
        format!("{credits} · {price} · {place}")
    } else {
        credits
    }
}

#[component]
pub fn SplitTestsPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Figures) {
        return refused;
    }
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let (started, stopped) = (query.get("started").is_some(), query.get("stopped").is_some());
    let (name, lander) = (query.get("name").unwrap_or_default(), query.get("lander").unwrap_or_default());
    let (price_name, chosen_pack) = (query.get("price_name").unwrap_or_default(), query.get("pack").unwrap_or_default());
    let data = Resource::new_blocking(|| (), |_| staff_splits());
    let design_options = move |selected: &str, empty: bool| {
        let i18n = use_i18n();
        let none = empty.then(|| view! { <option value="" selected=selected.is_empty()>{i18n.t("staff.tests.design_none")}</option> });
        let designs = Design::ALL
            .into_iter()
            .map(|d| view! { <option value=d.route() selected=selected == d.route()>{design_label(&i18n, d.route())}</option> })
            .collect_view();
        view! { {none}{designs} }
    };
    let rows = (1..=MAX_VARIANTS)
        .map(|n| {
            let i18n = use_i18n();
            // The first two rows start filled in (an even split of the gallery and the collage).
            let (design, weight) = match n {
                1 => ("gallery", "50"),
                2 => ("collagelanding", "50"),
                _ => ("", ""),
            };
            view! {
                <fieldset class="staff-split__row">
                    <legend>{i18n.tf("staff.tests.variant", &[("n", &n.to_string())])}</legend>
                    <label class="field">
                        <span class="field__label">{i18n.t("staff.tests.design")}</span>
                        <select name=format!("design_{n}")>{design_options(design, n > 2)}</select>
                    </label>
                    <WeightField n=n weight=weight/>
                </fieldset>
            }
        })
        .collect_view();
    view! {
        <Title text=i18n.t("staff.tests.title")/>
        <div class="container page staff-splits">
            <h1>{i18n.t("staff.tests.title")}</h1>
            <p class="muted">{i18n.t("staff.tests.intro")}" "<a href=crate::features::staff::figures::PAGE>{i18n.t("staff.figures.title")}</a></p>
            {started.then(|| view! { <p class="notice notice--ok" role="status" data-testid="saved">{use_i18n().t("staff.tests.started")}</p> })}
            {stopped.then(|| view! { <p class="notice notice--ok" role="status" data-testid="saved">{use_i18n().t("staff.tests.stopped")}</p> })}
            <section class="card staff-settings" aria-labelledby="split-new">
                <h2 id="split-new">{i18n.t("staff.tests.new")}</h2>
                <p class="muted">{i18n.t("staff.tests.new_help")}</p>
                <ActionError action={ServerAction::<StaffSplitStart>::new()}/>
                <ActionForm action={ServerAction::<StaffSplitStart>::new()} attr:class="form" attr:data-testid="form-split">
                    <div class="staff-settings__grid">
                        <NameField name=name/>
                        <label class="field">
                            <span class="field__label">{i18n.t("staff.tests.lander")}</span>
                            <select name="lander">{design_options(if lander.is_empty() { "gallery" } else { lander.as_str() }, false)}</select>
                        </label>
                    </div>
                    <div class="staff-split__rows">{rows}</div>
                    <button type="submit" class="btn btn--primary">{i18n.t("staff.tests.start")}</button>
                </ActionForm>
            </section>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| result.ok().map(|d| view! {
                    <PriceTestForm bundles=d.bundles name=price_name.clone() chosen=chosen_pack.clone()/>
                }))}
            </Suspense>
            <ActionError action={ServerAction::<StaffSplitStop>::new()}/>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| match result {
                    Ok(d) if d.tests.is_empty() => view! { <p class="notice" data-testid="tests-none">{use_i18n().t("staff.tests.none")}</p> }.into_any(),
                    Ok(d) => d.tests.into_iter().map(|t| view! { <TestCard test=t/> }).collect_view().into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    }
    .into_any()
}

/// A variant's weight, 1 to [`MAX_WEIGHT`].
#[component]
fn WeightField(n: usize, weight: &'static str) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field__label">{use_i18n().t("staff.tests.weight")}</span>
            <input type="number" name=format!("weight_{n}") value=weight min="1" max=MAX_WEIGHT.to_string() inputmode="numeric"/>
        </label>
    }
}

/// A test's name: lower-case letters, digits and dashes (checked again on the server).
#[component]
fn NameField(name: String) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <label class="field">
            <span class="field__label">{i18n.t("staff.tests.name")}</span>
            <input type="text" name="name" value=name required maxlength=NAME_MAX_CHARS.to_string() pattern="[a-z0-9][a-z0-9\\-]*" autocomplete="off"/>
            <span class="field__hint">{i18n.t("staff.tests.name_help")}</span>
        </label>
    }
}

/// The form that starts a price test: a name, one of the site's bundles, two to four prices.
#[component]
fn PriceTestForm(bundles: Vec<BundleView>, name: String, chosen: String) -> impl IntoView {
    let i18n = use_i18n();
    if bundles.is_empty() {
        return ().into_any();
    }
    let options = bundles
        .iter()
        .map(|b| {
            let id = b.id.to_string();
            let selected = chosen == id;
            view! { <option value=id selected=selected>{bundle_label(&i18n, b)}</option> }
        })
        .collect_view();
    let rows = (1..=MAX_VARIANTS)
        .map(|n| {
            let i18n = use_i18n();
            let weight = if n <= 2 { "50" } else { "" };
            view! {
                <fieldset class="staff-split__row">
                    <legend>{i18n.tf("staff.tests.price_variant", &[("n", &n.to_string())])}</legend>
                    <label class="field">
                        <span class="field__label">{i18n.t("staff.tests.price")}</span>
                        <input type="text" name=format!("price_{n}") inputmode="decimal" autocomplete="off" maxlength="12" placeholder="19,95" required=n <= 2/>
                    </label>
                    <WeightField n=n weight=weight/>
                </fieldset>
            }
        })
        .collect_view();
    view! {
        <section class="card staff-settings" aria-labelledby="price-new">
            <h2 id="price-new">{i18n.t("staff.tests.price_new")}</h2>
            <p class="muted">{i18n.t("staff.tests.price_new_help")}</p>
            <ActionError action={ServerAction::<StaffPriceTestStart>::new()}/>
            <ActionForm action={ServerAction::<StaffPriceTestStart>::new()} attr:class="form" attr:data-testid="form-price-test">
                <div class="staff-settings__grid">
                    <NameField name=name/>
                    <label class="field">
                        <span class="field__label">{i18n.t("staff.tests.bundle")}</span>
                        <select name="pack">{options}</select>
                    </label>
                </div>
                <div class="staff-split__rows">{rows}</div>
                <button type="submit" class="btn btn--primary">{i18n.t("staff.tests.price_start")}</button>
            </ActionForm>
        </section>
    }
    .into_any()
}

/// A share in percent with one decimal (`62,5`).
fn one_decimal(i18n: &I18n, share: f64) -> String {
    let text = format!("{:.1}", share * 100.0);
    if i18n.decimal_comma() {
        text.replace('.', ",")
    } else {
        text
    }
}

/// A rate as `12.3 %` and its interval `10.1–14.6 %` (none without visits).
fn percent(i18n: &I18n, visits: i64, (value, low, high): (f64, f64, f64)) -> (String, String) {
    if visits == 0 {
        return ("–".into(), String::new());
    }
    let p = |v: f64| one_decimal(i18n, v);
    (format!("{} %", p(value)), format!("{}–{} %", p(low), p(high)))
}

/// Money per visit (minor units, so cents stay visible) and its interval.
fn money(i18n: &I18n, currency: &str, visits: i64, (value, low, high): (f64, f64, f64)) -> (String, String) {
    if currency.is_empty() || visits == 0 {
        return ("–".into(), String::new());
    }
    let m = |v: f64| domain::site::format_money(v.round() as i64, currency, i18n.decimal_comma());
    (m(value), format!("{} – {}", m(low.max(0.0)), m(high)))
}

#[component]
fn TestCard(test: TestView) -> impl IntoView {
    let i18n = use_i18n();
    let heading = format!("split-{}", test.id);
    let table_by = heading.clone();
    let total: u32 = test.variants.iter().map(|v| v.weight).sum::<u32>().max(1);
    let status = match &test.stopped {
        None => i18n.tf("staff.tests.running_since", &[("date", &test.started)]),
        Some(end) => i18n.tf("staff.tests.ran", &[("from", &test.started), ("to", end)]),
    };
    let price_test = test.bundle.is_some();
    let currency = test.currency.clone();
    // A variant as the page names it: the design, or the price.
    let arm = move |i18n: &I18n, v: &VariantFigures| {
        if price_test {
            let minor = v.design.parse::<i64>().unwrap_or_default();
            domain::site::format_money(minor, &currency, i18n.decimal_comma())
        } else {
            design_label(i18n, &v.design)
        }
    };
    let verdict = match test.winner {
        Some((i, on)) => {
            let design = test.variants.get(i).map(|v| arm(&i18n, v)).unwrap_or_default();
            let key = match (on, price_test) {
                (WonOn::RevenuePerVisit, false) => "staff.tests.winner_revenue",
                (WonOn::RevenuePerVisit, true) => "staff.tests.winner_price_revenue",
                (WonOn::SignupRate, _) => "staff.tests.winner_signups",
                (WonOn::BuyerRate, _) => "staff.tests.winner_buyers",
            };
            view! { <p class="notice notice--ok" data-testid="winner">{i18n.tf(key, &[("design", &design)])}</p> }.into_any()
        }
        None if test.variants.is_empty() => ().into_any(),
        None if price_test => {
            view! { <p class="notice" data-testid="no-winner">{i18n.tf("staff.tests.no_price_winner", &[("members", &MIN_VISITS.to_string())])}</p> }.into_any()
        }
        None => view! { <p class="notice" data-testid="no-winner">{i18n.tf("staff.tests.no_winner", &[("visits", &MIN_VISITS.to_string())])}</p> }.into_any(),
    };
    let running = test.stopped.is_none();
    let currency = test.currency.clone();
    let subject = match &test.bundle {
        Some(b) => i18n.tf("staff.tests.of_bundle", &[("bundle", &bundle_label(&i18n, b))]),
        None => i18n.tf("staff.tests.of_lander", &[("lander", &design_label(&i18n, &test.lander))]),
    };
    let rows = test
        .variants
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let i18n = use_i18n();
            let (signup, signup_ci) = percent(&i18n, v.visits, v.signup_rate);
            let (buyer, buyer_ci) = percent(&i18n, v.visits, v.buyer_rate);
            let (revenue, revenue_ci) = money(&i18n, &currency, v.visits, v.revenue_per_visit);
            let share = one_decimal(&i18n, f64::from(v.weight) / f64::from(total));
            let won = test.winner.is_some_and(|(w, _)| w == i);
            let signups = (!price_test).then(|| {
                view! {
                    <td>{v.signups}</td>
                    <td>{signup}<br/><small class="muted">{signup_ci}</small></td>
                }
            });
            view! {
                <tr data-testid="variant" class:staff-split__won=won>
                    <th scope="row">{arm(&i18n, v)}</th>
                    <td>{format!("{share} %")}</td>
                    <td data-testid="variant-visits">{v.visits}</td>
                    {signups}
                    <td data-testid="variant-buyers">{v.buyers}</td>
                    <td>{buyer}<br/><small class="muted">{buyer_ci}</small></td>
                    <td>{revenue}<br/><small class="muted">{revenue_ci}</small></td>
                </tr>
            }
        })
        .collect_view();
    let t = move |key: &str| use_i18n().t(key);
    view! {
        <section class="card staff-split" aria-labelledby=heading.clone() data-testid="split-test">
            <h2 id=heading.clone()>{test.name.clone()}</h2>
            <p class="muted">{subject}" · "{status}</p>
            {verdict}
            {(!test.variants.is_empty()).then(|| view! {
                <div class="table-scroll" tabindex="0" role="region" aria-labelledby=table_by>
                    <table class="staff-log">
                        {if price_test {
                            view! { <thead><tr>
                                <th scope="col">{t("staff.tests.price")}</th><th scope="col">{t("staff.tests.share")}</th>
                                <th scope="col">{t("staff.tests.members")}</th><th scope="col">{t("staff.figures.metric.buyers")}</th>
                                <th scope="col">{t("staff.tests.buyer_rate_member")}</th><th scope="col">{t("staff.tests.revenue_per_member")}</th>
                            </tr></thead> }.into_any()
                        } else {
                            view! { <thead><tr>
                                <th scope="col">{t("staff.tests.design")}</th><th scope="col">{t("staff.tests.share")}</th>
                                <th scope="col">{t("staff.figures.metric.visits")}</th><th scope="col">{t("staff.figures.metric.signups")}</th>
                                <th scope="col">{t("staff.tests.signup_rate")}</th><th scope="col">{t("staff.figures.metric.buyers")}</th>
                                <th scope="col">{t("staff.tests.buyer_rate")}</th><th scope="col">{t("staff.figures.metric.revenue_per_visit")}</th>
                            </tr></thead> }.into_any()
                        }}
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                <p class="muted"><small>{t(if price_test { "staff.tests.price_intervals" } else { "staff.tests.intervals" })}</small></p>
            })}
            {running.then(|| view! {
                <ActionForm action={ServerAction::<StaffSplitStop>::new()}>
                    <input type="hidden" name="id" value=test.id.to_string()/>
                    <button type="submit" class="btn btn--small" data-testid="stop-test">{use_i18n().t("staff.tests.stop")}</button>
                </ActionForm>
            })}
        </section>
    }
}
