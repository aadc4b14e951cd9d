//! The company behind the site, and a new site.

use serde::{Deserialize, Serialize};

use super::*;
use crate::site::CompanyInfo;
use crate::{ApiError, ErrorCode};

/// The company behind the site as the legal pages, mails and invoices name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompanyDetails {
    pub name: String,
    pub address: String,
    pub postal_code: String,
    pub city: String,
    pub country: String,
    /// Chamber of commerce number.
    pub kvk: String,
    /// One per line (or comma-separated as typed).
    pub tradenames: Vec<String>,
    pub vat_numbers: Vec<String>,
    pub support_phone: String,
    pub delete_discount: i64,
}

pub const DELETE_DISCOUNT: Range = Range::new("delete_discount", 0, 90);
/// At most this many trade names or VAT numbers.
pub const LIST_MAX: usize = 10;

/// Splits a list typed one per line or comma-separated.
pub fn split_list(text: &str) -> Vec<String> {
    text.split(['\n', ',', ';']).map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}

impl CompanyDetails {
    pub fn validate(self) -> Result<CompanyDetails, ApiError> {
        let list = |setting: &'static str, items: &[String], code: bool| -> Result<Vec<String>, ApiError> {
            if items.len() > LIST_MAX {
                return Err(ApiError::new(ErrorCode::TextTooLong).with("setting", setting).with("max", LIST_MAX));
            }
            items
                .iter()
                .map(|i| {
                    let v = line(setting, i, true, LINE_MAX_CHARS)?;
                    if code {
                        let v: String = v.chars().filter(|c| !c.is_whitespace() && *c != '.').collect::<String>().to_ascii_uppercase();
                        if !(4..=20).contains(&v.len()) || !v.chars().all(|c| c.is_ascii_alphanumeric()) {
                            return Err(ApiError::new(ErrorCode::ChoiceInvalid).with("setting", setting));
                        }
                        return Ok(v);
                    }
                    Ok(v)
                })
                .collect()
        };
        Ok(CompanyDetails {
            name: line("company_name", &self.name, true, LINE_MAX_CHARS)?,
            address: line("address", &self.address, true, LINE_MAX_CHARS)?,
            postal_code: line("postal_code", &self.postal_code, true, 12)?,
            city: line("city", &self.city, true, LINE_MAX_CHARS)?,
            country: country("company_country", &self.country)?,
            kvk: line("kvk", &self.kvk, true, 20)?,
            tradenames: list("tradenames", &self.tradenames, false)?,
            vat_numbers: list("vat_numbers", &self.vat_numbers, true)?,
            support_phone: phone("company_phone", &self.support_phone)?,
            delete_discount: DELETE_DISCOUNT.check(self.delete_discount)?,
        })
    }
}

impl From<&CompanyInfo> for CompanyDetails {
    fn from(c: &CompanyInfo) -> CompanyDetails {
        CompanyDetails {
            name: c.name.clone(),
            address: c.address.clone(),
            postal_code: c.postal_code.clone(),
            city: c.city.clone(),
            country: c.country.clone(),
            kvk: c.kvk.clone(),
            tradenames: c.tradenames.clone(),
            vat_numbers: c.vat_numbers.clone(),
            support_phone: c.support_phone.clone(),
            delete_discount: c.delete_discount,
        }
    }
}

/// The largest logo file accepted, before decoding.
pub const LOGO_MAX_BYTES: usize = 2 * 1024 * 1024;

/// A new site as staff start it: its domain, name and first language; everything else is
/// copied from the site they start it from and can be changed there afterwards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewSite {
    pub domain: String,
    pub name: String,
    pub domain_language: String,
}

/// A host name as a site answers on it: lower case, no scheme, path, port or leading `www.`;
/// labels of letters, digits and inner hyphens; at least one dot.
pub fn normalise_domain(raw: &str) -> Result<String, ApiError> {
    let invalid = || ApiError::new(ErrorCode::DomainInvalid).with("setting", "domain");
    let mut d = raw.trim().to_ascii_lowercase();
    for scheme in ["https://", "http://"] {
        if let Some(rest) = d.strip_prefix(scheme) {
            d = rest.to_string();
        }
    }
    let d = d.split('/').next().unwrap_or_default().trim_end_matches('.');
    let d = d.strip_prefix("www.").unwrap_or(d).to_string();
    let labels: Vec<&str> = d.split('.').collect();
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    if d.len() > 253 || labels.len() < 2 || !labels.iter().all(label_ok) || labels.last().is_some_and(|tld| tld.chars().all(|c| c.is_ascii_digit())) {
        return Err(invalid());
    }
    Ok(d)
}

impl NewSite {
    pub fn validate(self) -> Result<NewSite, ApiError> {
        Ok(NewSite {
            domain: normalise_domain(&self.domain)?,
            name: line("name", &self.name, true, LINE_MAX_CHARS)?,
            domain_language: normalise_language_tag(&self.domain_language)?,
        })
    }
}
