//! Tests of `app::layouts::notifications_alert` (moved out of the crate: one compile of the app crate, not two).

#[test]
fn a_bounce_is_explained_first() {
    let r = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(app::layouts::notifications_alert::main_reason(&r(&["list_unsubscribe", "bounce"])), Some("bounce"));
    assert_eq!(app::layouts::notifications_alert::main_reason(&r(&["list_unsubscribe", "spam"])), Some("spam"));
    assert_eq!(app::layouts::notifications_alert::main_reason(&r(&[])), None);
}
