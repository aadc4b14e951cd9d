//! Moderation of profile texts (the "about me" text) and chat photos. A changed text waits for
//! staff before other members see it (they keep seeing the text approved before); a share of
//! members' chat photos (a site setting: none, sampled or all) and every photo a classifier flags
//! wait too, shown to the recipient meanwhile or not (another setting). Staff decide with a
//! reason code; each decision says what it does to the member. A classifier may pre-sort the
//! queues (`server::moderation`); its rules for the built-in local ones are here.

use serde::{Deserialize, Serialize};
use strum::{EnumIter, EnumString, IntoStaticStr};

/// Why staff turn a text or photo down (labels `moderation.reason.{code}` in `locales/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, EnumIter, EnumString, IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Reason {
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
    /// Against the law: known abuse imagery, violence, someone shown without consent.
    Illegal,
    Other,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(code: &str) -> Option<Reason> {
        code.parse().ok()
    }

    /// Every reason, in the order staff pick from.
    pub fn all() -> impl Iterator<Item = Reason> {
        <Reason as strum::IntoEnumIterator>::iter()
    }
}

/// What staff do with a waiting text or photo, and so to its member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Shown to others from now on.
    Approve,
    /// Never shown (a text approved before stays); the member is told with the reason (a text
    /// on their profile page, a photo in the chat beside it).
    Reject(Reason),
    /// Rejected, and the member blocked: their sessions end and they leave the search.
    Block(Reason),
}

impl Decision {
    /// From the review form: `approve`, `reject` or `block`, with a reason code for the last two.
    pub fn parse(decision: &str, reason: &str) -> Option<Decision> {
        match decision {
            "approve" => Some(Decision::Approve),
            "reject" => Reason::parse(reason).map(Decision::Reject),
            "block" => Reason::parse(reason).map(Decision::Block),
            _ => None,
        }
    }

    /// The staff log's action for a decision on a text.
    pub fn action(self) -> &'static str {
        match self {
            Decision::Approve => "text_approve",
            Decision::Reject(_) => "text_reject",
            Decision::Block(_) => "text_block",
        }
    }

    /// The staff log's action for a decision on a chat photo.
    pub fn photo_action(self) -> &'static str {
        match self {
            Decision::Approve => "chat_photo_approve",
            Decision::Reject(_) => "chat_photo_reject",
            Decision::Block(_) => "chat_photo_block",
        }
    }

    pub fn reason(self) -> Option<Reason> {
        match self {
            Decision::Approve => None,
            Decision::Reject(r) | Decision::Block(r) => Some(r),
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

/// A classifier's view of a text or photo: how likely staff turn it down (0–100) and the likely
/// reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    pub score: u8,
    pub reason: Option<Reason>,
}

impl Verdict {
    /// Whether a photo with this verdict waits for staff whatever else ([`FLAGGED_SCORE`]).
    pub fn flags(self) -> bool {
        self.score >= FLAGGED_SCORE
    }

    /// The verdict as its two columns store it (a score and a reason code), for one that may be
    /// absent.
    pub fn columns(verdict: Option<Verdict>) -> (Option<i64>, Option<&'static str>) {
        (verdict.map(|v| i64::from(v.score)), verdict.and_then(|v| v.reason).map(Reason::as_str))
    }

    /// The verdict its two columns hold: none without a score.
    pub fn from_columns(score: Option<i64>, reason: Option<&str>) -> Option<Verdict> {
        score.map(|s| Verdict { score: s.clamp(0, 100) as u8, reason: reason.and_then(Reason::parse) })
    }
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

/// Where a chat photo stands in review (`messages.photo_review`; none: it was never queued).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, EnumString, IntoStaticStr)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum PhotoReview {
    /// Waiting for staff; the recipient sees it meanwhile.
    Waiting,
    /// Waiting for staff; the recipient sees it only once approved.
    Hidden,
    Approved,
    /// Turned down: the recipient never (again) sees it.
    Rejected,
}

impl PhotoReview {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(code: &str) -> Option<PhotoReview> {
        code.parse().ok()
    }

    /// Still in the queue.
    pub fn waits(self) -> bool {
        matches!(self, PhotoReview::Waiting | PhotoReview::Hidden)
    }

    /// Whether the photo's recipient may see it now (its sender always may).
    pub fn shown_to_recipient(self) -> bool {
        matches!(self, PhotoReview::Waiting | PhotoReview::Approved)
    }
}

/// From which classifier score a chat photo waits for staff whatever the site's share, hidden
/// from its recipient until approved.
pub const FLAGGED_SCORE: u8 = 50;

/// Which of a member's chat photos wait for staff (the site's settings, read at the send).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChatPhotoRule {
    /// The share of chat photos that wait, in percent: 0 none, 100 all.
    pub percent: u8,
    /// A waiting photo is shown to its recipient only once approved.
    pub hide_waiting: bool,
}

impl ChatPhotoRule {
    /// Where a new photo starts: `draw` is a number from 0 to 99 drawn at random for it (the
    /// sample), `verdict` a classifier's. None: it goes out unreviewed. A photo the classifier
    /// flags always waits, hidden; otherwise a sampled photo waits as the site says.
    pub fn start(self, draw: u8, verdict: Option<Verdict>) -> Option<PhotoReview> {
        if verdict.is_some_and(Verdict::flags) {
            return Some(PhotoReview::Hidden);
        }
        if draw >= self.percent.min(100) {
            return None;
        }
        Some(if self.hide_waiting { PhotoReview::Hidden } else { PhotoReview::Waiting })
    }
}

/// A chat photo in the review queue (members' photos only; an operator's are the company's own).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueuedChatPhoto {
    /// The message that carries it: a decision names the photo by it.
    pub message_id: i64,
    pub sender_id: i64,
    pub sender_name: String,
    pub recipient_id: i64,
    pub recipient_name: String,
    pub sent_at: i64,
    /// Hidden from the recipient while it waits.
    pub hidden: bool,
    /// A classifier's view, when one scored it.
    pub verdict: Option<Verdict>,
}

/// Where staff see a queued chat photo (staff of its site only, and only while it waits).
pub fn queued_photo_path(message_id: i64) -> String {
    format!("/staff/chat-photos/{message_id}")
}

/// A 64-bit difference hash of a photo: for each of 8 rows of a 9×8 grey thumbnail, whether
/// each pixel is brighter than its right neighbour. Re-encoding, rescaling and small edits
/// change few bits, so a known photo is found again at a small Hamming distance.
pub fn difference_hash(grey_9x8: &[u8; 72]) -> u64 {
    let mut hash = 0u64;
    for row in 0..8 {
        for col in 0..8 {
            let (left, right) = (grey_9x8[row * 9 + col], grey_9x8[row * 9 + col + 1]);
            hash = (hash << 1) | u64::from(left > right);
        }
    }
    hash
}

/// How many bits two hashes differ in, at most, to be the same photo.
pub const HASH_DISTANCE: u32 = 6;

/// Whether a photo's hash is one of a list of known photos' (within [`HASH_DISTANCE`] bits).
pub fn known_photo(hash: u64, known: &[u64]) -> bool {
    known.iter().any(|k| (k ^ hash).count_ones() <= HASH_DISTANCE)
}

/// A list of known photos' hashes: one per line as 16 hexadecimal digits, `#` starts a comment.
/// A line that is not a hash is refused with its number.
pub fn parse_hash_list(text: &str) -> Result<Vec<u64>, String> {
    let mut hashes = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        if line.len() != 16 {
            return Err(format!("line {}: 16 hexadecimal digits", n + 1));
        }
        hashes.push(u64::from_str_radix(line, 16).map_err(|_| format!("line {}: 16 hexadecimal digits", n + 1))?);
    }
    Ok(hashes)
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
        return Verdict { score: 95, reason: Some(Reason::Minor) };
    }
    if !crate::contact::find(text).is_empty() {
        return Verdict { score: 85, reason: Some(Reason::ContactDetails) };
    }
    if COMMERCIAL.iter().any(|w| lower.contains(w)) {
        return Verdict { score: 60, reason: Some(Reason::Commercial) };
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
        assert_eq!(Decision::parse("approve", ""), Some(Decision::Approve));
        assert_eq!(Decision::parse("reject", "contact_details"), Some(Decision::Reject(Reason::ContactDetails)));
        assert_eq!(Decision::parse("block", "minor"), Some(Decision::Block(Reason::Minor)));
        assert_eq!(Decision::parse("reject", ""), None, "a rejection needs its reason");
        assert_eq!(Decision::parse("delete", "spam"), None);
        for r in Reason::iter() {
            assert_eq!(Reason::parse(r.as_str()), Some(r));
        }
        assert_eq!(TextStatus::parse(TextStatus::Waiting.as_str()), Some(TextStatus::Waiting));
    }

    #[test]
    fn the_local_classifier_sorts_likely_refusals_first() {
        assert_eq!(local_verdict("Ik ben 16 jaar en zoek vrienden").reason, Some(Reason::Minor));
        assert_eq!(local_verdict("I'm 15yo lol").reason, Some(Reason::Minor));
        assert_eq!(local_verdict("ik ben 16 jaarlijks op vakantie").reason, None, "only the age word itself");
        assert_eq!(local_verdict("just turned 17 years old").reason, Some(Reason::Minor));
        assert_eq!(local_verdict("Ik ben 46 jaar, sportief").reason, None);
        assert_eq!(local_verdict("Bel me op 06-12345678").reason, Some(Reason::ContactDetails));
        assert_eq!(local_verdict("Escort service, 150 per uur").reason, Some(Reason::Commercial));
        assert_eq!(local_verdict("Hou van wandelen en koken.").score, 0);
    }

    #[test]
    fn chat_photos_wait_as_the_site_says_and_flagged_ones_always_hidden() {
        let off = ChatPhotoRule { percent: 0, hide_waiting: true };
        assert_eq!(off.start(0, None), None, "none waits");
        let all = ChatPhotoRule { percent: 100, hide_waiting: false };
        assert_eq!(all.start(99, None), Some(PhotoReview::Waiting), "all wait, shown meanwhile");
        let sample = ChatPhotoRule { percent: 10, hide_waiting: true };
        assert_eq!(sample.start(9, None), Some(PhotoReview::Hidden));
        assert_eq!(sample.start(10, None), None);
        let flagged = Verdict { score: FLAGGED_SCORE, reason: Some(Reason::Illegal) };
        assert_eq!(off.start(99, Some(flagged)), Some(PhotoReview::Hidden), "a flagged photo waits, hidden, whatever the share");
        assert_eq!(all.start(0, Some(Verdict { score: 10, reason: None })), Some(PhotoReview::Waiting), "a low score changes nothing");
        for review in [PhotoReview::Waiting, PhotoReview::Hidden, PhotoReview::Approved, PhotoReview::Rejected] {
            assert_eq!(PhotoReview::parse(review.as_str()), Some(review));
        }
        assert!(PhotoReview::Waiting.shown_to_recipient() && !PhotoReview::Hidden.shown_to_recipient() && !PhotoReview::Rejected.shown_to_recipient());
        assert_eq!(Decision::Block(Reason::Illegal).photo_action(), "chat_photo_block");
    }

    #[test]
    fn known_photos_are_found_by_their_hash() {
        let mut grid = [0u8; 72];
        for (i, cell) in grid.iter_mut().enumerate() {
            *cell = ((i * 37) % 251) as u8;
        }
        let hash = difference_hash(&grid);
        assert!(known_photo(hash, &[1, hash]));
        assert!(known_photo(hash ^ 0b111, &[hash]), "a few bits off: the same photo re-encoded");
        assert!(!known_photo(!hash, &[hash]));
        assert!(!known_photo(hash, &[]));
        assert_eq!(difference_hash(&[7; 72]), 0, "a flat picture has no brighter neighbours");
        let list = format!("# known\n{hash:016x}  # a file\n\n00000000000000ff\n");
        assert_eq!(parse_hash_list(&list), Ok(vec![hash, 0xff]));
        assert_eq!(parse_hash_list("abc\n"), Err("line 1: 16 hexadecimal digits".into()));
        assert_eq!(parse_hash_list("0000000000000000\nzzzzzzzzzzzzzzzz"), Err("line 2: 16 hexadecimal digits".into()));
    }

    proptest! {
        #[test]
        fn a_share_picks_as_many_draws_as_its_percent(percent in 0u8..=100, hide in any::<bool>()) {
            let rule = ChatPhotoRule { percent, hide_waiting: hide };
            let picked = (0u8..100).filter(|d| rule.start(*d, None).is_some()).count();
            prop_assert_eq!(picked, usize::from(percent));
            for d in 0u8..100 {
                if let Some(review) = rule.start(d, None) {
                    prop_assert_eq!(review == PhotoReview::Hidden, hide);
                }
            }
        }

        #[test]
        fn a_hash_is_known_within_the_distance_only(hash in any::<u64>(), flips in proptest::collection::btree_set(0u32..64, 0..12)) {
            let changed = flips.iter().fold(hash, |h, bit| h ^ (1u64 << bit));
            prop_assert_eq!(known_photo(changed, &[hash]), flips.len() as u32 <= HASH_DISTANCE);
            prop_assert_eq!(known_photo(changed, &[hash]), known_photo(hash, &[changed]));
        }

        #[test]
        fn any_text_gets_a_score_within_range(text in "\\PC{0,200}") {
            let v = local_verdict(&text);
            prop_assert!(v.score <= 100);
            prop_assert_eq!(v.score == 0, v.reason.is_none());
        }

        #[test]
        fn adult_ages_are_never_read_as_minors(age in 18u32..120, word in proptest::sample::select(AGE_WORDS.to_vec())) {
            let text = format!("ik ben {age} {word}");
            prop_assert_ne!(local_verdict(&text).reason, Some(Reason::Minor));
        }
    }
}
