//! The addresses of the app's pages that carry an id or a query, written once: pages, server
//! functions and the links in mails build them here instead of formatting strings of their own,
//! so a route and its links cannot drift apart (the route table is `app.rs`), and every value
//! put in a query is percent-encoded in one place.

use domain::account::percent_encode;
use domain::likes::LikeKind;
use domain::payment::PaymentMethod;

/// A member's profile (`/members/{id}`).
pub fn member(id: i64) -> String {
    format!("/members/{id}")
}

/// The chat with a member, before or after the first message (`/members/{id}/chat`).
pub fn member_chat(id: i64) -> String {
    format!("/members/{id}/chat")
}

/// The chat with a member, its gift picker open (a profile's gift button).
pub fn member_gift(id: i64) -> String {
    format!("/members/{id}/chat?gift=1")
}

/// Signing up from a member's lander (`/members/{id}/signup`).
pub fn member_signup(id: i64) -> String {
    format!("/members/{id}/signup")
}

/// Signing up from a member's profile to do something there (`/members/{id}/signup?then=like`).
pub fn member_signup_then(id: i64, then: domain::lander::EntryAction) -> String {
    format!("/members/{id}/signup?then={}", then.as_ref())
}

/// The link in like mails and notifications (`/likes/m/{id}`), which leads to the profile.
pub fn liked_member(id: i64) -> String {
    format!("/likes/m/{id}")
}

/// A conversation (`/chats/{id}`).
pub fn chat(conversation: i64) -> String {
    format!("/chats/{conversation}")
}

/// A credit bundle's checkout page with every method (`/credits/{pack}`).
pub fn credits_pack(pack: i64) -> String {
    format!("/credits/{pack}")
}

/// A credit bundle's checkout with one method (`/credits/{pack}/{method}`).
pub fn checkout(pack: i64, method: PaymentMethod) -> String {
    format!("/credits/{pack}/{}", method.code())
}

/// A payment's result page (`/transactions/{id}`).
pub fn transaction(payment: i64) -> String {
    format!("/transactions/{payment}")
}

/// A paid payment's receipt as a PDF (`/transactions/{id}/receipt.pdf`).
pub fn receipt_pdf(payment: i64) -> String {
    format!("/transactions/{payment}/receipt.pdf")
}

/// The login page, which brings the visitor back to `return_to` (a path on this site).
pub fn login_then(return_to: &str) -> String {
    format!("/login?return_to={}", percent_encode(return_to).replace("%2F", "/"))
}

/// A stored public photo or clip (`/media/{file}`), from the site's CDN where it has one.
pub fn media(file: &str) -> String {
    format!("{}/media/{file}", crate::context::cdn_prefix())
}

/// What a member's profile says on arrival after an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileNotice {
    /// The first visit after signing up from this member's lander.
    Welcome,
    Blocked,
    Unblocked,
}

/// A member's profile with a notice (`/members/{id}?blocked=1`).
pub fn member_notice(id: i64, notice: ProfileNotice) -> String {
    let name = match notice {
        ProfileNotice::Welcome => "welcome",
        ProfileNotice::Blocked => "blocked",
        ProfileNotice::Unblocked => "unblocked",
    };
    format!("/members/{id}?{name}=1")
}

/// One message in its conversation (`/chats/{id}#m-{message}`).
pub fn chat_message(conversation: i64, message: i64) -> String {
    format!("/chats/{conversation}#m-{message}")
}

/// The last step of signing up, for the profile just made, with what the visitor was about to
/// do there.
pub fn complete_signup(profile: i64, then: Option<domain::lander::EntryAction>) -> String {
    match then {
        Some(action) => format!("/complete-signup?profile={profile}&then={}", action.as_ref()),
        None => format!("/complete-signup?profile={profile}"),
    }
}

/// The member search with its query string (made by `SearchFilters::to_query`), optionally at a card.
pub fn search(query: &str, card: Option<i64>) -> String {
    match card {
        Some(id) => format!("/members?{query}#m-{id}"),
        None => format!("/members?{query}"),
    }
}

/// A likes tab at a page (`/likes/{kind}`, `?page=` from page 2 on).
pub fn likes(kind: LikeKind, page: u32) -> String {
    if page > 1 {
        format!("/likes/{}?page={page}", kind.code())
    } else {
        format!("/likes/{}", kind.code())
    }
}

/// Older notifications than the cursor (the page's own opaque cursor).
pub fn notifications_before(cursor: &str) -> String {
    format!("/notifications?before={}", percent_encode(cursor))
}

/// The complaint form about a member, at the form.
pub fn complaint_about_member(id: i64) -> String {
    format!("/complaints?member={id}#complaint")
}

/// The complaint form about a conversation, at the form.
pub fn complaint_about_conversation(id: i64) -> String {
    format!("/complaints?conversation={id}#complaint")
}

/// The complaints page after sending one, naming its reference.
pub fn complaint_sent(reference: &str) -> String {
    format!("/complaints?sent={}", percent_encode(reference))
}

/// A bundle's checkout with one method and the discount code typed (`?code=`).
pub fn checkout_with_code(pack: i64, method: Option<PaymentMethod>, code: Option<&str>) -> String {
    let base = match method {
        Some(m) => checkout(pack, m),
        None => credits_pack(pack),
    };
    match code {
        Some(c) => format!("{base}?code={}", percent_encode(c)),
        None => base,
    }
}

/// The direct-debit form: for a bundle, at step two for an order, with a discount code.
pub fn direct_debit(pack: Option<i64>, order: Option<i64>, code: Option<&str>) -> String {
    let mut query = Vec::new();
    if let Some(p) = pack {
        query.push(format!("pack={p}"));
    }
    if let Some(o) = order {
        query.push(format!("order={o}"));
    }
    if let Some(c) = code {
        query.push(format!("code={}", percent_encode(c)));
    }
    if query.is_empty() {
        "/directdebit".to_string()
    } else {
        format!("/directdebit?{}", query.join("&"))
    }
}

/// The built-in test provider's checkout page for a checkout id.
pub fn test_checkout(checkout_id: &str) -> String {
    format!("/checkout/test/{}", percent_encode(checkout_id))
}

/// The member's age-check page; with a check, where its provider sends the member back.
pub fn age_check(check: Option<i64>) -> String {
    check.map_or_else(|| "/age-check".to_string(), |c| format!("/age-check?check={c}"))
}

/// The built-in test age-check provider's page.
pub fn test_age_check(id: &str) -> String {
    format!("/age-check/test/{}", percent_encode(id))
}

/// The links in mails: each page with its one-time token.
pub fn activation(token: &str) -> String {
    with_token("/activate", token)
}
pub fn password_reset(token: &str) -> String {
    with_token("/reset-password/do", token)
}
pub fn email_change(token: &str) -> String {
    with_token("/mail-change/do", token)
}
pub fn email_undo(token: &str) -> String {
    with_token("/mail-change/undo", token)
}
pub fn reactivation(token: &str) -> String {
    with_token("/account-deleted", token)
}
pub fn unsubscribe(token: &str) -> String {
    with_token("/unsubscribe", token)
}

fn with_token(page: &str, token: &str) -> String {
    format!("{page}?token={}", percent_encode(token))
}

/// A lander of a design, and a member's lander of a kind (their canonical addresses).
pub fn lander(design_route: &str) -> String {
    format!("/landers/{design_route}")
}
pub fn member_lander(id: i64, kind: &str) -> String {
    format!("/members/{id}/{kind}")
}

/// Staff review of messages held as spam.
pub const STAFF_HELD: &str = "/staff/held";

/// The staff pages after a change, at what changed.
pub fn staff_chat(conversation: i64) -> String {
    format!("/staff/chats?c={conversation}")
}
pub fn staff_member_saved(id: i64) -> String {
    format!("/staff/members?q=%23{id}&saved=1")
}
pub fn staff_site_saved(anchor: &str) -> String {
    format!("/staff/site?saved={anchor}#{anchor}")
}
pub fn staff_site_created(domain: &str) -> String {
    format!("/staff/site?created={}#new-site", percent_encode(domain))
}
pub fn staff_pack_saved(id: i64) -> String {
    format!("/staff/pricing?saved=pack-{id}#pack-{id}")
}
