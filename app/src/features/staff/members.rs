//! `/staff/members`: find a member by email or id; block or unblock them with a reason; grant or
//! take back the staff and operator roles. Every change lands in the staff log.

use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, member_call, redirect};

use crate::features::staff::refuse_non_staff;
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemberRecordView {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub status: String,
    pub staff: bool,
    pub operator: bool,
    pub signup_date: i64,
    pub credits: i64,
    pub paid_user: bool,
    pub country: Option<String>,
    pub source: Option<String>,
}

/// The member behind an email address or id, on this site; staff only.
#[server(prefix = "/api/fn", endpoint = "staff_find_member", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_find_member(q: String) -> Result<Option<MemberRecordView>, ApiError> {
    let (c, member) = member_call().await?;
    let found = c.state.staff.find(&member, c.site.settings.id, &q).await.map_err(fail)?;
    Ok(found.map(|m| MemberRecordView {
        id: m.id,
        email: m.email,
        name: m.name,
        status: m.status,
        staff: m.role == domain::account::Role::Staff,
        operator: m.operator,
        signup_date: m.signup_date,
        credits: m.credits,
        paid_user: m.paid_user,
        country: m.country,
        source: m.tracking_network,
    }))
}

/// One change to a member: `block` and `unblock` (with a reason), `staff`, `member`,
/// `operator_on`, `operator_off`; staff only, logged.
#[server(prefix = "/api/fn", endpoint = "staff_change_member")]
pub async fn staff_change_member(id: i64, change: String, #[server(default)] reason: String) -> Result<(), ApiError> {
    use domain::account::Role;
    use server::staff::MemberChange;
    let (c, member) = member_call().await?;
    let change = match change.as_str() {
        "block" => MemberChange::Block(reason.clone()),
        "unblock" => MemberChange::Unblock(reason.clone()),
        "staff" => MemberChange::Role(Role::Staff),
        "member" => MemberChange::Role(Role::Member),
        "operator_on" => MemberChange::Operator(true),
        "operator_off" => MemberChange::Operator(false),
        _ => return Err(fail(domain::ErrorCode::ChoiceInvalid)),
    };
    if let Err(error) = c.state.staff.change_member(&member, c.site.settings.id, id, change, c.now()).await {
        let q = id.to_string();
        return Err(crate::call::fail_back::<StaffChangeMember>(error, "/staff/members", &[("q", q.as_str())]));
    }
    redirect(&crate::paths::staff_member_saved(id));
    Ok(())
}

#[component]
fn ChangeButton(id: i64, change: &'static str, label: String, #[prop(optional)] danger: bool) -> impl IntoView {
    view! {
        <ActionForm action={ServerAction::<StaffChangeMember>::new()}>
            <input type="hidden" name="id" value=id.to_string()/>
            <input type="hidden" name="change" value=change/>
            <button type="submit" class="btn btn--ghost btn--small" class:btn--danger-ghost=danger data-testid=format!("change-{change}")>{label}</button>
        </ActionForm>
    }
}

#[component]
fn MemberRecordCard(m: MemberRecordView) -> impl IntoView {
    let i18n = use_i18n();
    let blocked = m.status == "blocked";
    let status = i18n.t(&format!("staff.members.status.{}", m.status));
    let signup = i18n.date(m.signup_date);
    let role_button = if m.staff {
        view! { <ChangeButton id=m.id change="member" label=i18n.t("staff.members.make_member") danger=true/> }.into_any()
    } else {
        view! { <ChangeButton id=m.id change="staff" label=i18n.t("staff.members.make_staff")/> }.into_any()
    };
    let operator_button = if m.operator {
        view! { <ChangeButton id=m.id change="operator_off" label=i18n.t("staff.members.operator_off") danger=true/> }.into_any()
    } else {
        view! { <ChangeButton id=m.id change="operator_on" label=i18n.t("staff.members.operator_on")/> }.into_any()
    };
    let (block_change, block_label) = if blocked { ("unblock", i18n.t("staff.members.unblock")) } else { ("block", i18n.t("staff.members.block")) };
    view! {
        <section class="card staff-member" data-testid="staff-member">
            <h2>{format!("{} (#{})", m.name, m.id)}</h2>
            <dl class="staff-complaint__meta">
                <div><dt>{i18n.t("auth.email")}</dt><dd>{m.email.clone()}</dd></div>
                <div><dt>{i18n.t("staff.members.status")}</dt><dd data-testid="member-status">{status}</dd></div>
                <div><dt>{i18n.t("staff.members.role")}</dt><dd>
                    {if m.staff { i18n.t("staff.members.role_staff") } else { i18n.t("staff.members.role_member") }}
                    {m.operator.then(|| format!(" + {}", use_i18n().t("staff.members.role_operator")))}
                </dd></div>
                <div><dt>{i18n.t("staff.members.signup")}</dt><dd>{signup}</dd></div>
                <div><dt>{i18n.t("staff.members.credits")}</dt><dd>{m.credits.to_string()}{m.paid_user.then_some(" · premium")}</dd></div>
                {m.country.clone().map(|c| view! { <div><dt>{use_i18n().t("staff.members.country")}</dt><dd>{c}</dd></div> })}
                {m.source.clone().map(|s| view! { <div><dt>{use_i18n().t("staff.members.source")}</dt><dd>{s}</dd></div> })}
            </dl>
            <ActionForm action={ServerAction::<StaffChangeMember>::new()} attr:class="form staff-member__block">
                <input type="hidden" name="id" value=m.id.to_string()/>
                <input type="hidden" name="change" value=block_change/>
                <label class="field">
                    <span class="field__label">{i18n.t("staff.members.reason")}</span>
                    <input type="text" name="reason" required maxlength=domain::account::STAFF_REASON_MAX_CHARS.to_string()/>
                </label>
                <button type="submit" class="btn btn--small" class:btn--primary=blocked class:btn--danger=!blocked data-testid=format!("change-{block_change}")>{block_label}</button>
            </ActionForm>
            <div class="staff-member__roles">
                {role_button}
                {operator_button}
            </div>
        </section>
    }
}

#[component]
pub fn StaffMembersPage() -> impl IntoView {
    if let Some(refused) = refuse_non_staff("/staff/members") {
        return refused;
    }
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let q = query.get("q").map(|q| q.chars().take(254).collect::<String>()).unwrap_or_default();
    let saved = query.get("saved").is_some();
    let searched = q.trim().to_string();
    let found = Resource::new_blocking(
        move || searched.clone(),
        |q| async move {
            if q.is_empty() {
                Ok(None)
            } else {
                staff_find_member(q).await
            }
        },
    );
    let has_query = !q.trim().is_empty();
    view! {
        <Title text=i18n.t("staff.members.title")/>
        <div class="container container--narrow page">
            <p><a href="/staff">{i18n.t("staff.home.title")}</a></p>
            <h1>{i18n.t("staff.members.title")}</h1>
            <form method="get" action="/staff/members" class="form staff-search" role="search">
                <label class="field">
                    <span class="field__label">{i18n.t("staff.members.search")}</span>
                    <input type="search" name="q" value=q required maxlength="254"/>
                </label>
                <button type="submit" class="btn btn--primary">{i18n.t("staff.members.find")}</button>
            </form>
            {saved.then(|| view! { <p class="notice notice--ok" role="status" data-testid="saved">{use_i18n().t("staff.members.saved")}</p> })}
            <ActionError action={ServerAction::<StaffChangeMember>::new()}/>
            <Suspense fallback=|| ()>
                {move || found.get().map(|result| match result {
                    Ok(Some(m)) => view! { <MemberRecordCard m=m/> }.into_any(),
                    Ok(None) if has_query => view! { <p class="notice" data-testid="member-not-found">{use_i18n().t("staff.members.not_found")}</p> }.into_any(),
                    Ok(None) => ().into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    }
    .into_any()
}
