//! Payment methods (SPEC §9), how they are grouped, and which ones a country is offered.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum PaymentMethod {
    DirectDebit,
    BankTransfer,
    CreditCard,
    Paypal,
    Ideal,
    Bancontact,
    ApplePay,
    Blik,
    Giropay,
    Sofort,
    Eps,
    Mastercard,
    Visa,
    Maestro,
    Twint,
    Swish,
    Vipps,
    Mobilepay,
    Satispay,
    Dankort,
    Nexi,
    CarteBancaire,
    Postepay,
    Paysafecard,
    Przelewy24,
}

/// How the payment-method blocks are grouped on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum PaymentGroup {
    /// Cards and card schemes.
    Card,
    /// Wallets and mobile payment apps.
    Wallet,
    /// Bank-based methods: online banking, transfer, direct debit.
    Bank,
    /// Prepaid vouchers.
    Voucher,
}

impl PaymentMethod {
    pub const ALL: [PaymentMethod; 25] = [
        PaymentMethod::DirectDebit,
        PaymentMethod::BankTransfer,
        PaymentMethod::CreditCard,
        PaymentMethod::Paypal,
        PaymentMethod::Ideal,
        PaymentMethod::Bancontact,
        PaymentMethod::ApplePay,
        PaymentMethod::Blik,
        PaymentMethod::Giropay,
        PaymentMethod::Sofort,
        PaymentMethod::Eps,
        PaymentMethod::Mastercard,
        PaymentMethod::Visa,
        PaymentMethod::Maestro,
        PaymentMethod::Twint,
        PaymentMethod::Swish,
        PaymentMethod::Vipps,
        PaymentMethod::Mobilepay,
        PaymentMethod::Satispay,
        PaymentMethod::Dankort,
        PaymentMethod::Nexi,
        PaymentMethod::CarteBancaire,
        PaymentMethod::Postepay,
        PaymentMethod::Paysafecard,
        PaymentMethod::Przelewy24,
    ];

    /// Stable code used in URLs (`/credits/{id}/{paymentmethod}`) and the database.
    pub fn code(self) -> &'static str {
        match self {
            PaymentMethod::DirectDebit => "direct_debit",
            PaymentMethod::BankTransfer => "bank_transfer",
            PaymentMethod::CreditCard => "credit_card",
            PaymentMethod::Paypal => "paypal",
            PaymentMethod::Ideal => "ideal",
            PaymentMethod::Bancontact => "bancontact",
            PaymentMethod::ApplePay => "apple_pay",
            PaymentMethod::Blik => "blik",
            PaymentMethod::Giropay => "giropay",
            PaymentMethod::Sofort => "sofort",
            PaymentMethod::Eps => "eps",
            PaymentMethod::Mastercard => "mastercard",
            PaymentMethod::Visa => "visa",
            PaymentMethod::Maestro => "maestro",
            PaymentMethod::Twint => "twint",
            PaymentMethod::Swish => "swish",
            PaymentMethod::Vipps => "vipps",
            PaymentMethod::Mobilepay => "mobilepay",
            PaymentMethod::Satispay => "satispay",
            PaymentMethod::Dankort => "dankort",
            PaymentMethod::Nexi => "nexi",
            PaymentMethod::CarteBancaire => "carte_bancaire",
            PaymentMethod::Postepay => "postepay",
            PaymentMethod::Paysafecard => "paysafecard",
            PaymentMethod::Przelewy24 => "przelewy24",
        }
    }

    pub fn parse(code: &str) -> Option<PaymentMethod> {
        PaymentMethod::ALL.into_iter().find(|m| m.code() == code)
    }

    pub fn group(self) -> PaymentGroup {
        use PaymentMethod::*;
        match self {
            CreditCard | Mastercard | Visa | Maestro | Dankort | CarteBancaire | Nexi | Postepay => PaymentGroup::Card,
            Paypal | ApplePay | Twint | Swish | Vipps | Mobilepay | Satispay | Blik => PaymentGroup::Wallet,
            DirectDebit | BankTransfer | Ideal | Bancontact | Giropay | Sofort | Eps | Przelewy24 => PaymentGroup::Bank,
            Paysafecard => PaymentGroup::Voucher,
        }
    }

    /// Generic methods have a translated name (locale key); brands are shown by their own name.
    pub fn label_key(self) -> Option<&'static str> {
        match self {
            PaymentMethod::DirectDebit => Some("payment.method.direct_debit"),
            PaymentMethod::BankTransfer => Some("payment.method.bank_transfer"),
            PaymentMethod::CreditCard => Some("payment.method.credit_card"),
            _ => None,
        }
    }

    /// Brand name, as the brand writes it.
    pub fn brand_name(self) -> &'static str {
        use PaymentMethod::*;
        match self {
            DirectDebit => "SEPA",
            BankTransfer => "SEPA",
            CreditCard => "Card",
            Paypal => "PayPal",
            Ideal => "iDEAL",
            Bancontact => "Bancontact",
            ApplePay => "Apple Pay",
            Blik => "BLIK",
            Giropay => "giropay",
            Sofort => "Sofort",
            Eps => "eps",
            Mastercard => "Mastercard",
            Visa => "Visa",
            Maestro => "Maestro",
            Twint => "TWINT",
            Swish => "Swish",
            Vipps => "Vipps",
            Mobilepay => "MobilePay",
            Satispay => "Satispay",
            Dankort => "Dankort",
            Nexi => "Nexi",
            CarteBancaire => "Carte Bancaire",
            Postepay => "Postepay",
            Paysafecard => "paysafecard",
            Przelewy24 => "Przelewy24",
        }
    }

    /// Countries where a local method is offered; `None` means offered everywhere.
    fn countries(self) -> Option<&'static [&'static str]> {
        use PaymentMethod::*;
        const SEPA: &[&str] = &["NL", "BE", "DE", "AT", "FR", "IT", "ES", "FI", "IE", "PL", "DK", "SE", "NO", "CH"];
        Some(match self {
            CreditCard | Mastercard | Visa | Paypal | ApplePay | Paysafecard => return None,
            Maestro => &["NL", "BE", "DE", "AT", "IT", "ES", "GB", "IE", "CH", "PL"],
            DirectDebit => &["NL", "BE", "DE", "AT"],
            BankTransfer => SEPA,
            Ideal => &["NL"],
            Bancontact => &["BE"],
            Blik | Przelewy24 => &["PL"],
            Giropay => &["DE"],
            Sofort => &["DE", "AT", "BE", "NL", "CH", "IT", "ES", "PL"],
            Eps => &["AT"],
            Twint => &["CH"],
            Swish => &["SE"],
            Vipps => &["NO"],
            Mobilepay => &["DK", "FI"],
            Dankort => &["DK"],
            Satispay | Nexi | Postepay => &["IT"],
            CarteBancaire => &["FR"],
        })
    }

    pub fn offered_in(self, country: &str) -> bool {
        match self.countries() {
            None => true,
            Some(list) => list.iter().any(|c| c.eq_ignore_ascii_case(country)),
        }
    }
}

/// The methods a visitor from `country` is offered, local ones first, then cards, wallets, vouchers.
pub fn methods_for_country(country: &str) -> Vec<PaymentMethod> {
    let mut list: Vec<PaymentMethod> = PaymentMethod::ALL.into_iter().filter(|m| m.offered_in(country)).collect();
    // Local methods (those with a country list) come before the ones offered everywhere.
    list.sort_by_key(|m| (m.countries().is_none(), group_rank(m.group())));
    list
}

fn group_rank(group: PaymentGroup) -> u8 {
    match group {
        PaymentGroup::Bank => 0,
        PaymentGroup::Card => 1,
        PaymentGroup::Wallet => 2,
        PaymentGroup::Voucher => 3,
    }
}

/// A payment as staff see it on `/staff/payments` (amounts in minor units, VAT included).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct StaffPayment {
    pub id: i64,
    #[cfg_attr(feature = "sqlx", sqlx(rename = "user_id"))]
    pub member_id: i64,
    #[cfg_attr(feature = "sqlx", sqlx(rename = "name"))]
    pub member_name: String,
    pub email: String,
    pub credits: i64,
    pub amount: i64,
    pub currency: String,
    #[cfg_attr(feature = "sqlx", sqlx(rename = "vat_rate"))]
    pub vat_rate_bp: i64,
    pub country: String,
    pub method: String,
    pub status: String,
    pub created_at: i64,
    pub paid_at: Option<i64>,
    /// Refunded so far, or on its way (minor units).
    pub refunded: i64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn codes_roundtrip_and_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for m in PaymentMethod::ALL {
            assert!(seen.insert(m.code()));
            assert_eq!(PaymentMethod::parse(m.code()), Some(m));
            // serde uses the same code
            assert_eq!(serde_json::to_string(&m).unwrap(), format!("\"{}\"", m.code()));
        }
        assert_eq!(seen.len(), 25);
    }

    #[test]
    fn dutch_visitors_get_ideal_first_and_no_foreign_methods() {
        let nl = methods_for_country("NL");
        assert_eq!(nl.first(), Some(&PaymentMethod::DirectDebit));
        assert!(nl.contains(&PaymentMethod::Ideal));
        assert!(!nl.contains(&PaymentMethod::Blik));
        assert!(!nl.contains(&PaymentMethod::Twint));
        assert!(nl.contains(&PaymentMethod::Visa));
    }

    #[test]
    fn polish_visitors_get_blik_and_p24() {
        let pl = methods_for_country("pl");
        assert!(pl.contains(&PaymentMethod::Blik));
        assert!(pl.contains(&PaymentMethod::Przelewy24));
        assert!(!pl.contains(&PaymentMethod::Ideal));
    }

    proptest! {
        #[test]
        fn every_country_gets_the_global_methods(country in "[A-Z]{2}") {
            let list = methods_for_country(&country);
            for m in [PaymentMethod::CreditCard, PaymentMethod::Visa, PaymentMethod::Mastercard, PaymentMethod::Paypal] {
                prop_assert!(list.contains(&m));
            }
            let unique: std::collections::HashSet<_> = list.iter().collect();
            prop_assert_eq!(unique.len(), list.len());
        }
    }
}
