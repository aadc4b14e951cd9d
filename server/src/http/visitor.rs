//! What a request tells about the visitor: which site, which language, entry warning accepted.

use std::sync::Arc;

use domain::constants::{ENTRY_WARNING_COOKIE, LANGUAGE_COOKIE};
use domain::Locale;
use http::{header, HeaderMap};

use crate::http::cookies;
use crate::sites::{Site, SiteCache};

pub fn host(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::HOST).and_then(|v| v.to_str().ok())
}

/// The site this request is for (unknown hosts: the default site).
pub fn site(sites: &SiteCache, headers: &HeaderMap) -> Option<Arc<Site>> {
    sites.for_host(host(headers))
}

/// The language of this render: cookie, else the site's domain language, else Accept-Language, else Dutch.
pub fn locale(headers: &HeaderMap, site: &Site) -> Locale {
    let cookie = cookies::get(headers, LANGUAGE_COOKIE);
    let accept = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
    domain::locale::negotiate(cookie.as_deref(), Some(&site.settings.domain_language), accept)
}

/// The country of this request: a member's profile country, else the site's rule (see
/// [`domain::site::SiteSettings::visitor_country`]) with what GeoIP found.
pub fn country(extensions: &http::Extensions, site: &Site) -> String {
    let member = extensions.get::<crate::http::CurrentMember>().and_then(|m| m.0.as_ref()).and_then(|m| m.country.as_deref());
    if let Some(c) = member {
        return c.to_string();
    }
    let detected = extensions.get::<crate::geoip::DetectedCountry>().and_then(|c| c.0.as_deref());
    site.settings.visitor_country(detected).to_string()
}

/// Whether the visitor has accepted the adult-content entry warning.
pub fn entry_accepted(headers: &HeaderMap) -> bool {
    cookies::get(headers, ENTRY_WARNING_COOKIE).as_deref() == Some("1")
}

/// A local path to return to after a form post; anything else becomes "/".
/// Blocks open redirects such as `//evil.example` or `https://evil.example`.
pub fn safe_return_path(candidate: Option<&str>) -> String {
    match candidate {
        Some(p) if p.starts_with('/') && !p.starts_with("//") && !p.starts_with("/\\") && !p.chars().any(char::is_control) => p.to_string(),
        _ => "/".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn return_paths_stay_local() {
        assert_eq!(safe_return_path(Some("/pricing?x=1")), "/pricing?x=1");
        assert_eq!(safe_return_path(Some("//evil.example")), "/");
        assert_eq!(safe_return_path(Some("/\\evil.example")), "/");
        assert_eq!(safe_return_path(Some("https://evil.example")), "/");
        assert_eq!(safe_return_path(Some("/a\r\nSet-Cookie: x")), "/");
        assert_eq!(safe_return_path(None), "/");
    }
}
