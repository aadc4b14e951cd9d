//! The four layouts of SPEC §2 and their parts.

pub mod activation_reminder;
pub mod age_alert;
pub mod chat;
pub mod default;
pub mod empty;
pub mod entry_warning;
pub mod footer;
pub mod lander;
pub mod language_switcher;
pub mod live_counters;
pub mod notifications_alert;
pub mod photo_alert;
pub mod push_alert;
pub mod time_bonus;
pub mod top_bar;
