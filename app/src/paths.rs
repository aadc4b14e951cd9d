//! The addresses of the app's pages that carry an id, written once: pages, server functions and
//! the links in mails build them here instead of formatting strings of their own, so a route
//! and its links cannot drift apart (the route table is `app.rs`).

use domain::payment::PaymentMethod;

/// A member's profile (`/members/{id}`).
pub fn member(id: i64) -> String {
    format!("/members/{id}")
}

/// The chat with a member, before or after the first message (`/members/{id}/chat`).
pub fn member_chat(id: i64) -> String {
    format!("/members/{id}/chat")
}

/// Signing up from a member's lander (`/members/{id}/signup`).
pub fn member_signup(id: i64) -> String {
    format!("/members/{id}/signup")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_the_routes() {
        assert_eq!(member(7), "/members/7");
        assert_eq!(member_chat(7), "/members/7/chat");
        assert_eq!(chat(3), "/chats/3");
        assert_eq!(checkout(2, PaymentMethod::Ideal), "/credits/2/ideal");
        assert_eq!(transaction(9), "/transactions/9");
        assert_eq!(liked_member(4), "/likes/m/4");
    }
}
