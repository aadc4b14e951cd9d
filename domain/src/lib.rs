//! Vonk's domain: the types and rules that both the browser (wasm) and the server use.
//!
//! Nothing in here does I/O. A rule lives here once; the form in the browser calls it for
//! instant feedback and the server calls it again as the check that counts.

pub mod account;
pub mod age;
pub mod chat;
pub mod chat_socket;
pub mod checkout;
pub mod complaint;
pub mod constants;
pub mod contact;
pub mod counters;
pub mod date;
pub mod error;
pub mod figures;
pub mod fraud;
pub mod geo;
pub mod i18n;
pub mod jobs;
pub mod lander;
pub mod lifecycle;
pub mod likes;
pub mod locale;
pub mod moderation;
pub mod money;
pub mod notifications;
pub mod offers;
pub mod operators;
pub mod payment;
pub mod photo;
pub mod plural;
pub mod postbacks;
pub mod profile;
pub mod push;
pub mod refund;
pub mod resell;
#[cfg(feature = "sqlx")]
pub mod rows;
pub mod sales;
pub mod search;
pub mod security;
pub mod site;
pub mod spam;
pub mod splits;
pub mod staff;
pub mod visits;
pub mod widgets;

pub use error::{ApiError, ErrorCode, Field};
pub use locale::Locale;
