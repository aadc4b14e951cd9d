//! `/`: the home page for visitors: hero, how it works, why us, and a call to sign up.

use leptos::prelude::*;
use leptos_meta::{Meta, Title};

use crate::context::use_page_ctx;
use crate::i18n::use_i18n;
use crate::ui::icons::{ChatIcon, GiftIcon, HeartIcon, MaskIcon, ShieldIcon};

#[component]
pub fn HomePage() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    let site = ctx.site.name.clone();
    // Members see no signup calls to action.
    let visitor = ctx.member.is_none() && !ctx.site.invite_only;
    let final_cta = visitor.then(|| {
        view! {
            <section class="section">
                <div class="container">
                    <div class="cta-band">
                        <span class="cta-band__icon"><ChatIcon/></span>
                        <div class="cta-band__copy">
                            <h2>{i18n.t("home.final_title")}</h2>
                            <p>{i18n.t("home.final_body")}</p>
                        </div>
                        <a class="btn btn--light btn--large" href="/signup" data-signup-link="">{i18n.t("home.cta_signup")}</a>
                    </div>
                </div>
            </section>
        }
    });
    let steps = [("1", "home.step1_title", "home.step1_body"), ("2", "home.step2_title", "home.step2_body"), ("3", "home.step3_title", "home.step3_body")];
    view! {
        <Title text=i18n.t("title.home")/>
        <Meta name="description" content=i18n.t("home.hero_subtitle")/>
        <section class="hero">
            <div class="hero__glow" aria-hidden="true"></div>
            <div class="hero__inner">
                <div class="hero__copy">
                    <p class="hero__eyebrow"><span class="dot" aria-hidden="true"></span>{i18n.t("site.tagline")}</p>
                    <h1 class="hero__title">{i18n.t("home.hero_title")}</h1>
                    <p class="hero__subtitle">{i18n.t("home.hero_subtitle")}</p>
                    <div class="hero__actions">
                        {visitor.then(|| view! { <a class="btn btn--primary btn--large" href="/signup" data-signup-link="">{i18n.t("home.cta_signup")}</a> })}
                        <a class="btn btn--light btn--large" href="/pricing">{i18n.t("title.pricing")}</a>
                    </div>
                </div>
                <div class="hero__art" aria-hidden="true">
                    <div class="bubble bubble--one"><span class="avatar avatar--a"></span><span class="bubble__lines"><i></i><i></i></span></div>
                    <div class="bubble bubble--two"><span class="avatar avatar--b"></span><span class="bubble__lines"><i></i><i></i></span></div>
                    <div class="bubble bubble--three"><HeartIcon/></div>
                    <div class="hero__card">
                        <span class="avatar avatar--c avatar--large"></span>
                        <span class="hero__card-lines"><i></i><i></i><i></i></span>
                        <span class="hero__card-actions"><span class="round round--pass"></span><span class="round round--like"><HeartIcon/></span></span>
                    </div>
                </div>
            </div>
        </section>

        <section class="section" aria-labelledby="how-title">
            <div class="container">
                <h2 id="how-title" class="section__title">{i18n.t("home.how_title")}</h2>
                <ol class="steps">
                    {steps
                        .into_iter()
                        .map(|(n, title, body)| view! {
                            <li class="step">
                                <span class="step__number" aria-hidden="true">{n}</span>
                                <h3>{i18n.t(title)}</h3>
                                <p>{i18n.t(body)}</p>
                            </li>
                        })
                        .collect_view()}
                </ol>
            </div>
        </section>

        <section class="section section--tinted" aria-labelledby="why-title">
            <div class="container">
                <h2 id="why-title" class="section__title">{i18n.tf("home.why_title", &[("site", &site)])}</h2>
                <div class="features">
                    <article class="feature">
                        <span class="feature__icon"><MaskIcon/></span>
                        <h3>{i18n.t("home.feature_privacy_title")}</h3>
                        <p>{i18n.t("home.feature_privacy_body")}</p>
                    </article>
                    <article class="feature">
                        <span class="feature__icon"><GiftIcon/></span>
                        <h3>{i18n.t("home.feature_free_title")}</h3>
                        <p>{i18n.t("home.feature_free_body")}</p>
                    </article>
                    <article class="feature">
                        <span class="feature__icon"><ShieldIcon/></span>
                        <h3>{i18n.t("home.feature_safe_title")}</h3>
                        <p>{i18n.t("home.feature_safe_body")}</p>
                    </article>
                </div>
            </div>
        </section>

        {final_cta}
    }
}
