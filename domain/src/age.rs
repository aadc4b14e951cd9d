//! Age assurance: where a site asks its members to pass an age check before they chat or buy
//! credits, and the states of a check. The check itself is a provider's (`server::age`); the site
//! keeps only whether it passed and the provider's reference, never a document or a photo.
//!
//! The site's rule is one setting, `age_check_countries`: empty (no check asked), `*` (every
//! member) or a list of two-letter country codes. A member is asked when their profile's country,
//! the country their session signed in from, or the country a payment is made from is on the list.

use serde::{Deserialize, Serialize};
use strum::{EnumString, IntoStaticStr};

/// The setting's value for "every member".
pub const EVERYWHERE: &str = "*";
/// Country codes a list may hold at most.
pub const MAX_COUNTRIES: usize = 60;

/// Where a site asks for a passed age check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgeRule {
    /// Nowhere: ages are self-declared at signup.
    Off,
    /// From every member.
    Everywhere,
    /// From members in one of these countries (upper-case, sorted, each once).
    Countries(Vec<String>),
}

impl AgeRule {
    /// The rule of a stored (checked) setting; anything unreadable is read as the strictest.
    pub fn from_setting(value: &str) -> AgeRule {
        match normalize_countries(value) {
            Some(v) if v.is_empty() => AgeRule::Off,
            Some(v) if v == EVERYWHERE => AgeRule::Everywhere,
            Some(v) => AgeRule::Countries(v.split(',').map(str::to_string).collect()),
            None => AgeRule::Everywhere,
        }
    }

    /// Whether a member with these countries (profile, session, payment; any may be unknown)
    /// must pass a check first.
    pub fn asks<'a>(&self, countries: impl IntoIterator<Item = Option<&'a str>>) -> bool {
        match self {
            AgeRule::Off => false,
            AgeRule::Everywhere => true,
            AgeRule::Countries(list) => countries.into_iter().flatten().any(|c| list.iter().any(|x| x.eq_ignore_ascii_case(c.trim()))),
        }
    }

    pub fn is_off(&self) -> bool {
        *self == AgeRule::Off
    }
}

/// The setting as typed by staff, checked: empty, `*`, or two-letter codes separated by commas,
/// spaces or semicolons (upper-cased, sorted, each once, joined by commas). `None`: not such a
/// list (another character, a code of another length, `*` beside codes, too many codes).
pub fn normalize_countries(value: &str) -> Option<String> {
    let value = value.trim();
    if value.is_empty() || value == EVERYWHERE {
        return Some(value.to_string());
    }
    let mut codes = Vec::new();
    for part in value.split([',', ';', ' ', '\t', '\n', '\r']).filter(|p| !p.is_empty()) {
        if part.len() != 2 || !part.chars().all(|c| c.is_ascii_alphabetic()) {
            return None;
        }
        codes.push(part.to_ascii_uppercase());
    }
    codes.sort();
    codes.dedup();
    (codes.len() <= MAX_COUNTRIES).then(|| codes.join(","))
}

/// Where a check stands (stored in `age_checks.status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, EnumString, IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum CheckStatus {
    /// Sent to the provider; no answer yet.
    Started,
    /// The provider found the member an adult.
    Passed,
    /// The provider did not (or the member gave up).
    Failed,
}

impl CheckStatus {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(value: &str) -> Option<CheckStatus> {
        value.parse().ok()
    }

    /// A provider's answer is final: the check changes no more.
    pub fn is_final(self) -> bool {
        self != CheckStatus::Started
    }
}

impl TryFrom<String> for CheckStatus {
    type Error = String;
    fn try_from(value: String) -> Result<CheckStatus, String> {
        CheckStatus::parse(&value).ok_or_else(|| format!("age check status {value}"))
    }
}

/// What the member's age-check page shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgeStatus {
    /// The site asks this member for a check (before chatting and buying).
    pub asked: bool,
    /// The member passed a check (on this site).
    pub verified: bool,
    /// The latest check's state, if they started one.
    pub latest: Option<CheckStatus>,
    /// A provider is configured to check with.
    pub available: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_setting_is_read_as_staff_type_it() {
        assert_eq!(normalize_countries("  ").as_deref(), Some(""));
        assert_eq!(normalize_countries(" * ").as_deref(), Some("*"));
        assert_eq!(normalize_countries("gb, de;fr  DE").as_deref(), Some("DE,FR,GB"));
        for bad in ["DEU", "D", "de,*", "<script>", "1A", "NL,ÄB"] {
            assert_eq!(normalize_countries(bad), None, "{bad}");
        }
        let many: Vec<String> = (0..MAX_COUNTRIES + 1).map(|i| format!("{}{}", (b'A' + (i / 26) as u8) as char, (b'A' + (i % 26) as u8) as char)).collect();
        assert_eq!(normalize_countries(&many.join(",")), None);
    }

    #[test]
    fn a_member_is_asked_where_any_of_their_countries_is_listed() {
        let rule = AgeRule::from_setting("DE,FR,GB");
        assert!(rule.asks([Some("DE"), None]));
        assert!(rule.asks([Some("NL"), Some("gb")]), "the session's country counts too");
        assert!(!rule.asks([Some("NL"), None, Some("BE")]));
        assert!(!rule.asks([None, None]));
        assert!(AgeRule::from_setting("*").asks([None]));
        assert!(!AgeRule::from_setting("").asks([Some("DE")]));
        assert_eq!(AgeRule::from_setting("not a list!"), AgeRule::Everywhere, "an unreadable setting is the strictest");
    }

    #[test]
    fn statuses_round_trip() {
        for s in [CheckStatus::Started, CheckStatus::Passed, CheckStatus::Failed] {
            assert_eq!(CheckStatus::parse(s.as_str()), Some(s));
        }
        assert!(!CheckStatus::Started.is_final() && CheckStatus::Passed.is_final() && CheckStatus::Failed.is_final());
    }

    proptest! {
        #[test]
        fn a_checked_setting_reads_back_the_same(codes in proptest::collection::vec("[a-zA-Z]{2}", 0..20), sep in "[,; ]{1,3}") {
            let typed = codes.join(&sep);
            let once = normalize_countries(&typed).expect("two-letter codes are a list");
            prop_assert_eq!(normalize_countries(&once), Some(once.clone()));
            let rule = AgeRule::from_setting(&once);
            for c in &codes {
                prop_assert!(rule.asks([Some(c.as_str())]));
            }
            if codes.is_empty() {
                prop_assert!(rule.is_off());
            }
        }

        #[test]
        fn anything_else_is_refused_or_a_list(value in "\\PC{0,40}") {
            if let Some(list) = normalize_countries(&value) {
                prop_assert!(list.is_empty() || list == "*" || list.split(',').all(|c| c.len() == 2 && c.chars().all(|x| x.is_ascii_uppercase())));
            }
        }
    }
}
