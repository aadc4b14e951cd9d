//! Contact details in chat messages (phone numbers, email addresses, web addresses, messenger
//! names). On a credit-paid chat members swap them to leave it; each site chooses per kind to
//! allow them, mask them (the recipient sees "•••", the sender is told) or refuse the message.
//! The chat island checks with this before sending; the server checks again as the check that
//! counts.
//!
//! The finder knows the usual disguises: separators and spaces inside numbers, digits written
//! as words ("nul zes"), keycap emoji, full-width and other Unicode digits, "at"/"dot" written
//! out ("jan at gmail dot com", "(at)", "apenstaartje", "punt"), and "@handle" or a messenger's
//! name followed by a handle.

use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ErrorCode, Field};

/// What stands in a masked message where a contact detail was.
pub const MASK: &str = "•••";

/// A sequence of at least this many digits (with separators between) reads as a phone number;
/// a date with a four-digit year (8 digits) does not.
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
}

impl ContactRule {
    pub const ALL: [ContactRule; 3] = [ContactRule::Allow, ContactRule::Mask, ContactRule::Refuse];

    pub fn code(self) -> &'static str {
        match self {
            ContactRule::Allow => "allow",
            ContactRule::Mask => "mask",
            ContactRule::Refuse => "refuse",
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

/// One contact detail found: its kind and where it is (byte offsets into the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub kind: ContactKind,
    pub start: usize,
    pub end: usize,
}

/// A text after the site's rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The text to store and deliver (contact details to mask replaced by [`MASK`]).
    pub text: String,
    /// The kinds that were masked (the sender is told).
    pub masked: Vec<ContactKind>,
}

/// Applies a site's rules to a message: `contact_details_refused` (naming the first refused
/// kind as `kind`) when a refused kind is in it, else the text with masked kinds replaced.
pub fn apply(text: &str, policy: &ContactPolicy) -> Result<Checked, ApiError> {
    let found = find(text);
    if let Some(refused) = found.iter().find(|f| policy.rule(f.kind) == ContactRule::Refuse) {
        return Err(ApiError::field(Field::Message, ErrorCode::ContactDetailsRefused).with("kind", refused.kind.code()));
    }
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
    Ok(Checked { text: out, masked })
}

/// Every contact detail in a text, in order of where it starts.
pub fn find(text: &str) -> Vec<Found> {
    let tokens = tokenize(text);
    let mut found = Vec::new();
    find_phones(text, &mut found);
    find_addresses(text, &tokens, &mut found);
    found.sort_by_key(|f| (f.start, std::cmp::Reverse(f.end)));
    found
}

// ---------------------------------------------------------------------------------------------
// Phone numbers

/// The digit a character stands for: ASCII, full-width, mathematical, circled, Arabic-Indic,
/// Devanagari digits.
fn digit_of(c: char) -> Option<u32> {
    let n = c as u32;
    if let Some(d) = c.to_digit(10) {
        return Some(d);
    }
    match n {
        0xFF10..=0xFF19 => Some(n - 0xFF10),
        0x1D7CE..=0x1D7FF => Some((n - 0x1D7CE) % 10),
        0x2460..=0x2468 => Some(n - 0x2460 + 1),
        0x2780..=0x2788 => Some(n - 0x2780 + 1),
        0x278A..=0x2792 => Some(n - 0x278A + 1),
        0x24EA | 0x24FF | 0x1F10B | 0x1F10C => Some(0),
        0x0660..=0x0669 => Some(n - 0x0660),
        0x06F0..=0x06F9 => Some(n - 0x06F0),
        0x0966..=0x096F => Some(n - 0x0966),
        _ => None,
    }
}

/// Digits written as words, in the site's languages.
const DIGIT_WORDS: &[&str] = &[
    "nul", "een", "één", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen", // nl
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", // en
    "null", "eins", "zwei", "drei", "fünf", "sechs", "sieben", "neun", // de
    "zéro", "un", "deux", "trois", "quatre", "cinq", "sept", "huit", "neuf", // fr
    "cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", // es
    "zero", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", // it
];

/// Characters that may stand between the digits of one phone number.
fn is_phone_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '-' | '.' | '/' | '(' | ')' | '+' | '_' | '\u{FE0F}' | '\u{20E3}' | '\u{200B}' | '\u{2010}'..='\u{2015}' | '*' | '#')
}

/// Runs of digits (characters or words) with only separators between them.
fn find_phones(text: &str, found: &mut Vec<Found>) {
    // (start, end) of every digit unit, in order.
    let mut units: Vec<(usize, usize)> = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if digit_of(c).is_some() {
            units.push((i, i + c.len_utf8()));
        } else if c.is_alphabetic() {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if d.is_alphabetic() {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let word = text[i..end].to_lowercase();
            if DIGIT_WORDS.contains(&word.as_str()) {
                units.push((i, end));
            } else {
                // A word that is no digit ends a run: mark it with an empty unit.
                units.push((i, i));
            }
        }
    }
    let mut run: Vec<(usize, usize)> = Vec::new();
    let close = |run: &mut Vec<(usize, usize)>, found: &mut Vec<Found>| {
        if run.len() >= PHONE_MIN_DIGITS {
            let mut start = run[0].0;
            if text[..start].ends_with('+') {
                start -= 1;
            }
            let mut end = run[run.len() - 1].1;
            // A keycap digit's marks belong to it.
            for c in text[end..].chars().take_while(|c| matches!(c, '\u{FE0F}' | '\u{20E3}')) {
                end += c.len_utf8();
            }
            found.push(Found { kind: ContactKind::Phone, start, end });
        }
        run.clear();
    };
    for unit in units {
        if unit.0 == unit.1 {
            close(&mut run, found);
            continue;
        }
        if let Some(&(_, last_end)) = run.last() {
            let gap = &text[last_end..unit.0];
            let visible = gap.chars().filter(|c| !matches!(c, '\u{FE0F}' | '\u{20E3}' | '\u{200B}')).count();
            if visible > 3 || !gap.chars().all(is_phone_separator) {
                close(&mut run, found);
            }
        }
        run.push(unit);
    }
    close(&mut run, found);
}

// ---------------------------------------------------------------------------------------------
// Email, web addresses and messenger names

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Word,
    At,
    Dot,
    Colon,
    Slash,
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    start: usize,
    end: usize,
    /// Lower-case text of a word.
    lower: String,
    /// Whether the character before it is part of the same stretch (no space between).
    joined: bool,
}

const AT_WORDS: &[&str] = &["at", "apenstaartje", "apestaart", "klammeraffe", "arroba", "chiocciola", "arobase"];
const DOT_WORDS: &[&str] = &["dot", "punt", "punkt", "punto", "point", "ponto", "kropka", "nokta"];
/// Top-level domains that make "word.tld" a web address.
const TLDS: &[&str] = &[
    "com", "nl", "be", "de", "net", "org", "eu", "info", "io", "me", "co", "uk", "fr", "es", "it", "ch", "pl", "pt", "tr", "ro", "se", "dk", "no", "fi", "app",
    "link", "ly", "xyz", "online", "site", "shop", "tv", "us", "biz", "club", "live", "dating", "nu",
];
/// Mail services whose names make "name at service" an address even without a domain ending.
const MAIL_SERVICES: &[&str] =
    &["gmail", "googlemail", "hotmail", "outlook", "yahoo", "icloud", "ziggo", "kpnmail", "kpnplanet", "telenet", "gmx", "protonmail", "msn"];
const MESSENGERS: &[&str] = &[
    "whatsapp",
    "whatsap",
    "watsapp",
    "wapp",
    "snapchat",
    "snap",
    "telegram",
    "instagram",
    "insta",
    "kik",
    "skype",
    "facebook",
    "fb",
    "tiktok",
    "discord",
    "wechat",
    "viber",
    "threema",
    "signal",
    "onlyfans",
    "messenger",
    "line",
];
/// Words that may stand between a messenger's name and the handle ("mijn snap is anna_99").
const HANDLE_FILLERS: &[&str] = &["is", "me", "mij", "op", "on", "naam", "name", "id", "account", "via", "als", "as", "ist", "est", "es"];
/// Of those, the ones that say a name follows (so "snap is annabanana" is a handle and
/// "ik snap het" is not).
const HANDLE_CONNECTORS: &[&str] = &["is", "naam", "name", "id", "account", "ist", "est", "es"];

fn tokenize(text: &str) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut prev_end = usize::MAX;
    while let Some((i, c)) = chars.next() {
        let joined = prev_end == i;
        let single = |tok| Token { tok, start: i, end: i + c.len_utf8(), lower: String::new(), joined };
        let token = if c.is_alphanumeric() || c == '_' || c == '%' {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if d.is_alphanumeric() || d == '_' || d == '%' || (d == '-' && text[j + 1..].chars().next().is_some_and(char::is_alphanumeric)) {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            Token { tok: Tok::Word, start: i, end, lower: text[i..end].to_lowercase(), joined }
        } else if c == '@' || c == '＠' {
            single(Tok::At)
        } else if c == '.' || c == '。' || c == '．' {
            single(Tok::Dot)
        } else if c == ':' {
            single(Tok::Colon)
        } else if c == '/' {
            single(Tok::Slash)
        } else {
            // Spaces, brackets ("(at)"), quotes: skipped, but they part a stretch.
            continue;
        };
        prev_end = token.end;
        out.push(token);
    }
    // Words that stand for "@" and "." count as those marks.
    for t in out.iter_mut() {
        if t.tok == Tok::Word {
            if AT_WORDS.contains(&t.lower.as_str()) {
                t.tok = Tok::At;
            } else if DOT_WORDS.contains(&t.lower.as_str()) {
                t.tok = Tok::Dot;
            }
        }
    }
    out
}

fn is_word(tokens: &[Token], i: usize) -> bool {
    tokens.get(i).is_some_and(|t| t.tok == Tok::Word)
}

/// The tokens `name (. name)*` from `i`: the index after the last name, and how many dots.
fn dotted_name(tokens: &[Token], i: usize) -> Option<(usize, usize)> {
    if !is_word(tokens, i) {
        return None;
    }
    let (mut j, mut dots) = (i + 1, 0);
    while tokens.get(j).is_some_and(|t| t.tok == Tok::Dot) && is_word(tokens, j + 1) {
        j += 2;
        dots += 1;
    }
    Some((j, dots))
}

/// Extends a found stretch to the end of what sticks to it (an address's path, `?query`).
fn stretch_end(text: &str, end: usize) -> usize {
    let rest = &text[end..];
    let stuck = rest.find(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '!' | '?' | ')' | '"' | '\'')).unwrap_or(rest.len());
    let tail = &rest[..stuck];
    if tail.starts_with('/') || tail.starts_with(':') {
        end + tail.trim_end_matches('.').len()
    } else {
        end
    }
}

fn find_addresses(text: &str, tokens: &[Token], found: &mut Vec<Found>) {
    let mut i = 0;
    while i < tokens.len() {
        // An email address: name(.name)* AT name(.name)+, or AT a known mail service.
        if let Some((after_local, _)) = dotted_name(tokens, i) {
            if tokens.get(after_local).is_some_and(|t| t.tok == Tok::At) {
                if let Some((end, dots)) = dotted_name(tokens, after_local + 1) {
                    let service = &tokens[after_local + 1].lower;
                    let literal_at = text[tokens[after_local].start..tokens[after_local].end].contains(['@', '＠']);
                    let last = &tokens[end - 1].lower;
                    // A written "@" sits between its two halves ("insta @anna" is a handle).
                    let at_sits = !literal_at || (tokens[after_local].joined && tokens[after_local + 1].joined);
                    let domain_ok = at_sits && ((dots > 0 && (literal_at || TLDS.contains(&last.as_str()))) || MAIL_SERVICES.contains(&service.as_str()));
                    if domain_ok {
                        found.push(Found { kind: ContactKind::Email, start: tokens[i].start, end: tokens[end - 1].end });
                        i = end;
                        continue;
                    }
                }
            }
        }
        let t = &tokens[i];
        // A web address: scheme://…, www.…, or name(.name)*.tld.
        if t.tok == Tok::Word && (t.lower == "http" || t.lower == "https") && tokens.get(i + 1).is_some_and(|c| c.tok == Tok::Colon) {
            let mut host = i + 2;
            while tokens.get(host).is_some_and(|s| s.tok == Tok::Slash) {
                host += 1;
            }
            if let Some((end, _)) = dotted_name(tokens, host) {
                let e = stretch_end(text, tokens[end - 1].end);
                found.push(Found { kind: ContactKind::Web, start: t.start, end: e });
                i = end;
                continue;
            }
        }
        if let Some((end, dots)) = dotted_name(tokens, i) {
            let last = &tokens[end - 1].lower;
            let www = t.lower == "www" && dots >= 2;
            // "vonk.nl" (written joined) or "vonk dot nl" (a word for the dot).
            let spelled = dots >= 1 && TLDS.contains(&last.as_str()) && {
                let dot = &tokens[end - 2];
                let written_out = !text[dot.start..dot.end].contains(['.', '。', '．']);
                written_out || (dot.joined && tokens[end - 1].joined)
            };
            let before_is_at = i > 0 && tokens[i - 1].tok == Tok::At;
            if (www || spelled) && !before_is_at && !tokens[end - 1].lower.chars().all(|c| c.is_ascii_digit()) {
                let e = stretch_end(text, tokens[end - 1].end);
                found.push(Found { kind: ContactKind::Web, start: t.start, end: e });
                i = end;
                continue;
            }
        }
        // A messenger name: "@handle", or a messenger's name followed by a handle.
        if t.tok == Tok::At && text[t.start..t.end].contains(['@', '＠']) && is_word(tokens, i + 1) && tokens[i + 1].joined && (i == 0 || !tokens[i].joined) {
            found.push(Found { kind: ContactKind::Messenger, start: t.start, end: tokens[i + 1].end });
            i += 2;
            continue;
        }
        if t.tok == Tok::Word && MESSENGERS.contains(&t.lower.as_str()) {
            let (mut j, mut connected) = (i + 1, false);
            while tokens.get(j).is_some_and(|n| n.tok == Tok::Colon || (n.tok == Tok::Word && HANDLE_FILLERS.contains(&n.lower.as_str()))) {
                connected |= tokens[j].tok == Tok::Colon || HANDLE_CONNECTORS.contains(&tokens[j].lower.as_str());
                j += 1;
            }
            if tokens.get(j).is_some_and(|n| n.tok == Tok::At && text[n.start..n.end].contains(['@', '＠'])) {
                connected = true;
                j += 1;
            }
            // A handle looks like one ("anna_99", "jan1990", "anna.b") or is announced.
            let handle_like =
                |n: &Token| n.lower.chars().any(|c| c.is_ascii_digit() || c == '_') || tokens.get(j + 1).is_some_and(|d| d.tok == Tok::Dot && d.joined);
            if let Some(handle) = tokens.get(j).filter(|n| n.tok == Tok::Word && n.lower.chars().count() >= 3 && (connected || handle_like(n))) {
                let (mut end, mut k) = (handle.end, j + 1);
                // Handles with dots ("anna.b_99").
                while tokens.get(k).is_some_and(|d| d.tok == Tok::Dot && d.joined) && tokens.get(k + 1).is_some_and(|w| w.tok == Tok::Word && w.joined) {
                    end = tokens[k + 1].end;
                    k += 2;
                }
                found.push(Found { kind: ContactKind::Messenger, start: t.start, end });
                i = k;
                continue;
            }
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests;
