//! Tests of `app::layouts::top_bar` (moved out of the crate: one compile of the app crate, not two).

use app::layouts::top_bar::app_back_target;

#[test]
fn the_app_back_button_is_on_member_likes_and_credits_screens() {
    assert_eq!(app_back_target("/members/12"), Some("/members"));
    assert_eq!(app_back_target("/likes/m/12"), Some("/likes"));
    assert_eq!(app_back_target("/likes"), Some("/members"));
    assert_eq!(app_back_target("/credits/3/ideal"), Some("/credits"));
    assert_eq!(app_back_target("/premium"), Some("/members"));
    for other in ["/", "/members", "/membersx/1", "/chats/1", "/settings", "/pages/terms"] {
        assert_eq!(app_back_target(other), None, "{other}");
    }
}
