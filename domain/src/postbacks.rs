//! Postbacks: telling a traffic network, server to server, that its click converted. Staff set a
//! URL per network and event with macros (`{click_id}`, `{payout}`…); Vonk fills them in and
//! calls it once per event (`server::postbacks`).

use serde::{Deserialize, Serialize};

use crate::ErrorCode;

/// What a postback tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumString, strum::EnumIter)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum PostbackEvent {
    /// The visitor signed up.
    Signup,
    /// The new member confirmed the address.
    Confirmed,
    /// The member's first paid payment.
    FirstPurchase,
    /// Every paid payment (the first one too).
    Purchase,
    /// A payment taken back: a chargeback or a whole refund.
    Reversal,
}

impl PostbackEvent {
    /// Every event, in the order a member's story goes.
    pub const ALL: [PostbackEvent; 5] =
        [PostbackEvent::Signup, PostbackEvent::Confirmed, PostbackEvent::FirstPurchase, PostbackEvent::Purchase, PostbackEvent::Reversal];

    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(text: &str) -> Option<PostbackEvent> {
        text.parse().ok()
    }
}

/// Where a call to a network stands (`postbacks.status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum CallStatus {
    Queued,
    Sent,
    Failed,
}

impl CallStatus {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// The macros a postback URL may hold.
pub const MACROS: [&str; 10] = ["click_id", "network", "ref", "sub1", "sub2", "sub3", "event", "payout", "currency", "transaction_id"];

/// Longest postback URL staff may set.
pub const URL_MAX_CHARS: usize = 1000;
/// Longest network name.
pub const NETWORK_MAX_CHARS: usize = 100;

/// A postback URL as staff typed it, checked: `http` or `https` with a host, no spaces or
/// control characters, at most [`URL_MAX_CHARS`].
pub fn check_url(url: &str) -> Result<String, ErrorCode> {
    let url = url.trim();
    let rest = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://")).ok_or(ErrorCode::BadRequest)?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let fine = !host.is_empty()
        && url.chars().count() <= URL_MAX_CHARS
        && !url.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | '\\' | '`'))
        && !host.contains('@');
    fine.then(|| url.to_string()).ok_or(ErrorCode::BadRequest)
}

/// A network's name as staff typed it: trimmed, 1 to [`NETWORK_MAX_CHARS`] characters, no
/// control characters.
pub fn check_network(network: &str) -> Result<String, ErrorCode> {
    let network = network.trim();
    let fine = !network.is_empty() && network.chars().count() <= NETWORK_MAX_CHARS && !network.chars().any(char::is_control);
    fine.then(|| network.to_string()).ok_or(ErrorCode::BadRequest)
}

/// Fills in a postback URL: each known `{macro}` becomes its value, percent-encoded (an absent
/// value becomes empty); anything else stays as written.
pub fn expand(template: &str, value: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if MACROS.contains(&&after[..close]) => {
                out.push_str(&crate::account::percent_encode(&value(&after[..close]).unwrap_or_default()));
                rest = &after[close + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A payout in minor units as networks read it: `19.95`.
pub fn payout(minor: i64) -> String {
    format!("{}.{:02}", minor / 100, (minor % 100).abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn all_holds_every_event() {
        use strum::IntoEnumIterator;
        assert_eq!(PostbackEvent::ALL.to_vec(), PostbackEvent::iter().collect::<Vec<_>>());
    }

    #[test]
    fn urls_are_http_with_a_host() {
        assert!(check_url(" https://track.example/pb?cid={click_id}&amount={payout} ").is_ok());
        for bad in
            ["ftp://x.example/", "https://", "javascript:alert(1)", "https://a b.example/", "https://x.example/\"><script>", "https://user@evil.example/"]
        {
            assert_eq!(check_url(bad), Err(ErrorCode::BadRequest), "{bad}");
        }
        assert!(check_network(" adnet ").is_ok_and(|n| n == "adnet"));
        assert!(check_network(" ").is_err());
    }

    #[test]
    fn macros_are_filled_and_encoded() {
        let values = |m: &str| match m {
            "click_id" => Some("abc 1&x=2".to_string()),
            "payout" => Some(payout(1995)),
            "event" => Some("purchase".into()),
            _ => None,
        };
        assert_eq!(
            expand("https://t.example/?c={click_id}&p={payout}&e={event}&s={sub1}&k={unknown}", values),
            "https://t.example/?c=abc%201%26x%3D2&p=19.95&e=purchase&s=&k={unknown}"
        );
        assert_eq!(expand("{{click_id}}", values), "{abc%201%26x%3D2}");
        assert_eq!(payout(500), "5.00");
    }

    proptest! {
        #[test]
        fn a_value_never_adds_a_parameter(value in "\\PC{0,40}") {
            let url = expand("https://t.example/?c={click_id}", |_| Some(value.clone()));
            prop_assert_eq!(url.matches('&').count(), 0);
            prop_assert_eq!(url.matches('=').count(), 1);
            prop_assert!(!url.contains(' '));
        }
    }
}
