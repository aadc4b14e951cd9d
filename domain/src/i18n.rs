//! Translation tables: one flat map of key to text per locale, loaded from `locales/*.json`.
//! Placeholders are written `{name}` and filled by [`interpolate`].

use std::collections::BTreeMap;

use crate::date;

/// The texts of one locale, by key.
pub type Texts = BTreeMap<String, String>;

/// Fills `{name}` placeholders. Unknown placeholders stay as written so a missing argument is
/// visible in review rather than silently dropped.
pub fn interpolate(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('}') {
            Some(end) => {
                let name = &after[..end];
                match args.iter().find(|(k, _)| *k == name) {
                    Some((_, value)) => out.push_str(value),
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Formats a date as the locale writes it, with month names from the locale's
/// `date.month.1` … `date.month.12` and its `date.format` pattern ({day} {month} {year}).
pub fn format_date(texts: &Texts, unix_secs: i64) -> String {
    let d = date::from_unix(unix_secs);
    let month = texts.get(&format!("date.month.{}", d.month)).cloned().unwrap_or_else(|| d.month.to_string());
    let pattern = texts.get("date.format").map(String::as_str).unwrap_or("{day} {month} {year}");
    interpolate(pattern, &[("day", &d.day.to_string()), ("month", &month), ("year", &d.year.to_string())])
}

/// Placeholder names used in a template, in order.
pub fn placeholders(template: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        let after = &rest[start + 1..];
        let Some(end) = after.find('}') else { break };
        names.push(after[..end].to_string());
        rest = &after[end + 1..];
    }
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn fills_known_placeholders() {
        assert_eq!(interpolate("Vul uw geboortedatum in ({min_age}+ jaar)", &[("min_age", "18")]), "Vul uw geboortedatum in (18+ jaar)");
        assert_eq!(interpolate("{a}{b}{a}", &[("a", "1"), ("b", "2")]), "121");
        assert_eq!(interpolate("keep {unknown}", &[]), "keep {unknown}");
        assert_eq!(interpolate("open { brace", &[]), "open { brace");
    }

    #[test]
    fn formats_dates_with_locale_months() {
        let mut texts = Texts::new();
        texts.insert("date.month.12".into(), "december".into());
        assert_eq!(format_date(&texts, 1_701_432_000), "1 december 2023");
        texts.insert("date.format".into(), "{month} {day}, {year}".into());
        texts.insert("date.month.12".into(), "December".into());
        assert_eq!(format_date(&texts, 1_701_432_000), "December 1, 2023");
    }

    #[test]
    fn lists_placeholders() {
        assert_eq!(placeholders("Te veel foute pogingen, account voor {minutes} min geblokkeerd."), vec!["minutes"]);
        assert!(placeholders("geen").is_empty());
    }

    proptest! {
        #[test]
        fn text_without_braces_is_unchanged(s in "[^{}]{0,60}") {
            prop_assert_eq!(interpolate(&s, &[("x", "y")]), s);
        }
    }
}
