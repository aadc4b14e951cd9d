//! Unit tests of the app crate's rules (paths, escaping, asset URLs, page cache, which alert shows
//! where, the translation keys): here rather than in `#[cfg(test)]` modules, so `make test`
//! compiles the app crate once, not a second time as a test harness.

mod assets;
mod features_credits_pricing;
mod i18n;
mod layouts;
mod layouts_activation_reminder;
mod layouts_chat;
mod layouts_notifications_alert;
mod layouts_photo_alert;
mod layouts_top_bar;
mod page_cache;
mod paths;
mod ui_forms;
