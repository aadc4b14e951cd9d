//! The visitor's country (SPEC §9: language visibility, payment country, the signup's regions).
//!
//! Two sources, both optional: a MaxMind-format database file (`VONK_GEOIP_DB`, GeoLite2-Country,
//! GeoIP2-Country or a free `*-country.mmdb`), looked up with the client's address; and a country
//! header set by a proxy in front (`VONK_GEOIP_HEADER`, e.g. `CF-IPCountry`), believed only from
//! a peer listed in `VONK_TRUSTED_PROXIES`. The header wins when both answer. Without either, a
//! site's `geoip_country` stands in (see [`domain::site::SiteSettings::visitor_country`]).

use std::net::IpAddr;
use std::path::Path;

use http::{HeaderMap, HeaderName};

use crate::error::AppError;

/// The country a request came from, as the session middleware worked it out (absent: unknown).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DetectedCountry(pub Option<String>);

#[derive(Default)]
pub struct GeoIp {
    db: Option<maxminddb::Reader<Vec<u8>>>,
    header: Option<HeaderName>,
}

impl std::fmt::Debug for GeoIp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GeoIp").field("db", &self.db.as_ref().map(|r| r.metadata.database_type.clone())).field("header", &self.header).finish()
    }
}

impl GeoIp {
    /// Reads the database file (into memory: a country database is a few MB) and names the header.
    pub fn open(path: Option<&Path>, header: Option<&str>) -> Result<GeoIp, AppError> {
        let bytes = match path {
            Some(p) => Some(std::fs::read(p).map_err(|e| AppError::Internal(format!("reading the GeoIP database {}: {e}", p.display())))?),
            None => None,
        };
        GeoIp::from_bytes(bytes, header)
    }

    pub fn from_bytes(bytes: Option<Vec<u8>>, header: Option<&str>) -> Result<GeoIp, AppError> {
        let db = bytes.map(|b| maxminddb::Reader::from_source(b).map_err(|e| AppError::Internal(format!("not a MaxMind database: {e}")))).transpose()?;
        let header = header
            .filter(|h| !h.trim().is_empty())
            .map(|h| HeaderName::from_bytes(h.trim().as_bytes()).map_err(|_| AppError::Internal(format!("not a header name: {h}"))))
            .transpose()?;
        Ok(GeoIp { db, header })
    }

    pub fn is_configured(&self) -> bool {
        self.db.is_some() || self.header.is_some()
    }

    /// The country of a request from `ip`; `headers` only when the peer is a trusted proxy.
    pub fn country(&self, headers: Option<&HeaderMap>, ip: IpAddr) -> Option<String> {
        let from_header = self.header.as_ref().zip(headers).and_then(|(name, h)| h.get(name)).and_then(|v| v.to_str().ok()).and_then(country_code);
        from_header.or_else(|| self.lookup(ip))
    }

    /// The database's answer for one address.
    pub fn lookup(&self, ip: IpAddr) -> Option<String> {
        let db = self.db.as_ref()?;
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
            v4 => v4,
        };
        let found = db.lookup(ip).ok()?;
        let code: Option<String> = found.decode_path(&[maxminddb::PathElement::Key("country"), maxminddb::PathElement::Key("iso_code")]).ok().flatten();
        // Anonymous proxies and satellite providers carry only a registered country.
        let code =
            code.or_else(|| found.decode_path(&[maxminddb::PathElement::Key("registered_country"), maxminddb::PathElement::Key("iso_code")]).ok().flatten());
        code.as_deref().and_then(country_code)
    }
}

/// A two-letter country code, upper case; proxies' placeholders for "unknown" (`XX`) and Tor
/// (`T1`) and anything else are not countries.
pub fn country_code(text: &str) -> Option<String> {
    let t = text.trim();
    (t.len() == 2 && t.bytes().all(|b| b.is_ascii_alphabetic()) && !t.eq_ignore_ascii_case("XX")).then(|| t.to_ascii_uppercase())
}

/// Writes a MaxMind-format country database (IPv6 tree, IPv4 under `::/96`, 24-bit records)
/// with `country.iso_code` for each network: for tests and for trying the site with a few
/// addresses of one's own.
pub fn country_database(networks: &[(IpAddr, u8, &str)]) -> Vec<u8> {
    #[derive(Clone, Copy)]
    enum Rec {
        Empty,
        Node(usize),
        Data(usize),
    }
    let mut data = Vec::new();
    let mut offsets: Vec<(String, usize)> = Vec::new();
    let mut nodes: Vec<[Rec; 2]> = vec![[Rec::Empty, Rec::Empty]];
    for &(ip, prefix, country) in networks {
        let offset = match offsets.iter().find(|(c, _)| c == country) {
            Some((_, o)) => *o,
            None => {
                let o = data.len();
                mmdb::map(&mut data, 1);
                mmdb::string(&mut data, "country");
                mmdb::map(&mut data, 1);
                mmdb::string(&mut data, "iso_code");
                mmdb::string(&mut data, country);
                offsets.push((country.to_string(), o));
                o
            }
        };
        let (bits, depth) = match ip {
            IpAddr::V4(v4) => (u128::from(u32::from(v4)), 96 + u32::from(prefix.min(32))),
            IpAddr::V6(v6) => (u128::from(v6), u32::from(prefix.min(128))),
        };
        let mut node = 0;
        for d in 0..depth {
            let bit = ((bits >> (127 - d)) & 1) as usize;
            if d + 1 == depth {
                nodes[node][bit] = Rec::Data(offset);
                break;
            }
            node = match nodes[node][bit] {
                Rec::Node(next) => next,
                other => {
                    // A wider network already answered here: the narrower one splits it.
                    let inherited = if let Rec::Data(_) = other { other } else { Rec::Empty };
                    nodes.push([inherited, inherited]);
                    let next = nodes.len() - 1;
                    nodes[node][bit] = Rec::Node(next);
                    next
                }
            };
        }
    }
    let count = nodes.len();
    let mut out = Vec::with_capacity(count * 6 + 16 + data.len() + 300);
    for n in &nodes {
        for rec in n {
            let value = match *rec {
                Rec::Empty => count,
                Rec::Node(i) => i,
                Rec::Data(o) => count + 16 + o,
            } as u32;
            out.extend_from_slice(&value.to_be_bytes()[1..]);
        }
    }
    out.extend_from_slice(&[0; 16]);
    out.extend_from_slice(&data);
    out.extend_from_slice(b"\xAB\xCD\xEFMaxMind.com");
    mmdb::map(&mut out, 9);
    mmdb::string(&mut out, "binary_format_major_version");
    mmdb::uint(&mut out, 5, 2);
    mmdb::string(&mut out, "binary_format_minor_version");
    mmdb::uint(&mut out, 5, 0);
    mmdb::string(&mut out, "build_epoch");
    mmdb::uint(&mut out, 9, 0);
    mmdb::string(&mut out, "database_type");
    mmdb::string(&mut out, "Vonk-Country");
    mmdb::string(&mut out, "description");
    mmdb::map(&mut out, 0);
    mmdb::string(&mut out, "ip_version");
    mmdb::uint(&mut out, 5, 6);
    mmdb::string(&mut out, "languages");
    out.extend_from_slice(&[0, 11 - 7]);
    mmdb::string(&mut out, "node_count");
    mmdb::uint(&mut out, 6, count as u64);
    mmdb::string(&mut out, "record_size");
    mmdb::uint(&mut out, 5, 24);
    out
}

/// The few MaxMind DB data types the writer needs (short forms only: sizes below 29).
mod mmdb {
    pub fn string(out: &mut Vec<u8>, s: &str) {
        debug_assert!(s.len() < 29);
        out.push((2 << 5) | s.len() as u8);
        out.extend_from_slice(s.as_bytes());
    }

    pub fn map(out: &mut Vec<u8>, pairs: u8) {
        out.push((7 << 5) | pairs);
    }

    /// Types 5 (uint16), 6 (uint32) and 9 (uint64, extended) in as few bytes as the value needs.
    pub fn uint(out: &mut Vec<u8>, kind: u8, value: u64) {
        let bytes = value.to_be_bytes();
        let skip = bytes.iter().take_while(|b| **b == 0).count();
        let len = (8 - skip) as u8;
        if kind < 8 {
            out.push((kind << 5) | len);
        } else {
            out.push(len);
            out.push(kind - 7);
        }
        out.extend_from_slice(&bytes[skip..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn geo() -> GeoIp {
        let db = country_database(&[(ip("81.0.0.0"), 8, "NL"), (ip("81.82.0.0"), 16, "BE"), (ip("2a02:a400::"), 24, "NL"), (ip("93.0.0.0"), 8, "FR")]);
        GeoIp::from_bytes(Some(db), Some("cf-ipcountry")).unwrap()
    }

    #[test]
    fn the_written_database_answers() {
        let g = geo();
        assert_eq!(g.lookup(ip("81.1.2.3")).as_deref(), Some("NL"));
        assert_eq!(g.lookup(ip("81.82.200.1")).as_deref(), Some("BE"), "the narrower network wins");
        assert_eq!(g.lookup(ip("81.83.0.1")).as_deref(), Some("NL"), "the wider network around it stays");
        assert_eq!(g.lookup(ip("93.9.9.9")).as_deref(), Some("FR"));
        assert_eq!(g.lookup(ip("::ffff:93.9.9.9")).as_deref(), Some("FR"), "an IPv4-mapped address");
        assert_eq!(g.lookup(ip("2a02:a4ff::1")).as_deref(), Some("NL"));
        assert_eq!(g.lookup(ip("127.0.0.1")), None);
        assert_eq!(g.lookup(ip("2001:db8::1")), None);
    }

    #[test]
    fn a_trusted_header_comes_first() {
        let g = geo();
        let mut h = HeaderMap::new();
        h.insert("cf-ipcountry", "de".parse().unwrap());
        assert_eq!(g.country(Some(&h), ip("81.1.2.3")).as_deref(), Some("DE"));
        assert_eq!(g.country(None, ip("81.1.2.3")).as_deref(), Some("NL"), "an untrusted peer's header is not read");
        h.insert("cf-ipcountry", "XX".parse().unwrap());
        assert_eq!(g.country(Some(&h), ip("81.1.2.3")).as_deref(), Some("NL"), "unknown falls back to the database");
        h.insert("cf-ipcountry", "<script>".parse().unwrap());
        assert_eq!(g.country(Some(&h), ip("10.0.0.1")), None);
    }

    #[test]
    fn nothing_configured_knows_nothing() {
        let g = GeoIp::default();
        assert!(!g.is_configured());
        assert_eq!(g.country(Some(&HeaderMap::new()), ip("81.1.2.3")), None);
        assert!(GeoIp::from_bytes(Some(b"not a database".to_vec()), None).is_err());
        assert!(GeoIp::from_bytes(None, Some("bad header\n")).is_err());
    }

    #[test]
    fn codes() {
        assert_eq!(country_code(" nl ").as_deref(), Some("NL"));
        assert_eq!(country_code("T1").as_deref(), None, "Tor is not a country");
        assert_eq!(country_code("NLD"), None);
    }
}
