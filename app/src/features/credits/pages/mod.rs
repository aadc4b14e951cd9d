//! Buying credits: `/credits` (bundles, prices with VAT and the discount in force, a code
//! field), `/credits/{id}/{method?}` (the bundle and the payment-method blocks; a chosen method
//! goes straight to the provider), `/credits/repeat-order`, `/premium`, `/transactions` and
//! `/transactions/{id}` (the result), `/directdebit`, and the test provider's checkout page.
//! Every form is a server function's `ActionForm`: it works without JavaScript.

use domain::checkout::{format_rate, DiscountKind, PaymentStatus, PaymentSummary, Quote};
use domain::payment::{PaymentGroup, PaymentMethod};
use domain::site::{format_money, CreditPack};
use domain::widgets::{PaymentMethodSelected, PAYMENT_METHOD_SELECT_EVENT};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

use super::pricing::{method_label, payment_blocks_props};
use super::server_fns::*;
use crate::i18n::{use_i18n, I18n};
use crate::ui::forms::ActionError;
use crate::widgets::ReactWidget;

fn money(i18n: &I18n, minor: i64, currency: &str) -> String {
    format_money(minor, currency, i18n.decimal_comma())
}

/// The line that names the discount in force.
fn discount_line(i18n: &I18n, quote_discount: &domain::checkout::Discount) -> String {
    let percent = quote_discount.percent.to_string();
    match quote_discount.kind {
        DiscountKind::Code => i18n.tf("credits.discount_code", &[("percent", &percent), ("code", &quote_discount.code)]),
        DiscountKind::Welcome => i18n.tf("credits.discount_welcome", &[("percent", &percent)]),
        DiscountKind::TimeBonus => i18n.tf("credits.discount_time_bonus", &[("percent", &percent)]),
    }
}

/// The discount line with, for the time bonus or welcome discount in force, how long it still
/// runs and what follows ("Tijdbonus: 25% korting · nog 03:12:09. Daarna 15% korting, nog 44
/// uur lang."): the same [`domain::offers::Offers`] as the banner and the price.
fn offer_line(i18n: &I18n, disc: &domain::checkout::Discount, offers: &domain::offers::Offers, now: i64) -> String {
    let line = discount_line(i18n, disc);
    match offers.now.filter(|p| p.kind == disc.kind && p.percent == disc.percent) {
        Some(phase) => {
            let left = i18n.tf("offers.left", &[("time", &domain::checkout::countdown(phase.left(now)))]);
            match i18n.offer_then(offers) {
                Some(then) => format!("{line} · {left}. {then}"),
                None => format!("{line} · {left}"),
            }
        }
        None => line,
    }
}

mod checkout;
mod direct_debit;
mod offers;
mod premium;
mod repeat_order;
mod test_checkout;
mod transaction;
mod transactions;

pub use checkout::*;
pub use direct_debit::*;
pub use offers::*;
pub use premium::*;
pub use repeat_order::*;
pub use test_checkout::*;
pub use transaction::*;
pub use transactions::*;
