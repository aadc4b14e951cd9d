//! Translations in components: `let i18n = use_i18n(); i18n.t("nav.search")`.

use domain::i18n::{interpolate, Texts};
use domain::Locale;
use std::sync::Arc;

use crate::context::use_page_ctx;

#[derive(Clone, Debug)]
pub struct I18n {
    pub locale: Locale,
    texts: Arc<Texts>,
}

impl I18n {
    pub fn new(locale: Locale, texts: Arc<Texts>) -> I18n {
        I18n { locale, texts }
    }

    /// The text for `key`; a missing key shows the key itself (the locale tests keep that from shipping).
    pub fn t(&self, key: &str) -> String {
        self.texts.get(key).cloned().unwrap_or_else(|| key.to_string())
    }

    /// The text for `key` with `{name}` placeholders filled.
    pub fn tf(&self, key: &str, args: &[(&str, &str)]) -> String {
        interpolate(&self.t(key), args)
    }

    /// The counted text `base` in the form this language uses for `n` (`{count}` and `args`
    /// filled; `domain::plural`).
    pub fn plural(&self, base: &str, n: i64, args: &[(&str, &str)]) -> String {
        domain::plural::plural(&self.texts, self.locale, base, n, args)
    }

    /// A length of time as the offers state it: whole days from two days on when it is a whole
    /// number of days, hours otherwise (at least one).
    pub fn duration(&self, seconds: i64) -> String {
        let hours = (seconds / 3600).max(1);
        if hours >= 48 && hours % 24 == 0 {
            self.plural("duration.days", hours / 24, &[])
        } else {
            self.plural("duration.hours", hours, &[])
        }
    }

    /// What follows the offer in force (`offers.then`), when something does.
    pub fn offer_then(&self, offers: &domain::offers::Offers) -> Option<String> {
        let (now, next) = (offers.now?, offers.next?);
        Some(self.tf("offers.then", &[("percent", &next.percent.to_string()), ("duration", &self.duration(next.ends_at - now.ends_at))]))
    }

    /// The text of a refusal, its placeholders filled with the values it carries; a refusal
    /// about one site setting (staff forms) starts with that setting's label.
    pub fn error(&self, error: &domain::ApiError) -> String {
        let text = interpolate(&self.t(error.locale_key()), &error.arg_pairs());
        match error.args.get("setting") {
            Some(setting) => format!("{}: {text}", self.t(&format!("staff.setting.{setting}"))),
            None => text,
        }
    }

    pub fn date(&self, unix_secs: i64) -> String {
        domain::i18n::format_date(&self.texts, unix_secs)
    }

    /// Whether this locale writes decimals with a comma.
    pub fn decimal_comma(&self) -> bool {
        !matches!(self.locale, Locale::En)
    }
}

pub fn use_i18n() -> I18n {
    let ctx = use_page_ctx();
    I18n::new(ctx.locale, ctx.texts.clone())
}

#[cfg(test)]
mod tests {
    //! Every literal locale key in the app's source exists in the Dutch locale (the default).
    use std::collections::BTreeMap;
    use std::path::Path;

    const NAMESPACES: [&str; 48] = [
        "nav",
        "account",
        "footer",
        "entry",
        "home",
        "title",
        "lang",
        "pricing",
        "payment",
        "error",
        "validation",
        "date",
        "pages",
        "site",
        "mail",
        "auth",
        "reset",
        "settings",
        "reminder",
        "activate",
        "mailchange",
        "deleted",
        "complete",
        "profile",
        "location",
        "alert",
        "unsubscribe",
        "country",
        "members",
        "photo",
        "photos",
        "staff",
        "landing",
        "likes",
        "swipe",
        "chat",
        "console",
        "receipt",
        "credits",
        "checkout",
        "repeat",
        "premium",
        "transaction",
        "transactions",
        "directdebit",
        "testpay",
        "timebonus",
        "security",
    ];

    fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// Literals shaped like keys that are not texts (the session cookie's name).
    const NOT_KEYS: [&str; 1] = [domain::constants::AUTH_COOKIE];

    fn looks_like_key(s: &str) -> bool {
        if NOT_KEYS.contains(&s) {
            return false;
        }
        let mut parts = s.split('.');
        let first = parts.next().unwrap_or("");
        NAMESPACES.contains(&first)
            && s.contains('.')
            && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
            && !s.ends_with('.')
            // File names (the data download's `account.json`, …).
            && !s.ends_with(".json")
    }

    #[test]
    fn every_key_used_in_the_app_exists() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let nl: BTreeMap<String, String> = serde_json::from_str(&std::fs::read_to_string(root.join("../locales/nl.json")).unwrap()).unwrap();
        let mut files = Vec::new();
        rust_files(&root.join("src"), &mut files);
        rust_files(&root.join("../domain/src"), &mut files);
        rust_files(&root.join("../server/src"), &mut files);
        let mut missing = Vec::new();
        let mut checked = 0;
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (i, literal) in text.split('"').enumerate() {
                if i % 2 == 1 && looks_like_key(literal) {
                    checked += 1;
                    // A prefix such as "pages.terms" is fine when keys are built from it, and a
                    // counted text's base ("pricing.credits") when its forms are there.
                    let (prefix, forms) = (format!("{literal}."), format!("{literal}#"));
                    if !nl.contains_key(literal) && !nl.keys().any(|k| k.starts_with(&prefix) || k.starts_with(&forms)) {
                        missing.push(format!("{}: {literal}", file.display()));
                    }
                }
            }
        }
        assert!(checked > 50, "the scan found only {checked} keys: it is not looking at the right files");
        assert!(missing.is_empty(), "keys missing from locales/nl.json: {missing:?}");
    }
}
