//! Top bar: logo, navigation, language switcher, and the visitor's login / signup buttons.
//! The member navigation (search, messages, likes, credits or premium, pills, account menu)
//! takes the visitor buttons' place once a member is logged in.

use leptos::prelude::*;

use crate::context::use_page_ctx;
use crate::i18n::use_i18n;
use crate::layouts::icons::FlameIcon;
use crate::layouts::language_switcher::LanguageSwitcher;

/// The site's logo: a flame mark and the site name. Visitors go to the home page.
#[component]
pub fn Logo() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    view! {
        <a class="logo" href="/" aria-label=i18n.t("nav.home")>
            <span class="logo__mark"><FlameIcon/></span>
            <span class="logo__name">{ctx.site.name.clone()}</span>
        </a>
    }
}

#[component]
pub fn TopBar() -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <header class="topbar">
            <div class="topbar__inner">
                <Logo/>
                <nav class="topbar__nav" aria-label=i18n.t("nav.main")>
                    <a class="topbar__link topbar__link--wide" href="/pricing">{i18n.t("footer.pricing")}</a>
                </nav>
                <div class="topbar__actions">
                    <LanguageSwitcher/>
                    <a class="btn btn--ghost btn--small" href="/login">{i18n.t("nav.login")}</a>
                    <a class="btn btn--primary btn--small topbar__signup" href="/signup">{i18n.t("nav.signup")}</a>
                </div>
            </div>
        </header>
    }
}
