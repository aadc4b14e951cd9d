//! The client's address behind load balancers (`VONK_TRUSTED_PROXIES`). Only when the peer is a
//! trusted proxy is `X-Forwarded-For` read, and then from the right: the right-most address that
//! is not itself a trusted proxy is the client (left-most entries are whatever the client sent).

use std::net::IpAddr;

/// An address range, `10.0.0.0/8` or `2001:db8::/32`; a bare address is a range of one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    prefix: u8,
}

impl Cidr {
    pub fn parse(text: &str) -> Option<Cidr> {
        let text = text.trim();
        let (addr, prefix) = match text.split_once('/') {
            Some((a, p)) => (a, Some(p.parse::<u8>().ok()?)),
            None => (text, None),
        };
        let net: IpAddr = addr.parse().ok()?;
        let max = if net.is_ipv4() { 32 } else { 128 };
        let prefix = prefix.unwrap_or(max);
        (prefix <= max).then_some(Cidr { net, prefix })
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.net, canonical(ip)) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => mask_v4(u32::from(net), self.prefix) == mask_v4(u32::from(ip), self.prefix),
            (IpAddr::V6(net), IpAddr::V6(ip)) => mask_v6(u128::from(net), self.prefix) == mask_v6(u128::from(ip), self.prefix),
            _ => false,
        }
    }
}

fn mask_v4(bits: u32, prefix: u8) -> u32 {
    if prefix == 0 {
        0
    } else {
        bits & (u32::MAX << (32 - u32::from(prefix)))
    }
}

fn mask_v6(bits: u128, prefix: u8) -> u128 {
    if prefix == 0 {
        0
    } else {
        bits & (u128::MAX << (128 - u32::from(prefix)))
    }
}

/// IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`) as the IPv4 address they are.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

/// A comma-separated list of ranges (`VONK_TRUSTED_PROXIES`); `None` when one is not a range.
pub fn parse_list(text: &str) -> Option<Vec<Cidr>> {
    text.split(',').map(str::trim).filter(|p| !p.is_empty()).map(Cidr::parse).collect()
}

/// Whether `peer` is one of the trusted proxies.
pub fn is_trusted(peer: IpAddr, trusted: &[Cidr]) -> bool {
    let peer = canonical(peer);
    trusted.iter().any(|c| c.contains(peer))
}

/// The client of a request that arrived from `peer` with these `X-Forwarded-For` values.
pub fn client(peer: IpAddr, forwarded_for: &[&str], trusted: &[Cidr]) -> IpAddr {
    let peer = canonical(peer);
    if !is_trusted(peer, trusted) {
        return peer;
    }
    let hops: Vec<IpAddr> = forwarded_for.iter().flat_map(|v| v.split(',')).filter_map(|h| h.trim().parse::<IpAddr>().ok()).map(canonical).collect();
    hops.iter().rev().find(|ip| !trusted.iter().any(|c| c.contains(**ip))).or(hops.first()).copied().unwrap_or(peer)
}

/// What a per-address limit counts: the address, or for IPv6 its /64 (one subscriber's network).
pub fn limit_key(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => IpAddr::V6(std::net::Ipv6Addr::from(mask_v6(u128::from(v6), 64))),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ranges() {
        let lan = Cidr::parse("10.0.0.0/8").unwrap();
        assert!(lan.contains(ip("10.1.2.3")) && !lan.contains(ip("11.0.0.1")));
        assert!(lan.contains(ip("::ffff:10.9.9.9")), "an IPv4-mapped address");
        assert!(Cidr::parse("2001:db8::/32").unwrap().contains(ip("2001:db8:1::5")));
        assert!(Cidr::parse("192.168.1.5").unwrap().contains(ip("192.168.1.5")));
        assert!(!Cidr::parse("192.168.1.5").unwrap().contains(ip("192.168.1.6")));
        assert_eq!(Cidr::parse("10.0.0.0/33"), None);
        assert_eq!(parse_list("10.0.0.0/8, ::1"), Some(vec![lan, Cidr::parse("::1").unwrap()]));
        assert_eq!(parse_list("10.0.0.0/8, nonsense"), None);
    }

    #[test]
    fn the_right_most_untrusted_hop_is_the_client() {
        let trusted = parse_list("10.0.0.0/8").unwrap();
        // A client that sends its own X-Forwarded-For cannot choose its address.
        assert_eq!(client(ip("10.0.0.2"), &["6.6.6.6, 1.2.3.4"], &trusted), ip("1.2.3.4"));
        assert_eq!(client(ip("10.0.0.2"), &["1.2.3.4, 10.0.0.7"], &trusted), ip("1.2.3.4"), "two proxies");
        assert_eq!(client(ip("10.0.0.2"), &["6.6.6.6", "1.2.3.4"], &trusted), ip("1.2.3.4"), "two headers");
        // From an untrusted peer the header is ignored.
        assert_eq!(client(ip("5.5.5.5"), &["1.2.3.4"], &trusted), ip("5.5.5.5"));
        // No usable header: the peer.
        assert_eq!(client(ip("10.0.0.2"), &["garbage"], &trusted), ip("10.0.0.2"));
        assert_eq!(client(ip("10.0.0.2"), &[], &[]), ip("10.0.0.2"));
    }

    #[test]
    fn ipv6_is_limited_per_64() {
        assert_eq!(limit_key(ip("2001:db8:1:2:aaaa::1")), limit_key(ip("2001:db8:1:2:bbbb::9")));
        assert_ne!(limit_key(ip("2001:db8:1:2::1")), limit_key(ip("2001:db8:1:3::1")));
        assert_eq!(limit_key(ip("1.2.3.4")), ip("1.2.3.4"));
    }
}
