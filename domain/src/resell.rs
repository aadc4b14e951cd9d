//! `member_resell` (a site setting, SPEC §3): a site whose members are offered the company's
//! other sites. A member joins one with a single tap on `/settings`; the other site gets an
//! account made from the member's own details, confirmed (the address was confirmed here),
//! counted in its figures as a signup from the network `resell` with this site as the ref.
//! Nothing is shared without that tap: the company's sites are each their own members' list.

use crate::account::Tracking;
use crate::site::{SignupPolicy, SiteSettings};

/// The network a joined member's signup counts under on the other site.
pub const NETWORK: &str = "resell";

/// What decides whether a member of one site is offered another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Joiner<'a> {
    /// The member's age today.
    pub age: i32,
    /// The member's country (profile), when known.
    pub country: Option<&'a str>,
    /// Confirmed address, and not staff: only members are offered.
    pub confirmed_member: bool,
}

/// What of a site's settings the offer reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteTerms<'a> {
    pub id: i64,
    pub company_id: i64,
    /// `member_resell`: this site offers its members the company's other sites.
    pub member_resell: bool,
    pub signups: SignupPolicy,
    pub min_age: u32,
    pub countries: &'a [String],
}

impl<'a> From<&'a SiteSettings> for SiteTerms<'a> {
    fn from(s: &'a SiteSettings) -> SiteTerms<'a> {
        SiteTerms { id: s.id, company_id: s.company_id, member_resell: s.member_resell, signups: s.signups, min_age: s.min_age, countries: &s.countries }
    }
}

/// Whether `to` is offered to a member of `from`: `from` offers its members the company's
/// other sites, `to` is one of them, takes signups without an invitation, and would take this
/// member (old enough, from a country it serves).
pub fn offered(from: &SiteTerms<'_>, to: &SiteTerms<'_>, joiner: Joiner<'_>) -> bool {
    from.member_resell
        && joiner.confirmed_member
        && to.id != from.id
        && to.company_id == from.company_id
        && to.signups != SignupPolicy::InviteOnly
        && joiner.age >= 0
        && joiner.age as u32 >= to.min_age
        && joiner.country.is_none_or(|c| to.countries.is_empty() || to.countries.iter().any(|served| served.eq_ignore_ascii_case(c)))
}

/// The tracking of the signup on the other site: network `resell`, the ref the domain of the
/// site the member came from.
pub fn tracking(from_domain: &str) -> Tracking {
    Tracking { network: Some(NETWORK.to_string()), r#ref: Some(from_domain.to_string()), ..Tracking::default() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SERVED: &[String] = &[];

    fn site(id: i64, company_id: i64, countries: &[String]) -> SiteTerms<'_> {
        SiteTerms { id, company_id, member_resell: true, signups: SignupPolicy::All, min_age: 18, countries }
    }

    const ANNA: Joiner<'static> = Joiner { age: 30, country: Some("NL"), confirmed_member: true };

    #[test]
    fn a_sister_site_is_offered_and_the_signup_says_where_from() {
        let countries = ["NL".to_string(), "BE".to_string()];
        let (from, to) = (site(1, 7, &countries), site(2, 7, &countries));
        assert!(offered(&from, &to, ANNA));
        assert!(offered(&from, &to, Joiner { country: Some("nl"), ..ANNA }));
        assert!(offered(&from, &to, Joiner { country: None, ..ANNA }));
        let t = tracking("site1.example");
        assert_eq!((t.network.as_deref(), t.r#ref.as_deref()), (Some("resell"), Some("site1.example")));
        assert!(t.has_source(), "a site that takes signups only with a source takes these");
    }

    #[test]
    fn refused_each_for_its_reason() {
        let countries = ["NL".to_string(), "BE".to_string()];
        let (from, to) = (site(1, 7, &countries), site(2, 7, &countries));
        let off = SiteTerms { member_resell: false, ..from.clone() };
        assert!(!offered(&off, &to, ANNA), "the site does not offer its members");
        assert!(!offered(&from, &from, ANNA), "not the site itself");
        assert!(!offered(&from, &site(3, 8, &countries), ANNA), "another company's site");
        assert!(!offered(&from, &SiteTerms { signups: SignupPolicy::InviteOnly, ..to.clone() }, ANNA), "invite-only");
        assert!(offered(&from, &SiteTerms { signups: SignupPolicy::TrafficSourceOnly, ..to.clone() }, ANNA));
        assert!(!offered(&from, &SiteTerms { min_age: 31, ..to.clone() }, ANNA), "too young there");
        assert!(!offered(&from, &to, Joiner { country: Some("DE"), ..ANNA }), "a country it does not serve");
        assert!(!offered(&from, &to, Joiner { confirmed_member: false, ..ANNA }), "unconfirmed, or staff");
    }

    proptest! {
        /// Never another company's site, never one that would refuse the member's age.
        #[test]
        fn never_outside_the_company_or_under_age(company in 1i64..4, age in 0i32..80, min_age in 18u32..30) {
            let from = site(1, 1, SERVED);
            let to = SiteTerms { min_age, ..site(2, company, SERVED) };
            let joiner = Joiner { age, ..ANNA };
            if offered(&from, &to, joiner) {
                prop_assert_eq!(to.company_id, from.company_id);
                prop_assert!(age as u32 >= min_age);
            }
        }
    }
}
