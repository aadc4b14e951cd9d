//! A staff settings form declared once: [`settings_form!`] turns one line per setting into the
//! form's struct, its checks, its inputs on the page ([`SettingsForm::inputs`]), the columns of
//! `sites` it writes ([`SettingsForm::columns`], which the staff log's old → new diff reads) and
//! its values read from [`SiteSettings`](crate::site::SiteSettings).
//!
//! A setting's name is its struct field, its column in `sites`, its form input's `name`, its
//! field in the server function's arguments and its label `staff.setting.{name}` in `locales/`.
//! Adding a number, amount, switch or text to a form is therefore one line here, the field in
//! `SiteSettings` that the site reads, a migration per database and the label in 11 languages.
//! Settings with rules of their own (lists of countries or profile fields, a language tag) are
//! written out by hand beside the declared ones.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};

use super::{line, phone, text, Range};
use crate::{ApiError, ErrorCode};

/// How one setting is checked, shown and stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// A whole number within the range (a number input with its limits).
    Int(Range),
    /// An amount in whole currency units on the form, stored in minor units.
    Money(Range),
    /// On or off (a checkbox; absent from a posted form means off).
    Flag,
    /// One line of text, control characters dropped and trimmed.
    Line { required: bool, max: usize },
    /// An e-mail address (checked and lower-cased).
    Email,
    /// A telephone number.
    Phone,
    /// Several lines (a text area); line breaks kept.
    Text { max: usize },
    /// Empty, or where files are served from: `https://host[:port][/path]` (no trailing `/`).
    Origin,
    /// Empty, `*` (everywhere) or two-letter country codes (`domain::age::normalize_countries`).
    Countries,
}

/// A setting's value as stored in its column (and written in the staff log).
#[derive(Debug, Clone, PartialEq)]
pub enum Stored {
    Int(i64),
    Text(String),
    Flag(bool),
    /// A column that may be NULL (empty text reads as none).
    MaybeText(Option<String>),
}

impl std::fmt::Display for Stored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stored::Int(n) => write!(f, "{n}"),
            Stored::Text(t) => write!(f, "{:?}", t.chars().take(60).collect::<String>()),
            Stored::Flag(b) => write!(f, "{}", if *b { "on" } else { "off" }),
            Stored::MaybeText(t) => write!(f, "{}", t.as_deref().unwrap_or("-")),
        }
    }
}

/// A value as a posted form (text) or JSON (numbers, booleans) carries it.
#[derive(Debug, Clone, PartialEq)]
pub enum Posted {
    Int(i64),
    Bool(bool),
    Text(String),
}

impl<'de> Deserialize<'de> for Posted {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Posted, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Posted;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number, a switch or a text")
            }
            fn visit_i64<E>(self, v: i64) -> Result<Posted, E> {
                Ok(Posted::Int(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Posted, E> {
                i64::try_from(v).map(Posted::Int).map_err(E::custom)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Posted, E> {
                Ok(Posted::Bool(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Posted, E> {
                Ok(Posted::Text(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A Rust type a declared setting holds: `i64` for numbers and amounts, `bool` for switches,
/// `String` for texts.
pub trait SettingValue: Sized + Clone {
    /// Checked by the field's rule (`setting` names the field in a refusal).
    fn check(self, setting: &'static str, field: Field) -> Result<Self, ApiError>;
    /// As its column stores it.
    fn stored(&self, field: Field) -> Stored;
    /// The form's value for the site's (amounts from minor to whole units).
    fn shown(site: &Self, field: Field) -> Self;
    /// Taken from a posted form or JSON; a missing switch is off, anything else missing or of the
    /// wrong kind is refused.
    fn take(posted: Option<&Posted>, setting: &str) -> Result<Self, String>;
}

impl SettingValue for i64 {
    fn check(self, _: &'static str, field: Field) -> Result<i64, ApiError> {
        match field {
            Field::Int(range) | Field::Money(range) => range.check(self),
            _ => Ok(self),
        }
    }
    fn stored(&self, field: Field) -> Stored {
        Stored::Int(if matches!(field, Field::Money(_)) { self.saturating_mul(100) } else { *self })
    }
    fn shown(site: &i64, field: Field) -> i64 {
        if matches!(field, Field::Money(_)) {
            site / 100
        } else {
            *site
        }
    }
    fn take(posted: Option<&Posted>, setting: &str) -> Result<i64, String> {
        match posted {
            Some(Posted::Int(n)) => Ok(*n),
            Some(Posted::Text(t)) => t.trim().parse().map_err(|_| format!("{setting}: not a whole number")),
            _ => Err(format!("{setting}: a whole number is needed")),
        }
    }
}

impl SettingValue for bool {
    fn check(self, _: &'static str, _: Field) -> Result<bool, ApiError> {
        Ok(self)
    }
    fn stored(&self, _: Field) -> Stored {
        Stored::Flag(*self)
    }
    fn shown(site: &bool, _: Field) -> bool {
        *site
    }
    fn take(posted: Option<&Posted>, setting: &str) -> Result<bool, String> {
        match posted {
            None => Ok(false),
            Some(Posted::Bool(b)) => Ok(*b),
            Some(Posted::Text(t)) => match t.as_str() {
                "on" | "true" => Ok(true),
                "off" | "false" | "" => Ok(false),
                _ => Err(format!("{setting}: not a switch")),
            },
            Some(Posted::Int(_)) => Err(format!("{setting}: not a switch")),
        }
    }
}

impl SettingValue for String {
    fn check(self, setting: &'static str, field: Field) -> Result<String, ApiError> {
        match field {
            Field::Line { required, max } => line(setting, &self, required, max),
            Field::Text { max } => text(setting, &self, max),
            Field::Phone => phone(setting, &self),
            Field::Email => crate::account::validate_email(&self).map_err(|_| ApiError::new(ErrorCode::EmailInvalid).with("setting", setting)),
            Field::Origin => file_origin(&self).ok_or_else(|| ApiError::new(ErrorCode::UrlInvalid).with("setting", setting)),
            Field::Countries => crate::age::normalize_countries(&self).ok_or_else(|| ApiError::new(ErrorCode::ChoiceInvalid).with("setting", setting)),
            _ => Ok(self),
        }
    }
    fn stored(&self, _: Field) -> Stored {
        Stored::Text(self.clone())
    }
    fn shown(site: &String, _: Field) -> String {
        site.clone()
    }
    fn take(posted: Option<&Posted>, setting: &str) -> Result<String, String> {
        match posted {
            Some(Posted::Text(t)) => Ok(t.clone()),
            _ => Err(format!("{setting}: a text is needed")),
        }
    }
}

/// A prefix files are served from (a CDN in front of the site): empty, or `http(s)://` with a
/// host, an optional port and path, nothing that could end an attribute or a CSP source; the
/// trailing `/` dropped.
pub fn file_origin(value: &str) -> Option<String> {
    let value = value.trim().trim_end_matches('/');
    if value.is_empty() {
        return Some(String::new());
    }
    let rest = value.strip_prefix("https://").or_else(|| value.strip_prefix("http://"))?;
    let host = rest.split('/').next().unwrap_or_default();
    let clean = |c: char| c.is_ascii_alphanumeric() || "-._~/:".contains(c);
    let host_ok = !host.is_empty() && !host.starts_with(['.', ':', '-']) && host.chars().all(|c| c.is_ascii_alphanumeric() || "-.:".contains(c));
    (value.len() <= 200 && host_ok && rest.chars().all(clean) && !rest.contains("//")).then(|| value.to_ascii_lowercase())
}

/// A form's posted fields by name (what a declared form is read from).
pub fn posted<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, Posted>, D::Error> {
    BTreeMap::<String, Posted>::deserialize(d)
}

/// One field read from the posted fields.
pub fn take<T: SettingValue, E: serde::de::Error>(posted: &BTreeMap<String, Posted>, setting: &str) -> Result<T, E> {
    T::take(posted.get(setting), setting).map_err(E::custom)
}

/// A declared settings form.
pub trait SettingsForm {
    /// Each setting's name and kind, in the form's order.
    const FIELDS: &'static [(&'static str, Field)];
    /// Each setting checked by its kind (the form's own cross-field rules come after).
    fn check_fields(self) -> Result<Self, ApiError>
    where
        Self: Sized;
    /// Each setting's column and stored value.
    fn columns(&self) -> Vec<(&'static str, Stored)>;
    /// Each setting with its kind and the value the form shows, in the form's order.
    fn inputs(&self) -> Vec<(&'static str, Field, Stored)> {
        self.columns().into_iter().zip(Self::FIELDS).map(|((name, stored), (_, field))| (name, *field, shown(stored, *field))).collect()
    }
}

/// A stored value as the form shows it (amounts in whole units).
fn shown(stored: Stored, field: Field) -> Stored {
    match (stored, field) {
        (Stored::Int(n), Field::Money(_)) => Stored::Int(n / 100),
        (stored, _) => stored,
    }
}

/// Declares a settings form: `name: kind(args),` per setting, where kind is `int(RANGE)`,
/// `money(RANGE)`, `flag`, `line(required, max)`, `email`, `phone`, `text(max)`, `origin` or `countries`. Each name must
/// be a field of [`SiteSettings`](crate::site::SiteSettings) of the kind's type and a column of
/// `sites`.
#[macro_export]
macro_rules! settings_form {
    ($(#[$meta:meta])* pub struct $form:ident { $($(#[$fmeta:meta])* $name:ident: $kind:ident $(($($arg:expr),*))?),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
        pub struct $form {
            $($(#[$fmeta])* pub $name: $crate::settings_form!(@type $kind),)*
        }

        impl $crate::staff::SettingsForm for $form {
            const FIELDS: &'static [(&'static str, $crate::staff::Field)] = &[$((stringify!($name), $crate::settings_form!(@field $kind $(($($arg),*))?))),*];
            fn check_fields(self) -> Result<$form, $crate::ApiError> {
                Ok($form {
                    $($name: $crate::staff::SettingValue::check(self.$name, stringify!($name), $crate::settings_form!(@field $kind $(($($arg),*))?))?,)*
                })
            }
            fn columns(&self) -> Vec<(&'static str, $crate::staff::Stored)> {
                vec![$((stringify!($name), $crate::staff::SettingValue::stored(&self.$name, $crate::settings_form!(@field $kind $(($($arg),*))?))),)*]
            }
        }

        impl From<&$crate::site::SiteSettings> for $form {
            fn from(s: &$crate::site::SiteSettings) -> $form {
                $form { $($name: $crate::staff::SettingValue::shown(&s.$name, $crate::settings_form!(@field $kind $(($($arg),*))?)),)* }
            }
        }

        impl<'de> serde::Deserialize<'de> for $form {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$form, D::Error> {
                let posted = $crate::staff::posted(d)?;
                Ok($form { $($name: $crate::staff::take::<_, D::Error>(&posted, stringify!($name))?,)* })
            }
        }
    };
    (@type int) => { i64 };
    (@type money) => { i64 };
    (@type flag) => { bool };
    (@type line) => { String };
    (@type email) => { String };
    (@type phone) => { String };
    (@type text) => { String };
    (@type origin) => { String };
    (@type countries) => { String };
    (@field int($range:expr)) => { $crate::staff::Field::Int($range) };
    (@field money($range:expr)) => { $crate::staff::Field::Money($range) };
    (@field flag) => { $crate::staff::Field::Flag };
    (@field line($required:expr, $max:expr)) => { $crate::staff::Field::Line { required: $required, max: $max } };
    (@field email) => { $crate::staff::Field::Email };
    (@field phone) => { $crate::staff::Field::Phone };
    (@field text($max:expr)) => { $crate::staff::Field::Text { max: $max } };
    (@field origin) => { $crate::staff::Field::Origin };
    (@field countries) => { $crate::staff::Field::Countries };
}
