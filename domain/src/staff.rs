//! What staff may set about their site, and the rules for it: texts, credit prices and limits,
//! countries, theme colours, the gifts on offer, credit bundles and discount codes. One check per
//! rule, used by the server function (the check that counts) and by the form's input limits.
//!
//! A refusal names the setting (`setting` argument: the key below `staff.setting.` in
//! `locales/`), so the page can say which field is wrong.

use serde::{Deserialize, Serialize};

use crate::chat::Gift;
use crate::locale::Locale;
use crate::profile::Attribute;
use crate::site::{CompanyInfo, MessageCost, SignupPolicy, SiteSettings, Theme};
use crate::{ApiError, ErrorCode};

/// The countries a site can serve (labels `country.XX` in `locales/`).
pub const COUNTRIES: [&str; 19] = ["NL", "BE", "DE", "AT", "CH", "FR", "IT", "ES", "GB", "IE", "US", "CA", "PL", "DK", "FI", "NO", "SE", "AU", "NZ"];

/// Currencies a credit bundle can be priced in.
pub const CURRENCIES: [&str; 11] = ["EUR", "USD", "GBP", "CHF", "DKK", "SEK", "NOK", "PLN", "CAD", "AUD", "NZD"];

/// Every setting a staff form names (labels `staff.setting.{name}` in `locales/`).
pub const SETTINGS: [&str; 66] = [
    "name",
    "index_title",
    "description",
    "support_email",
    "support_phone",
    "mail_name",
    "fictional_singular",
    "fictional_plural",
    "fictional_warning",
    "message_credits",
    "photo_credits",
    "gift_credits",
    "signup_credits",
    "free_messages",
    "message_length",
    "welcome_discount_percent",
    "welcome_discount_hours",
    "refund_days",
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
    "direct_debit_monthly_limit",
    "direct_debit_on_collection",
    "first_payment_needs_confirmed_address",
    "auto_likes",
    "auto_like_gap_minutes",
    "contact_rules",
    "spam_recipients",
    "spam_window_minutes",
    "spam_similarity",
];

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

/// The site's own words: name, titles, description, contact details, what fictional profiles are called.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteTexts {
    pub name: String,
    pub index_title: String,
    pub description: String,
    pub support_email: String,
    pub support_phone: String,
    pub mail_name: String,
    pub fictional_singular: String,
    pub fictional_plural: String,
    pub fictional_warning: bool,
}

impl SiteTexts {
    /// Trimmed and checked; the support address lower-cased.
    pub fn validate(self) -> Result<SiteTexts, ApiError> {
        let support_email =
            crate::account::validate_email(&self.support_email).map_err(|_| ApiError::new(ErrorCode::EmailInvalid).with("setting", "support_email"))?;
        let support_phone = phone("support_phone", &self.support_phone)?;
        Ok(SiteTexts {
            name: line("name", &self.name, true, LINE_MAX_CHARS)?,
            index_title: line("index_title", &self.index_title, false, LINE_MAX_CHARS)?,
            description: text("description", &self.description, DESCRIPTION_MAX_CHARS)?,
            support_email,
            support_phone,
            mail_name: line("mail_name", &self.mail_name, true, LINE_MAX_CHARS)?,
            fictional_singular: line("fictional_singular", &self.fictional_singular, false, 40)?,
            fictional_plural: line("fictional_plural", &self.fictional_plural, false, 40)?,
            fictional_warning: self.fictional_warning,
        })
    }
}

/// What things cost in credits, what new members get, and the limits around them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreditSettings {
    pub message_credits: i64,
    pub photo_credits: i64,
    pub gift_credits: i64,
    pub signup_credits: i64,
    pub free_messages: i64,
    pub message_length: i64,
    pub welcome_discount_percent: i64,
    pub welcome_discount_hours: i64,
    pub refund_days: i64,
    /// What one member may order by direct debit per calendar month, in whole currency units (0: no cap).
    pub direct_debit_monthly_limit: i64,
    /// Direct-debit credits only once the money is collected.
    pub direct_debit_on_collection: bool,
    /// The first payment only from a member who confirmed their address.
    #[serde(default)]
    pub first_payment_needs_confirmed_address: bool,
}

impl CreditSettings {
    pub fn validate(self) -> Result<CreditSettings, ApiError> {
        Ok(CreditSettings {
            message_credits: MESSAGE_CREDITS.check(self.message_credits)?,
            photo_credits: PHOTO_CREDITS.check(self.photo_credits)?,
            gift_credits: GIFT_CREDITS.check(self.gift_credits)?,
            signup_credits: SIGNUP_CREDITS.check(self.signup_credits)?,
            free_messages: FREE_MESSAGES.check(self.free_messages)?,
            message_length: MESSAGE_LENGTH.check(self.message_length)?,
            welcome_discount_percent: WELCOME_PERCENT.check(self.welcome_discount_percent)?,
            welcome_discount_hours: WELCOME_HOURS.check(self.welcome_discount_hours)?,
            refund_days: REFUND_DAYS.check(self.refund_days)?,
            direct_debit_monthly_limit: DIRECT_DEBIT_LIMIT.check(self.direct_debit_monthly_limit)?,
            direct_debit_on_collection: self.direct_debit_on_collection,
            first_payment_needs_confirmed_address: self.first_payment_needs_confirmed_address,
        })
    }
}

/// Where the site is offered and who may join.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountrySettings {
    /// The countries members come from (search, signup, languages by country).
    pub countries: Vec<String>,
    /// The country assumed when GeoIP knows none.
    pub geoip_country: String,
    /// A one-country site: every visitor counts as from here.
    pub geoip_selected_country: Option<String>,
    pub min_age: i64,
}

impl CountrySettings {
    /// Countries upper-cased, each once, in the order of [`COUNTRIES`]; the default and pinned
    /// country must be among them.
    pub fn validate(self) -> Result<CountrySettings, ApiError> {
        let mut chosen = Vec::new();
        for c in &self.countries {
            chosen.push(country("countries", c)?);
        }
        let countries: Vec<String> = COUNTRIES.iter().filter(|c| chosen.iter().any(|x| x == *c)).map(|c| c.to_string()).collect();
        if countries.is_empty() {
            return Err(ApiError::new(ErrorCode::Required).with("setting", "countries"));
        }
        let geoip_country = country("geoip_country", &self.geoip_country)?;
        let outside = |setting: &'static str| ApiError::new(ErrorCode::ChoiceInvalid).with("setting", setting);
        if !countries.contains(&geoip_country) {
            return Err(outside("geoip_country"));
        }
        let geoip_selected_country = match self.geoip_selected_country.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
            None => None,
            Some(c) => {
                let c = country("geoip_selected_country", c)?;
                if !countries.contains(&c) {
                    return Err(outside("geoip_selected_country"));
                }
                Some(c)
            }
        };
        Ok(CountrySettings { countries, geoip_country, geoip_selected_country, min_age: MIN_AGE.check(self.min_age)? })
    }
}

impl Theme {
    /// Colours lower-cased, `#rgb` written out as `#rrggbb` (what a colour input shows).
    pub fn validate(self) -> Result<Theme, ApiError> {
        let colour = |setting: &'static str, value: &str| -> Result<String, ApiError> {
            let value = value.trim().to_ascii_lowercase();
            if !Theme::is_valid_colour(&value) {
                return Err(ApiError::new(ErrorCode::ColourInvalid).with("setting", setting));
            }
            Ok(if value.len() == 4 {
                value.chars().skip(1).fold(String::from("#"), |mut s, c| {
                    s.push(c);
                    s.push(c);
                    s
                })
            } else {
                value
            })
        };
        Ok(Theme {
            primary: colour("theme_primary", &self.primary)?,
            secondary: colour("theme_secondary", &self.secondary)?,
            accent: colour("theme_accent", &self.accent)?,
        })
    }
}

/// The gifts members can send on a site: at least one, each once, in the catalogue's order.
pub fn validate_gifts(codes: &[String]) -> Result<Vec<Gift>, ApiError> {
    let mut chosen = Vec::new();
    for code in codes {
        chosen.push(Gift::parse(code.trim()).ok_or_else(|| ApiError::new(ErrorCode::ChoiceInvalid).with("setting", "gifts"))?);
    }
    let gifts: Vec<Gift> = Gift::ALL.into_iter().filter(|g| chosen.contains(g)).collect();
    if gifts.is_empty() {
        return Err(ApiError::new(ErrorCode::Required).with("setting", "gifts"));
    }
    Ok(gifts)
}

/// A credit bundle as staff set it (`id` none: a new one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackEdit {
    pub id: Option<i64>,
    pub credits: i64,
    pub price_minor: i64,
    pub currency: String,
    pub highlighted: bool,
    pub sort_order: i64,
    pub active: bool,
}

impl PackEdit {
    pub fn validate(self) -> Result<PackEdit, ApiError> {
        let currency = self.currency.trim().to_ascii_uppercase();
        if !CURRENCIES.contains(&currency.as_str()) {
            return Err(ApiError::new(ErrorCode::ChoiceInvalid).with("setting", "currency"));
        }
        Ok(PackEdit {
            id: self.id,
            credits: PACK_CREDITS.check(self.credits)?,
            price_minor: PACK_PRICE.check(self.price_minor)?,
            currency,
            highlighted: self.highlighted,
            sort_order: PACK_SORT.check(self.sort_order)?,
            active: self.active,
        })
    }
}

impl From<&SiteSettings> for SiteTexts {
    fn from(s: &SiteSettings) -> SiteTexts {
        SiteTexts {
            name: s.name.clone(),
            index_title: s.index_title.clone(),
            description: s.description.clone(),
            support_email: s.support_email.clone(),
            support_phone: s.support_phone.clone(),
            mail_name: s.mail_name.clone(),
            fictional_singular: s.fictional_singular.clone(),
            fictional_plural: s.fictional_plural.clone(),
            fictional_warning: s.fictional_warning,
        }
    }
}

impl From<&SiteSettings> for CreditSettings {
    fn from(s: &SiteSettings) -> CreditSettings {
        CreditSettings {
            message_credits: s.message_credits,
            photo_credits: s.photo_credits,
            gift_credits: s.gift_credits,
            signup_credits: s.signup_credits,
            free_messages: s.free_messages,
            message_length: s.message_length,
            welcome_discount_percent: s.welcome_discount_percent,
            welcome_discount_hours: s.welcome_discount_hours,
            refund_days: s.refund_days,
            direct_debit_monthly_limit: s.direct_debit_monthly_limit / 100,
            direct_debit_on_collection: s.direct_debit_on_collection,
            first_payment_needs_confirmed_address: s.first_payment_needs_confirmed_address,
        }
    }
}

impl From<&SiteSettings> for CountrySettings {
    fn from(s: &SiteSettings) -> CountrySettings {
        CountrySettings {
            countries: s.countries.clone(),
            geoip_country: s.geoip_country.clone(),
            geoip_selected_country: s.geoip_selected_country.clone(),
            min_age: i64::from(s.min_age),
        }
    }
}

/// A credit bundle as staff see it (inactive ones too).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackRecord {
    pub id: i64,
    pub credits: i64,
    pub price_minor: i64,
    pub currency: String,
    pub highlighted: bool,
    pub sort_order: i64,
    pub active: bool,
    /// Payments made for it (a bundle that was sold is never deleted, only switched off).
    pub sold: i64,
}

/// A discount code as staff see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiscountRecord {
    pub id: i64,
    pub code: String,
    pub percentage: i64,
    pub minimum_order: i64,
    pub country: Option<String>,
    pub active: bool,
    pub expires_at: Option<i64>,
    pub redeemed: i64,
}

/// A discount code as staff create it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiscountEdit {
    pub code: String,
    pub percentage: i64,
    pub minimum_order: i64,
    /// Only for buyers in this country; none: everywhere.
    pub country: Option<String>,
    /// Unix time after which it no longer applies; none: no end.
    pub expires_at: Option<i64>,
}

pub const CODE_MIN_CHARS: usize = 3;
pub const CODE_MAX_CHARS: usize = 32;

/// A discount code as members type it: upper-cased; letters A–Z, digits, `-` and `_`.
pub fn normalise_code(raw: &str) -> Result<String, ApiError> {
    let code = raw.trim().to_ascii_uppercase();
    let n = code.chars().count();
    if !(CODE_MIN_CHARS..=CODE_MAX_CHARS).contains(&n) || !code.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-' || c == '_') {
        return Err(ApiError::new(ErrorCode::CodeInvalid).with("min", CODE_MIN_CHARS).with("max", CODE_MAX_CHARS));
    }
    Ok(code)
}

impl DiscountEdit {
    pub fn validate(self, now: i64) -> Result<DiscountEdit, ApiError> {
        let country = match self.country.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
            None => None,
            Some(c) => Some(country("country", c)?),
        };
        if let Some(at) = self.expires_at {
            if at <= now {
                return Err(ApiError::new(ErrorCode::ChoiceInvalid).with("setting", "expires_at"));
            }
        }
        Ok(DiscountEdit {
            code: normalise_code(&self.code)?,
            percentage: DISCOUNT_PERCENT.check(self.percentage)?,
            minimum_order: DISCOUNT_MINIMUM.check(self.minimum_order)?,
            country,
            expires_at: self.expires_at,
        })
    }
}

/// How the site meets visitors: its niche, who may join, what visitors may see before they
/// join, the first language, and which profile details are shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteRules {
    pub niche: i64,
    /// [`SignupPolicy::code`].
    pub signups: String,
    pub logged_out_search: bool,
    pub logged_out_search_trafficsource: bool,
    pub enable_site_entry_popup: bool,
    /// `nl-NL`: the language of a first visit without a choice of its own.
    pub domain_language: String,
    /// Fields of [`Attribute::ALL`] shown on profiles and cards.
    pub visible_profile_fields: Vec<String>,
    pub visible_profile_notes: bool,
    pub auto_likes: i64,
    pub auto_like_gap_minutes: i64,
}

pub const NICHE: Range = Range::new("niche", 1, 7);

/// The first-visit languages staff choose from: each language with its usual country.
pub const DOMAIN_LANGUAGES: [&str; 11] = ["nl-NL", "en-GB", "de-DE", "fr-FR", "es-ES", "it-IT", "pl-PL", "da-DK", "sv-SE", "nb-NO", "fi-FI"];

/// A language tag as `domain_language` holds it: a language of ours, optionally with a country
/// (`nl`, `nl-BE`), written `xx-YY`.
pub fn normalise_language_tag(tag: &str) -> Result<String, ApiError> {
    let invalid = || ApiError::new(ErrorCode::ChoiceInvalid).with("setting", "domain_language");
    let tag = tag.trim().replace('_', "-");
    let mut parts = tag.split('-');
    let language = parts.next().unwrap_or_default().to_ascii_lowercase();
    let region = parts.next().map(str::to_ascii_uppercase);
    if parts.next().is_some() || language.len() != 2 || Locale::parse(&language).map(Locale::code) != Some(language.as_str()) {
        return Err(invalid());
    }
    match region {
        None => Ok(language),
        Some(r) if r.len() == 2 && r.chars().all(|c| c.is_ascii_uppercase()) => Ok(format!("{language}-{r}")),
        Some(_) => Err(invalid()),
    }
}

impl SiteRules {
    /// Profile fields each once, in [`Attribute::ALL`]'s order.
    pub fn validate(self) -> Result<SiteRules, ApiError> {
        let niche = NICHE.check(self.niche)?;
        let signups = SignupPolicy::parse(self.signups.trim()).ok_or_else(|| ApiError::new(ErrorCode::ChoiceInvalid).with("setting", "signups"))?;
        for f in &self.visible_profile_fields {
            if !Attribute::ALL.iter().any(|a| a.field() == f.trim()) {
                return Err(ApiError::new(ErrorCode::ChoiceInvalid).with("setting", "visible_profile_fields"));
            }
        }
        let visible_profile_fields =
            Attribute::ALL.iter().map(|a| a.field()).filter(|f| self.visible_profile_fields.iter().any(|x| x.trim() == *f)).map(str::to_string).collect();
        Ok(SiteRules {
            niche,
            signups: signups.code().to_string(),
            logged_out_search: self.logged_out_search,
            logged_out_search_trafficsource: self.logged_out_search_trafficsource,
            enable_site_entry_popup: self.enable_site_entry_popup,
            domain_language: normalise_language_tag(&self.domain_language)?,
            visible_profile_fields,
            visible_profile_notes: self.visible_profile_notes,
            auto_likes: AUTO_LIKES.check(self.auto_likes)?,
            auto_like_gap_minutes: AUTO_LIKE_GAP.check(self.auto_like_gap_minutes)?,
        })
    }
}

impl From<&SiteSettings> for SiteRules {
    fn from(s: &SiteSettings) -> SiteRules {
        SiteRules {
            niche: i64::from(s.niche.number()),
            signups: s.signups.code().to_string(),
            logged_out_search: s.logged_out_search,
            logged_out_search_trafficsource: s.logged_out_search_trafficsource,
            enable_site_entry_popup: s.enable_site_entry_popup,
            domain_language: s.domain_language.clone(),
            visible_profile_fields: s.visible_profile_fields.clone(),
            visible_profile_notes: s.visible_profile_notes,
            auto_likes: i64::from(s.auto_like.count),
            auto_like_gap_minutes: s.auto_like.gap_secs / 60,
        }
    }
}

/// The smallest price of one message in a country, in minor units (what `/pricing` states).
pub const MESSAGE_COST: Range = Range::new("minimum_message_costs", 1, 10_000);

/// The minimum message costs as staff set them: one row per country at most (a country left
/// empty has none), each country one of the site's, each price in range, each currency known.
pub fn validate_message_costs(rows: &[MessageCost], countries: &[String]) -> Result<Vec<MessageCost>, ApiError> {
    let mut out: Vec<MessageCost> = Vec::new();
    for row in rows {
        let c = country("minimum_message_costs", &row.country)?;
        if !countries.contains(&c) || out.iter().any(|r| r.country == c) {
            return Err(ApiError::new(ErrorCode::ChoiceInvalid).with("setting", "minimum_message_costs"));
        }
        let currency = row.currency.trim().to_ascii_uppercase();
        if !CURRENCIES.contains(&currency.as_str()) {
            return Err(ApiError::new(ErrorCode::ChoiceInvalid).with("setting", "currency"));
        }
        out.push(MessageCost { country: c, costs: MESSAGE_COST.check(row.costs)?, currency });
    }
    out.sort_by_key(|r| COUNTRIES.iter().position(|c| *c == r.country));
    Ok(out)
}

/// The company behind the site as the legal pages, mails and invoices name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompanyDetails {
    pub name: String,
    pub address: String,
    pub postal_code: String,
    pub city: String,
    pub country: String,
    /// Chamber of commerce number.
    pub kvk: String,
    /// One per line (or comma-separated as typed).
    pub tradenames: Vec<String>,
    pub vat_numbers: Vec<String>,
    pub support_phone: String,
    pub delete_discount: i64,
}

pub const DELETE_DISCOUNT: Range = Range::new("delete_discount", 0, 90);
/// At most this many trade names or VAT numbers.
pub const LIST_MAX: usize = 10;

/// Splits a list typed one per line or comma-separated.
pub fn split_list(text: &str) -> Vec<String> {
    text.split(['\n', ',', ';']).map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}

fn phone(setting: &'static str, value: &str) -> Result<String, ApiError> {
    let value = line(setting, value, true, 30)?;
    let clean = crate::site::clean_phone(&value);
    if clean.len() < 6 || !clean.chars().enumerate().all(|(i, c)| c.is_ascii_digit() || (i == 0 && c == '+')) {
        return Err(ApiError::new(ErrorCode::PhoneInvalid).with("setting", setting));
    }
    Ok(value)
}

impl CompanyDetails {
    pub fn validate(self) -> Result<CompanyDetails, ApiError> {
        let list = |setting: &'static str, items: &[String], code: bool| -> Result<Vec<String>, ApiError> {
            if items.len() > LIST_MAX {
                return Err(ApiError::new(ErrorCode::TextTooLong).with("setting", setting).with("max", LIST_MAX));
            }
            items
                .iter()
                .map(|i| {
                    let v = line(setting, i, true, LINE_MAX_CHARS)?;
                    if code {
                        let v: String = v.chars().filter(|c| !c.is_whitespace() && *c != '.').collect::<String>().to_ascii_uppercase();
                        if !(4..=20).contains(&v.len()) || !v.chars().all(|c| c.is_ascii_alphanumeric()) {
                            return Err(ApiError::new(ErrorCode::ChoiceInvalid).with("setting", setting));
                        }
                        return Ok(v);
                    }
                    Ok(v)
                })
                .collect()
        };
        Ok(CompanyDetails {
            name: line("company_name", &self.name, true, LINE_MAX_CHARS)?,
            address: line("address", &self.address, true, LINE_MAX_CHARS)?,
            postal_code: line("postal_code", &self.postal_code, true, 12)?,
            city: line("city", &self.city, true, LINE_MAX_CHARS)?,
            country: country("company_country", &self.country)?,
            kvk: line("kvk", &self.kvk, true, 20)?,
            tradenames: list("tradenames", &self.tradenames, false)?,
            vat_numbers: list("vat_numbers", &self.vat_numbers, true)?,
            support_phone: phone("company_phone", &self.support_phone)?,
            delete_discount: DELETE_DISCOUNT.check(self.delete_discount)?,
        })
    }
}

impl From<&CompanyInfo> for CompanyDetails {
    fn from(c: &CompanyInfo) -> CompanyDetails {
        CompanyDetails {
            name: c.name.clone(),
            address: c.address.clone(),
            postal_code: c.postal_code.clone(),
            city: c.city.clone(),
            country: c.country.clone(),
            kvk: c.kvk.clone(),
            tradenames: c.tradenames.clone(),
            vat_numbers: c.vat_numbers.clone(),
            support_phone: c.support_phone.clone(),
            delete_discount: c.delete_discount,
        }
    }
}

/// The largest logo file accepted, before decoding.
pub const LOGO_MAX_BYTES: usize = 2 * 1024 * 1024;

/// A new site as staff start it: its domain, name and first language; everything else is
/// copied from the site they start it from and can be changed there afterwards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewSite {
    pub domain: String,
    pub name: String,
    pub domain_language: String,
}

/// A host name as a site answers on it: lower case, no scheme, path, port or leading `www.`;
/// labels of letters, digits and inner hyphens; at least one dot.
pub fn normalise_domain(raw: &str) -> Result<String, ApiError> {
    let invalid = || ApiError::new(ErrorCode::DomainInvalid).with("setting", "domain");
    let mut d = raw.trim().to_ascii_lowercase();
    for scheme in ["https://", "http://"] {
        if let Some(rest) = d.strip_prefix(scheme) {
            d = rest.to_string();
        }
    }
    let d = d.split('/').next().unwrap_or_default().trim_end_matches('.');
    let d = d.strip_prefix("www.").unwrap_or(d).to_string();
    let labels: Vec<&str> = d.split('.').collect();
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    if d.len() > 253 || labels.len() < 2 || !labels.iter().all(label_ok) || labels.last().is_some_and(|tld| tld.chars().all(|c| c.is_ascii_digit())) {
        return Err(invalid());
    }
    Ok(d)
}

impl NewSite {
    pub fn validate(self) -> Result<NewSite, ApiError> {
        Ok(NewSite {
            domain: normalise_domain(&self.domain)?,
            name: line("name", &self.name, true, LINE_MAX_CHARS)?,
            domain_language: normalise_language_tag(&self.domain_language)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn credits() -> CreditSettings {
        CreditSettings {
            message_credits: 10,
            photo_credits: 15,
            gift_credits: 20,
            signup_credits: 0,
            free_messages: 3,
            message_length: 1000,
            welcome_discount_percent: 25,
            welcome_discount_hours: 4,
            refund_days: 14,
            direct_debit_monthly_limit: 150,
            direct_debit_on_collection: false,
            first_payment_needs_confirmed_address: false,
        }
    }

    #[test]
    fn credit_settings_in_range_pass_and_out_of_range_name_the_setting() {
        assert_eq!(credits().validate(), Ok(credits()));
        let e = CreditSettings { message_credits: -1, ..credits() }.validate().unwrap_err();
        assert_eq!(
            (e.code, e.args["setting"].as_str(), e.args["min"].as_str(), e.args["max"].as_str()),
            (ErrorCode::OutOfRange, "message_credits", "0", "1000")
        );
        let e = CreditSettings { welcome_discount_percent: 91, ..credits() }.validate().unwrap_err();
        assert_eq!(e.args["setting"], "welcome_discount_percent");
        let e = CreditSettings { message_length: 10, ..credits() }.validate().unwrap_err();
        assert_eq!(e.args["setting"], "message_length");
    }

    fn texts() -> SiteTexts {
        SiteTexts {
            name: " Vonk ".into(),
            index_title: "Daten".into(),
            description: "Echte mensen.\r\nEchte dates.".into(),
            support_email: "Support@Vonk.NL".into(),
            support_phone: "+31 20-123 4567".into(),
            mail_name: "Vonk".into(),
            fictional_singular: "".into(),
            fictional_plural: "".into(),
            fictional_warning: true,
        }
    }

    #[test]
    fn texts_are_trimmed_and_checked() {
        let t = texts().validate().unwrap();
        assert_eq!((t.name.as_str(), t.support_email.as_str(), t.description.as_str()), ("Vonk", "support@vonk.nl", "Echte mensen.\nEchte dates."));
        assert_eq!(SiteTexts { name: " \u{0} ".into(), ..texts() }.validate().unwrap_err().code, ErrorCode::Required);
        let e = SiteTexts { name: "x".repeat(121), ..texts() }.validate().unwrap_err();
        assert_eq!((e.code, e.args["setting"].as_str()), (ErrorCode::TextTooLong, "name"));
        assert_eq!(SiteTexts { support_email: "nope".into(), ..texts() }.validate().unwrap_err().code, ErrorCode::EmailInvalid);
        assert_eq!(SiteTexts { support_phone: "bel ons".into(), ..texts() }.validate().unwrap_err().code, ErrorCode::PhoneInvalid);
        assert_eq!(SiteTexts { support_phone: "12".into(), ..texts() }.validate().unwrap_err().code, ErrorCode::PhoneInvalid);
    }

    #[test]
    fn countries_are_known_ordered_once_and_hold_the_default() {
        let c = CountrySettings {
            countries: vec!["be".into(), "NL".into(), "BE".into()],
            geoip_country: "nl".into(),
            geoip_selected_country: Some(" ".into()),
            min_age: 18,
        }
        .validate()
        .unwrap();
        assert_eq!((c.countries, c.geoip_country.as_str(), c.geoip_selected_country), (vec!["NL".to_string(), "BE".to_string()], "NL", None));
        let base = CountrySettings { countries: vec!["NL".into()], geoip_country: "NL".into(), geoip_selected_country: None, min_age: 18 };
        assert_eq!(CountrySettings { countries: vec![], ..base.clone() }.validate().unwrap_err().code, ErrorCode::Required);
        assert_eq!(CountrySettings { countries: vec!["XX".into()], ..base.clone() }.validate().unwrap_err().code, ErrorCode::ChoiceInvalid);
        assert_eq!(CountrySettings { geoip_country: "BE".into(), ..base.clone() }.validate().unwrap_err().args["setting"], "geoip_country");
        assert_eq!(
            CountrySettings { geoip_selected_country: Some("DE".into()), ..base.clone() }.validate().unwrap_err().args["setting"],
            "geoip_selected_country"
        );
        assert_eq!(CountrySettings { min_age: 17, ..base }.validate().unwrap_err().args["setting"], "min_age");
    }

    #[test]
    fn theme_colours_are_written_out() {
        let t = Theme { primary: "#ABC".into(), secondary: " #e0263a ".into(), accent: "#FF9F1C".into() }.validate().unwrap();
        assert_eq!((t.primary.as_str(), t.secondary.as_str(), t.accent.as_str()), ("#aabbcc", "#e0263a", "#ff9f1c"));
        let e = Theme { accent: "red;}".into(), ..Theme::default() }.validate().unwrap_err();
        assert_eq!((e.code, e.args["setting"].as_str()), (ErrorCode::ColourInvalid, "theme_accent"));
    }

    #[test]
    fn gifts_at_least_one_known() {
        assert_eq!(validate_gifts(&["kiss".into(), "rose".into(), "kiss".into()]), Ok(vec![Gift::Rose, Gift::Kiss]));
        assert_eq!(validate_gifts(&[]).unwrap_err().code, ErrorCode::Required);
        assert_eq!(validate_gifts(&["diamond".into()]).unwrap_err().code, ErrorCode::ChoiceInvalid);
    }

    #[test]
    fn packs_and_discounts() {
        let pack = PackEdit { id: None, credits: 100, price_minor: 4995, currency: "eur".into(), highlighted: true, sort_order: 1, active: true };
        assert_eq!(pack.clone().validate().unwrap().currency, "EUR");
        assert_eq!(PackEdit { currency: "XBT".into(), ..pack.clone() }.validate().unwrap_err().args["setting"], "currency");
        assert_eq!(PackEdit { credits: 0, ..pack.clone() }.validate().unwrap_err().args["setting"], "credits");
        assert_eq!(PackEdit { price_minor: 0, ..pack }.validate().unwrap_err().args["setting"], "price");
        let d = DiscountEdit { code: " summer-25 ".into(), percentage: 25, minimum_order: 0, country: Some("nl".into()), expires_at: Some(200) };
        let ok = d.clone().validate(100).unwrap();
        assert_eq!((ok.code.as_str(), ok.country.as_deref()), ("SUMMER-25", Some("NL")));
        assert_eq!(DiscountEdit { code: "a b".into(), ..d.clone() }.validate(100).unwrap_err().code, ErrorCode::CodeInvalid);
        assert_eq!(DiscountEdit { code: "ab".into(), ..d.clone() }.validate(100).unwrap_err().code, ErrorCode::CodeInvalid);
        assert_eq!(DiscountEdit { percentage: 95, ..d.clone() }.validate(100).unwrap_err().args["setting"], "percentage");
        assert_eq!(d.validate(300).unwrap_err().args["setting"], "expires_at");
    }

    #[test]
    fn every_range_names_a_labelled_setting() {
        for r in [
            MESSAGE_CREDITS,
            SIGNUP_CREDITS,
            PHOTO_CREDITS,
            GIFT_CREDITS,
            MESSAGE_LENGTH,
            FREE_MESSAGES,
            WELCOME_PERCENT,
            WELCOME_HOURS,
            REFUND_DAYS,
            MIN_AGE,
            PACK_CREDITS,
            PACK_PRICE,
            PACK_SORT,
            DISCOUNT_PERCENT,
            DISCOUNT_MINIMUM,
        ] {
            assert!(SETTINGS.contains(&r.setting), "{}", r.setting);
            assert!(r.min <= r.max);
        }
    }

    proptest! {
        #[test]
        fn a_range_accepts_exactly_its_values(v in -10_000i64..10_000, min in -100i64..100, span in 0i64..1000) {
            let r = Range::new("x", min, min + span);
            prop_assert_eq!(r.check(v).is_ok(), v >= min && v <= min + span);
        }

        #[test]
        fn a_normalised_code_is_stable_and_well_formed(raw in "\\PC{0,40}") {
            if let Ok(code) = normalise_code(&raw) {
                prop_assert_eq!(normalise_code(&code), Ok(code.clone()));
                prop_assert!(code.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-' || c == '_'));
            }
        }

        #[test]
        fn validated_texts_stay_within_their_limits(name in "\\PC{0,200}", desc in "\\PC{0,700}") {
            let t = SiteTexts { name, description: desc, ..texts() };
            if let Ok(v) = t.validate() {
                prop_assert!(!v.name.is_empty() && v.name.chars().count() <= LINE_MAX_CHARS);
                prop_assert!(v.description.chars().count() <= DESCRIPTION_MAX_CHARS);
                prop_assert!(!v.name.chars().any(char::is_control));
            }
        }
    }

    fn rules() -> SiteRules {
        SiteRules {
            niche: 6,
            signups: "traffic_source_only".into(),
            logged_out_search: false,
            logged_out_search_trafficsource: true,
            enable_site_entry_popup: true,
            domain_language: "nl_be".into(),
            visible_profile_fields: vec!["tattoos".into(), "hair_colour".into(), "tattoos".into()],
            visible_profile_notes: false,
            auto_likes: 3,
            auto_like_gap_minutes: 60,
        }
    }

    #[test]
    fn site_rules_are_checked_and_written_the_way_the_site_reads_them() {
        let r = rules().validate().unwrap();
        assert_eq!((r.niche, r.signups.as_str(), r.domain_language.as_str()), (6, "traffic_source_only", "nl-BE"));
        assert_eq!(r.visible_profile_fields, vec!["hair_colour".to_string(), "tattoos".to_string()]);
        assert_eq!(SiteRules { niche: 8, ..rules() }.validate().unwrap_err().args["setting"], "niche");
        assert_eq!(SiteRules { auto_likes: 21, ..rules() }.validate().unwrap_err().args["setting"], "auto_likes");
        assert_eq!(SiteRules { auto_like_gap_minutes: -1, ..rules() }.validate().unwrap_err().args["setting"], "auto_like_gap_minutes");
        assert_eq!(SiteRules { signups: "everyone".into(), ..rules() }.validate().unwrap_err().args["setting"], "signups");
        assert_eq!(
            SiteRules { visible_profile_fields: vec!["password_hash".into()], ..rules() }.validate().unwrap_err().args["setting"],
            "visible_profile_fields"
        );
        for bad in ["xx", "nl-BEL", "dutch", "nl-B1", "", "nl-BE-x"] {
            assert_eq!(SiteRules { domain_language: bad.into(), ..rules() }.validate().unwrap_err().args["setting"], "domain_language", "{bad}");
        }
        for tag in DOMAIN_LANGUAGES {
            assert_eq!(normalise_language_tag(tag).as_deref(), Ok(tag));
        }
    }

    #[test]
    fn message_costs_are_one_per_served_country_in_range() {
        let served = vec!["NL".to_string(), "BE".to_string()];
        let row = |c: &str, costs: i64, cur: &str| MessageCost { country: c.into(), costs, currency: cur.into() };
        let ok = validate_message_costs(&[row("be", 99, "eur"), row("NL", 149, "EUR")], &served).unwrap();
        assert_eq!(ok, vec![row("NL", 149, "EUR"), row("BE", 99, "EUR")]);
        assert_eq!(validate_message_costs(&[], &served), Ok(vec![]));
        assert_eq!(validate_message_costs(&[row("DE", 99, "EUR")], &served).unwrap_err().code, ErrorCode::ChoiceInvalid);
        assert_eq!(validate_message_costs(&[row("NL", 99, "EUR"), row("NL", 1, "EUR")], &served).unwrap_err().code, ErrorCode::ChoiceInvalid);
        assert_eq!(validate_message_costs(&[row("NL", 0, "EUR")], &served).unwrap_err().code, ErrorCode::OutOfRange);
        assert_eq!(validate_message_costs(&[row("NL", 99, "XYZ")], &served).unwrap_err().args["setting"], "currency");
    }

    fn company() -> CompanyDetails {
        CompanyDetails {
            name: "Vonk B.V.".into(),
            address: "Keizersgracht 1".into(),
            postal_code: "1015 AA".into(),
            city: "Amsterdam".into(),
            country: "nl".into(),
            kvk: "12345678".into(),
            tradenames: split_list("Vonk\nVonk Dating, "),
            vat_numbers: split_list("nl 0012.34.567.B01"),
            support_phone: "020-123 4567".into(),
            delete_discount: 50,
        }
    }

    #[test]
    fn company_details_are_checked() {
        let c = company().validate().unwrap();
        assert_eq!((c.country.as_str(), c.tradenames.len(), c.vat_numbers[0].as_str()), ("NL", 2, "NL001234567B01"));
        assert_eq!(CompanyDetails { name: " ".into(), ..company() }.validate().unwrap_err().args["setting"], "company_name");
        assert_eq!(CompanyDetails { country: "XX".into(), ..company() }.validate().unwrap_err().args["setting"], "company_country");
        assert_eq!(CompanyDetails { vat_numbers: vec!["<script>".into()], ..company() }.validate().unwrap_err().args["setting"], "vat_numbers");
        assert_eq!(CompanyDetails { tradenames: vec!["a".into(); 11], ..company() }.validate().unwrap_err().code, ErrorCode::TextTooLong);
        assert_eq!(CompanyDetails { support_phone: "bel".into(), ..company() }.validate().unwrap_err().args["setting"], "company_phone");
        assert_eq!(CompanyDetails { delete_discount: 91, ..company() }.validate().unwrap_err().args["setting"], "delete_discount");
    }

    #[test]
    fn domains_are_host_names() {
        for (raw, want) in [
            ("Flirt.Example.COM", "flirt.example.com"),
            ("https://www.vonk.be/", "vonk.be"),
            ("vonk-dating.nl.", "vonk-dating.nl"),
            ("xn--vnk-sna.nl", "xn--vnk-sna.nl"),
        ] {
            assert_eq!(normalise_domain(raw).as_deref(), Ok(want), "{raw}");
        }
        for bad in ["localhost", "vonk", "-vonk.nl", "vonk-.nl", "vo nk.nl", "vonk..nl", "1.2.3.4", "vonk.nl:8080", "", "<b>.nl"] {
            assert_eq!(normalise_domain(bad).map_err(|e| e.code), Err(ErrorCode::DomainInvalid), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn a_normalised_domain_normalises_to_itself(raw in "[a-zA-Z0-9.:/-]{0,40}") {
            if let Ok(d) = normalise_domain(&raw) {
                prop_assert_eq!(normalise_domain(&d), Ok(d.clone()));
                prop_assert!(d.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-'));
            }
        }
    }
}
