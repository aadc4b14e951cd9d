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

/// The form with live checks. Used by the page's island and by the desktop modal's island.
#[component]
fn SignupForm(
    labels: SignupLabels,
    texts: Vec<(String, String)>,
    min_age: u32,
    now: i64,
    tracking: Vec<(String, String)>,
    /// Called when the visitor starts filling in the form.
    #[prop(optional)]
    on_start: Option<Callback<()>>,
) -> impl IntoView {
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
    let started = move || {
        if let Some(cb) = on_start {
            cb.run(());
        }
    };
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        touched.set([true; 4]);
        if email_error().is_some() || name_error().is_some() || password_error().is_some() || dob_error().is_some() {
            ev.prevent_default();
        }
    };
    view! {
        <form method="post" action="/api/signup" class="form" novalidate on:submit=on_submit on:input=move |_| started() data-ready=move || ready.get().to_string()>
            {tracking.into_iter().map(|(k, v)| view! { <input type="hidden" name=k value=v/> }).collect_view()}
            <label class="field">
                <span class="field__label">{labels.email.clone()}</span>
                <input type="email" name="email" autocomplete="email" inputmode="email" required
                    on:input=move |ev| email.set(event_target_value(&ev)) on:blur=move |_| touch(0)/>
                <span class="field__error" role="alert" data-field="email">{move || show(0, email_error())}</span>
            </label>
            <label class="field">
                <span class="field__label">{labels.name.clone()}</span>
                <input type="text" name="name" autocomplete="nickname" required maxlength="30"
                    on:input=move |ev| name.set(event_target_value(&ev)) on:blur=move |_| touch(1)/>
                <span class="field__error" role="alert" data-field="name">{move || show(1, name_error())}</span>
            </label>
            <label class="field">
                <span class="field__label">{labels.password.clone()}</span>
                <input type="password" name="password" autocomplete="new-password" required minlength="8"
                    on:input=move |ev| password.set(event_target_value(&ev)) on:blur=move |_| touch(2)/>
                <span class="field__hint">{labels.password_hint.clone()}</span>
                <span class="field__error" role="alert" data-field="password">{move || show(2, password_error())}</span>
            </label>
            <label class="field">
                <span class="field__label">{labels.date_of_birth.clone()}</span>
                <input type="date" name="date_of_birth" autocomplete="bday" required
                    on:input=move |ev| dob.set(event_target_value(&ev)) on:blur=move |_| touch(3)/>
                <span class="field__error" role="alert" data-field="date_of_birth">{move || show(3, dob_error())}</span>
            </label>
            <label class="field">
                <span class="field__label">{labels.signup_message.clone()}</span>
                <textarea name="signup_message" rows="3" maxlength="500"></textarea>
            </label>
            <button type="submit" class="btn btn--primary btn--block btn--large">{labels.submit.clone()}</button>
        </form>
    }
}

/// The signup page's form (an island: this part runs in the browser).
#[island]
fn SignupFormIsland(labels: SignupLabels, texts: Vec<(String, String)>, min_age: u32, now: i64, tracking: Vec<(String, String)>) -> impl IntoView {
    view! { <SignupForm labels=labels texts=texts min_age=min_age now=now tracking=tracking/> }
}

/// Texts of the desktop signup modal around the form.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SignupModalTexts {
    title: String,
    intro: String,
    terms: String,
    close: String,
}

/// Signup as a large modal on desktop (SPEC §2): links marked `data-signup-link` open it from
/// 768 px up; on phones they lead to the `/signup` page. Once the visitor starts filling in the
/// form, neither the backdrop nor Esc closes it; the close button still does.
#[island]
fn SignupModal(
    labels: SignupLabels,
    texts: Vec<(String, String)>,
    min_age: u32,
    now: i64,
    tracking: Vec<(String, String)>,
    modal: SignupModalTexts,
) -> impl IntoView {
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    let in_progress = RwSignal::new(false);
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        use wasm_bindgen::prelude::*;
        use wasm_bindgen::JsCast;
        let Some(el) = dialog.get() else { return };
        let el: web_sys::HtmlDialogElement = el.unchecked_into();
        let open = Closure::<dyn Fn(web_sys::MouseEvent)>::new(move |ev: web_sys::MouseEvent| {
            let link = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|t| t.closest("[data-signup-link]").ok().flatten());
            let wide = web_sys::window().and_then(|w| w.match_media("(min-width: 768px)").ok().flatten()).is_some_and(|m| m.matches());
            if link.is_some() && wide {
                ev.prevent_default();
                let _ = el.show_modal();
            }
        });
        // The island lives as long as the page (navigation is a full page load).
        let _ = leptos::prelude::document().add_event_listener_with_callback("click", open.as_ref().unchecked_ref());
        open.forget();
    });
    let close = move || {
        if let Some(el) = dialog.get_untracked() {
            el.close();
        }
    };
    let on_cancel = move |ev: leptos::ev::Event| {
        if in_progress.get_untracked() {
            ev.prevent_default();
        }
    };
    let on_backdrop = move |ev: leptos::ev::MouseEvent| {
        // A click on the dialog element itself (not its content) is a click on the backdrop.
        let on_dialog = dialog.get_untracked().zip(ev.target()).is_some_and(|(d, t)| {
            let d: &wasm_bindgen::JsValue = d.as_ref();
            let t: &wasm_bindgen::JsValue = t.as_ref();
            d == t
        });
        if on_dialog && !in_progress.get_untracked() {
            close();
        }
    };
    view! {
        <dialog node_ref=dialog class="signup-modal" aria-labelledby="signup-modal-title" on:cancel=on_cancel on:click=on_backdrop data-testid="signup-modal">
            <div class="signup-modal__body">
                <button type="button" class="signup-modal__close" aria-label=modal.close.clone() on:click=move |_| close()>"×"</button>
                <h2 id="signup-modal-title" class="auth-card__title">{modal.title.clone()}</h2>
                <p class="auth-card__intro">{modal.intro.clone()}</p>
                <SignupForm labels=labels texts=texts min_age=min_age now=now tracking=tracking on_start=Callback::new(move |_| in_progress.set(true))/>
                <p class="auth-card__terms">{modal.terms.clone()}</p>
            </div>
        </dialog>
    }
}

/// Account pages have their own forms; the signup modal stays off them.
const NO_MODAL_ON: [&str; 6] = ["/signup", "/login", "/reset-password", "/account-deleted", "/activate", "/mail-change"];

/// The modal for the layouts: present for visitors, not on the account pages.
#[component]
pub fn SignupModalForLayout() -> impl IntoView {
    let ctx = use_page_ctx();
    let path = leptos_router::hooks::use_location().pathname.get_untracked();
    // Also off `/members/{id}/signup`, which is a signup page itself.
    if ctx.member.is_some() || path.ends_with("/signup") || NO_MODAL_ON.iter().any(|p| path == *p || path.starts_with(&format!("{p}/"))) {
        return None;
    }
    let i18n = use_i18n();
    let (labels, tracking) = signup_form_props(&i18n);
    let modal = SignupModalTexts { title: i18n.t("auth.signup_title"), intro: i18n.t("auth.signup_intro"), terms: i18n.t("auth.terms_note"), close: i18n.t("auth.close") };
    Some(view! { <SignupModal labels=labels texts=validation_texts(&i18n) min_age=ctx.site.min_age now=ctx.now tracking=tracking modal=modal/> })
}

/// Labels of the form and the tracking parameters of the current URL (SPEC §3 tracking data).
fn signup_form_props(i18n: &I18n) -> (SignupLabels, Vec<(String, String)>) {
    let query = use_query_map().get_untracked();
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
    (labels, tracking)
}

/// `/signup`, and `/members/{id}/signup` with that member's teaser as `children` and the
/// profile carried through signup.
#[component]
pub fn SignupPage(#[prop(optional)] profile: Option<i64>, #[prop(optional)] children: Option<Children>) -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    let (labels, mut tracking) = signup_form_props(&i18n);
    if let Some(id) = profile {
        tracking.push(("profile".into(), id.to_string()));
    }
    view! {
        <Title text=i18n.t("title.signup")/>
        <div class="auth-page">
            <div class="auth-card auth-card--wide">
                {children.map(|c| c())}
                <h1 class="auth-card__title">{i18n.t("auth.signup_title")}</h1>
                <p class="auth-card__intro">{i18n.t("auth.signup_intro")}</p>
                <FormError/>
                <SignupFormIsland labels=labels texts=validation_texts(&i18n) min_age=ctx.site.min_age now=ctx.now tracking=tracking/>
                <p class="auth-card__terms">{i18n.t("auth.terms_note")}</p>
                <p class="auth-card__switch">{i18n.t("auth.have_account")} " " <a href="/login">{i18n.t("auth.login_submit")}</a></p>
            </div>
        </div>
    }
    .into_any()
}
