//! The operator figures on `/staff`: answers per operator per day over the last 30 days, the
//! median and 90th-percentile wait, what waits now and the longest wait; the same as CSV at
//! `/staff/operators.csv` (`server::http::staff_routes`).

use domain::ApiError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, staff_call};
use crate::i18n::use_i18n;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OperatorDayView {
    pub day: String,
    pub operator: String,
    pub answers: i64,
    pub median: Option<String>,
    pub p90: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OperatorFiguresView {
    pub days: Vec<OperatorDayView>,
    pub waiting_now: i64,
    pub oldest_wait: Option<String>,
}

/// Staff only (members get `not_found`).
#[server(prefix = "/api/fn", endpoint = "staff_operator_figures", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_operator_figures() -> Result<OperatorFiguresView, ApiError> {
    let (c, member) = staff_call(domain::staff::StaffArea::OperatorFigures).await?;
    let now = c.now();
    let since = now - server::http::staff_routes::OPERATOR_FIGURES_DAYS * 86_400;
    let f = c.state.chat.operator_figures(&member, c.site.settings.id, since).await.map_err(fail)?;
    let label = domain::operators::wait_label;
    Ok(OperatorFiguresView {
        days: f
            .days
            .iter()
            .map(|d| OperatorDayView {
                day: d.day.iso(),
                operator: f.names.get(&d.operator).cloned().unwrap_or_else(|| format!("#{}", d.operator)),
                answers: d.answers,
                median: d.median_secs.map(label),
                p90: d.p90_secs.map(label),
            })
            .collect(),
        waiting_now: f.waiting_now,
        oldest_wait: f.oldest_waiting_since.map(|since| label((now - since).max(0))),
    })
}

#[component]
pub fn OperatorFigures() -> impl IntoView {
    let i18n = use_i18n();
    let figures = Resource::new_blocking(|| (), |_| staff_operator_figures());
    view! {
        <h2 id="operators">{i18n.t("staff.operators.title")}</h2>
        <Suspense fallback=|| ()>
            {move || figures.get().map(|result| match result {
                Ok(f) => {
                    let i18n = use_i18n();
                    let waiting = match f.oldest_wait {
                        Some(wait) => i18n.plural("staff.operators.waiting", f.waiting_now, &[("wait", &wait)]),
                        None => i18n.t("staff.operators.none_waiting"),
                    };
                    let table = if f.days.is_empty() {
                        view! { <p class="notice">{i18n.t("staff.operators.none")}</p> }.into_any()
                    } else {
                        view! {
                            <div class="table-scroll" tabindex="0" role="region" aria-labelledby="operators">
                                <table class="staff-log" data-testid="staff-operators">
                                    <thead><tr>
                                        <th scope="col">{i18n.t("staff.operators.day")}</th>
                                        <th scope="col">{i18n.t("staff.operators.operator")}</th>
                                        <th scope="col">{i18n.t("staff.operators.answers")}</th>
                                        <th scope="col">{i18n.t("staff.operators.median")}</th>
                                        <th scope="col">{i18n.t("staff.operators.p90")}</th>
                                    </tr></thead>
                                    <tbody>
                                        {f.days.into_iter().map(|d| view! {
                                            <tr><td>{d.day}</td><td>{d.operator}</td><td>{d.answers.to_string()}</td><td>{d.median.unwrap_or_else(|| "–".into())}</td><td>{d.p90.unwrap_or_else(|| "–".into())}</td></tr>
                                        }).collect_view()}
                                    </tbody>
                                </table>
                            </div>
                        }.into_any()
                    };
                    view! {
                        <p data-testid="staff-operators-waiting">{waiting}</p>
                        {table}
                        <p><a href="/staff/operators.csv" download="operators.csv">{i18n.t("staff.operators.csv")}</a></p>
                    }.into_any()
                }
                Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
            })}
        </Suspense>
    }
}
