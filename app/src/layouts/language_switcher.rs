//! Language switcher: the languages visible for the visitor's country as the buttons of one form that
//! posts to the `set_language` server function (works without JavaScript), and a link to all languages.

use leptos::prelude::*;
use leptos::server_fn::ServerFn;

use crate::context::use_page_ctx;
use crate::features::account::server_fns::SetLanguage;
use crate::i18n::use_i18n;
use crate::ui::icons::GlobeIcon;

#[component]
pub fn LanguageSwitcher() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    // Rendered on the server (pages are not hydrated), so the value is the request's path.
    let return_to = crate::ui::forms::current_path();
    let current = ctx.locale;
    let choices = ctx.switcher.clone();
    // One form for all choices: the pressed button sends its `lang` (a form per language repeated
    // the return address on every page).
    view! {
        <details class="lang-switcher">
            <summary class="lang-switcher__toggle" aria-label=format!("{}: {}", i18n.t("nav.language"), current.code().to_uppercase())>
                <GlobeIcon/>
                <span class="lang-switcher__code">{current.code().to_uppercase()}</span>
            </summary>
            <div class="lang-switcher__menu">
                <form method="post" action=SetLanguage::url()>
                    <input type="hidden" name="return_to" value=return_to/>
                    <ul class="lang-switcher__list">
                        {choices
                            .into_iter()
                            .map(|locale| {
                                let active = locale == current;
                                view! {
                                    <li>
                                        <button
                                            type="submit"
                                            name="lang"
                                            value=locale.code()
                                            class="lang-switcher__choice"
                                            class:is-active=active
                                            lang=locale.code()
                                            aria-current=active.then_some("true")
                                            data-lang=locale.code()
                                        >
                                            {locale.autonym()}
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                </form>
                <a class="lang-switcher__more" href="/lang-config">{i18n.t("lang.other")}</a>
            </div>
        </details>
    }
}
