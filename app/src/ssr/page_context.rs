//! The page context of a request (site, language, country, member) and the pages mails link to.

use std::sync::Arc;

use http::request::Parts;
use server::sites::Site;
use server::AppState;

use crate::context::{MemberView, PageCtx, SiteView};

/// The page context of one request.
pub fn page_ctx(state: &AppState, parts: &Parts) -> PageCtx {
    let site = server::http::visitor::site(&state.sites, &parts.headers).expect("the database has at least one site");
    let locale = server::http::visitor::locale(&parts.headers, &site);
    let country = server::http::visitor::country(&parts.extensions, &site);
    let now = state.clock.now();
    let site_view = site_view(&site, &country);
    PageCtx {
        locale,
        texts: state.catalog.texts(locale),
        switcher: domain::locale::switcher_choices(&country, locale),
        country,
        entry_accepted: server::http::visitor::entry_accepted(&parts.headers),
        year: domain::date::from_unix(now).year,
        now,
        push_key: state.push.public_key().map(str::to_string),
        member: server::http::Viewer::from_parts(parts).0.map(|m| MemberView {
            name: m.name.clone(),
            email: m.email.clone(),
            invisible: m.invisible,
            credits: m.credits,
            paid_user: m.paid_user,
            confirmed: m.is_confirmed(),
            profile_disabled: m.profile_status == domain::account::ProfileStatus::Disabled,
            basics_complete: m.basics_complete,
            notifications_disabled: m.alerts.notifications_disabled.clone(),
            dismissed_alerts: m.alerts.dismissed.clone(),
            main_photo: m.main_photo_id,
            staff: m.roles,
            two_step: m.two_step,
            invites: server::accounts::Accounts::may_invite(&site.settings, &m),
            counters: m.counters,
            auto_like: site.settings.auto_like.count > 0 && m.basics_complete && now - m.signup_date <= domain::notifications::AUTO_LIKE_WINDOW_SECS,
            offers: domain::offers::offers(&site.settings.offer_rules(), m.signup_date, now, m.paid_user, |_| false),
            age_check_needed: !m.age_verified && site.settings.age_rule().asks([m.country.as_deref(), m.session_country.as_deref()]),
        }),
        site: site_view,
    }
}

fn site_view(site: &Site, country: &str) -> SiteView {
    let s = &site.settings;
    SiteView {
        name: s.name.clone(),
        domain: s.domain.clone(),
        niche: s.niche.number(),
        theme: s.theme.clone(),
        enable_site_entry_popup: s.enable_site_entry_popup,
        support_email: s.support_email.clone(),
        support_phone: s.support_phone.clone(),
        support_phone_clean: s.support_phone_clean(),
        message_credits: s.message_credits,
        photo_credits: s.photo_credits,
        gift_credits: s.gift_credits,
        minimum_message_cost: s.minimum_message_costs.iter().find(|c| c.country.eq_ignore_ascii_case(country)).map(|c| (c.costs, c.currency.clone())),
        refund_days: s.refund_days,
        min_age: s.min_age,
        logged_out_search: s.logged_out_search,
        invite_only: s.signups == domain::site::SignupPolicy::InviteOnly,
        cdn_prefix: s.cdn_prefix.clone(),
        logged_out_search_trafficsource: s.logged_out_search_trafficsource,
        fictional_icon: s.fictional_icon.clone(),
        fictional_warning: s.fictional_warning,
        fictional_singular: s.fictional_singular.clone(),
        visible_profile_fields: s.visible_profile_fields.clone(),
        search_fields: s.search_fields.clone(),
        logo: s.logo.clone(),
        company: site.company.clone(),
        terms_date: domain::site::terms_version_date(Some(site.company.added)),
        us_edition: s.us_edition(),
    }
}

/// The pages that mails link to (see `server::links`).
#[derive(Debug)]
pub struct PageLinks;

impl server::links::PageLinks for PageLinks {
    fn activation(&self, token: &str) -> String {
        crate::paths::activation(token)
    }
    fn password_reset(&self, token: &str) -> String {
        crate::paths::password_reset(token)
    }
    fn email_change(&self, token: &str) -> String {
        crate::paths::email_change(token)
    }
    fn email_undo(&self, token: &str) -> String {
        crate::paths::email_undo(token)
    }
    fn reactivation(&self, token: &str) -> String {
        crate::paths::reactivation(token)
    }
    fn unsubscribe(&self, token: &str) -> String {
        crate::paths::unsubscribe(token)
    }
    fn member(&self, member_id: i64) -> String {
        crate::paths::liked_member(member_id)
    }
    fn chat(&self, conversation_id: i64) -> String {
        crate::paths::chat(conversation_id)
    }
    fn transaction(&self, payment_id: i64) -> String {
        crate::paths::transaction(payment_id)
    }
    fn test_checkout(&self, checkout_id: &str) -> String {
        crate::paths::test_checkout(checkout_id)
    }
    fn age_check(&self, check: Option<i64>) -> String {
        crate::paths::age_check(check)
    }
    fn test_age_check(&self, id: &str) -> String {
        crate::paths::test_age_check(id)
    }
}

pub fn page_links() -> server::links::Links {
    Arc::new(PageLinks)
}
