//! `/login`: email and password, through the `login` server function.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::features::account::server_fns::Login;
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

#[component]
pub fn LoginPage() -> impl IntoView {
    let i18n = use_i18n();
    let after_reset = use_query_map().get_untracked().get("reset").is_some();
    let return_to = use_query_map().get_untracked().get("return_to").filter(|p| p.starts_with('/') && !p.starts_with("//")).unwrap_or_else(|| "/".into());
    let action = ServerAction::<Login>::new();
    view! {
        <Title text=i18n.t("title.login")/>
        <div class="auth-page">
            <div class="auth-card">
                <h1 class="auth-card__title">{i18n.t("auth.login_title")}</h1>
                <p class="auth-card__intro">{i18n.t("auth.login_intro")}</p>
                {after_reset.then(|| view! { <p class="notice notice--ok" role="status">{use_i18n().t("security.reset_then_login")}</p> })}
                <ActionError action=action/>
                <ActionForm action=action attr:class="form">
                    <input type="hidden" name="return_to" value=return_to/>
                    <label class="field">
                        <span class="field__label">{use_i18n().t("auth.email")}</span>
                        <input type="email" name="email" autocomplete="email" required inputmode="email"/>
                    </label>
                    <label class="field">
                        <span class="field__label">{use_i18n().t("auth.password")}</span>
                        <input type="password" name="password" autocomplete="current-password" required/>
                    </label>
                    <button type="submit" class="btn btn--primary btn--block btn--large">{use_i18n().t("auth.login_submit")}</button>
                </ActionForm>
                <p class="auth-card__forgot"><a href="/reset-password">{i18n.t("auth.forgot_password")}</a></p>
                <p class="auth-card__switch">{i18n.t("auth.no_account")} " " <a href="/signup">{i18n.t("auth.signup_submit")}</a></p>
            </div>
        </div>
    }
}
