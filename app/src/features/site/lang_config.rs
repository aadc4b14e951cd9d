//! `/lang-config`: choose the language: the country's languages first, then all others.

use domain::Locale;
use leptos::prelude::*;
use leptos_meta::Title;

use crate::context::use_page_ctx;
use crate::i18n::use_i18n;
use crate::ui::icons::CheckIcon;

#[component]
fn LanguageChoice(locale: Locale, current: Locale) -> impl IntoView {
    let active = locale == current;
    view! {
        <li>
            <ActionForm action={ServerAction::<crate::features::account::server_fns::SetLanguage>::new()}>
                <input type="hidden" name="lang" value=locale.code()/>
                <input type="hidden" name="return_to" value="/lang-config"/>
                <button type="submit" class="lang-card" class:is-active=active aria-pressed=active.to_string() lang=locale.code() data-lang=locale.code()>
                    <span class="lang-card__code">{locale.code().to_uppercase()}</span>
                    <span class="lang-card__name">{locale.autonym()}</span>
                    {active.then(|| view! { <span class="lang-card__check"><CheckIcon/></span> })}
                </button>
            </ActionForm>
        </li>
    }
}

#[component]
pub fn LangConfigPage() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    let current = ctx.locale;
    let country_langs = domain::locale::visible_for_country(&ctx.country);
    let others: Vec<Locale> = Locale::ALL.into_iter().filter(|l| !country_langs.contains(l)).collect();
    view! {
        <Title text=i18n.t("title.lang_config")/>
        <div class="container container--narrow page">
            <h1 class="page__title">{i18n.t("lang.title")}</h1>
            <p class="page__lead">{i18n.t("lang.intro")}</p>
            <h2 class="page__subtitle">{i18n.t("lang.for_country")}</h2>
            <ul class="lang-grid">
                {country_langs.into_iter().map(|l| view! { <LanguageChoice locale=l current=current/> }).collect_view()}
            </ul>
            {(!others.is_empty()).then(|| view! {
                <h2 class="page__subtitle">{i18n.t("lang.other")}</h2>
                <ul class="lang-grid">
                    {others.into_iter().map(|l| view! { <LanguageChoice locale=l current=current/> }).collect_view()}
                </ul>
            })}
        </div>
    }
}
