//! How staff find a member (`/staff/members`): one search field that takes a member's number
//! (`123`, `#123`), an address or part of one (`anna@example.nl`, `@example.nl`, `anna@`), a name
//! or part of one, an IP address or range (`203.0.113.7`, `203.0.113.0/24`, `2001:db8::/32`),
//! a payment's number (the receipt's order number, or the provider's `tr_…`) and a phone number
//! (`+31 6 1234 5678`, `06-12345678`). A query can mean several of these (a number is a member's
//! and an order's): each is looked for, and each member found says which one matched.

use ipnet::IpNet;
use serde::{Deserialize, Serialize};
use strum::{AsRefStr, EnumIter};

/// The shortest name or address part looked for (shorter ones would list half the site).
pub const PART_MIN_CHARS: usize = 3;
/// The longest query.
pub const QUERY_MAX_CHARS: usize = 254;
/// The most members a search lists.
pub const MAX_RESULTS: usize = 50;
/// The widest IP range looked for (a /8 of IPv4, a /32 of IPv6).
pub const IPV4_PREFIX_MIN: u8 = 8;
pub const IPV6_PREFIX_MIN: u8 = 32;

/// Why a member was found (labels `staff.members.match.{kind}` in `locales/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, AsRefStr, EnumIter)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum MatchKind {
    Id,
    Email,
    EmailPart,
    Name,
    Ip,
    Payment,
    Phone,
}

/// One way to read a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// A member's number.
    Id(i64),
    /// A whole address (lower-case).
    Email(String),
    /// Part of an address (lower-case).
    EmailPart(String),
    /// Part of a name (lower-case).
    Name(String),
    /// Addresses the member signed in or acted from.
    Ip(IpNet),
    /// A payment's number.
    Payment(i64),
    /// A payment's reference at the provider (`tr_…`, `tst_…`).
    ProviderPayment(String),
    /// A direct-debit phone number: the whole number with its country code (`+31612345678`), or
    /// the national digits after the trunk 0 (`612345678`), which any country's number ends in.
    Phone { full: Option<String>, national: String },
}

impl Lookup {
    pub fn kind(&self) -> MatchKind {
        match self {
            Lookup::Id(_) => MatchKind::Id,
            Lookup::Email(_) => MatchKind::Email,
            Lookup::EmailPart(_) => MatchKind::EmailPart,
            Lookup::Name(_) => MatchKind::Name,
            Lookup::Ip(_) => MatchKind::Ip,
            Lookup::Payment(_) | Lookup::ProviderPayment(_) => MatchKind::Payment,
            Lookup::Phone { .. } => MatchKind::Phone,
        }
    }
}

/// The ways `query` can be read, most specific first; none when it is too short or too wide to
/// look for (a part of fewer than [`PART_MIN_CHARS`] characters, a range wider than a /8).
pub fn lookups(query: &str) -> Vec<Lookup> {
    let q: String = query.trim().chars().take(QUERY_MAX_CHARS).collect();
    if q.is_empty() {
        return Vec::new();
    }
    let lower = q.to_lowercase();
    // A number: a member's, or an order's.
    let bare = q.strip_prefix('#').unwrap_or(&q);
    if !bare.is_empty() && bare.len() <= 18 && bare.bytes().all(|b| b.is_ascii_digit()) {
        let n: i64 = bare.parse().unwrap_or_default();
        let mut out = vec![Lookup::Id(n)];
        if !q.starts_with('#') {
            out.push(Lookup::Payment(n));
            out.extend(phone(&q));
        }
        return out;
    }
    if let Some(net) = ip_range(&q) {
        return net.into_iter().map(Lookup::Ip).collect();
    }
    if let Some(phone) = phone(&q) {
        return vec![phone];
    }
    if (lower.starts_with("tr_") || lower.starts_with("tst_")) && q.len() <= 64 && q.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return vec![Lookup::ProviderPayment(q.clone())];
    }
    if lower.contains('@') {
        let whole = lower.split_once('@').is_some_and(|(local, host)| !local.is_empty() && host.contains('.') && !host.ends_with('.'));
        let mut out = Vec::new();
        if whole {
            out.push(Lookup::Email(lower.clone()));
        }
        if lower.chars().count() >= PART_MIN_CHARS {
            out.push(Lookup::EmailPart(lower));
        }
        return out;
    }
    if lower.chars().count() < PART_MIN_CHARS {
        return Vec::new();
    }
    vec![Lookup::Name(lower.clone()), Lookup::EmailPart(lower)]
}

/// An address or a range no wider than the limits (`Some(None)`: a range, too wide).
fn ip_range(q: &str) -> Option<Option<IpNet>> {
    let net = match q.parse::<IpNet>() {
        Ok(net) => net,
        Err(_) => IpNet::from(q.parse::<std::net::IpAddr>().ok()?),
    };
    let wide_enough = match net {
        IpNet::V4(v4) => v4.prefix_len() >= IPV4_PREFIX_MIN,
        IpNet::V6(v6) => v6.prefix_len() >= IPV6_PREFIX_MIN,
    };
    Some(wide_enough.then(|| net.trunc()))
}

/// A phone number as typed with spaces, dashes, dots or brackets: `+` or `00` and a country
/// code, or a trunk `0`; 9 to 15 digits in all.
fn phone(q: &str) -> Option<Lookup> {
    let cleaned: String = q.chars().filter(|c| !c.is_whitespace() && !matches!(c, '-' | '.' | '(' | ')' | '/')).collect();
    let (full, digits) =
        if let Some(rest) = cleaned.strip_prefix('+').or_else(|| cleaned.strip_prefix("00")) { (true, rest) } else { (false, cleaned.strip_prefix('0')?) };
    if !digits.bytes().all(|b| b.is_ascii_digit()) || !(8..=15).contains(&digits.len()) || digits.starts_with('0') {
        return None;
    }
    if full {
        // The national digits: after the country code, which is 1 to 3 digits; the last nine
        // digits are what a national number keeps of it in every country the site serves.
        let national = digits[digits.len().saturating_sub(9)..].to_string();
        Some(Lookup::Phone { full: Some(format!("+{digits}")), national })
    } else {
        Some(Lookup::Phone { full: None, national: digits.to_string() })
    }
}

/// `text` for a `LIKE … ESCAPE '\'` pattern that finds it anywhere: `%`, `_` and `\` taken
/// literally.
pub fn like_anywhere(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

/// The text an IP range's addresses start with, for a first `LIKE` before the exact check:
/// the whole octets of an IPv4 range, at most three (`203.0.113.`), the first group of an IPv6
/// one.
pub fn ip_text_prefix(net: &IpNet) -> String {
    match net {
        IpNet::V4(v4) => {
            let whole = usize::from(v4.prefix_len() / 8).min(3);
            let octets = v4.network().octets();
            octets[..whole].iter().map(|o| format!("{o}.")).collect()
        }
        IpNet::V6(v6) => format!("{:x}:", v6.network().segments()[0]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn kinds(q: &str) -> Vec<MatchKind> {
        lookups(q).iter().map(Lookup::kind).collect()
    }

    #[test]
    fn a_query_is_read_every_way_it_can_mean() {
        assert_eq!(lookups("#42"), vec![Lookup::Id(42)]);
        assert_eq!(kinds("42"), vec![MatchKind::Id, MatchKind::Payment], "a member's number or an order's");
        assert_eq!(kinds("0612345678"), vec![MatchKind::Id, MatchKind::Payment, MatchKind::Phone]);
        assert_eq!(lookups("Anna@Example.nl"), vec![Lookup::Email("anna@example.nl".into()), Lookup::EmailPart("anna@example.nl".into())]);
        assert_eq!(lookups("@example.nl"), vec![Lookup::EmailPart("@example.nl".into())]);
        assert_eq!(lookups("anna@"), vec![Lookup::EmailPart("anna@".into())]);
        assert_eq!(lookups(" Sanne "), vec![Lookup::Name("sanne".into()), Lookup::EmailPart("sanne".into())]);
        assert_eq!(lookups("tr_WDqYK6vllg"), vec![Lookup::ProviderPayment("tr_WDqYK6vllg".into())]);
        assert!(lookups("an").is_empty(), "too short to look for");
        assert!(lookups("   ").is_empty());
    }

    #[test]
    fn ip_addresses_and_ranges() {
        assert_eq!(lookups("203.0.113.7"), vec![Lookup::Ip("203.0.113.7/32".parse().unwrap())]);
        assert_eq!(lookups("203.0.113.99/24"), vec![Lookup::Ip("203.0.113.0/24".parse().unwrap())]);
        assert_eq!(lookups("2001:db8::/32"), vec![Lookup::Ip("2001:db8::/32".parse().unwrap())]);
        assert!(lookups("10.0.0.0/7").is_empty(), "wider than a /8");
        assert!(lookups("2001::/16").is_empty());
        assert_eq!(ip_text_prefix(&"203.0.113.0/24".parse().unwrap()), "203.0.113.");
        assert_eq!(ip_text_prefix(&"203.0.113.7/32".parse().unwrap()), "203.0.113.", "not 203.0.113.7. (nor 203.0.113.70)");
        assert_eq!(ip_text_prefix(&"203.0.96.0/19".parse().unwrap()), "203.0.");
        assert_eq!(ip_text_prefix(&"2001:db8::/32".parse().unwrap()), "2001:");
    }

    #[test]
    fn phone_numbers_as_people_type_them() {
        let full = Lookup::Phone { full: Some("+31612345678".into()), national: "612345678".into() };
        assert_eq!(lookups("+31 6 1234 5678"), vec![full.clone()]);
        assert_eq!(lookups("0031-6-12345678"), vec![full]);
        assert_eq!(lookups("06-1234 5678"), vec![Lookup::Phone { full: None, national: "612345678".into() }]);
        assert_eq!(lookups("(06) 12.34.56.78"), vec![Lookup::Phone { full: None, national: "612345678".into() }]);
        assert_eq!(kinds("+31 6 12"), vec![MatchKind::Name, MatchKind::EmailPart], "too short for a phone");
    }

    #[test]
    fn like_patterns_take_text_literally() {
        assert_eq!(like_anywhere("50%_a\\b"), "%50\\%\\_a\\\\b%");
    }

    proptest! {
        #[test]
        fn any_query_reads_without_panicking(q in "\\PC{0,300}") {
            for lookup in lookups(&q) {
                if let Lookup::Name(part) | Lookup::EmailPart(part) = &lookup {
                    prop_assert!(part.chars().count() >= PART_MIN_CHARS);
                }
            }
        }
    }
}
