//! The document shell (server only) and the application router. Pages render on the server;
//! interactive parts are islands (see lib.rs).

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Stylesheet, Title};
use leptos_router::components::{ParentRoute, Route, Router, Routes};
use leptos_router::{path, SsrMode, StaticSegment};

use crate::context::PageCtx;
use crate::features::account::activate::{AccountDeletedPage, ActivateDonePage, ActivateErrorPage, ActivatePage, MailChangePage};
use crate::features::account::basics::CompleteSignupPage;
use crate::features::account::invitation::{InvitationsPage, InviteGate};
use crate::features::account::login::LoginPage;
use crate::features::account::profile::ProfilePage;
use crate::features::account::reset::{ResetPasswordDoPage, ResetPasswordPage};
use crate::features::account::security::{MailUndoPage, TwoStepLoginPage, TwoStepSetupPage};
use crate::features::account::settings::SettingsPage;
use crate::features::account::signup::SignupPage;
use crate::features::account::unsubscribe::UnsubscribePage;
use crate::features::chat::console::OperatorConsolePage;
use crate::features::chat::page::{ChatRoute, ChatsPage};
use crate::features::complaints::ComplaintsPage;
use crate::features::credits::pages::{
    CheckoutPage, CreditsPage, DirectDebitPage, PremiumPage, RepeatOrderPage, TestCheckoutPage, TransactionPage, TransactionsPage,
};
use crate::features::credits::pricing::PricingPage;
use crate::features::landers::{LanderPage, ProfileLanderPage};
use crate::features::likes::finder::{MatchFinderPage, SignupMatchesPage};
use crate::features::likes::page::LikesPage;
use crate::features::likes::swipe::SwipeGamePage;
use crate::features::members::landing::{MemberLandingPage, MemberSignupPage};
use crate::features::members::profile::MemberProfilePage;
use crate::features::members::search::MembersPage;
use crate::features::notifications::NotificationsPage;
use crate::features::pages::info::{InfoPage, InfoPageKind};
use crate::features::site::error_page::NotFoundPage;
use crate::features::site::home::HomePage;
use crate::features::site::lang_config::LangConfigPage;
use crate::features::staff::complaints::{StaffComplaintsPage, StaffHomePage};
use crate::features::staff::members::StaffMembersPage;
use crate::features::staff::photos::PhotoReviewPage;
use crate::features::staff::pricing::StaffPricingPage;
use crate::features::staff::site::StaffSitePage;
use crate::layouts::chat::ChatLayout;
use crate::layouts::default::DefaultLayout;

/// SPEC §7–§9, before any other script: a script or wasm that failed to load (a deploy replaced
/// it, the network dropped) reloads the page once, and not again within 60 s; and a loading bar
/// while the next page is on its way, from 200 ms after the click or submit, for at most 5 s.
/// A trap of the wasm after it loaded (a lazy island's module that a deploy replaced before the
/// island hydrated, or the network dropped: the split loader's failure aborts the wasm) leaves
/// every island of the page dead, so that too reloads the page once.
/// It marks the root `js` (without JavaScript a widget's empty placeholder is hidden, so no
/// loading box stays above the page's own fallback), and the installed app (`installed-app` on
/// the root, for iOS's `navigator.standalone` as well as `display-mode: standalone`), which
/// shows SPEC §2's back button. It keeps the browser's time zone in the `tz` cookie
/// (`domain::constants::TIME_ZONE_COOKIE`: lifecycle messages keep out of the member's night).
/// A reload held back (one came less than 60 s ago) marks the root
/// `data-reload-held`, so a test knows the page has decided to stay.
pub const CLIENT_RESILIENCE: &str = r#"(function(){var d=document;d.documentElement.classList.add('js');try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(/^[A-Za-z0-9_\/+-]{1,64}$/.test(z)&&d.cookie.indexOf('tz='+z)<0)d.cookie='tz='+z+';path=/;max-age=31536000;samesite=lax'+(location.protocol=='https:'?';secure':'')}catch(x){}try{if(matchMedia('(display-mode: standalone)').matches||navigator.standalone)d.documentElement.classList.add('installed-app')}catch(x){}
function b(){try{var k='vonk-reloaded-at',t=+sessionStorage.getItem(k)||0;if(Date.now()-t>6e4){sessionStorage.setItem(k,String(Date.now()));location.reload()}else d.documentElement.setAttribute('data-reload-held','')}catch(x){}}
function w(v){return!!(window.WebAssembly&&v instanceof WebAssembly.RuntimeError)}
addEventListener('unhandledrejection',function(e){if(w(e.reason))return b();if(window.vonkLoaded)return;var m=String(e.reason&&(e.reason.message||e.reason));if(/dynamically imported module|Importing a module script failed|WebAssembly|Failed to fetch|NetworkError|error loading/i.test(m))b()});
addEventListener('error',function(e){var t=e.target;if(t&&(t.tagName=='SCRIPT'||t.tagName=='LINK'&&t.rel=='modulepreload')||w(e.error))b()},!0);
var i,r;function s(){clearTimeout(i);if(r){r.remove();r=null}}
function g(e){s();i=setTimeout(function(){if(e.defaultPrevented)return;r=d.createElement('div');r.className='loading-bar';r.setAttribute('aria-hidden','true');d.body.appendChild(r);i=setTimeout(s,5e3)},200)}
d.addEventListener('click',function(e){var a=e.target&&e.target.closest?e.target.closest('a[href]'):null;if(!a||e.button||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey||a.target||a.hasAttribute('download'))return;var u=new URL(a.href,location.href);if(u.origin!=location.origin||u.pathname==location.pathname&&u.search==location.search)return;g(e)});
d.addEventListener('submit',g);addEventListener('pageshow',s)})();"#;

/// `make dev`'s live reload (only with `VONK_DEV_RELOAD`): the page listens to `/__dev/reload`,
/// which names the server's start, and reloads when a restarted server names another.
pub const DEV_RELOAD: &str =
    r#"(function(){var f,s=new EventSource('/__dev/reload');s.onmessage=function(e){if(f&&f!==e.data)location.reload();f=e.data}})();"#;

/// The `lb` page-bounce beacon (issue: landers), on pages whose address has `lb`: when the page
/// is hidden before the visitor did anything (a click on a control, a form sent), one `POST`
/// with an empty JSON body tells the server that this landing bounced.
pub const BOUNCE_BEACON: &str = r#"(function(){var d=document,g=!1;d.addEventListener('click',function(e){if(e.target&&e.target.closest&&e.target.closest('a[href],button,input,select,textarea,label'))g=!0},!0);
d.addEventListener('submit',function(){g=!0},!0);
d.addEventListener('visibilitychange',function(){if(d.visibilityState!='hidden'||g)return;g=!0;try{navigator.sendBeacon('/api/fn/page_bounce',new Blob(['{}'],{type:'application/json'}))}catch(x){}})})();"#;

/// Whether this request's address asks for the bounce beacon (`lb` among its query's names).
fn wants_bounce_beacon() -> bool {
    #[cfg(feature = "ssr")]
    {
        use_context::<http::request::Parts>()
            .and_then(|p| p.uri.query().map(|q| q.split('&').any(|pair| pair.split('=').next() == Some("lb"))))
            .unwrap_or(false)
    }
    #[cfg(not(feature = "ssr"))]
    {
        false
    }
}

/// The HTML document. Runs on the server only; `ctx` is embedded for the browser.
pub fn shell(options: LeptosOptions, ctx: PageCtx) -> impl IntoView {
    let theme = &ctx.site.theme;
    let style = format!("--color-primary:{};--color-secondary:{};--color-accent:{}", theme.primary, theme.secondary, theme.accent);
    let lang = ctx.locale.code();
    let cdn = ctx.site.cdn_prefix.clone();
    // Visitors of an invite-only site see no way to sign up but the invitation's own link.
    let invite_only = (ctx.site.invite_only && ctx.member.is_none()).then_some("");
    provide_context(std::sync::Arc::new(ctx));
    let assets = crate::context::use_asset_urls();
    view! {
        <!DOCTYPE html>
        <html lang=lang style=style data-widgets=format!("{cdn}{}", assets.widgets) data-invite-only=invite_only>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover"/>
                <meta name="theme-color" content="#8b0d1a"/>
                <link rel="icon" href="/favicon.svg" type="image/svg+xml"/>
                <link rel="manifest" href="/manifest.webmanifest"/>
                <script nonce=leptos::nonce::use_nonce() inner_html=CLIENT_RESILIENCE></script>
                {wants_bounce_beacon().then(|| view! { <script nonce=leptos::nonce::use_nonce() inner_html=BOUNCE_BEACON></script> })}
                {assets.dev_reload.then(|| view! { <script nonce=leptos::nonce::use_nonce() inner_html=DEV_RELOAD></script> })}
                <HydrationScripts options islands=true root=format!("{cdn}{}", assets.script_root)/>
                <MetaTags/>
            </head>
            <body>
                <crate::ui::icons::IconSprite/>
                <App/>
            </body>
        </html>
    }
}

/// The application: layouts and routes (SPEC §2). Every route is rendered whole on the server
/// once its data is there (`SsrMode::Async`), so a page arrives complete, works without
/// JavaScript, and its `<title>` and meta tags, which often depend on that data, are in the head
/// (with in-order streaming they were missing from about half the responses of data pages).
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    // Absent only while the route list is generated at start-up.
    let ctx = use_context::<std::sync::Arc<PageCtx>>();
    let site_name = ctx.as_ref().map(|ctx| ctx.site.name.clone()).unwrap_or_default();
    // SPEC §2: titles start with the count of unread messages plus new likes.
    let prefix = ctx.and_then(|ctx| ctx.member.clone()).and_then(|m| m.counters.title_prefix()).unwrap_or_default();
    view! {
        <Stylesheet id="leptos" href=format!("{}{}", crate::context::cdn_prefix(), crate::context::use_asset_urls().stylesheet)/>
        <Title formatter=move |text: String| format!("{prefix}{text} | {site_name}")/>
        <Router>
            <Routes fallback=|| view! { <DefaultLayout><NotFoundPage/></DefaultLayout> }>
                <ParentRoute path=path!("") view=ChatLayoutOutlet>
                    <Route ssr=SsrMode::Async path=path!("/chats") view=|| view! { <ChatsPage route=ChatRoute::List/> }/>
                    <Route ssr=SsrMode::Async path=path!("/chats/:id") view=|| view! { <ChatsPage route=ChatRoute::Conversation/> }/>
                    <Route ssr=SsrMode::Async path=path!("/members/:id/chat") view=|| view! { <ChatsPage route=ChatRoute::Member/> }/>
                </ParentRoute>
                // `/join`: the signup page alone, for a link from elsewhere (an ad, a partner's
                // site): no navigation to wander off through, the terms and privacy linked in the form.
                <ParentRoute path=path!("") view=EmptyLayoutOutlet>
                    <Route ssr=SsrMode::Async path=path!("/join") view=|| view! { <InviteGate><SignupPage/></InviteGate> }/>
                </ParentRoute>
                <ParentRoute path=path!("") view=LanderLayoutOutlet>
                    <Route ssr=SsrMode::Async path=path!("/landers/:design") view=LanderPage/>
                    <Route ssr=SsrMode::Async path=path!("/landers/:design/:slug") view=LanderPage/>
                    <Route ssr=SsrMode::Async path=path!("/members/:id/landing2") view=|| view! { <ProfileLanderPage kind="landing2"/> }/>
                    <Route ssr=SsrMode::Async path=path!("/members/:id/landing2/:slug") view=|| view! { <ProfileLanderPage kind="landing2"/> }/>
                    <Route ssr=SsrMode::Async path=path!("/members/:id/landing3") view=|| view! { <ProfileLanderPage kind="landing3"/> }/>
                    <Route ssr=SsrMode::Async path=path!("/members/:id/landing3/:slug") view=|| view! { <ProfileLanderPage kind="landing3"/> }/>
                </ParentRoute>
                <ParentRoute path=path!("") view=DefaultLayoutOutlet>
                    <Route ssr=SsrMode::Async path=StaticSegment("") view=HomePage/>
                    <Route ssr=SsrMode::Async path=path!("/pricing") view=PricingPage/>
                    <Route ssr=SsrMode::Async path=path!("/credits") view=CreditsPage/>
                    <Route ssr=SsrMode::Async path=path!("/credits/repeat-order") view=RepeatOrderPage/>
                    <Route ssr=SsrMode::Async path=path!("/credits/:id") view=CheckoutPage/>
                    <Route ssr=SsrMode::Async path=path!("/credits/:id/:method") view=CheckoutPage/>
                    <Route ssr=SsrMode::Async path=path!("/premium") view=PremiumPage/>
                    <Route ssr=SsrMode::Async path=path!("/transactions") view=TransactionsPage/>
                    <Route ssr=SsrMode::Async path=path!("/transactions/:id") view=TransactionPage/>
                    <Route ssr=SsrMode::Async path=path!("/directdebit") view=DirectDebitPage/>
                    <Route ssr=SsrMode::Async path=path!("/checkout/test/:id") view=TestCheckoutPage/>
                    <Route ssr=SsrMode::Async path=path!("/age-check") view=crate::features::account::age_check::AgeCheckPage/>
                    <Route ssr=SsrMode::Async path=path!("/age-check/test/:id") view=crate::features::account::age_check::TestAgeCheckPage/>
                    <Route ssr=SsrMode::Async path=path!("/lang-config") view=LangConfigPage/>
                    <Route ssr=SsrMode::Async path=path!("/login") view=LoginPage/>
                    <Route ssr=SsrMode::Async path=path!("/login/two-step") view=TwoStepLoginPage/>
                    <Route ssr=SsrMode::Async path=path!("/signup") view=|| view! { <InviteGate><SignupPage/></InviteGate> }/>
                    <Route ssr=SsrMode::Async path=path!("/invitations") view=InvitationsPage/>
                    <Route ssr=SsrMode::Async path=path!("/profile") view=ProfilePage/>
                    <Route ssr=SsrMode::Async path=path!("/settings") view=SettingsPage/>
                    <Route ssr=SsrMode::Async path=path!("/settings/two-step") view=TwoStepSetupPage/>
                    <Route ssr=SsrMode::Async path=path!("/members") view=MembersPage/>
                    <Route ssr=SsrMode::Async path=path!("/members/:id") view=MemberProfilePage/>
                    <Route ssr=SsrMode::Async path=path!("/members/:id/landing") view=MemberLandingPage/>
                    <Route ssr=SsrMode::Async path=path!("/members/:id/signup") view=MemberSignupPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff") view=StaffHomePage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/complaints") view=StaffComplaintsPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/members") view=StaffMembersPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/members/conversations") view=crate::features::staff::member_conversations::MemberConversationsPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/photos") view=PhotoReviewPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/texts") view=crate::features::staff::texts::TextReviewPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/chat-photos") view=crate::features::staff::chat_photos::ChatPhotoReviewPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/site") view=StaffSitePage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/pricing") view=StaffPricingPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/chats") view=OperatorConsolePage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/held") view=crate::features::staff::held::HeldReviewPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/jobs") view=crate::features::staff::jobs::JobsPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/figures/postbacks") view=crate::features::staff::postbacks::PostbacksPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/figures/tests") view=crate::features::staff::splits::SplitTestsPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/figures") view=crate::features::staff::figures::FiguresPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/figures/members") view=crate::features::staff::figures::FigureMembersPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/mails") view=crate::features::staff::mails::MailsPage/>
                    <Route ssr=SsrMode::Async path=path!("/staff/payments") view=crate::features::staff::payments::StaffPaymentsPage/>
                    <Route ssr=SsrMode::Async path=path!("/likes") view=LikesPage/>
                    <Route ssr=SsrMode::Async path=path!("/likes/:type") view=LikesPage/>
                    <Route ssr=SsrMode::Async path=path!("/swipe-game") view=SwipeGamePage/>
                    <Route ssr=SsrMode::Async path=path!("/match-finder") view=MatchFinderPage/>
                    <Route ssr=SsrMode::Async path=path!("/signup-matches") view=SignupMatchesPage/>
                    <Route ssr=SsrMode::Async path=path!("/notifications") view=NotificationsPage/>
                    <Route ssr=SsrMode::Async path=path!("/complete-signup") view=CompleteSignupPage/>
                    <Route ssr=SsrMode::Async path=path!("/unsubscribe") view=UnsubscribePage/>
                    <Route ssr=SsrMode::Async path=path!("/sign-in") view=crate::features::account::sign_in_link::SignInLinkPage/>
                    <Route ssr=SsrMode::Async path=path!("/reset-password") view=ResetPasswordPage/>
                    <Route ssr=SsrMode::Async path=path!("/reset-password/do") view=ResetPasswordDoPage/>
                    <Route ssr=SsrMode::Async path=path!("/activate") view=ActivatePage/>
                    <Route ssr=SsrMode::Async path=path!("/activate/done") view=ActivateDonePage/>
                    <Route ssr=SsrMode::Async path=path!("/activate/error") view=ActivateErrorPage/>
                    <Route ssr=SsrMode::Async path=path!("/mail-change/do") view=MailChangePage/>
                    <Route ssr=SsrMode::Async path=path!("/mail-change/undo") view=MailUndoPage/>
                    <Route ssr=SsrMode::Async path=path!("/account-deleted") view=AccountDeletedPage/>
                    <Route ssr=SsrMode::Async path=path!("/complaints") view=ComplaintsPage/>
                    <Route ssr=SsrMode::Async path=path!("/pages/terms") view=|| view! { <InfoPage kind=InfoPageKind::Terms/> }/>
                    <Route ssr=SsrMode::Async path=path!("/pages/privacy") view=|| view! { <InfoPage kind=InfoPageKind::Privacy/> }/>
                    <Route ssr=SsrMode::Async path=path!("/pages/cookies") view=|| view! { <InfoPage kind=InfoPageKind::Cookies/> }/>
                    <Route ssr=SsrMode::Async path=path!("/pages/ban") view=|| view! { <InfoPage kind=InfoPageKind::Ban/> }/>
                    <Route ssr=SsrMode::Async path=path!("/pages/return-policy") view=|| view! { <InfoPage kind=InfoPageKind::ReturnPolicy/> }/>
                    <Route ssr=SsrMode::Async path=path!("/pages/faq") view=|| view! { <InfoPage kind=InfoPageKind::Faq/> }/>
                    <Route ssr=SsrMode::Async path=path!("/pages/service") view=|| view! { <InfoPage kind=InfoPageKind::Service/> }/>
                    <Route ssr=SsrMode::Async path=path!("/pages/2257") view=|| view! { <InfoPage kind=InfoPageKind::Statement2257/> }/>
                    <Route ssr=SsrMode::Async path=path!("/pages/privacy-choices") view=|| view! { <InfoPage kind=InfoPageKind::PrivacyChoices/> }/>
                </ParentRoute>
            </Routes>
        </Router>
    }
}

#[component]
fn ChatLayoutOutlet() -> impl IntoView {
    view! { <ChatLayout><leptos_router::components::Outlet/></ChatLayout> }
}

#[component]
fn EmptyLayoutOutlet() -> impl IntoView {
    view! { <crate::layouts::empty::EmptyLayout><leptos_router::components::Outlet/></crate::layouts::empty::EmptyLayout> }
}

#[component]
fn LanderLayoutOutlet() -> impl IntoView {
    view! { <crate::layouts::lander::LanderLayout><leptos_router::components::Outlet/></crate::layouts::lander::LanderLayout> }
}

#[component]
fn DefaultLayoutOutlet() -> impl IntoView {
    view! { <DefaultLayout><leptos_router::components::Outlet/></DefaultLayout> }
}
