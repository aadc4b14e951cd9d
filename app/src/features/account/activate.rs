//! Where the links in account mails land. Opening a link changes nothing (mail scanners open
//! links too): each page shows one button that posts to its server function.
//! `/activate?token=` → `/activate/done` or `/activate/error`; `/mail-change/do?token=`;
//! `/account-deleted` (after deleting, and `?token=` from the reactivation mail).

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::context::use_page_ctx;
use crate::features::account::server_fns::{Activate, ConfirmEmailChange, Reactivate};
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;
use crate::ui::icons::CheckIcon;

/// The link's token, if it looks like one (64 hex characters).
fn link_token() -> Option<String> {
    use_query_map().get_untracked().get("token").filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// `/activate?token=…`: the activation mail's link.
#[component]
pub fn ActivatePage() -> impl IntoView {
    let i18n = use_i18n();
    let ctx = use_page_ctx();
    let action = ServerAction::<Activate>::new();
    view! {
        <Title text=i18n.t("title.activate")/>
        <section class="result-page" data-testid="confirm-link">
            <h1>{i18n.t("activate.confirm_title")}</h1>
            <p>{i18n.tf("activate.confirm_body", &[("site", &ctx.site.name)])}</p>
            <ActionError action=action/>
            <ActionForm action=action>
                <input type="hidden" name="token" value=link_token().unwrap_or_default()/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("activate.confirm_submit")}</button>
            </ActionForm>
        </section>
    }
}

#[component]
pub fn ActivateDonePage() -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <Title text=i18n.t("title.activate_done")/>
        <section class="result-page">
            <span class="result-page__icon result-page__icon--ok"><CheckIcon/></span>
            <h1>{i18n.t("activate.done_title")}</h1>
            <p>{i18n.t("activate.done_body")}</p>
            <a class="btn btn--primary" href="/">{i18n.t("activate.continue")}</a>
        </section>
    }
}

/// `/account-deleted`: after deleting; with the reactivation mail's token, one button that
/// brings the account back.
#[component]
pub fn AccountDeletedPage() -> impl IntoView {
    let i18n = use_i18n();
    let reactivated = use_query_map().get_untracked().get("reactivated").is_some();
    let action = ServerAction::<Reactivate>::new();
    let body = if reactivated {
        view! {
            <span class="result-page__icon result-page__icon--ok"><CheckIcon/></span>
            <h1>{i18n.t("deleted.reactivated")}</h1>
            <a class="btn btn--primary" href="/login">{i18n.t("nav.login")}</a>
        }
        .into_any()
    } else if let Some(token) = link_token() {
        view! {
            <h1>{i18n.t("title.account_deleted")}</h1>
            <p>{i18n.t("deleted.reactivate_body")}</p>
            <ActionError action=action/>
            <ActionForm action=action>
                <input type="hidden" name="token" value=token/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("deleted.reactivate_submit")}</button>
            </ActionForm>
        }
        .into_any()
    } else {
        view! {
            <h1>{i18n.t("title.account_deleted")}</h1>
            <p>{i18n.t("deleted.body")}</p>
            <a class="btn btn--primary" href="/">{i18n.t("activate.continue")}</a>
        }
        .into_any()
    };
    view! {
        <Title text=i18n.t("title.account_deleted")/>
        <section class="result-page" data-testid="confirm-link">{body}</section>
    }
}

/// `/mail-change/do?token=…`: the email-change mail's link.
#[component]
pub fn MailChangePage() -> impl IntoView {
    let i18n = use_i18n();
    let done = use_query_map().get_untracked().get("done").is_some();
    let action = ServerAction::<ConfirmEmailChange>::new();
    if done {
        return view! {
            <Title text=i18n.t("title.mail_change")/>
            <section class="result-page">
                <span class="result-page__icon result-page__icon--ok"><CheckIcon/></span>
                <h1>{i18n.t("title.mail_change")}</h1>
                <p>{i18n.t("mailchange.done_body")}</p>
                <a class="btn btn--primary" href="/profile">{i18n.t("account.my_profile")}</a>
            </section>
        }
        .into_any();
    }
    view! {
        <Title text=i18n.t("settings.email_title")/>
        <section class="result-page" data-testid="confirm-link">
            <h1>{i18n.t("settings.email_title")}</h1>
            <p>{i18n.t("mailchange.confirm_body")}</p>
            <ActionError action=action/>
            <ActionForm action=action>
                <input type="hidden" name="token" value=link_token().unwrap_or_default()/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("mailchange.confirm_submit")}</button>
            </ActionForm>
        </section>
    }
    .into_any()
}

#[component]
pub fn ActivateErrorPage() -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <Title text=i18n.t("error.activation_failed")/>
        <section class="result-page">
            <span class="result-page__icon result-page__icon--error" aria-hidden="true">"!"</span>
            <h1>{i18n.t("error.activation_failed")}</h1>
            <p>{i18n.t("activate.error_body")}</p>
            <a class="btn btn--primary" href="/login">{i18n.t("nav.login")}</a>
        </section>
    }
}
