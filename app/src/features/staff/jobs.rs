//! `/staff/jobs` (admins): the lifecycle messages sent per kind and day with the members who
//! said no to them, the job queue per kind and state, and the jobs that failed every try with
//! their last error — each can be run again (`server::jobs`).

use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, fail_back, redirect, staff_call};

use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

/// Days of lifecycle figures shown.
#[cfg(feature = "ssr")]
const FIGURE_DAYS: i64 = 14;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LifecycleDay {
    pub day: String,
    pub kind: String,
    pub sent: i64,
    pub unsubscribed: i64,
    pub complained: i64,
}

/// One kind over the days shown: how many went out, and the share of them that ended in an
/// unsubscribe or a spam complaint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LifecycleRate {
    pub kind: String,
    pub sent: i64,
    pub unsubscribe_rate: String,
    pub complaint_rate: String,
}

/// `part` of `whole` as a percentage with one decimal ("0.4 %"); a dash without anything sent.
pub fn rate(part: i64, whole: i64) -> String {
    if whole <= 0 {
        return "–".into();
    }
    format!("{:.1} %", part as f64 * 100.0 / whole as f64)
}

/// The days' figures summed per kind, in the order kinds first appear.
pub fn rates(days: &[LifecycleDay]) -> Vec<LifecycleRate> {
    let mut kinds: Vec<(String, i64, i64, i64)> = Vec::new();
    for d in days {
        match kinds.iter_mut().find(|k| k.0 == d.kind) {
            Some(k) => (k.1, k.2, k.3) = (k.1 + d.sent, k.2 + d.unsubscribed, k.3 + d.complained),
            None => kinds.push((d.kind.clone(), d.sent, d.unsubscribed, d.complained)),
        }
    }
    kinds
        .into_iter()
        .map(|(kind, sent, unsubscribed, complained)| LifecycleRate {
            kind,
            sent,
            unsubscribe_rate: rate(unsubscribed, sent),
            complaint_rate: rate(complained, sent),
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueueCount {
    pub kind: String,
    pub status: String,
    pub jobs: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailedJobView {
    pub id: i64,
    pub kind: String,
    pub key: String,
    pub attempts: i64,
    pub error: String,
    pub at: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobsView {
    pub lifecycle: Vec<LifecycleDay>,
    pub queue: Vec<QueueCount>,
    pub failed: Vec<FailedJobView>,
}

#[server(prefix = "/api/fn", endpoint = "staff_jobs", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_jobs() -> Result<JobsView, ApiError> {
    let (c, member) = staff_call(StaffArea::Jobs).await?;
    let site = c.site.settings.id;
    let since = c.now() - FIGURE_DAYS * 86_400;
    let day = |d: i64| domain::date::from_unix(d * 86_400).to_string().chars().take(10).collect::<String>();
    let lifecycle = server::lifecycle::figures(&c.state.db, &member, site, since).await.map_err(fail)?;
    let queue = c.state.jobs.counts(&member, site, since).await.map_err(fail)?;
    let failed = c.state.jobs.failed(&member, site).await.map_err(fail)?;
    Ok(JobsView {
        lifecycle: lifecycle
            .into_iter()
            .map(|f| LifecycleDay { day: day(f.day), kind: f.kind, sent: f.sent, unsubscribed: f.unsubscribed, complained: f.complained })
            .collect(),
        queue: queue.into_iter().map(|q| QueueCount { kind: q.kind, status: q.status, jobs: q.jobs }).collect(),
        failed: failed
            .into_iter()
            .map(|j| FailedJobView {
                id: j.id,
                kind: j.kind,
                key: j.job_key,
                attempts: j.attempts,
                error: j.last_error.unwrap_or_default(),
                at: j.finished_at.map(|t| domain::date::from_unix(t).to_string()).unwrap_or_default(),
            })
            .collect(),
    })
}

/// Runs a failed job again (due now, its tries counted from nothing); logged.
#[server(prefix = "/api/fn", endpoint = "staff_retry_job")]
pub async fn staff_retry_job(id: i64) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Jobs).await?;
    match c.state.jobs.retry(&member, c.site.settings.id, id).await {
        Ok(Some(_)) => redirect("/staff/jobs?retried=1"),
        Ok(None) => redirect("/staff/jobs"),
        Err(error) => return Err(fail_back::<StaffRetryJob>(error, "/staff/jobs", &[])),
    }
    Ok(())
}

/// A kind's name as staff read it (`staff.jobs.kind.{kind}`), or the stored name.
fn kind_label(kind: &str) -> String {
    let i18n = use_i18n();
    let key = format!("staff.jobs.kind.{kind}");
    let text = i18n.t(&key);
    if text == key {
        kind.to_string()
    } else {
        text
    }
}

#[component]
pub fn JobsPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Jobs) {
        return refused;
    }
    let i18n = use_i18n();
    let retried = use_query_map().get_untracked().get("retried").is_some();
    let data = Resource::new_blocking(|| (), |_| staff_jobs());
    view! {
        <Title text=i18n.t("staff.jobs.title")/>
        <div class="container page">
            <h1>{i18n.t("staff.jobs.title")}</h1>
            <p class="muted">{i18n.t("staff.jobs.intro")}" "<a href="/staff/site#lifecycle">{i18n.t("staff.site.lifecycle")}</a></p>
            {retried.then(|| view! { <p class="notice notice--ok" role="status" data-testid="saved">{use_i18n().t("staff.jobs.retried")}</p> })}
            <ActionError action={ServerAction::<StaffRetryJob>::new()}/>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| match result {
                    Ok(view) => view! { <JobsTables view=view/> }.into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    }
    .into_any()
}

#[component]
fn JobsTables(view: JobsView) -> impl IntoView {
    let i18n = use_i18n();
    let t = move |key: &str| i18n.t(key);
    let empty = move || view! { <p class="notice">{use_i18n().t("staff.jobs.none")}</p> };
    view! {
        <section class="card" aria-labelledby="lifecycle-figures">
            <h2 id="lifecycle-figures">{t("staff.jobs.lifecycle")}</h2>
            {if view.lifecycle.is_empty() {
                empty().into_any()
            } else {
                let summary = rates(&view.lifecycle);
                view! {
                    <div class="table-scroll">
                        <table class="staff-log" data-testid="lifecycle-rates">
                            <caption>{t("staff.jobs.rates")}</caption>
                            <thead><tr><th scope="col">{t("staff.jobs.kind")}</th><th scope="col">{t("staff.jobs.sent")}</th><th scope="col">{t("staff.jobs.unsubscribe_rate")}</th><th scope="col">{t("staff.jobs.complaint_rate")}</th></tr></thead>
                            <tbody>
                                {summary.into_iter().map(|r| view! {
                                    <tr><td>{kind_label(&r.kind)}</td><td>{r.sent}</td><td>{r.unsubscribe_rate}</td><td>{r.complaint_rate}</td></tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                    <div class="table-scroll">
                        <table class="staff-log" data-testid="lifecycle-figures">
                            <thead><tr><th scope="col">{t("staff.jobs.day")}</th><th scope="col">{t("staff.jobs.kind")}</th><th scope="col">{t("staff.jobs.sent")}</th><th scope="col">{t("staff.jobs.unsubscribed")}</th><th scope="col">{t("staff.jobs.complaints")}</th></tr></thead>
                            <tbody>
                                {view.lifecycle.into_iter().map(|d| view! {
                                    <tr><td>{d.day}</td><td>{kind_label(&d.kind)}</td><td>{d.sent}</td><td>{d.unsubscribed}</td><td>{d.complained}</td></tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }.into_any()
            }}
        </section>
        <section class="card" aria-labelledby="job-queue">
            <h2 id="job-queue">{t("staff.jobs.queue")}</h2>
            {if view.queue.is_empty() {
                empty().into_any()
            } else {
                view! {
                    <div class="table-scroll">
                        <table class="staff-log" data-testid="job-queue">
                            <thead><tr><th scope="col">{t("staff.jobs.kind")}</th><th scope="col">{t("staff.jobs.status")}</th><th scope="col">{t("staff.jobs.count")}</th></tr></thead>
                            <tbody>
                                {view.queue.into_iter().map(|q| view! {
                                    <tr><td>{kind_label(&q.kind)}</td><td>{use_i18n().t(&format!("staff.jobs.state.{}", q.status))}</td><td>{q.jobs}</td></tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }.into_any()
            }}
        </section>
        <section class="card" aria-labelledby="failed-jobs">
            <h2 id="failed-jobs">{t("staff.jobs.failed")}</h2>
            {if view.failed.is_empty() {
                view! { <p class="notice" data-testid="failed-none">{use_i18n().t("staff.jobs.failed_none")}</p> }.into_any()
            } else {
                view! {
                    <ul class="held-list" data-testid="failed-jobs">
                        {view.failed.into_iter().map(|j| view! {
                            <li class="card held-item" data-testid="failed-job">
                                <div class="held-item__who"><strong>{kind_label(&j.kind)}</strong><span class="muted">{j.key.clone()}</span></div>
                                <p class="muted">{use_i18n().plural("staff.jobs.tries", j.attempts, &[])}" · "{j.at.clone()}</p>
                                <blockquote class="held-item__text">{j.error.clone()}</blockquote>
                                <ActionForm action={ServerAction::<StaffRetryJob>::new()}>
                                    <input type="hidden" name="id" value=j.id.to_string()/>
                                    <button type="submit" class="btn btn--primary btn--small" data-testid="retry">{use_i18n().t("staff.jobs.retry")}</button>
                                </ActionForm>
                            </li>
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </section>
    }
}
