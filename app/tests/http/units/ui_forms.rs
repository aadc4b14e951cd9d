//! Tests of `app::ui::forms` (moved out of the crate: one compile of the app crate, not two).

use app::ui::forms::*;

#[test]
fn textarea_values_cannot_end_the_element() {
    assert_eq!(escape_text("</textarea><b id=x>&amp;"), "&lt;/textarea&gt;&lt;b id=x&gt;&amp;amp;");
    assert_eq!(escape_text("gewoon tekst\nmet regels"), "gewoon tekst\nmet regels");
}

#[test]
fn parameters_go_before_the_anchor() {
    assert_eq!(with_param("/members/4", "liked=4"), "/members/4?liked=4");
    assert_eq!(with_param("/members?page=2#results", "match=4"), "/members?page=2&match=4#results");
}
