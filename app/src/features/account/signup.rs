//! `/signup`: the signup form. The form posts to `/api/signup` (it works without JavaScript);
//! the island checks every field with the same rules as the server while the visitor types.

use domain::account::{validate_date_of_birth, validate_email, validate_name, validate_password, FieldError, Ymd};
use domain::i18n::interpolate;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::context::use_page_ctx;
use crate::features::account::FormError;
use crate::i18n::{use_i18n, I18n};

/// Texts the island needs, translated on the server.
fn validation_texts(i18n: &I18n) -> Vec<(String, String)> {
    [
        "validation.email_invalid",
        "validation.name_equals_email",
        "validation.name_starts_with_at",
        "validation.name_length",
        "validation.name_chars",
        "validation.date_of_birth_required",
        "validation.date_of_birth_invalid",
        "validation.password_too_short",
        "validation.password_too_long",
        "validation.password_too_common",
    ]
    .into_iter()
    .map(|k| (k.to_string(), i18n.t(k)))
    .collect()
}

fn message(texts: &[(String, String)], error: &FieldError) -> String {
    let template = texts.iter().find(|(k, _)| *k == error.key).map(|(_, v)| v.as_str()).unwrap_or(error.key.as_str());
    let args: Vec<(&str, &str)> = error.args.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    interpolate(template, &args)
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SignupLabels {
    email: String,
    name: String,
    password: String,
    password_hint: String,
    date_of_birth: String,
    signup_message: String,
    submit: String,
}

/// The form, with live checks (an island: this part runs in the browser).
#[island]
fn SignupFormIsland(labels: SignupLabels, texts: Vec<(String, String)>, min_age: u32, now: i64, tracking: Vec<(String, String)>) -> impl IntoView {
    let today = Ymd::from_unix(now);
    let email = RwSignal::new(String::new());
    let name = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let dob = RwSignal::new(String::new());
    let touched = RwSignal::new([false; 4]);
    let texts = StoredValue::new(texts);
    let err = move |r: Result<(), FieldError>| r.err().map(|e| texts.with_value(|t| message(t, &e)));
    let email_error = move || err(validate_email(&email.get()).map(|_| ()));
    let name_error = move || err(validate_name(&name.get(), &email.get()).map(|_| ()));
    let password_error = move || err(validate_password(&password.get(), &email.get(), &name.get()));
    let dob_error = move || err(validate_date_of_birth(&dob.get(), today, min_age).map(|_| ()));
    let show = move |i: usize, e: Option<String>| if touched.get()[i] { e } else { None };
    let touch = move |i: usize| touched.update(|t| t[i] = true);
    // Effects run only in the browser: the form says when its live checks are active.
    let ready = RwSignal::new(false);
    Effect::new(move |_| ready.set(true));
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        touched.set([true; 4]);
        if email_error().is_some() || name_error().is_some() || password_error().is_some() || dob_error().is_some() {
            ev.prevent_default();
        }
    };
    view! {
        <form method="post" action="/api/signup" class="form" novalidate on:submit=on_submit data-ready=move || ready.get().to_string()>
            {tracking.into_iter().map(|(k, v)| view! { <input type="hidden" name=k value=v/> }).collect_view()}
            <label class="field">
                <span class="field__label">{labels.email.clone()}</span>
                <input type="email" name="email" autocomplete="email" inputmode="email" required
                    aria-describedby="err-email"
                    on:input=move |ev| email.set(event_target_value(&ev)) on:blur=move |_| touch(0)/>
                <span class="field__error" id="err-email" role="alert">{move || show(0, email_error())}</span>
            </label>
            <label class="field">
                <span class="field__label">{labels.name.clone()}</span>
                <input type="text" name="name" autocomplete="nickname" required maxlength="30"
                    aria-describedby="err-name"
                    on:input=move |ev| name.set(event_target_value(&ev)) on:blur=move |_| touch(1)/>
                <span class="field__error" id="err-name" role="alert">{move || show(1, name_error())}</span>
            </label>
            <label class="field">
                <span class="field__label">{labels.password.clone()}</span>
                <input type="password" name="password" autocomplete="new-password" required minlength="8"
                    aria-describedby="hint-password err-password"
                    on:input=move |ev| password.set(event_target_value(&ev)) on:blur=move |_| touch(2)/>
                <span class="field__hint" id="hint-password">{labels.password_hint.clone()}</span>
                <span class="field__error" id="err-password" role="alert">{move || show(2, password_error())}</span>
            </label>
            <label class="field">
                <span class="field__label">{labels.date_of_birth.clone()}</span>
                <input type="date" name="date_of_birth" autocomplete="bday" required
                    aria-describedby="err-dob"
                    on:input=move |ev| dob.set(event_target_value(&ev)) on:blur=move |_| touch(3)/>
                <span class="field__error" id="err-dob" role="alert">{move || show(3, dob_error())}</span>
            </label>
            <label class="field">
                <span class="field__label">{labels.signup_message.clone()}</span>
                <textarea name="signup_message" rows="3" maxlength="500"></textarea>
            </label>
            <button type="submit" class="btn btn--primary btn--block btn--large">{labels.submit.clone()}</button>
        </form>
    }
}

#[component]
pub fn SignupPage() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    // Traffic-source parameters of the landing URL travel with the form (SPEC §3 tracking data).
    let tracking: Vec<(String, String)> = ["network", "ref", "sub1", "sub2", "sub3"]
        .into_iter()
        .filter_map(|k| query.get(k).map(|v| (k.to_string(), v.chars().take(100).collect())))
        .collect();
    let labels = SignupLabels {
        email: i18n.t("auth.email"),
        name: i18n.t("auth.name"),
        password: i18n.t("auth.password"),
        password_hint: i18n.t("auth.password_hint"),
        date_of_birth: i18n.t("auth.date_of_birth"),
        signup_message: i18n.t("auth.signup_message"),
        submit: i18n.t("auth.signup_submit"),
    };
    view! {
        <Title text=i18n.t("title.signup")/>
        <div class="auth-page">
            <div class="auth-card auth-card--wide">
                <h1 class="auth-card__title">{i18n.t("auth.signup_title")}</h1>
                <p class="auth-card__intro">{i18n.t("auth.signup_intro")}</p>
                <FormError/>
                <SignupFormIsland labels=labels texts=validation_texts(&i18n) min_age=ctx.site.min_age now=ctx.now tracking=tracking/>
                <p class="auth-card__terms">{i18n.t("auth.terms_note")}</p>
                <p class="auth-card__switch">{i18n.t("auth.have_account")} " " <a href="/login">{i18n.t("auth.login_submit")}</a></p>
            </div>
        </div>
    }
}
