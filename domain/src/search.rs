//! Member search (SPEC §3 Search state): filters as they travel in the URL, checked and clamped,
//! and the date-of-birth window an age range means.

use serde::{Deserialize, Serialize};

use crate::account::Ymd;
use crate::profile::Gender;

pub const MAX_AGE: u32 = 99;
pub const PAGE_SIZE: u32 = 24;
/// Deeper pages than this are not offered (nobody pages that far; it bounds the work).
pub const MAX_PAGE: u32 = 200;

/// The search form's fields a site can offer (`search_fields`, chosen by staff), in the form's
/// order: whom the member seeks, country, region and the age range.
pub const SEARCH_FIELDS: [&str; 4] = ["gender", "country", "region", "age"];

/// Search filters. Every field is optional in the URL; bad values fall back to "any".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchFilters {
    pub gender: Option<Gender>,
    pub country: Option<String>,
    pub region: Option<String>,
    pub min_age: u32,
    pub max_age: u32,
    /// 1-based.
    pub page: u32,
}

impl SearchFilters {
    /// Reads filters from query values, clamped to the site's minimum age and [`MAX_AGE`];
    /// a region only counts together with its country (checked by the caller against the
    /// region data), and a country only when the site serves it.
    pub fn from_query(get: impl Fn(&str) -> Option<String>, site_countries: &[String], site_min_age: u32) -> SearchFilters {
        let number = |key: &str| get(key).and_then(|v| v.trim().parse::<u32>().ok());
        let gender = get("gender").and_then(|g| Gender::parse(g.trim()));
        let country = get("country").map(|c| c.trim().to_ascii_uppercase()).filter(|c| site_countries.contains(c));
        let region = if country.is_some() {
            get("region").map(|r| r.trim().to_string()).filter(|r| !r.is_empty() && r.len() <= 16 && r.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        } else {
            None
        };
        let mut min_age = number("min_age").unwrap_or(site_min_age).clamp(site_min_age, MAX_AGE);
        let mut max_age = number("max_age").unwrap_or(MAX_AGE).clamp(site_min_age, MAX_AGE);
        if min_age > max_age {
            std::mem::swap(&mut min_age, &mut max_age);
        }
        let page = number("page").unwrap_or(1).clamp(1, MAX_PAGE);
        SearchFilters { gender, country, region, min_age, max_age, page }
    }

    /// The query string that reproduces these filters (page left out when 1).
    pub fn to_query(&self, page: u32) -> String {
        let mut parts = Vec::new();
        if let Some(g) = self.gender {
            parts.push(format!("gender={}", g.code()));
        }
        if let Some(c) = &self.country {
            parts.push(format!("country={c}"));
        }
        if let Some(r) = &self.region {
            parts.push(format!("region={r}"));
        }
        parts.push(format!("min_age={}", self.min_age));
        parts.push(format!("max_age={}", self.max_age));
        if page > 1 {
            parts.push(format!("page={page}"));
        }
        parts.join("&")
    }
}

/// The window of birth dates (ISO `YYYY-MM-DD`) for ages `min..=max` on `today`:
/// born after the first (exclusive) and on or before the second (inclusive). Comparing ISO
/// strings is exact here, 29 February included.
pub fn birth_date_window(today: Ymd, min_age: u32, max_age: u32) -> (String, String) {
    let shift = |years: u32| format!("{:04}-{:02}-{:02}", today.year - years as i32, today.month, today.day);
    (shift(max_age + 1), shift(min_age))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    fn filters(pairs: &[(&str, &str)]) -> SearchFilters {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        SearchFilters::from_query(|k| map.get(k).cloned(), &["NL".into(), "BE".into()], 18)
    }

    #[test]
    fn defaults_and_clamping() {
        let f = filters(&[]);
        assert_eq!((f.gender, f.country.as_deref(), f.min_age, f.max_age, f.page), (None, None, 18, 99, 1));
        let f = filters(&[("min_age", "60"), ("max_age", "30"), ("page", "0")]);
        assert_eq!((f.min_age, f.max_age, f.page), (30, 60, 1), "swapped, page at least 1");
        let f = filters(&[("min_age", "5"), ("max_age", "500"), ("page", "99999")]);
        assert_eq!((f.min_age, f.max_age, f.page), (18, 99, MAX_PAGE));
        let f = filters(&[("gender", "robot"), ("country", "de"), ("region", "DE-BY")]);
        assert_eq!((f.gender, f.country, f.region), (None, None, None), "unknown values mean any");
        let f = filters(&[("gender", "female"), ("country", "nl"), ("region", "NL-NH")]);
        assert_eq!((f.gender, f.country.as_deref(), f.region.as_deref()), (Some(Gender::Female), Some("NL"), Some("NL-NH")));
        assert_eq!(f.to_query(2), "gender=female&country=NL&region=NL-NH&min_age=18&max_age=99&page=2");
        let f = filters(&[("country", "NL"), ("region", "'; DROP")]);
        assert_eq!(f.region, None);
    }

    #[test]
    fn window_edges() {
        let today = Ymd { year: 2026, month: 11, day: 22 };
        assert_eq!(birth_date_window(today, 18, 30), ("1995-11-22".to_string(), "2008-11-22".to_string()));
    }

    proptest! {
        #[test]
        fn window_matches_age_on(by in 1920i32..2010, bm in 1u32..=12, bd in 1u32..=28, ty in 2020i32..2040, tm in 1u32..=12, td in 1u32..=31, min in 18u32..60, span in 0u32..40) {
            let dob = Ymd { year: by, month: bm, day: if bm == 2 && bd > 28 { 28 } else { bd } };
            let Some(today) = Ymd::parse(&format!("{ty:04}-{tm:02}-{td:02}")) else { return Ok(()) };
            let max = (min + span).min(MAX_AGE);
            let (after, until) = birth_date_window(today, min, max);
            let iso = dob.iso();
            let in_window = iso.as_str() > after.as_str() && iso.as_str() <= until.as_str();
            let age = dob.age_on(today);
            prop_assert_eq!(in_window, age >= min as i32 && age <= max as i32, "dob {} today {:?} {}..{}", iso, today, min, max);
        }

        #[test]
        fn any_query_gives_sane_filters(min in any::<Option<String>>(), max in any::<Option<String>>(), page in any::<Option<String>>()) {
            let map: HashMap<&str, Option<String>> = [("min_age", min), ("max_age", max), ("page", page)].into_iter().collect();
            let f = SearchFilters::from_query(|k| map.get(k).cloned().flatten(), &[], 18);
            prop_assert!(18 <= f.min_age && f.min_age <= f.max_age && f.max_age <= MAX_AGE);
            prop_assert!((1..=MAX_PAGE).contains(&f.page));
        }
    }
}

/// One search result (SPEC §3 Search state: results and similar results).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberCard {
    pub id: i64,
    pub name: String,
    pub age: i32,
    pub city: String,
    pub region: String,
    pub thumb: Option<String>,
    pub fictional: bool,
}

impl MemberCard {
    /// Where the member lives, as cards show it: the city, else the region.
    pub fn place(&self) -> String {
        if self.city.is_empty() {
            self.region.clone()
        } else {
            self.city.clone()
        }
    }
}

/// A page of results; `has_more` says whether a next page exists (no costly total count).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchResults {
    pub results: Vec<MemberCard>,
    pub has_more: bool,
    /// Profiles like the ones asked for, when the page came out short.
    pub similar: Vec<MemberCard>,
    /// For a member: which of the profiles shown (results and similar) they have liked.
    #[serde(default)]
    pub liked: Vec<i64>,
}

/// A member's profile as another member (or a visitor) sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileView {
    pub id: i64,
    pub name: String,
    pub age: i32,
    pub gender: String,
    pub sexuality: String,
    pub country: String,
    pub region: String,
    pub city: String,
    pub photo: Option<String>,
    pub fictional: bool,
    /// (field, code) of the choice fields the site shows.
    pub attributes: Vec<(String, String)>,
    /// (code, icon)
    pub interests: Vec<(String, String)>,
    pub about: Option<String>,
    pub blocked_by_me: bool,
    pub is_me: bool,
    /// The member passed an age check (`domain::age`): the profile shows a badge.
    #[serde(default)]
    pub age_verified: bool,
}

impl ProfileView {
    /// "City, Region", with a city that equals its region named once.
    pub fn place(&self) -> String {
        let mut parts: Vec<String> = [self.city.clone(), self.region.clone()].into_iter().filter(|s| !s.is_empty()).collect();
        parts.dedup();
        parts.join(", ")
    }
}
