//! The offers a new member gets by themselves (SPEC §4): the time bonus, then the welcome
//! discount. [`offers`] says once what this member gets now, until when, and what follows; the
//! banner, the modal, `/credits` and the checkout's price all read it, so no text can promise
//! what the price does not do.
//!
//! Both offers count from signup. The time bonus (site setting: percentage, hours; 0 % is off)
//! goes first while it lasts; the welcome discount (percentage, hours) applies after it, for
//! what is left of its own hours. A setting where the time bonus would not be the better offer
//! is refused ([`check_rules`]): "only now" must stay true.

use serde::{Deserialize, Serialize};

use crate::checkout::{Discount, DiscountKind, WELCOME_CODE};
use crate::constants::TIME_BONUS_CODE;
use crate::error::{ApiError, ErrorCode};

/// The site's settings for both offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct OfferRules {
    /// The time bonus's percentage (0: no time bonus).
    pub time_bonus_percent: i64,
    pub time_bonus_hours: i64,
    /// The welcome discount's percentage (0: no welcome discount).
    pub welcome_percent: i64,
    pub welcome_hours: i64,
}

/// One offer and when it ends (unix seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Phase {
    pub kind: DiscountKind,
    pub percent: i64,
    /// How many hours after signup it lasts (the site's setting).
    pub hours: i64,
    pub ends_at: i64,
}

impl Phase {
    /// The code the offer is booked under (each redeemed once per member).
    pub fn code(&self) -> &'static str {
        match self.kind {
            DiscountKind::TimeBonus => TIME_BONUS_CODE,
            _ => WELCOME_CODE,
        }
    }

    /// The offer as a discount on an order.
    pub fn discount(&self) -> Discount {
        Discount { code: self.code().to_string(), percent: self.percent, kind: self.kind, minimum_order: 0 }
    }

    /// Seconds left at `now` (at least 1 while it runs).
    pub fn left(&self, now: i64) -> i64 {
        (self.ends_at - now).max(0)
    }
}

/// What a member gets now and what follows when that ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Offers {
    pub now: Option<Phase>,
    /// The offer that starts when `now` ends (never one as good as `now`).
    pub next: Option<Phase>,
}

impl Offers {
    /// Seconds left of the time bonus, when it is the offer now.
    pub fn time_bonus_left(&self, at: i64) -> Option<i64> {
        self.now.filter(|p| p.kind == DiscountKind::TimeBonus).map(|p| p.left(at)).filter(|l| *l > 0)
    }

    /// Whether "only now" is true of the offer now: nothing as good follows it.
    pub fn only_now(&self) -> bool {
        match (self.now, self.next) {
            (Some(now), Some(next)) => next.percent < now.percent,
            (Some(_), None) => true,
            (None, _) => false,
        }
    }
}

/// Refuses settings under which the time bonus would not be the better offer while both run
/// (its urgency would be untrue): with both on, the time bonus's percentage must be higher and
/// its hours fewer.
pub fn check_rules(rules: &OfferRules) -> Result<(), ApiError> {
    let bonus = rules.time_bonus_percent > 0 && rules.time_bonus_hours > 0;
    let welcome = rules.welcome_percent > 0 && rules.welcome_hours > 0;
    if bonus && welcome && (rules.time_bonus_percent <= rules.welcome_percent || rules.time_bonus_hours >= rules.welcome_hours) {
        return Err(ApiError::new(ErrorCode::TimeBonusNotBetter));
    }
    Ok(())
}

/// What a member who signed up at `signup_date` gets at `now`. `paid_user`: members who bought
/// before get neither offer; `used`: codes the member already redeemed (each offer once).
pub fn offers(rules: &OfferRules, signup_date: i64, now: i64, paid_user: bool, used: impl Fn(&str) -> bool) -> Offers {
    if paid_user {
        return Offers::default();
    }
    let at = |t: i64| -> Option<Phase> {
        let bonus_end = signup_date + rules.time_bonus_hours.max(0) * 3600;
        if rules.time_bonus_percent > 0 && t >= signup_date && t < bonus_end && !used(TIME_BONUS_CODE) {
            return Some(Phase { kind: DiscountKind::TimeBonus, percent: rules.time_bonus_percent.min(90), hours: rules.time_bonus_hours, ends_at: bonus_end });
        }
        let welcome_end = signup_date + rules.welcome_hours.max(0) * 3600;
        if rules.welcome_percent > 0 && t >= signup_date && t < welcome_end && !used(WELCOME_CODE) {
            return Some(Phase { kind: DiscountKind::Welcome, percent: rules.welcome_percent.min(90), hours: rules.welcome_hours, ends_at: welcome_end });
        }
        None
    };
    // A clock a little behind the signup's own (another node) counts from signup.
    let now_phase = at(now.max(signup_date));
    let next = now_phase.and_then(|p| at(p.ends_at)).filter(|n| Some(n.percent) < now_phase.map(|p| p.percent));
    Offers { now: now_phase, next }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SPEC: OfferRules = OfferRules { time_bonus_percent: 25, time_bonus_hours: 4, welcome_percent: 15, welcome_hours: 48 };
    const H: i64 = 3600;

    #[test]
    fn the_time_bonus_then_the_welcome_discount_then_nothing() {
        let s = 1_700_000_000;
        let first = offers(&SPEC, s, s + 60, false, |_| false);
        assert_eq!(first.now, Some(Phase { kind: DiscountKind::TimeBonus, percent: 25, hours: 4, ends_at: s + 4 * H }));
        assert_eq!(first.next, Some(Phase { kind: DiscountKind::Welcome, percent: 15, hours: 48, ends_at: s + 48 * H }));
        assert!(first.only_now());
        assert_eq!(first.time_bonus_left(s + 60), Some(4 * H - 60));
        let later = offers(&SPEC, s, s + 5 * H, false, |_| false);
        assert_eq!(later.now.map(|p| (p.kind, p.percent)), Some((DiscountKind::Welcome, 15)));
        assert_eq!(later.next, None);
        assert_eq!(later.time_bonus_left(s + 5 * H), None);
        assert_eq!(offers(&SPEC, s, s + 48 * H, false, |_| false), Offers::default());
        assert_eq!(offers(&SPEC, s, s + 60, true, |_| false), Offers::default());
    }

    #[test]
    fn an_offer_redeemed_is_gone_and_the_next_one_counts() {
        let s = 1_700_000_000;
        let after_bonus = offers(&SPEC, s, s + 60, false, |c| c == TIME_BONUS_CODE);
        assert_eq!(after_bonus.now.map(|p| p.kind), Some(DiscountKind::Welcome));
        assert_eq!(after_bonus.next, None);
        let both = offers(&SPEC, s, s + 60, false, |_| true);
        assert_eq!(both, Offers::default());
    }

    #[test]
    fn either_offer_alone() {
        let s = 1_700_000_000;
        let bonus_only = OfferRules { welcome_percent: 0, ..SPEC };
        let o = offers(&bonus_only, s, s, false, |_| false);
        assert_eq!((o.now.map(|p| p.percent), o.next), (Some(25), None));
        assert!(o.only_now());
        let welcome_only = OfferRules { time_bonus_percent: 0, ..SPEC };
        let o = offers(&welcome_only, s, s, false, |_| false);
        assert_eq!((o.now.map(|p| (p.kind, p.ends_at)), o.next), (Some((DiscountKind::Welcome, s + 48 * H)), None));
        assert_eq!(o.time_bonus_left(s), None);
    }

    #[test]
    fn settings_that_would_make_the_time_bonus_untrue_are_refused() {
        assert!(check_rules(&SPEC).is_ok());
        for bad in [
            OfferRules { welcome_percent: 25, ..SPEC },
            OfferRules { welcome_percent: 30, ..SPEC },
            OfferRules { welcome_hours: 4, ..SPEC },
            OfferRules { welcome_hours: 2, ..SPEC },
        ] {
            assert_eq!(check_rules(&bad).unwrap_err().code, ErrorCode::TimeBonusNotBetter, "{bad:?}");
        }
        assert!(check_rules(&OfferRules { welcome_percent: 0, ..SPEC }).is_ok());
        assert!(check_rules(&OfferRules { time_bonus_percent: 0, welcome_percent: 50, ..SPEC }).is_ok());
    }

    proptest! {
        /// Under any accepted settings, what follows is never as good as the offer now, and an
        /// offer never outlives its hours.
        #[test]
        fn what_follows_is_worse_and_nothing_outlives_its_hours(
            tb in 0i64..60, tbh in 0i64..72, w in 0i64..60, wh in 0i64..720, offset in -100_000i64..3_000_000, used_bonus in any::<bool>()
        ) {
            let rules = OfferRules { time_bonus_percent: tb, time_bonus_hours: tbh, welcome_percent: w, welcome_hours: wh };
            prop_assume!(check_rules(&rules).is_ok());
            let s = 1_700_000_000;
            let o = offers(&rules, s, s + offset, false, |c| used_bonus && c == TIME_BONUS_CODE);
            if let Some(now) = o.now {
                let hours = if now.kind == DiscountKind::TimeBonus { tbh } else { wh };
                prop_assert!(now.ends_at <= s + hours * H);
                prop_assert!(now.ends_at > s + offset);
                prop_assert!(o.only_now());
            }
            if let (Some(now), Some(next)) = (o.now, o.next) {
                prop_assert!(next.percent < now.percent && next.ends_at > now.ends_at);
            }
        }
    }
}
