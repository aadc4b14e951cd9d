//! The payment-method picker (`PaymentMethodBlocks`).

use crate::payment::{PaymentGroup, PaymentMethod};
use serde::{Deserialize, Serialize};

/// One block in the payment-method picker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PaymentMethodOption {
    pub method: PaymentMethod,
    pub group: PaymentGroup,
    /// Display name, already translated where the method is generic.
    pub label: String,
}

/// Texts the payment-method picker shows, already translated by the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PaymentMethodBlocksLabels {
    /// Accessible name of the whole picker.
    pub title: String,
    pub group_card: String,
    pub group_wallet: String,
    pub group_bank: String,
    pub group_voucher: String,
    /// Shown when the list is empty.
    pub empty: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PaymentMethodBlocksProps {
    /// Methods in display order, already filtered for the visitor's country.
    pub methods: Vec<PaymentMethodOption>,
    pub selected: Option<PaymentMethod>,
    pub labels: PaymentMethodBlocksLabels,
}

/// Detail of the `vonk:payment-method-select` event the widget dispatches on its mount element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PaymentMethodSelected {
    pub method: PaymentMethod,
}

/// Name of the DOM event for a payment-method choice.
pub const PAYMENT_METHOD_SELECT_EVENT: &str = "vonk:payment-method-select";
