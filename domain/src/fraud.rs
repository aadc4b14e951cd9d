//! Fraud signals on a member (the member file, `/staff/members`): what the site knows that makes
//! an account or its payments doubtful, each with a weight, and a score from 0 to 100 that staff
//! see beside the signals. The facts are gathered by the server (`server::fraud`); the rules are
//! here.

use serde::{Deserialize, Serialize};
use strum::{AsRefStr, EnumIter, IntoEnumIterator};

/// Other accounts of the site seen on one of the member's IP addresses (30 days) before it
/// counts: a household or an office has a few.
pub const SHARED_IP_ACCOUNTS: i64 = 3;
/// Checkouts a member started in one day before it counts.
pub const CHECKOUTS_PER_DAY: i64 = 5;
/// How far back IP addresses, checkouts' countries and chargebacks are looked at.
pub const LOOK_BACK_DAYS: i64 = 30;
/// The highest score.
pub const MAX_SCORE: u32 = 100;

/// One signal (labels `staff.fraud.signal.{code}` in `locales/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, AsRefStr, EnumIter)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Signal {
    /// The address is at a disposable-mail domain (`server/data/disposable-domains.txt`).
    DisposableAddress,
    /// Several other accounts of the site signed in from one of the member's IP addresses.
    SharedIp,
    /// The member's bank account (IBAN of a direct debit) is another account's too.
    SharedPaymentMethod,
    /// Many checkouts started in a day.
    PaymentVelocity,
    /// The countries do not agree: of the member's IP addresses, or of their checkouts, against
    /// the profile's.
    CountryMismatch,
    /// A direct debit from a bank account another account of the site had charged back or
    /// reversed.
    DebitAfterChargeback,
}

impl Signal {
    /// How much a signal adds to the score.
    pub const fn weight(self) -> u32 {
        match self {
            Signal::DisposableAddress => 25,
            Signal::SharedIp => 20,
            Signal::SharedPaymentMethod => 30,
            Signal::PaymentVelocity => 20,
            Signal::CountryMismatch => 15,
            Signal::DebitAfterChargeback => 40,
        }
    }
}

/// What the server found about a member.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    pub disposable_address: bool,
    /// Other accounts of the site seen on the member's IP addresses.
    pub accounts_on_same_ip: i64,
    /// Other accounts of the site with one of the member's IBANs.
    pub accounts_with_same_iban: i64,
    /// Checkouts the member started in the last day.
    pub checkouts_last_day: i64,
    /// The profile's country.
    pub profile_country: Option<String>,
    /// Countries of the member's sign-ins and checkouts (in the look-back window).
    pub seen_countries: Vec<String>,
    /// Whether one of the member's IBANs had a chargeback or reversal on another account.
    pub iban_charged_back_elsewhere: bool,
}

/// The signals the facts raise, in their fixed order.
pub fn signals(f: &Facts) -> Vec<Signal> {
    Signal::iter()
        .filter(|s| match s {
            Signal::DisposableAddress => f.disposable_address,
            Signal::SharedIp => f.accounts_on_same_ip >= SHARED_IP_ACCOUNTS,
            Signal::SharedPaymentMethod => f.accounts_with_same_iban > 0,
            Signal::PaymentVelocity => f.checkouts_last_day >= CHECKOUTS_PER_DAY,
            Signal::CountryMismatch => {
                f.profile_country.as_deref().is_some_and(|home| f.seen_countries.iter().any(|c| !c.is_empty() && !c.eq_ignore_ascii_case(home)))
            }
            Signal::DebitAfterChargeback => f.iban_charged_back_elsewhere,
        })
        .collect()
}

/// The score of a set of signals: their weights summed, at most [`MAX_SCORE`].
pub fn score(signals: &[Signal]) -> u32 {
    signals.iter().map(|s| s.weight()).sum::<u32>().min(MAX_SCORE)
}

/// The domain of an address and each domain it is under (`a.mail.example.com`,
/// `mail.example.com`, `example.com`), for the disposable-domain list.
pub fn address_domains(email: &str) -> Vec<String> {
    let email = email.trim().to_ascii_lowercase();
    let Some((_, host)) = email.rsplit_once('@') else { return Vec::new() };
    let labels: Vec<&str> = host.split('.').filter(|l| !l.is_empty()).collect();
    (0..labels.len().saturating_sub(1)).map(|i| labels[i..].join(".")).collect()
}

/// A member whose payments wait for staff's review (the list on `/staff/members`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct PaymentWaiting {
    pub id: i64,
    pub name: String,
    pub email: String,
    /// The fraud score when the member was held.
    pub score: i64,
    pub since: i64,
}

/// Whether a member with this score waits for staff's review before paying, where the site's
/// review score is `threshold` (0: never).
pub fn payment_waits(score: u32, threshold: i64) -> bool {
    threshold > 0 && i64::from(score) >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn payments_wait_from_the_review_score_and_never_at_zero() {
        assert!(!payment_waits(100, 0));
        assert!(!payment_waits(39, 40));
        assert!(payment_waits(40, 40) && payment_waits(100, 40));
    }

    #[test]
    fn each_fact_raises_its_signal_at_its_threshold() {
        assert!(signals(&Facts::default()).is_empty(), "nothing known, nothing raised");
        let f = Facts { accounts_on_same_ip: SHARED_IP_ACCOUNTS - 1, checkouts_last_day: CHECKOUTS_PER_DAY - 1, ..Default::default() };
        assert!(signals(&f).is_empty(), "a household, a few checkouts");
        let f = Facts {
            disposable_address: true,
            accounts_on_same_ip: SHARED_IP_ACCOUNTS,
            accounts_with_same_iban: 1,
            checkouts_last_day: CHECKOUTS_PER_DAY,
            profile_country: Some("NL".into()),
            seen_countries: vec!["nl".into(), "NG".into()],
            iban_charged_back_elsewhere: true,
        };
        assert_eq!(signals(&f), Signal::iter().collect::<Vec<_>>());
        assert_eq!(score(&signals(&f)), MAX_SCORE, "capped");
        let home = Facts { profile_country: Some("NL".into()), seen_countries: vec!["NL".into(), String::new()], ..Default::default() };
        assert!(signals(&home).is_empty(), "the same country, or none known");
        assert_eq!(score(&[Signal::DisposableAddress, Signal::CountryMismatch]), 40);
    }

    #[test]
    fn an_address_is_checked_with_every_domain_it_is_under() {
        assert_eq!(address_domains("Anna@Post.Voorbeeld.NL"), vec!["post.voorbeeld.nl", "voorbeeld.nl"]);
        assert_eq!(address_domains("x@mailinator.com"), vec!["mailinator.com"]);
        assert!(address_domains("no-at-sign").is_empty());
        assert!(address_domains("x@localhost").is_empty());
    }

    proptest! {
        #[test]
        fn the_score_is_the_capped_sum_and_grows_with_signals(mask in 0u8..64) {
            let all: Vec<Signal> = Signal::iter().collect();
            let some: Vec<Signal> = all.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, s)| *s).collect();
            let total: u32 = some.iter().map(|s| s.weight()).sum();
            prop_assert_eq!(score(&some), total.min(MAX_SCORE));
            prop_assert!(score(&some) <= score(&all));
        }
    }
}
