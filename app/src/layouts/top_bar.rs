//! Top bar: logo, navigation, language switcher; visitors get login and signup buttons, members
//! their credits (with the low-balance badge), the likes and notifications counters (an island
//! that keeps them fresh) and the account menu (My profile, Settings, Logout).

use domain::counters::{credits_badge, CreditsBadge};
use leptos::prelude::*;

use crate::context::{use_page_ctx, MemberView};
use crate::i18n::use_i18n;
use crate::layouts::language_switcher::LanguageSwitcher;
use crate::layouts::live_counters::{CounterLabels, LiveCounters};
use crate::ui::icons::FlameIcon;
use domain::counters::Counters;

/// The site's logo: the one staff uploaded, else a flame mark and the site name. Visitors go
/// to the home page, members to the members' search (SPEC §2).
#[component]
pub fn Logo() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    let (home, to) = if ctx.member.is_some() { ("/members", "nav.members_home") } else { ("/", "nav.home") };
    let label = format!("{} – {}", ctx.site.name, i18n.t(to));
    match ctx.site.logo.clone() {
        Some(logo) => view! {
            <a class="logo logo--image" href=home aria-label=label>
                <img class="logo__image" src=logo.url() width=logo.width.to_string() height=logo.height.to_string() alt=ctx.site.name.clone()/>
            </a>
        }
        .into_any(),
        None => view! {
            <a class="logo" href=home aria-label=label>
                <span class="logo__mark"><FlameIcon/></span>
                <span class="logo__name">{ctx.site.name.clone()}</span>
            </a>
        }
        .into_any(),
    }
}

#[component]
fn MemberActions(member: MemberView) -> impl IntoView {
    let i18n = use_i18n();
    let badge = credits_badge(member.credits).map(|b| match b {
        CreditsBadge::Red => "credits--red",
        CreditsBadge::Yellow => "credits--yellow",
    });
    let credits_href = if member.paid_user { "/credits/repeat-order" } else { "/premium" };
    view! {
        <a class=format!("credits {}", badge.unwrap_or("")) href=credits_href data-testid="credits">
            {i18n.plural("auth.credits_left", member.credits, &[])}
        </a>
        // The account menu (SPEC §2): a disclosure, so it works without JavaScript.
        <details class="account-menu" data-testid="account-menu">
            <summary class="account-menu__toggle" aria-label=format!("{} – {}", i18n.t("nav.account_menu"), member.name) title=i18n.tf("auth.logged_in_as", &[("name", &member.name)])>
                <span class="account-menu__avatar" aria-hidden="true" data-initial=crate::ui::initial(&member.name)></span>
                <span class="member-name">{member.name.clone()}</span>
            </summary>
            <div class="account-menu__list">
                <a href="/profile">{i18n.t("account.my_profile")}</a>
                <a href="/settings">{i18n.t("account.settings")}</a>
                {member.invites.then(|| view! { <a href="/invitations" data-testid="menu-invitations">{use_i18n().t("invite.title")}</a> })}
                {(!member.staff.is_empty()).then(|| view! { <a href="/staff" data-testid="menu-staff">{use_i18n().t("staff.home.title")}</a> })}
                <ActionForm action={ServerAction::<crate::features::account::server_fns::Logout>::new()}>
                    <button type="submit">{use_i18n().t("account.logout")}</button>
                </ActionForm>
            </div>
        </details>
    }
}

/// SPEC §2: the back button of the installed app, on member, likes and credits screens, and
/// where it leads when there is no page to go back to.
pub fn app_back_target(path: &str) -> Option<&'static str> {
    let under = |prefix: &str| path.strip_prefix(prefix).is_some_and(|rest| rest.starts_with('/'));
    if under("/members") {
        Some("/members")
    } else if under("/likes") {
        Some("/likes")
    } else if path == "/likes" || path == "/credits" || path == "/premium" || path == "/transactions" {
        Some("/members")
    } else if under("/credits") {
        Some("/credits")
    } else if under("/transactions") {
        Some("/transactions")
    } else {
        None
    }
}

#[component]
pub fn TopBar() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    // Shown only in the installed app (`display-mode: standalone`, in the stylesheet); the
    // counters' island makes it go back in history when there is history to go back to.
    let back = app_back_target(&leptos_router::hooks::use_location().pathname.get_untracked()).map(|to| {
        view! {
            <a class="topbar__back" href=to data-app-back="" aria-label=i18n.t("nav.back")>
                <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/></svg>
            </a>
        }
    });
    let actions = match ctx.member.clone() {
        Some(member) => view! { <MemberActions member=member/> }.into_any(),
        None => view! {
            <a class="btn btn--ghost btn--small" href="/login">{i18n.t("nav.login")}</a>
            {if ctx.site.invite_only {
                view! { <a class="btn btn--primary btn--small topbar__signup" href="/signup">{i18n.t("nav.invite_only")}</a> }.into_any()
            } else {
                view! { <a class="btn btn--primary btn--small topbar__signup" href="/signup" data-signup-link="">{i18n.t("nav.signup")}</a> }.into_any()
            }}
        }
        .into_any(),
    };
    view! {
        <header class="topbar" class:topbar--member=ctx.member.is_some()>
            <div class="topbar__inner">
                {back}
                <Logo/>
                <nav class="topbar__nav" aria-label=i18n.t("nav.main")>
                    <a class="topbar__link topbar__link--search" href="/members" aria-label=i18n.t("nav.search")>
                        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" stroke-width="2.2"/><path d="M15.5 15.5L21 21" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/></svg>
                        <span class="topbar__link-text">{i18n.t("nav.search")}</span>
                    </a>
                    {ctx.member.as_ref().map(|m| {
                        // The notifications page marks them read while it renders.
                        let on_notifications = leptos_router::hooks::use_location().pathname.get_untracked() == "/notifications";
                        let counts = if on_notifications { Counters { notifications: 0, ..m.counters } } else { m.counters };
                        let labels = CounterLabels { messages: use_i18n().t("nav.messages"), likes: use_i18n().t("nav.likes"), notifications: use_i18n().t("nav.notifications") };
                        view! { <LiveCounters counts=counts labels=labels/> }
                    })}
                    <a class="topbar__link topbar__link--wide" href="/pricing">{i18n.t("footer.pricing")}</a>
                </nav>
                <div class="topbar__actions">
                    <LanguageSwitcher/>
                    {actions}
                </div>
            </div>
        </header>
    }
}
