//! The per-page context: site, language and texts, built on the server from the request.
//! Islands (the interactive parts) get what they need as props instead.

use std::sync::Arc;

use domain::i18n::Texts;
use domain::site::{CompanyInfo, Theme};
use domain::Locale;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The public part of a site's settings, as pages need it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteView {
    pub name: String,
    pub domain: String,
    pub niche: u8,
    pub theme: Theme,
    pub enable_site_entry_popup: bool,
    pub support_email: String,
    pub support_phone: String,
    pub support_phone_clean: String,
    pub message_credits: i64,
    pub photo_credits: i64,
    pub gift_credits: i64,
    /// SPEC §6: the least a message costs in the visitor's country (minor units, currency).
    pub minimum_message_cost: Option<(i64, String)>,
    pub refund_days: i64,
    pub min_age: u32,
    pub logged_out_search: bool,
    /// Signing up needs an invitation link (SPEC §3 `signups = invite_only`).
    pub invite_only: bool,
    /// Where browsers fetch the built files and public portraits (a CDN); empty: this site.
    #[serde(default)]
    pub cdn_prefix: String,
    pub logged_out_search_trafficsource: bool,
    /// Operator-run profiles carry this icon name and, when `fictional_warning`, a notice
    /// using `fictional_singular` (SPEC §3).
    pub fictional_icon: String,
    pub fictional_warning: bool,
    pub fictional_singular: String,
    pub visible_profile_fields: Vec<String>,
    /// The search form's fields (`search_fields`, `domain::search::SEARCH_FIELDS`).
    pub search_fields: Vec<String>,
    /// The uploaded logo (else the flame mark and the name).
    pub logo: Option<domain::site::Logo>,
    pub company: CompanyInfo,
    /// Terms version date (unix seconds).
    pub terms_date: i64,
    /// The US edition's footer (2257 statement, privacy choices).
    pub us_edition: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageCtx {
    pub locale: Locale,
    pub texts: Arc<Texts>,
    pub site: SiteView,
    /// The visitor's country (from the site's GeoIP settings until a GeoIP database exists).
    pub country: String,
    /// Languages offered by the switcher.
    pub switcher: Vec<Locale>,
    pub entry_accepted: bool,
    /// Current calendar year, for the copyright line.
    pub year: i64,
    /// The logged-in member, if any.
    pub member: Option<MemberView>,
    /// Now, in unix seconds (for date rules such as the minimum age).
    pub now: i64,
    /// The VAPID public key browsers subscribe to web push with; `None` when push is off.
    pub push_key: Option<String>,
}

/// What the shell shows of the logged-in member.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemberView {
    pub name: String,
    pub email: String,
    pub invisible: bool,
    pub credits: i64,
    pub paid_user: bool,
    pub confirmed: bool,
    /// The profile is hidden until the address is confirmed.
    pub profile_disabled: bool,
    /// `/complete-signup` has been filled in.
    pub basics_complete: bool,
    /// Why notification mails are off (`spam`, `bounce`, `list_unsubscribe`); empty when on.
    pub notifications_disabled: Vec<String>,
    /// Alerts the member dismissed for good.
    pub dismissed_alerts: Vec<String>,
    /// The chosen main photo (SPEC §3 main_image); `None` shows the profile photo alert.
    pub main_photo: Option<i64>,
    /// Staff roles (none for a member): which staff pages and links this account gets.
    pub staff: domain::staff::StaffRoles,
    /// Two-step login is on (staff use their roles only then).
    #[serde(default)]
    pub two_step: bool,
    /// May make invitations (`/invitations`): staff, or any confirmed member where the site allows it.
    #[serde(default)]
    pub invites: bool,
    /// Unread messages, new likes and unread notifications (pills, title, app badge).
    pub counters: domain::counters::Counters,
    /// A new member on a site that gives auto-likes: pages ask whether one is due.
    pub auto_like: bool,
    /// The time bonus and welcome discount: what the member gets now and what follows (SPEC
    /// §4; `domain::offers`), for the banner and the modal.
    pub offers: domain::offers::Offers,
    /// The site asks this member for an age check before chatting and buying, and they have
    /// not passed one (the banner links to `/age-check`).
    #[serde(default)]
    pub age_check_needed: bool,
}

impl PageCtx {
    /// Whether the site shows this profile field (`visible_profile_fields`).
    pub fn site_shows(&self, field: &str) -> bool {
        self.site.visible_profile_fields.iter().any(|f| f == field)
    }
}

/// Where the page finds the built site's files (versioned URLs, see `assets`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AssetUrls {
    pub stylesheet: String,
    /// The root below which `pkg/vonk.js` and its wasm live (the hydration loader's `root`).
    pub script_root: String,
    pub widgets: String,
    /// `make dev`'s live reload is on (`VONK_DEV_RELOAD`): pages carry `app::DEV_RELOAD`.
    pub dev_reload: bool,
}

pub fn use_asset_urls() -> Arc<AssetUrls> {
    use_context::<Arc<AssetUrls>>().unwrap_or_default()
}

/// Where this page's browser fetches built files and public portraits: the site's CDN
/// (`cdn_prefix`), or "" for the site itself.
pub fn cdn_prefix() -> String {
    use_context::<Arc<PageCtx>>().map(|ctx| ctx.site.cdn_prefix.clone()).unwrap_or_default()
}

/// The page context of this render: one shared value, so components and every card of a list
/// take a reference count rather than a copy of the site's settings and the member.
pub fn use_page_ctx() -> Arc<PageCtx> {
    use_context::<Arc<PageCtx>>().expect("PageCtx is provided by the shell")
}
