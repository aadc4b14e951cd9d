//! The eleven locales, how the first render picks one, and which ones a visitor's country sees.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Locale {
    Da,
    De,
    En,
    Es,
    Fi,
    Fr,
    It,
    Nb,
    Nl,
    Pl,
    Sv,
}

impl Locale {
    pub const ALL: [Locale; 11] =
        [Locale::Da, Locale::De, Locale::En, Locale::Es, Locale::Fi, Locale::Fr, Locale::It, Locale::Nb, Locale::Nl, Locale::Pl, Locale::Sv];
    /// Dutch is the default locale (and the default date locale).
    pub const DEFAULT: Locale = Locale::Nl;

    pub fn code(self) -> &'static str {
        match self {
            Locale::Da => "da",
            Locale::De => "de",
            Locale::En => "en",
            Locale::Es => "es",
            Locale::Fi => "fi",
            Locale::Fr => "fr",
            Locale::It => "it",
            Locale::Nb => "nb",
            Locale::Nl => "nl",
            Locale::Pl => "pl",
            Locale::Sv => "sv",
        }
    }

    /// Parses "nl", "NL", "nl-BE", "nl_BE"; "no"/"nn" map to Norwegian Bokmål.
    pub fn parse(tag: &str) -> Option<Locale> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        let primary = match primary.as_str() {
            "no" | "nn" => "nb",
            other => other,
        };
        Locale::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The language's own name (an autonym), shown in the switcher so that a visitor finds
    /// their language whatever the page is in. Autonyms are the same in every locale.
    pub fn autonym(self) -> &'static str {
        match self {
            Locale::Da => "Dansk",
            Locale::De => "Deutsch",
            Locale::En => "English",
            Locale::Es => "Español",
            Locale::Fi => "Suomi",
            Locale::Fr => "Français",
            Locale::It => "Italiano",
            Locale::Nb => "Norsk bokmål",
            Locale::Nl => "Nederlands",
            Locale::Pl => "Polski",
            Locale::Sv => "Svenska",
        }
    }
}

impl std::fmt::Display for Locale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// Picks the language of a first render (SPEC §4, issue 2 §4):
/// the language cookie if set and supported; else the first two letters of the site's
/// domain_language if supported; else the browser's Accept-Language; else Dutch.
pub fn negotiate(cookie: Option<&str>, domain_language: Option<&str>, accept_language: Option<&str>) -> Locale {
    cookie
        .and_then(Locale::parse)
        .or_else(|| domain_language.and_then(|d| d.get(..2)).and_then(Locale::parse))
        .or_else(|| accept_language.and_then(from_accept_language))
        .unwrap_or(Locale::DEFAULT)
}

/// The best supported language of an Accept-Language header, by quality value.
pub fn from_accept_language(header: &str) -> Option<Locale> {
    let mut best: Option<(u16, usize, Locale)> = None;
    for (index, part) in header.split(',').enumerate() {
        let mut pieces = part.split(';');
        let Some(locale) = pieces.next().and_then(Locale::parse) else { continue };
        let quality = pieces.filter_map(|p| p.trim().strip_prefix("q=")).filter_map(|q| q.trim().parse::<f32>().ok()).next().unwrap_or(1.0);
        if quality.is_nan() || quality <= 0.0 || quality > 1.0 {
            continue;
        }
        let q = (quality * 1000.0).round() as u16;
        // Higher quality wins; among equals the earlier entry wins.
        let better = match best {
            None => true,
            Some((bq, bi, _)) => q > bq || (q == bq && index < bi),
        };
        if better {
            best = Some((q, index, locale));
        }
    }
    best.map(|(_, _, l)| l)
}

/// Languages visible for a visitor's country (SPEC §9). Unknown countries see all of them.
pub fn visible_for_country(country: &str) -> Vec<Locale> {
    use Locale::*;
    let list: &[Locale] = match country.to_ascii_uppercase().as_str() {
        "US" => &[En, Es],
        "NL" => &[Nl],
        "BE" => &[Nl, Fr, De],
        "FR" => &[Fr],
        "IT" => &[It],
        "ES" => &[Es],
        "DE" | "AT" => &[De],
        "IE" | "GB" | "AU" | "NZ" => &[En],
        "CA" => &[En, Fr],
        "PL" => &[Pl],
        "CH" => &[De, It, Fr, En],
        "DK" => &[Da],
        "FI" => &[Fi, Sv],
        "NO" => &[Nb],
        "SE" => &[Sv],
        _ => &Locale::ALL,
    };
    list.to_vec()
}

/// The switcher's choices: the country's languages, plus the current one if it is not among them
/// (a visitor who picked a language on /lang-config must always be able to see it selected).
pub fn switcher_choices(country: &str, current: Locale) -> Vec<Locale> {
    let mut list = visible_for_country(country);
    if !list.contains(&current) {
        list.insert(0, current);
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parse_variants() {
        assert_eq!(Locale::parse("nl"), Some(Locale::Nl));
        assert_eq!(Locale::parse("NL-be"), Some(Locale::Nl));
        assert_eq!(Locale::parse("nb_NO"), Some(Locale::Nb));
        assert_eq!(Locale::parse("no"), Some(Locale::Nb));
        assert_eq!(Locale::parse("pt"), None);
        assert_eq!(Locale::parse(""), None);
    }

    #[test]
    fn negotiation_order() {
        assert_eq!(negotiate(Some("de"), Some("fr-FR"), Some("en")), Locale::De);
        assert_eq!(negotiate(Some("xx"), Some("fr-FR"), Some("en")), Locale::Fr);
        assert_eq!(negotiate(None, Some("pt-BR"), Some("sv,en;q=0.8")), Locale::Sv);
        assert_eq!(negotiate(None, None, Some("pt-BR")), Locale::Nl);
        assert_eq!(negotiate(None, None, None), Locale::Nl);
    }

    #[test]
    fn accept_language_quality() {
        assert_eq!(from_accept_language("en;q=0.5, de;q=0.9, pt"), Some(Locale::De));
        assert_eq!(from_accept_language("fr-CH, fr;q=0.9, en;q=0.8"), Some(Locale::Fr));
        assert_eq!(from_accept_language("da;q=0, pl;q=0.1"), Some(Locale::Pl));
        assert_eq!(from_accept_language("*"), None);
    }

    #[test]
    fn spec_country_table() {
        assert_eq!(visible_for_country("be"), vec![Locale::Nl, Locale::Fr, Locale::De]);
        assert_eq!(visible_for_country("CH"), vec![Locale::De, Locale::It, Locale::Fr, Locale::En]);
        assert_eq!(visible_for_country("FI"), vec![Locale::Fi, Locale::Sv]);
        assert_eq!(visible_for_country("ZZ").len(), 11);
        assert_eq!(switcher_choices("NL", Locale::En), vec![Locale::En, Locale::Nl]);
    }

    proptest! {
        #[test]
        fn negotiate_always_picks_cookie_when_supported(idx in 0usize..11, dl in ".{0,8}", al in ".{0,30}") {
            let l = Locale::ALL[idx];
            prop_assert_eq!(negotiate(Some(l.code()), Some(&dl), Some(&al)), l);
        }

        #[test]
        fn accept_language_never_panics(header in ".{0,80}") {
            let _ = from_accept_language(&header);
        }

        #[test]
        fn code_roundtrips(idx in 0usize..11) {
            let l = Locale::ALL[idx];
            prop_assert_eq!(Locale::parse(l.code()), Some(l));
        }
    }
}
