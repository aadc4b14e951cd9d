//! Account security in settings: the member's sessions (end one, or every other), their recent
//! security events, and two-step login (`/settings/two-step` sets it up). Also the second step
//! of a login (`/login/two-step`) and the old address's undo link (`/mail-change/undo`).

use domain::security::SecurityEventKind;
use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

use crate::i18n::{use_i18n, I18n};
use crate::ui::forms::ActionError;
use crate::ui::icons::CheckIcon;

#[cfg(feature = "ssr")]
use crate::call::{call, fail, member_call, redirect, set_cookie};
#[cfg(feature = "ssr")]
use crate::features::account::server_fns::{clear_session_cookie, session_cookie};

/// One session as settings list it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionView {
    pub id: String,
    pub current: bool,
    pub device: Option<String>,
    pub country: Option<String>,
    pub last_seen_at: i64,
}

/// One security event as settings list it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventView {
    pub kind: SecurityEventKind,
    pub at: i64,
    pub device: Option<String>,
    pub country: Option<String>,
}

/// The security part of `/settings`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MySecurity {
    pub sessions: Vec<SessionView>,
    pub events: Vec<EventView>,
    pub two_step: bool,
    pub recovery_codes_left: i64,
}

#[server(prefix = "/api/fn", endpoint = "my_security")]
pub async fn get_my_security() -> Result<MySecurity, ApiError> {
    let (c, member) = member_call().await?;
    let current = c.cookie(domain::constants::AUTH_COOKIE);
    let accounts = &c.state.accounts;
    let sessions = accounts.sessions(member.id, current.as_deref()).await.map_err(fail)?;
    let events = accounts.security_events(member.id).await.map_err(fail)?;
    let (two_step, recovery_codes_left) = accounts.two_step_status(member.id).await.map_err(fail)?;
    Ok(MySecurity {
        sessions: sessions
            .into_iter()
            .map(|s| SessionView { id: s.id, current: s.current, device: s.device, country: s.country, last_seen_at: s.last_seen_at })
            .collect(),
        events: events.into_iter().map(|e| EventView { kind: e.kind, at: e.at, device: e.device, country: e.country }).collect(),
        two_step,
        recovery_codes_left,
    })
}

/// Logs one of the member's own sessions out.
#[server(prefix = "/api/fn", endpoint = "end_session")]
pub async fn end_session(session: String) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.accounts.end_session(member.id, &session, &c.client()).await.map_err(fail)?;
    redirect("/settings?saved=sessions#sessions");
    Ok(())
}

/// "Log out everywhere else".
#[server(prefix = "/api/fn", endpoint = "end_other_sessions")]
pub async fn end_other_sessions() -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    let current = c.cookie(domain::constants::AUTH_COOKIE).ok_or_else(|| fail(server::AppError::from(domain::ErrorCode::AuthenticationRequired)))?;
    c.state.accounts.end_other_sessions(member.id, &current, &c.client()).await.map_err(fail)?;
    redirect("/settings?saved=sessions#sessions");
    Ok(())
}

/// Starts setting up two-step login (a new secret and recovery codes), then the set-up page.
#[server(prefix = "/api/fn", endpoint = "start_two_step")]
pub async fn start_two_step() -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.accounts.two_step_begin(member.id).await.map_err(fail)?;
    redirect("/settings/two-step");
    Ok(())
}

/// What `/settings/two-step` shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TwoStepSetupView {
    pub secret: String,
    pub url: String,
    pub qr_svg: String,
    pub recovery_codes: Vec<String>,
}

#[server(prefix = "/api/fn", endpoint = "two_step_setup")]
pub async fn get_two_step_setup() -> Result<Option<TwoStepSetupView>, ApiError> {
    let (c, member) = member_call().await?;
    let setup = c.state.accounts.two_step_setup(member.id, &c.site.settings.name).await.map_err(fail)?;
    Ok(setup.map(|s| TwoStepSetupView { secret: s.secret, url: s.url, qr_svg: s.qr_svg, recovery_codes: s.recovery_codes }))
}

/// Switches two-step login on: the password and a code from the app.
#[server(prefix = "/api/fn", endpoint = "enable_two_step")]
pub async fn enable_two_step(password: String, code: String) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.rate_limiter.check(server::http::rate_limit::Limit::Login, c.client_ip(), c.now()).await.map_err(fail)?;
    c.state.accounts.two_step_enable(member.id, &password, &code, &c.client()).await.map_err(fail)?;
    redirect("/settings?saved=two_step#two-step");
    Ok(())
}

/// Switches two-step login off (with the password).
#[server(prefix = "/api/fn", endpoint = "disable_two_step")]
pub async fn disable_two_step(password: String) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.rate_limiter.check(server::http::rate_limit::Limit::Login, c.client_ip(), c.now()).await.map_err(fail)?;
    c.state.accounts.two_step_disable(member.id, &password, &c.client()).await.map_err(fail)?;
    redirect("/settings?saved=two_step_off#two-step");
    Ok(())
}

/// A country code as a name, when the catalogue has one.
fn country_name(i18n: &I18n, code: &str) -> String {
    let key = format!("country.{code}");
    let name = i18n.t(&key);
    if name == key {
        code.to_string()
    } else {
        name
    }
}

/// "12 november 2026, 14:05 (UTC)"
fn moment(i18n: &I18n, at: i64) -> String {
    let t = domain::date::from_unix(at);
    i18n.tf("security.moment", &[("date", &i18n.date(at)), ("time", &format!("{:02}:{:02}", t.hour, t.minute))])
}

fn device_and_place(i18n: &I18n, device: Option<String>, country: Option<String>) -> String {
    let device = device.unwrap_or_else(|| i18n.t("security.unknown_device"));
    match country.filter(|c| !c.is_empty()) {
        Some(country) => format!("{device} · {}", country_name(i18n, &country)),
        None => device,
    }
}

/// Sessions, two-step login and recent events: three panels of `/settings`.
#[component]
pub fn SecurityPanels() -> impl IntoView {
    let data = Resource::new_blocking(|| (), |_| get_my_security());
    let (end_one, end_others) = (ServerAction::<EndSession>::new(), ServerAction::<EndOtherSessions>::new());
    let (start, disable) = (ServerAction::<StartTwoStep>::new(), ServerAction::<DisableTwoStep>::new());
    view! {
        <Suspense fallback=|| ()>
            {move || data.get().map(|result| {
                let i18n = use_i18n();
                let Ok(s) = result else {
                    return view! { <p class="notice notice--error" role="alert">{i18n.t("error.generic")}</p> }.into_any();
                };
                let others = s.sessions.iter().filter(|x| !x.current).count();
                let sessions = s
                    .sessions
                    .into_iter()
                    .map(|x| {
                        let i18n = use_i18n();
                        let label = device_and_place(&i18n, x.device, x.country);
                        let seen = if x.current { i18n.t("security.this_device") } else { i18n.tf("security.last_seen", &[("when", &moment(&i18n, x.last_seen_at))]) };
                        let end = (!x.current).then(|| {
                            let button = i18n.t("security.end_session");
                            view! {
                                <ActionForm action=end_one attr:class="session-list__end">
                                    <input type="hidden" name="session" value=x.id.clone()/>
                                    <button type="submit" class="btn btn--ghost btn--small">{button}</button>
                                </ActionForm>
                            }
                        });
                        view! {
                            <li class="session-list__item" class:session-list__item--current=x.current data-testid="session">
                                <div>
                                    <strong>{label}</strong>
                                    <span class="muted">{seen}</span>
                                </div>
                                {end}
                            </li>
                        }
                    })
                    .collect_view();
                let events = s
                    .events
                    .into_iter()
                    .map(|e| {
                        let i18n = use_i18n();
                        view! {
                            <li class="event-list__item" class:event-list__item--warning=e.kind.is_warning() data-testid="security-event" data-kind=e.kind.as_str()>
                                <strong>{i18n.t(&e.kind.message_key())}</strong>
                                <span class="muted">{moment(&i18n, e.at)} " · " {device_and_place(&i18n, e.device, e.country)}</span>
                            </li>
                        }
                    })
                    .collect_view();
                let two_step = if s.two_step {
                    view! {
                        <p class="notice notice--ok" data-testid="two-step-on">{i18n.plural("security.two_step_on", s.recovery_codes_left, &[])}</p>
                        <ActionError action=disable/>
                        <ActionForm action=disable attr:class="form">
                            <label class="field">
                                <span class="field__label">{use_i18n().t("auth.password")}</span>
                                <input type="password" name="password" autocomplete="current-password" required/>
                            </label>
                            <button type="submit" class="btn btn--ghost">{use_i18n().t("security.two_step_disable")}</button>
                        </ActionForm>
                    }
                    .into_any()
                } else {
                    view! {
                        <p class="muted">{i18n.t("security.two_step_body")}</p>
                        <ActionForm action=start>
                            <button type="submit" class="btn btn--primary">{use_i18n().t("security.two_step_start")}</button>
                        </ActionForm>
                    }
                    .into_any()
                };
                view! {
                    <section class="panel" id="sessions" aria-labelledby="sessions-title">
                        <h2 id="sessions-title">{i18n.t("security.sessions_title")}</h2>
                        <p class="muted">{i18n.t("security.sessions_body")}</p>
                        <ul class="session-list">{sessions}</ul>
                        {(others > 0).then(|| view! {
                            <ActionForm action=end_others>
                                <button type="submit" class="btn btn--ghost" data-testid="end-other-sessions">{use_i18n().t("security.end_others")}</button>
                            </ActionForm>
                        })}
                    </section>
                    <section class="panel" id="two-step" aria-labelledby="two-step-title">
                        <h2 id="two-step-title">{i18n.t("security.two_step_title")}</h2>
                        {two_step}
                    </section>
                    <section class="panel" id="security-events" aria-labelledby="events-title">
                        <h2 id="events-title">{i18n.t("security.events_title")}</h2>
                        <p class="muted">{i18n.t("security.events_body")}</p>
                        <ul class="event-list">{events}</ul>
                    </section>
                }
                .into_any()
            })}
        </Suspense>
    }
}

/// `/settings/two-step`: the QR code (and the secret to type), the recovery codes to keep,
/// and the form that switches it on with the password and a code from the app.
#[component]
pub fn TwoStepSetupPage() -> impl IntoView {
    let i18n = use_i18n();
    crate::features::account::member_or_login("/settings")?;
    let setup = Resource::new_blocking(|| (), |_| get_two_step_setup());
    let enable = ServerAction::<EnableTwoStep>::new();
    Some(view! {
        <Title text=i18n.t("security.two_step_title")/>
        <div class="container container--narrow page">
            <h1 class="page__title">{i18n.t("security.two_step_title")}</h1>
            <Suspense fallback=|| ()>
                {move || setup.get().map(|result| {
                    let i18n = use_i18n();
                    match result {
                        Ok(Some(s)) => {
                            let grouped = s.secret.as_bytes().chunks(4).map(|c| String::from_utf8_lossy(c).into_owned()).collect::<Vec<_>>().join(" ");
                            let codes = s.recovery_codes.into_iter().map(|code| view! { <li><code>{code}</code></li> }).collect_view();
                            view! {
                                <section class="panel" aria-labelledby="scan-title">
                                    <h2 id="scan-title">{i18n.t("security.setup_scan_title")}</h2>
                                    <p>{i18n.t("security.setup_scan_body")}</p>
                                    <div class="two-step__qr" role="img" aria-label=i18n.t("security.setup_qr_label") inner_html=s.qr_svg></div>
                                    <p class="muted">{i18n.t("security.setup_secret")}</p>
                                    <p><code class="two-step__secret" data-testid="two-step-secret">{grouped}</code></p>
                                    <p><a href=s.url class="btn btn--ghost btn--small">{i18n.t("security.setup_open_app")}</a></p>
                                </section>
                                <section class="panel" aria-labelledby="codes-title">
                                    <h2 id="codes-title">{i18n.t("security.setup_codes_title")}</h2>
                                    <p>{i18n.t("security.setup_codes_body")}</p>
                                    <ul class="two-step__codes" data-testid="recovery-codes">{codes}</ul>
                                </section>
                                <section class="panel" aria-labelledby="confirm-title">
                                    <h2 id="confirm-title">{i18n.t("security.setup_confirm_title")}</h2>
                                    <ActionError action=enable/>
                                    <ActionForm action=enable attr:class="form">
                                        <label class="field">
                                            <span class="field__label">{use_i18n().t("security.code_label")}</span>
                                            <input type="text" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required/>
                                        </label>
                                        <label class="field">
                                            <span class="field__label">{use_i18n().t("auth.password")}</span>
                                            <input type="password" name="password" autocomplete="current-password" required/>
                                        </label>
                                        <button type="submit" class="btn btn--primary">{use_i18n().t("security.setup_submit")}</button>
                                    </ActionForm>
                                </section>
                            }
                            .into_any()
                        }
                        Ok(None) => view! {
                            <p>{i18n.t("security.setup_none")}</p>
                            <a class="btn btn--primary" href="/settings#two-step">{i18n.t("settings.title")}</a>
                        }
                        .into_any(),
                        Err(_) => view! { <p class="notice notice--error" role="alert">{i18n.t("error.generic")}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </div>
    })
}

/// `/login/two-step`: the code from the app (or a recovery code) after a right password.
#[component]
pub fn TwoStepLoginPage() -> impl IntoView {
    let i18n = use_i18n();
    let return_to = use_query_map().get_untracked().get("return_to").filter(|p| p.starts_with('/') && !p.starts_with("//")).unwrap_or_else(|| "/".into());
    let action = ServerAction::<SecondStep>::new();
    view! {
        <Title text=i18n.t("security.login_title")/>
        <div class="auth-page">
            <div class="auth-card">
                <h1 class="auth-card__title">{i18n.t("security.login_title")}</h1>
                <p class="auth-card__intro">{i18n.t("security.login_body")}</p>
                <ActionError action=action/>
                <ActionForm action=action attr:class="form">
                    <input type="hidden" name="return_to" value=return_to/>
                    <label class="field">
                        <span class="field__label">{use_i18n().t("security.code_label")}</span>
                        <input type="text" name="code" autocomplete="one-time-code" autocapitalize="off" spellcheck="false" maxlength="12" required/>
                    </label>
                    <button type="submit" class="btn btn--primary btn--block btn--large">{use_i18n().t("auth.login_submit")}</button>
                </ActionForm>
                <p class="muted">{i18n.t("security.login_recovery_hint")}</p>
            </div>
        </div>
    }
}

/// `/mail-change/undo?token=`: the old address's link after an email change; one button.
#[component]
pub fn MailUndoPage() -> impl IntoView {
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let action = ServerAction::<UndoEmailChange>::new();
    if query.get("done").is_some() {
        return view! {
            <Title text=i18n.t("security.undo_done_title")/>
            <section class="result-page">
                <span class="result-page__icon result-page__icon--ok"><CheckIcon/></span>
                <h1>{i18n.t("security.undo_done_title")}</h1>
                <p>{i18n.t("security.undo_done_body")}</p>
                <a class="btn btn--primary" href="/reset-password">{i18n.t("security.undo_new_password")}</a>
            </section>
        }
        .into_any();
    }
    let token = query.get("token").filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit())).unwrap_or_default();
    view! {
        <Title text=i18n.t("security.undo_title")/>
        <section class="result-page" data-testid="confirm-link">
            <h1>{i18n.t("security.undo_title")}</h1>
            <p>{i18n.t("security.undo_body")}</p>
            <ActionError action=action/>
            <ActionForm action=action>
                <input type="hidden" name="token" value=token/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("security.undo_submit")}</button>
            </ActionForm>
        </section>
    }
    .into_any()
}

/// Puts the old address back (the link in the notice to the old address); every session ends.
#[server(prefix = "/api/fn", endpoint = "undo_email_change")]
pub async fn undo_email_change(token: String) -> Result<(), ApiError> {
    let c = call().await?;
    c.state.accounts.undo_email_change(&token, &c.client()).await.map_err(fail)?;
    set_cookie(clear_session_cookie(&c));
    redirect("/mail-change/undo?done=1");
    Ok(())
}

/// The cookie that carries a login between the password and the authenticator code.
#[cfg(feature = "ssr")]
pub const TWO_STEP_COOKIE: &str = "vonk.two_step";

/// The second step of a login: a code from the authenticator app or a recovery code.
#[server(prefix = "/api/fn", endpoint = "second_step")]
pub async fn second_step(code: String, return_to: Option<String>) -> Result<(), ApiError> {
    let c = call().await?;
    c.state.rate_limiter.check(server::http::rate_limit::Limit::Login, c.client_ip(), c.now()).await.map_err(fail)?;
    let step = c.cookie(TWO_STEP_COOKIE).ok_or_else(|| fail(server::AppError::from(domain::ErrorCode::LinkExpired)))?;
    let previous = c.cookie(domain::constants::AUTH_COOKIE);
    let session = c.state.accounts.second_step(&step, &code, previous.as_deref(), &c.client()).await.map_err(fail)?;
    set_cookie(server::http::cookies::clear(TWO_STEP_COOKIE, c.state.config.secure_cookies));
    set_cookie(session_cookie(&c, &session));
    redirect(&server::http::visitor::safe_return_path(return_to.as_deref()));
    Ok(())
}
