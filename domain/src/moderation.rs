//! Moderation of profile texts (the "about me" text): a changed text waits for staff before other
//! members see it (they keep seeing the text approved before). Staff decide with a reason code;
//! each decision says what it does to the member. A classifier may pre-sort the queue (`server::
//! moderation`); its rules for the built-in local one are here.

use serde::{Deserialize, Serialize};
use strum::{EnumIter, EnumString, IntoStaticStr};

/// Why staff turn a text down (labels `moderation.reason.{code}` in `locales/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, EnumIter, EnumString, IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum TextReason {
    /// A phone number, address, messenger or site to meet elsewhere.
    ContactDetails,
    /// Selling something: escort, paid shows, another site's offer.
    Commercial,
    /// Insults, hate, threats.
    Offensive,
    /// The text says or suggests the writer is under 18.
    Minor,
    /// Nonsense, repeated text, a copied advertisement.
    Spam,
    Other,
}

impl TextReason {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(code: &str) -> Option<TextReason> {
        code.parse().ok()
    }

    /// Every reason, in the order staff pick from.
    pub fn all() -> impl Iterator<Item = TextReason> {
        <TextReason as strum::IntoEnumIterator>::iter()
    }
}

/// What staff do with a waiting text, and so to its writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextDecision {
    /// Shown to others from now on.
    Approve,
    /// Never shown (the text approved before stays); the writer is warned on their profile page
    /// with the reason.
    Reject(TextReason),
    /// Rejected, and the writer blocked: their sessions end and they leave the search.
    Block(TextReason),
}

impl TextDecision {
    /// From the review form: `approve`, `reject` or `block`, with a reason code for the last two.
    pub fn parse(decision: &str, reason: &str) -> Option<TextDecision> {
        match decision {
            "approve" => Some(TextDecision::Approve),
            "reject" => TextReason::parse(reason).map(TextDecision::Reject),
            "block" => TextReason::parse(reason).map(TextDecision::Block),
            _ => None,
        }
    }

    /// The staff log's action.
    pub fn action(self) -> &'static str {
        match self {
            TextDecision::Approve => "text_approve",
            TextDecision::Reject(_) => "text_reject",
            TextDecision::Block(_) => "text_block",
        }
    }

    pub fn reason(self) -> Option<TextReason> {
        match self {
            TextDecision::Approve => None,
            TextDecision::Reject(r) | TextDecision::Block(r) => Some(r),
        }
    }
}

/// Where a member's text stands (`profiles.about_status`; none: nothing waits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, EnumString, IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum TextStatus {
    Waiting,
    Rejected,
}

impl TextStatus {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(code: &str) -> Option<TextStatus> {
        code.parse().ok()
    }
}

/// A classifier's view of a text: how likely staff turn it down (0–100) and the likely reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    pub score: u8,
    pub reason: Option<TextReason>,
}

/// A text in the review queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueuedText {
    pub user_id: i64,
    pub name: String,
    /// The text waiting.
    pub text: String,
    /// What others see now (the text approved before), if any.
    pub shown: Option<String>,
    /// When it changed: a decision names the text by it.
    pub changed_at: i64,
    /// A classifier's view, when one scored it.
    pub verdict: Option<Verdict>,
}

/// Words that sell (any language the site speaks), for the local classifier.
const COMMERCIAL: [&str; 12] =
    ["escort", "per uur", "per hour", "pro stunde", "webcam show", "camshow", "onlyfans", "betaalde", "paid show", "tarif", "tarifa", "€"];
/// Words next to an age under 18 that say it is the writer's.
const AGE_WORDS: [&str; 10] = ["jaar", "jarig", "years", "year old", "yo", "jahre", "ans", "años", "anni", "lat"];

/// The built-in local classifier: contact details (`crate::contact::find`), an age under 18
/// next to an age word, words that sell. Rules, not a model: it sorts the queue, staff decide.
pub fn local_verdict(text: &str) -> Verdict {
    let lower = text.to_lowercase();
    if says_minor(&lower) {
        return Verdict { score: 95, reason: Some(TextReason::Minor) };
    }
    if !crate::contact::find(text).is_empty() {
        return Verdict { score: 85, reason: Some(TextReason::ContactDetails) };
    }
    if COMMERCIAL.iter().any(|w| lower.contains(w)) {
        return Verdict { score: 60, reason: Some(TextReason::Commercial) };
    }
    Verdict { score: 0, reason: None }
}

/// A number from 10 to 17 directly followed (after spaces) by an age word.
fn says_minor(lower: &str) -> bool {
    let chars: Vec<char> = lower.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_digit()) {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let number: String = chars[start..i].iter().collect();
            if let Ok(n) = number.parse::<u32>() {
                if (10..18).contains(&n) {
                    let rest: String = chars[i..].iter().collect::<String>();
                    let rest = rest.trim_start_matches([' ', '-']);
                    if AGE_WORDS.iter().any(|w| rest.starts_with(w) && !rest[w.len()..].starts_with(|c: char| c.is_alphabetic())) {
                        return true;
                    }
                }
            }
        } else {
            i += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use strum::IntoEnumIterator;

    #[test]
    fn decisions_are_read_from_the_form() {
        assert_eq!(TextDecision::parse("approve", ""), Some(TextDecision::Approve));
        assert_eq!(TextDecision::parse("reject", "contact_details"), Some(TextDecision::Reject(TextReason::ContactDetails)));
        assert_eq!(TextDecision::parse("block", "minor"), Some(TextDecision::Block(TextReason::Minor)));
        assert_eq!(TextDecision::parse("reject", ""), None, "a rejection needs its reason");
        assert_eq!(TextDecision::parse("delete", "spam"), None);
        for r in TextReason::iter() {
            assert_eq!(TextReason::parse(r.as_str()), Some(r));
        }
        assert_eq!(TextStatus::parse(TextStatus::Waiting.as_str()), Some(TextStatus::Waiting));
    }

    #[test]
    fn the_local_classifier_sorts_likely_refusals_first() {
        assert_eq!(local_verdict("Ik ben 16 jaar en zoek vrienden").reason, Some(TextReason::Minor));
        assert_eq!(local_verdict("I'm 15yo lol").reason, Some(TextReason::Minor));
        assert_eq!(local_verdict("ik ben 16 jaarlijks op vakantie").reason, None, "only the age word itself");
        assert_eq!(local_verdict("just turned 17 years old").reason, Some(TextReason::Minor));
        assert_eq!(local_verdict("Ik ben 46 jaar, sportief").reason, None);
        assert_eq!(local_verdict("Bel me op 06-12345678").reason, Some(TextReason::ContactDetails));
        assert_eq!(local_verdict("Escort service, 150 per uur").reason, Some(TextReason::Commercial));
        assert_eq!(local_verdict("Hou van wandelen en koken.").score, 0);
    }

    proptest! {
        #[test]
        fn any_text_gets_a_score_within_range(text in "\\PC{0,200}") {
            let v = local_verdict(&text);
            prop_assert!(v.score <= 100);
            prop_assert_eq!(v.score == 0, v.reason.is_none());
        }

        #[test]
        fn adult_ages_are_never_read_as_minors(age in 18u32..120, word in proptest::sample::select(AGE_WORDS.to_vec())) {
            let text = format!("ik ben {age} {word}");
            prop_assert_ne!(local_verdict(&text).reason, Some(TextReason::Minor));
        }
    }
}
