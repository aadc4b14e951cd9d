//! `/signup`: the signup form. It posts to the `signup` server function (it works without
//! JavaScript); the island checks every field with the same rules as the server while the
//! visitor types and before it sends.

use crate::ui::forms::TextArea;
use domain::account::{validate_date_of_birth, validate_email, validate_name, validate_password, Ymd};
use domain::i18n::interpolate;
use domain::ApiError;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::context::use_page_ctx;
use crate::features::account::server_fns::Signup;
use crate::i18n::{use_i18n, I18n};

/// Texts the island needs, translated on the server: the field rules and the refusals the
/// `signup` server function can answer with.
fn validation_texts(i18n: &I18n) -> Vec<(String, String)> {
    use domain::ErrorCode::*;
    [
        EmailInvalid,
        NameEqualsEmail,
        NameStartsWithAt,
        NameLength,
        NameChars,
        DateOfBirthRequired,
        DateOfBirthInvalid,
        PasswordTooShort,
        PasswordTooLong,
        PasswordTooCommon,
        MessageTooLong,
        EmailTaken,
        AccountNotDeletedYet,
        SignupInviteOnly,
        SignupTrafficSourceRequired,
        TooManyRequests,
        Internal,
    ]
    .into_iter()
    .map(|code| (code.locale_key().to_string(), i18n.t(code.locale_key())))
    .collect()
}

fn message(texts: &[(String, String)], error: &ApiError) -> String {
    let template = texts.iter().find(|(k, _)| k == error.locale_key()).map(|(_, v)| v.as_str()).unwrap_or(error.locale_key());
    interpolate(template, &error.arg_pairs())
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

/// The four checked fields, in the form's order.
const FIELDS: [&str; 4] = ["email", "name", "password", "date_of_birth"];

/// What the fields hold now.
#[derive(Clone, Debug, Default, PartialEq)]
struct Values {
    email: String,
    name: String,
    password: String,
    date_of_birth: String,
}

impl Values {
    fn set(&mut self, field: &str, value: String) {
        match field {
            "email" => self.email = value,
            "name" => self.name = value,
            "password" => self.password = value,
            "date_of_birth" => self.date_of_birth = value,
            _ => {}
        }
    }

    /// The first problem of each field, by the same rules the server applies.
    fn errors(&self, today: Ymd, min_age: u32) -> [Option<ApiError>; 4] {
        [
            validate_email(&self.email).err(),
            validate_name(&self.name, &self.email).err(),
            validate_password(&self.password, &self.email, &self.name).err(),
            validate_date_of_birth(&self.date_of_birth, today, min_age).err(),
        ]
    }
}

/// The form with live checks. Used by the page's island and by the desktop modal's island.
/// It posts to the `signup` server function: a plain form post before the script has loaded
/// (or without JavaScript), the server function's client afterwards. Either way the checks
/// read what is in the fields, so whatever was typed before the script loaded counts.
#[component]
fn SignupForm(
    setup: FormSetup,
    /// Called when the visitor starts filling in the form.
    #[prop(optional)]
    on_start: Option<Callback<()>>,
    /// What the server's copy of the form held when this one took its place.
    #[prop(optional)]
    carried: Option<Carried>,
) -> impl IntoView {
    let FormSetup { labels, texts, min_age, now, tracking, refused } = setup;
    let today = Ymd::from_unix(now);
    let values = RwSignal::new(Values::default());
    let touched = RwSignal::new([false; 4]);
    let texts = StoredValue::new(texts);
    let form = NodeRef::<leptos::html::Form>::new();
    let action = ServerAction::<Signup>::new();
    let refused = RwSignal::new(refused);
    let show = move |i: usize| {
        let error = touched.get()[i].then(|| values.with(|v| v.errors(today, min_age))[i].clone()).flatten();
        error.map(|e| texts.with_value(|t| message(t, &e)))
    };
    let server_error = move || {
        let latest = action.value().with(|v| v.as_ref().and_then(|r| r.as_ref().err().cloned()));
        latest.or_else(|| refused.get()).map(|e| texts.with_value(|t| message(t, &e)))
    };
    // Effects run only in the browser: take in what was typed before the script loaded, and
    // say when the live checks are active.
    let ready = RwSignal::new(false);
    #[cfg(not(feature = "hydrate"))]
    let _ = &carried;
    Effect::new(move |_| {
        #[cfg(feature = "hydrate")]
        if let Some(form) = form.get() {
            if let Some(carried) = &carried {
                carried.take_over(&form);
            }
            read_fields(&form, values, touched);
        }
        ready.set(true);
    });
    let started = move || {
        if let Some(cb) = on_start {
            cb.run(());
        }
    };
    let on_field = move |ev: leptos::ev::Event, touch: bool| {
        let target: web_sys::HtmlInputElement = event_target(&ev);
        let name = target.name();
        values.update(|v| v.set(&name, target.value()));
        if let Some(i) = FIELDS.iter().position(|f| *f == name) {
            if touch {
                touched.update(|t| t[i] = true);
            }
        }
    };
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        #[cfg(feature = "hydrate")]
        {
            let Some(form) = form.get_untracked() else { return };
            read_fields(&form, values, touched);
            touched.set([true; 4]);
            if values.with_untracked(|v| v.errors(today, min_age)).iter().any(Option::is_some) {
                return;
            }
            refused.set(None);
            match web_sys::FormData::new_with_form(&form)
                .map_err(|_| ())
                .and_then(|data| <Signup as leptos::form::FromFormData>::from_form_data(&data).map_err(|_| ()))
            {
                Ok(call) => {
                    action.dispatch(call);
                }
                // Should never happen; the browser's own post still works.
                Err(()) => {
                    let _ = form.submit();
                }
            }
        }
    };
    // The server function answers a successful signup by sending the browser on.
    #[cfg(feature = "hydrate")]
    let _ = leptos::server_fn::redirect::set_redirect_hook(|location: &str| {
        if let Some(window) = web_sys::window() {
            let _ = window.location().set_href(location);
        }
    });
    let error_of = move |i: usize| view! { <span class="field__error" role="alert" data-field=FIELDS[i]>{move || show(i)}</span> };
    view! {
        <form node_ref=form method="post" action=Signup::url() class="form" novalidate on:submit=on_submit on:input=move |_| started() data-ready=move || ready.get().to_string()>
            {move || server_error().map(|text| view! { <p class="notice notice--error" role="alert" data-testid="form-error">{text}</p> })}
            {tracking.into_iter().map(|(k, v)| view! { <input type="hidden" name=k value=v/> }).collect_view()}
            <label class="field">
                <span class="field__label">{labels.email.clone()}</span>
                <input type="email" name="email" autocomplete="email" inputmode="email" required
                    on:input=move |ev| on_field(ev, false) on:blur=move |ev| on_field(ev.into(), true)/>
                {error_of(0)}
            </label>
            <label class="field">
                <span class="field__label">{labels.name.clone()}</span>
                <input type="text" name="name" autocomplete="nickname" required maxlength="30"
                    on:input=move |ev| on_field(ev, false) on:blur=move |ev| on_field(ev.into(), true)/>
                {error_of(1)}
            </label>
            <label class="field">
                <span class="field__label">{labels.password.clone()}</span>
                <input type="password" name="password" autocomplete="new-password" required minlength="8"
                    on:input=move |ev| on_field(ev, false) on:blur=move |ev| on_field(ev.into(), true)/>
                <span class="field__hint">{labels.password_hint.clone()}</span>
                {error_of(2)}
            </label>
            <label class="field">
                <span class="field__label">{labels.date_of_birth.clone()}</span>
                <input type="date" name="date_of_birth" autocomplete="bday" required
                    on:input=move |ev| on_field(ev, false) on:blur=move |ev| on_field(ev.into(), true)/>
                {error_of(3)}
            </label>
            <label class="field">
                <span class="field__label">{labels.signup_message.clone()}</span>
                <TextArea attr:name="signup_message" attr:rows="3" attr:maxlength="500"/>
            </label>
            <button type="submit" class="btn btn--primary btn--block btn--large" disabled=move || action.pending().get()>{labels.submit.clone()}</button>
        </form>
    }
}

/// Copies what the fields hold into `values`; fields that hold something count as touched
/// (typed before the script loaded, or filled in by the browser).
#[cfg(feature = "hydrate")]
fn read_fields(form: &web_sys::HtmlFormElement, values: RwSignal<Values>, touched: RwSignal<[bool; 4]>) {
    let Ok(data) = web_sys::FormData::new_with_form(form) else { return };
    for (i, field) in FIELDS.iter().enumerate() {
        let value = data.get(field).as_string().unwrap_or_default();
        if !value.is_empty() {
            touched.update(|t| t[i] = true);
        }
        values.update(|v| v.set(field, value));
    }
}

/// The server's copy of the signup page's form holds these when the form with live checks takes
/// its place: what was typed, and where the caret was.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Carried {
    values: Vec<(String, String)>,
    focus: Option<(String, u32, u32)>,
}

#[cfg(feature = "hydrate")]
impl Carried {
    /// Reads the server's copy of the form (inside `[data-signup-static]`), if it is still there.
    fn read() -> Option<Carried> {
        use wasm_bindgen::JsCast;
        let document = leptos::prelude::document();
        let form: web_sys::HtmlFormElement = document.query_selector("[data-signup-static] form").ok().flatten()?.dyn_into().ok()?;
        let data = web_sys::FormData::new_with_form(&form).ok()?;
        let values = FIELDS.iter().chain(["signup_message"].iter()).map(|f| (f.to_string(), data.get(f).as_string().unwrap_or_default())).collect();
        let focus = document.active_element().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()).filter(|e| form.contains(Some(e))).and_then(|e| {
            let name = e.get_attribute("name")?;
            let (start, end) = match e.dyn_ref::<web_sys::HtmlInputElement>() {
                Some(input) => (input.selection_start().ok().flatten().unwrap_or(0), input.selection_end().ok().flatten().unwrap_or(0)),
                None => e
                    .dyn_ref::<web_sys::HtmlTextAreaElement>()
                    .map(|t| (t.selection_start().ok().flatten().unwrap_or(0), t.selection_end().ok().flatten().unwrap_or(0)))
                    .unwrap_or((0, 0)),
            };
            Some((name, start, end))
        });
        Some(Carried { values, focus })
    }

    /// Fills this form with what the server's copy held, moves the caret over, and removes that copy.
    fn take_over(&self, form: &web_sys::HtmlFormElement) {
        use wasm_bindgen::JsCast;
        let field = |name: &str| form.query_selector(&format!("[name=\"{name}\"]")).ok().flatten();
        for (name, value) in &self.values {
            match field(name) {
                Some(e) if e.is_instance_of::<web_sys::HtmlInputElement>() => e.unchecked_into::<web_sys::HtmlInputElement>().set_value(value),
                Some(e) if e.is_instance_of::<web_sys::HtmlTextAreaElement>() => e.unchecked_into::<web_sys::HtmlTextAreaElement>().set_value(value),
                _ => {}
            }
        }
        if let Some(old) = leptos::prelude::document().query_selector("[data-signup-static]").ok().flatten() {
            old.remove();
        }
        if let Some((name, start, end)) = &self.focus {
            if let Some(e) = field(name).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
                let _ = e.focus();
                // Only text fields have a caret (an e-mail or date field refuses it; that is fine).
                if let Some(input) = e.dyn_ref::<web_sys::HtmlInputElement>() {
                    let _ = input.set_selection_range(*start, *end);
                } else if let Some(text) = e.dyn_ref::<web_sys::HtmlTextAreaElement>() {
                    let _ = text.set_selection_range(*start, *end);
                }
            }
        }
    }
}

/// What the signup form is drawn from; the signup page's island hands it to the form's own
/// module as JSON.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct FormSetup {
    labels: SignupLabels,
    texts: Vec<(String, String)>,
    min_age: u32,
    now: i64,
    tracking: Vec<(String, String)>,
    /// A refusal of the server function when the page was rendered (a post without JavaScript).
    refused: Option<ApiError>,
}

/// The signup page's form with live checks, drawn in the browser in place of the server's copy.
/// Its code (fields, checks, submit, reading its texts) is a module of its own (`#[lazy]`:
/// `make build` splits it off), so the page does not wait for it: the server's copy works (a
/// plain post) until this one takes its place.
#[lazy]
fn page_form(props_json: String, carried: Carried) -> Option<AnyView> {
    let setup: FormSetup = serde_json::from_str(&props_json).ok()?;
    Some(view! { <SignupForm setup=setup carried=carried/> }.into_any())
}

/// The signup modal's form, with its texts from `signup_modal` (a module of its own, as
/// `page_form`, fetched on the modal's first opening). `None` when the texts did not come.
#[lazy]
async fn modal_form(min_age: u32, now: i64, tracking: Vec<(String, String)>, on_start: Callback<()>) -> Option<AnyView> {
    let c = signup_modal_content().await.ok()?;
    Some(
        view! {
            <p class="auth-card__intro">{c.intro}</p>
            <SignupForm setup=FormSetup { labels: c.labels, texts: c.texts, min_age, now, tracking, refused: None } on_start=on_start/>
            <p class="auth-card__terms">{c.terms}</p>
        }
        .into_any(),
    )
}

/// The signup page's form: the server draws it (it works without JavaScript), and this island
/// swaps in the form with live checks when the visitor steps into the form (or at once, when
/// something was typed or a field was focused before the script ran). Nothing is fetched for a
/// visitor who only looks, so the page's loading is not slowed by it. What was typed and the
/// caret come along; the two forms have the same boxes, so nothing moves.
#[island]
fn SignupPageForm(props_json: String) -> impl IntoView {
    let form = RwSignal::new(None::<(String, Carried)>);
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::prelude::*;
        use wasm_bindgen::JsCast;
        let props = StoredValue::new(Some(props_json));
        let start = std::rc::Rc::new(move || {
            let Some(p) = props.try_update_value(Option::take).flatten() else { return };
            leptos::task::spawn_local(async move {
                __preload_page_form().await;
                // Read now, after the module came: whatever was typed while it loaded counts.
                form.set(Some((p, Carried::read().unwrap_or_default())));
            });
        });
        let on_focus = {
            let start = start.clone();
            Closure::<dyn Fn()>::new(move || start())
        };
        let document = leptos::prelude::document();
        if let Some(old) = document.query_selector("[data-signup-static]").ok().flatten() {
            let _ = old.add_event_listener_with_callback("focusin", on_focus.as_ref().unchecked_ref());
            // Already in the form, or already typed into it, before the script ran: no need to wait.
            let focused = document.active_element().is_some_and(|e| old.contains(Some(&e)));
            if focused || Carried::read().is_some_and(|c| c.values.iter().any(|(_, v)| !v.is_empty())) {
                start();
            }
        }
        on_focus.forget();
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = props_json;
    move || form.get().map(|(p, carried)| Suspend::new(async move { page_form(p, carried).await }))
}

/// The refusal of a signup posted without JavaScript, read on the server from the page's URL.
fn refused_signup() -> Option<ApiError> {
    ServerAction::<Signup>::new().value().get_untracked().and_then(Result::err)
}

/// Texts of the desktop signup modal that are on the page from the start.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SignupModalTexts {
    title: String,
    close: String,
    loading: String,
}

/// The rest of the modal: its form's labels and checks and the texts around them. Every visitor
/// page has the modal, few visitors open it, so this comes from `signup_modal` when it first
/// opens instead of weighing on every page (about 5 KB of HTML).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SignupModalForm {
    labels: SignupLabels,
    texts: Vec<(String, String)>,
    intro: String,
    terms: String,
}

/// The signup modal's form texts in the visitor's language (a read: `GET`).
#[server(prefix = "/api/fn", endpoint = "signup_modal", input = leptos::server_fn::codec::GetUrl)]
pub async fn signup_modal_content() -> Result<SignupModalForm, ApiError> {
    let c = crate::call::call().await?;
    let locale = server::http::visitor::locale(&c.parts.headers, &c.site);
    let i18n = I18n::new(locale, c.state.catalog.texts(locale));
    Ok(SignupModalForm { labels: signup_labels(&i18n), texts: validation_texts(&i18n), intro: i18n.t("auth.signup_intro"), terms: i18n.t("auth.terms_note") })
}

/// Signup as a large modal on desktop (SPEC §2): links marked `data-signup-link` open it from
/// 768 px up; on phones they lead to the `/signup` page. Once the visitor starts filling in the
/// form, neither the backdrop nor Esc closes it; the close button still does. The form comes
/// with the first opening; should that fail, the link's own page takes over.
#[island]
fn SignupModal(min_age: u32, now: i64, tracking: Vec<(String, String)>, modal: SignupModalTexts) -> impl IntoView {
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    let in_progress = RwSignal::new(false);
    // Set on the first opening: the form's hidden fields, and the page to go to should the form not come.
    let opened = RwSignal::new(None::<(Vec<(String, String)>, String)>);
    let shown = RwSignal::new(false);
    let ready = RwSignal::new(false);
    #[cfg(not(feature = "hydrate"))]
    let _ = tracking;
    #[cfg(feature = "hydrate")]
    let tracking = StoredValue::new(tracking);
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        use wasm_bindgen::prelude::*;
        use wasm_bindgen::JsCast;
        let Some(el) = dialog.get() else { return };
        let el: web_sys::HtmlDialogElement = el.unchecked_into();
        let open = Closure::<dyn Fn(web_sys::MouseEvent)>::new(move |ev: web_sys::MouseEvent| {
            let link = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|t| t.closest("[data-signup-link]").ok().flatten());
            let wide = web_sys::window().and_then(|w| w.match_media("(min-width: 768px)").ok().flatten()).is_some_and(|m| m.matches());
            let Some(link) = link.filter(|_| wide) else { return };
            ev.prevent_default();
            let href = link.get_attribute("href").unwrap_or_else(|| "/signup".into());
            // A member's signup link (`/members/{id}/signup`) carries that member through signup, as its page does.
            // (Its query holds the tracking parameters, which the modal takes from the page's own address.)
            let (path, query) = href.split_once('?').unwrap_or((&href, ""));
            let profile = path.strip_prefix("/members/").and_then(|r| r.strip_suffix("/signup")).and_then(|id| id.parse::<i64>().ok());
            let then = query.split('&').find_map(|pair| pair.strip_prefix("then=")).and_then(domain::lander::EntryAction::parse);
            let _ = el.show_modal();
            // Opened again from the same kind of link, the form keeps what was typed; a link for
            // another member or action gives the form its own hidden fields.
            let fields = with_profile(tracking.get_value(), profile, then);
            if opened.get_untracked().is_none_or(|(open, _)| open != fields) {
                opened.set(Some((fields, href)));
            }
        });
        // The island lives as long as the page (navigation is a full page load).
        let _ = leptos::prelude::document().add_event_listener_with_callback("click", open.as_ref().unchecked_ref());
        open.forget();
        ready.set(true);
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
    let loading = modal.loading.clone();
    view! {
        <dialog node_ref=dialog class="signup-modal" aria-labelledby="signup-modal-title" on:cancel=on_cancel on:click=on_backdrop data-testid="signup-modal" data-ready=move || ready.get().to_string()>
            <div class="signup-modal__body">
                <button type="button" class="signup-modal__close" aria-label=modal.close.clone() on:click=move |_| close()>"×"</button>
                <h2 id="signup-modal-title" class="auth-card__title">{modal.title.clone()}</h2>
                {move || (!shown.get()).then(|| view! { <p class="signup-modal__loading" role="status">{loading.clone()}</p> })}
                {move || opened.get().map(|(tracking, href)| Suspend::new(async move {
                    let form = modal_form(min_age, now, tracking, Callback::new(move |_| in_progress.set(true))).await;
                    match form {
                        Some(_) => shown.set(true),
                        // The link's own page takes over.
                        None => {
                            if let Some(window) = web_sys::window() {
                                let _ = window.location().set_href(&href);
                            }
                        }
                    }
                    form
                }))}
            </div>
        </dialog>
    }
}

/// The form's hidden fields: the tracking, the member the visitor came for (if any) and what
/// they were about to do there (`then`).
fn with_profile(mut tracking: Vec<(String, String)>, profile: Option<i64>, then: Option<domain::lander::EntryAction>) -> Vec<(String, String)> {
    if let Some(id) = profile {
        tracking.push(("profile".into(), id.to_string()));
        if let Some(action) = then {
            tracking.push(("then".into(), action.as_ref().to_string()));
        }
    }
    tracking
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
    let modal = SignupModalTexts { title: i18n.t("auth.signup_title"), close: i18n.t("auth.close"), loading: i18n.t("auth.signup_loading") };
    Some(view! { <SignupModal min_age=ctx.site.min_age now=ctx.now tracking=tracking_params() modal=modal/> })
}

/// The tracking parameters of the current URL (SPEC §3 tracking data).
/// `href` with the tracking parameters of the page's own address (a signup link keeps the
/// traffic source the visitor came with, also on a phone where it opens a page).
pub(crate) fn with_tracking(href: &str) -> String {
    let query: Vec<String> = tracking_params().iter().map(|(k, v)| format!("{k}={}", domain::account::percent_encode(v))).collect();
    if query.is_empty() {
        href.to_string()
    } else {
        let joint = if href.contains('?') { '&' } else { '?' };
        format!("{href}{joint}{}", query.join("&"))
    }
}

fn tracking_params() -> Vec<(String, String)> {
    let query = use_query_map().get_untracked();
    let max = domain::account::Tracking::MAX_CHARS;
    domain::account::Tracking::KEYS.into_iter().filter_map(|k| query.get(k).map(|v| (k.to_string(), v.chars().take(max).collect()))).collect()
}

/// The labels of the signup form.
fn signup_labels(i18n: &I18n) -> SignupLabels {
    SignupLabels {
        email: i18n.t("auth.email"),
        name: i18n.t("auth.name"),
        password: i18n.t("auth.password"),
        password_hint: i18n.t("auth.password_hint"),
        date_of_birth: i18n.t("auth.date_of_birth"),
        signup_message: i18n.t("auth.signup_message"),
        submit: i18n.t("auth.signup_submit"),
    }
}

/// `/signup`, and `/members/{id}/signup` with that member's teaser as `children` and the
/// profile carried through signup.
#[component]
pub fn SignupPage(#[prop(optional)] profile: Option<i64>, #[prop(optional)] children: Option<Children>) -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    let setup = FormSetup {
        labels: signup_labels(&i18n),
        texts: validation_texts(&i18n),
        min_age: ctx.site.min_age,
        now: ctx.now,
        tracking: super::invitation::with_invitation(with_profile(tracking_params(), profile, super::basics::entry_action())),
        refused: refused_signup(),
    };
    view! {
        <Title text=i18n.t("title.signup")/>
        <div class="auth-page">
            <div class="auth-card auth-card--wide">
                {children.map(|c| c())}
                <h1 class="auth-card__title">{i18n.t("auth.signup_title")}</h1>
                <p class="auth-card__intro">{i18n.t("auth.signup_intro")}</p>
                <div data-signup-static="">
                    <SignupForm setup=setup.clone()/>
                </div>
                <SignupPageForm props_json=serde_json::to_string(&setup).unwrap_or_default()/>
                <p class="auth-card__terms">
                    {i18n.t("auth.terms_note")} " " <a href="/pages/terms">{i18n.t("footer.terms")}</a> " · " <a href="/pages/privacy">{i18n.t("footer.privacy")}</a>
                </p>
                <p class="auth-card__switch">{i18n.t("auth.have_account")} " " <a href="/login">{i18n.t("auth.login_submit")}</a></p>
            </div>
        </div>
    }
    .into_any()
}
