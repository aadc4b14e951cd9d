//! Server-side renders of the four layouts: each shows what SPEC §2 lists for it.

use domain::site::{CompanyInfo, Theme};
use domain::Locale;
use leptos::prelude::*;
use leptos_router::components::Router;
use leptos_router::location::RequestUrl;

use app::context::{PageCtx, SiteView};
use app::layouts::{chat::ChatLayout, default::DefaultLayout, empty::EmptyLayout, lander::LanderLayout};

fn ctx(country: &str, entry_popup: bool, entry_accepted: bool) -> PageCtx {
    let company = CompanyInfo {
        id: 1,
        name: "Vonk Media B.V.".into(),
        address: "Keizersgracht 123".into(),
        postal_code: "1015 CJ".into(),
        city: "Amsterdam".into(),
        country: "NL".into(),
        kvk: "81234567".into(),
        tradenames: vec![],
        vat_numbers: vec![],
        support_phone: "+31 20 123".into(),
        delete_discount: 0,
        added: 0,
    };
    PageCtx {
        locale: Locale::Nl,
        texts: server::locales::Catalog::embedded().texts(Locale::Nl),
        site: SiteView {
            name: "Vonk".into(),
            domain: "localhost".into(),
            niche: 1,
            theme: Theme::default(),
            enable_site_entry_popup: entry_popup,
            support_email: "support@vonk.example".into(),
            support_phone: "+31 20 123".into(),
            support_phone_clean: "+3120123".into(),
            message_credits: 10,
            photo_credits: 15,
            gift_credits: 25,
            minimum_message_cost: None,
            logo: None,
            refund_days: 14,
            min_age: 18,
            logged_out_search: true,
            invite_only: false,
            cdn_prefix: String::new(),
            logged_out_search_trafficsource: false,
            fictional_icon: "heart".into(),
            fictional_warning: true,
            fictional_singular: "profiel van een medewerker".into(),
            visible_profile_fields: vec!["gender".into()],
            search_fields: vec!["gender".into(), "age".into()],
            company,
            terms_date: domain::constants::TERMS_VERSION_DATE,
            us_edition: false,
        },
        country: country.into(),
        switcher: vec![Locale::Nl],
        entry_accepted,
        year: 2026,
        member: None,
        push_key: None,
        now: 1_795_348_800,
    }
}

fn render(ctx: PageCtx, layout: fn() -> AnyView) -> String {
    let owner = Owner::new();
    owner.with(|| {
        provide_context(std::sync::Arc::new(ctx));
        provide_context(RequestUrl::new("/somewhere"));
        view! { <Router>{layout()}</Router> }.to_html()
    })
}

const WARNING: &str = r#"data-testid="entry-warning""#;

#[test]
fn default_layout_has_top_bar_footer_disclaimer_and_warning() {
    let html = render(ctx("BE", true, false), || view! { <DefaultLayout><p>"page"</p></DefaultLayout> }.into_any());
    assert!(html.contains("class=\"topbar\"") && html.contains("class=\"footer\""));
    assert!(html.contains("footer__disclaimer"));
    assert!(html.contains("Inloggen"), "visitors see the login button");
    assert!(html.contains(WARNING));
    assert!(html.contains(r#"name="return_to" value="/somewhere""#), "forms return to the current page");
    let html = render(ctx("BE", true, true), || view! { <DefaultLayout><p>"page"</p></DefaultLayout> }.into_any());
    assert!(!html.contains(WARNING), "accepted warning is not shown again");
    let html = render(ctx("BE", false, false), || view! { <DefaultLayout><p>"page"</p></DefaultLayout> }.into_any());
    assert!(!html.contains(WARNING), "the site setting turns the warning off");
}

#[test]
fn chat_layout_is_bare_and_warns_only_in_nl_and_de() {
    let html = render(ctx("NL", true, false), || view! { <ChatLayout><p>"chat"</p></ChatLayout> }.into_any());
    assert!(html.contains("layout--chat") && html.contains(WARNING));
    assert!(!html.contains("class=\"topbar\"") && !html.contains("class=\"footer\""));
    let html = render(ctx("BE", true, false), || view! { <ChatLayout><p>"chat"</p></ChatLayout> }.into_any());
    assert!(!html.contains(WARNING));
}

#[test]
fn lander_layout_has_small_header_and_footer() {
    let html = render(ctx("NL", true, false), || view! { <LanderLayout><p>"lander"</p></LanderLayout> }.into_any());
    assert!(html.contains("lander-header") && html.contains("class=\"logo\""));
    assert!(html.contains("class=\"footer\""));
    assert!(!html.contains("class=\"topbar\""));
}

#[test]
fn empty_layout_has_only_the_page() {
    let html = render(ctx("NL", true, false), || view! { <EmptyLayout><p>"bare"</p></EmptyLayout> }.into_any());
    assert!(html.contains("layout--empty") && html.contains("bare"));
    assert!(!html.contains("class=\"topbar\"") && !html.contains("class=\"footer\"") && !html.contains(WARNING));
}
