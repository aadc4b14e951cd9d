//! `/staff/complaints`: complaints and reports, open or handled, and `/staff`: the staff pages
//! and the log of what staff did.

use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, redirect, staff_call};

use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::use_i18n;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComplaintView {
    pub id: i64,
    pub reference: String,
    pub created_at: i64,
    pub name: String,
    pub email: String,
    pub category: String,
    pub concerning: String,
    pub body: String,
    pub reporter_id: Option<i64>,
    pub member: Option<(i64, String)>,
    pub conversation_id: Option<i64>,
    pub handled: Option<(String, i64)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StaffActionView {
    pub staff_name: String,
    pub action: String,
    pub target: String,
    pub detail: String,
    pub created_at: i64,
}

fn status_of(text: &str) -> bool {
    text == "handled"
}

/// The site's complaints, open (default) or handled; staff only.
#[server(prefix = "/api/fn", endpoint = "staff_complaints", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_complaints(status: String) -> Result<Vec<ComplaintView>, ApiError> {
    use server::complaints::Status;
    let (c, member) = staff_call(StaffArea::Complaints).await?;
    let status = if status_of(&status) { Status::Handled } else { Status::Open };
    let list = c.state.complaints.list(&member, c.site.settings.id, status, 200).await.map_err(fail)?;
    Ok(list
        .into_iter()
        .map(|k| ComplaintView {
            id: k.id,
            reference: k.reference,
            created_at: k.created_at,
            name: k.name,
            email: k.email,
            category: k.category.as_str().to_string(),
            concerning: k.concerning,
            body: k.body,
            reporter_id: k.reporter_id,
            member: k.member,
            conversation_id: k.conversation_id,
            handled: k.handled_at.map(|at| (k.handled_by.unwrap_or_default(), at)),
        })
        .collect())
}

/// Marks a complaint handled (`handled` present) or open again; staff only, logged.
#[server(prefix = "/api/fn", endpoint = "set_complaint_status")]
pub async fn set_complaint_status(id: i64, handled: Option<String>) -> Result<(), ApiError> {
    use server::complaints::Status;
    let (c, member) = staff_call(StaffArea::Complaints).await?;
    let status = if handled.is_some() { Status::Handled } else { Status::Open };
    c.state.complaints.set_status(&member, c.site.settings.id, id, status, c.now()).await.map_err(fail)?;
    redirect(if handled.is_some() { "/staff/complaints?saved=1" } else { "/staff/complaints?status=handled&saved=1" });
    Ok(())
}

/// The latest lines of the staff log; staff only.
#[server(prefix = "/api/fn", endpoint = "staff_log", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_log() -> Result<Vec<StaffActionView>, ApiError> {
    let (c, member) = staff_call(StaffArea::Log).await?;
    let log = c.state.staff.log(&member, c.site.settings.id, 100).await.map_err(fail)?;
    Ok(log
        .into_iter()
        .map(|a| StaffActionView { staff_name: a.staff_name, action: a.action, target: a.target, detail: a.detail, created_at: a.created_at })
        .collect())
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BounceFigureView {
    pub lander: String,
    pub bounces: i64,
    pub with_source: i64,
}

/// Bounces per lander over the last 30 days; staff only.
#[server(prefix = "/api/fn", endpoint = "staff_bounces", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_bounces() -> Result<Vec<BounceFigureView>, ApiError> {
    let (c, member) = staff_call(StaffArea::Log).await?;
    let since = c.now() - 30 * 86_400;
    let figures = c.state.landers.bounce_figures(&member, c.site.settings.id, since).await.map_err(fail)?;
    Ok(figures.into_iter().map(|f| BounceFigureView { lander: f.lander, bounces: f.bounces, with_source: f.with_source }).collect())
}

fn when(unix: i64) -> String {
    domain::date::from_unix(unix).to_string()
}

#[component]
fn ComplaintItem(item: ComplaintView) -> impl IntoView {
    let i18n = use_i18n();
    let category = i18n.t(&format!("complaints.category.{}", item.category));
    let handled = item.handled.clone();
    view! {
        <li class="card staff-complaint" data-testid="staff-complaint" data-reference=item.reference.clone()>
            <header class="staff-complaint__head">
                <strong>{item.reference.clone()}</strong>
                <span class="badge">{category}</span>
                <span class="muted">{when(item.created_at)}</span>
            </header>
            <dl class="staff-complaint__meta">
                <div><dt>{i18n.t("staff.complaints.from")}</dt><dd>{format!("{} <{}>", item.name, item.email)}{item.reporter_id.map(|id| format!(" (#{id})"))}</dd></div>
                {(!item.concerning.is_empty()).then(|| view! { <div><dt>{use_i18n().t("complaints.concerning")}</dt><dd>{item.concerning.clone()}</dd></div> })}
                {item.member.clone().map(|(id, name)| view! {
                    <div><dt>{use_i18n().t("complaints.reported_member")}</dt><dd><a href=crate::paths::member(id)>{format!("{name} (#{id})")}</a></dd></div>
                })}
                {item.conversation_id.map(|id| view! { <div><dt>{use_i18n().t("complaints.reported_conversation")}</dt><dd>{format!("#{id}")}</dd></div> })}
            </dl>
            <p class="staff-complaint__body">{item.body.clone()}</p>
            {handled.clone().map(|(by, at)| view! { <p class="muted">{use_i18n().tf("staff.complaints.handled_by", &[("name", &by), ("date", &when(at))])}</p> })}
            <ActionForm action={ServerAction::<SetComplaintStatus>::new()}>
                <input type="hidden" name="id" value=item.id.to_string()/>
                {if handled.is_none() {
                    view! {
                        <input type="hidden" name="handled" value="1"/>
                        <button type="submit" class="btn btn--primary btn--small" data-testid="mark-handled">{use_i18n().t("staff.complaints.mark_handled")}</button>
                    }.into_any()
                } else {
                    view! { <button type="submit" class="btn btn--ghost btn--small" data-testid="reopen">{use_i18n().t("staff.complaints.reopen")}</button> }.into_any()
                }}
            </ActionForm>
        </li>
    }
}

#[component]
pub fn StaffComplaintsPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Complaints) {
        return refused;
    }
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let handled = status_of(query.get("status").as_deref().unwrap_or_default());
    let saved = query.get("saved").is_some();
    let list = Resource::new_blocking(move || handled, |h| staff_complaints(if h { "handled".into() } else { "open".into() }));
    let tab = move |is_handled: bool, key: &'static str| {
        let href = if is_handled { "/staff/complaints?status=handled" } else { "/staff/complaints" };
        let current = (is_handled == handled).then_some("page");
        view! { <a class="tabs__tab" class:tabs__tab--active=is_handled == handled aria-current=current href=href>{use_i18n().t(key)}</a> }
    };
    view! {
        <Title text=i18n.t("staff.complaints.title")/>
        <div class="container page">
            <p><a href="/staff">{i18n.t("staff.home.title")}</a></p>
            <h1>{i18n.t("staff.complaints.title")}</h1>
            <nav class="tabs" aria-label=i18n.t("staff.complaints.title")>{tab(false, "staff.complaints.open")}{tab(true, "staff.complaints.handled")}</nav>
            {saved.then(|| view! { <p class="notice notice--ok" role="status" data-testid="saved">{use_i18n().t("staff.complaints.saved")}</p> })}
            <crate::ui::forms::ActionError action={ServerAction::<SetComplaintStatus>::new()}/>
            <Suspense fallback=|| ()>
                {move || list.get().map(|result| match result {
                    Ok(items) if items.is_empty() => view! { <p class="notice" data-testid="complaints-empty">{use_i18n().t("staff.complaints.none")}</p> }.into_any(),
                    Ok(items) => view! { <ul class="staff-complaints">{items.into_iter().map(|item| view! { <ComplaintItem item=item/> }).collect_view()}</ul> }.into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    }
    .into_any()
}

#[component]
pub fn StaffHomePage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Home) {
        return refused;
    }
    let i18n = use_i18n();
    let roles = crate::context::use_page_ctx().member.as_ref().map(|m| m.staff).unwrap_or_default();
    // Each link only for the roles that can use it (the pages check again).
    let links: [(StaffArea, &'static str, &'static str); 16] = [
        (StaffArea::Complaints, "/staff/complaints", "staff.home.complaints"),
        (StaffArea::Members, "/staff/members", "staff.home.members"),
        (StaffArea::Photos, "/staff/photos", "staff.home.photos"),
        (StaffArea::Photos, crate::features::staff::texts::PAGE, "staff.texts.title"),
        (StaffArea::Photos, crate::features::staff::chat_photos::PAGE, "staff.chat_photos.title"),
        (StaffArea::Console, "/staff/chats", "staff.home.chats"),
        (StaffArea::Held, crate::paths::STAFF_HELD, "staff.held.title"),
        (StaffArea::Site, "/staff/site", "staff.home.site"),
        (StaffArea::Pricing, "/staff/pricing", "staff.home.pricing"),
        (StaffArea::Invitations, "/invitations", "invite.title"),
        (StaffArea::Payments, "/staff/payments", "staff.home.payments"),
        (StaffArea::Jobs, "/staff/jobs", "staff.jobs.title"),
        (StaffArea::Figures, crate::features::staff::figures::PAGE, "staff.figures.title"),
        (StaffArea::Figures, crate::features::staff::postbacks::PAGE, "staff.postbacks.title"),
        (StaffArea::Figures, crate::features::staff::splits::PAGE, "staff.tests.title"),
        (StaffArea::Site, "/staff/mails", "staff.mails.title"),
    ];
    let figures = roles.may(StaffArea::Log);
    view! {
        <Title text=i18n.t("staff.home.title")/>
        <div class="container page">
            <h1>{i18n.t("staff.home.title")}</h1>
            <p data-testid="staff-roles">{i18n.t("staff.home.roles")}": "{roles.iter().map(|r| i18n.t(&format!("staff.role.{}", r.as_str()))).collect::<Vec<_>>().join(", ")}</p>
            <ul class="staff-links">
                {links.into_iter().filter(|(area, ..)| roles.may(*area)).map(|(_, href, label)| view! {
                    <li><a class="btn btn--ghost" href=href>{use_i18n().t(label)}</a></li>
                }).collect_view()}
            </ul>
            {roles.may(StaffArea::OperatorFigures).then(|| view! { <super::operators::OperatorFigures/> })}
            {figures.then(|| view! { <StaffFigures/> })}
        </div>
    }
    .into_any()
}

/// The admins' part of `/staff`: bounces per lander and the staff log.
#[component]
fn StaffFigures() -> impl IntoView {
    let i18n = use_i18n();
    let log = Resource::new_blocking(|| (), |_| staff_log());
    let bounces = Resource::new_blocking(|| (), |_| staff_bounces());
    view! {
        <h2>{i18n.t("staff.bounces.title")}</h2>
        <Suspense fallback=|| ()>
            {move || bounces.get().map(|result| listed(result, "staff.bounces.none", |rows| {
                let i18n = use_i18n();
                view! {
                    <div class="table-scroll">
                        <table class="staff-log" data-testid="staff-bounces">
                            <thead><tr><th scope="col">{i18n.t("staff.bounces.lander")}</th><th scope="col">{i18n.t("staff.bounces.count")}</th><th scope="col">{i18n.t("staff.bounces.with_source")}</th></tr></thead>
                            <tbody>
                                {rows.into_iter().map(|r| view! { <tr><td>{r.lander}</td><td>{r.bounces.to_string()}</td><td>{r.with_source.to_string()}</td></tr> }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }.into_any()
            }))}
        </Suspense>
        <h2>{i18n.t("staff.log.title")}</h2>
        <Suspense fallback=|| ()>
            {move || log.get().map(|result| listed(result, "staff.log.none", |lines| {
                let i18n = use_i18n();
                view! {
                    <div class="table-scroll">
                        <table class="staff-log" data-testid="staff-log">
                            <thead><tr><th scope="col">{i18n.t("staff.log.when")}</th><th scope="col">{i18n.t("staff.log.who")}</th><th scope="col">{i18n.t("staff.log.what")}</th><th scope="col">{i18n.t("staff.log.target")}</th></tr></thead>
                            <tbody>
                                {lines.into_iter().map(|l| view! {
                                    <tr><td>{when(l.created_at)}</td><td>{l.staff_name}</td><td>{use_i18n().t(&format!("staff.action.{}", l.action))}</td><td>{l.target}{(!l.detail.is_empty()).then(|| format!(" · {}", l.detail))}</td></tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }.into_any()
            }))}
        </Suspense>
    }
}

/// A list read for the page: its notice when it is empty, its table, or the general error.
fn listed<T>(result: Result<Vec<T>, ApiError>, none: &'static str, table: impl FnOnce(Vec<T>) -> AnyView) -> AnyView {
    match result {
        Ok(rows) if rows.is_empty() => view! { <p class="notice">{use_i18n().t(none)}</p> }.into_any(),
        Ok(rows) => table(rows),
        Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
    }
}
