//! `/staff/members`: find a member by email or id; block or unblock them with a reason; grant or
//! take back the staff and operator roles. Every change lands in the staff log.

use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, redirect, staff_call};

use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemberRecordView {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub status: String,
    pub roles: domain::staff::StaffRoles,
    pub signup_date: i64,
    pub credits: i64,
    pub paid_user: bool,
    pub country: Option<String>,
    pub source: Option<String>,
    /// This lookup's one-time key for a credit correction: the same form sent twice books once.
    pub correction_key: String,
}

/// The member behind an email address or id, on this site; staff only.
#[server(prefix = "/api/fn", endpoint = "staff_find_member", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_find_member(q: String) -> Result<Option<MemberRecordView>, ApiError> {
    let (c, member) = staff_call(StaffArea::Members).await?;
    let found = c.state.staff.find(&member, c.site.settings.id, &q, c.now()).await.map_err(fail)?;
    Ok(found.map(|m| MemberRecordView {
        id: m.id,
        email: m.email,
        name: m.name,
        status: m.status,
        roles: m.roles,
        signup_date: m.signup_date,
        credits: m.credits,
        paid_user: m.paid_user,
        country: m.country,
        source: m.tracking_network,
        correction_key: server::accounts::tokens::random_hex::<16>(),
    }))
}

/// Corrects a member's credits through the ledger with a reason (support and admins; logged).
/// `key` comes with the member's record: a form sent twice books once.
#[server(prefix = "/api/fn", endpoint = "staff_correct_credits")]
pub async fn staff_correct_credits(id: i64, amount: String, reason: String, key: String) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Credits).await?;
    if let Err(error) = c.state.staff.correct_credits(&member, c.site.settings.id, id, &amount, &reason, &key, c.now()).await {
        let q = id.to_string();
        return Err(crate::call::fail_back::<StaffCorrectCredits>(error, "/staff/members", &[("q", q.as_str())]));
    }
    redirect(&crate::paths::staff_member_saved(id));
    Ok(())
}

/// One change to a member: `block` and `unblock` (with a reason; support and admins), `grant:{role}`
/// and `take:{role}` (admins); logged.
#[server(prefix = "/api/fn", endpoint = "staff_change_member")]
pub async fn staff_change_member(id: i64, change: String, #[server(default)] reason: String) -> Result<(), ApiError> {
    use domain::staff::StaffRole;
    use server::staff::MemberChange;
    let (c, member) = staff_call(StaffArea::Members).await?;
    let change = match change.as_str() {
        "block" => MemberChange::Block(reason.clone()),
        "unblock" => MemberChange::Unblock(reason.clone()),
        other => match other.split_once(':').and_then(|(way, role)| Some((way, StaffRole::parse(role)?))) {
            Some(("grant", role)) => MemberChange::Role(role, true),
            Some(("take", role)) => MemberChange::Role(role, false),
            _ => return Err(fail(domain::ErrorCode::ChoiceInvalid)),
        },
    };
    if let Err(error) = c.state.staff.change_member(&member, c.site.settings.id, id, change, c.now()).await {
        let q = id.to_string();
        return Err(crate::call::fail_back::<StaffChangeMember>(error, "/staff/members", &[("q", q.as_str())]));
    }
    redirect(&crate::paths::staff_member_saved(id));
    Ok(())
}

#[component]
fn ChangeButton(id: i64, #[prop(into)] change: String, label: String, #[prop(optional)] danger: bool) -> impl IntoView {
    view! {
        <ActionForm action={ServerAction::<StaffChangeMember>::new()}>
            <input type="hidden" name="id" value=id.to_string()/>
            <button type="submit" class="btn btn--ghost btn--small" class:btn--danger-ghost=danger data-testid=format!("change-{change}")>{label}</button>
            <input type="hidden" name="change" value=change/>
        </ActionForm>
    }
}

#[component]
fn MemberRecordCard(m: MemberRecordView) -> impl IntoView {
    let i18n = use_i18n();
    let blocked = m.status == "blocked";
    let status = i18n.t(&format!("staff.members.status.{}", m.status));
    let signup = i18n.date(m.signup_date);
    // Roles: admins only; credit corrections: support and admins (the server checks again).
    let viewer = crate::context::use_page_ctx().member.as_ref().map(|v| v.staff).unwrap_or_default();
    let admin = viewer.may(StaffArea::Roles);
    let corrects = viewer.may(StaffArea::Credits);
    let key = m.correction_key.clone();
    let roles = m.roles;
    let role_names = if roles.is_empty() {
        i18n.t("staff.members.role_member")
    } else {
        roles.iter().map(|r| i18n.t(&format!("staff.role.{}", r.as_str()))).collect::<Vec<_>>().join(", ")
    };
    let id = m.id;
    let role_buttons = admin.then(|| {
        domain::staff::StaffRole::ALL
            .into_iter()
            .map(|role| {
                let i18n = use_i18n();
                let name = i18n.t(&format!("staff.role.{}", role.as_str()));
                if roles.contains(role) {
                    view! { <ChangeButton id=id change=format!("take:{}", role.as_str()) label=i18n.tf("staff.members.take", &[("role", &name)]) danger=true/> }
                        .into_any()
                } else {
                    view! { <ChangeButton id=id change=format!("grant:{}", role.as_str()) label=i18n.tf("staff.members.grant", &[("role", &name)])/> }
                        .into_any()
                }
            })
            .collect_view()
    });
    let (block_change, block_label) = if blocked { ("unblock", i18n.t("staff.members.unblock")) } else { ("block", i18n.t("staff.members.block")) };
    view! {
        <section class="card staff-member" data-testid="staff-member">
            <h2>{format!("{} (#{})", m.name, m.id)}</h2>
            <dl class="staff-complaint__meta">
                <div><dt>{i18n.t("auth.email")}</dt><dd>{m.email.clone()}</dd></div>
                <div><dt>{i18n.t("staff.members.status")}</dt><dd data-testid="member-status">{status}</dd></div>
                <div><dt>{i18n.t("staff.members.role")}</dt><dd data-testid="member-roles">{role_names}</dd></div>
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
            {corrects.then(|| view! {
                <ActionForm action={ServerAction::<StaffCorrectCredits>::new()} attr:class="form staff-member__credits" attr:data-testid="form-credits">
                    <input type="hidden" name="id" value=id.to_string()/>
                    <input type="hidden" name="key" value=key/>
                    <label class="field">
                        <span class="field__label">{use_i18n().t("staff.members.credits_amount")}</span>
                        <input type="number" name="amount" step="1" min=(-domain::staff::CREDIT_CORRECTION_MAX).to_string() max=domain::staff::CREDIT_CORRECTION_MAX.to_string() required/>
                    </label>
                    <label class="field">
                        <span class="field__label">{use_i18n().t("staff.members.credits_reason")}</span>
                        <input type="text" name="reason" required maxlength=domain::account::STAFF_REASON_MAX_CHARS.to_string()/>
                    </label>
                    <button type="submit" class="btn btn--small btn--primary">{use_i18n().t("staff.members.credits_submit")}</button>
                </ActionForm>
            })}
            {role_buttons.map(|buttons| view! { <div class="staff-member__roles">{buttons}</div> })}
        </section>
    }
}

#[component]
pub fn StaffMembersPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Members) {
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
            <ActionError action={ServerAction::<StaffCorrectCredits>::new()}/>
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
