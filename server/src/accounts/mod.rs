//! Accounts: signup, activation, login with lockout, sessions, logout.

pub mod notifications;
pub mod passwords;
pub mod service;
pub mod tokens;

pub use notifications::{AlertState, DisabledReason, NotificationKind, NotificationPrefs};
pub use service::{AccountError, Accounts, Member, SignupRequest};
