//! Chat rules (SPEC §1, §4, §6, §9): what a message may hold, what it costs, who may start a
//! conversation, and the ids a client makes so that a retried send is stored once. The browser
//! checks with these for instant feedback; the server checks again as the check that counts.

use serde::{Deserialize, Serialize};

use crate::constants::FREE_CONVERSATION_LIMIT;
use crate::error::Field;
use crate::error::{ApiError, ErrorCode};

/// Messages in one page of a conversation (and what a page without JavaScript shows).
pub const PAGE_SIZE: i64 = 50;
/// A typing mark goes away this long after the last keystroke event.
pub const TYPING_EXPIRY_SECS: u32 = 6;
/// The browser tells the server it is typing at most this often.
pub const TYPING_THROTTLE_SECS: u32 = 3;
/// The text shown as a conversation's last line in the list is cut at this many characters.
pub const PREVIEW_CHARS: usize = 80;
/// An operator's claim on a conversation lapses this long after it was last renewed (opening
/// the conversation, typing in it, answering).
pub const OPERATOR_CLAIM_SECS: i64 = 120;
/// While an operator types, the console renews the claim at most this often.
pub const OPERATOR_CLAIM_RENEW_SECS: i64 = 30;
/// The operators' shared notes on a member and a fictional profile, at most this many characters.
pub const OPERATOR_NOTE_CHARS: usize = 2000;

/// Checks the operators' note on a member and a profile: trimmed, at most
/// [`OPERATOR_NOTE_CHARS`] characters (empty clears it).
pub fn validate_operator_note(text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    if text.chars().count() > OPERATOR_NOTE_CHARS {
        return Err(ApiError::field(Field::Message, ErrorCode::MessageTooLong).with("max", OPERATOR_NOTE_CHARS as i64));
    }
    Ok(text.to_string())
}

/// What a message carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum MessageKind {
    Text,
    Photo,
    Gift,
}

impl MessageKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MessageKind::Text => "text",
            MessageKind::Photo => "photo",
            MessageKind::Gift => "gift",
        }
    }

    pub fn parse(s: &str) -> Option<MessageKind> {
        [MessageKind::Text, MessageKind::Photo, MessageKind::Gift].into_iter().find(|k| k.as_str() == s)
    }
}

/// The gift catalogue. The pictures are drawn by the chat widget (and the no-script page) from
/// these codes; every gift costs the site's `gift_credits`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Gift {
    Rose,
    Heart,
    Champagne,
    Teddy,
    Chocolates,
    Kiss,
    Cocktail,
    Star,
}

impl Gift {
    pub const ALL: [Gift; 8] = [Gift::Rose, Gift::Heart, Gift::Champagne, Gift::Teddy, Gift::Chocolates, Gift::Kiss, Gift::Cocktail, Gift::Star];

    pub fn code(self) -> &'static str {
        match self {
            Gift::Rose => "rose",
            Gift::Heart => "heart",
            Gift::Champagne => "champagne",
            Gift::Teddy => "teddy",
            Gift::Chocolates => "chocolates",
            Gift::Kiss => "kiss",
            Gift::Cocktail => "cocktail",
            Gift::Star => "star",
        }
    }

    pub fn parse(code: &str) -> Option<Gift> {
        Gift::ALL.into_iter().find(|g| g.code() == code)
    }

    /// The gift's name in `locales/` (`chat.gift.rose`).
    pub fn locale_key(self) -> String {
        format!("chat.gift.{}", self.code())
    }
}

/// Checks a text message against the site's `message_length` (in characters) and gives the text
/// as it is stored: trimmed of surrounding white space, line breaks kept.
pub fn validate_text(text: &str, message_length: i64) -> Result<String, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::field(Field::Message, ErrorCode::MessageEmpty));
    }
    let max = message_length.max(1);
    if text.chars().count() as i64 > max {
        return Err(ApiError::field(Field::Message, ErrorCode::MessageTooLong).with("max", max));
    }
    Ok(text.to_string())
}

/// The id a client makes for one send (a UUID, or any 8–64 letters, digits, `-` and `_`).
/// Sending the same id twice stores and charges the message once.
pub fn validate_client_id(id: &str) -> Result<&str, ApiError> {
    let ok = (8..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(id)
    } else {
        Err(ApiError::new(ErrorCode::BadRequest))
    }
}

/// What the site charges for one message of a kind.
pub fn cost(kind: MessageKind, message_credits: i64, photo_credits: i64, gift_credits: i64) -> i64 {
    match kind {
        MessageKind::Text => message_credits,
        MessageKind::Photo => photo_credits,
        MessageKind::Gift => gift_credits,
    }
    .max(0)
}

/// How one send is paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charge {
    /// One of the site's free messages for new members (text messages only).
    Free,
    /// Credits from the member's balance (0 when the site charges nothing).
    Credits(i64),
}

/// The free count below which a message of this kind is free ([`charge`]): the site's
/// `free_messages` for a text that has a price, else 0 (never). The database's one-call send
/// compares with it (migration 50), so the rule stays here.
pub fn free_below(kind: MessageKind, price: i64, free_messages: i64) -> i64 {
    if kind == MessageKind::Text && price > 0 {
        free_messages
    } else {
        0
    }
}

/// SPEC §9 "some free messages": a text message is free while the member has used fewer than
/// the site's `free_messages`; everything else costs its price.
pub fn charge(kind: MessageKind, price: i64, free_messages: i64, free_used: i64) -> Charge {
    if free_used < free_below(kind, price, free_messages) {
        Charge::Free
    } else {
        Charge::Credits(price.max(0))
    }
}

/// SPEC §6: free members may start [`FREE_CONVERSATION_LIMIT`] conversations; premium members
/// any number. `started` counts the conversations the member started before.
pub fn may_start_conversation(premium: bool, started: i64) -> Result<(), ErrorCode> {
    if premium || started < i64::from(FREE_CONVERSATION_LIMIT) {
        Ok(())
    } else {
        Err(ErrorCode::PremiumOnly)
    }
}

/// The list's last line for a text: the first line, cut at [`PREVIEW_CHARS`] with an ellipsis.
pub fn preview(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    if line.chars().count() > PREVIEW_CHARS {
        let cut: String = line.chars().take(PREVIEW_CHARS - 1).collect();
        format!("{}…", cut.trim_end())
    } else if text.trim().lines().count() > 1 {
        format!("{line}…")
    } else {
        line.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operator_notes_are_trimmed_and_bounded() {
        assert_eq!(validate_operator_note("  woont in Zwolle, werkt bij een bakker \n").unwrap(), "woont in Zwolle, werkt bij een bakker");
        assert_eq!(validate_operator_note("").unwrap(), "");
        assert_eq!(validate_operator_note(&"é".repeat(OPERATOR_NOTE_CHARS)).unwrap().chars().count(), OPERATOR_NOTE_CHARS);
        assert_eq!(validate_operator_note(&"x".repeat(OPERATOR_NOTE_CHARS + 1)).unwrap_err().code, ErrorCode::MessageTooLong);
    }
    use proptest::prelude::*;

    #[test]
    fn texts() {
        assert_eq!(validate_text("  hoi \n", 10).unwrap(), "hoi");
        assert_eq!(validate_text(" \n\t", 10).unwrap_err().code, ErrorCode::MessageEmpty);
        let long = validate_text("abcdefghijk", 10).unwrap_err();
        assert_eq!(long.code, ErrorCode::MessageTooLong);
        assert_eq!(long.field, Some(Field::Message));
        // Characters, not bytes: ten emoji fit in ten.
        assert!(validate_text(&"😀".repeat(10), 10).is_ok());
    }

    #[test]
    fn client_ids() {
        assert!(validate_client_id("0b9e6d1c-5c1e-4e43-9d52-7c0e2c1a9f00").is_ok());
        for bad in ["", "short", "has space in it", "quote'quote'", &"x".repeat(65)] {
            assert!(validate_client_id(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn charges() {
        assert_eq!(charge(MessageKind::Text, 5, 3, 0), Charge::Free);
        assert_eq!(charge(MessageKind::Text, 5, 3, 3), Charge::Credits(5));
        assert_eq!(charge(MessageKind::Gift, 20, 3, 0), Charge::Credits(20));
        assert_eq!(charge(MessageKind::Photo, 10, 3, 0), Charge::Credits(10));
        assert_eq!(cost(MessageKind::Photo, 5, 10, 20), 10);
    }

    #[test]
    fn conversation_starts() {
        assert!(may_start_conversation(false, 0).is_ok());
        assert!(may_start_conversation(false, 1).is_ok());
        assert_eq!(may_start_conversation(false, 2), Err(ErrorCode::PremiumOnly));
        assert!(may_start_conversation(true, 200).is_ok());
    }

    #[test]
    fn previews() {
        assert_eq!(preview("hoi"), "hoi");
        assert_eq!(preview("hoi\ndaar"), "hoi…");
        assert_eq!(preview(&"a".repeat(100)).chars().count(), PREVIEW_CHARS);
    }

    #[test]
    fn gifts_round_trip() {
        for g in Gift::ALL {
            assert_eq!(Gift::parse(g.code()), Some(g));
        }
        assert_eq!(Gift::parse("diamond"), None);
        for k in [MessageKind::Text, MessageKind::Photo, MessageKind::Gift] {
            assert_eq!(MessageKind::parse(k.as_str()), Some(k));
        }
    }

    proptest! {
        #[test]
        fn a_valid_text_is_never_empty_nor_too_long(text in "\\PC{0,40}", max in 1i64..30) {
            if let Ok(stored) = validate_text(&text, max) {
                prop_assert!(!stored.is_empty());
                prop_assert!(stored.chars().count() as i64 <= max);
                prop_assert_eq!(stored.trim(), stored.as_str());
            }
        }

        #[test]
        fn free_messages_never_exceed_the_allowance(free in 0i64..10, used in 0i64..20, price in 0i64..50) {
            let c = charge(MessageKind::Text, price, free, used);
            if c == Charge::Free {
                prop_assert!(used < free);
                prop_assert!(price > 0);
            }
        }

        #[test]
        fn free_members_start_at_most_the_limit(started in 0i64..10) {
            prop_assert_eq!(may_start_conversation(false, started).is_ok(), started < i64::from(FREE_CONVERSATION_LIMIT));
        }
    }
}
