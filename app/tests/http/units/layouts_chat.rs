//! Tests of `app::layouts::chat` (moved out of the crate: one compile of the app crate, not two).

#[test]
fn entry_warning_only_for_nl_and_de() {
    assert!(app::layouts::chat::chat_shows_entry_warning("NL"));
    assert!(app::layouts::chat::chat_shows_entry_warning("de"));
    assert!(!app::layouts::chat::chat_shows_entry_warning("BE"));
}
