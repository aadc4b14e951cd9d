//! Tests of `app::layouts::activation_reminder` (moved out of the crate: one compile of the app crate, not two).

#[test]
fn hidden_on_signup_settings_and_notifications() {
    assert!(app::layouts::activation_reminder::reminder_hidden_on("/signup"));
    assert!(app::layouts::activation_reminder::reminder_hidden_on("/settings"));
    assert!(!app::layouts::activation_reminder::reminder_hidden_on("/profile"));
    assert!(app::layouts::activation_reminder::reminder_hidden_on("/notifications"));
    assert!(!app::layouts::activation_reminder::reminder_hidden_on("/pricing"));
    assert!(!app::layouts::activation_reminder::reminder_hidden_on("/signupx"));
}
