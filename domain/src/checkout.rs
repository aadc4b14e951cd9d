//! Buying credits (SPEC §3, §4, §8, §9): a payment's statuses and how they may move, the price of
//! a bundle with VAT and a discount, the time bonus and the welcome discount, discount codes, and
//! the direct-debit form's rules. The server computes every amount with these; the browser never
//! sends a price.

use serde::{Deserialize, Serialize};

use crate::error::Field;
use crate::error::{ApiError, ErrorCode};
use crate::site::CreditPack;

/// The code under which the welcome discount is booked (once per member, like every code).
pub const WELCOME_CODE: &str = "WELCOME";
/// A direct-debit confirmation code: digits, how long it is valid, how many tries it allows.
pub const SMS_CODE_DIGITS: usize = 6;
pub const SMS_CODE_TTL_SECS: i64 = 15 * 60;
pub const SMS_CODE_ATTEMPTS: i64 = 5;
/// The longest discount code a member can type.
pub const DISCOUNT_CODE_MAX_CHARS: usize = 32;

/// Where a payment is. Statuses only move forward ([`PaymentStatus::may_become`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PaymentStatus {
    /// Created; the member has not finished the provider's checkout.
    Open,
    /// The provider is waiting for the bank (a transfer, a slow method).
    Pending,
    /// Paid: the credits are booked.
    Paid,
    Failed,
    Canceled,
    Expired,
    /// A paid direct debit that the bank took back.
    Reversed,
    /// Paid, then refunded in full (by staff, or in the provider's dashboard).
    Refunded,
    /// Paid, then taken back by the buyer's bank (a card or PayPal chargeback).
    ChargedBack,
}

impl PaymentStatus {
    pub const ALL: [PaymentStatus; 9] = [
        PaymentStatus::Open,
        PaymentStatus::Pending,
        PaymentStatus::Paid,
        PaymentStatus::Failed,
        PaymentStatus::Canceled,
        PaymentStatus::Expired,
        PaymentStatus::Reversed,
        PaymentStatus::Refunded,
        PaymentStatus::ChargedBack,
    ];

    pub fn code(self) -> &'static str {
        match self {
            PaymentStatus::Open => "open",
            PaymentStatus::Pending => "pending",
            PaymentStatus::Paid => "paid",
            PaymentStatus::Failed => "failed",
            PaymentStatus::Canceled => "canceled",
            PaymentStatus::Expired => "expired",
            PaymentStatus::Reversed => "reversed",
            PaymentStatus::Refunded => "refunded",
            PaymentStatus::ChargedBack => "charged_back",
        }
    }

    pub fn parse(code: &str) -> Option<PaymentStatus> {
        PaymentStatus::ALL.into_iter().find(|s| s.code() == code)
    }

    /// Still waiting for an outcome.
    pub fn is_open(self) -> bool {
        matches!(self, PaymentStatus::Open | PaymentStatus::Pending)
    }

    /// Did not bring money: failed, cancelled or expired.
    pub fn is_failure(self) -> bool {
        matches!(self, PaymentStatus::Failed | PaymentStatus::Canceled | PaymentStatus::Expired)
    }

    /// Money that came in and went back again: reversed, refunded in full or charged back.
    pub fn is_taken_back(self) -> bool {
        matches!(self, PaymentStatus::Reversed | PaymentStatus::Refunded | PaymentStatus::ChargedBack)
    }

    /// Whether a payment in this status may move to `next`. Open moves to an outcome; pending
    /// too; paid only to reversed, refunded or charged back; a refunded payment can still be
    /// charged back by the bank; failures, reversals and chargebacks never move.
    pub fn may_become(self, next: PaymentStatus) -> bool {
        use PaymentStatus::*;
        match self {
            Open => !matches!(next, Open) && !next.is_taken_back(),
            Pending => matches!(next, Paid | Failed | Canceled | Expired),
            Paid => next.is_taken_back(),
            Refunded => next == ChargedBack,
            Failed | Canceled | Expired | Reversed | ChargedBack => false,
        }
    }
}

/// VAT on digital services is charged at the buyer's country's rate (EU OSS; the UK, Norway,
/// Switzerland and the others likewise), in basis points (2100 = 21 %).
pub fn vat_rate_bp(country: &str) -> i64 {
    match country.to_ascii_uppercase().as_str() {
        "NL" | "BE" | "ES" => 2100,
        "DE" => 1900,
        "AT" | "FR" | "GB" => 2000,
        "IT" => 2200,
        "FI" => 2550,
        "IE" | "PL" => 2300,
        "DK" | "SE" | "NO" => 2500,
        "CH" => 810,
        "AU" => 1000,
        "NZ" => 1500,
        "CA" => 500,
        _ => 0,
    }
}

/// The VAT inside a price that includes it, rounded to the nearest minor unit.
pub fn vat_part(amount_minor: i64, rate_bp: i64) -> i64 {
    if rate_bp <= 0 || amount_minor <= 0 {
        return 0;
    }
    let divisor = 10_000 + rate_bp;
    (amount_minor * rate_bp + divisor / 2) / divisor
}

/// Where a discount comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiscountKind {
    /// A code the member typed.
    Code,
    /// The welcome discount of a new, non-paid member.
    Welcome,
    /// TIMEBONUS25, the first four hours after signup.
    TimeBonus,
}

/// A discount that applies to this member now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discount {
    /// Upper case; the once-per-member key.
    pub code: String,
    pub percent: i64,
    pub kind: DiscountKind,
    /// Orders below this list price (minor units) get no discount.
    pub minimum_order: i64,
}

/// A price after a percentage off, rounded to the nearest minor unit, never below one.
pub fn discounted(price_minor: i64, percent: i64) -> i64 {
    let percent = percent.clamp(0, 100);
    let off = (price_minor * percent + 50) / 100;
    (price_minor - off).max(1)
}

/// The countdown text: hours, minutes and seconds as two digits each (SPEC §3).
pub fn countdown(seconds: i64) -> String {
    let s = seconds.max(0);
    format!("{:02}:{:02}:{:02}", s / 3600, (s % 3600) / 60, s % 60)
}

/// One discount per order: the larger; on a tie the code the member typed.
pub fn better(typed: Option<Discount>, automatic: Option<Discount>) -> Option<Discount> {
    match (typed, automatic) {
        (Some(t), Some(a)) => Some(if a.percent > t.percent { a } else { t }),
        (t, a) => t.or(a),
    }
}

/// A typed discount code, trimmed and upper-cased; letters, digits, `-` and `_` only.
pub fn normalize_code(raw: &str) -> Result<String, ApiError> {
    let code = raw.trim().to_uppercase();
    let ok = !code.is_empty() && code.chars().count() <= DISCOUNT_CODE_MAX_CHARS && code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(code)
    } else {
        Err(ApiError::field(Field::DiscountCode, ErrorCode::DiscountNotFound))
    }
}

/// What a bundle costs this member: the list price, the discount, the amount to pay (VAT
/// included) and the VAT in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quote {
    pub pack_id: i64,
    pub credits: i64,
    pub list_price: i64,
    pub amount: i64,
    pub currency: String,
    pub vat_rate_bp: i64,
    pub vat: i64,
    /// The discount that was applied (none when the order is below its minimum).
    pub discount: Option<Discount>,
}

pub fn quote(pack: &CreditPack, discount: Option<&Discount>, country: &str) -> Quote {
    let applied = discount.filter(|d| pack.price_minor >= d.minimum_order && d.percent > 0).cloned();
    let amount = applied.as_ref().map(|d| discounted(pack.price_minor, d.percent)).unwrap_or(pack.price_minor);
    let vat_rate_bp = vat_rate_bp(country);
    Quote {
        pack_id: pack.id,
        credits: pack.credits,
        list_price: pack.price_minor,
        amount,
        currency: pack.currency.clone(),
        vat_rate_bp,
        vat: vat_part(amount, vat_rate_bp),
        discount: applied,
    }
}

/// One payment as its member sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct PaymentSummary {
    pub id: i64,
    pub pack_id: i64,
    pub credits: i64,
    pub list_price: i64,
    pub amount: i64,
    pub currency: String,
    #[cfg_attr(feature = "sqlx", sqlx(rename = "vat_rate"))]
    pub vat_rate_bp: i64,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "String"))]
    pub method: crate::payment::PaymentMethod,
    #[cfg_attr(feature = "sqlx", sqlx(try_from = "String"))]
    pub status: PaymentStatus,
    pub discount_code: Option<String>,
    pub discount_percent: i64,
    pub created_at: i64,
    pub paid_at: Option<i64>,
    /// Where to finish paying while it is open (the provider's page).
    pub checkout_url: Option<String>,
    /// Minor units refunded so far (a partial refund leaves the payment paid).
    #[serde(default)]
    pub refunded: i64,
}

/// VAT rate as people write it: 2100 → "21%", 810 → "8.1%" (with the locale's separator).
pub fn format_rate(rate_bp: i64, decimal_comma: bool) -> String {
    let whole = rate_bp / 100;
    let frac = rate_bp % 100;
    let text = if frac == 0 {
        whole.to_string()
    } else if frac % 10 == 0 {
        format!("{whole}.{}", frac / 10)
    } else {
        format!("{whole}.{frac:02}")
    };
    format!("{}%", if decimal_comma { text.replace('.', ",") } else { text })
}

/// The bundle's price with whichever of the discounts makes it cheapest (a typed code below its
/// minimum order leaves the time bonus or welcome discount in force); on a tie the first.
pub fn best_quote(pack: &CreditPack, discounts: &[Option<&Discount>], country: &str) -> Quote {
    let mut best = quote(pack, None, country);
    for d in discounts.iter().flatten() {
        let q = quote(pack, Some(d), country);
        if q.amount < best.amount {
            best = q;
        }
    }
    best
}

/// Countries whose bank accounts we collect from by direct debit.
pub const DIRECT_DEBIT_COUNTRIES: [&str; 4] = ["NL", "BE", "DE", "AT"];

/// Checks an IBAN (checksum and the country's format) and that we collect from its country;
/// returns it in the electronic format (no spaces, upper case).
pub fn validate_iban(raw: &str) -> Result<String, ApiError> {
    let invalid = || ApiError::field(Field::Iban, ErrorCode::IbanInvalid);
    let compact: String = raw.chars().filter(|c| !c.is_whitespace() && *c != '-' && *c != '.').collect::<String>().to_uppercase();
    if compact.len() > 34 {
        return Err(invalid());
    }
    let iban: iban::Iban = compact.parse().map_err(|_| invalid())?;
    use iban::IbanLike;
    if !DIRECT_DEBIT_COUNTRIES.contains(&iban.country_code()) {
        return Err(invalid());
    }
    Ok(iban.electronic_str().to_string())
}

/// An IBAN as people read it, the account number hidden but the last four: `NL91 •••• •••• 4300`.
pub fn mask_iban(electronic: &str) -> String {
    let chars: Vec<char> = electronic.chars().collect();
    if chars.len() < 8 {
        return "••••".to_string();
    }
    let head: String = chars[..4].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head} •••• •••• {tail}")
}

/// International dialling codes of the countries we collect from and sell in.
fn calling_code(country: &str) -> Option<&'static str> {
    Some(match country.to_ascii_uppercase().as_str() {
        "NL" => "31",
        "BE" => "32",
        "DE" => "49",
        "AT" => "43",
        "CH" => "41",
        "FR" => "33",
        "IT" => "39",
        "ES" => "34",
        "GB" => "44",
        "IE" => "353",
        "PL" => "48",
        "DK" => "45",
        "SE" => "46",
        "NO" => "47",
        "FI" => "358",
        _ => return None,
    })
}

/// A mobile number for the confirmation text, in international form (`+31612345678`). A
/// national number (`06 1234 5678`) is read for the member's country; dashes, spaces, dots and
/// brackets are dropped (SPEC §5).
pub fn normalize_phone(raw: &str, country: &str) -> Result<String, ApiError> {
    let invalid = || ApiError::field(Field::Phone, ErrorCode::PhoneInvalid);
    let cleaned: String = raw.chars().filter(|c| !c.is_whitespace() && !matches!(c, '-' | '.' | '(' | ')' | '/')).collect();
    let digits = if let Some(rest) = cleaned.strip_prefix('+') {
        rest.to_string()
    } else if let Some(rest) = cleaned.strip_prefix("00") {
        rest.to_string()
    } else if let Some(rest) = cleaned.strip_prefix('0') {
        format!("{}{}", calling_code(country).ok_or_else(invalid)?, rest)
    } else {
        return Err(invalid());
    };
    if !(9..=15).contains(&digits.len()) || !digits.chars().all(|c| c.is_ascii_digit()) || digits.starts_with('0') {
        return Err(invalid());
    }
    Ok(format!("+{digits}"))
}

/// The confirmation code as typed: six digits (spaces allowed between them).
pub fn validate_sms_code(raw: &str) -> Result<String, ApiError> {
    let code: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
    if code.len() == SMS_CODE_DIGITS && code.chars().all(|c| c.is_ascii_digit()) {
        Ok(code)
    } else {
        Err(ApiError::field(Field::Code, ErrorCode::SmsCodeInvalid))
    }
}

/// Whether another direct debit of `amount` fits the month's limit (minor units; 0 = none).
pub fn within_monthly_limit(already_this_month: i64, amount: i64, limit: i64) -> bool {
    limit <= 0 || already_this_month + amount <= limit
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pack(price: i64) -> CreditPack {
        CreditPack { id: 7, credits: 60, price_minor: price, currency: "EUR".into(), highlighted: false }
    }

    #[test]
    fn statuses_round_trip_and_move_forward_only() {
        for s in PaymentStatus::ALL {
            assert_eq!(PaymentStatus::parse(s.code()), Some(s));
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{}\"", s.code()));
            assert!(!s.may_become(s), "{s:?} to itself");
        }
        assert!(PaymentStatus::Open.may_become(PaymentStatus::Paid));
        assert!(PaymentStatus::Pending.may_become(PaymentStatus::Expired));
        assert!(!PaymentStatus::Pending.may_become(PaymentStatus::Open));
        assert!(!PaymentStatus::Paid.may_become(PaymentStatus::Failed));
        assert!(PaymentStatus::Paid.may_become(PaymentStatus::Reversed));
        assert!(!PaymentStatus::Failed.may_become(PaymentStatus::Paid));
        assert!(!PaymentStatus::Open.may_become(PaymentStatus::Reversed));
        assert!(PaymentStatus::Paid.may_become(PaymentStatus::Refunded) && PaymentStatus::Paid.may_become(PaymentStatus::ChargedBack));
        assert!(PaymentStatus::Refunded.may_become(PaymentStatus::ChargedBack) && !PaymentStatus::ChargedBack.may_become(PaymentStatus::Refunded));
        assert!(!PaymentStatus::Refunded.may_become(PaymentStatus::Paid) && !PaymentStatus::Pending.may_become(PaymentStatus::Refunded));
    }

    #[test]
    fn dutch_vat_and_a_discounted_bundle() {
        let q = quote(&pack(1995), Some(&Discount { code: "TIMEBONUS25".into(), percent: 25, kind: DiscountKind::TimeBonus, minimum_order: 0 }), "nl");
        assert_eq!(q.amount, 1496);
        assert_eq!(q.vat_rate_bp, 2100);
        assert_eq!(q.vat, 260); // 1496 * 21 / 121 = 259.6
        let no_discount = quote(&pack(1995), None, "DE");
        assert_eq!((no_discount.amount, no_discount.vat), (1995, 319));
        let below_minimum = quote(&pack(995), Some(&Discount { code: "BIG".into(), percent: 10, kind: DiscountKind::Code, minimum_order: 1000 }), "NL");
        assert_eq!((below_minimum.amount, below_minimum.discount), (995, None));
    }

    #[test]
    fn a_code_below_its_minimum_leaves_the_bonus_in_force() {
        let code = Discount { code: "VONK40".into(), percent: 40, kind: DiscountKind::Code, minimum_order: 1995 };
        let bonus = Discount { code: "TIMEBONUS25".into(), percent: 25, kind: DiscountKind::TimeBonus, minimum_order: 0 };
        let small = best_quote(&pack(995), &[Some(&code), Some(&bonus)], "NL");
        assert_eq!((small.amount, small.discount.map(|d| d.kind)), (746, Some(DiscountKind::TimeBonus)));
        let big = best_quote(&pack(1995), &[Some(&code), Some(&bonus)], "NL");
        assert_eq!((big.amount, big.discount.map(|d| d.kind)), (1197, Some(DiscountKind::Code)));
        assert_eq!(best_quote(&pack(995), &[None, None], "NL").amount, 995);
    }

    #[test]
    fn the_countdown_reads_hours_minutes_seconds() {
        assert_eq!(countdown(14_400), "04:00:00");
        assert_eq!(countdown(3_725), "01:02:05");
        assert_eq!(countdown(-3), "00:00:00");
    }

    #[test]
    fn the_larger_discount_wins() {
        let code = |p| Some(Discount { code: "X".into(), percent: p, kind: DiscountKind::Code, minimum_order: 0 });
        let bonus = Some(Discount { code: "TIMEBONUS25".into(), percent: 25, kind: DiscountKind::TimeBonus, minimum_order: 0 });
        assert_eq!(better(code(10), bonus.clone()).unwrap().kind, DiscountKind::TimeBonus);
        assert_eq!(better(code(25), bonus.clone()).unwrap().kind, DiscountKind::Code);
        assert_eq!(better(None, bonus).unwrap().percent, 25);
        assert_eq!(better(None, None), None);
    }

    #[test]
    fn codes_ibans_phones_and_sms_codes() {
        assert_eq!(normalize_code("  welkom-10 ").unwrap(), "WELKOM-10");
        assert_eq!(normalize_code("<script>").unwrap_err().code, ErrorCode::DiscountNotFound);
        assert_eq!(normalize_code("").unwrap_err().field, Some(Field::DiscountCode));
        assert_eq!(validate_iban("nl91 abna 0417 1643 00").unwrap(), "NL91ABNA0417164300");
        assert_eq!(validate_iban("DE89 3704 0044 0532 0130 00").unwrap(), "DE89370400440532013000");
        assert_eq!(validate_iban("NL91ABNA0417164301").unwrap_err().code, ErrorCode::IbanInvalid);
        // A valid IBAN of a country we do not collect from.
        assert_eq!(validate_iban("GB29 NWBK 6016 1331 9268 19").unwrap_err().field, Some(Field::Iban));
        assert_eq!(mask_iban("NL91ABNA0417164300"), "NL91 •••• •••• 4300");
        assert_eq!(
            (format_rate(2100, true), format_rate(810, true), format_rate(2550, false), format_rate(0, false)),
            ("21%".into(), "8,1%".into(), "25.5%".into(), "0%".into())
        );
        assert_eq!(normalize_phone("06-1234 5678", "NL").unwrap(), "+31612345678");
        assert_eq!(normalize_phone("+49 151 2345 6789", "NL").unwrap(), "+4915123456789");
        assert_eq!(normalize_phone("0031 6 12345678", "BE").unwrap(), "+31612345678");
        assert_eq!(normalize_phone("12345", "NL").unwrap_err().code, ErrorCode::PhoneInvalid);
        assert_eq!(normalize_phone("06abc", "NL").unwrap_err().field, Some(Field::Phone));
        assert_eq!(validate_sms_code(" 123 456 ").unwrap(), "123456");
        assert_eq!(validate_sms_code("12345").unwrap_err().code, ErrorCode::SmsCodeInvalid);
        assert!(within_monthly_limit(10_000, 4_995, 15_000));
        assert!(!within_monthly_limit(10_000, 5_001, 15_000));
        assert!(within_monthly_limit(1_000_000, 1, 0));
    }

    proptest! {
        #[test]
        fn a_discount_never_raises_the_price_and_vat_fits_inside(price in 1i64..10_000_000, percent in 0i64..=100, country in "(NL|DE|CH|FI|US|PL)") {
            let after = discounted(price, percent);
            prop_assert!(after >= 1 && after <= price);
            let q = quote(&pack(price), Some(&Discount { code: "P".into(), percent, kind: DiscountKind::Code, minimum_order: 0 }), &country);
            prop_assert!(q.vat >= 0 && q.vat < q.amount.max(1));
            // Net plus VAT gives the amount back, to the cent.
            let rate = q.vat_rate_bp;
            let net = q.amount - q.vat;
            prop_assert!((net * (10_000 + rate) / 10_000 - q.amount).abs() <= 1);
        }

        #[test]
        fn statuses_never_return_to_an_earlier_one(path in proptest::collection::vec(0usize..9, 0..12)) {
            // Apply any sequence of proposed moves; only allowed ones happen.
            let mut status = PaymentStatus::Open;
            let mut paid_count = 0;
            for i in path {
                let next = PaymentStatus::ALL[i];
                if status.may_become(next) {
                    status = next;
                    if next == PaymentStatus::Paid { paid_count += 1; }
                }
            }
            prop_assert!(paid_count <= 1);
            prop_assert!(!status.may_become(PaymentStatus::Open));
        }

        #[test]
        fn national_and_international_forms_agree(rest in "[1-9][0-9]{8}") {
            let national = normalize_phone(&format!("0{rest}"), "NL").unwrap();
            let international = normalize_phone(&format!("+31 {rest}"), "DE").unwrap();
            prop_assert_eq!(national, international);
        }
    }
}
