//! `/activate/done` and `/activate/error`: where the activation link lands.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::i18n::use_i18n;
use crate::layouts::icons::CheckIcon;

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

/// `/account-deleted`: after deleting, and where the reactivation link lands.
#[component]
pub fn AccountDeletedPage() -> impl IntoView {
    let i18n = use_i18n();
    let query = leptos_router::hooks::use_query_map().get_untracked();
    let reactivated = query.get("reactivated").is_some();
    let failed = query.get("error").is_some();
    view! {
        <Title text=i18n.t("title.account_deleted")/>
        <section class="result-page">
            {if reactivated {
                view! {
                    <span class="result-page__icon result-page__icon--ok"><CheckIcon/></span>
                    <h1>{i18n.t("deleted.reactivated")}</h1>
                    <a class="btn btn--primary" href="/login">{i18n.t("nav.login")}</a>
                }
                .into_any()
            } else if failed {
                view! {
                    <h1>{i18n.t("title.account_deleted")}</h1>
                    <crate::features::account::FormError/>
                }
                .into_any()
            } else {
                view! {
                    <h1>{i18n.t("title.account_deleted")}</h1>
                    <p>{i18n.t("deleted.body")}</p>
                    <a class="btn btn--primary" href="/">{i18n.t("activate.continue")}</a>
                }
                .into_any()
            }}
        </section>
    }
}

/// `/mail-change/do`: where the email-change link lands.
#[component]
pub fn MailChangePage() -> impl IntoView {
    let i18n = use_i18n();
    let done = leptos_router::hooks::use_query_map().get_untracked().get("done").is_some();
    if !done {
        return view! {
            <Title text=i18n.t("settings.email_title")/>
            <section class="result-page">
                <span class="result-page__icon result-page__icon--error" aria-hidden="true">"!"</span>
                <h1>{i18n.t("settings.email_title")}</h1>
                <crate::features::account::FormError/>
                <a class="btn btn--primary" href="/profile">{i18n.t("account.my_profile")}</a>
            </section>
        }
        .into_any();
    }
    view! {
        <Title text=i18n.t("title.mail_change")/>
        <section class="result-page">
            <span class="result-page__icon result-page__icon--ok"><CheckIcon/></span>
            <h1>{i18n.t("title.mail_change")}</h1>
            <p>{i18n.t("mailchange.done_body")}</p>
            <a class="btn btn--primary" href="/profile">{i18n.t("account.my_profile")}</a>
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
