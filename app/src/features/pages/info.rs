//! Informational pages. Texts come from `locales/` (pages.*), company details from the database.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::context::{use_page_ctx, SiteView};
use crate::i18n::{use_i18n, I18n};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InfoPageKind {
    Terms,
    Privacy,
    Cookies,
    Ban,
    ReturnPolicy,
    Faq,
    Service,
    /// The US edition's 18 U.S.C. 2257 statement.
    Statement2257,
    /// The US edition's "your privacy choices".
    PrivacyChoices,
}

impl InfoPageKind {
    /// (title key, text prefix, number of heading/paragraph sections)
    fn spec(self) -> (&'static str, &'static str, usize) {
        match self {
            InfoPageKind::Terms => ("title.terms", "pages.terms", 6),
            InfoPageKind::Privacy => ("title.privacy", "pages.privacy", 4),
            InfoPageKind::Cookies => ("title.cookies", "pages.cookies", 3),
            InfoPageKind::Ban => ("title.ban", "pages.ban", 3),
            InfoPageKind::ReturnPolicy => ("title.return_policy", "pages.return_policy", 3),
            InfoPageKind::Faq => ("title.faq", "pages.faq", 6),
            InfoPageKind::Service => ("title.service", "pages.service", 0),
            InfoPageKind::Statement2257 => ("title.statement_2257", "pages.statement_2257", 3),
            InfoPageKind::PrivacyChoices => ("title.privacy_choices", "pages.privacy_choices", 3),
        }
    }
}

fn fill(i18n: &I18n, site: &SiteView, key: &str) -> String {
    let days = domain::constants::REACTIVATION_DAYS.to_string();
    let args = [("site", site.name.as_str()), ("company", site.company.name.as_str()), ("email", site.support_email.as_str()), ("days", days.as_str())];
    // The texts with a site setting's number are counted texts (`key#one`, …).
    match key {
        "pages.return_policy.p1" => i18n.plural(key, site.refund_days, &args),
        "pages.faq.a2" => i18n.plural(key, site.message_credits, &args),
        _ => i18n.tf(key, &args),
    }
}

#[component]
pub fn InfoPage(kind: InfoPageKind) -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    let (title_key, prefix, sections) = kind.spec();
    let site = ctx.site.clone();
    let body = match kind {
        InfoPageKind::Faq => view! {
            <div class="faq">
                {(1..=sections)
                    .map(|n| view! {
                        <details class="faq__item">
                            <summary>{fill(&i18n, &site, &format!("{prefix}.q{n}"))}</summary>
                            <p>{fill(&i18n, &site, &format!("{prefix}.a{n}"))}</p>
                        </details>
                    })
                    .collect_view()}
            </div>
        }
        .into_any(),
        InfoPageKind::Service => view! {
            <div class="prose">
                <p class="page__lead">{i18n.t("pages.service.intro")}</p>
                <div class="contact-cards">
                    <a class="contact-card" href=format!("mailto:{}", site.support_email)>
                        <span class="contact-card__label">{i18n.t("pages.contact_email")}</span>
                        <span class="contact-card__value">{site.support_email.clone()}</span>
                    </a>
                    <a class="contact-card" href=format!("tel:{}", site.support_phone_clean)>
                        <span class="contact-card__label">{i18n.t("pages.contact_phone")}</span>
                        <span class="contact-card__value" data-testid="support-phone">{site.support_phone_clean.clone()}</span>
                        <span class="contact-card__hint">{i18n.t("pages.service.hours")}</span>
                    </a>
                </div>
            </div>
        }
        .into_any(),
        _ => view! {
            <div class="prose">
                {(1..=sections)
                    .map(|n| view! {
                        <h2>{fill(&i18n, &site, &format!("{prefix}.h{n}"))}</h2>
                        <p>{fill(&i18n, &site, &format!("{prefix}.p{n}"))}</p>
                    })
                    .collect_view()}
            </div>
        }
        .into_any(),
    };
    let show_version = matches!(kind, InfoPageKind::Terms | InfoPageKind::Privacy);
    let version = i18n.tf("pages.version", &[("date", &i18n.date(site.terms_date))]);
    view! {
        <Title text=i18n.t(title_key)/>
        <article class="container container--narrow page info-page" data-page=format!("{kind:?}").to_lowercase()>
            <h1 class="page__title">{i18n.t(title_key)}</h1>
            {show_version.then(|| view! { <p class="page__meta" data-testid="terms-version">{version}</p> })}
            {body}
            <CompanyDetails/>
        </article>
    }
}

/// Company details from the database, at the foot of every information page.
#[component]
pub fn CompanyDetails() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    let c = ctx.site.company.clone();
    let address = format!("{}, {} {}, {}", c.address, c.postal_code, c.city, c.country);
    view! {
        <aside class="company" aria-labelledby="company-title">
            <h2 id="company-title">{i18n.t("pages.company")}</h2>
            <dl>
                <div><dt>{i18n.t("pages.company_name")}</dt><dd>{c.name.clone()}</dd></div>
                {(!c.tradenames.is_empty()).then(|| view! {
                    <div><dt>{i18n.t("pages.company_tradenames")}</dt><dd>{c.tradenames.join(", ")}</dd></div>
                })}
                <div><dt>{i18n.t("pages.company_address")}</dt><dd>{address}</dd></div>
                <div><dt>{i18n.t("pages.company_kvk")}</dt><dd>{c.kvk.clone()}</dd></div>
                {(!c.vat_numbers.is_empty()).then(|| view! {
                    <div><dt>{i18n.t("pages.company_vat")}</dt><dd>{c.vat_numbers.join(", ")}</dd></div>
                })}
                <div><dt>{i18n.t("pages.contact_email")}</dt><dd><a href=format!("mailto:{}", ctx.site.support_email)>{ctx.site.support_email.clone()}</a></dd></div>
                <div><dt>{i18n.t("pages.contact_phone")}</dt><dd><a href=format!("tel:{}", ctx.site.support_phone_clean)>{ctx.site.support_phone_clean.clone()}</a></dd></div>
            </dl>
        </aside>
    }
}
