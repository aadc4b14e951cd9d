//! The chat's settings on `/staff/site`: what happens to contact details in members'
//! messages (`#contact`, rules in `domain::contact`) and when alike first messages to many
//! members are held for review (`#spam`, rules in `domain::spam`).

use std::collections::BTreeMap;

use domain::ApiError;
use leptos::prelude::*;

use super::site::{NumberField, Saved};
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

#[cfg(feature = "ssr")]
use super::site::apply;

/// `contact[phone]=mask` for each kind of contact detail.
#[server(prefix = "/api/fn", endpoint = "staff_site_contact")]
pub async fn staff_site_contact(#[server(default)] contact: BTreeMap<String, String>) -> Result<(), ApiError> {
    apply::<StaffSiteContact>(server::staff::SiteChange::ContactRules(contact.into_iter().collect()), "contact").await
}

#[server(prefix = "/api/fn", endpoint = "staff_site_spam")]
pub async fn staff_site_spam(spam_recipients: i64, spam_window_minutes: i64, spam_similarity: i64) -> Result<(), ApiError> {
    let rules = domain::spam::SpamRules { recipients: spam_recipients, window_minutes: spam_window_minutes, similarity: spam_similarity };
    apply::<StaffSiteSpam>(server::staff::SiteChange::SpamRules(rules), "spam").await
}

#[component]
pub fn ChatSettingsForms(contact: domain::contact::ContactPolicy, spam: domain::spam::SpamRules) -> impl IntoView {
    view! {
        <section class="card staff-settings" id="contact" aria-labelledby="contact-title">
            <h2 id="contact-title">{use_i18n().t("staff.site.contact")}</h2>
            <p class="muted">{use_i18n().t("staff.setting.contact_rules")}</p>
            <Saved anchor="contact"/>
            <ActionError action={ServerAction::<StaffSiteContact>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteContact>::new()} attr:class="form" attr:data-testid="form-contact">
                {domain::contact::ContactKind::ALL.into_iter().map(|kind| {
                    let current = contact.rule(kind);
                    view! {
                        <fieldset class="staff-settings__checks">
                            <legend>{use_i18n().t(&format!("staff.contact.{}", kind.code()))}</legend>
                            {domain::contact::ContactRule::ALL.into_iter().map(|rule| view! {
                                <label class="check">
                                    <input type="radio" name=format!("contact[{}]", kind.code()) value=rule.code() checked=rule == current/>
                                    <span>{use_i18n().t(&format!("staff.contact.{}", rule.code()))}</span>
                                </label>
                            }).collect_view()}
                        </fieldset>
                    }
                }).collect_view()}
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
        </section>
        <section class="card staff-settings" id="spam" aria-labelledby="spam-title">
            <h2 id="spam-title">{use_i18n().t("staff.site.spam")}</h2>
            <p class="muted">{use_i18n().tf("staff.spam.explain", &[("min", &domain::spam::MIN_CHARS.to_string())])}</p>
            <Saved anchor="spam"/>
            <ActionError action={ServerAction::<StaffSiteSpam>::new()}/>
            <ActionForm action={ServerAction::<StaffSiteSpam>::new()} attr:class="form" attr:data-testid="form-spam">
                <NumberField range=domain::spam::RECIPIENTS value=spam.recipients/>
                <NumberField range=domain::spam::WINDOW_MINUTES value=spam.window_minutes/>
                <NumberField range=domain::spam::SIMILARITY value=spam.similarity/>
                <button type="submit" class="btn btn--primary">{use_i18n().t("staff.site.save")}</button>
            </ActionForm>
            <p><a href=crate::paths::STAFF_HELD>{use_i18n().t("staff.held.title")}</a></p>
        </section>
    }
    // Boxed: the settings page is one long view, and a debug build renders it on a test thread's stack.
    .into_any()
}
