//! Counted texts: which form of a word a number takes in each of the site's languages, by the
//! CLDR cardinal plural rules (whole numbers), in one place.
//!
//! A counted text is stored in the locale files once per form its language has, as
//! `key#one`, `key#few`, `key#many` and `key#other` (a `#`: ordinary keys end in words like
//! `.other` too); [`plural`] picks the form and fills
//! `{count}`. [`forms`] says which forms each language needs (the locale tests check them).

use strum::{AsRefStr, EnumIter, IntoEnumIterator};

use crate::i18n::{interpolate, Texts};
use crate::Locale;

/// A CLDR plural category (the ones the site's languages use for whole numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, AsRefStr, EnumIter)]
#[strum(serialize_all = "lowercase")]
pub enum Plural {
    One,
    Few,
    Many,
    Other,
}

/// The category of the whole number `n` in `locale` (CLDR 46 cardinal rules, `v = 0`).
pub fn category(locale: Locale, n: i64) -> Plural {
    let i = n.unsigned_abs();
    let millions = i != 0 && i.is_multiple_of(1_000_000);
    match locale {
        // one: i = 1 and v = 0 (Danish: n = 1 or t != 0 and i = 0,1; the same for whole numbers).
        Locale::Da | Locale::De | Locale::En | Locale::Fi | Locale::Nb | Locale::Nl | Locale::Sv => {
            if i == 1 {
                Plural::One
            } else {
                Plural::Other
            }
        }
        // one: n = 1 (Spanish) or i = 1 and v = 0 (Italian); many: i != 0 and i % 1000000 = 0.
        Locale::Es | Locale::It => match i {
            1 => Plural::One,
            _ if millions => Plural::Many,
            _ => Plural::Other,
        },
        // one: i = 0,1; many: i != 0 and i % 1000000 = 0.
        Locale::Fr => match i {
            0 | 1 => Plural::One,
            _ if millions => Plural::Many,
            _ => Plural::Other,
        },
        // one: i = 1; few: i % 10 = 2..4 and i % 100 != 12..14; many: every other whole number.
        Locale::Pl => {
            let (last, last_two) = (i % 10, i % 100);
            if i == 1 {
                Plural::One
            } else if (2..=4).contains(&last) && !(12..=14).contains(&last_two) {
                Plural::Few
            } else {
                Plural::Many
            }
        }
    }
}

/// The forms a counted text needs in `locale` (every category a whole number can take there).
pub fn forms(locale: Locale) -> &'static [Plural] {
    match locale {
        Locale::Es | Locale::It | Locale::Fr => &[Plural::One, Plural::Many, Plural::Other],
        Locale::Pl => &[Plural::One, Plural::Few, Plural::Many],
        _ => &[Plural::One, Plural::Other],
    }
}

/// The key of `base`'s form for `n` in `locale` (`"duration.hours#one"`).
pub fn key(base: &str, locale: Locale, n: i64) -> String {
    format!("{base}#{}", category(locale, n).as_ref())
}

/// The counted text `base` for `n`: its form for `n`, `{count}` and `args` filled. A missing
/// form shows the key (the locale tests keep that from shipping).
pub fn plural(texts: &Texts, locale: Locale, base: &str, n: i64, args: &[(&str, &str)]) -> String {
    let key = key(base, locale, n);
    let count = n.to_string();
    let mut all = vec![("count", count.as_str())];
    all.extend_from_slice(args);
    match texts.get(&key) {
        Some(text) => interpolate(text, &all),
        None => key,
    }
}

/// A locale key that is one form of a counted text (`base#one`, …): its base and form.
pub fn split_key(key: &str) -> Option<(&str, Plural)> {
    let (base, form) = key.rsplit_once('#')?;
    Some((base, Plural::iter().find(|p| p.as_ref() == form)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn cldr_examples() {
        use Plural::*;
        let cases: &[(Locale, &[(i64, Plural)])] = &[
            (Locale::Nl, &[(0, Other), (1, One), (2, Other), (11, Other), (1_000_000, Other)]),
            (Locale::En, &[(1, One), (21, Other)]),
            (Locale::Da, &[(0, Other), (1, One), (2, Other)]),
            (Locale::Fr, &[(0, One), (1, One), (2, Other), (1_000_000, Many), (2_000_000, Many), (1_000_001, Other)]),
            (Locale::Es, &[(0, Other), (1, One), (5, Other), (1_000_000, Many)]),
            (Locale::It, &[(1, One), (3, Other), (3_000_000, Many)]),
            (
                Locale::Pl,
                &[(0, Many), (1, One), (2, Few), (4, Few), (5, Many), (12, Many), (14, Many), (21, Many), (22, Few), (25, Many), (102, Few), (112, Many)],
            ),
        ];
        for (locale, numbers) in cases {
            for (n, want) in numbers.iter() {
                assert_eq!(category(*locale, *n), *want, "{locale:?} {n}");
            }
        }
    }

    #[test]
    fn picks_the_form_and_fills_the_count() {
        let texts: Texts = [("x#one", "{count} bericht aan {name}"), ("x#other", "{count} berichten aan {name}")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(plural(&texts, Locale::Nl, "x", 1, &[("name", "Eva")]), "1 bericht aan Eva");
        assert_eq!(plural(&texts, Locale::Nl, "x", 3, &[("name", "Eva")]), "3 berichten aan Eva");
        assert_eq!(plural(&texts, Locale::Pl, "x", 3, &[]), "x#few");
        assert_eq!(split_key("duration.hours#few"), Some(("duration.hours", Plural::Few)));
        assert_eq!(split_key("complaints.category.other"), None);
        assert_eq!(split_key("x#twelve"), None);
    }

    proptest! {
        #[test]
        fn every_whole_number_takes_a_form_its_language_has(n in -10_000_000i64..10_000_000) {
            for locale in Locale::ALL {
                prop_assert!(forms(locale).contains(&category(locale, n)));
            }
        }
    }

    #[test]
    fn every_form_a_language_has_is_taken_by_some_number() {
        for locale in Locale::ALL {
            for form in Plural::iter().filter(|f| forms(locale).contains(f)) {
                assert!([0i64, 1, 2, 5, 1_000_000].iter().any(|n| category(locale, *n) == form), "{locale:?} {form:?}");
            }
        }
    }
}
