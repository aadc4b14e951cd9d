//! `/settings` (account menu → Settings): email, password, language (top bar), notification
//! mails, invisible mode, location with the geolocation button, sessions, two-step login,
//! recent security events, the company's other sites (`sister_sites`), and deleting the account (with the company's leaving discount,
//! offered once).
//! Visitors are sent to log in and come back here afterwards.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::features::account::location::{country_choices, LocationFields, LocationTexts};
use crate::features::account::security::SecurityPanels;
use crate::features::account::server_fns::{get_my_basics, ChangeEmail, ChangePassword, DeleteAccount, SaveLocation, SaveNotificationPrefs, SetInvisible};
use crate::i18n::use_i18n;
use crate::ui::forms::{ActionError, TextArea};

#[component]
pub fn SettingsPage() -> impl IntoView {
    let i18n = use_i18n();
    let member = crate::features::account::member_or_login("/settings")?;
    // Blocking: the page arrives whole, so it works without JavaScript.
    let basics = Resource::new_blocking(|| (), |_| get_my_basics());
    let (prefs, location) = (ServerAction::<SaveNotificationPrefs>::new(), ServerAction::<SaveLocation>::new());
    let (invisible, email, password, delete) =
        (ServerAction::<SetInvisible>::new(), ServerAction::<ChangeEmail>::new(), ServerAction::<ChangePassword>::new(), ServerAction::<DeleteAccount>::new());
    let saved = use_query_map().get_untracked().get("saved").map(|what| match what.as_str() {
        "password" => i18n.t("settings.password_saved"),
        "email" => i18n.t("settings.email_sent"),
        "notifications" => i18n.t("settings.notifications_saved"),
        "location" => i18n.t("settings.location_saved"),
        "sessions" => i18n.t("security.sessions_saved"),
        "two_step" => i18n.t("security.two_step_saved"),
        "two_step_off" => i18n.t("security.two_step_off_saved"),
        _ => i18n.t("settings.saved"),
    });
    let export_problem = use_query_map().get_untracked().get("export").map(|why| match why.as_str() {
        "too_many" => i18n.t("settings.data_too_many"),
        _ => i18n.t("error.generic"),
    });
    Some(view! {
        <Title text=i18n.t("settings.title")/>
        <div class="container container--narrow page">
            <h1 class="page__title">{i18n.t("settings.title")}</h1>
            {saved.map(|text| view! { <p class="notice notice--ok" role="status" data-testid="saved">{text}</p> })}
            <section class="panel" aria-labelledby="account-title">
                <h2 id="account-title">{i18n.t("settings.account")}</h2>
                <dl class="facts">
                    <div><dt>{i18n.t("auth.name")}</dt><dd>{member.name.clone()}</dd></div>
                    <div><dt>{i18n.t("auth.email")}</dt><dd data-testid="member-email">{member.email.clone()}</dd></div>
                    <div><dt>{i18n.t("nav.credits")}</dt><dd>{member.credits}</dd></div>
                </dl>
            </section>
            <Suspense fallback=|| ()>
                {move || basics.get().map(|result| match result {
                    Ok(b) => {
                        let i18n = use_i18n();
                        view! {
                            <section class="panel" id="notifications" aria-labelledby="notifications-title">
                                <h2 id="notifications-title">{i18n.t("settings.notifications_title")}</h2>
                                <p class="muted">{i18n.t("settings.notifications_body")}</p>
                                <ActionError action=prefs/>
                                <ActionForm action=prefs attr:class="form" attr:data-testid="notification-prefs">
                                    <label class="switch">
                                        <input type="checkbox" name="messages" value="1" checked=b.notify_messages/>
                                        <span>{use_i18n().t("settings.notify_messages")}</span>
                                    </label>
                                    <label class="switch">
                                        <input type="checkbox" name="likes" value="1" checked=b.notify_likes/>
                                        <span>{use_i18n().t("settings.notify_likes")}</span>
                                    </label>
                                    <label class="switch">
                                        <input type="checkbox" name="news" value="1" checked=b.notify_news/>
                                        <span>{use_i18n().t("settings.notify_news")}</span>
                                    </label>
                                    <button type="submit" class="btn btn--ghost btn--small">{use_i18n().t("settings.save")}</button>
                                </ActionForm>
                            </section>
                            <section class="panel" id="location" aria-labelledby="location-title">
                                <h2 id="location-title">{i18n.t("settings.location_title")}</h2>
                                <p class="muted">{i18n.t("location.privacy")}</p>
                                <ActionError action=location/>
                                <ActionForm action=location attr:class="form" attr:data-testid="location-form">
                                    <LocationFields
                                        texts=LocationTexts::new(&i18n)
                                        countries=country_choices(&i18n, &b.countries)
                                        regions=b.regions.clone()
                                        country=b.country.clone()
                                        region=b.region.clone()
                                        city=b.city.clone()
                                    />
                                    <button type="submit" class="btn btn--ghost">{use_i18n().t("settings.save")}</button>
                                </ActionForm>
                            </section>
                        }
                        .into_any()
                    }
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
            <section class="panel" aria-labelledby="invisible-title">
                <h2 id="invisible-title">{i18n.t("settings.invisible_title")}</h2>
                <p class="muted">{i18n.t("settings.invisible_body")}</p>
                <ActionError action=invisible/>
                <ActionForm action=invisible attr:class="form form--inline">
                    <label class="switch">
                        <input type="checkbox" name="invisible" value="1" checked=member.invisible/>
                        <span>{use_i18n().t("settings.invisible_label")}</span>
                    </label>
                    <button type="submit" class="btn btn--ghost btn--small">{use_i18n().t("settings.save")}</button>
                </ActionForm>
            </section>
            <section class="panel" aria-labelledby="email-title">
                <h2 id="email-title">{i18n.t("settings.email_title")}</h2>
                <ActionError action=email/>
                <ActionForm action=email attr:class="form">
                    <label class="field">
                        <span class="field__label">{use_i18n().t("settings.new_email")}</span>
                        <input type="email" name="email" autocomplete="email" inputmode="email" required/>
                    </label>
                    <label class="field">
                        <span class="field__label">{use_i18n().t("auth.password")}</span>
                        <input type="password" name="password" autocomplete="current-password" required/>
                    </label>
                    <button type="submit" class="btn btn--ghost">{use_i18n().t("settings.save")}</button>
                </ActionForm>
            </section>
            <section class="panel" aria-labelledby="password-title">
                <h2 id="password-title">{i18n.t("settings.password_title")}</h2>
                <ActionError action=password/>
                <ActionForm action=password attr:class="form">
                    <label class="field">
                        <span class="field__label">{use_i18n().t("settings.old_password")}</span>
                        <input type="password" name="old_password" autocomplete="current-password" required/>
                    </label>
                    <label class="field">
                        <span class="field__label">{use_i18n().t("reset.new_password")}</span>
                        <input type="password" name="password" autocomplete="new-password" required minlength="8"/>
                    </label>
                    <label class="field">
                        <span class="field__label">{use_i18n().t("reset.repeat_password")}</span>
                        <input type="password" name="password_repeat" autocomplete="new-password" required minlength="8"/>
                    </label>
                    <button type="submit" class="btn btn--primary">{use_i18n().t("reset.do_submit")}</button>
                </ActionForm>
            </section>
            <SecurityPanels/>
            <section class="panel" id="age" aria-labelledby="age-title">
                <h2 id="age-title">{i18n.t("age.title")}</h2>
                <p class="muted">{i18n.t("age.optional")}</p>
                <p><a class="btn btn--ghost" href=crate::paths::age_check(None) data-testid="age-check-link">{i18n.t("age.open")}</a></p>
            </section>
            <section class="panel" id="data" aria-labelledby="data-title">
                <h2 id="data-title">{i18n.t("settings.data_title")}</h2>
                <p class="muted">{i18n.t("settings.data_body")}</p>
                {export_problem.map(|text| view! { <p class="notice notice--error" role="alert" data-testid="export-error">{text}</p> })}
                // A post, not a link (each export counts against the member's quota); the answer
                // is the file, so the page stays.
                <form method="post" action="/settings/data-export">
                    <button type="submit" class="btn btn--ghost" data-testid="data-export">{i18n.t("settings.data_download")}</button>
                </form>
            </section>
            <crate::features::account::sister_sites::SisterSitesPanel/>
            <section class="panel panel--danger" aria-labelledby="delete-title">
                <h2 id="delete-title">{i18n.t("settings.delete_title")}</h2>
                <p class="muted">{i18n.t("settings.delete_body")}</p>
                <crate::features::account::leaving::LeavingOfferPanel/>
                <ActionError action=delete/>
                <ActionForm action=delete attr:class="form">
                    <label class="field">
                        <span class="field__label">{use_i18n().t("settings.delete_reason")}</span>
                        <TextArea attr:name="reason" attr:rows="2" attr:maxlength="500"/>
                    </label>
                    <label class="field">
                        <span class="field__label">{use_i18n().t("auth.password")}</span>
                        <input type="password" name="password" autocomplete="current-password" required/>
                    </label>
                    <label class="switch">
                        <input type="checkbox" name="confirm" value="1" required/>
                        <span>{use_i18n().t("settings.delete_confirm")}</span>
                    </label>
                    <button type="submit" class="btn btn--danger">{use_i18n().t("settings.delete_submit")}</button>
                </ActionForm>
            </section>
        </div>
    })
}
