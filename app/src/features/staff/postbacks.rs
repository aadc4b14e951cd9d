//! `/staff/figures/postbacks` (admins and finance): the URLs each traffic network is told of
//! signups, confirmations, purchases and reversals at, with their macros, and each call Vonk
//! made with the network's answer — a failed one is sent again (`server::postbacks`).

use domain::postbacks::{PostbackEvent, MACROS};
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

/// The page's address.
pub const PAGE: &str = "/staff/figures/postbacks";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UrlView {
    pub network: String,
    pub event: String,
    pub url: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallView {
    pub id: i64,
    pub member: Option<i64>,
    pub network: String,
    pub event: String,
    pub url: String,
    pub status: String,
    pub attempts: i64,
    pub http_status: Option<i64>,
    pub answer: String,
    pub at: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PostbacksView {
    pub urls: Vec<UrlView>,
    pub calls: Vec<CallView>,
}

#[server(prefix = "/api/fn", endpoint = "staff_postbacks", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_postbacks() -> Result<PostbacksView, ApiError> {
    let (c, member) = staff_call(StaffArea::Figures).await?;
    let site = c.site.settings.id;
    let urls = c.state.postbacks.urls(&member, site).await.map_err(fail)?;
    let calls = c.state.postbacks.calls(&member, site, 100).await.map_err(fail)?;
    Ok(PostbacksView {
        urls: urls.into_iter().map(|u| UrlView { network: u.network, event: u.event, url: u.url }).collect(),
        calls: calls
            .into_iter()
            .map(|p| CallView {
                id: p.id,
                member: p.user_id,
                network: p.network,
                event: p.event,
                url: p.url,
                status: p.status,
                attempts: p.attempts,
                http_status: p.http_status,
                answer: p.answer.unwrap_or_default(),
                at: domain::date::from_unix(p.sent_at.unwrap_or(p.created_at)).to_string(),
            })
            .collect(),
    })
}

/// Sets (or replaces) a network's URL for an event; logged.
#[server(prefix = "/api/fn", endpoint = "staff_postback_save")]
pub async fn staff_postback_save(network: String, event: String, url: String) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Figures).await?;
    match c.state.postbacks.set_url(&member, c.site.settings.id, &network, &event, &url).await {
        Ok(()) => redirect(&format!("{PAGE}?saved=1")),
        Err(error) => return Err(fail_back::<StaffPostbackSave>(error, PAGE, &[("network", &network), ("event", &event)])),
    }
    Ok(())
}

/// Removes a network's URL for an event; logged.
#[server(prefix = "/api/fn", endpoint = "staff_postback_delete")]
pub async fn staff_postback_delete(network: String, event: String) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Figures).await?;
    match c.state.postbacks.delete_url(&member, c.site.settings.id, &network, &event).await {
        Ok(()) => redirect(&format!("{PAGE}?saved=1")),
        Err(error) => return Err(fail_back::<StaffPostbackDelete>(error, PAGE, &[])),
    }
    Ok(())
}

/// Sends a failed call again; logged.
#[server(prefix = "/api/fn", endpoint = "staff_postback_resend")]
pub async fn staff_postback_resend(id: i64) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Figures).await?;
    match c.state.postbacks.resend(&member, c.site.settings.id, id).await {
        Ok(()) => redirect(&format!("{PAGE}?resent=1")),
        Err(error) => return Err(fail_back::<StaffPostbackResend>(error, PAGE, &[])),
    }
    Ok(())
}

fn event_label(event: &str) -> String {
    use_i18n().t(&format!("staff.postbacks.event.{event}"))
}

#[component]
pub fn PostbacksPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Figures) {
        return refused;
    }
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let (saved, resent) = (query.get("saved").is_some(), query.get("resent").is_some());
    let (network, event) = (query.get("network").unwrap_or_default(), query.get("event").unwrap_or_default());
    let data = Resource::new_blocking(|| (), |_| staff_postbacks());
    let macros = MACROS.iter().map(|m| format!("{{{m}}}")).collect::<Vec<_>>().join(" ");
    view! {
        <Title text=i18n.t("staff.postbacks.title")/>
        <div class="container page">
            <h1>{i18n.t("staff.postbacks.title")}</h1>
            <p class="muted">{i18n.t("staff.postbacks.intro")}</p>
            {saved.then(|| view! { <p class="notice notice--ok" role="status" data-testid="saved">{use_i18n().t("staff.site.saved")}</p> })}
            {resent.then(|| view! { <p class="notice notice--ok" role="status" data-testid="saved">{use_i18n().t("staff.postbacks.resent")}</p> })}
            <section class="card staff-settings" aria-labelledby="postback-new">
                <h2 id="postback-new">{i18n.t("staff.postbacks.set")}</h2>
                <p class="muted">{i18n.t("staff.postbacks.macros")}" "<code>{macros}</code></p>
                <ActionError action={ServerAction::<StaffPostbackSave>::new()}/>
                <ActionForm action={ServerAction::<StaffPostbackSave>::new()} attr:class="form staff-settings__grid" attr:data-testid="form-postback">
                    <label class="field">
                        <span class="field__label">{i18n.t("staff.postbacks.network")}</span>
                        <input type="text" name="network" value=network required maxlength=domain::postbacks::NETWORK_MAX_CHARS.to_string()/>
                    </label>
                    <label class="field">
                        <span class="field__label">{i18n.t("staff.postbacks.event")}</span>
                        <select name="event">
                            {PostbackEvent::ALL.into_iter().map(|e| view! { <option value=e.as_str() selected=event == e.as_str()>{event_label(e.as_str())}</option> }).collect_view()}
                        </select>
                    </label>
                    <label class="field">
                        <span class="field__label">{i18n.t("staff.postbacks.url")}</span>
                        <input type="url" name="url" required maxlength=domain::postbacks::URL_MAX_CHARS.to_string() placeholder="https://…?click={click_id}"/>
                    </label>
                    <button type="submit" class="btn btn--primary">{i18n.t("staff.site.save")}</button>
                </ActionForm>
            </section>
            <ActionError action={ServerAction::<StaffPostbackDelete>::new()}/>
            <ActionError action={ServerAction::<StaffPostbackResend>::new()}/>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| match result {
                    Ok(view) => view! { <PostbackTables view=view/> }.into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    }
    .into_any()
}

#[component]
fn PostbackTables(view: PostbacksView) -> impl IntoView {
    let i18n = use_i18n();
    let t = move |key: &str| i18n.t(key);
    view! {
        <section class="card" aria-labelledby="postback-urls">
            <h2 id="postback-urls">{t("staff.postbacks.urls")}</h2>
            {if view.urls.is_empty() {
                view! { <p class="notice" data-testid="postback-urls-none">{use_i18n().t("staff.postbacks.urls_none")}</p> }.into_any()
            } else {
                view! {
                    <ul class="postback-urls" data-testid="postback-urls">
                        {view.urls.into_iter().map(|u| view! {
                            <li class="postback-url" data-testid="postback-url">
                                <p class="postback-url__what"><strong>{u.network.clone()}</strong>" · "{event_label(&u.event)}</p>
                                <code class="staff-postback__url">{u.url.clone()}</code>
                                <ActionForm action={ServerAction::<StaffPostbackDelete>::new()}>
                                    <input type="hidden" name="network" value=u.network.clone()/>
                                    <input type="hidden" name="event" value=u.event.clone()/>
                                    <button type="submit" class="btn btn--small">{use_i18n().t("staff.postbacks.delete")}</button>
                                </ActionForm>
                            </li>
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </section>
        <section class="card" aria-labelledby="postback-calls">
            <h2 id="postback-calls">{t("staff.postbacks.calls")}</h2>
            {if view.calls.is_empty() {
                view! { <p class="notice" data-testid="postback-calls-none">{use_i18n().t("staff.postbacks.calls_none")}</p> }.into_any()
            } else {
                view! {
                    <div class="table-scroll">
                        <table class="staff-log" data-testid="postback-calls">
                            <thead><tr>
                                <th scope="col">{t("staff.postbacks.at")}</th><th scope="col">{t("staff.postbacks.network")}</th><th scope="col">{t("staff.postbacks.event")}</th>
                                <th scope="col">{t("staff.postbacks.member")}</th><th scope="col">{t("staff.postbacks.status")}</th><th scope="col">{t("staff.postbacks.answer")}</th>
                            </tr></thead>
                            <tbody>
                                {view.calls.into_iter().map(|c| {
                                    let failed = c.status == "failed";
                                    view! {
                                        <tr data-testid="postback-call">
                                            <td>{c.at.clone()}</td>
                                            <td>{c.network.clone()}</td>
                                            <td>{event_label(&c.event)}</td>
                                            <td>{c.member.map(|m| format!("#{m}")).unwrap_or_default()}</td>
                                            <td>
                                                <span class="status">{use_i18n().t(&format!("staff.postbacks.status.{}", c.status))}</span>
                                                " "{use_i18n().plural("staff.jobs.tries", c.attempts, &[])}
                                                {failed.then(|| view! {
                                                    <ActionForm action={ServerAction::<StaffPostbackResend>::new()}>
                                                        <input type="hidden" name="id" value=c.id.to_string()/>
                                                        <button type="submit" class="btn btn--small btn--primary" data-testid="resend">{use_i18n().t("staff.postbacks.resend")}</button>
                                                    </ActionForm>
                                                })}
                                            </td>
                                            <td class="staff-postback__url">
                                                {c.http_status.map(|s| format!("HTTP {s} ")).unwrap_or_default()}{c.answer.clone()}
                                                <br/><code>{c.url.clone()}</code>
                                            </td>
                                        </tr>
                                    }
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }.into_any()
            }}
        </section>
    }
}
