//! What staff may set about their site, and the rules for it: texts, credit prices and limits,
//! countries, theme colours, the gifts on offer, credit bundles and discount codes. One check per
//! rule, used by the server function (the check that counts) and by the form's input limits.
//!
//! A refusal names the setting (`setting` argument: the key below `staff.setting.` in
//! `locales/`), so the page can say which field is wrong.

use serde::{Deserialize, Serialize};

use crate::chat::Gift;
use crate::site::{SiteSettings, Theme};
use crate::{ApiError, ErrorCode};

/// The countries a site can serve (labels `country.XX` in `locales/`).
pub const COUNTRIES: [&str; 19] = ["NL", "BE", "DE", "AT", "CH", "FR", "IT", "ES", "GB", "IE", "US", "CA", "PL", "DK", "FI", "NO", "SE", "AU", "NZ"];

/// Currencies a credit bundle can be priced in.
pub const CURRENCIES: [&str; 11] = ["EUR", "USD", "GBP", "CHF", "DKK", "SEK", "NOK", "PLN", "CAD", "AUD", "NZD"];

/// Every setting a staff form names (labels `staff.setting.{name}` in `locales/`).
pub const SETTINGS: [&str; 37] = [
    "name", "index_title", "description", "support_email", "support_phone", "mail_name", "fictional_singular", "fictional_plural", "fictional_warning",
    "message_credits", "photo_credits", "gift_credits", "signup_credits", "free_messages", "message_length", "welcome_discount_percent",
    "welcome_discount_hours", "refund_days", "countries", "geoip_country", "geoip_selected_country", "min_age", "theme_primary", "theme_secondary",
    "theme_accent", "gifts", "credits", "price", "currency", "highlighted", "sort_order", "active", "code", "percentage", "minimum_order", "country",
    "expires_at",
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
        let support_email = crate::account::validate_email(&self.support_email).map_err(|_| ApiError::new(ErrorCode::EmailInvalid).with("setting", "support_email"))?;
        let support_phone = line("support_phone", &self.support_phone, true, 30)?;
        if !crate::site::clean_phone(&support_phone).chars().enumerate().all(|(i, c)| c.is_ascii_digit() || (i == 0 && c == '+')) || crate::site::clean_phone(&support_phone).len() < 6 {
            return Err(ApiError::new(ErrorCode::PhoneInvalid).with("setting", "support_phone"));
        }
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
            Ok(if value.len() == 4 { value.chars().skip(1).fold(String::from("#"), |mut s, c| { s.push(c); s.push(c); s }) } else { value })
        };
        Ok(Theme { primary: colour("theme_primary", &self.primary)?, secondary: colour("theme_secondary", &self.secondary)?, accent: colour("theme_accent", &self.accent)? })
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
        }
    }
}

impl From<&SiteSettings> for CountrySettings {
    fn from(s: &SiteSettings) -> CountrySettings {
        CountrySettings { countries: s.countries.clone(), geoip_country: s.geoip_country.clone(), geoip_selected_country: s.geoip_selected_country.clone(), min_age: i64::from(s.min_age) }
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

/// A price as typed: `49,95`, `49.95`, `49` or `€ 1.049,95` → minor units; `None` when it is not a price.
pub fn parse_price(text: &str) -> Option<i64> {
    let cleaned: String = text.chars().filter(|c| c.is_ascii_digit() || *c == ',' || *c == '.').collect();
    if cleaned.is_empty() || cleaned.len() > 16 {
        return None;
    }
    // The last separator followed by one or two digits is the decimal one; others group thousands.
    let (whole, fraction) = match cleaned.rfind([',', '.']) {
        Some(at) if cleaned.len() - at - 1 <= 2 => (&cleaned[..at], &cleaned[at + 1..]),
        _ => (cleaned.as_str(), ""),
    };
    let whole: String = whole.chars().filter(|c| c.is_ascii_digit()).collect();
    let whole: i64 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let fraction: i64 = match fraction.len() {
        0 => 0,
        1 => fraction.parse::<i64>().ok()? * 10,
        _ => fraction.parse().ok()?,
    };
    whole.checked_mul(100)?.checked_add(fraction)
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn credits() -> CreditSettings {
        CreditSettings { message_credits: 10, photo_credits: 15, gift_credits: 20, signup_credits: 0, free_messages: 3, message_length: 1000, welcome_discount_percent: 25, welcome_discount_hours: 4, refund_days: 14 }
    }

    #[test]
    fn credit_settings_in_range_pass_and_out_of_range_name_the_setting() {
        assert_eq!(credits().validate(), Ok(credits()));
        let e = CreditSettings { message_credits: -1, ..credits() }.validate().unwrap_err();
        assert_eq!((e.code, e.args["setting"].as_str(), e.args["min"].as_str(), e.args["max"].as_str()), (ErrorCode::OutOfRange, "message_credits", "0", "1000"));
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
        let c = CountrySettings { countries: vec!["be".into(), "NL".into(), "BE".into()], geoip_country: "nl".into(), geoip_selected_country: Some(" ".into()), min_age: 18 }.validate().unwrap();
        assert_eq!((c.countries, c.geoip_country.as_str(), c.geoip_selected_country), (vec!["NL".to_string(), "BE".to_string()], "NL", None));
        let base = CountrySettings { countries: vec!["NL".into()], geoip_country: "NL".into(), geoip_selected_country: None, min_age: 18 };
        assert_eq!(CountrySettings { countries: vec![], ..base.clone() }.validate().unwrap_err().code, ErrorCode::Required);
        assert_eq!(CountrySettings { countries: vec!["XX".into()], ..base.clone() }.validate().unwrap_err().code, ErrorCode::ChoiceInvalid);
        assert_eq!(CountrySettings { geoip_country: "BE".into(), ..base.clone() }.validate().unwrap_err().args["setting"], "geoip_country");
        assert_eq!(CountrySettings { geoip_selected_country: Some("DE".into()), ..base.clone() }.validate().unwrap_err().args["setting"], "geoip_selected_country");
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
    fn prices_as_people_type_them() {
        assert_eq!(parse_price("49,95"), Some(4995));
        assert_eq!(parse_price("49.95"), Some(4995));
        assert_eq!(parse_price("49"), Some(4900));
        assert_eq!(parse_price("49,5"), Some(4950));
        assert_eq!(parse_price("€ 1.049,95"), Some(104995));
        assert_eq!(parse_price("1,049.95"), Some(104995));
        assert_eq!(parse_price("1.000"), Some(100000));
        assert_eq!(parse_price("gratis"), None);
        assert_eq!(parse_price("99999999999999999"), None);
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
        for r in [MESSAGE_CREDITS, SIGNUP_CREDITS, PHOTO_CREDITS, GIFT_CREDITS, MESSAGE_LENGTH, FREE_MESSAGES, WELCOME_PERCENT, WELCOME_HOURS, REFUND_DAYS, MIN_AGE, PACK_CREDITS, PACK_PRICE, PACK_SORT, DISCOUNT_PERCENT, DISCOUNT_MINIMUM] {
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
        fn a_written_price_reads_back(minor in 0i64..100_000_000) {
            let text = format!("{},{:02}", minor / 100, minor % 100);
            prop_assert_eq!(parse_price(&text), Some(minor));
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
}
