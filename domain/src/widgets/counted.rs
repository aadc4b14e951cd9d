//! A counted text handed to a widget (`Counted`): the forms its language has, one picked in
//! the browser for each number.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::i18n::{interpolate, Texts};
use crate::plural::{category, forms};
use crate::Locale;

/// A text with `{count}` in every form its language uses (`key#one`, `key#few`, … in the
/// locale files). A widget picks the form with `Intl.PluralRules(lang)`, the CLDR rules that
/// [`crate::plural::category`] writes out for the server.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Counted {
    /// The page's language (`nl`, `pl`, …).
    pub lang: String,
    /// Each form by its CLDR category (`one`, `few`, `many`, `other`).
    pub forms: BTreeMap<String, String>,
}

impl Counted {
    /// The forms of the counted text `base` in `locale`; a missing form is the key, as
    /// [`crate::plural::plural`] shows it (the locale tests keep that from shipping).
    pub fn of(texts: &Texts, locale: Locale, base: &str) -> Counted {
        let forms = forms(locale)
            .iter()
            .map(|form| {
                let key = format!("{base}#{}", form.as_ref());
                (form.as_ref().to_string(), texts.get(&key).cloned().unwrap_or(key))
            })
            .collect();
        Counted { lang: locale.code().to_string(), forms }
    }

    /// The text for `n`, `{count}` and `args` filled (the server's and the chat island's
    /// rendering; the widgets do the same in TypeScript).
    pub fn text(&self, n: i64, args: &[(&str, &str)]) -> String {
        let locale = Locale::parse(&self.lang).unwrap_or(Locale::DEFAULT);
        let form = self
            .forms
            .get(category(locale, n).as_ref())
            .or_else(|| self.forms.get("other"))
            .or_else(|| self.forms.values().next_back())
            .map_or("", String::as_str);
        let count = n.to_string();
        let mut all = vec![("count", count.as_str())];
        all.extend_from_slice(args);
        interpolate(form, &all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(pairs: &[(&str, &str)]) -> Texts {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn carries_the_forms_its_language_has_and_picks_by_number() {
        let nl = Counted::of(&texts(&[("c#one", "{count} credit"), ("c#other", "{count} credits")]), Locale::Nl, "c");
        assert_eq!(nl.lang, "nl");
        assert_eq!(nl.forms.keys().collect::<Vec<_>>(), ["one", "other"]);
        assert_eq!((nl.text(1, &[]), nl.text(0, &[]), nl.text(12, &[])), ("1 credit".into(), "0 credits".into(), "12 credits".into()));

        let pl = Counted::of(&texts(&[("c#one", "{count} kredyt"), ("c#few", "{count} kredyty"), ("c#many", "{count} kredytów")]), Locale::Pl, "c");
        assert_eq!(pl.forms.keys().collect::<Vec<_>>(), ["few", "many", "one"]);
        let said: Vec<String> = [1, 2, 5, 22, 112].into_iter().map(|n| pl.text(n, &[])).collect();
        assert_eq!(said, ["1 kredyt", "2 kredyty", "5 kredytów", "22 kredyty", "112 kredytów"]);
    }

    #[test]
    fn a_missing_form_shows_its_key_and_args_are_filled() {
        let fr = Counted::of(&texts(&[("c#one", "{count} crédit de {name}"), ("c#other", "{count} crédits de {name}")]), Locale::Fr, "c");
        assert_eq!(fr.forms["many"], "c#many");
        assert_eq!(fr.text(0, &[("name", "Eva")]), "0 crédit de Eva");
        assert_eq!(fr.text(3, &[("name", "Eva")]), "3 crédits de Eva");
    }
}
