//! Accounts: signup, activation, login with lockout, sessions, logout.

pub mod passwords;
pub mod service;
pub mod tokens;

pub use service::{AccountError, Accounts, Member, SignupRequest};
