//! Tests of `app::layouts::photo_alert` (moved out of the crate: one compile of the app crate, not two).

#[test]
fn hidden_where_it_would_be_in_the_way() {
    assert!(app::layouts::photo_alert::photo_alert_hidden_on("/profile"));
    assert!(app::layouts::photo_alert::photo_alert_hidden_on("/staff/photos"));
    assert!(!app::layouts::photo_alert::photo_alert_hidden_on("/members"));
    assert!(!app::layouts::photo_alert::photo_alert_hidden_on("/profiles"));
}
