//! Columns as the databases store them, for the server's `#[derive(sqlx::FromRow)]` on the
//! types of this crate and its own (feature `sqlx`, which the browser's build leaves out): a
//! boolean that SQLite keeps as 0/1, and lists and rules kept as JSON text.
//!
//! A field says how its column reads with `#[sqlx(try_from = "…")]`, so a type and its row are
//! declared once: adding a setting to [`crate::site::SiteSettings`] is its field and its migration.

use serde::de::DeserializeOwned;
use sqlx::any::{Any, AnyTypeInfo, AnyValueRef};
use sqlx::error::BoxDynError;
use sqlx::{Decode, Type};

/// A boolean column: PostgreSQL's `BOOLEAN`, SQLite's `INTEGER` 0 or 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag(pub bool);

impl Type<Any> for Flag {
    fn type_info() -> AnyTypeInfo {
        <bool as Type<Any>>::type_info()
    }
    fn compatible(ty: &AnyTypeInfo) -> bool {
        <bool as Type<Any>>::compatible(ty) || <i64 as Type<Any>>::compatible(ty)
    }
}

impl<'r> Decode<'r, Any> for Flag {
    fn decode(value: AnyValueRef<'r>) -> Result<Self, BoxDynError> {
        match <bool as Decode<Any>>::decode(value.clone()) {
            Ok(b) => Ok(Flag(b)),
            Err(_) => Ok(Flag(<i64 as Decode<Any>>::decode(value)? != 0)),
        }
    }
}

impl From<Flag> for bool {
    fn from(flag: Flag) -> bool {
        flag.0
    }
}

/// A column holding JSON text. A list reads strictly (a list that does not parse is an error);
/// rules read leniently (see their `TryFrom` impls).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonText(pub String);

impl Type<Any> for JsonText {
    fn type_info() -> AnyTypeInfo {
        <String as Type<Any>>::type_info()
    }
    fn compatible(ty: &AnyTypeInfo) -> bool {
        <String as Type<Any>>::compatible(ty)
    }
}

impl<'r> Decode<'r, Any> for JsonText {
    fn decode(value: AnyValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(JsonText(<String as Decode<Any>>::decode(value)?))
    }
}

impl<T: DeserializeOwned> TryFrom<JsonText> for Vec<T> {
    type Error = serde_json::Error;
    fn try_from(text: JsonText) -> Result<Self, Self::Error> {
        serde_json::from_str(&text.0)
    }
}

/// A site's gifts, a JSON list of codes: a code no longer known (a gift since retired) is skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GiftCodes(pub JsonText);

impl Type<Any> for GiftCodes {
    fn type_info() -> AnyTypeInfo {
        JsonText::type_info()
    }
    fn compatible(ty: &AnyTypeInfo) -> bool {
        JsonText::compatible(ty)
    }
}

impl<'r> Decode<'r, Any> for GiftCodes {
    fn decode(value: AnyValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(GiftCodes(JsonText::decode(value)?))
    }
}

impl TryFrom<GiftCodes> for Vec<crate::chat::Gift> {
    type Error = serde_json::Error;
    fn try_from(codes: GiftCodes) -> Result<Self, Self::Error> {
        let codes: Vec<String> = codes.0.try_into()?;
        Ok(codes.iter().filter_map(|c| crate::chat::Gift::parse(c)).collect())
    }
}

/// Unreadable contact rules fall back to masking every kind.
impl From<JsonText> for crate::contact::ContactPolicy {
    fn from(text: JsonText) -> Self {
        serde_json::from_str(&text.0).unwrap_or_default()
    }
}

/// Unreadable spam thresholds fall back to the defaults.
impl From<JsonText> for crate::spam::SpamRules {
    fn from(text: JsonText) -> Self {
        serde_json::from_str(&text.0).unwrap_or_default()
    }
}

impl TryFrom<i64> for crate::site::Niche {
    type Error = String;
    fn try_from(n: i64) -> Result<Self, String> {
        u8::try_from(n).ok().and_then(crate::site::Niche::new).ok_or_else(|| format!("niche {n} out of range"))
    }
}

impl TryFrom<String> for crate::site::SignupPolicy {
    type Error = String;
    fn try_from(code: String) -> Result<Self, String> {
        crate::site::SignupPolicy::parse(&code).ok_or_else(|| format!("unknown signups policy {code}"))
    }
}

/// Codes stored as text, read with `#[sqlx(try_from = "String")]`; a code the type does not
/// know is an error (the database holds only what the product wrote).
macro_rules! stored_codes {
    ($($ty:path),+ $(,)?) => {$(
        impl TryFrom<String> for $ty {
            type Error = String;
            fn try_from(code: String) -> Result<Self, String> {
                <$ty>::parse(&code).ok_or_else(|| format!("unknown {} {code}", stringify!($ty)))
            }
        }
    )+};
}

stored_codes!(
    crate::account::UserStatus,
    crate::account::ProfileStatus,
    crate::checkout::PaymentStatus,
    crate::payment::PaymentMethod,
    crate::refund::RefundKind,
    crate::refund::RefundState,
    crate::photo::PhotoStatus,
    crate::complaint::Category,
);
