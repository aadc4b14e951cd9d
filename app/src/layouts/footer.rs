//! Footer: every information link of SPEC §2, the disclaimer and the company line.

use leptos::prelude::*;

use crate::context::use_page_ctx;
use crate::i18n::use_i18n;
use crate::layouts::top_bar::Logo;

/// Footer links: (locale key, path).
pub const FOOTER_LINKS: [(&str, &str); 9] = [
    ("footer.terms", "/pages/terms"),
    ("footer.privacy", "/pages/privacy"),
    ("footer.cookies", "/pages/cookies"),
    ("footer.ban", "/pages/ban"),
    ("footer.pricing", "/pricing"),
    ("footer.complaints", "/complaints"),
    ("footer.return_policy", "/pages/return-policy"),
    ("footer.faq", "/pages/faq"),
    ("footer.support", "/pages/service"),
];

/// The US edition's extra links (SPEC §1).
pub const US_FOOTER_LINKS: [(&str, &str); 2] = [("footer.statement_2257", "/pages/2257"), ("footer.privacy_choices", "/pages/privacy-choices")];

#[component]
pub fn Footer() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    let site = ctx.site.name.clone();
    let year = ctx.year.to_string();
    let us = ctx.site.us_edition;
    view! {
        <footer class="footer">
            <div class="footer__inner">
                <div class="footer__brand">
                    <Logo/>
                    <p class="footer__tagline">{i18n.t("site.tagline")}</p>
                    <p class="footer__age" aria-hidden="true">"18+"</p>
                </div>
                <nav class="footer__links" aria-label=i18n.t("footer.links")>
                    <ul>
                        {FOOTER_LINKS
                            .iter()
                            .map(|(key, href)| view! { <li><a href=*href>{i18n.t(key)}</a></li> })
                            .collect_view()}
                        {us.then(|| US_FOOTER_LINKS.iter().map(|(key, href)| view! { <li><a href=*href>{use_i18n().t(key)}</a></li> }).collect_view())}
                    </ul>
                </nav>
            </div>
            <div class="footer__legal">
                <p class="footer__disclaimer">{i18n.tf("footer.disclaimer", &[("site", &site)])}</p>
                {us.then(|| view! { <p class="footer__disclaimer" data-testid="footer-us">{use_i18n().tf("footer.us_records", &[("site", &use_page_ctx().site.name), ("company", &use_page_ctx().site.company.name)])}</p> })}
                <p class="footer__copyright">{i18n.tf("footer.copyright", &[("year", &year), ("company", &ctx.site.company.name)])}</p>
            </div>
        </footer>
    }
}
