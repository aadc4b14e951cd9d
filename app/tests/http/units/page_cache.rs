//! Tests of `app::page_cache` (moved out of the crate: one compile of the app crate, not two).

use app::page_cache::*;
use http::HeaderMap;

#[test]
fn a_kept_page_gets_the_new_nonce_everywhere_the_old_one_was() {
    let page = Page::new(HeaderMap::new(), r#"<script nonce="abc">1</script><p>x</p><script nonce="abc">2</script>"#, "abc");
    assert_eq!(page.body("0f9e"), r#"<script nonce="0f9e">1</script><p>x</p><script nonce="0f9e">2</script>"#);
    let plain = Page::new(HeaderMap::new(), "<p>no scripts</p>", "abc");
    assert_eq!(plain.body("0f9e"), "<p>no scripts</p>");
}

#[test]
fn only_visitor_pages_without_tokens_are_kept() {
    for path in ["/", "/pricing", "/members", "/members/42", "/pages/terms", "/pages/return-policy"] {
        assert!(keepable(path), "{path}");
    }
    for path in [
        "/login",
        "/signup",
        "/members/42/signup",
        "/members/x",
        "/pages/",
        "/activate",
        "/api/fn/signup_modal",
        "/likes",
        "/media/public/a.webp",
        "/pages/a/b",
    ] {
        assert!(!keepable(path), "{path}");
    }
}
