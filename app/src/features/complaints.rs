//! `/complaints`: the complaint and report form (a profile's and a conversation's "report" link
//! lead here with the subject filled in), and the reference the complainant gets back.

use domain::complaint::{Category, CONCERNING_MAX_CHARS, NAME_MAX_CHARS, TEXT_MAX_CHARS, TEXT_MIN_CHARS};
use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{call, fail, redirect};

use crate::context::use_page_ctx;
use crate::i18n::use_i18n;
use crate::ui::forms::{ActionError, TextArea};

/// What a report link points at, with the names the complainant may see.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SubjectView {
    /// The reported member (id, profile name).
    pub member: Option<(i64, String)>,
    /// The reporter's conversation (id, the other member's name).
    pub conversation: Option<(i64, String)>,
}

/// The names behind a report link: a member of this site, a conversation of the asking member's
/// own; anything else is left out.
#[server(prefix = "/api/fn", endpoint = "complaint_subject", input = leptos::server_fn::codec::GetUrl)]
pub async fn complaint_subject(member: Option<i64>, conversation: Option<i64>) -> Result<SubjectView, ApiError> {
    let c = call().await?;
    let viewer = c.viewer();
    let subject = server::complaints::Subject { member_id: member, conversation_id: conversation };
    let names = c.state.complaints.describe(c.site.settings.id, viewer.as_ref(), subject).await.map_err(fail)?;
    // An invisible member (hidden, blocked the asker, deleted) is not named to whoever has the link.
    Ok(SubjectView { member: names.member.filter(|_| names.member_visible), conversation: names.conversation })
}

/// Files a complaint (visitors and members); answers with the page showing its reference.
#[server(prefix = "/api/fn", endpoint = "file_complaint")]
pub async fn file_complaint(
    name: String,
    email: String,
    #[server(default)] category: String,
    #[server(default)] concerning: String,
    text: String,
    member: Option<i64>,
    conversation: Option<i64>,
) -> Result<(), ApiError> {
    let c = call().await?;
    let form = domain::complaint::ComplaintForm { name, email, category, concerning, text };
    let complaint = match form.validate() {
        Ok(complaint) => complaint,
        Err(error) => {
            // The form comes back with what was typed (the text up to 2,000 characters).
            let text: String = form.text.chars().take(2000).collect();
            let (m, cv) = (member.map(|v| v.to_string()).unwrap_or_default(), conversation.map(|v| v.to_string()).unwrap_or_default());
            let kept = [
                ("name", form.name.as_str()),
                ("email", form.email.as_str()),
                ("category", form.category.as_str()),
                ("concerning", form.concerning.as_str()),
                ("text", text.as_str()),
                ("member", m.as_str()),
                ("conversation", cv.as_str()),
            ];
            return Err(crate::call::fail_back::<FileComplaint>(error, "/complaints", &kept));
        }
    };
    c.state.rate_limiter.check(server::http::rate_limit::Limit::Complaint, c.client_ip(), c.now()).await.map_err(fail)?;
    let locale = server::http::visitor::locale(&c.parts.headers, &c.site);
    let subject = server::complaints::Subject { member_id: member, conversation_id: conversation };
    let reference = c.state.complaints.file(c.site.settings.id, &complaint, c.viewer().as_ref(), subject, locale, c.now()).await.map_err(fail)?;
    redirect(&crate::paths::complaint_sent(&reference));
    Ok(())
}

fn id_param(value: Option<String>) -> Option<i64> {
    value.and_then(|v| v.parse::<i64>().ok()).filter(|id| *id > 0)
}

#[component]
pub fn ComplaintsPage() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let sent = query.get("sent").filter(|r| domain::complaint::is_reference(r));
    let site = ctx.site.clone();
    let escalation = [("pages.complaints.h2", "pages.complaints.p2"), ("pages.complaints.h3", "pages.complaints.p3")]
        .into_iter()
        .map(|(h, p)| view! { <h2>{i18n.t(h)}</h2><p>{i18n.tf(p, &[("email", &site.support_email)])}</p> })
        .collect_view();
    let body = match sent {
        Some(reference) => view! {
            <section class="card complaint-sent" role="status" data-testid="complaint-sent">
                <h2>{i18n.t("complaints.sent_title")}</h2>
                <p>{i18n.tf("complaints.sent_body", &[("reference", &reference)])}</p>
                <p class="complaint-sent__ref" data-testid="complaint-reference">{reference.clone()}</p>
            </section>
        }
        .into_any(),
        None => view! { <ComplaintForm/> }.into_any(),
    };
    view! {
        <Title text=i18n.t("title.complaints")/>
        <article class="container container--narrow page info-page" data-page="complaints">
            <h1 class="page__title">{i18n.t("title.complaints")}</h1>
            <p class="page__lead">{i18n.t("complaints.intro")}</p>
            {body}
            <div class="prose">{escalation}</div>
            <crate::features::pages::info::CompanyDetails/>
        </article>
    }
}

#[component]
fn ComplaintForm() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let kept = |key: &str, max: usize| query.get(key).map(|v| v.chars().take(max).collect::<String>());
    let member_id = id_param(query.get("member"));
    let conversation_id = id_param(query.get("conversation"));
    // A member's own name and address are filled in; what was typed comes back after a refusal.
    let name = kept("name", NAME_MAX_CHARS).or_else(|| ctx.member.as_ref().map(|m| m.name.clone())).unwrap_or_default();
    let email = kept("email", 254).or_else(|| ctx.member.as_ref().map(|m| m.email.clone())).unwrap_or_default();
    let category = kept("category", 40).filter(|c| Category::parse(c).is_some()).unwrap_or_default();
    let concerning = kept("concerning", CONCERNING_MAX_CHARS).unwrap_or_default();
    let text = kept("text", TEXT_MAX_CHARS).unwrap_or_default();
    let subject = Resource::new_blocking(
        move || (member_id, conversation_id),
        |(m, c)| async move {
            if m.is_none() && c.is_none() {
                return SubjectView::default();
            }
            complaint_subject(m, c).await.unwrap_or_default()
        },
    );
    let action = ServerAction::<FileComplaint>::new();
    let options = Category::ALL
        .into_iter()
        .map(|c| {
            let selected = c.as_str() == category;
            view! { <option value=c.as_str() selected=selected>{use_i18n().t(&c.label_key())}</option> }
        })
        .collect_view();
    view! {
        <section class="card complaint-form" id="complaint" aria-labelledby="complaint-title">
            <h2 id="complaint-title">{i18n.t("complaints.form_title")}</h2>
            <ActionError action=action/>
            <ActionForm action=action attr:class="form" attr:data-testid="complaint-form">
                <Suspense fallback=|| ()>
                    {move || subject.get().map(|s| {
                        let i18n = use_i18n();
                        view! {
                            {s.member.map(|(id, name)| view! {
                                <input type="hidden" name="member" value=id.to_string()/>
                                <p class="notice" data-testid="complaint-subject">{i18n.tf("complaints.reporting_member", &[("name", &name)])}</p>
                            })}
                            {s.conversation.map(|(id, name)| view! {
                                <input type="hidden" name="conversation" value=id.to_string()/>
                                <p class="notice" data-testid="complaint-subject">{use_i18n().tf("complaints.reporting_conversation", &[("name", &name)])}</p>
                            })}
                        }
                    })}
                </Suspense>
                <label class="field">
                    <span class="field__label">{i18n.t("complaints.name")}</span>
                    <input type="text" name="name" autocomplete="name" required maxlength=NAME_MAX_CHARS.to_string() value=name/>
                </label>
                <label class="field">
                    <span class="field__label">{i18n.t("complaints.email")}</span>
                    <input type="email" name="email" autocomplete="email" inputmode="email" required maxlength="254" value=email/>
                </label>
                <label class="field">
                    <span class="field__label">{i18n.t("complaints.category")}</span>
                    <select name="category" required>
                        <option value="" selected=category.is_empty()>{i18n.t("complaints.choose")}</option>
                        {options}
                    </select>
                </label>
                <label class="field">
                    <span class="field__label">{i18n.t("complaints.concerning")}</span>
                    <input type="text" name="concerning" maxlength=CONCERNING_MAX_CHARS.to_string() value=concerning/>
                    <span class="field__hint">{i18n.t("complaints.concerning_hint")}</span>
                </label>
                <label class="field">
                    <span class="field__label">{i18n.t("complaints.text")}</span>
                    <TextArea value=text attr:name="text" attr:rows="7" attr:required=true attr:minlength=TEXT_MIN_CHARS.to_string() attr:maxlength=TEXT_MAX_CHARS.to_string()/>
                    <span class="field__hint">{i18n.tf("complaints.text_hint", &[("min", &TEXT_MIN_CHARS.to_string()), ("max", &TEXT_MAX_CHARS.to_string())])}</span>
                </label>
                <button type="submit" class="btn btn--primary btn--block btn--large">{i18n.t("complaints.submit")}</button>
            </ActionForm>
        </section>
    }
}
