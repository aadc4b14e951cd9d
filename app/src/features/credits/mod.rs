//! Credits: the pricing page, buying bundles (checkout, payment results, direct debit, the
//! test provider's page), premium, and their server functions.

pub mod pages;
pub mod pricing;
pub mod server_fns;
