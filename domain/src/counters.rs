//! Counter and badge display rules for the top bar (SPEC §2, §9).

use crate::constants::{COUNTER_CAP, CREDITS_BADGE_THRESHOLD};

/// Text of a pill: nothing for zero, the number up to the cap, then "99+".
pub fn pill_text(count: u32) -> Option<String> {
    match count {
        0 => None,
        n if n > COUNTER_CAP => Some(format!("{COUNTER_CAP}+")),
        n => Some(n.to_string()),
    }
}

/// Page titles are prefixed with unread messages plus new likes: "(3) Title".
pub fn title_with_count(title: &str, unread_messages: u32, new_likes: u32) -> String {
    match pill_text(unread_messages.saturating_add(new_likes)) {
        Some(count) => format!("({count}) {title}"),
        None => title.to_string(),
    }
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
    fn pill_text_caps_at_99_plus() {
        assert_eq!(pill_text(0), None);
        assert_eq!(pill_text(1).as_deref(), Some("1"));
        assert_eq!(pill_text(99).as_deref(), Some("99"));
        assert_eq!(pill_text(100).as_deref(), Some("99+"));
    }

    #[test]
    fn title_prefix() {
        assert_eq!(title_with_count("Vonk", 0, 0), "Vonk");
        assert_eq!(title_with_count("Vonk", 2, 3), "(5) Vonk");
        assert_eq!(title_with_count("Vonk", u32::MAX, 3), "(99+) Vonk");
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
        fn pill_text_never_longer_than_three(n in any::<u32>()) {
            let text = pill_text(n);
            prop_assert_eq!(text.is_none(), n == 0);
            if let Some(t) = text { prop_assert!(t.len() <= 3); }
        }
    }
}
