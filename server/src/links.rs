//! Where the links in mails lead. The pages belong to the app; the server asks it for their
//! paths instead of writing them itself. Each answer is a path with its query (`/activate?token=…`);
//! the service puts the site's base URL in front.

use std::sync::Arc;

/// The app's pages that mails link to.
pub trait PageLinks: Send + Sync + std::fmt::Debug {
    /// Confirms the email address of a new account (one button that posts).
    fn activation(&self, token: &str) -> String;
    /// Chooses a new password.
    fn password_reset(&self, token: &str) -> String;
    /// Confirms a new email address.
    fn email_change(&self, token: &str) -> String;
    /// Puts the old address back after an email change (the notice to the old address).
    fn email_undo(&self, token: &str) -> String;
    /// Undoes the deletion of an account.
    fn reactivation(&self, token: &str) -> String;
    /// Asks before switching notification mails off (the mail's footer link).
    fn unsubscribe(&self, token: &str) -> String;
    /// Another member, as a like or match mail shows them.
    fn member(&self, member_id: i64) -> String;
    /// A conversation, as a new-message mail opens it.
    fn chat(&self, conversation_id: i64) -> String;
    /// A payment's result page, where the provider sends the buyer back.
    fn transaction(&self, payment_id: i64) -> String;
    /// The built-in test provider's hosted checkout page.
    fn test_checkout(&self, checkout_id: &str) -> String;
    /// The member's age-check page; with a check, where its provider sends the member back.
    fn age_check(&self, check: Option<i64>) -> String;
    /// The built-in test age-check provider's page.
    fn test_age_check(&self, id: &str) -> String;
}

pub type Links = Arc<dyn PageLinks>;

/// The one-click unsubscribe endpoint of RFC 8058 (`List-Unsubscribe`): served by this crate's
/// HTTP routes, not a page.
pub fn one_click_unsubscribe(token: &str) -> String {
    format!("/api/unsubscribe?token={token}")
}

/// `base` + `path`, without a doubled slash.
pub fn absolute(base: &str, path: &str) -> String {
    format!("{}{path}", base.trim_end_matches('/'))
}
