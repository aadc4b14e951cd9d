//! Credit bundles and discount codes as staff edit them.

use serde::{Deserialize, Serialize};

use super::*;
use crate::{ApiError, ErrorCode};

/// A credit bundle as staff set it (`id` none: a new one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct PackEdit {
    #[cfg_attr(feature = "sqlx", sqlx(default))]
    pub id: Option<i64>,
    pub credits: i64,
    pub price_minor: i64,
    pub currency: String,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub highlighted: bool,
    pub sort_order: i64,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub active: bool,
}

impl PackEdit {
    pub fn validate(self) -> Result<PackEdit, ApiError> {
        let currency = self.currency.trim().to_ascii_uppercase();
        if !CURRENCIES.contains(&currency.as_str()) {
            return Err(ApiError::new(ErrorCode::ChoiceInvalid).with("setting", "currency"));
        }
        Ok(PackEdit {
            id: self.id,
            credits: PACK_CREDITS.check(self.credits)?,
            price_minor: PACK_PRICE.check(self.price_minor)?,
            currency,
            highlighted: self.highlighted,
            sort_order: PACK_SORT.check(self.sort_order)?,
            active: self.active,
        })
    }
}
/// A credit bundle as staff see it (inactive ones too).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct PackRecord {
    pub id: i64,
    pub credits: i64,
    pub price_minor: i64,
    pub currency: String,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub highlighted: bool,
    pub sort_order: i64,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub active: bool,
    /// Payments made for it (a bundle that was sold is never deleted, only switched off).
    pub sold: i64,
}

/// A discount code as staff see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct DiscountRecord {
    pub id: i64,
    pub code: String,
    pub percentage: i64,
    pub minimum_order: i64,
    pub country: Option<String>,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "crate::rows::Flag"))]
    pub active: bool,
    pub expires_at: Option<i64>,
    pub redeemed: i64,
}

/// A discount code as staff create it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiscountEdit {
    pub code: String,
    pub percentage: i64,
    pub minimum_order: i64,
    /// Only for buyers in this country; none: everywhere.
    pub country: Option<String>,
    /// Unix time after which it no longer applies; none: no end.
    pub expires_at: Option<i64>,
}

pub const CODE_MIN_CHARS: usize = 3;
pub const CODE_MAX_CHARS: usize = 32;

/// A discount code as members type it: upper-cased; letters A–Z, digits, `-` and `_`.
pub fn normalise_code(raw: &str) -> Result<String, ApiError> {
    let code = raw.trim().to_ascii_uppercase();
    let n = code.chars().count();
    if !(CODE_MIN_CHARS..=CODE_MAX_CHARS).contains(&n) || !code.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-' || c == '_') {
        return Err(ApiError::new(ErrorCode::CodeInvalid).with("min", CODE_MIN_CHARS).with("max", CODE_MAX_CHARS));
    }
    Ok(code)
}

impl DiscountEdit {
    pub fn validate(self, now: i64) -> Result<DiscountEdit, ApiError> {
        let country = match self.country.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
            None => None,
            Some(c) => Some(country("country", c)?),
        };
        if let Some(at) = self.expires_at {
            if at <= now {
                return Err(ApiError::new(ErrorCode::ChoiceInvalid).with("setting", "expires_at"));
            }
        }
        Ok(DiscountEdit {
            code: normalise_code(&self.code)?,
            percentage: DISCOUNT_PERCENT.check(self.percentage)?,
            minimum_order: DISCOUNT_MINIMUM.check(self.minimum_order)?,
            country,
            expires_at: self.expires_at,
        })
    }
}
