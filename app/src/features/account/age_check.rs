//! `/age-check`: the member's age check (`domain::age`, `server::age`). Where the site asks for
//! one, chatting and buying wait for it (the services refuse with `age_check_required`); anywhere
//! else a member may pass one for the verified badge on their profile. The check is the
//! provider's: the member is sent there and comes back here, where the outcome is asked.
//! `/age-check/test/:id` is the built-in test provider's page.

use domain::age::{AgeStatus, CheckStatus};
use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{accepts_html, fail, fail_back, member_call, redirect};
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

/// The member's status; with `check` (the provider sent them back), that check is settled first.
/// Another member's check is not found.
#[server(prefix = "/api/fn", endpoint = "age_check_status", input = leptos::server_fn::codec::GetUrl)]
pub async fn age_check_status(check: Option<i64>) -> Result<AgeStatus, ApiError> {
    let (c, member) = member_call().await?;
    c.state.age.status(&c.site, &member, check, c.now()).await.map_err(fail)
}

/// Opens a check with the provider and sends the member there.
#[server(prefix = "/api/fn", endpoint = "start_age_check")]
pub async fn start_age_check() -> Result<String, ApiError> {
    let (c, member) = member_call().await?;
    let locale = server::http::visitor::locale(&c.parts.headers, &c.site);
    match c.state.age.start(&c.site, &member, locale.code(), c.now()).await {
        Ok(url) => {
            if accepts_html() {
                redirect(&url);
            }
            Ok(url)
        }
        Err(e) => Err(fail_back::<StartAgeCheck>(e, &crate::paths::age_check(None), &[])),
    }
}

/// The test provider's check as its page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestAgeCheckView {
    pub id: String,
    pub open: bool,
    pub back: String,
}

/// The test provider's page (only while it is the configured provider), for the member whose
/// check it is: another member, or a visitor holding the address, gets not-found.
#[server(prefix = "/api/fn", endpoint = "test_age_check", input = leptos::server_fn::codec::GetUrl)]
pub async fn test_age_check(id: String) -> Result<TestAgeCheckView, ApiError> {
    let (c, member) = member_call().await?;
    let (_, check) = c.state.age.own_test_check(member.id, &id).await.map_err(fail)?.ok_or_else(|| ApiError::new(domain::ErrorCode::NotFound))?;
    Ok(TestAgeCheckView { id: check.id, open: !check.status.is_final(), back: check.return_url })
}

/// The tester's answer on the test provider's page; the member returns to `/age-check`.
#[server(prefix = "/api/fn", endpoint = "test_age_check_outcome")]
pub async fn test_age_check_outcome(id: String, adult: bool) -> Result<String, ApiError> {
    let (c, member) = member_call().await?;
    let (provider, _) = c.state.age.own_test_check(member.id, &id).await.map_err(fail)?.ok_or_else(|| ApiError::new(domain::ErrorCode::NotFound))?;
    let back = provider.choose(&id, adult).await.map_err(fail)?;
    if accepts_html() {
        redirect(&back);
    }
    Ok(back)
}

#[component]
pub fn AgeCheckPage() -> impl IntoView {
    let i18n = use_i18n();
    crate::features::account::member_or_login(&crate::paths::age_check(None))?;
    let check = use_query_map().get_untracked().get("check").and_then(|c| c.parse::<i64>().ok());
    let status = Resource::new_blocking(move || check, age_check_status);
    let start = ServerAction::<StartAgeCheck>::new();
    Some(view! {
        <Title text=i18n.t("age.title")/>
        <div class="container container--narrow page">
            <h1 class="page__title">{i18n.t("age.title")}</h1>
            <ActionError action=start/>
            <Suspense fallback=|| ()>
                {move || status.get().map(|result| {
                    let i18n = use_i18n();
                    match result {
                        Err(e) => view! { <p class="notice notice--error" role="alert">{i18n.error(&e)}</p> }.into_any(),
                        Ok(s) => view! { <StatusPanel s=s start=start/> }.into_any(),
                    }
                })}
            </Suspense>
        </div>
    })
}

#[component]
fn StatusPanel(s: AgeStatus, start: ServerAction<StartAgeCheck>) -> impl IntoView {
    let i18n = use_i18n();
    if s.verified {
        return view! {
            <section class="panel age-check__status" data-testid="age-status">
                <p><span class="badge badge--verified">{i18n.t("age.badge")}</span></p>
                <p class="notice notice--ok" role="status">{i18n.t("age.verified")}</p>
                <p><a class="btn btn--primary" href="/members">{i18n.t("age.continue")}</a></p>
            </section>
        }
        .into_any();
    }
    let latest = match s.latest {
        Some(CheckStatus::Failed) => Some(("notice notice--error", "age.failed")),
        Some(CheckStatus::Started) => Some(("notice", "age.pending")),
        _ => None,
    };
    view! {
        <section class="panel age-check__status" data-testid="age-status">
            {latest.map(|(class, key)| view! { <p class=class role="status">{i18n.t(key)}</p> })}
            <p>{i18n.t(if s.asked { "age.asked" } else { "age.optional" })}</p>
            <p class="muted">{i18n.t("age.privacy")}</p>
            {if s.available {
                view! {
                    <ActionForm action=start>
                        <button type="submit" class="btn btn--primary">{i18n.t("age.start")}</button>
                    </ActionForm>
                }
                .into_any()
            } else {
                view! { <p class="notice notice--warning" role="note">{i18n.t("error.age_checks_unavailable")}</p> }.into_any()
            }}
        </section>
    }
    .into_any()
}

#[component]
pub fn TestAgeCheckPage() -> impl IntoView {
    let i18n = use_i18n();
    let id = use_params_map().get_untracked().get("id").unwrap_or_default();
    crate::features::account::member_or_login(&crate::paths::test_age_check(&id))?;
    let data = Resource::new_blocking(move || id.clone(), test_age_check);
    let action = ServerAction::<TestAgeCheckOutcome>::new();
    Some(view! {
        <Title text=i18n.t("age.test_title")/>
        <div class="container container--narrow page testpay">
            <h1 class="page__title">{i18n.t("age.test_title")}</h1>
            <p class="notice notice--warning" role="note">{i18n.t("age.test_notice")}</p>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| {
                    let i18n = use_i18n();
                    match result {
                        Err(e) => view! { <crate::ui::forms::RefusedNotice error=e/> }.into_any(),
                        Ok(t) if t.open => view! {
                            <ActionForm action=action attr:class="testpay__outcomes">
                                <input type="hidden" name="id" value=t.id.clone()/>
                                <button type="submit" name="adult" value="true" class="btn btn--primary">{i18n.t("age.test_adult")}</button>
                                <button type="submit" name="adult" value="false" class="btn btn--ghost">{i18n.t("age.test_minor")}</button>
                            </ActionForm>
                        }.into_any(),
                        Ok(t) => view! { <p><a class="btn btn--primary" href=t.back.clone()>{i18n.t("testpay.back")}</a></p> }.into_any(),
                    }
                })}
            </Suspense>
        </div>
    })
}
