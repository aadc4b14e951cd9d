//! `/staff/figures` (admins and finance): the funnel from visit to money per network, ref, sub
//! id, lander, country or device class, over a range of days, within one network or all; a
//! chart of one figure per day, week or month; the table as CSV (`/staff/figures.csv`, the
//! same query). Everything the page shows is in its URL (`domain::figures::FigureQuery`).

use domain::figures::{Counts, Dimension, FigureQuery, Funnel, Grain, Metric, Unit};
use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, staff_call};
#[cfg(feature = "ssr")]
use domain::figures::query_param as param;

use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::{use_i18n, I18n};

/// The page's address.
pub const PAGE: &str = "/staff/figures";
/// Its table as CSV.
pub const CSV: &str = "/staff/figures.csv";

/// The URL's parameters the page reads.
pub const PARAMS: [&str; 9] = ["from", "to", "grain", "by", "network", "sort", "dir", "chart", "currency"];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FiguresView {
    pub query: FigureQuery,
    /// Its rows cut to the first [`domain::figures::TABLE_ROWS`]; `rest` sums the others (how
    /// many, their counts).
    pub funnel: Funnel,
    pub rest: Option<(usize, Counts)>,
}

#[server(prefix = "/api/fn", endpoint = "staff_figures", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_figures(query: String) -> Result<FiguresView, ApiError> {
    let (c, member) = staff_call(StaffArea::Figures).await?;
    let query = FigureQuery::parse(|k| param(&query, k), c.now().div_euclid(86_400));
    let mut funnel = c.state.figures.funnel(&member, c.site.settings.id, &query).await.map_err(fail)?;
    let (rows, rest) = domain::figures::top(std::mem::take(&mut funnel.rows), domain::figures::TABLE_ROWS);
    funnel.rows = rows;
    Ok(FiguresView { query, funnel, rest })
}

/// A figure as the page writes it: money in the currency, rates in percent.
pub fn shown(i18n: &I18n, metric: Metric, counts: &Counts, currency: &str) -> String {
    let value = counts.value(metric);
    match metric.unit() {
        Unit::Money if !currency.is_empty() => domain::site::format_money(value.round() as i64, currency, i18n.decimal_comma()),
        Unit::Percent => {
            let text = metric.format(value);
            format!("{} %", if i18n.decimal_comma() { text.replace('.', ",") } else { text })
        }
        _ => {
            let text = metric.format(value);
            if i18n.decimal_comma() {
                text.replace('.', ",")
            } else {
                text
            }
        }
    }
}

/// A value of the grouping as the page names it.
fn value_label(i18n: &I18n, by: Dimension, value: &str) -> String {
    match (by, value) {
        (_, "") => i18n.t("staff.figures.none"),
        (Dimension::Country, code) => i18n.t(&format!("country.{code}")),
        (Dimension::Device, device) => i18n.t(&format!("staff.figures.device.{device}")),
        (_, other) => other.to_string(),
    }
}

#[component]
pub fn FiguresPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Figures) {
        return refused;
    }
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let params: String =
        PARAMS.iter().filter_map(|k| query.get(k).map(|v| format!("{k}={}", domain::account::percent_encode(&v)))).collect::<Vec<_>>().join("&");
    let data = Resource::new_blocking(move || params.clone(), staff_figures);
    view! {
        <Title text=i18n.t("staff.figures.title")/>
        <div class="container page staff-figures">
            <h1>{i18n.t("staff.figures.title")}</h1>
            <p class="muted">
                {i18n.t("staff.figures.intro")}" "<a href=crate::features::staff::postbacks::PAGE>{i18n.t("staff.postbacks.title")}</a>". "
                <a href=crate::features::staff::splits::PAGE>{i18n.t("staff.tests.title")}</a>
            </p>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| match result {
                    Ok(view) => view! { <Figures view=view/> }.into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    }
    .into_any()
}

#[component]
fn Figures(view: FiguresView) -> impl IntoView {
    let i18n = use_i18n();
    let q = view.query.clone();
    let csv = format!("{CSV}?{}", q.href(|_| {}));
    let empty = view.funnel.total.is_empty();
    view! {
        <FilterForm view=view.clone()/>
        <section class="card" aria-labelledby="figures-chart-title">
            <h2 id="figures-chart-title">{i18n.t(&format!("staff.figures.metric.{}", q.chart.as_str()))}" · "{i18n.t(&format!("staff.figures.grain.{}", q.grain.as_str()))}</h2>
            <Chart view=view.clone()/>
        </section>
        <section class="card" aria-labelledby="figures-table-title">
            <h2 id="figures-table-title">{i18n.t(&format!("staff.figures.dim.{}", q.by.as_str()))}</h2>
            {if empty {
                view! { <p class="notice" data-testid="figures-none">{use_i18n().t("staff.figures.empty")}</p> }.into_any()
            } else {
                view! { <Table view=view.clone()/> }.into_any()
            }}
            <p class="muted">{i18n.t("staff.figures.cohort_note")}</p>
            <p><a href=csv download="figures.csv" data-testid="figures-csv">{i18n.t("staff.figures.csv")}</a></p>
        </section>
    }
}

#[component]
fn FilterForm(view: FiguresView) -> impl IntoView {
    let i18n = use_i18n();
    let q = view.query;
    let day = |d: i64| Grain::Day.label(d);
    let option = |value: String, label: String, selected: bool| view! { <option value=value selected=selected>{label}</option> };
    view! {
        <form method="get" action=PAGE class="form staff-figures__filters card" role="search" data-testid="figures-filters">
            <input type="hidden" name="sort" value=q.sort.as_str()/>
            <input type="hidden" name="dir" value=if q.ascending { "asc" } else { "desc" }/>
            <label class="field"><span class="field__label">{i18n.t("staff.figures.from")}</span>
                <input type="date" name="from" value=day(q.from) required/>
            </label>
            <label class="field"><span class="field__label">{i18n.t("staff.figures.to")}</span>
                <input type="date" name="to" value=day(q.to) required/>
            </label>
            <label class="field"><span class="field__label">{i18n.t("staff.figures.network")}</span>
                <select name="network">
                    {option(String::new(), i18n.t("staff.figures.all_networks"), q.network.is_empty())}
                    {view.funnel.networks.iter().map(|n| option(n.clone(), n.clone(), *n == q.network)).collect_view()}
                </select>
            </label>
            <label class="field"><span class="field__label">{i18n.t("staff.figures.by")}</span>
                <select name="by">
                    {Dimension::GROUPS.iter().map(|d| option(d.as_str().into(), i18n.t(&format!("staff.figures.dim.{}", d.as_str())), *d == q.by)).collect_view()}
                </select>
            </label>
            <label class="field"><span class="field__label">{i18n.t("staff.figures.chart")}</span>
                <select name="chart">
                    {Metric::all().map(|m| option(m.as_str().into(), i18n.t(&format!("staff.figures.metric.{}", m.as_str())), m == q.chart)).collect_view()}
                </select>
            </label>
            <label class="field"><span class="field__label">{i18n.t("staff.figures.grain")}</span>
                <select name="grain">
                    {Grain::all().map(|g| option(g.as_str().into(), i18n.t(&format!("staff.figures.grain.{}", g.as_str())), g == q.grain)).collect_view()}
                </select>
            </label>
            {(view.funnel.currencies.len() > 1).then(|| view! {
                <label class="field"><span class="field__label">{use_i18n().t("staff.figures.currency")}</span>
                    <select name="currency">
                        {view.funnel.currencies.iter().map(|c| view! { <option value=c.clone() selected=*c == view.funnel.currency>{c.clone()}</option> }).collect_view()}
                    </select>
                </label>
            })}
            <button type="submit" class="btn btn--primary">{i18n.t("staff.figures.show")}</button>
        </form>
    }
}

/// The chosen figure per period, as a server-drawn SVG line with a dot per period (each dot's
/// title gives its period and value), the highest value and the first and last period named.
#[component]
fn Chart(view: FiguresView) -> impl IntoView {
    let i18n = use_i18n();
    let metric = view.query.chart;
    let grain = view.query.grain;
    let (w, h, pad_x, pad_top, pad_bottom) = (640.0_f64, 200.0_f64, 8.0_f64, 16.0_f64, 8.0_f64);
    let values: Vec<f64> = view.funnel.periods.iter().map(|(_, c)| c.value(metric)).collect();
    let max = values.iter().copied().fold(0.0_f64, f64::max);
    let min = values.iter().copied().fold(0.0_f64, f64::min);
    let span = if max - min > 0.0 { max - min } else { 1.0 };
    let n = values.len().max(1);
    let x = |i: usize| if n == 1 { w / 2.0 } else { pad_x + (w - 2.0 * pad_x) * i as f64 / (n - 1) as f64 };
    let y = |v: f64| pad_top + (h - pad_top - pad_bottom) * (1.0 - (v - min) / span);
    let points = values.iter().enumerate().map(|(i, v)| format!("{:.1},{:.1}", x(i), y(*v))).collect::<Vec<_>>().join(" ");
    let highest = view.funnel.periods.iter().max_by(|a, b| a.1.value(metric).partial_cmp(&b.1.value(metric)).unwrap_or(std::cmp::Ordering::Equal));
    let highest_text =
        highest.map(|(_, c)| shown(&i18n, metric, c, &view.funnel.currency)).unwrap_or_else(|| shown(&i18n, metric, &Counts::default(), &view.funnel.currency));
    let first = view.funnel.periods.first().map(|(s, _)| grain.label(*s)).unwrap_or_default();
    let last = view.funnel.periods.last().map(|(s, _)| grain.label(*s)).unwrap_or_default();
    let label = format!("{} · {} – {}", i18n.t(&format!("staff.figures.metric.{}", metric.as_str())), first, last);
    let dots = view
        .funnel
        .periods
        .iter()
        .enumerate()
        .map(|(i, (start, c))| {
            let title = format!("{}: {}", grain.label(*start), shown(&i18n, metric, c, &view.funnel.currency));
            view! { <circle cx=format!("{:.1}", x(i)) cy=format!("{:.1}", y(c.value(metric))) r="3"><title>{title}</title></circle> }
        })
        .collect_view();
    view! {
        <figure class="figures-chart" data-testid="figures-chart">
            <svg viewBox=format!("0 0 {w} {h}") role="img" aria-label=label.clone()>
                <line x1="0" y1=format!("{:.1}", y(min.max(0.0).min(max))) x2=w.to_string() y2=format!("{:.1}", y(min.max(0.0).min(max))) class="figures-chart__axis"/>
                <polyline points=points class="figures-chart__line"/>
                {dots}
            </svg>
            <figcaption class="figures-chart__caption">
                <span>{first}</span>
                <span>{i18n.t("staff.figures.highest")}" "{highest_text}</span>
                <span>{last}</span>
            </figcaption>
        </figure>
    }
}

#[component]
fn Table(view: FiguresView) -> impl IntoView {
    let i18n = use_i18n();
    let q = view.query.clone();
    let currency = view.funnel.currency.clone();
    let header = Metric::all()
        .map(|m| {
            let active = m == q.sort;
            // A second click on the sorted column turns the order round.
            let href = format!(
                "{PAGE}?{}",
                q.href(|q| {
                    q.ascending = active && !q.ascending;
                    q.sort = m;
                })
            );
            let sort = if !active {
                "none"
            } else if q.ascending {
                "ascending"
            } else {
                "descending"
            };
            view! { <th scope="col" aria-sort=sort><a href=href>{use_i18n().t(&format!("staff.figures.metric.{}", m.as_str()))}</a></th> }
        })
        .collect_view();
    let cells = move |counts: Counts, currency: String| {
        Metric::all().map(move |m| view! { <td class="num">{shown(&use_i18n(), m, &counts, &currency)}</td> }).collect_view()
    };
    let by = q.by;
    let rows = view
        .funnel
        .rows
        .into_iter()
        .map(|r| {
            let name = value_label(&use_i18n(), by, &r.value);
            // The row's name leads to the members behind it (visits alone bring none).
            let members = format!("{MEMBERS_PAGE}?{}&value={}", q.href(|_| {}), domain::account::percent_encode(&r.value));
            let name = if r.counts.signups > 0 { view! { <a href=members>{name}</a> }.into_any() } else { view! { <span>{name}</span> }.into_any() };
            view! { <tr data-testid="figures-row"><th scope="row">{name}</th>{cells(r.counts, currency.clone())}</tr> }
        })
        .collect_view();
    view! {
        <div class="table-scroll" tabindex="0" role="region" aria-labelledby="figures-table-title">
            <table class="staff-log staff-figures__table" data-testid="figures-table">
                <thead><tr><th scope="col">{i18n.t(&format!("staff.figures.dim.{}", by.as_str()))}</th>{header}</tr></thead>
                <tbody>
                    {rows}
                    {view.rest.map(|(n, counts)| view! {
                        <tr data-testid="figures-rest"><th scope="row">{use_i18n().plural("staff.figures.rest", n as i64, &[])}</th>{cells(counts, view.funnel.currency.clone())}</tr>
                    })}
                </tbody>
                <tfoot><tr data-testid="figures-total"><th scope="row">{i18n.t("staff.figures.total")}</th>{cells(view.funnel.total, view.funnel.currency.clone())}</tr></tfoot>
            </table>
        </div>
    }
}

/// The list of a source's members.
pub const MEMBERS_PAGE: &str = "/staff/figures/members";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceMemberView {
    pub id: i64,
    pub name: String,
    pub signup: String,
    pub status: String,
    pub paid: bool,
    pub country: String,
    pub device: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceMembersView {
    pub query: FigureQuery,
    pub value: String,
    pub members: Vec<SourceMemberView>,
}

/// The members a row of the figures stands for (`value` of the query's grouping).
#[server(prefix = "/api/fn", endpoint = "staff_figure_members", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_figure_members(query: String) -> Result<SourceMembersView, ApiError> {
    let (c, member) = staff_call(StaffArea::Figures).await?;
    let q = FigureQuery::parse(|k| param(&query, k), c.now().div_euclid(86_400));
    let value: String = param(&query, "value").unwrap_or_default().chars().take(domain::figures::VALUE_MAX_CHARS).collect();
    let members = c.state.figures.members(&member, c.site.settings.id, &q, &value).await.map_err(fail)?;
    Ok(SourceMembersView {
        query: q,
        value,
        members: members
            .into_iter()
            .map(|m| SourceMemberView {
                id: m.id,
                name: m.name.unwrap_or_default(),
                signup: Grain::Day.label(m.signup_at.div_euclid(86_400)),
                status: m.status,
                paid: m.paid_user,
                country: m.country.unwrap_or_default(),
                device: m.device.unwrap_or_default(),
            })
            .collect(),
    })
}

#[component]
pub fn FigureMembersPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Figures) {
        return refused;
    }
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let params: String = PARAMS
        .iter()
        .chain(["value"].iter())
        .filter_map(|k| query.get(k).map(|v| format!("{k}={}", domain::account::percent_encode(&v))))
        .collect::<Vec<_>>()
        .join("&");
    let data = Resource::new_blocking(move || params.clone(), staff_figure_members);
    view! {
        <Title text=i18n.t("staff.figures.members")/>
        <div class="container page staff-figures">
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| match result {
                    Ok(view) => view! { <SourceMembers view=view/> }.into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    }
    .into_any()
}

#[component]
fn SourceMembers(view: SourceMembersView) -> impl IntoView {
    let i18n = use_i18n();
    let q = view.query.clone();
    let roles = crate::context::use_page_ctx().member.as_ref().map(|m| m.staff).unwrap_or_default();
    let (files, payments) = (roles.may(StaffArea::Members), roles.may(StaffArea::Payments));
    let within = if q.network.is_empty() { String::new() } else { format!(" · {}", q.network) };
    let what = format!(
        "{}: {}{within} · {} – {}",
        i18n.t(&format!("staff.figures.dim.{}", q.by.as_str())),
        value_label(&i18n, q.by, &view.value),
        Grain::Day.label(q.from),
        Grain::Day.label(q.to)
    );
    let back = format!("{PAGE}?{}", q.href(|_| {}));
    let list = if view.members.is_empty() {
        view! { <p class="notice" data-testid="source-members-none">{i18n.t("staff.figures.members_none")}</p> }.into_any()
    } else {
        view! {
            <div class="table-scroll" tabindex="0" role="region" aria-labelledby="source-members-title">
                <table class="staff-log" data-testid="source-members">
                    <thead><tr>
                        <th scope="col">{i18n.t("staff.figures.member")}</th>
                        <th scope="col">{i18n.t("staff.figures.signed_up")}</th>
                        <th scope="col">{i18n.t("staff.figures.state")}</th>
                        <th scope="col">{i18n.t("staff.figures.dim.country")}</th>
                        <th scope="col">{i18n.t("staff.figures.dim.device")}</th>
                    </tr></thead>
                    <tbody>
                        {view.members.into_iter().map(|m| {
                            let i18n = use_i18n();
                            let who = format!("#{} {}", m.id, m.name);
                            let state = format!(
                                "{}{}",
                                i18n.t(&format!("staff.members.status.{}", m.status)),
                                if m.paid { format!(" · {}", i18n.t("staff.figures.paid")) } else { String::new() }
                            );
                            view! {
                                <tr data-testid="source-member">
                                    <th scope="row">
                                        {if files { view! { <a href=format!("/staff/members?q=%23{}", m.id)>{who.clone()}</a> }.into_any() } else { view! { <span>{who.clone()}</span> }.into_any() }}
                                        {payments.then(|| view! { " · "<a href=format!("/staff/payments?member={}", m.id)>{use_i18n().t("staff.figures.payments")}</a> })}
                                    </th>
                                    <td>{m.signup.clone()}</td>
                                    <td>{state}</td>
                                    <td>{value_label(&i18n, Dimension::Country, &m.country)}</td>
                                    <td>{value_label(&i18n, Dimension::Device, &m.device)}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        }.into_any()
    };
    view! {
        <h1>{i18n.t("staff.figures.members")}</h1>
        <p><a href=back>{i18n.t("staff.figures.back")}</a></p>
        <section class="card" aria-labelledby="source-members-title">
            <h2 id="source-members-title">{what}</h2>
            <p class="muted">{i18n.t("staff.figures.members_intro")}</p>
            {list}
        </section>
    }
}
