//! Tests of `app::paths` (moved out of the crate: one compile of the app crate, not two).

use app::paths::*;
use domain::likes::LikeKind;
use domain::payment::PaymentMethod;

#[test]
fn paths_are_the_routes() {
    assert_eq!(member(7), "/members/7");
    assert_eq!(member_chat(7), "/members/7/chat");
    assert_eq!(chat(3), "/chats/3");
    assert_eq!(checkout(2, PaymentMethod::Ideal), "/credits/2/ideal");
    assert_eq!(transaction(9), "/transactions/9");
    assert_eq!(liked_member(4), "/likes/m/4");
    assert_eq!(member_notice(5, ProfileNotice::Blocked), "/members/5?blocked=1");
    assert_eq!(likes(LikeKind::Matches, 1), format!("/likes/{}", LikeKind::Matches.code()));
    assert_eq!(likes(LikeKind::Matches, 2), format!("/likes/{}?page=2", LikeKind::Matches.code()));
    assert_eq!(test_checkout("a/b"), "/checkout/test/a%2Fb");
}

#[test]
fn query_values_are_encoded() {
    assert_eq!(login_then("/members/7/chat?text=a&b"), "/login?return_to=/members/7/chat%3Ftext%3Da%26b");
    assert_eq!(direct_debit(Some(2), Some(9), Some("a&b c")), "/directdebit?pack=2&order=9&code=a%26b%20c");
    assert_eq!(direct_debit(None, None, None), "/directdebit");
    assert_eq!(checkout_with_code(2, None, Some("<x>")), "/credits/2?code=%3Cx%3E");
    assert_eq!(checkout_with_code(2, Some(PaymentMethod::Ideal), None), "/credits/2/ideal");
    assert_eq!(staff_site_created("a b.nl"), "/staff/site?created=a%20b.nl#new-site");
    assert_eq!(activation("t+k"), "/activate?token=t%2Bk");
}
