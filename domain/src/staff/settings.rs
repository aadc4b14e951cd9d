//! The site's settings staff change: texts, credit prices and limits, countries, theme colours,
//! gifts, the visitor rules, minimum message costs.

use serde::{Deserialize, Serialize};

use super::*;
use crate::chat::Gift;
use crate::locale::Locale;
use crate::profile::Attribute;
use crate::site::{MessageCost, SignupPolicy, SiteSettings, Theme};
use crate::{ApiError, ErrorCode};

crate::settings_form! {
    /// The site's own words: name, titles, description, contact details, what fictional profiles are called.
    pub struct SiteTexts {
        name: line(true, LINE_MAX_CHARS),
        index_title: line(false, LINE_MAX_CHARS),
        description: text(DESCRIPTION_MAX_CHARS),
        support_email: email,
        support_phone: phone,
        mail_name: line(true, LINE_MAX_CHARS),
        fictional_singular: line(false, 40),
        fictional_plural: line(false, 40),
        fictional_warning: flag,
    }
}

impl SiteTexts {
    /// Trimmed and checked; the support address lower-cased.
    pub fn validate(self) -> Result<SiteTexts, ApiError> {
        self.check_fields()
    }
}

crate::settings_form! {
    /// What things cost in credits, what new members get, and the limits around them.
    pub struct CreditSettings {
        message_credits: int(MESSAGE_CREDITS),
        photo_credits: int(PHOTO_CREDITS),
        gift_credits: int(GIFT_CREDITS),
        signup_credits: int(SIGNUP_CREDITS),
        free_messages: int(FREE_MESSAGES),
        message_length: int(MESSAGE_LENGTH),
        welcome_discount_percent: int(WELCOME_PERCENT),
        welcome_discount_hours: int(WELCOME_HOURS),
        time_bonus_percent: int(TIME_BONUS_PERCENT),
        time_bonus_hours: int(TIME_BONUS_HOURS),
        refund_days: int(REFUND_DAYS),
        /// What one member may order by direct debit per calendar month, in whole currency units (0: no cap).
        direct_debit_monthly_limit: money(DIRECT_DEBIT_LIMIT),
        /// Direct-debit credits only once the money is collected.
        direct_debit_on_collection: flag,
        /// The first payment only from a member who confirmed their address.
        first_payment_needs_confirmed_address: flag,
    }
}

impl CreditSettings {
    /// Each setting in range, and a time bonus that is better than the welcome discount.
    pub fn validate(self) -> Result<CreditSettings, ApiError> {
        let checked = self.check_fields()?;
        crate::offers::check_rules(&checked.offer_rules()).map_err(|e| e.with("setting", "time_bonus_percent"))?;
        Ok(checked)
    }

    /// The time bonus and welcome discount these settings give.
    pub fn offer_rules(&self) -> crate::offers::OfferRules {
        crate::offers::OfferRules {
            time_bonus_percent: self.time_bonus_percent,
            time_bonus_hours: self.time_bonus_hours,
            welcome_percent: self.welcome_discount_percent,
            welcome_hours: self.welcome_discount_hours,
        }
    }
}

crate::settings_form! {
    /// Who may invite to the site and how long an invitation works (what counts on an
    /// invite-only site, and for links staff hand out on any site), and whether members are
    /// offered the company's other sites (`domain::resell`).
    pub struct InviteSettings {
        member_invites: flag,
        invitation_days: int(INVITATION_DAYS),
        member_resell: flag,
    }
}

impl InviteSettings {
    pub fn validate(self) -> Result<InviteSettings, ApiError> {
        self.check_fields()
    }
}

crate::settings_form! {
    /// The messages the site sends on its own to bring members back (`domain::lifecycle`).
    pub struct LifecycleSettings {
        confirm_reminders: flag,
        confirm_first_hours: int(CONFIRM_FIRST_HOURS),
        confirm_second_hours: int(CONFIRM_SECOND_HOURS),
        win_back: flag,
        win_back_first_days: int(WIN_BACK_FIRST_DAYS),
        win_back_second_days: int(WIN_BACK_SECOND_DAYS),
        discount_ending: flag,
        discount_notice_hours: int(DISCOUNT_NOTICE_HOURS),
        unread_digest: flag,
        likes_digest: flag,
        digest_after_hours: int(DIGEST_AFTER_HOURS),
        low_balance: flag,
        low_balance_after_hours: int(LOW_BALANCE_AFTER_HOURS),
        sign_in_link_hours: int(SIGN_IN_LINK_HOURS),
    }
}

impl LifecycleSettings {
    /// Each field in its range, and each second message after its first.
    pub fn validate(self) -> Result<LifecycleSettings, ApiError> {
        let checked = self.check_fields()?;
        Range::new("confirm_second_hours", checked.confirm_first_hours + 1, CONFIRM_SECOND_HOURS.max).check(checked.confirm_second_hours)?;
        Range::new("win_back_second_days", checked.win_back_first_days + 1, WIN_BACK_SECOND_DAYS.max).check(checked.win_back_second_days)?;
        Ok(checked)
    }
}

crate::settings_form! {
    /// Where members must pass an age check before they chat or buy credits (`domain::age`).
    pub struct AgeSettings {
        age_check_countries: countries,
    }
}

impl AgeSettings {
    pub fn validate(self) -> Result<AgeSettings, ApiError> {
        self.check_fields()
    }

    pub fn rule(&self) -> crate::age::AgeRule {
        crate::age::AgeRule::from_setting(&self.age_check_countries)
    }
}

crate::settings_form! {
    /// From which fraud score (`domain::fraud`) a member's payments wait for staff's review.
    pub struct FraudSettings {
        payment_review_score: int(PAYMENT_REVIEW_SCORE),
    }
}

impl FraudSettings {
    pub fn validate(self) -> Result<FraudSettings, ApiError> {
        self.check_fields()
    }
}

crate::settings_form! {
    /// Which members' chat photos wait for staff (`/staff/chat-photos`), and whether the
    /// recipient sees one while it waits.
    pub struct ChatPhotoSettings {
        chat_photo_review_percent: int(CHAT_PHOTO_REVIEW_PERCENT),
        chat_photo_hide_waiting: flag,
    }
}

impl ChatPhotoSettings {
    pub fn validate(self) -> Result<ChatPhotoSettings, ApiError> {
        self.check_fields()
    }
}

crate::settings_form! {
    /// Which landing a signup counts for in the figures (`domain::visits::attributed`): the
    /// first or the last with a source, within so many days.
    pub struct AttributionSettings {
        attribution_first_touch: flag,
        attribution_days: int(ATTRIBUTION_DAYS),
    }
}

impl AttributionSettings {
    pub fn validate(self) -> Result<AttributionSettings, ApiError> {
        self.check_fields()
    }

    /// The model these settings choose.
    pub fn model(&self) -> crate::visits::Attribution {
        if self.attribution_first_touch {
            crate::visits::Attribution::FirstTouch
        } else {
            crate::visits::Attribution::LastTouch
        }
    }
}

crate::settings_form! {
    /// Where browsers fetch the site's files: a CDN in front of it (SPEC §3 `cdn_prefix`).
    pub struct DeliverySettings {
        cdn_prefix: origin,
    }
}

impl DeliverySettings {
    pub fn validate(self) -> Result<DeliverySettings, ApiError> {
        self.check_fields()
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
    /// The fields of the search form ([`crate::search::SEARCH_FIELDS`]); none: results only.
    #[serde(default)]
    pub search_fields: Vec<String>,
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
        if self.search_fields.iter().any(|f| !crate::search::SEARCH_FIELDS.contains(&f.trim())) {
            return Err(ApiError::new(ErrorCode::ChoiceInvalid).with("setting", "search_fields"));
        }
        let search_fields = crate::search::SEARCH_FIELDS.iter().filter(|f| self.search_fields.iter().any(|x| x.trim() == **f)).map(|f| f.to_string()).collect();
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
            search_fields,
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
            search_fields: s.search_fields.clone(),
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
