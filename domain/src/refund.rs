//! Money back after a sale: the rules of a refund staff make, whole or in part, and what a
//! refund or a chargeback does to the bundle's credits. The server applies these under the
//! payment's row lock; the staff form checks the same before it is sent.

use crate::checkout::PaymentStatus;
use crate::error::{ApiError, ErrorCode, Field};

/// The longest reason staff can give for a refund.
pub const REFUND_REASON_MAX: usize = 500;
const DAY: i64 = 86_400;

/// A refund amount as staff type it: empty refunds all that is left (None); anything else is
/// read by [`crate::money::parse_amount`] (`12,50`, `12.50`, `€ 12,50`; never a guess), and
/// [`Refundable::check`] then holds it to what is left.
pub fn parse_amount(text: &str) -> Result<Option<i64>, ApiError> {
    match crate::money::parse_amount(text) {
        Ok(minor) => Ok(Some(minor)),
        Err(crate::money::AmountError::Empty) => Ok(None),
        Err(error) => Err(error.api_error()),
    }
}

/// Where a refund or a taking back came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefundKind {
    /// Staff refunded on `/staff/payments`.
    Refund,
    /// Someone refunded in the provider's own dashboard; we heard it from the provider.
    ProviderRefund,
    /// The buyer's bank took the money back.
    Chargeback,
}

impl RefundKind {
    pub const ALL: [RefundKind; 3] = [RefundKind::Refund, RefundKind::ProviderRefund, RefundKind::Chargeback];

    pub fn code(self) -> &'static str {
        match self {
            RefundKind::Refund => "refund",
            RefundKind::ProviderRefund => "provider_refund",
            RefundKind::Chargeback => "chargeback",
        }
    }

    pub fn parse(code: &str) -> Option<RefundKind> {
        RefundKind::ALL.into_iter().find(|k| k.code() == code)
    }
}

/// Where a refund we asked the provider for is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefundState {
    /// Written down, the provider asked (or about to be): the amount is reserved. Asked again
    /// with the same idempotency key until the provider answers.
    Requested,
    /// The provider took it: the credits are taken back and the credit note mailed.
    Done,
    /// The provider refused it: the amount is free again.
    Refused,
}

impl RefundState {
    pub const ALL: [RefundState; 3] = [RefundState::Requested, RefundState::Done, RefundState::Refused];

    pub fn code(self) -> &'static str {
        match self {
            RefundState::Requested => "requested",
            RefundState::Done => "done",
            RefundState::Refused => "refused",
        }
    }

    pub fn parse(code: &str) -> Option<RefundState> {
        RefundState::ALL.into_iter().find(|s| s.code() == code)
    }
}

/// The credits a refund of `refund` takes back from a bundle of `credits` bought for `amount`,
/// when `before` was refunded already: in proportion to the money, rounded down, counted on
/// the running total so that refunds in parts take exactly the whole bundle once the whole
/// amount is back.
pub fn credits_for(credits: i64, amount: i64, before: i64, refund: i64) -> i64 {
    if amount <= 0 || credits <= 0 || refund <= 0 {
        return 0;
    }
    let share = |money: i64| (i128::from(credits) * i128::from(money.clamp(0, amount)) / i128::from(amount)) as i64;
    share(before + refund) - share(before)
}

/// How the credits a refund would take split into what is still there and what the member
/// already spent (never below zero: the spent part is stated, not taken).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct CreditsBack {
    #[cfg_attr(feature = "sqlx", sqlx(rename = "credits_taken"))]
    pub taken: i64,
    #[cfg_attr(feature = "sqlx", sqlx(rename = "credits_spent"))]
    pub spent: i64,
}

pub fn credits_back(due: i64, balance: i64) -> CreditsBack {
    let taken = due.clamp(0, balance.max(0));
    CreditsBack { taken, spent: due.max(0) - taken }
}

/// What staff may refund of a payment now: its status, the amount left, and whether the site's
/// refund period still runs (after it a written reason is needed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refundable {
    pub status: PaymentStatus,
    pub amount: i64,
    pub refunded: i64,
    pub paid_at: i64,
}

impl Refundable {
    pub fn left(&self) -> i64 {
        (self.amount - self.refunded).max(0)
    }

    /// Whether `now` is within `refund_days` of the payment.
    pub fn in_period(&self, now: i64, refund_days: i64) -> bool {
        now - self.paid_at <= refund_days.max(0) * DAY
    }

    /// Checks a refund of `requested` minor units (None: all that is left) with `reason`;
    /// answers the amount and the trimmed reason.
    pub fn check(&self, requested: Option<i64>, reason: &str, now: i64, refund_days: i64) -> Result<(i64, String), ApiError> {
        if self.status != PaymentStatus::Paid || self.left() == 0 {
            return Err(ApiError::new(ErrorCode::NotRefundable));
        }
        let amount = requested.unwrap_or(self.left());
        if amount <= 0 || amount > self.left() {
            return Err(ApiError::field(Field::Form, ErrorCode::RefundAmountInvalid));
        }
        let reason = reason.trim();
        if reason.chars().count() > REFUND_REASON_MAX || (reason.is_empty() && !self.in_period(now, refund_days)) {
            return Err(ApiError::field(Field::Form, ErrorCode::ReasonRequired).with("max", REFUND_REASON_MAX));
        }
        Ok((amount, reason.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn paid(amount: i64, refunded: i64) -> Refundable {
        Refundable { status: PaymentStatus::Paid, amount, refunded, paid_at: 1_000_000 }
    }

    #[test]
    fn a_refund_is_checked() {
        let p = paid(1995, 0);
        assert_eq!(p.check(None, "", 1_000_000 + 13 * DAY, 14).unwrap(), (1995, String::new()));
        assert_eq!(p.check(Some(500), " te duur ", 1_000_000, 14).unwrap(), (500, "te duur".into()));
        assert_eq!(p.check(Some(0), "", 1_000_000, 14).unwrap_err().code, ErrorCode::RefundAmountInvalid);
        assert_eq!(p.check(Some(1996), "", 1_000_000, 14).unwrap_err().code, ErrorCode::RefundAmountInvalid);
        assert_eq!(paid(1995, 1500).check(Some(500), "", 1_000_000, 14).unwrap_err().code, ErrorCode::RefundAmountInvalid);
        // After the refund period only with a reason.
        assert_eq!(p.check(None, "  ", 1_000_000 + 15 * DAY, 14).unwrap_err().code, ErrorCode::ReasonRequired);
        assert!(p.check(None, "goodwill", 1_000_000 + 15 * DAY, 14).is_ok());
        assert_eq!(p.check(None, &"x".repeat(REFUND_REASON_MAX + 1), 1_000_000, 14).unwrap_err().code, ErrorCode::ReasonRequired);
        // Refunded in full, charged back, or never paid: nothing to refund.
        assert_eq!(paid(1995, 1995).check(None, "", 1_000_000, 14).unwrap_err().code, ErrorCode::NotRefundable);
        for status in [PaymentStatus::Open, PaymentStatus::Refunded, PaymentStatus::ChargedBack, PaymentStatus::Reversed, PaymentStatus::Failed] {
            let p = Refundable { status, ..paid(1995, 0) };
            assert_eq!(p.check(None, "x", 1_000_000, 14).unwrap_err().code, ErrorCode::NotRefundable);
        }
        assert_eq!(RefundKind::parse("provider_refund"), Some(RefundKind::ProviderRefund));
        assert_eq!(RefundState::parse("done"), Some(RefundState::Done));
    }

    #[test]
    fn amounts_are_read_strictly() {
        assert_eq!(parse_amount("12,50"), Ok(Some(1250)));
        assert_eq!(parse_amount("€ 12.5"), Ok(Some(1250)));
        assert_eq!(parse_amount(" 7 "), Ok(Some(700)));
        assert_eq!(parse_amount("  "), Ok(None), "empty: all that is left");
        // Zero reads, and the refund's own check refuses it.
        assert_eq!(parse_amount("0"), Ok(Some(0)));
        assert_eq!(paid(1995, 0).check(Some(0), "", 1_000_000, 14).unwrap_err().code, ErrorCode::RefundAmountInvalid);
        for bad in ["0,001", "1.000,5", "1.000", "-5", "<b>5</b>", "5 EUR", "1e3", "12,50,1x", "99999999999999999"] {
            assert_eq!(parse_amount(bad).unwrap_err().code, ErrorCode::AmountInvalid, "{bad}");
        }
    }

    #[test]
    fn credits_follow_the_money() {
        assert_eq!(credits_for(60, 1995, 0, 1995), 60);
        assert_eq!(credits_for(60, 2000, 0, 1000), 30);
        assert_eq!(credits_for(60, 2000, 1000, 1000), 30);
        assert_eq!(credits_for(60, 1995, 0, 1), 0);
        assert_eq!(credits_back(60, 25), CreditsBack { taken: 25, spent: 35 });
        assert_eq!(credits_back(60, -3), CreditsBack { taken: 0, spent: 60 });
        assert_eq!(credits_back(10, 100), CreditsBack { taken: 10, spent: 0 });
    }

    proptest! {
        #[test]
        fn refunds_in_parts_take_the_whole_bundle_exactly_once(credits in 1i64..100_000, amount in 1i64..10_000_000, cuts in proptest::collection::vec(1i64..10_000_000, 0..6)) {
            // Any split of the amount into refunds takes exactly the bundle's credits, never
            // more at any step, and each part at least 0.
            let mut points: Vec<i64> = cuts.into_iter().map(|c| c % amount).filter(|c| *c > 0).collect();
            points.sort();
            points.dedup();
            points.push(amount);
            let (mut before, mut taken) = (0, 0);
            for point in points {
                let part = credits_for(credits, amount, before, point - before);
                prop_assert!(part >= 0);
                taken += part;
                prop_assert!(taken <= credits);
                before = point;
            }
            prop_assert_eq!(taken, credits);
        }

        #[test]
        fn never_below_zero(due in 0i64..100_000, balance in -1000i64..100_000) {
            let back = credits_back(due, balance);
            prop_assert!(back.taken >= 0 && back.taken <= balance.max(0));
            prop_assert_eq!(back.taken + back.spent, due);
        }
    }
}
