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
    I18n::new(ctx.locale, ctx.texts)
}
