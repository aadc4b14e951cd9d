//! Invitations (SPEC §3 `signups = invite_only`): `/invitations`, where staff (and members, when
//! the site lets them) make one-time signup links and see what became of them, and the gate in
//! front of the signup pages: on an invite-only site a visitor signs up only through an open
//! invitation's link (`/signup?invite=…`); anyone else reads why and may paste a code.

use domain::staff::{InviteSettings, SettingsForm};
use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{call, fail, fail_back, member_call, redirect};

use crate::context::use_page_ctx;
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

/// The longest note kept with an invitation (the server cuts longer ones).
const NOTE_MAX_CHARS: usize = 80;

/// What a signup page was opened with as `?invite=`: the code, or the whole link pasted into the
/// code field. `Some("")` when something was given that is no code.
fn invite_param() -> Option<String> {
    let raw = use_query_map().get_untracked().get("invite")?;
    let code = raw.rsplit("invite=").next().unwrap_or_default().trim().to_ascii_lowercase();
    Some(if code.len() == 64 && code.bytes().all(|b| b.is_ascii_hexdigit()) { code } else { String::new() })
}

/// The invitation a signup page was opened with (well-formed only).
pub fn invite_token() -> Option<String> {
    invite_param().filter(|t| !t.is_empty())
}

/// The signup form's hidden fields with the invitation added.
pub fn with_invitation(mut fields: Vec<(String, String)>) -> Vec<(String, String)> {
    if let Some(token) = invite_token() {
        fields.push(("invitation".into(), token));
    }
    fields
}

/// Whether `token` is an open invitation to this site. Not rate-limited: a code is 256 random
/// bits (nothing to guess), the check is one indexed read, and it must not use up the address's
/// signups (the signup itself is limited).
#[server(prefix = "/api/fn", endpoint = "invitation_open", input = leptos::server_fn::codec::GetUrl)]
pub async fn invitation_open(token: String) -> Result<bool, ApiError> {
    let c = call().await?;
    c.state.accounts.invitation_is_open(c.site.settings.id, &token).await.map_err(fail)
}

/// In front of a signup page: open sites and open invitations pass; otherwise the page says that
/// signing up needs an invitation (and that this one no longer works, when one was given).
#[component]
pub fn InviteGate(children: ChildrenFn) -> impl IntoView {
    let ctx = use_page_ctx();
    if !ctx.site.invite_only || ctx.member.is_some() {
        return children().into_any();
    }
    let given = invite_param();
    let check = Resource::new_blocking(
        move || given.clone(),
        |given| async move {
            match given {
                Some(t) if !t.is_empty() => Some(invitation_open(t).await.unwrap_or(false)),
                Some(_) => Some(false),
                None => None,
            }
        },
    );
    let children = StoredValue::new(children);
    view! {
        <Suspense fallback=|| ()>
            {move || check.get().map(|open| match open {
                Some(true) => view! {
                    <p class="notice notice--ok invite-welcome" role="status" data-testid="invited">{use_i18n().t("invite.welcome")}</p>
                    {children.read_value()()}
                }.into_any(),
                given => view! { <InviteOnly expired=given.is_some()/> }.into_any(),
            })}
        </Suspense>
    }
    .into_any()
}

/// Why a visitor cannot sign up here, and a field for an invitation's code.
#[component]
fn InviteOnly(expired: bool) -> impl IntoView {
    let i18n = use_i18n();
    let ctx = use_page_ctx();
    view! {
        <Title text=i18n.t("invite.closed_title")/>
        <div class="auth-page">
            <div class="auth-card" data-testid="invite-only">
                <h1 class="auth-card__title">{i18n.t("invite.closed_title")}</h1>
                {expired.then(|| view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.invitation_invalid")}</p> })}
                <p class="auth-card__intro">{i18n.tf("invite.closed_body", &[("site", &ctx.site.name)])}</p>
                <form method="get" action="/signup" class="form">
                    <label class="field">
                        <span class="field__label">{i18n.t("invite.code")}</span>
                        <input type="text" name="invite" required minlength="64" maxlength="64" autocomplete="off" spellcheck="false"/>
                    </label>
                    <button type="submit" class="btn btn--primary">{i18n.t("invite.use_code")}</button>
                </form>
                <p class="auth-card__switch">{i18n.t("auth.have_account")} " " <a href="/login">{i18n.t("auth.login_submit")}</a></p>
            </div>
        </div>
    }
}

/// One invitation as the page lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InvitationRow {
    pub id: i64,
    pub note: String,
    pub invited_by: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
    pub used_by: Option<String>,
    /// `open`, `used` or `expired`.
    pub state: String,
}

/// What `/invitations` shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InvitationsView {
    pub staff: bool,
    pub days: i64,
    /// Where invitation links lead (`https://site/signup?invite=`).
    pub link_base: String,
    pub rows: Vec<InvitationRow>,
    /// Staff only: who may invite and for how long.
    pub settings: Option<InviteSettings>,
}

#[server(prefix = "/api/fn", endpoint = "invitations", input = leptos::server_fn::codec::GetUrl)]
pub async fn invitations() -> Result<InvitationsView, ApiError> {
    let (c, member) = member_call().await?;
    let site = &c.site.settings;
    if !server::accounts::Accounts::may_invite(site, &member) {
        return Err(fail(server::AppError::from(domain::ErrorCode::NotFound)));
    }
    let now = c.now();
    let rows = c.state.accounts.invitations(site.id, &member).await.map_err(fail)?;
    let staff = member.may(domain::staff::StaffArea::Invitations);
    Ok(InvitationsView {
        staff,
        days: site.invitation_days,
        link_base: format!("{}/signup?invite=", c.base_url()),
        rows: rows
            .into_iter()
            .map(|r| InvitationRow {
                state: r.state(now).to_string(),
                id: r.id,
                note: r.note,
                invited_by: r.invited_by,
                created_at: r.created_at,
                expires_at: r.expires_at,
                used_by: r.used_by,
            })
            .collect(),
        settings: member.may(domain::staff::StaffArea::Site).then(|| InviteSettings::from(site)),
    })
}

/// Makes an invitation; the page then shows its link once (`?new=`).
#[server(prefix = "/api/fn", endpoint = "make_invitation")]
pub async fn make_invitation(#[server(default)] note: String) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    match c.state.accounts.invite(&c.site.settings, &member, &note).await {
        Ok(token) => redirect(&format!("/invitations?new={token}")),
        Err(error) => return Err(fail_back::<MakeInvitation>(error, "/invitations", &[])),
    }
    Ok(())
}

/// Withdraws an open invitation (its maker or staff).
#[server(prefix = "/api/fn", endpoint = "withdraw_invitation")]
pub async fn withdraw_invitation(id: i64) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.accounts.withdraw_invitation(c.site.settings.id, &member, id).await.map_err(fail)?;
    redirect("/invitations");
    Ok(())
}

/// Staff: who may invite and how long a link works (a declared settings form).
#[server(prefix = "/api/fn", endpoint = "staff_site_invitations")]
pub async fn staff_site_invitations(#[server(flatten)] settings: InviteSettings) -> Result<(), ApiError> {
    let (c, member) = crate::call::staff_call(domain::staff::StaffArea::Site).await?;
    if let Err(error) = c.state.staff.change_site(&member, c.site.settings.id, server::staff::SiteChange::Invitations(settings), c.now()).await {
        return Err(fail_back::<StaffSiteInvitations>(error, "/invitations", &[]));
    }
    c.state.sites.reload().await.map_err(fail)?;
    redirect("/invitations?saved=1");
    Ok(())
}

/// `/invitations`.
#[component]
pub fn InvitationsPage() -> impl IntoView {
    let i18n = use_i18n();
    let data = Resource::new_blocking(|| (), |_| invitations());
    view! {
        <Title text=i18n.t("invite.title")/>
        <div class="container container--narrow page">
            <h1>{i18n.t("invite.title")}</h1>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| match result {
                    Ok(view) => view! { <Invitations view=view/> }.into_any(),
                    Err(_) => view! { <crate::features::site::error_page::NotFoundPage/> }.into_any(),
                })}
            </Suspense>
        </div>
    }
}

#[component]
fn Invitations(view: InvitationsView) -> impl IntoView {
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let new_link = query.get("new").filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit())).map(|t| format!("{}{t}", view.link_base));
    let make = ServerAction::<MakeInvitation>::new();
    let date = |t: i64| use_i18n().date(t);
    let rows = view.rows.clone();
    let staff = view.staff;
    view! {
        <div class="card">
            <p>{i18n.tf("invite.intro", &[("duration", &i18n.duration(view.days * 86_400))])}</p>
            {new_link.map(|link| view! {
                <div class="notice notice--ok" role="status" data-testid="new-invitation">
                    <label class="field">
                        <span class="field__label">{use_i18n().t("invite.new_link")}</span>
                        <span class="invite-link"><input type="text" readonly value=link/></span>
                    </label>
                </div>
            })}
            <ActionError action=make/>
            <ActionForm action=make attr:class="form" attr:data-testid="form-invite">
                <label class="field">
                    <span class="field__label">{use_i18n().t("invite.note")}</span>
                    <input type="text" name="note" maxlength=NOTE_MAX_CHARS.to_string() autocomplete="off"/>
                </label>
                <button type="submit" class="btn btn--primary">{use_i18n().t("invite.make")}</button>
            </ActionForm>
        </div>
        <div class="card">
            <h2>{i18n.t("invite.list")}</h2>
            {if rows.is_empty() {
                view! { <p class="muted">{use_i18n().t("invite.none")}</p> }.into_any()
            } else {
                view! {
                    <div class="table-scroll">
                        <table class="staff-log" data-testid="invitations">
                            <thead>
                                <tr>
                                    <th scope="col">{use_i18n().t("invite.note")}</th>
                                    {staff.then(|| view! { <th scope="col">{use_i18n().t("invite.by")}</th> })}
                                    <th scope="col">{use_i18n().t("invite.made")}</th>
                                    <th scope="col">{use_i18n().t("invite.state")}</th>
                                    <th scope="col"><span class="visually-hidden">{use_i18n().t("invite.withdraw")}</span></th>
                                </tr>
                            </thead>
                            <tbody>
                                {rows.into_iter().map(|r| {
                                    let state = match r.state.as_str() {
                                        "used" => use_i18n().tf("invite.state_used", &[("name", r.used_by.as_deref().unwrap_or("-"))]),
                                        "open" => use_i18n().tf("invite.state_open", &[("date", &date(r.expires_at))]),
                                        _ => use_i18n().t("invite.state_expired"),
                                    };
                                    view! {
                                        <tr>
                                            <td>{r.note.clone()}</td>
                                            {staff.then(|| view! { <td>{r.invited_by.clone().unwrap_or_default()}</td> })}
                                            <td>{date(r.created_at)}</td>
                                            <td>{state}</td>
                                            <td>{(r.state == "open").then(|| view! {
                                                <ActionForm action={ServerAction::<WithdrawInvitation>::new()}>
                                                    <input type="hidden" name="id" value=r.id.to_string()/>
                                                    <button type="submit" class="btn btn--ghost btn--small">{use_i18n().t("invite.withdraw")}</button>
                                                </ActionForm>
                                            })}</td>
                                        </tr>
                                    }
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }.into_any()
            }}
        </div>
        {view.settings.map(|s| view! { <InviteSettingsForm settings=s/> })}
    }
}

#[component]
fn InviteSettingsForm(settings: InviteSettings) -> impl IntoView {
    let i18n = use_i18n();
    let action = ServerAction::<StaffSiteInvitations>::new();
    let saved = use_query_map().get_untracked().get("saved").is_some();
    view! {
        <div class="card" id="settings">
            <h2>{i18n.t("staff.site.invitations")}</h2>
            {saved.then(|| view! { <p class="notice notice--ok" role="status" data-testid="saved">{use_i18n().t("staff.site.saved")}</p> })}
            <ActionError action=action/>
            <ActionForm action=action attr:class="form" attr:data-testid="form-invite-settings">
                <crate::features::staff::site::DeclaredFields inputs=settings.inputs()/>
                <button type="submit" class="btn btn--primary">{i18n.t("staff.site.save")}</button>
            </ActionForm>
        </div>
    }
}
