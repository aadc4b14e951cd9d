//! Landing visits and the touches a signup is attributed to (the owner's figures): which pages
//! count as a landing, which requests are not a person's visit (bots, prefetches), how much of
//! the visitor's address is kept, the device class, and which touch a signup counts for.

use serde::{Deserialize, Serialize};
use std::net::IpAddr;

/// The kinds of page a visit counts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumString, strum::EnumIter)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum VisitPage {
    /// `/`.
    Home,
    /// `/landers/{design}` and `/landers/{design}/{slug}`.
    Lander,
    /// A profile's own landers: `/members/{id}/landing`, `…/landing2`, `…/landing3` (with a slug).
    ProfileLander,
    /// `/members/{id}`.
    Profile,
    /// `/members`.
    Members,
}

impl VisitPage {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Where a visit landed: the kind of page, the lander (design, or `landing2`…) and its slug.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Landing {
    pub page: VisitPage,
    pub lander: Option<String>,
    pub slug: Option<String>,
}

/// Longest lander or slug kept, in characters.
const PART_CHARS: usize = 60;

fn part(text: &str) -> Option<String> {
    let kept: String = text.chars().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_')).take(PART_CHARS).collect();
    (!kept.is_empty()).then_some(kept)
}

/// The landing a path is, if it is one (the query is not part of `path`).
pub fn landing(path: &str) -> Option<Landing> {
    let segments: Vec<&str> = path.trim_end_matches('/').split('/').skip(1).collect();
    let numeric = |s: &str| !s.is_empty() && s.len() <= 18 && s.bytes().all(|b| b.is_ascii_digit());
    let at = |page, lander: Option<&str>, slug: Option<&str>| Some(Landing { page, lander: lander.and_then(part), slug: slug.and_then(part) });
    match segments.as_slice() {
        [] | [""] => at(VisitPage::Home, None, None),
        ["landers", design] => at(VisitPage::Lander, Some(design), None),
        ["landers", design, slug] => at(VisitPage::Lander, Some(design), Some(slug)),
        ["members"] => at(VisitPage::Members, None, None),
        ["members", id] if numeric(id) => at(VisitPage::Profile, None, None),
        ["members", id, kind] if numeric(id) && matches!(*kind, "landing" | "landing2" | "landing3") => at(VisitPage::ProfileLander, Some(kind), None),
        ["members", id, kind, slug] if numeric(id) && matches!(*kind, "landing2" | "landing3") => at(VisitPage::ProfileLander, Some(kind), Some(slug)),
        _ => None,
    }
}

/// Words in a user agent that mark a crawler, a link previewer, a monitor or a script rather
/// than a person's browser (compared in lower case).
const BOT_MARKS: [&str; 24] = [
    "bot",
    "crawl",
    "spider",
    "slurp",
    "preview",
    "facebookexternalhit",
    "whatsapp",
    "telegram",
    "headlesschrome",
    "phantomjs",
    "lighthouse",
    "pagespeed",
    "pingdom",
    "uptime",
    "monitor",
    "curl/",
    "wget/",
    "python-requests",
    "python-urllib",
    "go-http-client",
    "okhttp",
    "java/",
    "libwww",
    "httpclient",
];

/// Whether a request with this user agent is not a person's visit: none at all, or one that
/// names a crawler, previewer, monitor or script ([`BOT_MARKS`]); or a browser's prefetch
/// (`Sec-Purpose`/`Purpose: prefetch`, which `prefetch` says).
pub fn not_a_visit(user_agent: Option<&str>, prefetch: bool) -> bool {
    if prefetch {
        return true;
    }
    let Some(agent) = user_agent.map(str::trim).filter(|a| !a.is_empty()) else { return true };
    let agent = agent.to_ascii_lowercase();
    BOT_MARKS.iter().any(|mark| agent.contains(mark))
}

/// A device class, from the user agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumString, strum::EnumIter)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Device {
    Mobile,
    Tablet,
    Desktop,
}

impl Device {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn of(user_agent: &str) -> Device {
        let agent = user_agent.to_ascii_lowercase();
        if agent.contains("ipad") || agent.contains("tablet") || (agent.contains("android") && !agent.contains("mobile")) {
            Device::Tablet
        } else if agent.contains("mobi") || agent.contains("iphone") || agent.contains("android") {
            Device::Mobile
        } else {
            Device::Desktop
        }
    }
}

/// The part of a visitor's address that is kept: the /24 network of an IPv4 address, the /48 of
/// an IPv6 one (never the whole address).
pub fn ip_prefix(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            format!("{a}.{b}.{c}.0/24")
        }
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => ip_prefix(IpAddr::V4(v4)),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}::/48", s[0], s[1], s[2])
            }
        },
    }
}

/// The landing URL's parameters that carry a network's click id, first found wins.
pub const CLICK_ID_KEYS: [&str; 4] = ["click_id", "clickid", "cid", "transaction_id"];

/// The click id in a query string's decoded pairs: at most 100 visible ASCII characters.
pub fn click_id<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Option<String> {
    let pairs: Vec<(&str, &str)> = pairs.into_iter().collect();
    CLICK_ID_KEYS.iter().find_map(|key| {
        pairs.iter().find(|(k, _)| k == key).and_then(|(_, v)| {
            let kept: String = v.chars().filter(|c| c.is_ascii_graphic()).take(100).collect();
            (!kept.is_empty()).then_some(kept)
        })
    })
}

/// Which touch a signup counts for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Attribution {
    FirstTouch,
    LastTouch,
}

/// The days a touch counts for a later signup, by default.
pub const ATTRIBUTION_DAYS: i64 = 30;

/// One landing with a source (a network or ref), as the signup's attribution sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Touch {
    pub at: i64,
    pub id: i64,
}

/// The touch a signup at `now` counts for: the first or the last of `touches` within `days`
/// before it; none when none is that recent.
pub fn attributed(touches: &[Touch], model: Attribution, days: i64, now: i64) -> Option<&Touch> {
    let recent = touches.iter().filter(|t| t.at <= now && now - t.at <= days * 86_400);
    match model {
        Attribution::FirstTouch => recent.min_by_key(|t| (t.at, t.id)),
        Attribution::LastTouch => recent.max_by_key(|t| (t.at, t.id)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn landings_are_the_pages_traffic_arrives_on() {
        assert_eq!(landing("/").map(|l| l.page), Some(VisitPage::Home));
        let lander = landing("/landers/swipe/zomer-2026").unwrap();
        assert_eq!((lander.page, lander.lander.as_deref(), lander.slug.as_deref()), (VisitPage::Lander, Some("swipe"), Some("zomer-2026")));
        assert_eq!(landing("/members").map(|l| l.page), Some(VisitPage::Members));
        assert_eq!(landing("/members/42").map(|l| l.page), Some(VisitPage::Profile));
        assert_eq!(landing("/members/42/landing2/abc").map(|l| (l.page, l.lander)), Some((VisitPage::ProfileLander, Some("landing2".into()))));
        for other in ["/credits", "/members/42/chat", "/members/abc", "/api/fn/login", "/landers", "/members/42/landing/x"] {
            assert_eq!(landing(other), None, "{other}");
        }
        let markup = landing("/landers/<script>x</script>").unwrap();
        assert_eq!((markup.lander.as_deref(), markup.slug.as_deref()), (Some("scriptx"), Some("script")), "only safe characters kept");
    }

    #[test]
    fn bots_scripts_and_prefetches_are_no_visits() {
        let chrome = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";
        assert!(!not_a_visit(Some(chrome), false));
        assert!(not_a_visit(Some(chrome), true), "a prefetch");
        assert!(not_a_visit(None, false) && not_a_visit(Some("  "), false));
        for bot in ["Googlebot/2.1 (+http://www.google.com/bot.html)", "curl/8.5.0", "Mozilla/5.0 (X11) HeadlessChrome/131.0", "WhatsApp/2.23"] {
            assert!(not_a_visit(Some(bot), false), "{bot}");
        }
        assert_eq!(Device::of(chrome), Device::Mobile);
        assert_eq!(Device::of("Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)"), Device::Tablet);
        assert_eq!(Device::of("Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/132.0"), Device::Desktop);
    }

    #[test]
    fn click_ids_come_from_the_usual_parameters() {
        assert_eq!(click_id([("sub1", "x"), ("clickid", "abc-123")]), Some("abc-123".into()));
        assert_eq!(click_id([("click_id", "a b<c>")]), Some("ab<c>".into()));
        assert_eq!(click_id([("cid", "")]), None);
    }

    proptest! {
        #[test]
        fn an_address_is_never_kept_whole(a in any::<u8>(), b in any::<u8>(), c in any::<u8>(), d in 1u8..=255, v6 in any::<[u16; 8]>()) {
            let v4 = ip_prefix(IpAddr::V4(std::net::Ipv4Addr::new(a, b, c, d)));
            prop_assert_eq!(v4, format!("{a}.{b}.{c}.0/24"));
            let addr = std::net::Ipv6Addr::from(v6);
            let kept = ip_prefix(IpAddr::V6(addr));
            match addr.to_ipv4_mapped() {
                None => prop_assert_eq!(kept, format!("{:x}:{:x}:{:x}::/48", v6[0], v6[1], v6[2])),
                Some(v4) => prop_assert_eq!(kept, ip_prefix(IpAddr::V4(v4))),
            }
        }

        #[test]
        fn the_attributed_touch_is_recent_and_first_or_last(ats in proptest::collection::vec(0i64..100 * 86_400, 0..8), now in 0i64..100 * 86_400, days in 1i64..60) {
            let touches: Vec<Touch> = ats.iter().enumerate().map(|(i, &at)| Touch { at, id: i as i64 }).collect();
            let recent: Vec<&Touch> = touches.iter().filter(|t| t.at <= now && now - t.at <= days * 86_400).collect();
            let first = attributed(&touches, Attribution::FirstTouch, days, now);
            let last = attributed(&touches, Attribution::LastTouch, days, now);
            prop_assert_eq!(first.is_some(), !recent.is_empty());
            if let (Some(f), Some(l)) = (first, last) {
                prop_assert!(f.at <= l.at);
                prop_assert!(recent.iter().all(|t| t.at >= f.at && t.at <= l.at));
            }
        }
    }
}
