//! The translation catalog: `locales/*.json`, embedded at build time, one flat map per locale.

use std::collections::HashMap;
use std::sync::Arc;

use domain::i18n::Texts;
use domain::Locale;

macro_rules! embed_locales {
    ($($code:literal),*) => {
        [$(($code, include_str!(concat!("../../locales/", $code, ".json")))),*]
    };
}

const SOURCES: [(&str, &str); 11] = embed_locales!("da", "de", "en", "es", "fi", "fr", "it", "nb", "nl", "pl", "sv");

#[derive(Debug)]
pub struct Catalog {
    texts: HashMap<Locale, Arc<Texts>>,
}

impl Catalog {
    /// Parses the embedded locale files. A broken file is a build defect, caught by the tests.
    pub fn embedded() -> Catalog {
        let texts = SOURCES
            .iter()
            .map(|(code, json)| {
                let locale = Locale::parse(code).expect("locale code");
                let map: Texts = serde_json::from_str(json).unwrap_or_else(|e| panic!("locales/{code}.json: {e}"));
                (locale, Arc::new(map))
            })
            .collect();
        Catalog { texts }
    }

    pub fn texts(&self, locale: Locale) -> Arc<Texts> {
        self.texts.get(&locale).cloned().unwrap_or_default()
    }

    /// One text, falling back to Dutch and then to the key itself.
    pub fn t(&self, locale: Locale, key: &str) -> String {
        self.texts
            .get(&locale)
            .and_then(|m| m.get(key))
            .or_else(|| self.texts.get(&Locale::DEFAULT).and_then(|m| m.get(key)))
            .cloned()
            .unwrap_or_else(|| key.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::plural;
    use std::collections::BTreeSet;

    #[test]
    fn every_locale_has_every_key() {
        let catalog = Catalog::embedded();
        // Counted texts (`base#form`) are checked by form below; every other key is in every locale.
        let all: BTreeSet<String> =
            Locale::ALL.iter().flat_map(|l| catalog.texts(*l).keys().filter(|k| plural::split_key(k).is_none()).cloned().collect::<Vec<_>>()).collect();
        let mut problems = Vec::new();
        for locale in Locale::ALL {
            let texts = catalog.texts(locale);
            for key in &all {
                match texts.get(key) {
                    None => problems.push(format!("{locale}: missing {key}")),
                    Some(v) if v.trim().is_empty() => problems.push(format!("{locale}: empty {key}")),
                    _ => {}
                }
            }
        }
        assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
    }

    /// Every counted text has, in each language, exactly the forms that language's plural
    /// rules use for whole numbers (`domain::plural::forms`), none empty.
    #[test]
    fn every_counted_text_has_its_forms_in_every_locale() {
        let catalog = Catalog::embedded();
        let bases: BTreeSet<String> = Locale::ALL
            .iter()
            .flat_map(|l| catalog.texts(*l).keys().filter_map(|k| plural::split_key(k).map(|(b, _)| b.to_string())).collect::<Vec<_>>())
            .collect();
        assert!(bases.contains("duration.hours"), "counted texts: {bases:?}");
        let mut problems = Vec::new();
        for locale in Locale::ALL {
            let texts = catalog.texts(locale);
            for base in &bases {
                let have: BTreeSet<String> = texts
                    .iter()
                    .filter(|(_, v)| !v.trim().is_empty())
                    .filter_map(|(k, _)| plural::split_key(k).filter(|(b, _)| b == base).map(|(_, f)| f.as_ref().to_string()))
                    .collect();
                let want: BTreeSet<String> = plural::forms(locale).iter().map(|f| f.as_ref().to_string()).collect();
                if have != want {
                    problems.push(format!("{locale}: {base} has {have:?}, its plural rules use {want:?}"));
                }
            }
        }
        assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
    }

    #[test]
    fn placeholders_match_across_locales() {
        let catalog = Catalog::embedded();
        let nl = catalog.texts(Locale::Nl);
        // A counted text's forms are compared with Dutch's `other` form, `{count}` aside (a
        // form for one may say "the first hour" without the number).
        let without_count = |text: &str| domain::i18n::placeholders(text).into_iter().filter(|p| p != "count").collect::<Vec<_>>();
        let mut problems = Vec::new();
        for locale in Locale::ALL {
            let texts = catalog.texts(locale);
            for (key, other) in texts.iter() {
                let matches = match plural::split_key(key) {
                    Some((base, _)) => nl.get(&format!("{base}#other")).map(|nl| without_count(nl) == without_count(other)),
                    None => nl.get(key).map(|nl| domain::i18n::placeholders(nl) == domain::i18n::placeholders(other)),
                };
                if matches == Some(false) {
                    problems.push(format!("{locale}: {key}"));
                }
            }
        }
        assert!(problems.is_empty(), "placeholders differ: {problems:?}");
    }

    /// Counted texts read right for one and for more: Dutch, and Polish's three forms.
    #[test]
    fn counted_texts_read_right_for_one_and_more() {
        let c = Catalog::embedded();
        let (nl, pl) = (c.texts(Locale::Nl), c.texts(Locale::Pl));
        let dutch = |base: &str, n: i64, args: &[(&str, &str)]| plural::plural(&nl, Locale::Nl, base, n, args);
        assert_eq!(dutch("auth.credits_left", 1, &[]), "1 credit");
        assert_eq!(dutch("auth.credits_left", 20, &[]), "20 credits");
        assert_eq!(dutch("staff.held.released", 1, &[]), "1 bericht vrijgegeven en bezorgd.");
        assert_eq!(dutch("staff.held.released", 2, &[]), "2 berichten vrijgegeven en bezorgd.");
        // Two numbers: each takes its own form.
        let payments = dutch("console.payments", 1, &[]);
        assert_eq!(dutch("console.bought", 60, &[("payments", &payments)]), "Gekocht: 60 credits (1 betaling)");
        // A text with a counted part: the discount notice's hours, in each language's form.
        let en = c.texts(Locale::En);
        let notice = |texts: &domain::i18n::Texts, locale: Locale, hours: i64| {
            let duration = plural::plural(texts, locale, "duration.hours", hours, &[]);
            domain::i18n::interpolate(&texts["lifecycle.discount_ending.subject"], &[("percent", "15"), ("duration", &duration)])
        };
        assert_eq!(notice(&en, Locale::En, 1), "Your 15% discount ends in 1 hour");
        assert_eq!(notice(&en, Locale::En, 6), "Your 15% discount ends in 6 hours");
        assert_eq!(notice(&pl, Locale::Pl, 5), "Twoja zniżka 15% kończy się za 5 godzin");
        let recipients = dutch("staff.held.recipients", 3, &[]);
        assert_eq!(dutch("staff.held.counts", 1, &[("recipients", &recipients)]), "1 bericht aan 3 leden");
        let polish = |n: i64| plural::plural(&pl, Locale::Pl, "auth.credits_left", n, &[]);
        assert_eq!([polish(1), polish(2), polish(5), polish(22)], ["1 kredyt", "2 kredyty", "5 kredytów", "22 kredyty"]);
    }

    #[test]
    fn dutch_texts_quote_the_spec() {
        let c = Catalog::embedded();
        assert_eq!(c.t(Locale::Nl, "error.generic"), "Er is een fout opgetreden, probeer het later opnieuw.");
        assert_eq!(c.t(Locale::Nl, "error.login_failed"), "Login mislukt, probeer opnieuw");
        assert_eq!(c.t(Locale::Nl, "validation.email_invalid"), "Ongeldige e-mail");
        assert_eq!(c.t(Locale::Nl, "validation.name_equals_email"), "Je profielnaam moet anders zijn dan je e-mailadres");
        assert_eq!(c.t(Locale::Nl, "validation.name_starts_with_at"), "Je profielnaam mag niet beginnen met een @");
        assert_eq!(c.t(Locale::Nl, "validation.date_of_birth_required"), "Vul uw geboortedatum in ({min_age}+ jaar)");
        assert_eq!(c.t(Locale::Nl, "validation.date_of_birth_invalid"), "Ongeldige geboortedatum.");
        assert_eq!(c.t(Locale::Nl, "error.premium_only"), "Deze functie is alleen beschikbaar voor premium leden.");
        assert_eq!(c.t(Locale::Nl, "error.photo_limit"), "Foto-limiet bereikt");
        assert_eq!(c.t(Locale::Nl, "error.payment_failed"), "Betaling mislukt");
    }

    #[test]
    fn fallback_is_dutch_then_key() {
        let c = Catalog::embedded();
        assert_eq!(c.t(Locale::En, "no.such.key"), "no.such.key");
    }
}
