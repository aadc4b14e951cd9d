//! Site settings (SPEC §3) and company information, and the rules that derive from them.

use serde::{Deserialize, Serialize};

use crate::constants::TERMS_VERSION_DATE;
use crate::locale::Locale;

/// Who may sign up on a site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignupPolicy {
    All,
    /// Only visitors who arrive with a traffic source (network, ref, sub1..sub3).
    TrafficSourceOnly,
    InviteOnly,
}

impl SignupPolicy {
    pub fn code(self) -> &'static str {
        match self {
            SignupPolicy::All => "all",
            SignupPolicy::TrafficSourceOnly => "traffic_source_only",
            SignupPolicy::InviteOnly => "invite_only",
        }
    }
    pub fn parse(code: &str) -> Option<SignupPolicy> {
        [SignupPolicy::All, SignupPolicy::TrafficSourceOnly, SignupPolicy::InviteOnly].into_iter().find(|p| p.code() == code)
    }
}

/// A site's niche, 1 to 7 (SPEC §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Niche(u8);

impl Niche {
    pub fn new(n: u8) -> Option<Niche> {
        (1..=7).contains(&n).then_some(Niche(n))
    }
    pub fn number(self) -> u8 {
        self.0
    }
    /// Lander slug prefix: none, she, bdsm, bbw, gilf, milf, gay.
    pub fn lander_prefix(self) -> Option<&'static str> {
        match self.0 {
            2 => Some("she"),
            3 => Some("bdsm"),
            4 => Some("bbw"),
            5 => Some("gilf"),
            6 => Some("milf"),
            7 => Some("gay"),
            _ => None,
        }
    }

    /// A lander slug as this niche writes it (SPEC §9): any niche's prefix taken off, this
    /// niche's put on (`amsterdam` → `milf-amsterdam` on a niche-6 site, `she-amsterdam` →
    /// `amsterdam` on a niche-1 site). A request with another slug is sent to this one.
    pub fn canonical_slug(self, slug: &str) -> String {
        let mut bare = slug.trim_matches('-');
        while let Some(rest) =
            (2..=7)
                .filter_map(|n| Niche(n).lander_prefix())
                .find_map(|p| if bare == p { Some("") } else { bare.strip_prefix(p).and_then(|r| r.strip_prefix('-')) })
        {
            bare = rest;
        }
        match self.lander_prefix() {
            Some(prefix) if bare.is_empty() => prefix.to_string(),
            Some(prefix) => format!("{prefix}-{bare}"),
            None => bare.to_string(),
        }
    }
}

/// Minimum message cost for one country.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MessageCost {
    pub country: String,
    pub costs: i64,
    pub currency: String,
}

/// Theme colours; each a CSS colour like `#8b0000`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct Theme {
    #[cfg_attr(feature = "sqlx", sqlx(rename = "theme_primary"))]
    pub primary: String,
    #[cfg_attr(feature = "sqlx", sqlx(rename = "theme_secondary"))]
    pub secondary: String,
    #[cfg_attr(feature = "sqlx", sqlx(rename = "theme_accent"))]
    pub accent: String,
}

impl Theme {
    /// Only `#rgb` / `#rrggbb` colours reach the page's style attribute.
    pub fn is_valid_colour(value: &str) -> bool {
        let hex = value.strip_prefix('#').unwrap_or("");
        (hex.len() == 3 || hex.len() == 6) && hex.chars().all(|c| c.is_ascii_hexdigit())
    }
    pub fn is_valid(&self) -> bool {
        [&self.primary, &self.secondary, &self.accent].iter().all(|c| Theme::is_valid_colour(c))
    }
}

impl Default for Theme {
    fn default() -> Self {
        Theme { primary: "#8b0d1a".into(), secondary: "#e0263a".into(), accent: "#ff9f1c".into() }
    }
}

/// The settings of one site (SPEC §3). Loaded from the `sites` table and cached in memory.
///
/// The server reads a `sites` row straight into it (`#[derive(sqlx::FromRow)]`, feature `sqlx`):
/// a new setting is its field here, its migration and its form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct SiteSettings {
    pub id: i64,
    pub name: String,
    pub domain: String,
    /// e.g. "nl-NL"; its first two letters pick the first-render language.
    pub domain_language: String,
    pub cdn_prefix: String,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "i64"))]
    pub niche: Niche,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "String"))]
    pub signups: SignupPolicy,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub logged_out_search: bool,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub logged_out_search_trafficsource: bool,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub enable_site_entry_popup: bool,
    pub geoip_country: String,
    pub geoip_selected_country: Option<String>,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::JsonText"))]
    pub minimum_message_costs: Vec<MessageCost>,
    pub support_phone: String,
    pub support_email: String,
    pub push_key: Option<String>,
    pub fictional_icon: String,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub fictional_warning: bool,
    pub fictional_singular: String,
    pub fictional_plural: String,
    pub description: String,
    pub index_title: String,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::JsonText"))]
    pub countries: Vec<String>,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::JsonText"))]
    pub visible_profile_fields: Vec<String>,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub visible_profile_notes: bool,
    pub message_credits: i64,
    pub signup_credits: i64,
    pub photo_credits: i64,
    pub gift_credits: i64,
    pub message_length: i64,
    /// SPEC §9 "some free messages": text messages a new member sends free of charge.
    pub free_messages: i64,
    /// The welcome discount of new non-paid members: percentage and hours after signup (0 = none).
    pub welcome_discount_percent: i64,
    pub welcome_discount_hours: i64,
    /// The time bonus (SPEC §4): percentage and hours after signup (0 % = none); see
    /// [`crate::offers`].
    #[serde(default)]
    pub time_bonus_percent: i64,
    #[serde(default)]
    pub time_bonus_hours: i64,
    /// What one member may order by direct debit per calendar month, in minor units (0 = no cap).
    pub direct_debit_monthly_limit: i64,
    /// Direct debit gives the credits only once the provider collected the money (otherwise at
    /// once, taken back if the collection fails).
    #[serde(default)]
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub direct_debit_on_collection: bool,
    /// A member's first payment, whatever the method, waits until they confirmed their address
    /// (direct debit always does).
    #[serde(default)]
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub first_payment_needs_confirmed_address: bool,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::JsonText"))]
    pub search_fields: Vec<String>,
    pub refund_days: i64,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub member_resell: bool,
    /// Members may invite others (staff always may); see [`crate::staff::InviteSettings`].
    #[serde(default)]
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub member_invites: bool,
    /// How many days an invitation link works.
    #[serde(default)]
    pub invitation_days: i64,
    /// Members who have not confirmed their address are reminded after an hour and a day
    /// (`domain::lifecycle`); see [`crate::staff::LifecycleSettings`].
    #[serde(default)]
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub confirm_reminders: bool,
    /// How many hours the sign-in link in a lifecycle mail works.
    #[serde(default)]
    pub sign_in_link_hours: i64,
    /// Members away for 7 and 30 days are asked back (`domain::lifecycle`).
    #[serde(default)]
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub win_back: bool,
    /// New members hear six hours before their offer ends (`domain::lifecycle::discount_mail`).
    #[serde(default)]
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub discount_ending: bool,
    /// Unread messages no mail told of are summed up once a day (`domain::lifecycle`).
    #[serde(default)]
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub unread_digest: bool,
    /// Likes and matches not yet seen are summed up once a day.
    #[serde(default)]
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub likes_digest: bool,
    /// A signup counts for its first landing with a source, not its last (`domain::visits`).
    #[serde(default)]
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub attribution_first_touch: bool,
    /// How many days before a signup a landing counts for it.
    #[serde(default)]
    pub attribution_days: i64,
    /// Where members must pass an age check first: empty, `*` or country codes (`domain::age`).
    #[serde(default)]
    pub age_check_countries: String,
    /// From this fraud score a member's payments wait for staff's review (0: never).
    #[serde(default)]
    pub payment_review_score: i64,
    /// The share of members' chat photos that wait for staff, in percent (0: none, 100: all).
    #[serde(default)]
    pub chat_photo_review_percent: i64,
    /// A chat photo waiting for staff is shown to its recipient only once approved.
    #[serde(default)]
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub chat_photo_hide_waiting: bool,
    /// Premium members hear when their credits run low.
    #[serde(default)]
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub low_balance: bool,
    /// When each lifecycle message goes (`domain::lifecycle::Timing`; 0: the default).
    #[serde(default)]
    pub confirm_first_hours: i64,
    #[serde(default)]
    pub confirm_second_hours: i64,
    #[serde(default)]
    pub win_back_first_days: i64,
    #[serde(default)]
    pub win_back_second_days: i64,
    #[serde(default)]
    pub discount_notice_hours: i64,
    #[serde(default)]
    pub digest_after_hours: i64,
    #[serde(default)]
    pub low_balance_after_hours: i64,
    pub company_id: i64,
    pub mail_name: String,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "i64"))]
    pub min_age: u32,
    #[cfg_attr(feature = "sqlx", sqlx(flatten))]
    pub theme: Theme,
    /// Auto-likes for new members from fitting operator-run profiles (how many, how far apart).
    #[cfg_attr(feature = "sqlx", sqlx(flatten))]
    pub auto_like: crate::notifications::AutoLikePolicy,
    /// The gifts members can send here (empty: every gift).
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::GiftCodes"))]
    pub gifts: Vec<crate::chat::Gift>,
    /// What the chat does with phone numbers, email and web addresses and messenger names in
    /// members' messages.
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::JsonText"))]
    pub contact_rules: crate::contact::ContactPolicy,
    /// When members' alike first messages to many members are held for staff review.
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::JsonText"))]
    pub spam_rules: crate::spam::SpamRules,
    /// The site's own logo, when staff uploaded one (else the flame mark with the name).
    #[cfg_attr(feature = "sqlx", sqlx(skip))]
    pub logo: Option<Logo>,
}

/// An uploaded logo: its version (a hash of the PNG, part of its address) and size in pixels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Logo {
    pub version: String,
    pub width: u32,
    pub height: u32,
}

impl Logo {
    /// Where browsers fetch it; the version makes the address change with the picture.
    pub fn url(&self) -> String {
        format!("/site-logo/{}.png", self.version)
    }
}

impl SiteSettings {
    /// Which members' chat photos wait for staff (`domain::moderation`).
    pub fn chat_photo_rule(&self) -> crate::moderation::ChatPhotoRule {
        crate::moderation::ChatPhotoRule { percent: self.chat_photo_review_percent.clamp(0, 100) as u8, hide_waiting: self.chat_photo_hide_waiting }
    }

    /// Where members must pass an age check before chatting or buying.
    pub fn age_rule(&self) -> crate::age::AgeRule {
        crate::age::AgeRule::from_setting(&self.age_check_countries)
    }

    /// When this site's lifecycle messages go.
    pub fn lifecycle_timing(&self) -> crate::lifecycle::Timing {
        crate::lifecycle::Timing::of(&crate::staff::LifecycleSettings::from(self))
    }

    /// The time bonus and welcome discount this site gives new members.
    pub fn offer_rules(&self) -> crate::offers::OfferRules {
        crate::staff::CreditSettings::from(self).offer_rules()
    }

    /// A visitor's country: the country the site is pinned to (`geoip_selected_country`, for a
    /// one-country site), else the one GeoIP `detected`, else the site's `geoip_country`.
    pub fn visitor_country<'a>(&'a self, detected: Option<&'a str>) -> &'a str {
        self.geoip_selected_country.as_deref().filter(|c| !c.is_empty()).or(detected.filter(|c| !c.is_empty())).unwrap_or(&self.geoip_country)
    }
    pub fn default_locale(&self) -> Option<Locale> {
        self.domain_language.get(..2).and_then(Locale::parse)
    }
    /// The US edition (SPEC §1 "footer variants exist for a US edition"): a site whose home
    /// market is the United States. Its footer adds the 18 U.S.C. 2257 statement and the
    /// privacy-choices link.
    pub fn us_edition(&self) -> bool {
        self.geoip_country == "US" || self.geoip_selected_country.as_deref() == Some("US")
    }
    /// The gifts on offer, in the catalogue's order.
    pub fn offered_gifts(&self) -> Vec<crate::chat::Gift> {
        if self.gifts.is_empty() {
            crate::chat::Gift::ALL.to_vec()
        } else {
            crate::chat::Gift::ALL.into_iter().filter(|g| self.gifts.contains(g)).collect()
        }
    }
    pub fn offers_gift(&self, gift: crate::chat::Gift) -> bool {
        self.gifts.is_empty() || self.gifts.contains(&gift)
    }
    /// Support phone as dialled: dashes and white space removed (SPEC §5).
    pub fn support_phone_clean(&self) -> String {
        clean_phone(&self.support_phone)
    }
}

/// The company behind a site, shown on the legal pages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct CompanyInfo {
    pub id: i64,
    pub name: String,
    pub address: String,
    pub postal_code: String,
    pub city: String,
    pub country: String,
    /// Chamber of commerce number.
    pub kvk: String,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::JsonText"))]
    pub tradenames: Vec<String>,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::JsonText"))]
    pub vat_numbers: Vec<String>,
    pub support_phone: String,
    /// Discount offered to members who are about to delete their account, in percent.
    pub delete_discount: i64,
    /// When the company's terms were last changed (unix seconds).
    pub added: i64,
}

/// Removes dashes and white space (SPEC §5).
pub fn clean_phone(phone: &str) -> String {
    phone.chars().filter(|c| *c != '-' && !c.is_whitespace()).collect()
}

/// Terms version date: 2023-12-01 12:00 UTC, or the company's added date if later (SPEC §5).
pub fn terms_version_date(company_added: Option<i64>) -> i64 {
    company_added.map_or(TERMS_VERSION_DATE, |added| added.max(TERMS_VERSION_DATE))
}

/// A credit bundle offered on the pricing page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct CreditPack {
    pub id: i64,
    pub credits: i64,
    /// Price in the currency's minor unit (cents).
    pub price_minor: i64,
    pub currency: String,
    /// Shown as "most chosen".
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub highlighted: bool,
}

impl CreditPack {
    /// Price per credit in minor units, rounded to whole cents.
    pub fn price_per_credit_minor(&self) -> i64 {
        if self.credits <= 0 {
            return self.price_minor;
        }
        (self.price_minor + self.credits / 2) / self.credits
    }
}

/// Formats minor units as an amount with two decimals and the locale's decimal separator.
pub fn format_money(minor: i64, currency: &str, decimal_comma: bool) -> String {
    let sign = if minor < 0 { "-" } else { "" };
    let abs = minor.unsigned_abs();
    let sep = if decimal_comma { ',' } else { '.' };
    let symbol = match currency {
        "EUR" => "€",
        "GBP" => "£",
        "USD" => "$",
        _ => "",
    };
    let number = format!("{}{}{:02}", abs / 100, sep, abs % 100);
    if symbol.is_empty() {
        format!("{sign}{number} {currency}")
    } else {
        format!("{sign}{symbol} {number}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn slugs_take_the_niches_prefix() {
        let n = |x| Niche::new(x).unwrap();
        assert_eq!(n(6).canonical_slug("amsterdam"), "milf-amsterdam");
        assert_eq!(n(6).canonical_slug("she-amsterdam"), "milf-amsterdam");
        assert_eq!(n(6).canonical_slug("milf-amsterdam"), "milf-amsterdam");
        assert_eq!(n(1).canonical_slug("she-amsterdam"), "amsterdam");
        assert_eq!(n(2).canonical_slug("sheila"), "she-sheila", "a word that merely starts like a prefix keeps it");
    }

    proptest::proptest! {
        #[test]
        fn canonical_slugs_are_stable(niche in 1u8..=7, slug in "[a-z-]{0,30}") {
            let n = Niche::new(niche).unwrap();
            let once = n.canonical_slug(&slug);
            proptest::prop_assert_eq!(n.canonical_slug(&once), once.clone());
            if let Some(prefix) = n.lander_prefix() {
                proptest::prop_assert!(once.starts_with(prefix));
            }
        }
    }

    #[test]
    fn niche_prefixes() {
        assert_eq!(Niche::new(0), None);
        assert_eq!(Niche::new(8), None);
        let prefixes: Vec<_> = (1..=7).map(|n| Niche::new(n).unwrap().lander_prefix()).collect();
        assert_eq!(prefixes, vec![None, Some("she"), Some("bdsm"), Some("bbw"), Some("gilf"), Some("milf"), Some("gay")]);
    }

    #[test]
    fn phone_cleaning() {
        assert_eq!(clean_phone("+31 (0)20-123 45 67"), "+31(0)201234567");
        assert_eq!(clean_phone("\t088 - 1234\n"), "0881234");
    }

    #[test]
    fn terms_date_is_the_later_one() {
        assert_eq!(terms_version_date(None), TERMS_VERSION_DATE);
        assert_eq!(terms_version_date(Some(1_600_000_000)), TERMS_VERSION_DATE);
        assert_eq!(terms_version_date(Some(1_800_000_000)), 1_800_000_000);
    }

    #[test]
    fn money_and_unit_price() {
        assert_eq!(format_money(1995, "EUR", true), "€ 19,95");
        assert_eq!(format_money(500, "USD", false), "$ 5.00");
        assert_eq!(format_money(12345, "PLN", true), "123,45 PLN");
        let pack = CreditPack { id: 1, credits: 100, price_minor: 4995, currency: "EUR".into(), highlighted: false };
        assert_eq!(pack.price_per_credit_minor(), 50);
    }

    #[test]
    fn theme_colours_are_checked() {
        assert!(Theme::default().is_valid());
        assert!(!Theme::is_valid_colour("red;} body{display:none"));
        assert!(Theme::is_valid_colour("#abc"));
    }

    #[test]
    fn signup_policy_codes() {
        for p in [SignupPolicy::All, SignupPolicy::TrafficSourceOnly, SignupPolicy::InviteOnly] {
            assert_eq!(SignupPolicy::parse(p.code()), Some(p));
        }
    }

    proptest! {
        #[test]
        fn cleaned_phone_has_no_dash_or_space(s in ".{0,40}") {
            let c = clean_phone(&s);
            prop_assert!(!c.contains('-') && !c.chars().any(char::is_whitespace));
        }

        #[test]
        fn terms_date_never_before_base(added in any::<i64>()) {
            prop_assert!(terms_version_date(Some(added)) >= TERMS_VERSION_DATE);
        }
    }
}
