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

    /// Every form of the counted text `base`, for a widget to pick from in the browser.
    pub fn counted(&self, base: &str) -> domain::widgets::Counted {
        domain::widgets::Counted::of(&self.texts, self.locale, base)
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
