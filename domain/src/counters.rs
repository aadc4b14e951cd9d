//! The member's counters (SPEC §2, §4, §9): unread messages, new likes and unread notifications,
//! and how the top bar, the page title and the app badge show them. One home for these rules.

use serde::{Deserialize, Serialize};

use crate::constants::{COUNTER_CAP, CREDITS_BADGE_THRESHOLD};

/// What `/api/counts` answers and the top bar starts with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct Counters {
    /// Messages the member has not read (the chat's pill).
    pub unread_messages: i64,
    /// Likes from visible members the member has not looked at (the heart's pill).
    pub new_likes: i64,
    /// Unread notifications from members the member can still see (the bell's pill).
    #[cfg_attr(feature = "sqlx", sqlx(rename = "unread_notifications"))]
    pub notifications: i64,
}

impl Counters {
    /// SPEC §2: titles and the app badge count unread messages plus new likes.
    pub fn title_count(&self) -> i64 {
        self.unread_messages.max(0).saturating_add(self.new_likes.max(0))
    }

    /// The prefix of page titles, e.g. "(3) "; nothing for zero.
    pub fn title_prefix(&self) -> Option<String> {
        pill(self.title_count()).map(|count| format!("({count}) "))
    }

    /// SPEC §4: unread totals can leave one conversation out (the one on screen).
    pub fn without_conversation(mut self, unread_in_open_conversation: i64) -> Counters {
        self.unread_messages = (self.unread_messages - unread_in_open_conversation.max(0)).max(0);
        self
    }
}

/// A counter as the top bar shows it: nothing for zero, the number up to the cap, then "99+".
pub fn pill(count: i64) -> Option<String> {
    match count {
        c if c <= 0 => None,
        c if c > i64::from(COUNTER_CAP) => Some(format!("{COUNTER_CAP}+")),
        c => Some(c.to_string()),
    }
}

/// The title without a count prefix such as "(3) ", so that a new count can replace it.
pub fn strip_count(title: &str) -> &str {
    if let Some(rest) = title.strip_prefix('(') {
        if let Some((count, tail)) = rest.split_once(") ") {
            if !count.is_empty() && count.trim_end_matches('+').chars().all(|c| c.is_ascii_digit()) {
                return tail;
            }
        }
    }
    title
}

/// Colour of the credits badge, if it shows at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreditsBadge {
    /// No credits left.
    Red,
    /// Running low.
    Yellow,
}

pub fn credits_badge(balance: i64) -> Option<CreditsBadge> {
    if balance <= 0 {
        Some(CreditsBadge::Red)
    } else if balance <= CREDITS_BADGE_THRESHOLD {
        Some(CreditsBadge::Yellow)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn pills_cap_at_99_plus() {
        assert_eq!(pill(0), None);
        assert_eq!(pill(-3), None);
        assert_eq!(pill(1).as_deref(), Some("1"));
        assert_eq!(pill(99).as_deref(), Some("99"));
        assert_eq!(pill(100).as_deref(), Some("99+"));
    }

    #[test]
    fn titles_count_messages_and_likes() {
        let c = Counters { unread_messages: 2, new_likes: 3, notifications: 9 };
        assert_eq!(c.title_prefix().as_deref(), Some("(5) "));
        assert_eq!(Counters::default().title_prefix(), None);
        assert_eq!(Counters { unread_messages: 500, ..c }.title_prefix().as_deref(), Some("(99+) "));
        assert_eq!(c.without_conversation(2).title_count(), 3);
        assert_eq!(c.without_conversation(7).unread_messages, 0);
    }

    #[test]
    fn counts_are_stripped_from_titles() {
        assert_eq!(strip_count("(3) Likes | Vonk"), "Likes | Vonk");
        assert_eq!(strip_count("(99+) Likes | Vonk"), "Likes | Vonk");
        assert_eq!(strip_count("(Anna) Likes"), "(Anna) Likes");
        assert_eq!(strip_count("() Likes"), "() Likes");
        assert_eq!(strip_count("Likes"), "Likes");
    }

    #[test]
    fn credits_badge_thresholds() {
        assert_eq!(credits_badge(0), Some(CreditsBadge::Red));
        assert_eq!(credits_badge(1), Some(CreditsBadge::Yellow));
        assert_eq!(credits_badge(10), Some(CreditsBadge::Yellow));
        assert_eq!(credits_badge(11), None);
    }

    proptest! {
        #[test]
        fn pill_text_is_short_and_only_for_positive_counts(n in any::<i64>()) {
            let text = pill(n);
            prop_assert_eq!(text.is_none(), n <= 0);
            if let Some(t) = text { prop_assert!(t.len() <= 3); }
        }

        #[test]
        fn a_title_with_its_prefix_strips_back(m in 0i64..1000, l in 0i64..1000, title in "[A-Za-z][A-Za-z |]{0,20}") {
            let c = Counters { unread_messages: m, new_likes: l, notifications: 0 };
            let full = format!("{}{title}", c.title_prefix().unwrap_or_default());
            prop_assert_eq!(strip_count(&full), title.as_str());
        }
    }
}
