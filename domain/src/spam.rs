//! Spam held back: a member who sends the same or nearly the same first message to many
//! members in a short time has further first messages held for staff review (not delivered,
//! not charged until staff release them). What counts as "many", "short" and "nearly the same"
//! are site settings ([`SpamRules`]); "nearly the same" is the overlap of the two texts'
//! letter triples after case, punctuation and spacing are ignored ([`similarity`]).
//!
//! Short greetings ("hoi", "hey, hoe gaat het?") are what many honest members send to
//! everyone: texts under [`MIN_CHARS`] letters and digits are never held.

use serde::{Deserialize, Serialize};

use crate::staff::Range;
use crate::ApiError;

/// Texts shorter than this (letters and digits, after normalising) are never held.
pub const MIN_CHARS: usize = 20;

/// How many members the same first message may reach within the window (0: never hold).
pub const RECIPIENTS: Range = Range::new("spam_recipients", 0, 1000);
/// The window, in minutes.
pub const WINDOW_MINUTES: Range = Range::new("spam_window_minutes", 1, 7 * 24 * 60);
/// From what overlap (percent) two texts count as the same.
pub const SIMILARITY: Range = Range::new("spam_similarity", 50, 100);

/// A site's thresholds. A member's further first message is held once `recipients` first
/// messages of theirs within `window_minutes` were at least `similarity` percent the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SpamRules {
    pub recipients: i64,
    pub window_minutes: i64,
    pub similarity: i64,
}

impl Default for SpamRules {
    fn default() -> Self {
        SpamRules { recipients: 5, window_minutes: 60, similarity: 80 }
    }
}

impl SpamRules {
    pub fn validate(self) -> Result<SpamRules, ApiError> {
        Ok(SpamRules {
            recipients: RECIPIENTS.check(self.recipients)?,
            window_minutes: WINDOW_MINUTES.check(self.window_minutes)?,
            similarity: SIMILARITY.check(self.similarity)?,
        })
    }

    /// Whether the rules hold anything at all.
    pub fn enabled(&self) -> bool {
        self.recipients > 0
    }

    /// The window in seconds: first messages sent since `now - window_secs()` count.
    pub fn window_secs(&self) -> i64 {
        self.window_minutes.max(1) * 60
    }

    /// Whether a new first message `text` is held, given the member's first messages within
    /// the window (`earlier`, held ones included).
    pub fn holds<'a>(&self, text: &str, earlier: impl IntoIterator<Item = &'a str>) -> bool {
        if !self.enabled() {
            return false;
        }
        let text = normalize(text);
        if text.chars().filter(|c| *c != ' ').count() < MIN_CHARS {
            return false;
        }
        let grams = trigrams(&text);
        let alike = earlier.into_iter().filter(|e| percent(&grams, &trigrams(&normalize(e))) >= self.similarity).count();
        alike as i64 >= self.recipients
    }
}

/// Lower case, letters and digits only, one space between words.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
    out
}

/// How much two texts are the same, in percent (0–100): the Dice overlap of their letter
/// triples after [`normalize`]. Symmetric; 100 for texts that differ only in case, punctuation
/// or spacing.
pub fn similarity(a: &str, b: &str) -> i64 {
    percent(&trigrams(&normalize(a)), &trigrams(&normalize(b)))
}

fn trigrams(text: &str) -> std::collections::BTreeSet<[char; 3]> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() < 3 {
        let mut one = [' '; 3];
        for (slot, c) in one.iter_mut().zip(&chars) {
            *slot = *c;
        }
        return std::iter::once(one).filter(|_| !chars.is_empty()).collect();
    }
    chars.windows(3).map(|w| [w[0], w[1], w[2]]).collect()
}

fn percent(a: &std::collections::BTreeSet<[char; 3]>, b: &std::collections::BTreeSet<[char; 3]>) -> i64 {
    if a.is_empty() && b.is_empty() {
        return 100;
    }
    let shared = a.intersection(b).count();
    (200 * shared / (a.len() + b.len())) as i64
}

/// A member with messages held for review, as staff see them on `/staff/held`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldSender {
    pub sender: i64,
    pub name: String,
    pub email: String,
    /// Messages held, and to how many members.
    pub held: i64,
    pub recipients: i64,
    /// The first held text (up to [`SAMPLE_CHARS`] characters).
    pub sample: String,
    pub first_at: i64,
    pub last_at: i64,
}

/// How much of the first held text the review list shows.
pub const SAMPLE_CHARS: usize = 500;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SPAM: &str = "Hoi schat, ik ben Lisa en ik zoek een leuke man voor vanavond. Kijk op mijn pagina!";

    #[test]
    fn the_same_text_with_other_case_and_punctuation_is_the_same() {
        assert_eq!(similarity(SPAM, "hoi SCHAT ik ben lisa en ik zoek een leuke man voor vanavond kijk op mijn pagina"), 100);
    }

    #[test]
    fn a_changed_name_is_nearly_the_same_and_another_text_is_not() {
        let renamed = SPAM.replace("Lisa", "Anna");
        assert!(similarity(SPAM, &renamed) >= 80, "{}", similarity(SPAM, &renamed));
        assert!(similarity(SPAM, "Wat een mooie foto's heb je, woon je echt in Zwolle? Ik werk daar vlakbij.") < 30);
    }

    #[test]
    fn the_sixth_alike_first_message_is_held_by_default() {
        let rules = SpamRules::default();
        let earlier: Vec<String> = (0..5).map(|i| SPAM.replace("Lisa", &format!("Lisa{i}"))).collect();
        assert!(!rules.holds(SPAM, earlier.iter().take(4).map(String::as_str)));
        assert!(rules.holds(SPAM, earlier.iter().map(String::as_str)));
    }

    #[test]
    fn short_greetings_and_switched_off_rules_hold_nothing() {
        let greetings = vec!["Hoi, hoe gaat het?"; 50];
        assert!(!SpamRules::default().holds("Hoi, hoe gaat het?", greetings));
        let off = SpamRules { recipients: 0, ..SpamRules::default() };
        assert!(!off.holds(SPAM, vec![SPAM; 50]));
    }

    #[test]
    fn settings_outside_their_ranges_are_refused() {
        assert!(SpamRules { recipients: -1, ..SpamRules::default() }.validate().is_err());
        assert!(SpamRules { window_minutes: 0, ..SpamRules::default() }.validate().is_err());
        assert!(SpamRules { similarity: 49, ..SpamRules::default() }.validate().is_err());
        assert_eq!(SpamRules::default().validate(), Ok(SpamRules::default()));
    }

    #[test]
    fn stored_rules_missing_a_field_take_its_default() {
        let rules: SpamRules = serde_json::from_str(r#"{"recipients": 3}"#).unwrap();
        assert_eq!(rules, SpamRules { recipients: 3, ..SpamRules::default() });
    }

    proptest! {
        #[test]
        fn similarity_is_a_symmetric_percentage(a in ".{0,120}", b in ".{0,120}") {
            let s = similarity(&a, &b);
            prop_assert!((0..=100).contains(&s));
            prop_assert_eq!(s, similarity(&b, &a));
        }

        #[test]
        fn case_punctuation_and_spacing_never_matter(words in prop::collection::vec("[a-zA-Z0-9]{1,12}", 1..20), seps in prop::collection::vec("[ ,.!?\\-]{1,3}", 20)) {
            let plain = words.join(" ");
            let noisy: String = words.iter().zip(&seps).map(|(w, s)| format!("{}{s}", w.to_uppercase())).collect();
            prop_assert_eq!(similarity(&plain, &noisy), 100);
        }

        #[test]
        fn one_changed_word_in_a_long_text_stays_alike(words in prop::collection::vec("[a-z]{3,8}", 30..40), at in 0usize..30, new in "[a-z]{3,8}") {
            let mut changed = words.clone();
            changed[at] = new;
            prop_assert!(similarity(&words.join(" "), &changed.join(" ")) >= 80);
        }

        #[test]
        fn never_more_than_the_threshold_go_out_unheld(n in 0i64..20, recipients in 1i64..10) {
            let rules = SpamRules { recipients, ..SpamRules::default() };
            let mut sent: Vec<&str> = Vec::new();
            let mut delivered = 0;
            for _ in 0..n {
                if !rules.holds(SPAM, sent.iter().copied()) {
                    delivered += 1;
                }
                sent.push(SPAM);
            }
            prop_assert_eq!(delivered, n.min(recipients));
        }
    }
}
