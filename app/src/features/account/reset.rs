//! `/reset-password` (ask for a link) and `/reset-password/do` (choose a new password).

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::features::account::server_fns::{RequestPasswordReset, ResetPassword};
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

#[component]
pub fn ResetPasswordPage() -> impl IntoView {
    let i18n = use_i18n();
    let sent = use_query_map().get_untracked().get("sent").is_some();
    let action = ServerAction::<RequestPasswordReset>::new();
    view! {
        <Title text=i18n.t("title.reset_password")/>
        <div class="auth-page">
            <div class="auth-card">
                <h1 class="auth-card__title">{i18n.t("title.reset_password")}</h1>
                {if sent {
                    view! { <p class="notice notice--ok" role="status" data-testid="reset-sent">{i18n.t("reset.sent")}</p> }.into_any()
                } else {
                    view! {
                        <p class="auth-card__intro">{i18n.t("reset.intro")}</p>
                        <ActionError action=action/>
                        <ActionForm action=action attr:class="form">
                            <label class="field">
                                <span class="field__label">{use_i18n().t("auth.email")}</span>
                                <input type="email" name="email" autocomplete="email" inputmode="email" required/>
                            </label>
                            <button type="submit" class="btn btn--primary btn--block btn--large">{use_i18n().t("reset.submit")}</button>
                        </ActionForm>
                    }
                    .into_any()
                }}
                <p class="auth-card__switch"><a href="/login">{i18n.t("auth.login_submit")}</a></p>
            </div>
        </div>
    }
}

#[component]
pub fn ResetPasswordDoPage() -> impl IntoView {
    let i18n = use_i18n();
    let token = use_query_map().get_untracked().get("token").filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit())).unwrap_or_default();
    let action = ServerAction::<ResetPassword>::new();
    view! {
        <Title text=i18n.t("reset.do_title")/>
        <div class="auth-page">
            <div class="auth-card">
                <h1 class="auth-card__title">{i18n.t("reset.do_title")}</h1>
                <p class="auth-card__intro">{i18n.t("reset.do_intro")}</p>
                <ActionError action=action/>
                <ActionForm action=action attr:class="form">
                    <input type="hidden" name="token" value=token/>
                    <label class="field">
                        <span class="field__label">{use_i18n().t("reset.new_password")}</span>
                        <input type="password" name="password" autocomplete="new-password" required minlength="8"/>
                        <span class="field__hint">{use_i18n().t("auth.password_hint")}</span>
                    </label>
                    <label class="field">
                        <span class="field__label">{use_i18n().t("reset.repeat_password")}</span>
                        <input type="password" name="password_repeat" autocomplete="new-password" required minlength="8"/>
                    </label>
                    <button type="submit" class="btn btn--primary btn--block btn--large">{use_i18n().t("reset.do_submit")}</button>
                </ActionForm>
            </div>
        </div>
    }
}
