//! Contact details in chat messages (phone numbers, email addresses, web addresses, messenger
//! names). On a credit-paid chat members swap them to leave it; each site chooses per kind to
//! allow them, mask them (the recipient sees "•••", the sender is told) or refuse the message.
//! The chat island checks with this before sending; the server checks again as the check that
//! counts.
//!
//! The finder first folds the text (`normalise`: full-width, superscript, circled and
//! mathematical letters and digits, look-alike Cyrillic and Greek letters, diacritics, "O"
//! and "l" among digits; invisible characters such as zero-width spaces, joiners and the soft
//! hyphen dropped), then recognises (`phone`, `address`, `messenger`): numbers with anything
//! between their groups or told over a sentence ("06 48 en dan 29 17 33", "nul zes, vier
//! acht"), told apart from dates, times, prices, heights, counts and years; addresses with
//! "@" and "." spaced, bracketed or written out ("jan @ hotmail . com", "[at]", "(a)", "ät",
//! "punt"), named by their service ("gmail: jan88") or half hidden ("jan (a) •••"); sites
//! ("anna[.]nl", "w w w punt anna punt nl", "linktr.ee/anna"); handles after a messenger's
//! name or short name ("ig:", "sc:", "tg:", 👻, "Snapchat-naam:"), before it ("anna_99 op
//! snap"), after a hidden one ("s•••: anna"), "@anna", "anna#1234", "live:anna". Naming an app
//! without a handle ("mijn insta is privé") is ordinary talk. Every hit says its kind, where
//! it is in the original text and why ([`Found::reason`]); masking covers the whole of it.

use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ErrorCode, Field};

/// What stands in a masked message where a contact detail was.
pub const MASK: &str = "•••";

/// A run of at least this many digits (with anything short between the groups) reads as a
/// phone number; one fewer does with "+" before it, a word such as "bel" or "ring" in the
/// message, or in groups of two and three (Danish and Norwegian numbers have eight). Dates,
/// times, prices and measures in the run do not count.
pub const PHONE_MIN_DIGITS: usize = 9;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContactKind {
    Phone,
    Email,
    Web,
    Messenger,
}

impl ContactKind {
    pub const ALL: [ContactKind; 4] = [ContactKind::Phone, ContactKind::Email, ContactKind::Web, ContactKind::Messenger];

    pub fn code(self) -> &'static str {
        match self {
            ContactKind::Phone => "phone",
            ContactKind::Email => "email",
            ContactKind::Web => "web",
            ContactKind::Messenger => "messenger",
        }
    }

    pub fn parse(code: &str) -> Option<ContactKind> {
        ContactKind::ALL.into_iter().find(|k| k.code() == code)
    }
}

/// What a site does with one kind of contact detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ContactRule {
    Allow,
    #[default]
    Mask,
    Refuse,
    /// Delivered only once staff have read it (the review queue of held messages).
    Hold,
}

impl ContactRule {
    pub const ALL: [ContactRule; 4] = [ContactRule::Allow, ContactRule::Mask, ContactRule::Hold, ContactRule::Refuse];

    pub fn code(self) -> &'static str {
        match self {
            ContactRule::Allow => "allow",
            ContactRule::Mask => "mask",
            ContactRule::Refuse => "refuse",
            ContactRule::Hold => "hold",
        }
    }

    pub fn parse(code: &str) -> Option<ContactRule> {
        ContactRule::ALL.into_iter().find(|r| r.code() == code)
    }
}

/// A site's rule per kind (a kind not named is masked).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct ContactPolicy {
    pub phone: ContactRule,
    pub email: ContactRule,
    pub web: ContactRule,
    pub messenger: ContactRule,
}

impl ContactPolicy {
    pub const ALLOW_ALL: ContactPolicy =
        ContactPolicy { phone: ContactRule::Allow, email: ContactRule::Allow, web: ContactRule::Allow, messenger: ContactRule::Allow };

    pub fn rule(&self, kind: ContactKind) -> ContactRule {
        match kind {
            ContactKind::Phone => self.phone,
            ContactKind::Email => self.email,
            ContactKind::Web => self.web,
            ContactKind::Messenger => self.messenger,
        }
    }

    pub fn set(&mut self, kind: ContactKind, rule: ContactRule) {
        match kind {
            ContactKind::Phone => self.phone = rule,
            ContactKind::Email => self.email = rule,
            ContactKind::Web => self.web = rule,
            ContactKind::Messenger => self.messenger = rule,
        }
    }

    /// Staff's form: `kind → rule` codes; every kind must be named once with a known rule.
    pub fn from_form(pairs: &[(String, String)]) -> Result<ContactPolicy, ApiError> {
        let mut policy = ContactPolicy::default();
        let mut named = Vec::new();
        for (kind, rule) in pairs {
            let kind = ContactKind::parse(kind.trim()).ok_or_else(|| ApiError::new(ErrorCode::ChoiceInvalid).with("setting", "contact_rules"))?;
            let rule = ContactRule::parse(rule.trim()).ok_or_else(|| ApiError::new(ErrorCode::ChoiceInvalid).with("setting", "contact_rules"))?;
            if named.contains(&kind) {
                return Err(ApiError::new(ErrorCode::ChoiceInvalid).with("setting", "contact_rules"));
            }
            named.push(kind);
            policy.set(kind, rule);
        }
        if named.len() != ContactKind::ALL.len() {
            return Err(ApiError::new(ErrorCode::Required).with("setting", "contact_rules"));
        }
        Ok(policy)
    }
}

/// One contact detail found: its kind, where it is (byte offsets into the original text) and
/// why it reads as one ("a name, \"@\" and a mail domain").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub kind: ContactKind,
    pub start: usize,
    pub end: usize,
    pub reason: &'static str,
}

/// Another name for [`Found`].
pub type Hit = Found;

/// A text after the site's rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The text to store and deliver (contact details to mask replaced by [`MASK`]).
    pub text: String,
    /// The kinds that were masked (the sender is told).
    pub masked: Vec<ContactKind>,
    /// The kinds that hold the message for staff's review (left as written, for staff to read).
    pub held: Vec<ContactKind>,
    /// The sender keeps trying: told plainly that the next tries are held for review.
    pub warned: bool,
}

/// A sender's tries at sharing contact details in the last [`PERSISTENCE_WINDOW_SECS`] (each
/// message with a detail the site does not allow counts once). From [`WARN_AFTER`] tries on the
/// sender is warned; from [`HOLD_AFTER`] on, every such message waits for staff instead of being
/// masked or refused.
pub const PERSISTENCE_WINDOW_SECS: i64 = 24 * 3600;
pub const WARN_AFTER: i64 = 2;
pub const HOLD_AFTER: i64 = 4;

/// [`apply`] for a sender with `tries` earlier tries in the window: a warning from
/// [`WARN_AFTER`] on (a refusal then says the next ones are held), and from [`HOLD_AFTER`] on the
/// message is held for review whatever the rule for its kinds (other than allow).
pub fn apply_for(text: &str, policy: &ContactPolicy, tries: i64) -> Result<Checked, ApiError> {
    let warned = tries >= WARN_AFTER;
    if tries >= HOLD_AFTER {
        let mut strict = *policy;
        for kind in ContactKind::ALL {
            if policy.rule(kind) != ContactRule::Allow {
                strict.set(kind, ContactRule::Hold);
            }
        }
        return apply(text, &strict).map(|c| Checked { warned: !c.held.is_empty(), ..c });
    }
    match apply(text, policy) {
        Ok(c) => Ok(Checked { warned: warned && !(c.masked.is_empty() && c.held.is_empty()), ..c }),
        Err(e) if warned && e.code == ErrorCode::ContactDetailsRefused => Err(ApiError { code: ErrorCode::ContactDetailsRepeated, ..e }),
        Err(e) => Err(e),
    }
}

/// Applies a site's rules to a message: `contact_details_refused` (naming the first refused
/// kind as `kind`) when a refused kind is in it, else the text with masked kinds replaced.
pub fn apply(text: &str, policy: &ContactPolicy) -> Result<Checked, ApiError> {
    let found = find(text);
    if let Some(refused) = found.iter().find(|f| policy.rule(f.kind) == ContactRule::Refuse) {
        return Err(ApiError::field(Field::Message, ErrorCode::ContactDetailsRefused).with("kind", refused.kind.code()));
    }
    let mut held: Vec<ContactKind> = found.iter().filter(|f| policy.rule(f.kind) == ContactRule::Hold).map(|f| f.kind).collect();
    held.sort();
    held.dedup();
    let mut masked: Vec<ContactKind> = Vec::new();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for f in found.iter().filter(|f| policy.rule(f.kind) == ContactRule::Mask) {
        if f.start < at {
            // Overlaps the previous masked stretch: extend it.
            at = at.max(f.end);
            continue;
        }
        out.push_str(&text[at..f.start]);
        out.push_str(MASK);
        at = f.end;
        if !masked.contains(&f.kind) {
            masked.push(f.kind);
        }
    }
    out.push_str(&text[at..]);
    masked.sort();
    Ok(Checked { text: out, masked, held, warned: false })
}

/// Every contact detail in a text, in order of where it starts (byte offsets into the
/// original text), each with the kind and why it reads as one.
pub fn find(text: &str) -> Vec<Found> {
    let folded = normalise::fold_text(text);
    let mut found: Vec<Found> = Vec::new();
    let mut to_original = |kind: ContactKind, start: usize, end: usize, reason: &'static str| {
        if start < end {
            let (start, end) = folded.original(start, end);
            found.push(Found { kind, start, end, reason });
        }
    };
    for p in phone::find_phones(&folded.text) {
        to_original(ContactKind::Phone, p.start, p.end, p.reason);
    }
    let mut tokens = tokens::tokenize(&folded.text);
    if !tokens.is_empty() {
        for t in tokens.iter_mut() {
            let (s, e) = folded.original(t.start, t.end);
            let mut chars = text[s..e].chars().filter(|c| c.is_alphabetic());
            t.capital = chars.next().is_some_and(char::is_uppercase) && chars.clone().next().is_some() && chars.all(char::is_lowercase);
        }
        let mut used = vec![false; tokens.len()];
        let mut hits: Vec<TokenHit> = Vec::new();
        address::find_emails(&tokens, &mut used, &mut hits);
        address::find_webs(&folded.text, &tokens, &mut used, &mut hits);
        messenger::find_messengers(&tokens, &mut used, &mut hits);
        for h in hits {
            to_original(h.kind, h.start, h.end, h.reason);
        }
    }
    found.sort_by_key(|f| (f.start, std::cmp::Reverse(f.end)));
    found
}

/// A contact detail found in the folded text's tokens (byte offsets into the folded text).
pub(crate) struct TokenHit {
    pub kind: ContactKind,
    pub start: usize,
    pub end: usize,
    pub reason: &'static str,
}

mod address;
mod common;
mod messenger;
mod normalise;
mod phone;
mod tokens;
mod words;

#[cfg(test)]
mod tests;
