//! Minimal cookie reading and writing (we set few cookies and want their flags explicit).

use http::HeaderMap;

/// The value of a cookie in the request, if present.
pub fn get(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim_matches('"').to_string())
}

/// A `Set-Cookie` value: Path=/, SameSite=Lax, HttpOnly, Max-Age in days, Secure when asked.
pub fn set(name: &str, value: &str, days: i64, secure: bool) -> String {
    set_for_secs(name, value, days * 86_400, secure)
}

/// [`set`] for a cookie that lives seconds or minutes.
pub fn set_for_secs(name: &str, value: &str, secs: i64, secure: bool) -> String {
    let mut cookie = format!("{name}={value}; Path=/; Max-Age={secs}; SameSite=Lax; HttpOnly");
    if secure {
        cookie.push_str("; Secure");
    }
    cookie
}

/// A `Set-Cookie` value that removes the cookie.
pub fn clear(name: &str, secure: bool) -> String {
    let mut cookie = format!("{name}=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly");
    if secure {
        cookie.push_str("; Secure");
    }
    cookie
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cookie_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(http::header::COOKIE, "a=1; i18n_redirected=de; b=2".parse().unwrap());
        assert_eq!(get(&headers, "i18n_redirected").as_deref(), Some("de"));
        assert_eq!(get(&headers, "c"), None);
    }

    #[test]
    fn cookie_flags() {
        let c = set("x", "1", 365, true);
        assert!(c.contains("Max-Age=31536000"));
        assert!(c.contains("SameSite=Lax") && c.contains("HttpOnly") && c.ends_with("Secure"));
    }
}
