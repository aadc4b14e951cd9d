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
