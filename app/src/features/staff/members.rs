//! `/staff/members`: find a member by number, address, name, IP range, payment or phone
//! (`domain::staff::search`); block or unblock them with a reason; grant or take back the staff
//! and operator roles. Every search, view and change lands in the staff log.

use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, redirect, staff_call};

use domain::staff::search::{lookups, MatchKind, MAX_RESULTS, QUERY_MAX_CHARS};

use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::use_i18n;
use crate::ui::forms::{ActionError, TextArea};

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
    /// Staff's notes on the member, newest first.
    pub notes: Vec<NoteView>,
    /// The member's signed-in sessions: device, country, last seen.
    pub sessions: Vec<SessionView>,
    /// Fraud signals (`domain::fraud`) and their score.
    pub fraud: Vec<domain::fraud::Signal>,
    pub fraud_score: u32,
    /// The member's age checks (`domain::age`), newest first: provider, its reference, outcome.
    pub age_checks: Vec<AgeCheckView>,
    /// Complaints filed by the member and about them, newest first.
    pub complaints: Vec<ComplaintView>,
    /// Their payments wait for staff's review (`Some((score, since))`), or were allowed (`None`
    /// with `payments_allowed`).
    pub payment_review: Option<(i64, i64)>,
    pub payments_allowed: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComplaintView {
    pub reference: String,
    pub category: String,
    pub status: String,
    pub created_at: i64,
    pub body: String,
    pub by_member: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgeCheckView {
    pub provider: String,
    pub reference: String,
    pub status: domain::age::CheckStatus,
    pub at: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoteView {
    pub staff_name: String,
    pub body: String,
    pub created_at: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionView {
    pub device: Option<String>,
    pub country: Option<String>,
    pub last_seen_at: i64,
}

/// A member a search found, in the list of several.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FoundView {
    pub id: i64,
    pub name: String,
    pub email: String,
    pub status: String,
    pub matched: Vec<MatchKind>,
}

/// What a search found: the one member's record, or the list of several.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemberSearchView {
    pub one: Option<MemberRecordView>,
    pub list: Vec<FoundView>,
}

/// The members of this site a query finds (staff only): one is shown whole (a view, logged),
/// several as a list to choose from.
#[server(prefix = "/api/fn", endpoint = "staff_find_member", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_find_member(q: String) -> Result<MemberSearchView, ApiError> {
    let (c, member) = staff_call(StaffArea::Members).await?;
    let site = c.site.settings.id;
    let mut found = c.state.staff.search(&member, site, &q, c.now()).await.map_err(fail)?;
    if found.len() != 1 {
        let list = found
            .into_iter()
            .map(|f| FoundView { id: f.member.id, name: f.member.name, email: f.member.email, status: f.member.status, matched: f.matched })
            .collect();
        return Ok(MemberSearchView { one: None, list });
    }
    let record = found.remove(0).member;
    let id = record.id;
    c.state.staff.viewed(&member, site, id, c.now()).await.map_err(fail)?;
    let notes = c.state.staff.notes(&member, site, id).await.map_err(fail)?;
    let sessions = c.state.accounts.sessions(id, None).await.map_err(fail)?;
    let fraud = server::fraud::report(&c.state.db, &member, site, id, c.now()).await.map_err(fail)?;
    let age_checks = c.state.age.records(id).await.map_err(fail)?;
    let complaints = c.state.staff.member_complaints(&member, site, id).await.map_err(fail)?;
    let review = server::fraud::review_of(&c.state.db, id).await.map_err(fail)?;
    let parts = RecordParts { notes, sessions, fraud, age_checks, complaints, review };
    Ok(MemberSearchView { one: Some(record_view(record, parts)), list: Vec::new() })
}

/// Back to the member's record on `/staff/members` with a refusal's error.
#[cfg(feature = "ssr")]
pub(super) fn back_to_member<S: leptos::server_fn::ServerFn>(error: server::AppError, id: i64) -> ApiError {
    crate::call::fail_back::<S>(error, "/staff/members", &[("q", &format!("#{id}"))])
}

/// Leaves a note on a member (support, moderators and admins; logged).
#[server(prefix = "/api/fn", endpoint = "staff_add_note")]
pub async fn staff_add_note(id: i64, body: String) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Members).await?;
    if let Err(error) = c.state.staff.add_note(&member, c.site.settings.id, id, &body, c.now()).await {
        return Err(back_to_member::<StaffAddNote>(error, id));
    }
    redirect(&crate::paths::staff_member_saved(id));
    Ok(())
}

/// What the member file shows beside the member's own row.
#[cfg(feature = "ssr")]
struct RecordParts {
    notes: Vec<server::staff::StaffNote>,
    sessions: Vec<server::accounts::SessionInfo>,
    fraud: server::fraud::FraudReport,
    age_checks: Vec<server::age::CheckRecord>,
    complaints: Vec<server::staff::ComplaintLine>,
    review: Option<server::fraud::PaymentReview>,
}

#[cfg(feature = "ssr")]
fn record_view(m: server::staff::MemberRecord, parts: RecordParts) -> MemberRecordView {
    let RecordParts { notes, sessions, fraud, age_checks, complaints, review } = parts;
    MemberRecordView {
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
        notes: notes.into_iter().map(|n| NoteView { staff_name: n.staff_name, body: n.body, created_at: n.created_at }).collect(),
        sessions: sessions.into_iter().map(|s| SessionView { device: s.device, country: s.country, last_seen_at: s.last_seen_at }).collect(),
        fraud: fraud.signals,
        fraud_score: fraud.score,
        age_checks: age_checks
            .into_iter()
            .map(|a| AgeCheckView { provider: a.provider, reference: a.reference, status: a.status, at: a.decided_at.unwrap_or(a.created_at) })
            .collect(),
        complaints: complaints
            .into_iter()
            .map(|c| ComplaintView {
                reference: c.reference,
                category: c.category,
                status: c.status,
                created_at: c.created_at,
                body: c.body,
                by_member: c.by_member,
            })
            .collect(),
        payment_review: review.filter(|r| r.waiting).map(|r| (r.score, r.since)),
        payments_allowed: review.is_some_and(|r| !r.waiting),
    }
}

/// Corrects a member's credits through the ledger with a reason (support and admins; logged).
/// `key` comes with the member's record: a form sent twice books once.
#[server(prefix = "/api/fn", endpoint = "staff_correct_credits")]
pub async fn staff_correct_credits(id: i64, amount: String, reason: String, key: String) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Credits).await?;
    if let Err(error) = c.state.staff.correct_credits(&member, c.site.settings.id, id, &amount, &reason, &key, c.now()).await {
        return Err(back_to_member::<StaffCorrectCredits>(error, id));
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
        "delete" => MemberChange::Delete(reason.clone()),
        other => match other.split_once(':').and_then(|(way, role)| Some((way, StaffRole::parse(role)?))) {
            Some(("grant", role)) => MemberChange::Role(role, true),
            Some(("take", role)) => MemberChange::Role(role, false),
            _ => return Err(fail(domain::ErrorCode::ChoiceInvalid)),
        },
    };
    let deleting = matches!(change, MemberChange::Delete(_));
    if let Err(error) = c.state.staff.change_member(&member, c.site.settings.id, id, change, c.now()).await {
        return Err(back_to_member::<StaffChangeMember>(error, id));
    }
    // A deleted account is found no more: the page says which one went.
    redirect(&if deleting { format!("/staff/members?deleted={id}") } else { crate::paths::staff_member_saved(id) });
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
    let payments = viewer.may(StaffArea::Payments);
    let fraud = m
        .fraud
        .iter()
        .map(|s| {
            let i18n = use_i18n();
            let text = i18n.tf(&format!("staff.fraud.signal.{}", s.as_ref()), &[("weight", &s.weight().to_string())]);
            view! { <li data-testid="fraud-signal">{text}</li> }
        })
        .collect_view();
    let age_checks = m
        .age_checks
        .iter()
        .map(|a| {
            let i18n = use_i18n();
            let outcome = i18n.t(&format!("staff.members.age_check.{}", a.status.as_str()));
            view! { <li>{i18n.tf("staff.members.age_check_line", &[("outcome", &outcome), ("provider", &a.provider), ("reference", &a.reference), ("date", &i18n.date(a.at))])}</li> }
        })
        .collect_view();
    let complaints = m
        .complaints
        .iter()
        .map(|c| {
            let i18n = use_i18n();
            let way = i18n.t(if c.by_member { "staff.members.complaint_by" } else { "staff.members.complaint_about" });
            let category = i18n.t(&format!("complaints.category.{}", c.category));
            let status = i18n.t(&format!("staff.complaints.{}", c.status));
            let excerpt: String = c.body.chars().take(160).collect();
            view! {
                <li>
                    <a href=if c.status == "handled" { "/staff/complaints?status=handled" } else { "/staff/complaints" }>{c.reference.clone()}</a>
                    " · "{way}" · "{category}" · "{status}" · "{i18n.date(c.created_at)}
                    <br/><span class="muted">{excerpt}</span>
                </li>
            }
        })
        .collect_view();
    let export_refused = use_query_map().get_untracked().get("export").as_deref() == Some("reason");
    let sessions = m
        .sessions
        .iter()
        .map(|s| {
            let i18n = use_i18n();
            let device = s.device.clone().unwrap_or_else(|| i18n.t("staff.members.device_unknown"));
            let place = s.country.clone().unwrap_or_else(|| "–".into());
            view! { <li>{i18n.tf("staff.members.session_line", &[("device", &device), ("country", &place), ("date", &i18n.date(s.last_seen_at))])}</li> }
        })
        .collect_view();
    let notes = m
        .notes
        .iter()
        .map(|n| {
            let i18n = use_i18n();
            view! {
                <li class="staff-note">
                    <p class="staff-note__body">{n.body.clone()}</p>
                    <small class="muted">{i18n.tf("staff.members.note_by", &[("name", &n.staff_name), ("date", &i18n.date(n.created_at))])}</small>
                </li>
            }
        })
        .collect_view();
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
            {payments.then(|| view! {
                <p><a href=format!("/staff/payments?member=%23{id}") data-testid="member-payments">{use_i18n().t("staff.members.payments_link")}</a></p>
            })}
            <section class="staff-member__part" aria-labelledby="member-fraud" data-testid="member-fraud">
                <h3 id="member-fraud">{use_i18n().t("staff.members.fraud")}</h3>
                <p data-testid="fraud-score">{use_i18n().tf("staff.members.fraud_score", &[("score", &m.fraud_score.to_string()), ("max", &domain::fraud::MAX_SCORE.to_string())])}</p>
                {if m.fraud.is_empty() {
                    view! { <p class="muted">{use_i18n().t("staff.members.fraud_none")}</p> }.into_any()
                } else {
                    view! { <ul class="staff-member__list">{fraud}</ul> }.into_any()
                }}
                {m.payments_allowed.then(|| view! { <p class="muted" data-testid="payments-allowed">{use_i18n().t("staff.members.payments_allowed")}</p> })}
                {m.payment_review.map(|(score, since)| view! {
                    <p class="notice" data-testid="payment-review">{use_i18n().tf("staff.members.payment_review", &[("score", &score.to_string()), ("date", &use_i18n().date(since))])}</p>
                    {corrects.then(|| view! {
                        <ActionForm action={ServerAction::<super::payment_review::StaffAllowPayments>::new()} attr:class="form" attr:data-testid="form-allow-payments">
                            <input type="hidden" name="id" value=id.to_string()/>
                            <ReasonField id="allow-reason" help="staff.members.allow_help"/>
                            <button type="submit" class="btn btn--small btn--primary">{use_i18n().t("staff.members.allow_payments")}</button>
                        </ActionForm>
                    })}
                })}
            </section>
            <section class="staff-member__part" aria-labelledby="member-age" data-testid="member-age">
                <h3 id="member-age">{use_i18n().t("staff.members.age_checks")}</h3>
                {if m.age_checks.is_empty() {
                    view! { <p class="muted">{use_i18n().t("staff.members.age_checks_none")}</p> }.into_any()
                } else {
                    view! { <ul class="staff-member__list">{age_checks}</ul> }.into_any()
                }}
            </section>
            <section class="staff-member__part" aria-labelledby="member-complaints" data-testid="member-complaints">
                <h3 id="member-complaints">{use_i18n().t("staff.members.complaints")}</h3>
                {if complaints.is_empty() {
                    view! { <p class="muted">{use_i18n().t("staff.members.complaints_none")}</p> }.into_any()
                } else {
                    view! { <ul class="staff-member__list">{complaints}</ul> }.into_any()
                }}
            </section>
            <section class="staff-member__part" aria-labelledby="member-conversations">
                <h3 id="member-conversations">{use_i18n().t("staff.members.conversations")}</h3>
                <form method="get" action=super::member_conversations::PAGE class="form" data-testid="form-conversations">
                    <input type="hidden" name="member" value=id.to_string()/>
                    <ReasonField id="conversations-reason" help="staff.members.conversations_help"/>
                    <button type="submit" class="btn btn--small btn--ghost">{use_i18n().t("staff.members.conversations_read")}</button>
                </form>
            </section>
            <section class="staff-member__part" aria-labelledby="member-export" id="member-export">
                <h3 id="member-export">{use_i18n().t("staff.members.gdpr")}</h3>
                {export_refused.then(|| view! { <p class="notice notice--error" role="alert">{use_i18n().tf("validation.reason_required", &[("max", &domain::account::STAFF_REASON_MAX_CHARS.to_string())])}</p> })}
                <form method="post" action=domain::staff::MEMBER_EXPORT_PATH class="form" data-testid="form-export">
                    <input type="hidden" name="id" value=id.to_string()/>
                    <ReasonField id="export-reason" help="staff.members.export_help"/>
                    <button type="submit" class="btn btn--small btn--ghost">{use_i18n().t("staff.members.export")}</button>
                </form>
                <ActionForm action={ServerAction::<StaffChangeMember>::new()} attr:class="form" attr:data-testid="form-delete">
                    <input type="hidden" name="id" value=id.to_string()/>
                    <input type="hidden" name="change" value="delete"/>
                    <ReasonField id="delete-reason" help="staff.members.delete_help"/>
                    <button type="submit" class="btn btn--small btn--danger">{use_i18n().t("staff.members.delete")}</button>
                </ActionForm>
            </section>
            <section class="staff-member__part" aria-labelledby="member-sessions">
                <h3 id="member-sessions">{use_i18n().t("staff.members.sessions")}</h3>
                {if sessions.is_empty() {
                    view! { <p class="muted">{use_i18n().t("staff.members.sessions_none")}</p> }.into_any()
                } else {
                    view! { <ul class="staff-member__list" data-testid="member-sessions">{sessions}</ul> }.into_any()
                }}
            </section>
            <section class="staff-member__part" aria-labelledby="member-notes">
                <h3 id="member-notes">{use_i18n().t("staff.members.notes")}</h3>
                {if notes.is_empty() {
                    view! { <p class="muted">{use_i18n().t("staff.members.notes_none")}</p> }.into_any()
                } else {
                    view! { <ul class="staff-member__list" data-testid="member-notes">{notes}</ul> }.into_any()
                }}
                <ActionForm action={ServerAction::<StaffAddNote>::new()} attr:class="form" attr:data-testid="form-note">
                    <input type="hidden" name="id" value=id.to_string()/>
                    <label class="field">
                        <span class="field__label">{use_i18n().t("staff.members.note")}</span>
                        <TextArea attr:name="body" attr:rows="3" attr:required=true attr:maxlength=domain::staff::STAFF_NOTE_MAX_CHARS.to_string() attr:aria-describedby="note-help"/>
                        <span class="field__hint" id="note-help">{use_i18n().t("staff.members.note_help")}</span>
                    </label>
                    <button type="submit" class="btn btn--small btn--primary">{use_i18n().t("staff.members.note_add")}</button>
                </ActionForm>
            </section>
        </section>
    }
}

/// A required reason for reading a member's messages or taking their data (it goes to the staff log).
#[component]
fn ReasonField(id: &'static str, help: &'static str) -> impl IntoView {
    let help_id = format!("{id}-help");
    view! {
        <label class="field">
            <span class="field__label">{use_i18n().t("staff.members.reason")}</span>
            <input type="text" id=id name="reason" required maxlength=domain::account::STAFF_REASON_MAX_CHARS.to_string() aria-describedby=help_id.clone()/>
            <span class="field__hint" id=help_id>{use_i18n().t(help)}</span>
        </label>
    }
}

/// Several members found: each with what matched, a link to their record.
#[component]
fn FoundList(list: Vec<FoundView>) -> impl IntoView {
    let i18n = use_i18n();
    let capped = list.len() >= MAX_RESULTS;
    let items = list
        .into_iter()
        .map(|f| {
            let i18n = use_i18n();
            let kinds = f.matched.iter().map(|k| i18n.t(&format!("staff.members.match.{}", k.as_ref()))).collect::<Vec<_>>().join(", ");
            let href = format!("/staff/members?q=%23{}", f.id);
            let status = i18n.t(&format!("staff.members.status.{}", f.status));
            view! {
                <li class="staff-found__item" data-testid="member-found">
                    <a href=href class="staff-found__name">{format!("{} (#{})", f.name, f.id)}</a>
                    <span class="staff-found__email">{f.email}</span>
                    <span class="muted">{status}" · "{i18n.tf("staff.members.matched", &[("kinds", &kinds)])}</span>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="card staff-found" aria-labelledby="found-title">
            <h2 id="found-title">{i18n.t("staff.members.results")}</h2>
            <ul class="staff-found__list">{items}</ul>
            {capped.then(|| view! { <p class="muted">{use_i18n().tf("staff.members.results_capped", &[("max", &MAX_RESULTS.to_string())])}</p> })}
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
    let q = query.get("q").map(|q| q.chars().take(QUERY_MAX_CHARS).collect::<String>()).unwrap_or_default();
    let saved = query.get("saved").is_some();
    let deleted = query.get("deleted").and_then(|d| d.parse::<i64>().ok());
    let searched = q.trim().to_string();
    // A query that reads as nothing (too short) is not sent.
    let readable = !lookups(&searched).is_empty();
    let found = Resource::new_blocking(
        move || searched.clone(),
        move |q| async move {
            if !readable {
                Ok(MemberSearchView { one: None, list: Vec::new() })
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
                    <input type="search" name="q" value=q required maxlength=QUERY_MAX_CHARS.to_string() aria-describedby="member-search-help"/>
                    <span class="field__hint" id="member-search-help">{i18n.t("staff.members.search_help")}</span>
                </label>
                <button type="submit" class="btn btn--primary">{i18n.t("staff.members.find")}</button>
            </form>
            {saved.then(|| view! { <p class="notice notice--ok" role="status" data-testid="saved">{use_i18n().t("staff.members.saved")}</p> })}
            {deleted.map(|id| view! { <p class="notice notice--ok" role="status" data-testid="deleted">{use_i18n().tf("staff.members.deleted", &[("id", &id.to_string())])}</p> })}
            <ActionError action={ServerAction::<StaffChangeMember>::new()}/>
            <ActionError action={ServerAction::<StaffCorrectCredits>::new()}/>
            <ActionError action={ServerAction::<StaffAddNote>::new()}/>
            <ActionError action={ServerAction::<super::payment_review::StaffAllowPayments>::new()}/>
            <Suspense fallback=|| ()>
                {move || found.get().map(|result| match result {
                    Ok(MemberSearchView { one: Some(m), .. }) => view! { <MemberRecordCard m=m/> }.into_any(),
                    Ok(MemberSearchView { list, .. }) if !list.is_empty() => view! { <FoundList list=list/> }.into_any(),
                    Ok(_) if has_query && !readable => {
                        view! { <p class="notice" data-testid="member-not-found">{use_i18n().t("staff.members.query_unclear")}</p> }.into_any()
                    }
                    Ok(_) if has_query => view! { <p class="notice" data-testid="member-not-found">{use_i18n().t("staff.members.not_found")}</p> }.into_any(),
                    Ok(_) => ().into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
            {(!has_query).then(|| view! { <super::payment_review::WaitingPayments/> })}
        </div>
    }
    .into_any()
}
