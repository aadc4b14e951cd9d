//! Web push (SPEC §4, §7, §9): the subscription a browser hands over, checked the same way in
//! the browser and on the server, and the push opt-in alert's states.

use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ErrorCode};

/// SPEC §7: the service worker's version, part of its address.
pub const SERVICE_WORKER_URL: &str = "/sw.js?v=2";
/// SPEC §7: what the service worker posts to open pages.
pub const NEW_PUSH_MESSAGE: &str = "NEW_PUSH_MESSAGE";
pub const NEW_PUSH_CLICK: &str = "NEW_PUSH_CLICK";
/// The alert's key among the dismissible alerts.
pub const ALERT: &str = "push";

/// What `PushSubscription.toJSON()` gives: the push service's address and the browser's keys
/// (base64url, as the browser writes them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subscription {
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
}

fn base64url_len(text: &str) -> Option<usize> {
    let text = text.trim_end_matches('=');
    if !text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
        return None;
    }
    // Four characters carry three bytes; a lone trailing character carries none.
    match text.len() % 4 {
        1 => None,
        r => Some(text.len() / 4 * 3 + r.saturating_sub(1)),
    }
}

impl Subscription {
    /// An http(s) address of at most 1,024 characters without credentials, a P-256 public key
    /// (65 bytes, uncompressed) and a 16-byte secret. Anything else is not from a browser.
    /// Which push services are accepted (browsers use https ones) is the server's list.
    pub fn validate(self) -> Result<Subscription, ApiError> {
        let endpoint = self.endpoint.trim().to_string();
        let after_scheme = endpoint.strip_prefix("https://").or_else(|| endpoint.strip_prefix("http://")).unwrap_or("");
        let authority = after_scheme.split(['/', '?', '#']).next().unwrap_or("");
        let ok = endpoint.len() <= 1024
            && !authority.is_empty()
            && !authority.contains('@')
            && endpoint.bytes().all(|b| b.is_ascii_graphic())
            && base64url_len(&self.p256dh) == Some(65)
            && self.p256dh.trim_end_matches('=').starts_with('B')
            && base64url_len(&self.auth) == Some(16);
        if ok {
            Ok(Subscription { endpoint, p256dh: self.p256dh.trim_end_matches('=').to_string(), auth: self.auth.trim_end_matches('=').to_string() })
        } else {
            Err(ApiError::new(ErrorCode::BadRequest))
        }
    }

    /// The push service's origin, lower case: `https://fcm.googleapis.com` (the endpoint has
    /// been validated).
    pub fn origin(&self) -> String {
        let (scheme, rest) = self.endpoint.split_once("://").unwrap_or(("", ""));
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        format!("{scheme}://{authority}").to_ascii_lowercase()
    }

    /// The push service's host, lower case, without a port.
    pub fn host(&self) -> String {
        let origin = self.origin();
        let authority = origin.split_once("://").map(|(_, a)| a).unwrap_or("");
        authority.rsplit_once(':').filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit())).map(|(h, _)| h).unwrap_or(authority).to_string()
    }

    /// Whether the endpoint belongs to one of `services`: origins such as
    /// `https://fcm.googleapis.com`, or `https://*.notify.windows.com` for any host below one.
    pub fn served_by(&self, services: &[String]) -> bool {
        let origin = self.origin();
        services.iter().map(|s| s.trim().trim_end_matches('/').to_ascii_lowercase()).any(|service| match service.split_once("://*.") {
            Some((scheme, suffix)) => {
                origin.strip_prefix(&format!("{scheme}://")).is_some_and(|host| host.ends_with(&format!(".{suffix}")) && !host.contains(':'))
            }
            None => service == origin,
        })
    }
}

/// SPEC §4 and §8: where push stands in this browser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushState {
    /// No service worker or Push API, or the site has no push key.
    Unsupported,
    /// Not asked yet (permission `default`).
    Unknown,
    Denied,
    Subscribed,
    /// Allowed, but this browser holds no subscription (any more).
    NotSubscribed,
}

impl PushState {
    /// From the browser's facts: whether the APIs exist, `Notification.permission`, and
    /// whether the service worker holds a subscription.
    pub fn from_browser(capable: bool, permission: &str, subscribed: bool) -> PushState {
        match (capable, permission, subscribed) {
            (false, _, _) => PushState::Unsupported,
            (true, "denied", _) => PushState::Denied,
            (true, "granted", true) => PushState::Subscribed,
            (true, "granted", false) => PushState::NotSubscribed,
            _ => PushState::Unknown,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            PushState::Unsupported => "unsupported",
            PushState::Unknown => "unknown",
            PushState::Denied => "denied",
            PushState::Subscribed => "subscribed",
            PushState::NotSubscribed => "not_subscribed",
        }
    }

    /// The opt-in alert asks while asking can still lead somewhere, and not after a dismissal.
    pub fn alert_shows(self, dismissed: bool) -> bool {
        !dismissed && matches!(self, PushState::Unknown | PushState::NotSubscribed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const P256DH: &str = "BLn9b-VR0ca83knDNZ32dCHGyjJp-1riX9ZTN40MqV8K_LpQmLqxC_DoHvqvFXO_nGdAB4W9dogZb_sM-uV4JbY";
    const AUTH: &str = "_ordMnz7uTCmrpBTeUV4Bw";

    fn sub(endpoint: &str, p256dh: &str, auth: &str) -> Subscription {
        Subscription { endpoint: endpoint.into(), p256dh: p256dh.into(), auth: auth.into() }
    }

    #[test]
    fn browsers_subscriptions_pass() {
        let s = sub("https://fcm.googleapis.com/fcm/send/abc:def", P256DH, "_ordMnz7uTCmrpBTeUV4Bw==").validate().unwrap();
        assert_eq!((s.auth.as_str(), s.host().as_str()), (AUTH, "fcm.googleapis.com"));
        assert_eq!(sub("https://Push.Example:8443/x", P256DH, AUTH).validate().unwrap().host(), "push.example");
    }

    #[test]
    fn only_listed_push_services_serve() {
        let services = vec!["https://fcm.googleapis.com".to_string(), "https://*.notify.windows.com/".to_string(), "http://127.0.0.1:4000".to_string()];
        let served = |e: &str| sub(e, P256DH, AUTH).validate().unwrap().served_by(&services);
        assert!(served("https://fcm.googleapis.com/fcm/send/x"));
        assert!(served("https://wns2-am3p.notify.windows.com/w/?token=x"));
        assert!(served("http://127.0.0.1:4000/push/1"));
        for other in [
            "http://fcm.googleapis.com/x",
            "https://fcm.googleapis.com.evil.example/x",
            "https://notify.windows.com/x",
            "https://evil.example/notify.windows.com",
            "https://a.notify.windows.com:8443/x",
            "http://127.0.0.1:4001/push/1",
            "http://127.0.0.1/push/1",
            "https://169.254.169.254/latest",
        ] {
            assert!(!served(other), "{other}");
        }
    }

    #[test]
    fn anything_else_is_refused() {
        for bad in [
            sub("ftp://fcm.googleapis.com/x", P256DH, AUTH),
            sub("https://user:pw@fcm.googleapis.com/x", P256DH, AUTH),
            sub("https:///x", P256DH, AUTH),
            sub("https://a.example/ x", P256DH, AUTH),
            sub(&format!("https://a.example/{}", "x".repeat(1024)), P256DH, AUTH),
            sub("https://a.example/x", &P256DH[1..], AUTH),
            sub("https://a.example/x", &format!("A{}", &P256DH[1..]), AUTH),
            sub("https://a.example/x", P256DH, "short"),
            sub("https://a.example/x", P256DH, "_ordMnz7uTCmrpBTeUV4B+"),
        ] {
            assert!(bad.clone().validate().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_alert_asks_only_where_it_can_help() {
        assert_eq!(PushState::from_browser(false, "granted", true), PushState::Unsupported);
        assert_eq!(PushState::from_browser(true, "denied", false), PushState::Denied);
        assert_eq!(PushState::from_browser(true, "default", false), PushState::Unknown);
        assert_eq!(PushState::from_browser(true, "granted", false), PushState::NotSubscribed);
        assert_eq!(PushState::from_browser(true, "granted", true), PushState::Subscribed);
        let shows: Vec<_> = [PushState::Unsupported, PushState::Unknown, PushState::Denied, PushState::Subscribed, PushState::NotSubscribed]
            .into_iter()
            .filter(|s| s.alert_shows(false))
            .collect();
        assert_eq!(shows, vec![PushState::Unknown, PushState::NotSubscribed]);
        assert!(!PushState::Unknown.alert_shows(true));
    }

    proptest! {
        #[test]
        fn whatever_passes_is_an_https_address_with_keys_of_the_right_size(endpoint in "\\PC{0,80}", p in "[A-Za-z0-9_=+/-]{80,90}", a in "[A-Za-z0-9_=+/-]{18,26}") {
            if let Ok(s) = sub(&endpoint, &p, &a).validate() {
                prop_assert!((s.endpoint.starts_with("https://") || s.endpoint.starts_with("http://")) && !s.host().is_empty());
                prop_assert!(s.served_by(&[s.origin()]));
                prop_assert_eq!(base64url_len(&s.p256dh), Some(65));
                prop_assert_eq!(base64url_len(&s.auth), Some(16));
            }
        }

        #[test]
        fn encoded_keys_of_the_right_size_pass(host in "[a-z]{1,20}\\.[a-z]{2,6}", path in "[a-zA-Z0-9/_-]{0,60}", key in proptest::collection::vec(any::<u8>(), 64), auth in proptest::collection::vec(any::<u8>(), 16)) {
            let mut point = vec![4u8];
            point.extend(key);
            let s = sub(&format!("https://{host}/{path}"), &b64(&point), &b64(&auth)).validate();
            prop_assert!(s.is_ok());
            prop_assert_eq!(s.unwrap().host(), host);
        }
    }

    /// base64url without padding, as browsers write subscription keys.
    fn b64(bytes: &[u8]) -> String {
        const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (*b as u32) << (16 - 8 * i));
            for i in 0..=chunk.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            }
        }
        out
    }
}
