//! What staff may set about their site, and the rules for it: texts, credit prices and limits,
//! countries, theme colours, the gifts on offer, credit bundles and discount codes. One check per
//! rule, used by the server function (the check that counts) and by the form's input limits.
//!
//! A refusal names the setting (`setting` argument: the key below `staff.setting.` in
//! `locales/`), so the page can say which field is wrong.

use crate::{ApiError, ErrorCode};

/// The countries a site can serve (labels `country.XX` in `locales/`).
pub const COUNTRIES: [&str; 19] = ["NL", "BE", "DE", "AT", "CH", "FR", "IT", "ES", "GB", "IE", "US", "CA", "PL", "DK", "FI", "NO", "SE", "AU", "NZ"];

/// Currencies a credit bundle can be priced in.
pub const CURRENCIES: [&str; 11] = ["EUR", "USD", "GBP", "CHF", "DKK", "SEK", "NOK", "PLN", "CAD", "AUD", "NZD"];

/// The settings staff forms name besides those of the declared forms ([`SiteTexts`],
/// [`CreditSettings`], [`InviteSettings`], [`DeliverySettings`]); labels `staff.setting.{name}` in `locales/`.
const OTHER_SETTINGS: [&str; 46] = [
    "search_fields",
    "countries",
    "geoip_country",
    "geoip_selected_country",
    "min_age",
    "theme_primary",
    "theme_secondary",
    "theme_accent",
    "gifts",
    "credits",
    "price",
    "currency",
    "highlighted",
    "sort_order",
    "active",
    "code",
    "percentage",
    "minimum_order",
    "country",
    "expires_at",
    "niche",
    "signups",
    "logged_out_search",
    "logged_out_search_trafficsource",
    "enable_site_entry_popup",
    "domain_language",
    "visible_profile_fields",
    "visible_profile_notes",
    "minimum_message_costs",
    "company_name",
    "address",
    "postal_code",
    "city",
    "company_country",
    "kvk",
    "tradenames",
    "vat_numbers",
    "company_phone",
    "delete_discount",
    "domain",
    "auto_likes",
    "auto_like_gap_minutes",
    "contact_rules",
    "spam_recipients",
    "spam_window_minutes",
    "spam_similarity",
];

/// Every setting a staff form names (labels `staff.setting.{name}` in `locales/`).
pub fn settings() -> impl Iterator<Item = &'static str> {
    let declared = [SiteTexts::FIELDS, CreditSettings::FIELDS, InviteSettings::FIELDS, DeliverySettings::FIELDS, LifecycleSettings::FIELDS]
        .into_iter()
        .flatten()
        .map(|(name, _)| *name);
    declared.chain(OTHER_SETTINGS)
}

/// Longest one-line text (site name, titles, mail sender name).
pub const LINE_MAX_CHARS: usize = 120;
/// Longest description.
pub const DESCRIPTION_MAX_CHARS: usize = 500;

/// An integer setting and its allowed range (inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub setting: &'static str,
    pub min: i64,
    pub max: i64,
}

impl Range {
    pub const fn new(setting: &'static str, min: i64, max: i64) -> Range {
        Range { setting, min, max }
    }
    pub fn check(self, value: i64) -> Result<i64, ApiError> {
        if (self.min..=self.max).contains(&value) {
            Ok(value)
        } else {
            Err(ApiError::new(ErrorCode::OutOfRange).with("setting", self.setting).with("min", self.min).with("max", self.max))
        }
    }
}

pub const MESSAGE_CREDITS: Range = Range::new("message_credits", 0, 1_000);
pub const SIGNUP_CREDITS: Range = Range::new("signup_credits", 0, 1_000);
pub const PHOTO_CREDITS: Range = Range::new("photo_credits", 0, 1_000);
pub const GIFT_CREDITS: Range = Range::new("gift_credits", 0, 1_000);
pub const MESSAGE_LENGTH: Range = Range::new("message_length", 20, 5_000);
pub const FREE_MESSAGES: Range = Range::new("free_messages", 0, 100);
pub const WELCOME_PERCENT: Range = Range::new("welcome_discount_percent", 0, 90);
pub const WELCOME_HOURS: Range = Range::new("welcome_discount_hours", 0, 720);
pub const TIME_BONUS_PERCENT: Range = Range::new("time_bonus_percent", 0, 90);
pub const TIME_BONUS_HOURS: Range = Range::new("time_bonus_hours", 0, 72);
/// How many days an invitation link works.
pub const INVITATION_DAYS: Range = Range::new("invitation_days", 1, 90);
/// When the lifecycle messages go (`domain::lifecycle::Timing`): the confirm reminders' hours
/// after signup, the win-back's days away, the discount notice's hours before the end, the
/// digests' hours after the first thing they tell of, low balance's hours after the fall.
pub const CONFIRM_FIRST_HOURS: Range = Range::new("confirm_first_hours", 1, 24);
pub const CONFIRM_SECOND_HOURS: Range = Range::new("confirm_second_hours", 2, 168);
pub const WIN_BACK_FIRST_DAYS: Range = Range::new("win_back_first_days", 2, 60);
pub const WIN_BACK_SECOND_DAYS: Range = Range::new("win_back_second_days", 3, 180);
pub const DISCOUNT_NOTICE_HOURS: Range = Range::new("discount_notice_hours", 1, 48);
pub const DIGEST_AFTER_HOURS: Range = Range::new("digest_after_hours", 1, 24);
pub const LOW_BALANCE_AFTER_HOURS: Range = Range::new("low_balance_after_hours", 1, 48);
/// How many hours the one-tap sign-in link of a lifecycle mail works (at most a week).
pub const SIGN_IN_LINK_HOURS: Range = Range::new("sign_in_link_hours", 1, 168);
/// How many days before a signup a landing counts for it (`domain::visits`).
pub const ATTRIBUTION_DAYS: Range = Range::new("attribution_days", 1, 90);
/// A member's fraud score (`domain::fraud`) from which their payments wait for staff's review;
/// 0: never.
pub const PAYMENT_REVIEW_SCORE: Range = Range::new("payment_review_score", 0, 100);
/// The share of members' chat photos that wait for staff, in percent (0: none, 100: all).
pub const CHAT_PHOTO_REVIEW_PERCENT: Range = Range::new("chat_photo_review_percent", 0, 100);
pub const REFUND_DAYS: Range = Range::new("refund_days", 0, 365);
/// The monthly direct-debit cap per member, in whole currency units (stored in minor units).
pub const DIRECT_DEBIT_LIMIT: Range = Range::new("direct_debit_monthly_limit", 0, 10_000);
/// Auto-likes for a new member from fitting operator-run profiles, and the minutes between them.
pub const AUTO_LIKES: Range = Range::new("auto_likes", 0, 20);
pub const AUTO_LIKE_GAP: Range = Range::new("auto_like_gap_minutes", 0, 1_440);
pub const MIN_AGE: Range = Range::new("min_age", 18, 99);
pub const PACK_CREDITS: Range = Range::new("credits", 1, 100_000);
/// A bundle's price in minor units: 0.01 to 10,000.00.
pub const PACK_PRICE: Range = Range::new("price", 1, 1_000_000);
pub const PACK_SORT: Range = Range::new("sort_order", 0, 999);
pub const DISCOUNT_PERCENT: Range = Range::new("percentage", 1, 90);
/// A discount's minimum order in minor units.
pub const DISCOUNT_MINIMUM: Range = Range::new("minimum_order", 0, 1_000_000);

fn line(setting: &'static str, value: &str, required: bool, max: usize) -> Result<String, ApiError> {
    let value: String = value.chars().filter(|c| !c.is_control()).collect::<String>().trim().to_string();
    if required && value.is_empty() {
        return Err(ApiError::new(ErrorCode::Required).with("setting", setting));
    }
    if value.chars().count() > max {
        return Err(ApiError::new(ErrorCode::TextTooLong).with("setting", setting).with("max", max));
    }
    Ok(value)
}

/// A longer text: line breaks kept, other control characters dropped.
fn text(setting: &'static str, value: &str, max: usize) -> Result<String, ApiError> {
    let value: String = value.replace("\r\n", "\n").chars().filter(|c| *c == '\n' || !c.is_control()).collect::<String>().trim().to_string();
    if value.chars().count() > max {
        return Err(ApiError::new(ErrorCode::TextTooLong).with("setting", setting).with("max", max));
    }
    Ok(value)
}

fn country(setting: &'static str, value: &str) -> Result<String, ApiError> {
    let value = value.trim().to_ascii_uppercase();
    if COUNTRIES.contains(&value.as_str()) {
        Ok(value)
    } else {
        Err(ApiError::new(ErrorCode::ChoiceInvalid).with("setting", setting))
    }
}

fn phone(setting: &'static str, value: &str) -> Result<String, ApiError> {
    let value = line(setting, value, true, 30)?;
    let clean = crate::site::clean_phone(&value);
    if clean.len() < 6 || !clean.chars().enumerate().all(|(i, c)| c.is_ascii_digit() || (i == 0 && c == '+')) {
        return Err(ApiError::new(ErrorCode::PhoneInvalid).with("setting", setting));
    }
    Ok(value)
}

mod company;
mod form;
mod pricing;
mod roles;
pub mod search;
mod settings;
#[cfg(test)]
mod tests;

pub use company::*;
pub use form::*;
pub use pricing::*;
pub use roles::*;
pub use settings::*;
